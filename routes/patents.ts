/**
 * `/tools/*`: patent search through TIPO's GPSS API. Request schemas first (the HTTP contract and
 * the MCP tool schemas), then the tools. Known upstream and configuration failures are answered
 * in-band (`success: false`, `error`), as the replaced service did; a bug is a 500.
 *
 * @module
 */
import { z } from "zod";
import { InvalidInputError } from "../lib/errors.ts";
import {
  APPLICATION_TYPE_CODES,
  csvColumns,
  DATABASE_CODES,
  dateRangeProblem,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  exportChunks,
  type ExportFormat,
  getAvailableDatabases,
  isCalendarDate,
  MAX_KEYWORDS_LENGTH,
  MAX_OFFSET,
  OUTPUT_SECTIONS,
  type OutputSection,
  PATENT_TYPE_CODES,
  QueryTooLongError,
  requestParams,
  SEARCH_FIELDS,
  type SearchField,
  type SearchRequest,
  type SearchSuccess,
} from "../lib/gpss/mod.ts";
import { TextAnswer } from "./text_answer.ts";
import type { AppDeps } from "./deps.ts";
import { SEARCH_EXAMPLES } from "./patent_examples.ts";
import { defineTool, defineToolGroup, requireDep, type ToolAnnotations } from "./tool.ts";
import { pyInt } from "./validation.ts";

const FieldName = z.enum(SEARCH_FIELDS as [SearchField, ...SearchField[]]);

/** pydantic reports a ValueError raised by a validator as `value_error` ("Value error, …"). */
function valueError(message: string) {
  return { type: "value_error", msg: `Value error, ${message}`, ctx: { error: {} } };
}

/** A caller's value quoted in a message: at most 40 characters of it. */
function quoted(value: string): string {
  return JSON.stringify(value.length <= 40 ? value : `${value.slice(0, 40)}…`);
}

/**
 * A list of at most `max` items, refused beyond that as pydantic's `max_length` refuses it
 * (`too_long`). Every list of the request takes allowed values only, so `max` is the number of
 * distinct allowed values: duplicates are accepted (and dropped) within that count.
 */
export function listOf<T extends z.ZodType>(item: T, max: number) {
  return z.array(item).superRefine((list, ctx) => {
    if (list.length > max) {
      ctx.addIssue({
        code: "custom",
        message: "too long",
        params: {
          type: "too_long",
          msg: `List should have at most ${max} item${
            max === 1 ? "" : "s"
          } after validation, not ${list.length}`,
          ctx: { field_type: "List", max_length: max, actual_length: list.length },
        },
      });
    }
  }).meta({ maxItems: max });
}

const DateField = z.string().nullable().optional().superRefine((value, ctx) => {
  if (typeof value === "string" && !isCalendarDate(value)) {
    ctx.addIssue({
      code: "custom",
      message: "must be a real date written YYYYMMDD",
      params: valueError(`${quoted(value)} is not a real date written YYYYMMDD`),
    });
  }
}).meta({ description: "YYYYMMDD, a real date.", example: "20200101" });

/** The fields of a search body; {@link SearchPatentsRequest} adds the rules across fields. */
const SearchPatentsFields = z.strictObject({
  keywords: z.string().min(1).max(MAX_KEYWORDS_LENGTH).meta({
    description: "GPSS search expression (and, or, not, parentheses).",
    example: "wireless charging",
  }),
  search_field: z.union([FieldName, listOf(FieldName, SEARCH_FIELDS.length)]).default("title").meta({
    description: "A field, or fields OR-ed.",
    example: ["title", "abstract"],
  }),
  databases: listOf(z.enum(DATABASE_CODES), DATABASE_CODES.length).nullable().optional().meta({
    description: "patDB codes (get_available_databases); absent: all.",
    example: ["TWA", "USA"],
  }),
  application_types: listOf(z.enum(APPLICATION_TYPE_CODES), APPLICATION_TYPE_CODES.length).nullable()
    .optional().meta({
      description: "A: applications, B: granted.",
    }),
  patent_types: listOf(z.enum(PATENT_TYPE_CODES), PATENT_TYPE_CODES.length).nullable().optional().meta({
    description: "I: invention, M: utility model, D: design.",
  }),
  publication_date_from: DateField,
  publication_date_to: DateField,
  max_results: pyInt({ ge: 1, le: 500 }).default(30).meta({
    description: "Records per page (default 30).",
  }),
  offset: pyInt({ ge: 0, le: MAX_OFFSET }).default(0).meta({
    description: "The last page's data.next_offset.",
    example: 30,
  }),
  fields: listOf(z.enum(OUTPUT_SECTIONS), OUTPUT_SECTIONS.length).optional().meta({
    description: "Extra sections (IPC, CPC always).",
    example: ["claims", "citations"],
  }),
  format: z.enum(EXPORT_FORMATS).optional().meta({
    description: "csv or jsonl export.",
    example: "csv",
  }),
});

