/**
 * Per-file mutual exclusion for read-modify-write, inside one process and across processes.
 *
 * Two layers:
 * 1. an in-process queue (a promise chain per key), so callers in this process wait on a promise
 *    rather than each parking a thread in `flock(2)`;
 * 2. an exclusive `flock(2)` (`Deno.FsFile.lock(true)`) on a sidecar lock file `.<name>.lock` in the
 *    file's directory, so separate processes (two servers, a server and the `wrap` CLI) take turns.
 *
 * Limits: `flock` is *advisory*: it only orders processes that take the same lock (this module,
 * or `flock(1)` on the same lock file); an editor writing the file directly is not stopped. On NFS,
 * `flock` is emulated with POSIX byte-range locks (Linux ≥ 2.6.12) and depends on a working lock
 * manager; on some network file systems it is local to one client. There is no timeout: a process
 * that holds the lock forever (stopped, not killed) blocks writers of that file. The kernel releases
 * the lock when its holder dies, SIGKILL included.
 *
 * The lock file is left in place. Removing it after use is racy: a waiter that opened the old file
 * would lock an unlinked inode while a newcomer creates and locks a fresh one, and both would
 * believe they hold the lock. Its name ends in `.lock`, so the path policy never serves it.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

const queues = new Map<string, Promise<void>>();

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** Key of the in-process queue (default: `path`). Pass the real path so every spelling of one file
   * shares one queue. */
  key?: string;
  /** Mode of a lock file this call creates (default 0o644, before the umask). */
  lockFileMode?: number;
}

/**
 * The sidecar lock file of `path`: `.<name>.lock` in the same directory.
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
 * Runs `fn` while holding the lock of `path` (in-process queue, then an exclusive OS lock on
 * {@link lockFilePath}), and releases it however `fn` ends. Calls for the same key run one at a time,
 * in call order.
 *
 * The lock file is created when missing (the directory must be writable); if it exists but cannot be
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
export async function withFileLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const key = options.key ?? path;
  const previous = queues.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  queues.set(key, mine);
  try {
    if (previous) await previous;
    const lock = await openLockFile(lockFilePath(path), options.lockFileMode ?? 0o644);
    try {
      await lock.lock(true);
      try {
        return await fn();
      } finally {
        await lock.unlock();
      }
    } finally {
      lock.close();
    }
  } finally {
    release();
    if (queues.get(key) === mine) queues.delete(key);
  }
}

/** Number of files with a holder or waiters in this process (for tests: it returns to 0). */
export function pendingLockKeys(): number {
  return queues.size;
}

async function openLockFile(path: string, mode: number): Promise<Deno.FsFile> {
  try {
    return await Deno.open(path, { read: true, write: true, create: true, mode });
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
    return await Deno.open(path, { read: true });
  }
}
