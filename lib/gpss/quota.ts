/**
 * The quota ledger: how many records this service has fetched from GPSS with its user code in the
 * current quota window ({@link quotaWindowAt}), so a search that would go over the window's budget
 * is refused before it is sent, with the time the window resets. GPSS itself tells nothing of what
 * is left (§4.3) until it answers `Over download quantity`.
 *
 * Counting: a search reserves `expQty` records before it goes out (at most that many can come
 * back) and is charged the records it got; a cache hit, or a search joining an identical one in
 * flight, costs nothing; an upstream `Over download quantity` marks the window used up.
 *
 * Keeping: with a state directory the ledger is the file `gpss-quota.json` there, rewritten
 * atomically (a new file of mode 0600, `fsync`, `rename`) after each charge, and read again before
 * each reservation, merged by taking the larger count of each window, so processes sharing the
 * directory (the HTTP server and the MCP server) see each other's use (a race between two of them
 * can undercount one search; the next read corrects it). The file is treated as hostile when
 * read: opened without following a symlink, a regular file of at most {@link MAX_LEDGER_BYTES},
 * every entry checked, and anything else ignored (and reported in the status) rather than trusted.
 * An entry of a window later than now (written while the clock was ahead) is set aside, reported
 * as the status's `ledger_problem` until the current window ends, and replaced by the current
 * window's entry at the next charge: it never stands in for the current window, where it would hide
 * every charge until its own window came.
 * The user code itself is never written: entries are keyed by a hash of it.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import { QuotaExceededError } from "../errors.ts";
import { DEFAULT_QUOTA_WINDOWS, type QuotaWindow, quotaWindowAt, type QuotaWindows } from "./quota_window.ts";

/** The ledger file's name in the state directory. */
export const LEDGER_FILE = "gpss-quota.json";

/** Largest ledger file read or written. */
export const MAX_LEDGER_BYTES = 64 * 1024;

/** Most user codes the file keeps (the newest windows first). */
export const MAX_LEDGER_CODES = 64;

/** What {@link QuotaLedger.status} reports. */
export interface QuotaStatus {
  window: { kind: "peak" | "off_peak"; start: string; end: string };
  budget: number;
  used: number;
  /** Records reserved by searches in flight. */
  reserved: number;
  remaining: number;
  /** When the window resets (its end), ISO 8601 UTC. */
  resets_at: string;
  /** True when GPSS answered `Over download quantity` in this window. */
  exhausted_upstream: boolean;
  /** True when the ledger is kept in a state directory. */
  persisted: boolean;
  /** Why the stored ledger was not used, when it was not (null otherwise). */
  ledger_problem: string | null;
}

interface Entry {
  window: number;
  end: number;
  used: number;
  exhausted: boolean;
}

/** Options of {@link QuotaLedger}. */
export interface QuotaLedgerOptions {
  /** The user code whose use is counted (only a hash of it is kept). */
  userCode: string;
  /** The windows and their budgets; default {@link DEFAULT_QUOTA_WINDOWS}. */
  windows?: QuotaWindows;
  /** The state directory (already checked: see `openStateDirectory`); null keeps it in memory. */
  stateDir?: string | null;
  /** The clock (ms), default `Date.now`. */
  now?: () => number;
}

/** Hash prefix naming a user code in the file (the code itself is a secret). */
export function codeKey(userCode: string): string {
  return createHash("sha256").update(`gpss-quota:${userCode}`).digest("hex").slice(0, 16);
}

const KEY_RE = /^[0-9a-f]{16}$/;
const MAX_WINDOW_MS = 9 * 86_400_000;
const MAX_USED = 1_000_000_000;

/** Checks one stored entry; null when it is not one this code could have written. */
function entryOf(value: unknown): Entry | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const { window, end, used, exhausted } = v;
  if (!Number.isSafeInteger(window) || !Number.isSafeInteger(end) || !Number.isSafeInteger(used)) return null;
  const [w, e, u] = [window as number, end as number, used as number];
  if (e <= w || e - w > MAX_WINDOW_MS || u < 0 || u > MAX_USED) return null;
  if (exhausted !== undefined && typeof exhausted !== "boolean") return null;
  return { window: w, end: e, used: u, exhausted: exhausted === true };
}

/**
 * Reads the ledger file without trusting it: not following a symlink, a regular file only, at most
 * {@link MAX_LEDGER_BYTES}, JSON of the expected shape, entries checked one by one. Returns the
 * entries (empty when there is no file) and what was wrong, if anything.
 */
