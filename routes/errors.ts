/**
 * The one table from errors to HTTP answers, in FastAPI's shapes: `{"detail": "message"}`, or
 * `{"detail": [pydantic items]}` for request validation.
 *
 * @module
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  AnswerTooLargeError,
  BusyError,
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  OutsideRootsError,
  PoSyntaxError,
  QuotaExceededError,
  RoleRefusedError,
  TimeoutError,
  TooLargeError,
  UnavailableError,
  UnwritableCatalogError,
} from "../lib/errors.ts";
import { ChecksFailedError } from "../lib/po/mod.ts";
import { dispatchedPath, logSafe } from "./request_log.ts";
import { BodyParseError, RequestValidationError, UnsupportedMediaTypeError } from "./validation.ts";

/** The fixed answer to an unexpected failure: never the error's own text (it may hold paths). */
export const INTERNAL_ERROR_DETAIL = "Internal Server Error";

type ErrorClass = abstract new (...args: never[]) => Error;

/** Seconds a client is asked to wait after a 503. */
export const RETRY_AFTER_S = 5;

/** Domain error → status and detail. First match wins, so subclasses come before their bases. */
const ERROR_STATUS: [ErrorClass, ContentfulStatusCode, (e: Error) => unknown][] = [
  [AnswerTooLargeError, 422, (e) => e.message],
  [BusyError, 503, (e) => e.message],
  [TimeoutError, 503, (e) => e.message],
  [UnavailableError, 503, (e) => e.message],
  [PoSyntaxError, 422, (e) => `Invalid PO file: ${e.message}`],
  [UnwritableCatalogError, 422, (e) => e.message],
  [NotFoundError, 404, (e) => e.message],
  [ConflictError, 409, conflictDetail],
  [OutsideRootsError, 403, (e) => e.message],
  [RoleRefusedError, 403, (e) => e.message],
  [TooLargeError, 413, (e) => e.message],
  [ChecksFailedError, 422, (e) => ({ message: e.message, problems: (e as ChecksFailedError).problems })],
  [InvalidInputError, 422, (e) => e.message],
  [BodyParseError, 400, (e) => e.message],
  [UnsupportedMediaTypeError, 415, (e) => e.message],
  [DomainError, 400, (e) => e.message],
];

/** A conflict's detail: its message alone, or with its details beside it (`{message, revision, …}`). */
function conflictDetail(e: Error): unknown {
  const details = (e as ConflictError).details;
  return Object.keys(details).length === 0 ? e.message : { message: e.message, ...details };
}

/** Status and `detail` for an error, or null when it is not one we answer on purpose. */
export function toErrorAnswer(
  error: unknown,
): { status: ContentfulStatusCode; detail: unknown; headers?: Record<string, string> } | null {
  if (error instanceof RequestValidationError) return { status: 422, detail: error.detail };
  if (error instanceof Deno.errors.NotCapable) {
    // The sandbox refused a path: the message holds absolute paths, so it is not echoed.
    return { status: 403, detail: "Path is outside the catalogue roots" };
  }
  if (error instanceof QuotaExceededError) {
    return { status: 429, detail: error.message, headers: { "Retry-After": String(error.retryAfterS) } };
  }
  for (const [cls, status, detail] of ERROR_STATUS) {
    if (error instanceof cls) {
      return status === 503
        ? { status, detail: detail(error), headers: { "Retry-After": String(RETRY_AFTER_S) } }
        : { status, detail: detail(error) };
    }
  }
  if (error instanceof HTTPException) {
    return { status: error.status as ContentfulStatusCode, detail: error.message };
  }
  return null;
}

/** Longest text of an unexpected error written to the log (one line, escaped). */
const MAX_LOGGED_ERROR = 4096;

/**
 * `app.onError`: known errors get their status; anything else is logged server-side (one escaped
 * line: a message may hold what a client sent) and answered with a fixed 500 message. It never
 * throws: whatever goes wrong in here, the client still gets the fixed JSON 500.
 */
export function handleError(error: Error, c: Context, log: (line: string) => void): Response {
  try {
    const answer = toErrorAnswer(error);
    if (answer) return c.json({ detail: answer.detail }, answer.status, answer.headers);
    let text: string;
    try {
      text = String(error?.stack ?? error);
    } catch {
      text = "(unprintable error)";
    }
    log(
      `unexpected error on ${logSafe(c.req.method)} ${dispatchedPath(c)}: ${logSafe(text, MAX_LOGGED_ERROR)}`,
    );
  } catch {
    // fall through to the fixed answer
  }
  return internalErrorResponse();
}

/** The fixed JSON 500, built without the context (usable when everything else failed). */
export function internalErrorResponse(): Response {
  return new Response(JSON.stringify({ detail: INTERNAL_ERROR_DETAIL }), {
    status: 500,
    headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" },
  });
}
