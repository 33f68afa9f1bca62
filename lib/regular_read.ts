/**
 * A read of one whole regular file with Deno's own file API: no `node:fs` (whose compatibility
 * layer costs a short-lived command a noticeable start-up).
 *
 * What a FIFO, a device or a directory would do to a plain `Deno.readFile` (block forever, read
 * `/dev/zero` without end) is refused: the path is stat'ed and anything but a regular file is
 * refused before it is opened; the open has a time limit (a file swapped for a FIFO between the
 * stat and the open blocks there), watched by one timer for all the opens in progress; the opened handle is stat'ed again and must be a regular file
 * (a file atomically replaced in between is read as it now is); the read stops past the size limit.
 *
 * @module
 */
import { InvalidInputError, TooLargeError } from "./errors.ts";

/** Default largest catalogue file the store reads or writes: 64 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * A path that exists but is not a regular file (a directory, FIFO, socket, device or, where symlinks
 * are not followed, a symlink). Its message is `Not a regular file: PATH`; `what` says which kind
 * ("a FIFO"), for callers that word their own message (the `wrap` CLI).
 */
export class NotRegularFileError extends InvalidInputError {
  /** The kind of file found, e.g. "a directory", "a FIFO", "a character device". */
  readonly what: string;
  /**
   * Makes the error for `displayPath` (the caller's spelling), which is `what` (e.g. "a FIFO").
   *
   * @param displayPath the path as the caller gave it.
   * @param what the kind of file found.
   */
  constructor(displayPath: string, what: string) {
    super(`Not a regular file: ${displayPath}`);
    this.what = what;
  }
}

/** How long an open may take before the file is taken for a FIFO swapped in after the check. */
export const OPEN_TIME_LIMIT_MS = 2000;

/** What kind of file a non-regular `Deno.FileInfo` describes, for messages (the store's refusals too). */
export function fileKind(stat: Deno.FileInfo): string {
  if (stat.isDirectory) return "a directory";
  if (stat.isSymlink) return "a symbolic link";
  if (stat.isFifo) return "a FIFO";
  if (stat.isCharDevice) return "a character device";
  if (stat.isBlockDevice) return "a block device";
  if (stat.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * Opens in progress, each with the time (`performance.now()`) it must have ended by and how it is
 * refused then. One timer watches them all: a run over a tree arms about one per time limit, not
 * one per file.
 */
const pendingOpens = new Set<{ deadline: number; refuse: () => void }>();

/**
 * The armed timer: when it fires, and whether it is listened to. It is listened to only while an
 * open is in progress: a listened timer holds the process open until it fires, and one left armed
 * after the last open would keep a server that should exit waiting up to the time limit.
 */
let watch: { signal: AbortSignal; until: number; listening: boolean } | null = null;

/** Refuses the opens past their time, and watches the others. */
function watchFired(): void {
  watch = null;
  const at = performance.now();
  let next = Infinity;
  for (const open of pendingOpens) {
    if (open.deadline <= at) {
      pendingOpens.delete(open);
      open.refuse();
    } else if (open.deadline < next) next = open.deadline;
  }
  if (next < Infinity) watchOpens(next);
}

/**
 * Makes sure a timer fires by `deadline` and is listened to. AbortSignal.timeout, not setTimeout:
 * Deno's first setTimeout loads Node's timers (~10 ms, a third of a small file's wrap). A timer
 * armed for an earlier open and still running is listened to again rather than a new one made.
 */
function watchOpens(deadline: number): void {
  if (watch !== null && !watch.signal.aborted && watch.until <= deadline) {
    if (!watch.listening) {
      watch.signal.addEventListener("abort", watchFired, { once: true });
      watch.listening = true;
    }
    return;
  }
  if (watch?.listening) watch.signal.removeEventListener("abort", watchFired);
  const signal = AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now())));
  signal.addEventListener("abort", watchFired, { once: true });
  watch = { signal, until: deadline, listening: true };
}

/** After an open ended: with none left in progress, the timer no longer holds the process open. */
function unwatchIfIdle(): void {
  if (pendingOpens.size === 0 && watch !== null && watch.listening) {
    watch.signal.removeEventListener("abort", watchFired);
    watch.listening = false;
  }
}

