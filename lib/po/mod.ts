/**
 * gettext catalogues: read a PO file exactly as GNU msgcat 0.21 reads it, write it exactly as
 * `msgcat FILE` prints it, and the catalogue operations behind the `/po/*` tools.
 *
 * @example
 * ```ts
 * import { encodePo, parsePo } from "./lib/po/mod.ts";
 * const formatted = encodePo(parsePo(await Deno.readFile("fr.po"), "fr.po")); // msgcat's bytes
 * ```
 *
 * The store's codec for reads that must not fail on what polib accepts:
 * `parsePo(bytes, { fileName, strict: false, allowBom: true })` — `encodePo` still refuses such a
 * catalogue while it has duplicates or a byte order mark, as msgcat would.
 *
 * @module
 */
export type { PoCatalog, PoMessage, PoReference } from "./types.ts";
export { DEFAULT_DOMAIN, EMPTY_MESSAGE } from "./types.ts";
export { messageLine, parsePo, type ParsePoOptions } from "./parse.ts";
export { encodePo, encodePoRuns, type FormatOptions, formatPo } from "./write.ts";
export { canonicalCatalog } from "./canonical.ts";
// Internal modules, exported on purpose: the charset names and flags the API and the tests use.
export { canonicalCharset } from "./_charset.ts";
export { catalogCharset } from "./_output_charset.ts";
export { type FlagState, FORMAT_LANGUAGES, formatLanguageOf, interpretFlags } from "./_flags.ts";
export { escapeString, type WrapOptions, wrapString } from "./wrap.ts";
export {
  type ApiEntry,
  type ContextWindow,
  findFuzzy,
  listEntries,
  readContext,
  toApiEntry,
} from "./catalog.ts";
export {
  applyWrite,
  type EntryOutcome,
  MAX_PLURAL_FORMS,
  NEW_CATALOG_HEADER,
  type WriteEntry,
  type WriteMode,
  type WriteOptions,
  type WriteResult,
} from "./apply_write.ts";
export { type CatalogueEdit, editCatalogue, type EditResult } from "./edit_catalogue.ts";
export { runWrap, WRAP_USAGE, type WrapIo } from "./wrap_cli.ts";
export { type DiffOptions, unifiedDiff } from "./unified_diff.ts";
export {
  checkPluralForms,
  type HeaderField,
  type HeaderInfo,
  type HeaderUpdate,
  parseHeaderFields,
  readHeader,
  revisionDate,
  updateHeader,
} from "./header.ts";
export { mergeCatalogs, type MergeOptions, type MergeResult, type MergeStats } from "./merge.ts";
