/**
 * Crash-safe replacement of a file's contents, and the locked read-modify-write built on it.
 *
 * A replacement writes a temp file `.<name>.<16 hex>.tmp` in the target's directory, fsyncs it,
 * closes it, renames it over the target (`rename(2)` is atomic within one file system) and fsyncs the
 * directory. At any instant, a crash or SIGKILL leaves either the old or the new file under the
 * target's name, never a mix; at worst a stray temp file remains, which a later locked update of the
 * same file removes once it is older than `staleTempAgeMs`.
 *
 * Limits: the replacement is a new inode. Permission bits are copied from the old file, but the
 * owner becomes the writing user, extended attributes and ACLs are not copied, and other hard links
 * keep the old contents. Durability after power loss relies on the file system honouring `fsync`
 * (ext4, xfs, btrfs do; some network and FUSE file systems do not).
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { type Bytes, bytesLength, copyPrefix, equalAt, flatBytes, sameBytes } from "../byte_runs.ts";
import { NotFoundError, TooLargeError } from "../errors.ts";
import { withFileLock } from "./file_lock.ts";
import { checkRegularFile, DEFAULT_MAX_FILE_BYTES } from "./path_policy.ts";

/** Default age after which a stray temp file of a file being updated is removed: 10 minutes. */
export const DEFAULT_STALE_TEMP_AGE_MS = 10 * 60 * 1000;

/** Default permission bits of a newly created file, before the process umask. */
export const DEFAULT_NEW_FILE_MODE = 0o644;

/**
 * A file's contents and its `stat` taken just before it was opened. (Not `fstat` of the handle: Deno
 * checks `FsFile.stat()` against the file's *real* path, which a sandbox that allows only a symlinked
 * root's spelling refuses. A stat taken before the read can only be older than the bytes, so a cache
 * keyed by it is never stale: the next stat differs and forces a reload.)
 */
export interface CurrentFile {
  /** The contents: the `expected` value itself when the file held exactly that, else a new array. */
  bytes: Bytes;
  stat: Deno.FileInfo;
}

/** Options of {@link atomicReplaceFile}. */
export interface AtomicReplaceOptions {
  /** Exact permission bits to give the new file (e.g. the old file's). Absent: create with
   * `newFileMode`, which the umask reduces. */
  mode?: number;
  /** Permission bits of a new file, before the umask (default {@link DEFAULT_NEW_FILE_MODE}). */
  newFileMode?: number;
}

/** Options of {@link atomicUpdateFile} and {@link updateFileUnderLock}. */
export interface AtomicUpdateOptions {
  /** Largest file read or written, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** Permission bits of a file this update creates, before the umask (default 0o644). Existing files
   * keep their own bits. */
  newFileMode?: number;
  /** Remove this file's temp files older than this many ms before updating (default 10 minutes;
   * null: never). Under the lock no cooperating writer has a live temp file, so any age is safe
   * between cooperating processes; the margin protects against anything else using the name. */
  staleTempAgeMs?: number | null;
}

/** What {@link updateFileUnderLock} did. */
export interface LockedUpdateOutcome {
  /** The file as it was when the lock was taken (null: it did not exist). */
  previous: CurrentFile | null;
  /** The stat of the file written, or null when nothing was written (no change). */
  written: Deno.FileInfo | null;
}

/** Where {@link updateFileUnderLock} works. */
export interface LockTarget {
  /** The path to open, read and replace (its directory receives the lock and temp files). */
  openPath: string;
  /** The in-process queue key: the real path, so every spelling of the file shares one queue. */
  key: string;
  /** The path to name in error messages (the caller's spelling). */
  displayPath: string;
  /** False: refuse a symlink at `openPath` (see {@link readRegularFile}). Default true. */
  followSymlinks?: boolean;
  /**
   * The contents the caller believes the file has, asked once the lock is held: when they are,
   * `compute` gets this very array (the file is compared, not copied).
   */
  expected?: () => Bytes | undefined;
}

