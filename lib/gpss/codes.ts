/**
 * The code tables of TIPO's GPSS patent-search API: search fields and their GPSS parameter names,
 * the 23 databases (`patDB`), application kinds (`patAG`), patent types (`patTY`) and output
 * fields (`expFld`). Readonly data, so the HTTP layer can build its zod enums from the same lists.
 *
 * Sources: `docs/gpss-upstream.md` §2.2 (field codes), §2.5/§5 (database codes and regions), §2.6
 * (output codes); the database descriptions are the original service's (`mcp-tw-gpss` `PatDB`).
 *
 * @module
 */

/**
 * Search fields the API accepts, in the original service's schema order, each mapped to the GPSS
 * parameter name that searches it (`title` → `TI`, `applicant_name` → `AX`, …).
 *
 * @example
 * ```ts
 * SEARCH_FIELD_ALIASES.applicant_name; // "AX"
 * ```
 */
export const SEARCH_FIELD_ALIASES = {
  title: "TI",
  abstract: "AB",
  claims: "CL",
  patent_number: "PN",
  publication_date: "ID",
  application_number: "AN",
  application_date: "AD",
  applicant_name: "AX",
  first_applicant_name: "AF",
  applicant_country: "AY",
  first_applicant_country: "AZ",
  inventor_name: "IV",
  inventor_country: "IY",
  agent_name: "LX",
  examiner: "EX",
  priority: "PR",
  priority_date: "DR",
  ipc: "IC",
  first_ipc: "FC",
  cpc: "CS",
  first_cpc: "TS",
  loc: "IQ",
  fi: "FI",
  f_term: "FT",
  d_term: "IR",
  uspc: "UC",
  cited_patents: "CI",
} as const;

/** A search field name (`title`, `abstract`, …). */
export type SearchField = keyof typeof SEARCH_FIELD_ALIASES;

/** The search field names, in schema order (the values a `search_field` enum accepts). */
export const SEARCH_FIELDS = Object.freeze(
  Object.keys(SEARCH_FIELD_ALIASES) as [SearchField, ...SearchField[]],
);

/**
 * Every search-condition parameter name GPSS recognises (§2.2), including the two combined keys
 * `TI/AB` and `TI/AB/CL`. Any other parameter name is silently ignored by GPSS.
 */
export const CONDITION_CODES: readonly string[] = Object.freeze([
  ...Object.values(SEARCH_FIELD_ALIASES),
  "TI/AB",
  "TI/AB/CL",
]);

/** The regions databases are grouped by, in display order. */
export const REGIONS = ["TW", "US", "JP", "EP", "KR", "CN", "International"] as const;

/** A database region. */
export type Region = typeof REGIONS[number];

/** The 23 `patDB` codes, in the API's order (the values a `databases` enum accepts). */
// deno-fmt-ignore
export const DATABASE_CODES = [
  "TWA", "TWB", "TWD", "USA", "USB", "USD", "JPA", "JPB", "JPD", "EPA", "EPB", "EUIPO",
  "KPA", "KPB", "KPD", "CNA", "CNB", "CND", "WO", "SEAA", "SEAB", "OTA", "OTB",
] as const;

/** A `patDB` code. */
export type DatabaseCode = typeof DATABASE_CODES[number];

/** One GPSS database (`patDB` code). */
export interface DatabaseInfo {
  readonly code: DatabaseCode;
  readonly region: Region;
  readonly description: string;
}

/**
 * The 23 GPSS databases in the API's order. Korea is `KP*` (not `KR*`); `EUIPO` (EU designs) is
 * grouped with EP, and WIPO, South-East Asia and "other countries" form "International", as the
 * original service groups them. SEAA/SEAB/OTA/OTB carry bibliographic data only (no full text).
 */