/** A validated search body (the wire contract's type, inferred from its schema). */
export type SearchPatentsBody = z.output<typeof SearchPatentsFields>;

/**
 * The HTTP/MCP search body: the one definition of its wire contract. The date rules are the
 * library's own ({@link isCalendarDate}, {@link dateRangeProblem}), reported here in pydantic's shape.
 */
export const SearchPatentsRequest = SearchPatentsFields.superRefine((body, ctx) => {
  const range = dateRangeProblem(
    body.publication_date_from ?? undefined,
    body.publication_date_to ?? undefined,
  );
  if (range !== null) {
    ctx.addIssue({ code: "custom", path: [], message: "range", params: valueError(range) });
  }
  const tooLong = queryTooLong(body);
  if (tooLong !== null) {
    ctx.addIssue({
      code: "custom",
      path: [],
      message: "query too long",
      params: valueError(tooLong.message),
    });
  }
}).meta({ id: "SearchPatentsRequest" });

/**
 * The library's own refusal of a search whose upstream query would be too long, so that it is a
 * 422 item like every other rule of the schema. Other refusals are the fields' own issues (or, for
 * the date-range-as-first-field case, the handler's), so they are left out here.
 */
function queryTooLong(body: SearchPatentsBody): QueryTooLongError | null {
  try {
    requestParams(searchRequestFromBody(body));
    return null;
  } catch (err) {
    if (err instanceof QueryTooLongError) return err;
    if (err instanceof InvalidInputError) return null;
    throw err;
  }
}

/**
 * Maps a validated search body (snake_case, `search_field` one name or a list) onto the library's
 * {@link SearchRequest}. Nothing is checked here: the schema did, and the library's one validator
 * (`normalizeSearchRequest`) applies the same rules to every caller.
 *
 * @example
 * ```ts
 * searchRequestFromBody({ keywords: "x", search_field: "abstract", max_results: 30 }).searchFields; // ["abstract"]
 * ```
 */
export function searchRequestFromBody(body: SearchPatentsBody): SearchRequest {
  const field = body.search_field;
  return {
    keywords: body.keywords,
    searchFields: typeof field === "string" ? [field] : [...field],
    databases: body.databases ?? undefined,
    applicationTypes: body.application_types ?? undefined,
    patentTypes: body.patent_types ?? undefined,
    publicationDateFrom: body.publication_date_from ?? undefined,
    publicationDateTo: body.publication_date_to ?? undefined,
    maxResults: body.max_results,
    offset: body.offset,
    fields: body.fields,
  };
}

const Party = z.object({
  name: z.string().nullable(),
  english_name: z.string().nullable(),
  country_code: z.string().nullable(),
});
export const PatentRecord = z.object({
  patent_number: z.string().nullable(),
  publication_date: z.string().nullable(),
  application_number: z.string().nullable(),
  application_date: z.string().nullable(),
  title: z.string().nullable(),
  english_title: z.string().nullable(),
  abstract: z.array(z.string()),
  applicants: z.array(Party),
  inventors: z.array(Party),
  ipc: z.array(z.string()),
  cpc: z.array(z.string()),
  database: z.string().nullable(),
  claims: z.array(z.object({
    number: z.int(),
    text: z.string(),
    independent: z.boolean(),
    depends_on: z.array(z.int()),
    canceled: z.boolean(),
  })).optional(),
  claims_preamble: z.string().nullable().optional(),
  citations: z.array(z.string()).optional(),
  classifications: z.object({
    loc: z.array(z.string()),
    uspc: z.array(z.string()),
    fi: z.array(z.string()),
    f_term: z.array(z.string()),
    d_term: z.array(z.string()),
  }).optional(),
  priority_claims: z.array(z.object({
    country: z.string().nullable(),
    number: z.string().nullable(),
    date: z.string().nullable(),
  })).optional(),
  agents: z.array(z.string()).optional(),
  examiners: z.array(z.string()).optional(),
}).meta({ id: "PatentRecord" });

/** The export carried in the structured answer (MCP) of a search with `format`. */
const SearchExport = z.object({
  format: z.enum(EXPORT_FORMATS),
  content_type: z.string(),
  columns: z.array(z.string()).nullable(),
  text: z.string(),
});

