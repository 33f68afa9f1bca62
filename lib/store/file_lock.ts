/**
 * Per-file mutual exclusion for read-modify-write, inside one process and across processes.
 *
 * Two layers:
 * 1. an in-process queue (a promise chain per key), so callers in this process wait on a promise
 *    rather than each parking a thread in `flock(2)`;
 * 2. an exclusive `flock(2)` (`Deno.FsFile.lock(true)`) on the file's lock file, so separate processes
 *    (two servers, a server and the `wrap` CLI) take turns. Where lock files live is the
 *    {@link LockPlacement} (see `lock_dir.ts`): by default for the service, `<sha256 of the real
 *    path>.lock` in a lock directory of its own (nothing is written beside the catalogues); with
 *    `PO_LOCK_DIR=beside`, or for a library user that sets nothing, `.<name>.lock` in the file's
 *    directory. Processes exclude each other only when they use the same placement.
 *
 * Limits: `flock` is *advisory*: it only orders processes that take the same lock (this module,
 * or `flock(1)` on the same lock file); an editor writing the file directly is not stopped. On NFS,
 * `flock` is emulated with POSIX byte-range locks (Linux ≥ 2.6.12) and depends on a working lock
 * manager; on some network file systems it is local to one client. There is no timeout of its own: a
 * process that holds the lock forever (stopped, not killed) blocks writers of that file, except those
 * given an `AbortSignal`, which give up once it is aborted (the store's callers pass their request's
 * time limit). The kernel releases the lock when its holder dies, SIGKILL included.
 *
 * The lock file is left in place. Removing it after use is racy: a waiter that opened the old file
 * would lock an unlinked inode while a newcomer creates and locks a fresh one, and both would
 * believe they hold the lock. Its name ends in `.lock`, so the path policy never serves it. So that a
 * refused request creates nothing, the store takes the OS lock only once it has something to write
 * (see `updateFileUnderLock`); the in-process turn ({@link withInProcessTurn}) creates no file.
 *
 * The lock file is never followed through a symlink: one found at its name (planted to make us
 * create or open a file elsewhere) is refused, and the directories are checked right before the lock
 * file is opened (see `_verified_path.ts`): the lock directory's identity, or, beside the file, the
 * verified `directories`.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { abortable } from "../abortable.ts";
import { InvalidInputError } from "../errors.ts";
import { lockFileOf, type LockPlacement, lockPlacement } from "./lock_dir.ts";
import {
  closeFd,
  createChecked,
  directoriesUnchanged,
  lstatOrNull,
  PathChangedError,
  type VerifiedDirectory,
} from "./_verified_path.ts";

const queues = new Map<string, Promise<void>>();

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Key of the in-process queue and name of the lock file in a lock directory (default: `path`).
   * Pass the real path so every spelling of one file shares one queue and one lock. */
  key?: string;
  /** Where the lock file lives (default: the process's, see `setLockPlacement`). */
  locks?: LockPlacement;
  /** Mode of a lock file this call creates (default 0o644, before the umask). */
  lockFileMode?: number;
  /** Stop waiting (for the in-process turn) once aborted, and give up once the OS lock is taken:
   * `fn` is then not called and the signal's reason is thrown. */
  signal?: AbortSignal;
  /** Directories (from the path policy) checked right before a lock file beside the file is opened. */
  directories?: readonly VerifiedDirectory[];
  /** The path to name in error messages (default `path`). */
  displayPath?: string;
}

/**
 * The lock file of `path` placed `beside` it: `.<name>.lock` in the same directory. (In a lock
 * directory, it is `<sha256 of the real path>.lock` there: see {@link lockFileOf}.)
 *
 * @example
 * ```ts
 * lockFilePath("/srv/po/fr.po"); // "/srv/po/.fr.po.lock"
 * ```
 */
export function lockFilePath(path: string): string {
  return join(dirname(path), `.${basename(path)}.lock`);
}

