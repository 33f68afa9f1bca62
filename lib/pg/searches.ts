/**
 * GPSS answers shared by every instance (table `gpss_cache`), and one upstream call for an identical
 * search made by several instances at once. The one that goes upstream holds a PostgreSQL advisory
 * lock named after the search, on a reserved connection, until its answer is in the table; the
 * others wait for the lock (polling, bounded), then find the answer there. When the holder dies, the
 * server ends its session and the lock with it: the next waiter goes upstream itself.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { SearchOutcome, SharedSearches } from "../gpss/mod.ts";
import { type ConnectionWatch, shared, type Sql } from "./client.ts";

/** Options of {@link PgSharedSearches}. */
export interface PgSharedSearchesOptions {
  /** Most connections held for searches going upstream at once (the rest wait here); default 3. */
  maxHolders?: number;
  /** Longest wait for another instance's answer before going upstream anyway; default 35,000 ms. */
  waitMs?: number;
  /** Largest answer kept (its JSON length); default 8 Mi characters. */
  maxChars?: number;
  /** The pool's connection watch (reserved connections are used only while they are alive). */
  watch: ConnectionWatch;
  /** Told when an answer could not be kept (the search still answers). */
  onProblem?: (line: string) => void;
}

const POLL_MS = 50;

/** The shared cache and coalescing (see the module's comment). */
export class PgSharedSearches implements SharedSearches {
  readonly #sql: Sql;
  readonly #maxHolders: number;
  readonly #waitMs: number;
  readonly #maxChars: number;
  readonly #onProblem: (line: string) => void;
  readonly #watch: ConnectionWatch;
  #holders = 0;
  readonly #waiting: (() => void)[] = [];
  #stores = 0;

  constructor(sql: Sql, options: PgSharedSearchesOptions) {
    this.#sql = sql;
    this.#maxHolders = Math.max(1, options.maxHolders ?? 3);
    this.#waitMs = options.waitMs ?? 35_000;
    this.#maxChars = options.maxChars ?? 8 * 1024 * 1024;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#watch = options.watch;
  }

  async #cached(key: string): Promise<SearchOutcome | null> {
    const [row] = await this.#sql<{ outcome: SearchOutcome }[]>`
      select outcome from gpss_cache where key = ${key} and expires > now()`;
    return row?.outcome ?? null;
  }

  async once(request: string, ttlMs: number, fetch: () => Promise<SearchOutcome>): Promise<SearchOutcome> {
    // A request may be kilobytes long (an index entry may not): the table is keyed by its hash.
    const key = createHash("sha256").update(request).digest("hex");
    const hit = await shared("reading the shared GPSS cache", () => this.#cached(key));
    if (hit !== null) return hit;
    while (this.#holders >= this.#maxHolders) await new Promise<void>((r) => this.#waiting.push(r));
    this.#holders++;
    try {
      return await this.#underLock(key, ttlMs, fetch);
    } finally {
      this.#holders--;
      this.#waiting.shift()?.();
    }
  }

  async #underLock(key: string, ttlMs: number, fetch: () => Promise<SearchOutcome>): Promise<SearchOutcome> {
    const lockKey = `gpss:${key}`;
    const reserved = await this.#watch.reserve(this.#sql, "waiting for an identical GPSS search", 5000);
    let locked = false;
    try {
      const deadline = Date.now() + this.#waitMs;
      for (;;) {
        const [row] = await shared(
          "waiting for an identical GPSS search",
          () => {
            if (!reserved.alive()) {
              throw Object.assign(new Error("connection closed"), { code: "CONNECTION_CLOSED" });
            }
            return reserved.sql<{ locked: boolean }[]>`
              select pg_try_advisory_lock(hashtextextended(${lockKey}, 0)) as locked`;
          },
        );
        locked = row?.locked === true;
        // Another instance's answer may have come while this one waited (or just before it locked).
        const hit = await shared("reading the shared GPSS cache", () => this.#cached(key));
        if (hit !== null) return hit;
        if (locked || Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      const outcome = await fetch();
      if (outcome.success && ttlMs > 0) await this.#keep(key, ttlMs, outcome);
      return outcome;
    } finally {
      if (locked && reserved.alive()) {
        await reserved.sql`select pg_advisory_unlock(hashtextextended(${lockKey}, 0))`.catch(() => {
          // The connection is gone, and the lock with it.
        });
      }
      reserved.release();
    }
  }

  /** Keeps a success for `ttlMs`; a failure to keep it is told, never thrown (the answer stands). */
  async #keep(key: string, ttlMs: number, outcome: SearchOutcome): Promise<void> {
    const text = JSON.stringify(outcome);
    if (text.length > this.#maxChars) return;
    try {
      await this.#sql`
        insert into gpss_cache (key, expires, outcome)
        values (${key}, now() + ${ttlMs} * interval '1 millisecond', ${this.#sql.json(outcome as never)})
        on conflict (key) do update set expires = excluded.expires, outcome = excluded.outcome`;
      // Expired answers are dropped now and then (every 50 kept).
      if (++this.#stores % 50 === 0) await this.#sql`delete from gpss_cache where expires <= now()`;
    } catch (error) {
      this.#onProblem(
        `GPSS: an answer could not be kept in the shared cache (${
          String((error as Error)?.message ?? error).slice(0, 200)
        })`,
      );
    }
  }
}
