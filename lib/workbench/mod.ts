/**
 * The translator and agent workbench (issue 18, the read side): every catalogue under the roots
 * with its progress (counts equal to `msgfmt --statistics`, see `stats.ts`), one catalogue's
 * entries by state, search across catalogues, all in pages with stable cursors and `fields`
 * selection, every answer with the revisions it was read from.
 *
 * @module
 */
export {
  addCounts,
  type CatalogueCounts,
  catalogueLanguage,
  countCatalogue,
  emptyCounts,
  ENTRY_STATES,
  type EntryState,
  entryState,
  pathLanguage,
  percentDone,
  type StateCounts,
  wordCount,
} from "./stats.ts";
export {
  type CatalogueFile,
  type CatalogueSummary,
  DEFAULT_MAX_FILES,
  RACY_WINDOW_MS,
  resolveDirectory,
  Workbench,
  type WorkbenchOptions,
} from "./tree.ts";
export {
  type EntryPage,
  type EntrySelection,
  MAX_PAGE_LIMIT,
  pageEntries,
  type PageRequest,
} from "./entries.ts";
export {
  contextWithPositions,
  ENTRY_FIELDS,
  type EntryField,
  type EntryPlace,
  entryPlaces,
  entryPositions,
  entryPositionsJson,
  type ListedEntry,
  listedEntry,
  selectFields,
} from "./fields.ts";
export {
  CATALOGUE_SORTS,
  type CatalogueFilter,
  catalogueFilter,
  type CatalogueListing,
  type CatalogueSort,
  type DirectoryTotals,
  listCatalogues,
} from "./listing.ts";
export {
  MAX_ENTRY_COST,
  type ReadCatalogue,
  SEARCH_BUDGET_MS,
  SEARCH_FIELDS,
  searchCatalogues,
  type SearchField,
  type SearchHit,
  type SearchPage,
  type SearchQuery,
  textMatcher,
  type UnsearchedEntry,
} from "./search.ts";
export { requestDigest } from "./_cursor.ts";
export { type DraftFile, DraftIndex, type DraftsPage, type ListedDraft, MAX_DRAFTS_PAGE } from "./drafts.ts";
export {
  compileSearchRegex,
  foldCase,
  globMatcher,
  LINEAR_REGEXP,
  literalOf,
  MAX_PATTERN_LENGTH,
  patternWeight,
  requiredLiteral,
} from "./_pattern.ts";
