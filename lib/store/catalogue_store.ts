/**
 * The catalogue store: the one way the service reads and writes catalogue files. It checks paths
 * against the roots ({@link resolveCataloguePath}), caches parsed documents, and performs writes as
 * locked, atomic read-modify-write. It is generic over a {@link DocumentCodec}, so it knows nothing
 * about PO syntax.
 *
 * Guarantees (between processes that all use this module or {@link atomicUpdateFile} with the same
 * lock placement, see `lock_dir.ts`, or `flock(1)` on the same lock file):
 * - **No lost update**: `update` holds the file's in-process turn across read, `fn` and write, and the
 *   cross-process lock from a re-check of the file to the write: when another process changed the
 *   file after `fn` saw it, `fn` is called again, under the lock, with the current document (so `fn`
 *   must have no effect besides its return value). The file is always read afresh, never from the
 *   cache.
 * - **A refused request creates nothing**: the lock file and the temp file are created only once
 *   `fn` has returned a document that differs from the file; a path refused by the policy, a
 *   throwing `fn`, an unchanged document or an abandoned update leave the directory as it was.
 * - **Never outside the roots**: every read, create and rename is checked against the directories
 *   the path policy verified (device and inode, no symlink below the root), right before and after
 *   the use (see {@link resolveCataloguePath} and `_verified_path.ts` for what remains: a
 *   microsecond window that only a local user with write access inside the roots can race).
 *   Cached documents are keyed by the real path *and* the identity and stat of the file that was
 *   opened and checked; a read served from the cache re-checks the directories and the file's stat.
 * - **Abandoned work stops**: `read` and `update` take an `AbortSignal` (for a per-request time
 *   limit). Once it is aborted, the call throws the signal's reason at its next step; an update then
 *   removes its temp file, releases its lock, and leaves the file untouched.
 * - **Atomic replacement**: a reader or a crash sees the old file or the new one, never a mix.
 * - **Fresh reads**: a `read` that starts after an `update` (of this or another process) completed
 *   returns the new document. Each read stats the path and compares device, inode, size, mtime and
 *   ctime with the cached entry's; a file whose last change is within `racyWindowMs` of when it was
 *   read is re-read (not re-parsed) and compared by SHA-256, because a second change in the same
 *   clock tick can leave all of those equal (Linux timestamps advance in coarse ticks, Deno reports
 *   ctime in whole seconds, and freed inode numbers are reused).
 *
 * Limits: locks are advisory (an editor writing in place is not stopped, though the cache still sees
 * its change via the stat); see {@link withFileLock} for NFS and {@link atomicReplaceFile} for what a
 * replacement does not keep (owner, ACLs, hard links). Documents returned by `read` are shared with
 * the cache and must be treated as read-only; `update` hands `fn` a freshly parsed document it may
 * mutate. After a write the store caches the document `fn` returned, or the codec's `written(doc,
 * bytes)` (the document as a read of the written bytes gives it: the PO codec's has the lines of
 * those bytes), so the codec must round-trip: `parse(encode(doc))` must equal that document.
 *
 * @module
 */
import { type Bytes, flatBytes, sameBytes } from "../byte_runs.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import { type AtomicUpdateOptions, readRegularFile, updateFileUnderLock } from "./atomic_write.ts";
import { lstatOrNull } from "./_verified_path.ts";
import { leasedOptions, takeLease } from "./_leased_write.ts";
import { revisionOf } from "./revision.ts";
import type {
  CatalogueCacheStats,
  CatalogueCallOptions,
  CatalogueRead,
  CatalogueStoreOptions,
  CurrentRevision,
  DocumentCodec,
  LoadAllowance,
  UpdateOutcome,
  UpdateStep,
  WrittenCatalogue,
} from "./catalogue_types.ts";