/**
 * Replaces the contents of `path` with `bytes` atomically: temp file in the same directory, write,
 * chmod, fsync, close, rename over `path`, fsync the directory. On failure before the rename the temp
 * file is removed and `path` is untouched. Does not lock: combine with {@link withFileLock}, or use
 * {@link atomicUpdateFile}.
 *
 * @returns the stat of the new file.
 * @throws the file-system error that stopped the write (the target is then unchanged).
 * @example
 * ```ts
 * await atomicReplaceFile("/srv/po/fr.po", new TextEncoder().encode("msgid \"\"\n"), { mode: 0o644 });
 * ```
 */
export async function atomicReplaceFile(
  path: string,
  bytes: Bytes,
  options: AtomicReplaceOptions = {},
): Promise<Deno.FileInfo> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomHex(8)}.tmp`);
  // An existing file's bits are applied after writing; until then only the owner can read the temp,
  // so a 0600 catalogue never has a world-readable copy.
  const createMode = options.mode === undefined ? (options.newFileMode ?? DEFAULT_NEW_FILE_MODE) : 0o600;
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: createMode });
  let open = true;
  let written: Deno.FileInfo;
  try {
    await writeAll(file, bytes);
    if (options.mode !== undefined) await Deno.chmod(tmp, options.mode);
    await file.sync();
    open = false;
    file.close();
    // Deno.stat by path, not file.stat(): see CurrentFile.
    written = await Deno.stat(tmp);
    await Deno.rename(tmp, path);
  } catch (error) {
    if (open) file.close();
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
  await syncDirectory(dir);
  // rename(2) changes the inode's ctime: report the stat under the final name when it is our inode.
  const after = await Deno.stat(path).catch(() => null);
  return after && after.ino === written.ino && after.dev === written.dev ? after : written;
}

/**
 * Locked read-modify-write of one file: takes {@link withFileLock} for `target`, removes stale temp
 * files, reads the current contents (bypassing any cache), calls `compute`, and atomically replaces
 * the file with the result unless it is null or byte-identical to the current contents.
 *
 * `compute` receives null when the file does not exist (the directory must). A file created here gets
 * `newFileMode` (minus the umask); an existing file keeps its permission bits.
 *
 * @throws {InvalidInputError} the target exists but is not a regular file.
 * @throws {TooLargeError} the current file or the computed contents exceed `maxBytes`.
 * @throws {NotFoundError} the directory does not exist.
 * @throws whatever `compute` throws (the file is then untouched).
 */
export async function updateFileUnderLock(
  target: LockTarget,
  compute: (current: CurrentFile | null) => Bytes | null | Promise<Bytes | null>,
  options: AtomicUpdateOptions = {},
): Promise<LockedUpdateOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const staleAge = options.staleTempAgeMs === undefined ? DEFAULT_STALE_TEMP_AGE_MS : options.staleTempAgeMs;
  try {
    return await withFileLock(target.openPath, async () => {
      if (staleAge !== null) await removeStaleTemps(target.openPath, staleAge);
      const previous = await readRegularFile(target.openPath, target.displayPath, maxBytes, {
        followSymlinks: target.followSymlinks,
        expected: target.expected?.(),
      });
      const next = await compute(previous);
      if (next === null || (previous !== null && sameBytes(previous.bytes, next))) {
        return { previous, written: null };
      }
      if (bytesLength(next) > maxBytes) {
        throw new TooLargeError(
          `Cannot write ${target.displayPath}: the new contents are ${
            bytesLength(next)
          } bytes, the limit is ${maxBytes} bytes`,
        );
      }
      const mode = previous && previous.stat.mode !== null ? previous.stat.mode & 0o7777 : undefined;
      const written = await atomicReplaceFile(target.openPath, next, {
        mode,
        newFileMode: options.newFileMode,
      });
      return { previous, written };
    }, { key: target.key });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && !(await exists(dirname(target.openPath)))) {
      throw new NotFoundError(`Directory not found: ${dirname(target.displayPath)}`);
    }
    throw error;
  }
}

/**
 * Rewrites a file in place, safely against concurrent writers: the same lock and atomic replacement
 * the catalogue store uses, so a CLI run (`wrap`) and a running server never lose each other's
 * updates. `fn` gets the current bytes (null when the file does not exist) and returns the new bytes,
 * or null to leave the file alone; identical bytes are not rewritten either.
 *
 * Symlinks are followed: the link's target is replaced, the link stays. No root policy applies here;
 * callers that take paths from a network must use the catalogue store instead.
 *
 * @param path the file, absolute or relative to the working directory.
 * @returns whether the file was written.
 * @throws {NotFoundError} the file's directory does not exist.
 * @throws {InvalidInputError} the path exists and is not a regular file.
 * @throws {TooLargeError} the file or the new contents exceed `maxBytes`.
 * @throws whatever `fn` throws (the file is then untouched).
 * @example
 * ```ts
 * const { written } = await atomicUpdateFile("po/fr.po", (bytes) => bytes && reformat(bytes));
 * ```
 */
export async function atomicUpdateFile(
  path: string,
  fn: (bytes: Uint8Array | null) => Uint8Array | null | Promise<Uint8Array | null>,
  options: AtomicUpdateOptions = {},
): Promise<{ written: boolean }> {
  const absolute = resolve(path);
  let real: string;
  try {
    real = await Deno.realPath(absolute);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) throw error;
    const dir = await Deno.realPath(dirname(absolute)).catch(() => null);
    if (dir === null) throw new NotFoundError(`Directory not found: ${dirname(path)}`);
    real = join(dir, basename(absolute));
  }
  const outcome = await updateFileUnderLock(
    { openPath: real, key: real, displayPath: path },
    (current) => fn(current ? flatBytes(current.bytes) : null),
    options,
  );
  return { written: outcome.written !== null };
}

/**
 * Reads a regular file in full, with the stat taken just before opening it. Returns null when the path does not exist. Checks the type before opening, so a FIFO is
 * never opened (opening one would block). With `followSymlinks: false`, a symlink at `path` is
 * refused as not a regular file (the path policy hands out paths without symlinks; one appearing
 * later was planted after the check). With `expected`, a file whose contents equal it is read
 * in small chunks and `expected` itself is returned (no copy of the file is made).
 *
 * @throws {InvalidInputError} not a regular file.
 * @throws {TooLargeError} larger than `maxBytes` (also when it grows past it while being read).
 */
export async function readRegularFile(
  path: string,
  displayPath: string,
  maxBytes: number,
  options: { followSymlinks?: boolean; expected?: Bytes } = {},
): Promise<CurrentFile | null> {
  let stat: Deno.FileInfo;
  let file: Deno.FsFile;
  try {
    stat = await (options.followSymlinks ?? true ? Deno.stat(path) : Deno.lstat(path));
    checkRegularFile(stat, displayPath, maxBytes);
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null;
    throw error;
  }
  try {
    return { bytes: await readAllBounded(file, stat.size, maxBytes, displayPath, options.expected), stat };
  } finally {
    file.close();
  }
}

/** True when two contents are the same bytes (catalogues are megabytes: this runs on every write). */
export function bytesEqual(a: Bytes, b: Bytes): boolean {
  return sameBytes(a, b);
}

const COMPARE_CHUNK_BYTES = 1 << 18;
/** Idle comparison buffers (each in use by one read at a time). */
const COMPARE_CHUNKS: Uint8Array[] = [];

async function readAllBounded(
  file: Deno.FsFile,
  sizeHint: number,
  maxBytes: number,
  displayPath: string,
  expected?: Bytes,
): Promise<Bytes> {
  // One byte more than expected, so a file that grew since fstat is noticed.
  let buffer: Uint8Array | null = null;
  let total = 0;
  const expectedLength = expected === undefined ? -1 : bytesLength(expected);
  if (expected !== undefined && expectedLength === sizeHint) {
    // Compared chunk by chunk with the bytes the caller expects: when they match (the usual
    // case: the file is as this process last wrote it), no buffer of the file's size is made.
    const chunk = COMPARE_CHUNKS.pop() ?? new Uint8Array(COMPARE_CHUNK_BYTES);
    try {
      for (;;) {
        const n = await file.read(chunk);
        if (n === null) return total === expectedLength ? expected : flatBytes(expected).slice(0, total);
        const read = chunk.subarray(0, n);
        if (total + n <= expectedLength && equalAt(expected, total, read)) {
          total += n;
          continue;
        }
        buffer = new Uint8Array(Math.min(Math.max(sizeHint, total + n), maxBytes) + 1);
        copyPrefix(expected, total, buffer);
        if (total + n > buffer.length) {
          throw new TooLargeError(`File too large: ${displayPath} is over ${maxBytes} bytes`);
        }
        buffer.set(read, total);
        total += n;
        break;
      }
    } finally {
      // Reused: comparisons run on every write and on reads just after one.
      if (COMPARE_CHUNKS.length < 4) COMPARE_CHUNKS.push(chunk);
    }
  }
  return await readRest(
    file,
    buffer ?? new Uint8Array(Math.min(sizeHint, maxBytes) + 1),
    total,
    maxBytes,
    displayPath,
  );
}

/** Reads to the end of `file` into `buffer` (holding `total` bytes already), growing it up to `maxBytes` + 1. */
async function readRest(
  file: Deno.FsFile,
  buffer: Uint8Array,
  total: number,
  maxBytes: number,
  displayPath: string,
): Promise<Uint8Array> {
  while (true) {
    if (total === buffer.length) {
      if (total > maxBytes) {
        throw new TooLargeError(`File too large: ${displayPath} is over ${maxBytes} bytes`);
      }
      const bigger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    const n = await file.read(buffer.subarray(total));
    if (n === null) break;
    total += n;
  }
  return buffer.subarray(0, total);
}

async function writeAll(file: Deno.FsFile, bytes: Bytes): Promise<void> {
  if (bytes instanceof Uint8Array) return await writeRun(file, bytes);
  // Runs kept from earlier encodings get more numerous with every write (each changed message is
  // laid out on its own): small ones are gathered in a reused buffer, so a file takes a few
  // writes (one costs ~0.1 ms here) and no copy in memory fresh from the system.
  const stage = STAGES.pop() ?? new Uint8Array(STAGE_BYTES);
  try {
    let filled = 0;
    for (const run of bytes) {
      const direct = run.length >= stage.length >> 2;
      if (filled > 0 && (direct || filled + run.length > stage.length)) {
        await writeRun(file, stage.subarray(0, filled));
        filled = 0;
      }
      if (direct) await writeRun(file, run);
      else {
        stage.set(run, filled);
        filled += run.length;
      }
    }
    await writeRun(file, stage.subarray(0, filled));
  } finally {
    if (STAGES.length < 4) STAGES.push(stage);
  }
}

const STAGE_BYTES = 1 << 20;
/** Idle staging buffers of {@link writeAll} (each in use by one write at a time). */
const STAGES: Uint8Array[] = [];

async function writeRun(file: Deno.FsFile, run: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < run.length) offset += await file.write(run.subarray(offset));
}

/** fsync a directory so a rename in it survives a crash. A failure here comes after the rename has
 * succeeded (the new contents are in place), so it is not reported as a failed write. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory (EINVAL); the rename itself is done.
  }
}

const TEMP_SUFFIX = /^[0-9a-f]{16}\.tmp$/;

/** Best effort: removes `.<name>.<hex>.tmp` files of `path` older than `olderThanMs`. Housekeeping
 * never fails an update, so errors (a racing remover, an unreadable directory) are ignored. */
async function removeStaleTemps(path: string, olderThanMs: number): Promise<void> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (
        !entry.isFile || !entry.name.startsWith(prefix) || !TEMP_SUFFIX.test(entry.name.slice(prefix.length))
      ) {
        continue;
      }
      const full = join(dir, entry.name);
      const stat = await Deno.lstat(full).catch(() => null);
      if (stat && Date.now() - (stat.mtime?.getTime() ?? 0) >= olderThanMs) {
        await Deno.remove(full).catch(() => {});
      }
    }
  } catch {
    // See above: housekeeping only.
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}
