/**
 * The outgoing GPSS query string, built by hand.
 *
 * A generic encoder cannot be used: `URLSearchParams` turns the key `+AB` into `%2BAB` (which GPSS
 * silently ignores, so a cross-field OR becomes a no-op), `TI/AB` into `TI%2FAB` and `2020:2021`
 * into `2020%3A2021` (docs/gpss-upstream.md §2.7). Keys are therefore written literally and only
 * values are percent-encoded (UTF-8, space as `%20`, `,` and `:` kept as the doc's examples show).
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { boundedExcerpt } from "./_excerpt.ts";
import {
  APPLICATION_TYPE_CODES,
  DATABASE_CODES,
  PATENT_TYPE_CODES,
  REQUESTED_OUTPUT_FIELDS,
  SEARCH_FIELD_ALIASES,
  SEARCH_FIELDS,
  type SearchField,
} from "./codes.ts";
import { OUTPUT_SECTIONS, type OutputSection, sectionCodes } from "./sections.ts";

/** A patent search, in the library's terms (the HTTP layer maps its snake_case body onto this). */
export interface SearchRequest {
  /** The search expression; GPSS boolean syntax (`and`/`or`/`not`, parentheses) is passed through. */
  keywords: string;
  /** Fields searched for `keywords`, OR-ed together; default `["title"]`. Duplicates are dropped. */
  searchFields?: readonly SearchField[];
  /** `patDB` codes; omitted or empty = every database (GPSS default). */
  databases?: readonly string[];
  /** `patAG` codes (`A`, `B`); omitted or empty = both. */
  applicationTypes?: readonly string[];
  /** `patTY` codes (`I`, `M`, `D`); omitted or empty = all. */
  patentTypes?: readonly string[];
  /** Earliest publication date: a real calendar date written `YYYYMMDD` (see {@link isCalendarDate}). */
  publicationDateFrom?: string;
  /** Latest publication date, `YYYYMMDD`; not before `publicationDateFrom`. */
  publicationDateTo?: string;
  /** Records to return, 1–500; default 30. */
  maxResults?: number;
  /** Records to skip (sent as `expSkip`), 0–{@link MAX_OFFSET}; default 0. */
  offset?: number;
  /** Extra sections of each record (claims, citations, …); default none. Duplicates are dropped. */
  fields?: readonly OutputSection[];
}

/** The output format requested from GPSS (see {@link RESPONSE_FORMAT}). */
export type ResponseFormat = "json" | "xml";

/**
 * The format this client asks GPSS for: **JSON**.
 *
 * Why JSON although XML is the upstream default: JSON is what every public client that ran
 * against the live API uses (RAW, SANDY, NOTIFY, TRANS, COUNT, IPW: §3.1, all [OBS]), so its
 * envelope and record shapes are observed, while the XML layout is reconstructed from a single
 * crawler and partly inferred (§3.2, §3.8). Its known defects are few and repairable: single
 * items collapsing to objects (also true of XML), unescaped backslashes and a missing comma before
 * `"f-term"` (§3.4) — the parser repairs both, and `FT` is not requested anyway. A truncated
 * JSON body is detectable (it ends inside a value) and retried. XML answers are still parsed into
 * the same records, in case GPSS answers XML regardless of `expFmt` (a claim made in MCP).
 */
export const RESPONSE_FORMAT: ResponseFormat = "json";

/** Upper bound of `maxResults` (the original service's limit; GPSS itself allows 10,000). */
export const MAX_RESULTS_LIMIT = 500;

/**
 * Largest `offset`. GPSS's own ceiling for `expSkip` is unknown (§2.6: beyond the results it says
 * `expSkip too much`); no search is known to have more hits than this, and a bound keeps the number
 * sent upstream an ordinary integer.
 */
export const MAX_OFFSET = 10_000_000;

/**
 * An `offset` at or past the last result: `total` is how many results the search has, so the
 * caller knows the offsets that exist (0 to total − 1).
 */
export class OffsetBeyondResultsError extends InvalidInputError {
  readonly total: number;
  readonly offset: number;
  constructor(offset: number, total: number) {
    super(
      total === 0
        ? `offset ${offset} is past the end of the results: the search has no results.`
        : `offset ${offset} is past the end of the results: the search has ${total} result${
          total === 1 ? "" : "s"
        }, so offsets run from 0 to ${total - 1}.`,
    );
    this.total = total;
    this.offset = offset;
  }
}

