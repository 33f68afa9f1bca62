/**
 * The translation memory (issue 36.4-5): every translated and obsolete entry under the roots,
 * indexed by msgid, so that `suggest` finds the closest msgids (msgmerge's similarity) without
 * scanning the tree, and follows the store's writes one catalogue at a time. See docs/memory.md.
 *
 * @module
 */
export {
  CANDIDATES,
  DEFAULT_MIN_SCORE,
  DEFAULT_REFRESH_MS,
  MAX_COMPARISON_WORK,
  MAX_POSTINGS_VISITED,
  MAX_SCORE_WORK,
  type MemoryOptions,
  type MemoryStats,
  type SuggestAnswer,
  type Suggestion,
  type SuggestQuery,
  TranslationMemory,
} from "./memory.ts";
export { wordsOf } from "./words.ts";
export { rootLanguage } from "./language.ts";
export { scoreOf } from "./similarity.ts";
