/**
 * The catalogue store's public types: the options of the store and of one call, the codec, and what
 * reads and updates answer (see `catalogue_store.ts`).
 *
 * @module
 */
import type { AuditRecord } from "../audit/mod.ts";
import type { Bytes } from "../byte_runs.ts";
import type { LockPlacement } from "./lock_dir.ts";
import type { ResolvedCataloguePath } from "./path_policy.ts";

/** Options of one {@link CatalogueStore.read} or {@link CatalogueStore.update} call. */
export interface CatalogueCallOptions {
  /**
   * Abandons the call once aborted (e.g. `AbortSignal.timeout(60_000)` for a per-request time
   * limit): it throws `signal.reason` at its next step. An update stops before its rename at the
   * latest, removes its temp file and releases its lock; the catalogue is untouched. A read stops
   * waiting at once; the file's read and parse that it started go on only while another caller
   * still waits for them, and stop between chunks, or before the parse, otherwise.
   */
  signal?: AbortSignal;
  /**
   * Told of a write once its bytes are in place (not called when nothing was written): the path as
   * the caller gave it and the file's revision before (null: it did not exist) and after. The audit
   * log records writes through it. Awaited before the call returns; what it throws is thrown.
   */
  onWritten?: (write: WrittenFile) => void | Promise<void>;
  /**
   * The audit record of a write, asked right before its rename when the store has a write lease
   * that journals writes ({@link HeldWriteLease.claim}): the lease keeps it with its claim and
   * records it once the rename is done (then `onWritten` is told `recorded: true`).
   */
  auditRecord?: (write: WrittenFile) => AuditRecord;
}

/** A write {@link CatalogueCallOptions.onWritten} is told of. */
export interface WrittenFile {
  path: string;
  revisionBefore: string | null;
  revisionAfter: string;
  /** True when the write lease's journal recorded the write already (see {@link HeldWriteLease}). */
  recorded?: boolean;
}

/**
 * A write lease, held (see {@link CatalogueStoreOptions.writeLease}). Besides keeping other writers
 * out, it fences them: a write claims its change of the file right before the rename, and the claim
 * is refused (UnavailableError, nothing renamed) when the lease was lost meanwhile; the claim is the
 * write's intent record, completed into its audit record once the rename is done.
 */
export interface HeldWriteLease {
  /**
   * A write of this file claimed earlier and not completed (its writer died, or lost its lease,
   * between the claim and the record), or null. Settle it with {@link HeldWriteLease.settle}.
   */
  readonly unfinished: { revisionAfter: string } | null;
  /**
   * Settles {@link HeldWriteLease.unfinished}, told the file's revision now: a file that holds that
   * write's bytes gets its record (the write happened); else, once its writer can no longer rename,
   * it is dropped (it did not happen). False: too early to tell, ask again shortly.
   */
  settle(current: string | null): Promise<boolean>;
  /**
   * Claims `write` right before its rename. Throws UnavailableError (nothing is renamed) when the
   * lease is lost, or another writer claimed the file since the lease was taken. Returns the check
   * to run immediately before the rename (it throws once the claim is too old to rename under).
   */
  claim(write: ClaimedWrite): Promise<() => void>;
  /** After the rename: records the claimed write. Never throws (what it cannot record now is left to
   * the next writer of the file, see {@link HeldWriteLease.unfinished}). */
  complete(): Promise<void>;
  /** Gives the lease back. */
  release(): Promise<void>;
}

/** What a write claims (see {@link HeldWriteLease.claim}). */
export interface ClaimedWrite extends WrittenFile {
  /** Its audit record, or null when the write is not audited. */
  record: AuditRecord | null;
}

/** Turns file bytes into a document and back. The PO codec is `parsePo`/`encodePo`. */
export interface DocumentCodec<D> {
  /** Parse file bytes; throw a DomainError (e.g. PoSyntaxError) on invalid input. `path` is the
   * caller's spelling, for messages. */
  parse(bytes: Uint8Array, path: string): D;
  /** Serialise a document to the bytes to store (one array, or runs written one after the other). */
  encode(doc: D): Bytes;
  /**
   * The document as a read of `bytes` (what `encode(doc)` gave) would give it, e.g. with the lines
   * of its entries in those bytes: what the store caches after a write. Absent: `doc` itself.
   */
  written?(doc: D, bytes: Bytes): D;
}

/**
 * A shared allowance of memory for large work (see `lib/byte_budget.ts`): `take` returns the
 * function that gives the bytes back, or throws (a BusyError) when they do not fit now.
 */
