/**
 * The servers' log: lines (one per request) written together, once per turn of the event loop. A
 * write per line was a measurable part of a cached read's time under load.
 *
 * @module
 */

/** A log that batches lines; `flush` writes what is pending now (call it at exit). */
export interface BatchedLog {
  /** Queues one line (without its newline). */
  log(line: string): void;
  /** Writes every queued line at once. */
  flush(): void;
}

/**
 * A batched log over `write`, which must write all the bytes it is given (a failure is ignored:
 * a closed stderr leaves nobody to tell).
 *
 * @example
 * ```ts
 * const { log, flush } = batchedLog((bytes) => writeAll(Deno.stderr, bytes));
 * globalThis.addEventListener("unload", flush);
 * log("listening on http://127.0.0.1:8000");
 * ```
 */
export function batchedLog(write: (bytes: Uint8Array) => void): BatchedLog {
  const pending: string[] = [];
  const encoder = new TextEncoder();
  function flush(): void {
    if (pending.length === 0) return;
    const bytes = encoder.encode(pending.join("\n") + "\n");
    pending.length = 0;
    try {
      write(bytes);
    } catch {
      // the stream is closed: nothing to tell anyone
    }
  }
  return {
    log(line) {
      if (pending.push(line) === 1) setTimeout(flush, 0);
    },
    flush,
  };
}

/** Writes all of `bytes` to `file` (a write may take only part of them). */
export function writeAll(file: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
}