/** Default `maxResults`. */
export const DEFAULT_MAX_RESULTS = 30;

/**
 * Longest `keywords` accepted, in characters (UTF-16 code units, as JavaScript and zod count
 * them: a character outside the BMP counts twice). GPSS caps the length of the search condition (`Exceeded search
 * condition length`, §2.3): conditions of about 1,096 characters were accepted and of about 2,196
 * refused, the exact bound unknown. 2,000 lets through everything GPSS is known to accept and
 * refuses, before any request, what it is sure to refuse.
 */
export const MAX_KEYWORDS_LENGTH = 2_000;

/**
 * Longest query string sent to GPSS, in characters, without `userCode=…&`: the keywords are sent
 * once per search field, percent-encoded (a CJK character takes 9). GPSS sits behind Cloudflare
 * (§1), which answers 414 to a URI longer than 32 KB; 32,000 leaves room for the path and the
 * user code. A longer search is refused before any request (it could never be answered) instead
 * of building a URL of megabytes.
 */
export const MAX_QUERY_LENGTH = 32_000;

/** At most this many characters of a caller's value are quoted back in an error message. */
const QUOTED_VALUE_LENGTH = 60;

/** A value quoted in an error message: JSON-quoted, at most {@link QUOTED_VALUE_LENGTH} characters. */
function quoted(value: unknown): string {
  return JSON.stringify(boundedExcerpt(String(value), QUOTED_VALUE_LENGTH));
}

/**
 * A search whose query string would exceed {@link MAX_QUERY_LENGTH}: the keywords are too long
 * for the number of fields searched. `length` is the query's length without the user code.
 */
export class QueryTooLongError extends InvalidInputError {
  readonly length: number;
  constructor(length: number) {
    super(
      `The search needs a query string of ${length} characters (keywords percent-encoded once per ` +
        `search field), more than the ${MAX_QUERY_LENGTH} that can be sent to GPSS: shorten the ` +
        "keywords or search fewer fields.",
    );
    this.length = length;
  }
}

/** A search request with defaults applied and every code checked. */
export interface NormalizedSearchRequest {
  keywords: string;
  searchFields: SearchField[];
  databases: string[];
  applicationTypes: string[];
  patentTypes: string[];
  publicationDateFrom: string | undefined;
  publicationDateTo: string | undefined;
  maxResults: number;
  offset: number;
  fields: OutputSection[];
}

/**
 * The query parameters in the order they are sent, WITHOUT `userCode` (safe to show a caller).
 * `expQty` and `expSkip` are numbers, everything else the decoded string value.
 */
export type RequestParams = Record<string, string | number>;

/** Refuses a list longer than the number of distinct values it may hold. */
function checkCount(label: string, values: readonly unknown[] | undefined, allowed: number): void {
  if (values !== undefined && values.length > allowed) {
    throw new InvalidInputError(
      `Too many ${label} values: ${values.length} given, at most ${allowed} (one per distinct value)`,
    );
  }
}

function checkCodes<T extends string>(
  label: string,
  values: readonly string[] | undefined,
  allowed: readonly T[],
): T[] {
  checkCount(label, values, allowed.length);
  const out: T[] = [];
  for (const v of values ?? []) {
    if (!(allowed as readonly string[]).includes(v)) {
      throw new InvalidInputError(`Invalid ${label}: ${quoted(v)} is not one of ${allowed.join(", ")}`);
    }
    if (!out.includes(v as T)) out.push(v as T);
  }
  return out;
}

/**
 * The one date rule of a search: a date bound is a real calendar date written `YYYYMMDD`.
 *
 * GPSS itself also reads `YYYY` and `YYYYMM` (§2.4), but the HTTP contract (the original service's)
 * has always promised `YYYYMMDD`, and a date GPSS cannot have (`20230230`) is refused here rather
 * than sent. The route's schema reports this rule in pydantic's shape by calling this function,
 * so both edges apply the same one.
 *
 * @example
 * ```ts
 * isCalendarDate("20240229"); // true
 * isCalendarDate("20230229"); // false
 * isCalendarDate("2023"); // false
 * ```
 */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Why two date bounds cannot go together (`from` after `to`), or null when they can. Bounds that
 * are not calendar dates are {@link isCalendarDate}'s concern, not this one's.
 *
 * @example
 * ```ts
 * dateRangeProblem("20240101", "20230101"); // "publication_date_from (20240101) is after publication_date_to (20230101)"
 * ```
 */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  if (from === undefined || to === undefined || !isCalendarDate(from) || !isCalendarDate(to)) return null;
  return from > to ? `publication_date_from (${from}) is after publication_date_to (${to})` : null;
}

