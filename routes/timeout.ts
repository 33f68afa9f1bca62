/**
 * The time limit of one request. Past it the client is answered 503 (`TimeoutError` in the error
 * table) and the work is abandoned: its `AbortSignal` (`requestSignal(c)`) fires, so a write that has
 * not yet replaced its file gives up without leaving anything behind (the store checks the signal
 * before the rename), and an answer still being streamed is cut.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { TimeoutError } from "../lib/errors.ts";

const SIGNALS = new WeakMap<Request, AbortSignal>();

/** The time limit of one request when the configuration gives none (REQUEST_TIMEOUT_S). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** The signal that fires when this request's time is up (a signal that never fires outside the middleware). */
export function requestSignal(c: Context): AbortSignal {
  return SIGNALS.get(c.req.raw) ?? new AbortController().signal;
}

/**
 * @example
 * ```ts
 * app.use("*", requestTimeout(60_000));
 * ```
 */
export function requestTimeout(ms: number): MiddlewareHandler {
  return async function limitTime(c, next) {
    const controller = new AbortController();
    SIGNALS.set(c.req.raw, controller.signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new TimeoutError(
          `The request took longer than ${
            ms / 1000
          } s (REQUEST_TIMEOUT_S) and was abandoned; nothing was written`,
        );
        controller.abort(error);
        reject(error);
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
