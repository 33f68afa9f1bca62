/**
 * Crash-safe replacement of a file's contents, and the locked read-modify-write built on it.
 *
 * A replacement writes a temp file `.<name>.<16 hex>.tmp` in the target's directory, fsyncs it,
 * closes it, renames it over the target (`rename(2)` is atomic within one file system) and fsyncs the
 * directory. At any instant, a crash or SIGKILL leaves either the old or the new file under the
 * target's name, never a mix; at worst a stray temp file remains, which a later locked update of the
 * same file removes once it is older than `staleTempAgeMs`.
 *
 * Every open, create and rename below a catalogue root is checked against the directories the path
 * policy verified (see `_verified_path.ts`): a directory swapped for a symlink meanwhile is noticed,
 * and nothing is then read, created or renamed through it. Files are opened with `O_NONBLOCK` and
 * their type checked on the descriptor, so a FIFO, a device or a directory put at a catalogue's name
 * is refused at once (never waited on, never read), and reads stop at `maxBytes` + 1 bytes even when
 * the file grows while it is read.
 *
 * A read-modify-write computes under the in-process turn first and takes the cross-process `flock`
 * only when it has something to write, then checks the file is still what it computed from (else it
 * computes again, under the lock): a refused, empty or abandoned update creates nothing, no lock file
 * included. With an `AbortSignal`, the update stops at the next step once it is aborted (before the
 * rename at the latest), removes its temp file and releases its lock; the file is then untouched.
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
import {
  chmodFd,
  closeFd,
  createChecked,
  directoriesUnchanged,
  type Fd,
  openChecked,
  openDirectory,
  readFd,
  removeChecked,
  renameChecked,
  syncFd,
  type VerifiedDirectory,
  writeFd,
} from "./_verified_path.ts";
import { withInProcessTurn, withOsLock } from "./file_lock.ts";
import type { LockPlacement } from "./lock_dir.ts";
import { DEFAULT_MAX_FILE_BYTES, NotRegularFileError } from "./path_policy.ts";

/** Default age after which a stray temp file of a file being updated is removed: 10 minutes. */
export const DEFAULT_STALE_TEMP_AGE_MS = 10 * 60 * 1000;

/** Default permission bits of a newly created file, before the process umask. */
export const DEFAULT_NEW_FILE_MODE = 0o644;

/**
 * A file's contents and its `stat`, taken by path right after the open and checked to have the
 * descriptor's device and inode (so it describes the file read), before the first byte was read. A
 * stat taken before the read can only be older than the bytes, so a cache keyed by it is never
 * stale: the next stat differs and forces a reload.
 */
export interface CurrentFile {
  /** The contents: the `expected` value itself when the file held exactly that, else a new array. */
  bytes: Bytes;
  /** The file's `lstat` (or `stat`, where symlinks are followed), checked to be the opened file's. */
  stat: Deno.FileInfo;
}

