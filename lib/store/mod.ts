/**
 * The catalogue store: path policy (roots, realPath, verified directories), parse cache, per-file
 * locks (their lock files in a lock directory, see `lock_dir.ts`) and atomic writes. `CatalogueStore.read`/`update` take a {@link CatalogueCallOptions} with an
 * `AbortSignal` for per-request time limits.
 *
 * @module
 */
export {
  type CatalogueCallOptions,
  type CatalogueRead,
  CatalogueStore,
  type ClaimedWrite,
  type DocumentCodec,
  type HeldWriteLease,
  statKey,
  type WrittenCatalogue,
  type WrittenFile,
} from "./catalogue_store.ts";
export { StoreSetupError, useLockDirectory } from "./lock_dir.ts";
export { atomicUpdateFile } from "./atomic_write.ts";
export { catalogueStoreIo } from "./catalogue_tree_io.ts";
export { confinedUpdateFile, type Confinement, TreeEscapeError } from "./confined_write.ts";
export { absoluteCataloguePath, type RelativePathOptions } from "./relative_path.ts";