export type * from "./catalogue_types.ts";
import {
  CATALOGUE_EXTENSIONS,
  DEFAULT_MAX_FILE_BYTES,
  outsideRootsError,
  resolveCataloguePath,
  type ResolvedCataloguePath,
} from "./path_policy.ts";

/** What a load of a file holds at its peak, in multiples of the file's size: its bytes and the parse. */
export const LOAD_WEIGHT = 4;

/** Default bound of the parse cache: 32 MiB of cached files' bytes. */
export const DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Default window within which a file's last change makes its cache entry "racy" (re-read to verify). */
export const DEFAULT_RACY_WINDOW_MS = 2000;

/** A read and parse of one file that readers share. */
interface Loading<D> {
  key: string;
  promise: Promise<Loaded<D>>;
  /** Readers waiting for it; when the last one gives up, `controller` stops the load. */
  waiters: number;
  controller: AbortController;
}

/** A loaded document and the bytes it was read from. */
interface Loaded<D> {
  doc: D;
  bytes: Bytes;
}

interface CacheEntry<D> {
  doc: D;
  key: string;
  size: number;
  /** When it was last read or stored, in {@link CatalogueStore.#tick}s: the least recent is evicted. */
  used: number;
  /** True while the entry is racy: its contents are verified against `bytes` on the next read. */
  racy: boolean;
  /** The file's bytes the document was parsed from (or encoded to), so an update can skip the parse. */
  bytes: Bytes;
}

/**
 * Reads, caches and writes catalogue files under a set of roots.
 *
 * @example
 * ```ts
 * const store = new CatalogueStore({ roots: ["/srv/po"], codec: { parse: parsePo, encode: encodePo } });
 * const { doc } = await store.read("/srv/po/fr/app.po");
 * const added = await store.update("/srv/po/fr/app.po", (catalog) => {
 *   const base = catalog ?? emptyCatalog();
 *   return { doc: { ...base, messages: [...base.messages, message] }, result: 1 };
 * });
 * ```
 */
export class CatalogueStore<D> {
  /** The configured catalogue roots, as given. */
  readonly roots: readonly string[];
  readonly #codec: DocumentCodec<D>;
  readonly #maxFileBytes: number;
  readonly #writeLease: CatalogueStoreOptions<D>["writeLease"];
  readonly #cacheMaxBytes: number;
  readonly #racyWindowMs: number;
  readonly #now: () => number;
  readonly #writeOptions: AtomicUpdateOptions;
  readonly #loadAllowance: LoadAllowance | undefined;
  /** Settles when the last large parse queued so far is done (see {@link CatalogueStore.#turnToParse}). */
  #parsing: Promise<void> = Promise.resolve();
  readonly #cache = new Map<string, CacheEntry<D>>();
  readonly #loading = new Map<string, Loading<D>>();
  /** Where recently read paths resolved to, oldest first (see {@link CatalogueStore.#resolveForRead}). */
  readonly #resolved = new Map<string, { path: ResolvedCataloguePath; at: number }>();
  /** Per real path, the document an update is writing right now and its bytes. */
  readonly #writing = new Map<string, { doc: D; bytes: Bytes }>();
  #cachedBytes = 0;
  /** Told of every write this store made (see {@link CatalogueStore.onWritten}). */
  readonly #writtenListeners = new Set<(written: WrittenCatalogue<D>) => void>();
  /**
   * The cache's clock. A hit records its tick in the entry instead of moving it to the end of the
   * Map: for a Map that lives in the old generation, a delete and a set make V8 allocate the Map's
   * new hash table there too, so each cached read left garbage in the old generation.
   */
  #tick = 0;
  #stats = { hits: 0, revalidations: 0, parses: 0, evictions: 0 };