const SearchPatentsResponse = z.object({
  success: z.boolean(),
  data: z.object({
    total_count: z.int(),
    returned_count: z.int(),
    records: z.array(PatentRecord),
    total: z.int(),
    next_offset: z.int().nullable(),
  }).nullable(),
  request_params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  error: z.string().nullable(),
  export: SearchExport.optional().meta({
    description:
      "With format (MCP): the export; data.records is then empty, the records being in export.text.",
  }),
}).meta({ id: "SearchPatentsResponse" });

/** The export format an `Accept` header asks for, if any (the body's `format` wins). */
function acceptedFormat(headers: Headers | undefined): ExportFormat | undefined {
  const accept = headers?.get("accept")?.toLowerCase() ?? "";
  if (/\btext\/csv\b/.test(accept)) return "csv";
  if (/\bapplication\/(?:jsonl|x-ndjson|x-jsonlines)\b/.test(accept)) return "jsonl";
  return undefined;
}

/** A successful search as an export: HTTP sends the chunks, MCP the text and a structured form. */
function exportAnswer(
  outcome: SearchSuccess,
  format: ExportFormat,
  fields: readonly OutputSection[],
): TextAnswer {
  const chunks = exportChunks(outcome.data.records, format, fields);
  const { total, next_offset } = outcome.data;
  return new TextAnswer(EXPORT_CONTENT_TYPES[format], chunks, () => ({
    ...outcome,
    data: { ...outcome.data, records: [] },
    export: {
      format,
      content_type: EXPORT_CONTENT_TYPES[format],
      columns: format === "csv" ? csvColumns(fields) : null,
      text: chunks.join(""),
    },
  }), {
    "X-Total-Count": String(total),
    ...(next_offset === null ? {} : { "X-Next-Offset": String(next_offset) }),
  });
}

/** What the patent tools use: the GPSS client. */
export interface PatentToolDeps {
  gpss: NonNullable<AppDeps["gpss"]>;
}

/** A search asks TIPO's GPSS (an outside service); it changes nothing. */
export const UPSTREAM: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** The lists are answered from the service's own tables, without asking GPSS. */
const LOCAL_LIST: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** `/tools/*`: they need the GPSS client (`deps.gpss`). */
export const patentTools = defineToolGroup<PatentToolDeps>({
  name: "the patent tools",
  deps: (app) => ({ gpss: requireDep(app.gpss, "gpss", "the patent tools") }),
  tools: [
    defineTool({
      name: "search_patents",
      role: "reader",
      path: "/tools/search_patents",
      summary: "Search patents in TIPO's GPSS",
      description:
        "Searches GPSS: parsed records in pages (data.total, data.next_offset); upstream failures: " +
        "success=false. By number: get_patent.",
      input: SearchPatentsRequest,
      annotations: UPSTREAM,
      errors: [429],
      example: () => ({
        keywords: "wireless charging",
        search_field: ["title", "abstract"],
        databases: ["TWA", "USA"],
        publication_date_from: "20200101",
        max_results: 10,
      }),
      output: SearchPatentsResponse,
      textResponses: [
        {
          mediaType: "text/csv",
          description: "With format csv (or Accept: text/csv): RFC 4180, a header row",
        },
        { mediaType: "application/jsonl", description: "With format jsonl: one record per line" },
      ],
      httpHeaders: [{
        name: "Accept",
        description:
          "text/csv or application/jsonl (also application/x-ndjson) asks for an export as format does",
      }],
      handle: async (body, { gpss }, call) => {
        const format = body.format ?? acceptedFormat(call.headers);
        const outcome = await gpss.search(searchRequestFromBody(body));
        return format === undefined || !outcome.success
          ? outcome
          : exportAnswer(outcome, format, body.fields ?? []);
      },
    }),
    defineTool({
      name: "get_available_databases",
      role: "reader",
      path: "/tools/get_available_databases",
      summary: "List the GPSS patent databases",
      description: "Every patDB code for search_patents' databases, by region, described.",
      input: null,
      annotations: LOCAL_LIST,
      output: z.object({
        success: z.boolean(),
        databases: z.record(z.string(), z.record(z.string(), z.string())),
      }),
      handle: () => ({ success: true, databases: getAvailableDatabases() }),
    }),
    defineTool({
      name: "get_search_examples",
      role: "reader",
      path: "/tools/get_search_examples",
      summary: "Example search_patents requests",
      description: "Named example bodies for search_patents, each ready to send.",
      input: null,
      annotations: LOCAL_LIST,
      output: z.object({
        success: z.boolean(),
        examples: z.record(z.string(), z.record(z.string(), z.unknown())),
      }),
      handle: () => ({ success: true, examples: SEARCH_EXAMPLES }),
    }),
  ],
});
