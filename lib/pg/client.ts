/**
 * The PostgreSQL client's type, and the error a dropped database becomes. The client itself
 * (`npm:postgres`) is made at the process edge (`routes/run.ts`) and handed in: it reconnects by
 * itself, query by query, once the database is back.
 *
 * @module
 */
import type postgres from "postgres";
import { UnavailableError } from "../errors.ts";

/** A connection pool of `npm:postgres`. */
export type Sql = postgres.Sql<Record<string, never>>;

/** Network-level failures of the client (the database is down, restarting, or unreachable). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // The server shutting down or restarting (admin_shutdown, crash_shutdown, cannot_connect_now).
  "57P01",
  "57P02",
  "57P03",
]);

/** True when `error` says the database cannot be reached now (as opposed to a bad query). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && CONNECTION_CODES.has(code) ||
    error instanceof Error && /connect|ECONNREFUSED|terminat/i.test(error.message) &&
      !("severity" in error && code !== undefined && !CONNECTION_CODES.has(String(code)));
}

/**
 * Runs `work`; a connection failure becomes {@link UnavailableError} (503, "try again"): the
 * service answers clearly while the database is away and works again once it is back.
 */
export async function shared<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isConnectionError(error)) {
      throw new UnavailableError(
        `The shared database is unreachable (${what}); nothing was done: try again in a few seconds`,
        { cause: error },
      );
    }
    throw error;
  }
}