export const DATABASES: readonly DatabaseInfo[] = Object.freeze([
  {
    code: "TWA",
    region: "TW",
    description: "台灣公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），2003 ~",
  },
  { code: "TWB", region: "TW", description: "台灣公告（公告之專利表示已取得專利權），1950 ~" },
  { code: "TWD", region: "TW", description: "台灣設計，1964 ~" },
  {
    code: "USA",
    region: "US",
    description: "美國公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權）， 2001 ~",
  },
  { code: "USB", region: "US", description: "美國公告（公告之專利表示已取得專利權）， 1790 ~" },
  { code: "USD", region: "US", description: "美國設計，1976 ~" },
  {
    code: "JPA",
    region: "JP",
    description: "日本公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），1971 ~",
  },
  { code: "JPB", region: "JP", description: "日本公告（公告之專利表示已取得專利權），1913 ~" },
  { code: "JPD", region: "JP", description: "日本意匠，2000 ~" },
  {
    code: "EPA",
    region: "EP",
    description: "歐洲公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），1978 ~",
  },
  { code: "EPB", region: "EP", description: "歐洲公告（公告之專利表示已取得專利權），1980 ~" },
  { code: "EUIPO", region: "EP", description: "歐洲設計，2003 ~" },
  {
    code: "KPA",
    region: "KR",
    description: "韓國公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），1999 ~",
  },
  { code: "KPB", region: "KR", description: "韓國公告（公告之專利表示已取得專利權），1974 ~" },
  { code: "KPD", region: "KR", description: "韓國設計，1998 ~" },
  {
    code: "CNA",
    region: "CN",
    description: "中國公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），1985 ~",
  },
  { code: "CNB", region: "CN", description: "中國公告（公告之專利表示已取得專利權），1985 ~" },
  { code: "CND", region: "CN", description: "中國設計，1985 ~" },
  { code: "WO", region: "International", description: "WIPO 公開，1978 ~" },
  { code: "SEAA", region: "International", description: "東南亞公開(無全文)，1953 ~" },
  { code: "SEAB", region: "International", description: "東南亞公告(無全文)，1975 ~" },
  { code: "OTA", region: "International", description: "其他國家公開(無全文)，1782 ~" },
  { code: "OTB", region: "International", description: "其他國家公告(無全文)，1827 ~" },
].map((d) => Object.freeze(d as DatabaseInfo)));

/** `patAG` codes: `A` published applications (公開案), `B` granted / announced (公告案). */
export const APPLICATION_TYPES: Readonly<Record<"A" | "B", string>> = Object.freeze({
  A: "公開案 (published applications)",
  B: "公告案 (granted / announced patents)",
});

/** The `patAG` codes (the values an `application_types` enum accepts). */
export const APPLICATION_TYPE_CODES = ["A", "B"] as const;

/** `patTY` codes: `I` invention (發明), `M` utility model (新型), `D` design (設計). */
export const PATENT_TYPES: Readonly<Record<"I" | "M" | "D", string>> = Object.freeze({
  I: "發明 (invention)",
  M: "新型 (utility model)",
  D: "設計 (design)",
});

/** The `patTY` codes (the values a `patent_types` enum accepts). */
export const PATENT_TYPE_CODES = ["I", "M", "D"] as const;

/**
 * The 20 documented output codes for `expFld` (API_code.pdf 表2 as quoted in §2.6), with the
 * record section each one fills. Other codes may be answered with `Unknow field`.
 */
export const OUTPUT_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  PN: "publication-reference/doc-number (publication number)",
  AN: "application-reference/doc-number (application number)",
  ID: "publication-reference/date (publication date)",
  AD: "application-reference/date (application date)",
  TI: "patent-title/title, english-title",
  PA: "parties/applicants/applicant (name, english-name, country-code)",
  IN: "parties/inventors/inventor (name, english-name, country-code)",
  LX: "parties/agents/agent",
  EX: "examiners",
  PR: "priority-claims/priority-claim",
  AB: "abstract/p (paragraphs; native language, then English)",
  IC: "classifications-ipc/ipc",
  IQ: "classifications-loc/loc",
  CS: "classifications-cpc/cpc",
  UC: "classifications-national/uspc",
  FI: "classifications-national/fi",
  FT: "classifications-national/f-term",
  IR: "classifications-national/d-term",
  CI: "references-cited/citation",
  CL: "claims/claim",
});

/**
 * The output fields this client requests: numbers, dates, titles, abstracts, applicants,
 * inventors, IPC and CPC — everything a `PatentRecord` holds.
 * Claims (`CL`) are left out: they are the bulk of a record (~15 KB for 41 claims) and have the
 * preamble/numbering quirks of §3.4; `FT` is left out because the known missing-comma JSON bug
 * sits just before `"f-term"` (§3.4). expFld does not change the quota cost (§2.6).
 */
export const REQUESTED_OUTPUT_FIELDS: readonly string[] = Object.freeze([
  "PN",
  "ID",
  "AN",
  "AD",
  "TI",
  "AB",
  "PA",
  "IN",
  "IC",
  "CS",
]);

/**
 * The databases grouped by region: `{region: {code: description}}`, every one of the 23 codes.
 *
 * @example
 * ```ts
 * getAvailableDatabases().KR; // { KPA: "韓國公開…", KPB: "韓國公告…", KPD: "韓國設計，1998 ~" }
 * ```
 */
export function getAvailableDatabases(): Record<Region, Record<string, string>> {
  const out = {} as Record<Region, Record<string, string>>;
  for (const region of REGIONS) out[region] = {};
  for (const db of DATABASES) out[db.region][db.code] = db.description;
  return out;
}
