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
export * from "./codes.ts";
export * from "./query.ts";
export * from "./response.ts";
export * from "./messages.ts";
export * from "./sections.ts";
export * from "./number.ts";
export * from "./patent.ts";
export * from "./quota.ts";
export * from "./quota_window.ts";
export * from "./state_dir.ts";
export * from "./export.ts";
export * from "./client.ts";