function checkDate(label: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!isCalendarDate(value)) {
    throw new InvalidInputError(`Invalid ${label}: ${quoted(value)} is not a real date written YYYYMMDD`);
  }
  return value;
}

/**
 * Applies the defaults (`searchFields` `["title"]`, `maxResults` 30), drops duplicate fields and
 * codes (first occurrence wins) and checks every value.
 *
 * @throws {InvalidInputError} for `keywords` longer than {@link MAX_KEYWORDS_LENGTH}, a list with
 * more values than it has distinct allowed ones, an unknown search field / database / application
 * type / patent type, an empty `searchFields`, a date that is not a real `YYYYMMDD` one, a `from`
 * after `to`, `maxResults` outside 1–500, or
 * `publication_date` used both as a search field and as the date range (GPSS would get two `ID`
 * conditions).
 * @example
 * ```ts
 * normalizeSearchRequest({ keywords: "battery" }).searchFields; // ["title"]
 * ```
 */
export function normalizeSearchRequest(req: SearchRequest): NormalizedSearchRequest {
  if (typeof req.keywords !== "string") throw new InvalidInputError("keywords must be a string");
  if (req.keywords.length > MAX_KEYWORDS_LENGTH) {
    throw new InvalidInputError(
      `keywords has ${req.keywords.length} characters, more than the ${MAX_KEYWORDS_LENGTH} accepted ` +
        "(GPSS refuses longer search conditions): shorten them.",
    );
  }
  checkCount("search field", req.searchFields, SEARCH_FIELDS.length);
  const fields: SearchField[] = [];
  for (const f of req.searchFields ?? ["title"]) {
    if (!Object.hasOwn(SEARCH_FIELD_ALIASES, f)) {
      throw new InvalidInputError(
        `Invalid search field: ${quoted(f)} is not one of ${SEARCH_FIELDS.join(", ")}`,
      );
    }
    if (!fields.includes(f)) fields.push(f);
  }
  if (fields.length === 0) throw new InvalidInputError("search_field must contain at least one value.");
  const maxResults = req.maxResults ?? DEFAULT_MAX_RESULTS;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > MAX_RESULTS_LIMIT) {
    throw new InvalidInputError(
      `Invalid max_results: ${maxResults} is not a whole number between 1 and ${MAX_RESULTS_LIMIT}`,
    );
  }
  const offset = req.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
    throw new InvalidInputError(
      `Invalid offset: ${offset} is not a whole number between 0 and ${MAX_OFFSET}`,
    );
  }
  const from = checkDate("publication_date_from", req.publicationDateFrom);
  const to = checkDate("publication_date_to", req.publicationDateTo);
  const range = dateRangeProblem(from, to);
  if (range !== null) throw new InvalidInputError(range);
  if (fields[0] === "publication_date" && (from !== undefined || to !== undefined)) {
    throw new InvalidInputError(
      "publication_date cannot be both the first search field and a publication date range: " +
        "put the range in the keywords (e.g. 20200101:20231231) or drop publication_date_from/to",
    );
  }
  return {
    keywords: req.keywords,
    searchFields: fields,
    databases: checkCodes("database", req.databases, DATABASE_CODES),
    applicationTypes: checkCodes("application type", req.applicationTypes, APPLICATION_TYPE_CODES),
    patentTypes: checkCodes("patent type", req.patentTypes, PATENT_TYPE_CODES),
    publicationDateFrom: from,
    publicationDateTo: to,
    maxResults,
    offset,
    fields: checkCodes("field", req.fields, OUTPUT_SECTIONS),
  };
}

/**
 * The parameters in sending order, without `userCode`:
 * search conditions (first field = keywords, each further field as `+FIELD` = cross-field OR,
 * then `ID=from:to`), then `patDB`, `patAG`, `patTY`, then `expFld` (the record's fields, then the
 * codes of the extra sections asked for), `expFmt`, `expQty`, `expSkip` (the offset).
 *
 * The `+` fields come right after the first one because GPSS applies a `+`/`-` prefix to the
 * condition before it (RAW's model, §2.3): `TI=x&+AB=x&ID=…` reads (TI or AB) and ID.
 *
 * @throws {InvalidInputError} as {@link normalizeSearchRequest}; {@link QueryTooLongError} when
 * the query string would be longer than {@link MAX_QUERY_LENGTH}.
 * @example
 * ```ts
 * requestParams({ keywords: "battery", searchFields: ["title", "abstract"] });
 * // { TI: "battery", "+AB": "battery", expFld: "PN,ID,…", expFmt: "json", expQty: 30, expSkip: 0 }
 * ```
 */