/** Options of {@link atomicReplaceFile}. */
export interface AtomicReplaceOptions {
  /** Exact permission bits to give the new file (e.g. the old file's). Absent: create with
   * `newFileMode`, which the umask reduces. */
  mode?: number;
  /** Permission bits of a new file, before the umask (default {@link DEFAULT_NEW_FILE_MODE}). */
  newFileMode?: number;
  /** Directories verified by the path policy: checked right before the temp file is created and
   * before and after the rename (see `_verified_path.ts`). */
  directories?: readonly VerifiedDirectory[];
  /** Checked between writes and right before the rename: once aborted, the temp file is removed,
   * the target is left alone and the signal's reason is thrown. */
  signal?: AbortSignal;
  /** The path to name in error messages (default `path`). */
  displayPath?: string;
  /**
   * Awaited once the temp file is written and synced, right before the rename (a write lease's
   * claim): what it throws abandons the write (the temp file is removed). The function it returns,
   * if any, is called immediately before the rename; what that throws abandons it too.
   */
  beforeRename?: () => Promise<(() => void) | void>;
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
  /**
   * Abandons the update once aborted: checked before each step (waiting for the lock, reading,
   * after `compute`, writing the temp file, before the rename). The signal's reason is thrown, the
   * temp file removed, the lock released, and the file is untouched; an abort that comes after the
   * rename is too late to undo and is ignored (the update has happened).
   */
  signal?: AbortSignal;
  /** Where the cross-process lock file lives (default: the process's, see `setLockPlacement`). */
  locks?: LockPlacement;
  /** {@link AtomicReplaceOptions.beforeRename}, told the file as the update found it and the new bytes. */
  beforeRename?: (previous: CurrentFile | null, next: Bytes) => Promise<(() => void) | void>;
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
  /** The path to open, read and replace (its directory receives the temp file, and the lock file
   * when locks are placed `beside`). */
  openPath: string;
  /** The in-process queue key and the name of the lock in a lock directory: the real path, so every
   * spelling of the file (in this process and in others) shares one queue and one lock. */
  key: string;
  /** The path to name in error messages (the caller's spelling). */
  displayPath: string;
  /** False: refuse a symlink at `openPath` (see {@link readRegularFile}). Default true. */
  followSymlinks?: boolean;
  /** Directories verified by the path policy (`ResolvedCataloguePath.directories`); every
   * use of `openPath` is checked against them. Absent: no such check (the CLI, which has no roots). */
  directories?: readonly VerifiedDirectory[];
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
  const { directories, signal } = options;
  const display = options.displayPath ?? path;
  signal?.throwIfAborted();
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomHex(8)}.tmp`);
  // An existing file's bits are applied after writing; until then only the owner can read the temp,
  // so a 0600 catalogue never has a world-readable copy.
  const createMode = options.mode === undefined ? (options.newFileMode ?? DEFAULT_NEW_FILE_MODE) : 0o600;
  const created = await createChecked(tmp, display, createMode, directories);
  let fd: Fd | null = created.fd;
  let written: Deno.FileInfo;
  try {
    await writeAll(fd, bytes, signal);
    if (options.mode !== undefined) chmodFd(fd, options.mode);
    await syncFd(fd);
    closeFd(fd);
    fd = null;
    signal?.throwIfAborted();
    const lastCheck = await options.beforeRename?.();
    lastCheck?.();
    written = renameChecked(tmp, created, path, display, directories);
  } catch (error) {
    if (fd !== null) closeFd(fd);
    removeChecked(tmp, created, directories);
    throw error;
  }
  await syncDirectory(dir);
  return written;
}

/**
 * Locked read-modify-write of one file. Under the in-process turn of `target.key`: reads the current
 * contents (bypassing any cache), calls `compute`, and, unless the result is null or byte-identical,
 * takes the cross-process lock ({@link withOsLock}), checks that the file still holds what `compute`
 * saw (else calls `compute` again with what it holds now, under the lock), removes stale temp files
 * and atomically replaces the file.
 *
 * So `compute` may be called twice when another process changed the file in between: it must have
 * no effect besides its result. A refused (`compute` throws), empty or abandoned update creates no
 * file at all: no lock file, no temp file.
 *
 * `compute` receives null when the file does not exist (the directory must). A file created here gets
 * `newFileMode` (minus the umask); an existing file keeps its permission bits.
 *
 * @throws {NotRegularFileError} (an InvalidInputError) the target exists but is not a regular file.
 * @throws {TooLargeError} the current file or the computed contents exceed `maxBytes`.
 * @throws {NotFoundError} the directory does not exist.
 * @throws {PathChangedError} a verified directory changed under the update.
 * @throws the signal's reason once `options.signal` is aborted (the file is then untouched).
 * @throws whatever `compute` throws (the file is then untouched).
 */
export async function updateFileUnderLock(
  target: LockTarget,
  compute: (current: CurrentFile | null) => Bytes | null | Promise<Bytes | null>,
  options: AtomicUpdateOptions = {},
): Promise<LockedUpdateOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const staleAge = options.staleTempAgeMs === undefined ? DEFAULT_STALE_TEMP_AGE_MS : options.staleTempAgeMs;
  const { signal } = options;
  const { openPath, displayPath, directories } = target;
  const read = (expected: Bytes | undefined) =>
    readRegularFile(openPath, displayPath, maxBytes, {
      followSymlinks: target.followSymlinks,
      expected,
      directories,
      signal,
    });
  const computeChecked = async (current: CurrentFile | null): Promise<Bytes | null> => {
    const next = await compute(current);
    signal?.throwIfAborted();
    if (next === null || (current !== null && sameBytes(current.bytes, next))) return null;
    if (bytesLength(next) > maxBytes) {
      throw new TooLargeError(
        `Cannot write ${displayPath}: the new contents are ${
          bytesLength(next)
        } bytes, the limit is ${maxBytes} bytes`,
      );
    }
    return next;
  };
  try {
    return await withInProcessTurn(target.key, async () => {
      // Computed before any file is created: a refused or empty update leaves nothing behind.
      let previous = await read(target.expected?.());
      let next = await computeChecked(previous);
      if (next === null) return { previous, written: null };
      return await withOsLock(openPath, async () => {
        // Another process may have written between the read and the lock: compared (chunk by
        // chunk, no copy when unchanged) and computed again from what the file holds now.
        const current = await read(previous === null ? undefined : previous.bytes);
        if (!sameContents(previous, current)) {
          previous = current;
          next = await computeChecked(current);
          if (next === null) return { previous, written: null };
        } else previous = current;
        if (staleAge !== null) removeStaleTemps(openPath, staleAge, directories);
        const mode = previous && previous.stat.mode !== null ? previous.stat.mode & 0o7777 : undefined;
        const replacing = next!;
        const { beforeRename } = options;
        const written = await atomicReplaceFile(openPath, replacing, {
          mode,
          newFileMode: options.newFileMode,
          directories,
          signal,
          displayPath,
          ...(beforeRename ? { beforeRename: () => beforeRename(previous, replacing) } : {}),
        });
        return { previous, written };
      }, { signal, directories, displayPath, key: target.key, locks: options.locks });
    }, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && !(await exists(dirname(openPath)))) {
      throw new NotFoundError(`Directory not found: ${dirname(displayPath)}`);
    }
    throw error;
  }
}

function sameContents(a: CurrentFile | null, b: CurrentFile | null): boolean {
  if (a === null || b === null) return a === b;
  return a.bytes === b.bytes || sameBytes(a.bytes, b.bytes);
}

/**
 * Rewrites a file in place, safely against concurrent writers: the same lock and atomic replacement
 * the catalogue store uses, so a CLI run (`wrap`) and a running server never lose each other's
 * updates, provided both use the same lock placement (`PO_LOCK_DIR`, see `lock_dir.ts`). `fn` gets the current bytes (null when the file does not exist) and returns the new bytes,
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
 * Reads a regular file in full. Returns null when the path does not exist. The file is opened with
 * `O_NONBLOCK` and its type checked on the descriptor before a byte is read, so a FIFO, a device or a
 * directory is refused at once (never waited on, never read). With `followSymlinks: false`, a symlink
 * at `path` is refused as not a regular file (the path policy hands out paths without symlinks; one
 * appearing later was planted after the check). With `directories`, the open is checked against them
 * (see `_verified_path.ts`). With `expected`, a file whose contents equal it is read in small chunks
 * and `expected` itself is returned (no copy of the file is made).
 *
 * @throws {NotRegularFileError} (an InvalidInputError) not a regular file.
 * @throws {TooLargeError} larger than `maxBytes` (also when it grows past it while being read: at most
 *   `maxBytes` + 1 bytes are ever read).
 * @throws {PathChangedError} the path kept changing while it was opened.
 * @throws the signal's reason once `signal` is aborted (checked between chunks).
 * @example
 * ```ts
 * const file = await readRegularFile("/srv/po/fr.po", "/srv/po/fr.po", 64 << 20);
 * if (file === null) console.log("no such file");
 * ```
 */
export async function readRegularFile(
  path: string,
  displayPath: string,
  maxBytes: number,
  options: {
    followSymlinks?: boolean;
    expected?: Bytes;
    directories?: readonly VerifiedDirectory[];
    signal?: AbortSignal;
  } = {},
): Promise<CurrentFile | null> {
  options.signal?.throwIfAborted();
  const opened = openChecked(path, displayPath, {
    follow: options.followSymlinks ?? true,
    directories: options.directories,
  });
  if (opened.kind === "missing") return null;
  if (opened.kind === "not-regular") throw new NotRegularFileError(displayPath, opened.what);
  try {
    if (opened.size > maxBytes) {
      throw new TooLargeError(
        `File too large: ${displayPath} is ${opened.size} bytes, the limit is ${maxBytes} bytes`,
      );
    }
    const bytes = await readAllBounded(
      opened.fd,
      opened.size,
      maxBytes,
      displayPath,
      options.expected,
      options.signal,
    );
    return { bytes, stat: opened.stat };
  } finally {
    closeFd(opened.fd);
  }
}

const COMPARE_CHUNK_BYTES = 1 << 18;
/** Idle comparison buffers (each in use by one read at a time). */
const COMPARE_CHUNKS: Uint8Array[] = [];

async function readAllBounded(
  fd: Fd,
  sizeHint: number,
  maxBytes: number,
  displayPath: string,
  expected?: Bytes,
  signal?: AbortSignal,
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
        signal?.throwIfAborted();
        const n = await readFd(fd, chunk, 0, chunk.length);
        if (n === 0) return total === expectedLength ? expected : flatBytes(expected).slice(0, total);
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
    fd,
    buffer ?? new Uint8Array(Math.min(sizeHint, maxBytes) + 1),
    total,
    maxBytes,
    displayPath,
    signal,
  );
}

/** Reads to the end of `file` into `buffer` (holding `total` bytes already), growing it up to `maxBytes` + 1. */
async function readRest(
  fd: Fd,
  buffer: Uint8Array,
  total: number,
  maxBytes: number,
  displayPath: string,
  signal?: AbortSignal,
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
    signal?.throwIfAborted();
    // At most 1 MiB per call: an abort is noticed between calls.
    const n = await readFd(fd, buffer, total, Math.min(buffer.length - total, READ_CALL_BYTES));
    if (n === 0) break;
    total += n;
  }
  return buffer.subarray(0, total);
}

const READ_CALL_BYTES = 1 << 20;

async function writeAll(file: Fd, bytes: Bytes, signal?: AbortSignal): Promise<void> {
  if (bytes instanceof Uint8Array) return await writeRun(file, bytes, signal);
  // Runs kept from earlier encodings get more numerous with every write (each changed message is
  // laid out on its own): small ones are gathered in a reused buffer, so a file takes a few
  // writes and no copy in memory fresh from the system.
  const stage = STAGES.pop() ?? new Uint8Array(STAGE_BYTES);
  try {
    let filled = 0;
    for (const run of bytes) {
      const direct = run.length >= stage.length >> 2;
      if (filled > 0 && (direct || filled + run.length > stage.length)) {
        await writeRun(file, stage.subarray(0, filled), signal);
        filled = 0;
      }
      if (direct) await writeRun(file, run, signal);
      else {
        stage.set(run, filled);
        filled += run.length;
      }
    }
    await writeRun(file, stage.subarray(0, filled), signal);
  } finally {
    if (STAGES.length < 4) STAGES.push(stage);
  }
}

const STAGE_BYTES = 1 << 20;
/** Idle staging buffers of {@link writeAll} (each in use by one write at a time). */
const STAGES: Uint8Array[] = [];

async function writeRun(file: Fd, run: Uint8Array, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  await writeFd(file, run);
}

/** fsync a directory so a rename in it survives a crash. A failure here comes after the rename has
 * succeeded (the new contents are in place), so it is not reported as a failed write. Opened with
 * `O_DIRECTORY|O_NONBLOCK`: whatever was swapped in at that name, the open cannot block. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const fd = openDirectory(dir);
    try {
      await syncFd(fd);
    } finally {
      closeFd(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory (EINVAL); the rename itself is done.
  }
}

const TEMP_SUFFIX = /^[0-9a-f]{16}\.tmp$/;

/** Best effort: removes `.<name>.<hex>.tmp` files of `path` older than `olderThanMs`. Housekeeping
 * never fails an update, so errors (a racing remover, an unreadable directory) are ignored. Each
 * removal is checked against `directories` right before it (never through a swapped directory). */
function removeStaleTemps(
  path: string,
  olderThanMs: number,
  directories: readonly VerifiedDirectory[] | undefined,
): void {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  try {
    if (!directoriesUnchanged(directories)) return;
    for (const entry of Deno.readDirSync(dir)) {
      if (
        !entry.isFile || !entry.name.startsWith(prefix) || !TEMP_SUFFIX.test(entry.name.slice(prefix.length))
      ) {
        continue;
      }
      const full = join(dir, entry.name);
      const stat = Deno.lstatSync(full);
      if (stat.isFile && Date.now() - (stat.mtime?.getTime() ?? 0) >= olderThanMs) {
        removeChecked(full, { dev: stat.dev, ino: stat.ino! }, directories);
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