  /**
   * Makes a store over `options.roots` (nothing is read until the first call).
   *
   * @throws {TypeError} a root is not absolute.
   */
  constructor(options: CatalogueStoreOptions<D>) {
    for (const root of options.roots) {
      if (!root.startsWith("/")) throw new TypeError(`catalogue root must be absolute: ${root}`);
    }
    this.roots = [...options.roots];
    this.#codec = options.codec;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#writeLease = options.writeLease;
    this.#cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#racyWindowMs = options.racyWindowMs ?? DEFAULT_RACY_WINDOW_MS;
    this.#now = options.now ?? Date.now;
    this.#loadAllowance = options.loadAllowance;
    this.#writeOptions = {
      maxBytes: this.#maxFileBytes,
      newFileMode: options.newFileMode,
      staleTempAgeMs: options.staleTempAgeMs,
      locks: options.locks,
    };
  }

  /**
   * Applies the path policy with this store's roots and size limit.
   *
   * @throws see {@link resolveCataloguePath}.
   */
  resolve(userPath: string, options: { mustExist: boolean }): Promise<ResolvedCataloguePath> {
    return resolveCataloguePath(this.roots, userPath, { ...options, maxBytes: this.#maxFileBytes });
  }

  /**
   * Reads and parses a catalogue, from the cache when the file is unchanged (one `stat`, no read, no
   * parse). Concurrent reads of the same uncached file share one parse.
   *
   * @throws {InvalidInputError} malformed path (a name too long included), or not a regular file
   *   (`NotRegularFileError`: a FIFO or device is refused at once, never waited on).
   * @throws {OutsideRootsError} outside every root (symlinks resolved), or refused by the sandbox;
   *   `PathChangedError` when a directory on the path changed while it was opened.
   * @throws {NotFoundError} `File not found: PATH`.
   * @throws {TooLargeError} larger than `maxFileBytes`.
   * @throws the codec's error (e.g. PoSyntaxError) for an unparsable file.
   * @throws `options.signal.reason` once the signal is aborted.
   */
  async read(userPath: string, options: CatalogueCallOptions = {}): Promise<CatalogueRead<D>> {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = await this.#resolveForRead(userPath);
      // Aborted while the path was resolved: a cached answer must not slip out after the abort.
      signal?.throwIfAborted();
      const key = statKey(path.stat!);
      const entry = this.#cache.get(path.realPath);
      if (entry && entry.key === key && !entry.racy) {
        entry.used = ++this.#tick;
        this.#stats.hits++;
        return { doc: entry.doc, path, fromCache: true, revision: revisionOf(entry.bytes) };
      }
      const loadKey = `${path.realPath}\0${key}`;
      let loading = this.#loading.get(loadKey);
      if (!loading) {
        const controller = new AbortController();
        const started: Loading<D> = {
          key: loadKey,
          promise: this.#load(path, entry?.key === key ? entry : undefined, controller.signal),
          waiters: 0,
          controller,
        };
        this.#loading.set(loadKey, started);
        started.promise.finally(() => {
          if (this.#loading.get(loadKey) === started) this.#loading.delete(loadKey);
        }).catch(() => {});
        loading = started;
      }
      const loaded = await this.#wait(loading, signal);
      return { doc: loaded.doc, path, fromCache: false, revision: revisionOf(loaded.bytes) };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }

  /**
   * Reads a catalogue's bytes through the path policy and the load allowance, without parsing or
   * caching them: for a caller that keeps what it derives from them (the workbench's counts). The
   * stat is the opened file's, checked as {@link CatalogueStore.read} checks it.
   *
   * @throws the same path, size and abort errors as {@link CatalogueStore.read}.
   */
  async readBytes(
    userPath: string,
    options: CatalogueCallOptions & {
      /** The file name endings accepted (default `.po`, `.pot`): a root's terminology file is `.csv`. */
      extensions?: readonly string[];
    } = {},
  ): Promise<{ bytes: Uint8Array; revision: string; stat: Deno.FileInfo; path: ResolvedCataloguePath }> {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = options.extensions === undefined
        ? await this.#resolveForRead(userPath)
        : await resolveCataloguePath(this.roots, userPath, {
          mustExist: true,
          maxBytes: this.#maxFileBytes,
          extensions: options.extensions,
        });
      const release = this.#take(path.stat?.size ?? 0);
      try {
        const current = await readRegularFile(path.lexicalPath, path.userPath, this.#maxFileBytes, {
          followSymlinks: false,
          directories: path.directories,
          signal,
        });
        if (current === null) throw new NotFoundError(`File not found: ${path.userPath}`);
        return {
          bytes: flatBytes(current.bytes),
          revision: revisionOf(current.bytes),
          stat: current.stat,
          path,
        };
      } finally {
        release();
      }
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }

  /**
   * Locked read-modify-write of one catalogue. Under the file's lock (in-process queue + `flock`), the
   * current file is read and parsed (null when it does not exist yet; its directory must exist in a
   * root), `fn` computes the new document and a result, and the encoded document replaces the file
   * atomically, unless the bytes are unchanged (then nothing is written). Existing files keep their
   * permission bits; new ones get `newFileMode` minus the umask. The written document is cached.
   *
   * @returns what `fn` returned as `result`.
   * @throws the same path errors as {@link CatalogueStore.read} (a missing file is fine; a missing
   *   directory is `NotFoundError("Directory not found: DIR")`).
   * @throws {TooLargeError} the current file or the encoded document exceeds `maxFileBytes`.
   * @throws whatever `fn` or the codec throws; the file is then untouched.
   * @throws `options.signal.reason` once the signal is aborted before the rename; the file is then
   *   untouched, no temp file remains and the lock is released.
   * @throws {PathChangedError} (an OutsideRootsError) a directory on the path changed under the update.
   *
   * `fn` is called a second time, under the cross-process lock, when another process changed the file
   * after the first call saw it: it must have no effect besides its return value.
   */
  async update<R>(
    userPath: string,
    fn: (doc: D | null, current: CurrentRevision) => { doc: D; result: R } | Promise<{ doc: D; result: R }>,
    options: CatalogueCallOptions = {},
  ): Promise<R> {
    return (await this.updateWithRevision(userPath, fn, options)).result;
  }

  /**
   * {@link CatalogueStore.update}, telling also the file's revision after it and whether it was written.
   * `fn` is told the file's revision under the lock, so a compare-and-swap decided there cannot race
   * another writer.
   */
  async updateWithRevision<R>(
    userPath: string,
    fn: (doc: D | null, current: CurrentRevision) => UpdateStep<D, R> | Promise<UpdateStep<D, R>>,
    options: CatalogueCallOptions = {},
  ): Promise<UpdateOutcome<R, D>> {
    const { signal } = options;
    let revisionBefore: string | null = null;
    let release = NOTHING_HELD;
    try {
      signal?.throwIfAborted();
      const path = await this.resolve(userPath, { mustExist: false });
      const cachedNow = this.#cache.get(path.realPath);
      if (path.stat && !(cachedNow && cachedNow.key === statKey(path.stat))) {
        release = this.#take(path.stat.size);
      }
      let next: { doc: D; result: R; bytes: Bytes } | undefined;
      let written = false;
      let revision: string | null = null;
      const lease = this.#writeLease
        ? await takeLease(this.#writeLease, path, userPath, this.#maxFileBytes, signal)
        : null;
      try {
        const outcome = await updateFileUnderLock(
          {
            openPath: path.lexicalPath,
            key: path.realPath,
            displayPath: userPath,
            followSymlinks: false,
            directories: path.directories,
            // Asked under the lock: an update queued before this one may have changed it.
            expected: () => this.#cache.get(path.realPath)?.bytes,
          },
          async (current) => {
            // Under the lock the file is always re-read; when its bytes are those of the cached
            // document, that document is reused (no parse, and the writer's layout cache stays warm).
            const cached = this.#cache.get(path.realPath);
            const doc = current === null
              ? null
              : cached && sameBytes(cached.bytes, current.bytes)
              ? cached.doc
              : this.#parse(flatBytes(current.bytes), userPath);
            revisionBefore = current === null ? null : revisionOf(current.bytes);
            const out = await fn(doc, { revision: revisionBefore, bytes: current?.bytes ?? null });
            // The caller's own bytes (a write that keeps the file's layout), with the document they read as.
            const bytes = out.bytes ?? this.#codec.encode(out.doc);
            const newDoc = out.bytes !== undefined
              ? out.doc
              : this.#codec.written?.(out.doc, bytes) ?? out.doc;
            next = { result: out.result, doc: newDoc, bytes };
            // A read that sees the new file before this update has cached it reuses this document.
            this.#writing.set(path.realPath, next);
            return next.bytes;
          },
          leasedOptions(this.#writeOptions, lease, userPath, options),
        );
        const stat = outcome.written ?? outcome.previous?.stat;
        if (stat) this.#remember(path.realPath, next!.doc, stat, next!.bytes, this.#now());
        written = outcome.written !== null;
        const bytesNow = written ? next!.bytes : outcome.previous?.bytes;
        revision = bytesNow === undefined ? null : revisionOf(bytesNow);
        if (written) this.#tellWritten({ path, doc: next!.doc, revision: revision! });
        // Told while the lease is held: writes are recorded in the order they were made.
        if (written) {
          await lease?.complete();
          await options.onWritten?.({
            path: userPath,
            revisionBefore,
            revisionAfter: revision!,
            recorded: lease !== null && options.auditRecord !== undefined,
          });
        }
      } finally {
        // Only once the document is cached (or the update failed): no read falls between the two.
        if (next && this.#writing.get(path.realPath) === next) this.#writing.delete(path.realPath);
        await lease?.release();
      }
      return { result: next!.result, doc: next!.doc, revision, written };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    } finally {
      release();
    }
  }

  /**
   * Writes `bytes` to a file that is not a catalogue (a compiled `.mo`) inside the roots, with
   * the same path policy (checked at the moment of use), lock and atomic replacement as
   * {@link update}; nothing is written when the file already holds these bytes. The directory
   * must exist. The file is not cached.
   *
   * @param extensions endings the file name must have, e.g. `[".mo"]`.
   * @returns whether the file was written.
   * @throws the path errors of {@link update}.
   */
  async writeFile(
    userPath: string,
    bytes: Uint8Array,
    extensions: readonly string[],
    options: CatalogueCallOptions = {},
  ): Promise<{ written: boolean }> {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = await resolveCataloguePath(this.roots, userPath, {
        mustExist: false,
        maxBytes: this.#maxFileBytes,
        extensions,
      });
      const lease = this.#writeLease
        ? await takeLease(this.#writeLease, path, userPath, this.#maxFileBytes, signal)
        : null;
      let outcome: Awaited<ReturnType<typeof updateFileUnderLock>>;
      try {
        outcome = await updateFileUnderLock(
          {
            openPath: path.lexicalPath,
            key: path.realPath,
            displayPath: userPath,
            followSymlinks: false,
            directories: path.directories,
          },
          () => bytes,
          leasedOptions(this.#writeOptions, lease, userPath, options),
        );
        if (outcome.written !== null) {
          await lease?.complete();
          await options.onWritten?.({
            path: userPath,
            revisionBefore: outcome.previous === null ? null : revisionOf(outcome.previous.bytes),
            revisionAfter: revisionOf(bytes),
            recorded: lease !== null && options.auditRecord !== undefined,
          });
        }
      } finally {
        await lease?.release();
      }
      return { written: outcome.written !== null };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }

  /**
   * Settles what an earlier writer left of a write of `realPath` (absolute, in a root: as the lease
   * names the file): takes its lease, which records a write whose bytes are in place and drops one
   * never renamed (see {@link HeldWriteLease.unfinished}), and gives it back. Nothing without a lease.
   *
   * @throws the path errors of {@link update}; UnavailableError when the database is away.
   */
  async settleLeftWrite(realPath: string, signal?: AbortSignal): Promise<void> {
    if (!this.#writeLease) return;
    try {
      const path = await resolveCataloguePath(this.roots, realPath, {
        mustExist: false,
        maxBytes: this.#maxFileBytes,
        extensions: [...CATALOGUE_EXTENSIONS, ".mo"],
      });
      const lease = await takeLease(this.#writeLease, path, realPath, this.#maxFileBytes, signal);
      await lease.release();
    } catch (error) {
      throw mapSandboxError(error, realPath, this.roots);
    }
  }

  /**
   * Calls `listener` after each catalogue write of this store, with the document the file now holds
   * (what the store cached), so an index kept beside the store (the translation memory) updates
   * that one catalogue instead of re-reading the tree. Called synchronously once the file is
   * replaced; a listener that throws is ignored (the write has happened). Writes by other processes
   * are not told: a listener's owner still checks the files' stats for those.
   *
   * @returns the function that removes the listener.
   */
  onWritten(listener: (written: WrittenCatalogue<D>) => void): () => void {
    this.#writtenListeners.add(listener);
    return () => this.#writtenListeners.delete(listener);
  }

  #tellWritten(written: WrittenCatalogue<D>): void {
    for (const listener of this.#writtenListeners) {
      try {
        listener(written);
      } catch {
        // the file is written; an index that failed to follow re-reads it on its next check
      }
    }
  }

  /** Takes a load of `size` file bytes from the allowance, if there is one. */
  #take(size: number): () => void {
    return this.#loadAllowance?.take(LOAD_WEIGHT * size, "catalogue loads") ?? NOTHING_HELD;
  }

  /**
   * {@link resolve} for a read, reusing for {@link RESOLVED_TTL_MS} where a path resolved to: a
   * cached read is then one `lstat` (two `realPath`s and an `lstat` per directory otherwise). The
   * place was inside a root when it was resolved, so a symlink the caller named, retargeted since,
   * can only delay, by that much, which file inside the roots a read sees. A directory on the
   * resolved path swapped for a symlink since is not followed: the `lstat` then names another file
   * (a cache miss), and the load checks every directory before it opens anything (a
   * `PathChangedError`). Writes always resolve afresh.
   */
  async #resolveForRead(userPath: string): Promise<ResolvedCataloguePath> {
    const now = this.#now();
    const known = this.#resolved.get(userPath);
    if (known !== undefined && now - known.at < RESOLVED_TTL_MS) {
      // Synchronous: a local stat is a syscall of microseconds, where Deno's async op (a trip to a
      // worker thread and back) was a fifth of a cached read's CPU time on the main thread.
      // One lstat of the file, not of every directory: a cache hit needs this very stat key
      // (device, inode, size, times) of a file that was opened and checked inside the roots, so a
      // path that now leads elsewhere (a directory swapped for a symlink) misses, and the load then
      // checks every directory before it opens anything.
      let stat: Deno.FileInfo | null = null;
      try {
        stat = lstatOrNull(known.path.lexicalPath);
      } catch {
        // no longer readable: resolved afresh below, which says why
      }
      if (stat !== null && stat.isFile && stat.size <= this.#maxFileBytes) return { ...known.path, stat };
    }
    const path = await this.resolve(userPath, { mustExist: true });
    this.#resolved.delete(userPath);
    if (this.#resolved.size >= RESOLVED_MAX) this.#resolved.delete(this.#resolved.keys().next().value!);
    this.#resolved.set(userPath, { path, at: now });
    return path;
  }

  /** Cache counters (for tests and metrics). */
  cacheStats(): CatalogueCacheStats {
    return { entries: this.#cache.size, bytes: this.#cachedBytes, ...this.#stats };
  }

  /** Drops every cached document. */
  clearCache(): void {
    this.#cache.clear();
    this.#cachedBytes = 0;
  }

  /**
   * Parses bytes that {@link CatalogueStore.readBytes} returned, as a read parses them: through the
   * codec, holding the load allowance, one large parse at a time. Nothing is cached: for a caller
   * that keeps what it derives from the document (the workbench's search columns), not the document.
   *
   * @throws {BusyError} when the load allowance cannot hold the parse now.
   * @throws the codec's error (e.g. PoSyntaxError) for unparsable bytes.
   * @throws `options.signal.reason` once the signal is aborted.
   */
  async parseBytes(bytes: Uint8Array, userPath: string, options: CatalogueCallOptions = {}): Promise<D> {
    const signal = options.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    const release = this.#take(bytes.length);
    try {
      const done = await this.#turnToParse(bytes.length, signal);
      try {
        return this.#parse(bytes, userPath);
      } finally {
        done();
      }
    } finally {
      release();
    }
  }

  /**
   * A parse holds the event loop for a time that grows with the file. Reads of large files parse
   * one at a time, each after a turn of the event loop, so requests that arrived meanwhile are
   * served between two large parses instead of after all of them. Small files go straight through.
   */
  async #turnToParse(size: number, signal: AbortSignal): Promise<() => void> {
    if (size < LARGE_PARSE_BYTES) return NOTHING_HELD;
    const previous = this.#parsing;
    let done!: () => void;
    this.#parsing = new Promise<void>((resolve) => done = resolve);
    try {
      await previous;
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal.throwIfAborted();
    } catch (error) {
      done();
      throw error;
    }
    return done;
  }

  #parse(bytes: Uint8Array, userPath: string): D {
    this.#stats.parses++;
    return this.#codec.parse(bytes, userPath);
  }

  /** Waits for a shared load; giving up (abort) leaves it, and the last one to leave stops it. */
  #wait(loading: Loading<D>, signal: AbortSignal | undefined): Promise<Loaded<D>> {
    loading.waiters++;
    if (!signal) return loading.promise;
    return new Promise<Loaded<D>>((resolve, reject) => {
      const leave = () => {
        if (--loading.waiters === 0) {
          if (this.#loading.get(loading.key) === loading) this.#loading.delete(loading.key);
          loading.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener("abort", leave, { once: true });
      loading.promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", leave));
    });
  }

  /** Reads the file; reuses `racy`'s document when the bytes are the ones it was parsed from. Stops
   * (throws the abort reason) between chunks and before the parse once `signal` is aborted. */
  async #load(
    path: ResolvedCataloguePath,
    racy: CacheEntry<D> | undefined,
    signal: AbortSignal,
  ): Promise<Loaded<D>> {
    const release = this.#take(path.stat?.size ?? 0);
    try {
      return await this.#loadHeld(path, racy, signal);
    } finally {
      release();
    }
  }

  async #loadHeld(
    path: ResolvedCataloguePath,
    racy: CacheEntry<D> | undefined,
    signal: AbortSignal,
  ): Promise<Loaded<D>> {
    const startedAt = this.#now();
    const writing = this.#writing.get(path.realPath);
    const entryBefore = this.#cache.get(path.realPath);
    const current = await readRegularFile(path.lexicalPath, path.userPath, this.#maxFileBytes, {
      followSymlinks: false,
      directories: path.directories,
      signal,
      // Compared chunk by chunk with the bytes it most likely has, without a copy of the file.
      expected: writing?.bytes ?? racy?.bytes ?? this.#cache.get(path.realPath)?.bytes,
    });
    if (current === null) throw new NotFoundError(`File not found: ${path.userPath}`);
    signal.throwIfAborted();
    // Asked again after the read: an update may have renamed its file (and cached its document)
    // while this read waited.
    const writingNow = this.#writing.get(path.realPath);
    const cached = this.#cache.get(path.realPath);
    let doc: D;
    if (writing && sameBytes(current.bytes, writing.bytes)) {
      // The file an update of this process has just written (it is about to cache it).
      this.#stats.revalidations++;
      doc = writing.doc;
    } else if (writingNow && writingNow !== writing && sameBytes(current.bytes, writingNow.bytes)) {
      this.#stats.revalidations++;
      doc = writingNow.doc;
    } else if (racy?.racy && sameBytes(current.bytes, racy.bytes)) {
      this.#stats.revalidations++;
      doc = racy.doc;
    } else if (cached && sameBytes(current.bytes, cached.bytes)) {
      // The same bytes as the cached document, under another stat key (an update that finished
      // between this read's stat and now, or a rename that changed only the ctime).
      this.#stats.revalidations++;
      doc = cached.doc;
    } else {
      const bytes = flatBytes(current.bytes);
      const done = await this.#turnToParse(bytes.length, signal);
      try {
        doc = this.#parse(bytes, path.userPath);
      } finally {
        done();
      }
    }
    // An update that cached its document while this read waited knows better: what this read
    // saw may be the file from before that update's rename.
    if (this.#cache.get(path.realPath) === entryBefore) {
      this.#remember(path.realPath, doc, current.stat, current.bytes, startedAt);
    }
    return { doc, bytes: current.bytes };
  }

  /** Caches `doc` as the parse of `bytes`, whose file had `stat` when read at `readAt`. */
  #remember(realPath: string, doc: D, stat: Deno.FileInfo, bytes: Bytes, readAt: number) {
    const lastChange = Math.max(stat.mtime?.getTime() ?? 0, stat.ctime?.getTime() ?? 0);
    // A change in the same clock tick as the read would leave every stat field as it was: until the
    // clock has moved on, verify the contents (against the bytes kept) on the next read.
    const racy = lastChange > readAt - this.#racyWindowMs;
    const old = this.#cache.get(realPath);
    if (old) {
      this.#cache.delete(realPath);
      this.#cachedBytes -= old.size;
    }
    if (this.#cacheMaxBytes === 0 || stat.size > this.#cacheMaxBytes) return;
    this.#cache.set(realPath, { doc, key: statKey(stat), size: stat.size, used: ++this.#tick, racy, bytes });
    this.#cachedBytes += stat.size;
    while (this.#cachedBytes > this.#cacheMaxBytes) {
      let oldest: string | null = null;
      let oldestUse = Infinity;
      for (const [path, entry] of this.#cache) {
        if (entry.used < oldestUse) {
          oldest = path;
          oldestUse = entry.used;
        }
      }
      const entry = this.#cache.get(oldest!)!;
      this.#cache.delete(oldest!);
      this.#cachedBytes -= entry.size;
      this.#stats.evictions++;
    }
  }
}

const NOTHING_HELD = () => {};

/** Files from this size on are parsed one at a time, after a turn of the event loop. */
const LARGE_PARSE_BYTES = 1024 * 1024;

/** How long a read reuses where a path resolved to. */
const RESOLVED_TTL_MS = 1000;
const RESOLVED_MAX = 1024;

/** What tells one version of a file from another without reading it: device, inode, size, mtime, ctime. */
export function statKey(stat: Deno.FileInfo): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtime?.getTime()}:${stat.ctime?.getTime()}`;
}

/** File-system refusals that depend on the path the caller gave, told in the caller's own words (the
 * OS messages name absolute paths). */
function mapSandboxError(error: unknown, userPath: string, roots: readonly string[]): unknown {
  if (error instanceof Deno.errors.NotCapable) return outsideRootsError(roots, userPath, error);
  if (error instanceof Error && (error as { code?: unknown }).code === "ENAMETOOLONG") {
    // A name over the file system's limit (255 bytes), for the file or its lock and temp files.
    return new InvalidInputError(`Invalid file path: a name in it is too long: ${userPath}`, {
      cause: error,
    });
  }
  return error;
}