/**
 * Runs `fn` while holding the lock of `path` (in-process queue, then an exclusive OS lock on its
 * lock file, see {@link FileLockOptions.locks}), and releases it however `fn` ends. Calls for the same key run one at a time,
 * in call order.
 *
 * The lock file is created when missing (its directory must be writable); if it exists but cannot be
 * opened for writing, it is opened read-only, which `flock` accepts.
 *
 * @throws whatever `fn` throws; `Deno.errors.NotFound` when the directory does not exist.
 * @example
 * ```ts
 * await withFileLock("/srv/po/fr.po", async () => {
 *   const text = await Deno.readTextFile("/srv/po/fr.po");
 *   // ... compute and atomically replace the file ...
 * });
 * ```
 */
export function withFileLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  return withInProcessTurn(options.key ?? path, () => withOsLock(path, fn, options), options.signal);
}

/**
 * The in-process half of {@link withFileLock}: runs `fn` when every earlier call with the same key
 * has finished, and creates no file. Aborting `signal` while waiting stops the wait (the signal's
 * reason is thrown) without letting later callers overtake the earlier ones.
 *
 * @example
 * ```ts
 * await withInProcessTurn("/srv/po/fr.po", () => compute(), AbortSignal.timeout(60_000));
 * ```
 */
export async function withInProcessTurn<T>(
  key: string,
  fn: () => T | Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  signal?.throwIfAborted();
  const previous = queues.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  queues.set(key, mine);
  const done = () => {
    release();
    if (queues.get(key) === mine) queues.delete(key);
  };
  try {
    if (previous) await abortable(previous, signal);
  } catch (error) {
    // Gave up waiting: the next caller still waits for the one before this one.
    previous!.then(done);
    throw error;
  }
  try {
    signal?.throwIfAborted();
    return await fn();
  } finally {
    done();
  }
}

/**
 * The cross-process half of {@link withFileLock}: an exclusive `flock` on the lock file of `path`
 * (in the lock directory, named after `options.key`, or beside `path`), created when missing, held
 * while `fn` runs. No in-process queue (callers hold their turn).
 *
 * @throws {InvalidInputError} the lock file's name holds something other than a regular file.
 * @throws the signal's reason when it was aborted by the time the lock was taken (then `fn` is not
 *   called); whatever `fn` throws.
 */
export async function withOsLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  options.signal?.throwIfAborted();
  const placement = options.locks ?? lockPlacement();
  const where = lockFileOf(placement, path, options.key ?? path, options.directories);
  const lock = await openLockFile(where.lockPath, { ...options, directories: where.directories });
  try {
    await acquire(lock, options.signal);
    try {
      options.signal?.throwIfAborted();
      return await fn();
    } finally {
      await lock.unlock();
    }
  } finally {
    lock.close();
  }
}

/**
 * Takes the exclusive `flock`. Without a signal, waits in the kernel (`lock`, which cannot be
 * cancelled). With one, polls `tryLock` (1 ms, doubling up to 50 ms), so that a holder that never
 * lets go (a stopped process) cannot keep an abandoned update, and the updates queued behind it in
 * this process, waiting past the signal.
 */
async function acquire(lock: Deno.FsFile, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return await lock.lock(true);
  for (let wait = 1; !(await lock.tryLock(true)); wait = Math.min(wait * 2, 50)) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, wait));
    signal.throwIfAborted();
  }
}

/** Number of files with a holder or waiters in this process (for tests: it returns to 0). */
export function pendingLockKeys(): number {
  return queues.size;
}

/** Opens the lock file, creating it when missing: created exclusively through {@link createChecked}
 * (checked, and removed again when it landed through a swapped directory), then opened without
 * `create` for the `flock`, synchronously right after the checks. */
async function openLockFile(lockPath: string, options: FileLockOptions): Promise<Deno.FsFile> {
  const display = options.displayPath ?? lockPath;
  for (;;) {
    const existing = lstatOrNull(lockPath);
    if (existing === null) {
      try {
        const created = await createChecked(
          lockPath,
          display,
          options.lockFileMode ?? 0o644,
          options.directories,
        );
        closeFd(created.fd);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "EEXIST") throw error;
      }
      continue;
    }
    if (!existing.isFile) {
      throw new InvalidInputError(`Cannot lock ${display}: its lock file is not a regular file`);
    }
    if (!directoriesUnchanged(options.directories)) {
      throw new PathChangedError(`Path changed while it was being opened, refused: ${display}`);
    }
    try {
      return Deno.openSync(lockPath, { read: true, write: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
      return Deno.openSync(lockPath, { read: true });
    }
  }
}
