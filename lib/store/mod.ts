/**
 * The catalogue store: path policy (roots, realPath), parse cache, per-file locks and atomic writes.
 *
 * @module
 */
export {
  type CatalogueCacheStats,
  type CatalogueRead,
  CatalogueStore,
  type CatalogueStoreOptions,
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_RACY_WINDOW_MS,
  type DocumentCodec,
} from "./catalogue_store.ts";
export {
  CATALOGUE_EXTENSIONS,
  checkCataloguePathSyntax,
  checkRegularFile,
  DEFAULT_MAX_FILE_BYTES,
  type PathPolicyOptions,
  resolveCataloguePath,
  type ResolvedCataloguePath,
} from "./path_policy.ts";
export { type FileLockOptions, lockFilePath, withFileLock } from "./file_lock.ts";
export {
  atomicReplaceFile,
  type AtomicReplaceOptions,
  atomicUpdateFile,
  type AtomicUpdateOptions,
  type CurrentFile,
  DEFAULT_NEW_FILE_MODE,
  DEFAULT_STALE_TEMP_AGE_MS,
  type LockedUpdateOutcome,
  type LockTarget,
  readRegularFile,
  updateFileUnderLock,
} from "./atomic_write.ts";