export function requestParams(req: SearchRequest): RequestParams {
  return paramsOf(normalizeSearchRequest(req));
}

/**
 * The parameters of an already normalised request (what {@link requestParams} does after
 * {@link normalizeSearchRequest}), for a caller that needs both without validating twice.
 *
 * @throws {QueryTooLongError} when the query string would be longer than {@link MAX_QUERY_LENGTH}.
 */
export function paramsOf(n: NormalizedSearchRequest): RequestParams {
  const params: RequestParams = {};
  n.searchFields.forEach((field, i) => {
    params[(i === 0 ? "" : "+") + SEARCH_FIELD_ALIASES[field]] = n.keywords;
  });
  if (n.publicationDateFrom !== undefined || n.publicationDateTo !== undefined) {
    params.ID = `${n.publicationDateFrom ?? ""}:${n.publicationDateTo ?? ""}`;
  }
  if (n.databases.length > 0) params.patDB = n.databases.join(",");
  if (n.applicationTypes.length > 0) params.patAG = n.applicationTypes.join(",");
  if (n.patentTypes.length > 0) params.patTY = n.patentTypes.join(",");
  params.expFld = [...REQUESTED_OUTPUT_FIELDS, ...sectionCodes(n.fields)].join(",");
  params.expFmt = RESPONSE_FORMAT;
  params.expQty = n.maxResults;
  params.expSkip = n.offset;
  const length = queryLength(params);
  if (length > MAX_QUERY_LENGTH) throw new QueryTooLongError(length);
  return params;
}

/**
 * The length of the query string {@link buildQueryFromParams} makes of `params`, without its
 * leading `userCode=…&`, computed without building it.
 *
 * @example
 * ```ts
 * queryLength({ TI: "a b", expQty: 30 }); // 18 ("TI=a%20b&expQty=30")
 * ```
 */
export function queryLength(params: RequestParams): number {
  const entries = Object.entries(params);
  let length = Math.max(0, entries.length - 1); // the "&"s
  const encoded = new Map<string, number>(); // the keywords are sent once per field
  for (const [key, value] of entries) {
    const text = String(value);
    let size = encoded.get(text);
    if (size === undefined) {
      size = encodeGpssValue(text).length;
      encoded.set(text, size);
    }
    length += key.length + 1 + size;
  }
  return length;
}

/**
 * Percent-encodes a query value the way GPSS's documented examples expect: UTF-8, space as `%20`
 * (never `+`, whose meaning in a value is unknown), `,` and `:` literal. Lone surrogates become
 * U+FFFD instead of throwing.
 *
 * @example
 * ```ts
 * encodeGpssValue("雲端 AND 2020:2021"); // "%E9%9B%B2%E7%AB%AF%20AND%202020:2021"
 * ```
 */
export function encodeGpssValue(value: string): string {
  return encodeURIComponent(value.toWellFormed()).replace(/%2C/g, ",").replace(/%3A/g, ":");
}

/**
 * The full query string (no leading `?`) for a search: `userCode` first, then
 * {@link requestParams} in order. Keys are written literally (`+AB`, never `%2BAB`).
 *
 * @throws {InvalidInputError} as {@link normalizeSearchRequest}.
 * @example
 * ```ts
 * buildQuery({ keywords: "雲端", searchFields: ["title", "abstract"], databases: ["TWA"] }, "CODE");
 * // "userCode=CODE&TI=%E9%9B%B2%E7%AB%AF&+AB=%E9%9B%B2%E7%AB%AF&patDB=TWA&expFld=…&expFmt=json&expQty=30&expSkip=0"
 * ```
 */
export function buildQuery(req: SearchRequest, userCode: string): string {
  return buildQueryFromParams(requestParams(req), userCode);
}

/**
 * The query string for already-built {@link RequestParams} (what {@link buildQuery} does after
 * {@link requestParams}).
 */
export function buildQueryFromParams(params: RequestParams, userCode: string): string {
  const parts = [`userCode=${encodeGpssValue(userCode)}`];
  for (const [key, value] of Object.entries(params)) parts.push(`${key}=${encodeGpssValue(String(value))}`);
  return parts.join("&");
}