export interface LoadAllowance {
  take(bytes: number, what: string): () => void;
}

/** Options of {@link CatalogueStore}. */
export interface CatalogueStoreOptions<D> {
  /** Catalogue roots, absolute, as configured (their spelling is the one opened). */
  roots: readonly string[];
  /** Turns file bytes into documents and back. */
  codec: DocumentCodec<D>;
  /** Largest file read or written (default 64 MiB). */
  maxFileBytes?: number;
  /** Bound of the parse cache, in bytes of the cached files (default 32 MiB; 0 disables caching).
   * Least recently used entries are evicted first; a file larger than the bound is not cached. */
  cacheMaxBytes?: number;
  /** Permission bits of files the store creates, before the umask (default 0o644). */
  newFileMode?: number;
  /** Age after which a stray temp file of a file being updated is removed (default 10 min; null: never). */
  staleTempAgeMs?: number | null;
  /** See the module doc (default 2000 ms). */
  racyWindowMs?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /**
   * Shared with other large work of the service: a read or update of a file that is not cached
   * takes {@link LOAD_WEIGHT} × its size while it reads and parses, so many concurrent loads of
   * large catalogues are refused (BusyError) rather than run out of memory. Default: no bound.
   */
  loadAllowance?: LoadAllowance;
  /** Where the cross-process lock files live (default: the process's, see `setLockPlacement`; the
   * service sets a lock directory at start-up, so nothing is written beside the catalogues). */
  locks?: LockPlacement;
  /**
   * A lease held around each write, besides the file lock, keyed by the file's real path: the
   * PostgreSQL advisory lock that keeps instances on several machines from writing one catalogue at
   * once (`lib/pg/lease.ts`). Taken before the file lock, given back after it; each write claims
   * its change under it right before the rename (see {@link HeldWriteLease}). Default: none.
   */
  writeLease?: (key: string, signal?: AbortSignal) => Promise<HeldWriteLease>;
}

/** The result of {@link CatalogueStore.read}. */
export interface CatalogueRead<D> {
  /** The parsed document. Shared with the cache: do not mutate. */
  doc: D;
  /** Where the file was found. */
  path: ResolvedCataloguePath;
  /** True when the document came from the cache (no parse). */
  fromCache: boolean;
  /** The revision of the bytes the document was read from (see `revision.ts`). */
  revision: string;
}

/** What an update's callback is told of the file as it is under the lock. */
export interface CurrentRevision {
  /** The file's revision now, or null when it does not exist yet. */
  revision: string | null;
  /** The file's bytes now (read under the lock), or null when it does not exist yet. Read-only. */
  bytes: Bytes | null;
}

/**
 * What the callback of {@link CatalogueStore.updateWithRevision} returns: the new document, its
 * result, and optionally the bytes to write instead of the codec's encoding of `doc` (then `doc`
 * must be what those bytes read back as: it is cached as the file's document).
 */
export interface UpdateStep<D, R> {
  doc: D;
  result: R;
  bytes?: Bytes;
}

/** The result of {@link CatalogueStore.updateWithRevision}. */
export interface UpdateOutcome<R, D = unknown> {
  /** What the callback returned as `result`. */
  result: R;
  /** The document the file holds now, as the store cached it (see {@link DocumentCodec.written}). */
  doc: D;
  /** The file's revision after the update (unchanged when nothing was written; null: still no file). */
  revision: string | null;
  /** False when the new bytes equalled the old ones, so the file was not touched. */
  written: boolean;
}

/** Counters of the parse cache since the store was made. */
export interface CatalogueCacheStats {
  /** Entries and their total file bytes now. */
  entries: number;
  /** Total file bytes of the cached entries now. */
  bytes: number;
  /** Reads served from the cache without touching the file's contents. */
  hits: number;
  /** Reads of a racy entry that re-read the file, found it unchanged and did not re-parse. */
  revalidations: number;
  /** Calls of `codec.parse` (reads and updates). */
  parses: number;
  /** Entries evicted to stay within the bound. */
  evictions: number;
}

/** What {@link CatalogueStore.onWritten} tells of one write. */
export interface WrittenCatalogue<D> {
  /** Where the file is (as the write resolved it: `lexicalPath` is the root's spelling + the path below it). */
  path: ResolvedCataloguePath;
  /** The document the file holds now, as cached. Read-only. */
  doc: D;
  /** The revision of the written bytes. */
  revision: string;
}
