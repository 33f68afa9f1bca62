/**
 * The GPSS quota ledger in PostgreSQL (table `gpss_quota`), shared by every instance that uses one
 * user code: a row per user code (its hash) and quota window. A reservation is one atomic
 * `UPDATE … SET reserved = reserved + n WHERE used + reserved + n <= budget`, so however many
 * instances search at once, what they reserve never passes the budget; settling moves the
 * reservation to `used` (the records the search got) in one statement. A reservation is counted as
 * spent until it is settled: an instance killed mid-search, or one that cannot reach the database
 * to settle, leaves its records counted (the window over-counts; it never over-spends).
 *
 * @module
 */
import {
  codeKey,
  quotaExceeded,
  type QuotaKeeper,
  type QuotaStatus,
  quotaWindowAt,
  type QuotaWindows,
} from "../gpss/mod.ts";
import { shared, type Sql } from "./client.ts";

/** Options of {@link PgQuotaLedger}. */
export interface PgQuotaLedgerOptions {
  userCode: string;
  windows?: QuotaWindows;
  /** The clock (ms), default `Date.now`. */
  now?: () => number;
  /** Told when a settlement could not be written (the reservation then stays counted). */
  onProblem?: (line: string) => void;
}

interface Row {
  used: string;
  reserved: string;
  exhausted: boolean;
}

/** The quota ledger as rows of `gpss_quota` (see the module's comment). */
export class PgQuotaLedger implements QuotaKeeper {
  readonly #sql: Sql;
  readonly #key: string;
  readonly #windows: QuotaWindows | undefined;
  readonly #now: () => number;
  readonly #onProblem: (line: string) => void;

  constructor(sql: Sql, options: PgQuotaLedgerOptions) {
    this.#sql = sql;
    this.#key = codeKey(options.userCode);
    this.#windows = options.windows;
    this.#now = options.now ?? Date.now;
    this.#onProblem = options.onProblem ?? (() => {});
  }

  /** The current window, its row made when missing. */
  async #window() {
    const window = quotaWindowAt(this.#now(), this.#windows);
    await this.#sql`
      insert into gpss_quota (code_key, window_start, window_end)
      values (${this.#key}, ${window.start}, ${window.end})
      on conflict do nothing`;
    return window;
  }

  status(): Promise<QuotaStatus> {
    return shared("reading the GPSS quota ledger", async () => {
      const window = await this.#window();
      const [row] = await this.#sql<Row[]>`
        select used, reserved, exhausted from gpss_quota
        where code_key = ${this.#key} and window_start = ${window.start}`;
      const spent = Number(row?.used ?? 0);
      const reserved = Number(row?.reserved ?? 0);
      const exhausted = row?.exhausted ?? false;
      const used = exhausted ? Math.max(spent, window.budget) : spent;
      const iso = (ms: number) => new Date(ms).toISOString();
      return {
        window: { kind: window.kind, start: iso(window.start), end: iso(window.end) },
        budget: window.budget,
        used,
        reserved,
        remaining: Math.max(0, window.budget - used - reserved),
        resets_at: iso(window.end),
        exhausted_upstream: exhausted,
        persisted: true,
        ledger_problem: null,
      };
    });
  }

  async reserve(records: number): Promise<(got: number) => void> {
    const window = await shared("reserving GPSS quota", async () => {
      const window = await this.#window();
      const rows = await this.#sql`
        update gpss_quota set reserved = reserved + ${records}
        where code_key = ${this.#key} and window_start = ${window.start} and not exhausted
          and used + reserved + ${records} <= ${window.budget}
        returning reserved`;
      return rows.length === 1 ? window : null;
    });
    if (window === null) throw quotaExceeded(records, await this.status(), this.#now());
    let settled = false;
    return (got: number) => {
      if (settled) return;
      settled = true;
      const charged = Math.max(0, Math.min(got, Number.MAX_SAFE_INTEGER));
      this.#sql`
        update gpss_quota set reserved = greatest(0, reserved - ${records}), used = used + ${charged}
        where code_key = ${this.#key} and window_start = ${window.start}`
        .catch((error) =>
          this.#onProblem(
            `GPSS quota: a settlement of ${records} reserved records (${charged} got) could not be written ` +
              `(${String((error as Error)?.message ?? error).slice(0, 200)}); they stay counted as spent`,
          )
        );
    };
  }

  markExhausted(): Promise<void> {
    return shared("recording GPSS's Over download quantity", async () => {
      const window = await this.#window();
      await this.#sql`
        update gpss_quota set exhausted = true
        where code_key = ${this.#key} and window_start = ${window.start}`;
    });
  }
}
