/**
 * `/tools/*`: patent search through TIPO's GPSS API. Request schemas first (the HTTP contract and
 * the MCP tool schemas), then the tools. Known upstream and configuration failures are answered
 * in-band (`success: false`, `error`), as the replaced service did; a bug is a 500.
 *
 * @module
 */
import { z } from "zod";
import {
  APPLICATION_TYPE_CODES,
  DATABASE_CODES,
  getAvailableDatabases,
  PATENT_TYPE_CODES,
  SEARCH_EXAMPLES,
  SEARCH_FIELDS,
  type SearchField,
  searchRequestFromBody,
} from "../lib/gpss/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool } from "./tool.ts";
import { pyInt } from "./validation.ts";

const FieldName = z.enum(SEARCH_FIELDS as [SearchField, ...SearchField[]]);

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** pydantic reports a ValueError raised by a validator as `value_error` ("Value error, …"). */
function valueError(message: string) {
  return { type: "value_error", msg: `Value error, ${message}`, ctx: { error: {} } };
}

const DateField = z.string().nullable().optional().superRefine((value, ctx) => {
  if (typeof value === "string" && !isCalendarDate(value)) {
    ctx.addIssue({
      code: "custom",
      message: "must be a real date written YYYYMMDD",
      params: valueError(`${JSON.stringify(value)} is not a real date written YYYYMMDD`),
    });
  }
}).meta({ description: "Publication date bound, YYYYMMDD (a real calendar date).", example: "20200101" });

export const SearchPatentsRequest = z.strictObject({
  keywords: z.string().min(1).meta({
    description: "Search expression; GPSS boolean syntax (and, or, not, parentheses) is passed through.",
    example: "wireless charging",
  }),
  search_field: z.union([FieldName, z.array(FieldName)]).default("title").meta({
    description: "Field (or list of fields, OR-ed together) to search the keywords in.",
    example: ["title", "abstract"],
  }),
  databases: z.array(z.enum(DATABASE_CODES)).nullable().optional().meta({
    description: "patDB codes (see get_available_databases); absent = all.",
    example: ["TWA", "USA"],
  }),
  application_types: z.array(z.enum(APPLICATION_TYPE_CODES)).nullable().optional().meta({
    description: "patAG codes: A = published applications, B = granted/announced patents.",
  }),
  patent_types: z.array(z.enum(PATENT_TYPE_CODES)).nullable().optional().meta({
    description: "patTY codes: I = invention, M = utility model, D = design.",
  }),
  publication_date_from: DateField,
  publication_date_to: DateField,
  max_results: pyInt({ ge: 1, le: 500 }).default(30).meta({ description: "Records to return, 1–500." }),
}).superRefine((body, ctx) => {
  const { publication_date_from: from, publication_date_to: to } = body;
  if (from && to && isCalendarDate(from) && isCalendarDate(to) && from > to) {
    ctx.addIssue({
      code: "custom",
      path: [],
      message: "range",
      params: valueError(`publication_date_from (${from}) is after publication_date_to (${to})`),
    });
  }
}).meta({ id: "SearchPatentsRequest" });

const Party = z.object({
  name: z.string().nullable(),
  english_name: z.string().nullable(),
  country_code: z.string().nullable(),
});
const PatentRecord = z.object({
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
}).meta({ id: "PatentRecord" });

const SearchPatentsResponse = z.object({
  success: z.boolean(),
  data: z.object({ total_count: z.int(), returned_count: z.int(), records: z.array(PatentRecord) })
    .nullable(),
  request_params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  error: z.string().nullable(),
}).meta({ id: "SearchPatentsResponse" });

function gpss(deps: AppDeps) {
  if (!deps.gpss) throw new Error("the patent tools need a GPSS client");
  return deps.gpss;
}

export const patentTools = [
  defineTool({
    name: "search_patents",
    path: "/tools/search_patents",
    summary: "Search patents in TIPO's GPSS",
    description: "Searches the GPSS patent databases and returns parsed records (numbers, dates, titles, " +
      "abstract paragraphs, applicants, inventors, IPC/CPC). Failures (USER_CODE missing or refused, quota " +
      "used up, upstream down) come back as success=false with an error saying what to do. request_params " +
      'shows the query sent upstream (without the user code). Example: {"keywords": "wireless charging", ' +
      '"search_field": ["title", "abstract"], "databases": ["TWA", "USA"], "publication_date_from": "20200101", ' +
      '"max_results": 10}.',
    input: SearchPatentsRequest,
    output: SearchPatentsResponse,
    handle: (body, deps) => gpss(deps).search(searchRequestFromBody(body)),
  }),
  defineTool({
    name: "get_available_databases",
    path: "/tools/get_available_databases",
    summary: "List the GPSS patent databases",
    description: "Returns every patDB code usable in search_patents' `databases`, grouped by region " +
      "(TW, US, JP, EP, KR, CN, International), with a description. Takes no arguments.",
    input: null,
    output: z.object({
      success: z.boolean(),
      databases: z.record(z.string(), z.record(z.string(), z.string())),
    }),
    handle: () => ({ success: true, databases: getAvailableDatabases() }),
  }),
  defineTool({
    name: "get_search_examples",
    path: "/tools/get_search_examples",
    summary: "Example search_patents requests",
    description:
      "Returns named example bodies for search_patents; each can be sent as is. Takes no arguments.",
    input: null,
    output: z.object({
      success: z.boolean(),
      examples: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
    handle: () => ({ success: true, examples: SEARCH_EXAMPLES }),
  }),
];