export function readLedgerFile(path: string): { entries: Map<string, Entry>; problem: string | null } {
  const entries = new Map<string, Entry>();
  // Checked before the open (a symlink or a FIFO is never opened) and after it (the file opened
  // is the one checked): Deno may resolve symlinks itself before it opens, so O_NOFOLLOW alone
  // is not relied on.
  let before: fs.Stats;
  try {
    before = fs.lstatSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return { entries, problem: null };
    return { entries, problem: `the ledger file could not be examined (${code ?? "error"}); it was ignored` };
  }
  if (before.isSymbolicLink()) {
    return { entries, problem: "the ledger file is a symbolic link; it was ignored" };
  }
  if (!before.isFile()) return { entries, problem: "the ledger file is not a regular file; it was ignored" };
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return { entries, problem: null };
    return { entries, problem: `the ledger file could not be opened (${code ?? "error"}); it was ignored` };
  }
  let text: string;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.dev !== before.dev || stat.ino !== before.ino) {
      return { entries, problem: "the ledger file changed while it was opened; it was ignored" };
    }
    if (stat.size > MAX_LEDGER_BYTES) {
      return { entries, problem: `the ledger file is over ${MAX_LEDGER_BYTES} bytes; it was ignored` };
    }
    const buffer = new Uint8Array(MAX_LEDGER_BYTES + 1);
    let size = 0;
    for (let n = 1; n > 0 && size <= MAX_LEDGER_BYTES;) {
      n = fs.readSync(fd, buffer, size, buffer.length - size, null);
      size += n;
    }
    if (size > MAX_LEDGER_BYTES) {
      return { entries, problem: `the ledger file is over ${MAX_LEDGER_BYTES} bytes; it was ignored` };
    }
    text = new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, size));
  } catch {
    return { entries, problem: "the ledger file could not be read as UTF-8 text; it was ignored" };
  } finally {
    fs.closeSync(fd);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { entries, problem: "the ledger file is not JSON; it was ignored" };
  }
  const codes = (doc as { version?: unknown; codes?: unknown })?.codes;
  if ((doc as { version?: unknown })?.version !== 1 || typeof codes !== "object" || codes === null) {
    return { entries, problem: "the ledger file is not a version 1 ledger; it was ignored" };
  }
  let dropped = 0;
  for (const [key, value] of Object.entries(codes)) {
    const entry = KEY_RE.test(key) ? entryOf(value) : null;
    if (entry === null || entries.size >= MAX_LEDGER_CODES) dropped++;
    else entries.set(key, entry);
  }
  return {
    entries,
    problem: dropped > 0 ? `${dropped} ledger entries were not valid and were ignored` : null,
  };
}

