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

/** A connection of the pool reserved for a session-level lock (see {@link ConnectionWatch}). */
export interface Reserved {
  /** Runs statements on the reserved connection. Check {@link Reserved.alive} first. */
  sql: postgres.ReservedSql<Record<string, never>>;
  /** The server process of the session (for `pg_cancel_backend`). */
  pid: number;
  /** False once the connection has closed (its session, and every lock it held, is gone). */
  alive(): boolean;
  /** Gives the connection back to the pool, unless it closed (then the pool has it back already). */
  release(): void;
}

const TAG = "po-tools-reserve:";

/**
 * Knows which pool connection each reserved handle runs on, and whether the server has closed it
 * since. `npm:postgres` 3.4.9 does not guard a reserved handle whose connection closed: a statement
 * sent on it writes to a null socket (an uncaught TypeError that ends the process), and releasing it
 * puts the closed connection back among the open ones. A restarted database did exactly that to
 * every instance. So a reserved handle is only used, and only released, while its connection is the
 * one it was reserved on. Give {@link ConnectionWatch.options} to `postgres()`.
 */
export class ConnectionWatch {
  /** Closes seen per connection id (a connection object reconnects under the same id). */
  readonly #closes = new Map<number, number>();
  /** The connection of each tagged statement sent by {@link ConnectionWatch.reserve}, and its closes then. */
  readonly #tagged = new Map<string, { id: number; closes: number }>();

  /** The client's hooks: `debug` names the connection a statement goes to, `onclose` its close. */
  readonly options = {
    debug: (id: number, _query: string, parameters: unknown[]) => {
      const tag = parameters[0];
      if (typeof tag === "string" && tag.startsWith(TAG)) {
        this.#tagged.set(tag, { id, closes: this.#closes.get(id) ?? 0 });
      }
    },
    onclose: (id: number) => {
      this.#closes.set(id, (this.#closes.get(id) ?? 0) + 1);
    },
  };

  /**
   * Reserves a connection of `sql` (a pool made with {@link ConnectionWatch.options}); a pool that
   * gives none within `ms`, or a session that does not answer, counts as a database away.
   */
  async reserve(sql: Sql, what: string, ms: number): Promise<Reserved> {
    const reserving = sql.reserve();
    let reserved: Awaited<typeof reserving>;
    try {
      reserved = await shared(what, () => within(reserving, ms));
    } catch (error) {
      reserving.then((r) => r.release(), () => {});
      throw error;
    }
    const tag = `${TAG}${crypto.randomUUID()}`;
    let sent: { id: number; closes: number } | undefined;
    const alive = () => sent !== undefined && (this.#closes.get(sent.id) ?? 0) === sent.closes;
    try {
      const probe = reserved<{ pid: number }[]>`select ${tag}::text as tag, pg_backend_pid() as pid`;
      const [row] = await shared(what, () => within(probe.finally(() => sent = this.#tagged.get(tag)), ms));
      return {
        sql: reserved,
        pid: row!.pid,
        alive,
        release: () => {
          if (alive()) reserved.release();
        },
      };
    } catch (error) {
      sent ??= this.#tagged.get(tag);
      if (alive()) reserved.release();
      throw error;
    } finally {
      this.#tagged.delete(tag);
    }
  }
}

/** `promise`, or a connection error (as the client's own) once `ms` have passed. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("connect timed out"), { code: "CONNECT_TIMEOUT" })),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
