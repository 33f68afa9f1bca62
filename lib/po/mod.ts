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
export { isHeader, type PoCatalog, type PoMessage } from "./types.ts";
export { messageLines, parsePo } from "./read/parse.ts";
export { placeholderCharsetWarning } from "./read/placeholder_charset.ts";
export { encodePo, formatPo } from "./write/write.ts";
export { canonicalCatalog } from "./write/canonical.ts";
export {
  fileInLayout,
  keptBytes,
  layEntryOut,
  type LayoutMode,
  type LayoutReport,
} from "./write/keep_layout.ts";
export {
  type ApiEntry,
  entryMessages,
  fuzzyMessages,
  listEntries,
  readContext,
  toApiEntry,
} from "./operations/catalog.ts";
export { applyWrite, type WriteEntry } from "./operations/apply_write.ts";
export { editCatalogue } from "./operations/edit_catalogue.ts";
export { type DraftMark, MAX_DRAFT_AUTHOR_CHARS, mayHoldDrafts, readDraft } from "./operations/draft_mark.ts";
export {
  catalogueDrafts,
  type DraftEntry,
  draftEntry,
  type DraftReview,
  type FoundDraft,
  reviewDraft,
  type ReviewResult,
} from "./operations/review_draft.ts";
export { unifiedDiff } from "./write/unified_diff.ts";
export { MAX_HEADER_UPDATES, MAX_HEADER_VALUE_CHARS, readHeader, updateHeader } from "./operations/header.ts";
export { type FuzzyLimits, mergeCatalogs, type MergeOutcome, type MergeStats } from "./operations/merge.ts";
export { type FuzzyBudget, LcsPattern, similarity as fuzzySimilarity } from "./operations/_fuzzy_match.ts";
export {
  collectWrapTargets,
  type EntryKind,
  entryKind,
  filesUnder,
  type TreeWalkIo,
  walkTree,
  type WrapTreeIo,
} from "./operations/tree_walk.ts";
export {
  CHECK_NAMES,
  type CheckProblem,
  CHECKS,
  ChecksFailedError,
  DEFAULT_CHECKS,
  type TermRules,
} from "./checks/mod.ts";
export { checkTree, type CheckTreeIo } from "./checks/tree.ts";
export { introducedByEntry } from "./checks/changed.ts";
export { compileMo, type CompileOptions, type CompileResult, readForCompile } from "./operations/compile.ts";
export { pathFunctions } from "./_paths.ts";
export { knownLayout, LAID_OUT, laidOutVerdict, NOT_LAID_OUT } from "./write/laid_out.ts";
export { runCheckRequest } from "./checks/request.ts";
export { REST_CHECK_NAMES } from "./checks/not_run.ts";
export { layoutGenerationOf, PO_CODEC, useLayoutGenerations } from "./operations/po_codec.ts";
export {
  closestExisting,
  MAX_SIMILAR_CHECKED,
  similarDistance,
  type SimilarExisting,
  similarExisting,
} from "./operations/similar_existing.ts";
export { editHeader, type HeaderEdit, type HeaderEditResult } from "./operations/edit_header.ts";
export { expectedPluralForms, pluralFormsMismatch } from "./operations/plural_rules.ts";
export { MAX_LISTED_PURGED, purgeCatalogue } from "./operations/purge_catalogue.ts";
export type { PurgeSelection } from "./operations/delete_entries.ts";
export { GETTEXT_GENERATIONS, type GettextGeneration, parseGeneration } from "./layout/generation.ts";
export {
  detectGeneration,
  DETECTION_SAMPLE,
  electGeneration,
  type GenerationVotes,
  gettextSetting,
  type LayoutVote,
  layoutVote,
  MAX_SETTINGS_BYTES,
  mixedNote,
  tallyVotes,
} from "./operations/gettext_generation.ts";
