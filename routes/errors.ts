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
  DomainError,
  InvalidInputError,
  NotFoundError,
  OutsideRootsError,
  PoSyntaxError,
  TooLargeError,
  UnwritableCatalogError,
} from "../lib/errors.ts";
import { BodyParseError, RequestValidationError } from "./validation.ts";

/** The fixed answer to an unexpected failure: never the error's own text (it may hold paths). */
export const INTERNAL_ERROR_DETAIL = "Internal Server Error";

type ErrorClass = abstract new (...args: never[]) => Error;

/** Domain error → status and detail. First match wins, so subclasses come before their bases. */
const ERROR_STATUS: [ErrorClass, ContentfulStatusCode, (e: Error) => string][] = [
  [PoSyntaxError, 422, (e) => `Invalid PO file: ${e.message}`],
  [UnwritableCatalogError, 422, (e) => e.message],
  [NotFoundError, 404, (e) => e.message],
  [OutsideRootsError, 403, (e) => e.message],
  [TooLargeError, 413, (e) => e.message],
  [InvalidInputError, 422, (e) => e.message],
  [BodyParseError, 400, (e) => e.message],
  [DomainError, 400, (e) => e.message],
];

/** Status and `detail` for an error, or null when it is not one we answer on purpose. */
export function toErrorAnswer(error: unknown): { status: ContentfulStatusCode; detail: unknown } | null {
  if (error instanceof RequestValidationError) return { status: 422, detail: error.detail };
  if (error instanceof Deno.errors.NotCapable) {
    // The sandbox refused a path: the message holds absolute paths, so it is not echoed.
    return { status: 403, detail: "Path is outside the catalogue roots" };
  }
  for (const [cls, status, detail] of ERROR_STATUS) {
    if (error instanceof cls) return { status, detail: detail(error) };
  }
  if (error instanceof HTTPException) {
    return { status: error.status as ContentfulStatusCode, detail: error.message };
  }
  return null;
}

/**
 * `app.onError`: known errors get their status; anything else is logged server-side and answered
 * with a fixed 500 message.
 */
export function handleError(error: Error, c: Context, log: (line: string) => void): Response {
  const answer = toErrorAnswer(error);
  if (answer) return c.json({ detail: answer.detail }, answer.status);
  log(`unexpected error on ${c.req.method} ${new URL(c.req.url).pathname}: ${error.stack ?? error}`);
  return c.json({ detail: INTERNAL_ERROR_DETAIL }, 500);
}
