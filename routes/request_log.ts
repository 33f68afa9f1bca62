/**
 * One log line per request: method, the path the router dispatched on, status and time. Never
 * bodies, query strings, tokens or USER_CODE. The path comes from the client, so everything that a
 * terminal or a log reader would take for structure is escaped: controls (C0, DEL, C1 such as the
 * 8-bit CSI U+009B and NEL U+0085), the line and paragraph separators, bidirectional overrides,
 * lone surrogates and the backslash itself, and in a path the space too (it separates the line's
 * fields); and it is cut to {@link MAX_LOGGED_PATH} characters.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";

/** Longest path written to the log, in UTF-16 units, before `…`. */
export const MAX_LOGGED_PATH = 512;

const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\x00-\x1f\x5c\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]/g;

function escapeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === "\\") return "\\\\";
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * A client-given text made safe for a one-line log: every unsafe character escaped as `\xNN` or
 * `\uNNNN`, from at most `max` characters of input (default {@link MAX_LOGGED_PATH}).
 *
 * @example
 * ```ts
 * logSafe("/a\nFORGED 200"); // "/a\\x0aFORGED 200"
 * ```
 */
export function logSafe(text: string, max: number = MAX_LOGGED_PATH): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  return cut.replace(UNSAFE, escapeChar) + (cut === text ? "" : "…");
}

/** The path the router dispatched on, made safe for the log (spaces escaped too), or `?`. */
export function dispatchedPath(c: Context): string {
  try {
    return logSafe(c.req.path).replaceAll(" ", "\\x20");
  } catch {
    return "?";
  }
}

/** The request-log middleware: a line per request once its answer is ready. */
export function requestLog(log: (line: string) => void): MiddlewareHandler {
  return async function logRequest(c, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = (performance.now() - started).toFixed(1);
      log(`${logSafe(c.req.method)} ${dispatchedPath(c)} ${c.res.status} ${ms}ms`);
    }
  };
}
