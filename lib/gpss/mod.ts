/**
 * GPSS patent search (TIPO, Taiwan): code tables, the hand-built query string, the response
 * parser (JSON and XML) and the client with timeout, retry, cache and coalescing.
 *
 * @example
 * ```ts
 * import { GpssClient } from "./lib/gpss/mod.ts";
 * const gpss = new GpssClient({ baseUrl: "https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpss_api", userCode });
 * const outcome = await gpss.search({ keywords: "無線充電", searchFields: ["title", "abstract"] });
 * ```
 *
 * @module
 */
export { GpssClient } from "./client.ts";
export {
  APPLICATION_TYPE_CODES,
  DATABASE_CODES,
  getAvailableDatabases,
  PATENT_TYPE_CODES,
  SEARCH_FIELDS,
  type SearchField,
} from "./codes.ts";
export {
  dateRangeProblem,
  isCalendarDate,
  MAX_KEYWORDS_LENGTH,
  MAX_OFFSET,
  MAX_QUERY_LENGTH,
  QueryTooLongError,
  requestParams,
  type SearchRequest,
} from "./query.ts";
export { OUTPUT_SECTIONS, type OutputSection } from "./sections.ts";
export { MAX_NUMBER_LENGTH } from "./number.ts";
export { DEFAULT_MAX_CHARS, getPatent, MAX_MAX_CHARS } from "./patent.ts";
export { codeKey, quotaExceeded, type QuotaKeeper, QuotaLedger, type QuotaStatus } from "./quota.ts";
export { quotaWindowAt, type QuotaWindows } from "./quota_window.ts";
export {
  csvColumns,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  exportChunks,
  type ExportFormat,
} from "./export.ts";
export type { SearchOutcome, SearchSuccess, SharedSearches } from "./client.ts";
