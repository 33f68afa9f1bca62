/**
 * The catalogue store: path policy (roots, realPath, verified directories), parse cache, per-file
 * locks (their lock files in a lock directory, see `lock_dir.ts`) and atomic writes. `CatalogueStore.read`/`update` take a {@link CatalogueCallOptions} with an
 * `AbortSignal` for per-request time limits.
 *
 * @module
 */
export {
  type CatalogueCacheStats,
  type CatalogueCallOptions,
  type CatalogueRead,
  CatalogueStore,
  type CatalogueStoreOptions,
  type CurrentRevision,
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_RACY_WINDOW_MS,
  type DocumentCodec,
  type UpdateOutcome,
} from "./catalogue_store.ts";
export { isRevision, revisionOf } from "./revision.ts";
export {
  CATALOGUE_EXTENSIONS,
  checkCataloguePathSyntax,
  checkRegularFile,
  checkRoots,
  DEFAULT_MAX_FILE_BYTES,
  NotRegularFileError,
  outsideRootsError,
  PathChangedError,
  type PathPolicyOptions,
  resolveCataloguePath,
  type ResolvedCataloguePath,
  type VerifiedDirectory,
} from "./path_policy.ts";
export {
  type FileLockOptions,
  lockFilePath,
  withFileLock,
  withInProcessTurn,
  withOsLock,
} from "./file_lock.ts";
export {
  defaultLockDirectoryPath,
  type LockDirectory,
  lockDirectorySetting,
  type LockPlacement,
  lockPlacement,
  LOCKS_BESIDE,
  LOCKS_BESIDE_PLACEMENT,
  type LocksBeside,
  openLockDirectory,
  setLockPlacement,
  StoreSetupError,
  useLockDirectory,
} from "./lock_dir.ts";
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
  readRegularFileBytes,
  updateFileUnderLock,
} from "./atomic_write.ts";
export { absoluteCataloguePath, type RelativePathOptions } from "./relative_path.ts";
