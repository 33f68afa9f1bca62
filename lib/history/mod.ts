/**
 * History from git (issue 37.3–4): every entry's changes by commit (`entry_history`), what happened
 * to the entries since a ref (`changes_since`), and what to translate next (`next_to_translate`).
 * git itself is injected ({@link GitRunner}): `routes/git_runner.ts` runs it, read-only.
 *
 * @module
 */
export {
  checkRef,
  GitFailedError,
  type GitRunner,
  type GitRunOptions,
  GitUnavailableError,
  InvalidRefError,
  MAX_REF_CHARS,
  NotARepositoryError,
  parseRawDiff,
  parseRawLog,
} from "./git.ts";
export { entryKey, type EntrySnapshot, indexEntries, snapshotOf, VersionCache } from "./versions.ts";
export {
  DEFAULT_HISTORY_LIMIT,
  DEFAULT_MAX_COMMITS,
  type EntryChange,
  type EntryHistory,
  entryHistory,
  type EntryHistoryOptions,
  MAX_HISTORY_LIMIT,
} from "./entry_history.ts";
export {
  type CatalogueChanges,
  CHANGE_KINDS,
  type ChangeKind,
  type ChangeScope,
  type ChangesSince,
  changesSince,
  compareEntries,
  type EntryName,
} from "./changes.ts";
export {
  MAX_PRIORITY_BYTES,
  type NextCatalogue,
  parsePriorityList,
  PRIORITY_FILE,
  type PriorityList,
  priorityOf,
  rankCatalogues,
  readPriorityList,
} from "./next.ts";
