/**
 * Waiting for work that cannot itself be cancelled, up to a signal: the one helper the store's
 * lock queue, the write lease, the workbench's walk and the translation memory's build share.
 *
 * @module
 */

/**
 * `promise`'s outcome, or a rejection with the signal's reason once it is aborted first (also when
 * it already is). The work itself goes on; only the wait ends.
 *
 * @example
 * ```ts
 * await abortable(memory.start(), request.signal);
 * ```
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}