/**
 * Opens `path` for reading, or throws NotRegularFileError when the open outlasts the limit (exported
 * for the tests: a FIFO swapped in after the check cannot be staged through
 * {@link readRegularFileBytes}, which refuses a FIFO it finds before it opens anything). A late open
 * that still succeeds is closed when it does.
 */
export function openInTime(path: string, displayPath: string, limitMs: number): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { read: true });
  return new Promise((resolve, reject) => {
    const open = {
      deadline: performance.now() + limitMs,
      refuse: () => {
        reject(new NotRegularFileError(displayPath, "not openable in time (a FIFO?)"));
        opening.then((file) => file.close(), () => {});
      },
    };
    pendingOpens.add(open);
    watchOpens(open.deadline);
    opening.then(
      (file) => {
        if (pendingOpens.delete(open)) resolve(file);
        unwatchIfIdle();
      },
      (error) => {
        if (pendingOpens.delete(open)) reject(error);
        unwatchIfIdle();
      },
    );
  });
}

/**
 * Reads the whole regular file at `path` (symlinks followed), refusing anything else.
 *
 * @example
 * ```ts
 * const bytes = await readRegularFileBytes("messages.po");
 * ```
 * @param path the file to read.
 * @param maxBytes the largest size accepted.
 * @param openLimitMs how long the open may take (see {@link OPEN_TIME_LIMIT_MS}).
 * @throws {Deno.errors.NotFound} no such file (`No such file: PATH`).
 * @throws {NotRegularFileError} not a regular file (also when swapped for one while opened).
 * @throws {TooLargeError} over `maxBytes`.
 */
export async function readRegularFileBytes(
  path: string,
  maxBytes: number = DEFAULT_MAX_FILE_BYTES,
  openLimitMs: number = OPEN_TIME_LIMIT_MS,
): Promise<Uint8Array> {
  // Sync calls where nothing can block: stat does not open the path, and a handle that fstat
  // shows is a regular file reads without waiting on anyone. Only the open may block (a FIFO
  // swapped in after the stat), so only it is asynchronous and timed. (Over a tree of catalogues,
  // the five asynchronous calls per file this replaced were a large part of the main thread's time.)
  let named: Deno.FileInfo;
  try {
    named = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Deno.errors.NotFound(`No such file: ${path}`);
    throw error;
  }
  if (!named.isFile) throw new NotRegularFileError(path, fileKind(named));
  if (named.size > maxBytes) {
    throw new TooLargeError(`File too large: ${path} is ${named.size} bytes, the limit is ${maxBytes} bytes`);
  }
  const file = await openInTime(path, path, openLimitMs);
  try {
    const opened = file.statSync();
    if (!opened.isFile) throw new NotRegularFileError(path, fileKind(opened));
    // A different inode than the stat saw is fine when it is a regular file: a writer's atomic
    // rename landed in between (the servers and other wrap runs do this), and what is read is
    // the file this handle holds. Refusing it failed concurrent wraps (tests/po_processes_test.ts).
    if (opened.size > maxBytes) {
      throw new TooLargeError(
        `File too large: ${path} is ${opened.size} bytes, the limit is ${maxBytes} bytes`,
      );
    }
    // Exactly the size, then one read more: a file that grew since the stat is read to its end.
    let buffer = new Uint8Array(opened.size);
    let total = 0;
    const probe = new Uint8Array(1);
    for (;;) {
      const into = total < buffer.length ? buffer.subarray(total) : probe;
      const n = file.readSync(into);
      if (n === null) break;
      if (into === probe) {
        if (buffer.length >= maxBytes) {
          throw new TooLargeError(`File too large: ${path} is over ${maxBytes} bytes`);
        }
        const grown = new Uint8Array(Math.min(Math.max(buffer.length * 2, 4096), maxBytes));
        grown.set(buffer);
        grown[total] = probe[0]!;
        buffer = grown;
      }
      total += n;
    }
    return total === buffer.length ? buffer : buffer.slice(0, total);
  } finally {
    file.close();
  }
}