/** Writes the ledger: a new file (0600, no symlink followed), `fsync`, then `rename` over the old. */
function writeLedgerFile(dir: string, entries: Map<string, Entry>): void {
  const codes: Record<string, Entry> = {};
  const newest = [...entries].sort((a, b) => b[1].window - a[1].window).slice(0, MAX_LEDGER_CODES);
  for (const [key, entry] of newest) codes[key] = entry;
  const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, codes }));
  if (bytes.length > MAX_LEDGER_BYTES) return; // cannot happen with 64 entries of ~80 bytes; never write more
  const tmp = join(dir, `.${LEDGER_FILE}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  const fd = fs.openSync(
    tmp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o600,
  );
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, join(dir, LEDGER_FILE));
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * What a GPSS client needs of a quota ledger: the in-process {@link QuotaLedger}, or one shared by
 * several instances (PostgreSQL: `lib/pg`). A reservation is counted as spent until it is settled.
 */
export interface QuotaKeeper {
  /** What is used and left in the current window. */
  status(): QuotaStatus | Promise<QuotaStatus>;
  /**
   * Reserves `records` for a search about to be sent; the function returned settles it with the
   * records the search got (0 for a failure). Throws {@link QuotaExceededError} when short.
   */
  reserve(records: number): ((got: number) => void) | Promise<(got: number) => void>;
  /** Records GPSS's `Over download quantity`. */
  markExhausted(): void | Promise<void>;
}

/** The refusal of a search of `records` when `status` has fewer left (its message says when it resets). */
export function quotaExceeded(records: number, status: QuotaStatus, now: number): QuotaExceededError {
  const end = Date.parse(status.resets_at);
  const wait = Math.max(1, Math.ceil((end - now) / 1000));
  return new QuotaExceededError(
    `The GPSS download quota would be exceeded: this search may fetch ${records} records, and ` +
      `${status.remaining} of the ${status.budget} allowed in this ${
        status.window.kind === "peak" ? "peak" : "off-peak"
      } window are left` + (status.exhausted_upstream ? " (GPSS said Over download quantity)" : "") +
      `. The window resets at ${status.resets_at}` +
      (status.remaining > 0
        ? `; ask for at most ${status.remaining} results, or wait.`
        : "; wait until then."),
    wait,
  );
}

/**
 * Counts the records fetched per user code and quota window; refuses what would go over.
 *
 * @example
 * ```ts
 * const ledger = new QuotaLedger({ userCode, stateDir: "/var/lib/po-tools" });
 * const settle = ledger.reserve(30); // throws QuotaExceededError when 30 are not left
 * settle(12); // the search got 12 records
 * ```
 */
export class QuotaLedger implements QuotaKeeper {
  readonly #key: string;
  readonly #windows: QuotaWindows;
  readonly #dir: string | null;
  readonly #now: () => number;
  #entries = new Map<string, Entry>();
  #reserved = 0;
  #problem: string | null = null;
  /** An entry of a window later than now, set aside (reported until the current window ends). */
  #future: { problem: string; until: number } | null = null;

  constructor(options: QuotaLedgerOptions) {
    this.#key = codeKey(options.userCode);
    this.#windows = options.windows ?? DEFAULT_QUOTA_WINDOWS;
    this.#dir = options.stateDir ?? null;
    this.#now = options.now ?? Date.now;
    this.#reload();
  }

  /** Merges what the file holds now (another process may have charged too). */
  #reload(): void {
    if (this.#dir === null) return;
    const { entries, problem } = readLedgerFile(join(this.#dir, LEDGER_FILE));
    this.#problem = problem;
    const current = quotaWindowAt(this.#now(), this.#windows);
    for (const [key, stored] of entries) {
      if (key === this.#key && stored.window > current.start) {
        // Written while the clock was ahead: set aside (the next save replaces it), never merged
        // over the current window, where it would hide every charge until its window came.
        this.#noteFuture(stored, current);
        continue;
      }
      const mine = this.#entries.get(key);
      if (mine === undefined || stored.window > mine.window) this.#entries.set(key, stored);
      else if (stored.window === mine.window) {
        mine.used = Math.max(mine.used, stored.used);
        mine.exhausted ||= stored.exhausted;
      }
    }
  }

  /** The current window and this code's entry in it (a fresh one when the window changed). */
  #current(): { window: QuotaWindow; entry: Entry } {
    const window = quotaWindowAt(this.#now(), this.#windows);
    let entry = this.#entries.get(this.#key);
    if (entry === undefined || entry.window !== window.start) {
      if (entry !== undefined && entry.window > window.start) this.#noteFuture(entry, window);
      entry = { window: window.start, end: window.end, used: 0, exhausted: false };
      this.#entries.set(this.#key, entry);
    }
    return { window, entry };
  }

  /** Remembers, for the rest of `current`, that an entry of a later window was set aside. */
  #noteFuture(entry: Entry, current: QuotaWindow): void {
    this.#future = {
      until: current.end,
      problem: `the ledger held an entry of a window later than now (${entry.used} records charged in the ` +
        `window from ${iso(entry.window)}${entry.exhausted ? ", GPSS said Over download quantity" : ""}): ` +
        `the clock was ahead when it was written; it is not counted in the current window and is replaced`,
    };
  }

  /** What the status reports as the ledger's problem: the file's, and an entry set aside. */
  #problemNow(): string | null {
    if (this.#future !== null && this.#now() >= this.#future.until) this.#future = null;
    const problems = [this.#problem, this.#future?.problem ?? null].filter((p) => p !== null);
    return problems.length > 0 ? problems.join("; ") : null;
  }

  #save(): void {
    if (this.#dir === null) return;
    this.#reload();
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.end <= now) this.#entries.delete(key);
    try {
      writeLedgerFile(this.#dir, this.#entries);
    } catch (error) {
      // The count stays right in this process; the status says it is not being kept.
      this.#problem = `the ledger could not be written (${(error as { code?: string }).code ?? "error"})`;
    }
  }

  /** What is used and left in the current window. */
  status(): QuotaStatus {
    this.#reload();
    const { window, entry } = this.#current();
    const used = entry.exhausted ? Math.max(entry.used, window.budget) : entry.used;
    return {
      window: { kind: window.kind, start: iso(window.start), end: iso(window.end) },
      budget: window.budget,
      used,
      reserved: this.#reserved,
      remaining: Math.max(0, window.budget - used - this.#reserved),
      resets_at: iso(window.end),
      exhausted_upstream: entry.exhausted,
      persisted: this.#dir !== null,
      ledger_problem: this.#problemNow(),
    };
  }

  /**
   * Reserves `records` for a search about to be sent. Returns the function that settles it with
   * the records the search actually got (0 for a failure).
   *
   * @throws {QuotaExceededError} when fewer than `records` are left in this window; its message
   * says how many are left and when the window resets.
   */
  reserve(records: number): (got: number) => void {
    const status = this.status();
    if (records > status.remaining) throw quotaExceeded(records, status, this.#now());
    this.#reserved += records;
    let settled = false;
    return (got: number) => {
      if (settled) return;
      settled = true;
      this.#reserved -= records;
      if (got > 0) {
        this.#reload();
        this.#current().entry.used += got;
        this.#save();
      }
    };
  }

  /** Records GPSS's `Over download quantity`: nothing more is sent until the window resets. */
  markExhausted(): void {
    this.#reload();
    this.#current().entry.exhausted = true;
    this.#save();
  }
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : "never";
}
