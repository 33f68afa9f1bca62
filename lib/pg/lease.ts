/**
 * Catalogue write leases across instances: a write holds a PostgreSQL advisory lock named after the
 * catalogue's real path for as long as it writes. The lock lives on one reserved connection, so
 * when an instance dies (kill -9) the server ends its session and the lease is gone with it; no
 * lease outlives its holder, and none needs a timeout. It works where `flock` does not reach (a
 * file system shared over the network that has no working locks); the catalogue directory must be
 * mounted at the same path on every instance.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { abortable } from "../abortable.ts";
import { UnavailableError } from "../errors.ts";
import type { ClaimedWrite, HeldWriteLease } from "../store/mod.ts";
import { type ConnectionWatch, isConnectionError, type Reserved, shared, type Sql } from "./client.ts";

/** Takes the lease of `key` (see {@link HeldWriteLease}). */
export type WriteLease = (key: string, signal?: AbortSignal) => Promise<HeldWriteLease>;

/** Options of {@link pgWriteLease}. */
export interface WriteLeaseOptions {
  /** Told, in one line, of a record left for later and of a claimed write dropped. */
  onProblem?: (line: string) => void;
  /** {@link RENAME_WITHIN_MS} (tests shorten it). */
  renameWithinMs?: number;
  /** {@link CLAIM_GRACE_MS} (tests shorten it); keep it well above `renameWithinMs`. */
  claimGraceMs?: number;
}

interface Timing {
  renameWithinMs: number;
  claimGraceMs: number;
}

/**
 * How long after it starts to claim a write may still rename: past it the writer gives up
 * (503, nothing renamed). Claims are made once the temp file is written and synced, so only the
 * claim's round trip and the rename fall in it.
 */
export const RENAME_WITHIN_MS = 3_000;

/**
 * How old (by the database's clock) a claim must be before a later writer of the catalogue drops
 * it as never renamed: well past {@link RENAME_WITHIN_MS}, so its writer, if alive, has given up.
 */
export const CLAIM_GRACE_MS = 10_000;

/** How long a record is retried while the database is away, before it is left to the next writer. */
const COMPLETE_RETRY_MS = 30_000;

/**
 * Leases held in PostgreSQL (see the module's comment). Each lease holds a connection of the pool,
 * and a writer under its lease needs another (to record the write): so within one instance the
 * writers of one catalogue queue here, one at a time at the database, and at most `maxLeases`
 * (fewer than the pool's connections) are held or awaited at once; else writers holding every
 * connection would wait for one that none gives back.
 */
export function pgWriteLease(
  sql: Sql,
  watch: ConnectionWatch,
  maxLeases: number,
  options: WriteLeaseOptions = {},
): WriteLease {
  const timing = {
    renameWithinMs: options.renameWithinMs ?? RENAME_WITHIN_MS,
    claimGraceMs: options.claimGraceMs ?? CLAIM_GRACE_MS,
  };
  const queues = new Map<string, Promise<void>>();
  let held = 0;
  const waiting: (() => void)[] = [];
  const slot = async (signal?: AbortSignal) => {
    while (held >= maxLeases) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      signal?.throwIfAborted();
    }
    held++;
  };
  const freeSlot = () => {
    held--;
    waiting.shift()?.();
  };
  return async function takeLease(key, signal) {
    signal?.throwIfAborted();
    // This instance's turn for the key: the writers before it here go first.
    const before = queues.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => done = resolve);
    const tail = before.then(() => mine);
    queues.set(key, tail);
    const leave = () => {
      done();
      if (queues.get(key) === tail) queues.delete(key);
    };
    try {
      await abortable(before, signal);
      await slot(signal);
    } catch (error) {
      leave();
      throw error;
    }
    let lease: HeldWriteLease;
    try {
      lease = await atDatabase(sql, watch, key, signal, options.onProblem ?? (() => {}), timing);
    } catch (error) {
      freeSlot();
      leave();
      throw error;
    }
    const release = lease.release.bind(lease);
    let released = false;
    return Object.assign(lease, {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await release();
        } finally {
          freeSlot();
          leave();
        }
      },
    });
  };
}

/**
 * Takes the advisory lock of `key` on a reserved connection, and reads the catalogue's head (the
 * last write claimed, and its intent when it was not recorded).
 */
async function atDatabase(
  sql: Sql,
  watch: ConnectionWatch,
  key: string,
  signal: AbortSignal | undefined,
  onProblem: (line: string) => void,
  timing: Timing,
): Promise<HeldWriteLease> {
  signal?.throwIfAborted();
  // A pool whose connections the server just dropped may take long to give one: bounded.
  const reserved = await watch.reserve(sql, "taking the catalogue's write lease", CONNECT_MS);
  const giveBack = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A connection the server closed is not used again: the lease is gone with its session. One
      // that closes now, or never answers, ends the same way.
      if (reserved.alive()) {
        await Promise.race([
          reserved.sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`,
          new Promise((_, reject) => timer = setTimeout(() => reject(new Error("unlock timed out")), 2000)),
        ]);
      }
    } catch {
      // The connection is gone, and the lease with it (the server ends the session's locks).
    } finally {
      clearTimeout(timer);
      reserved.release();
    }
  };
  let held = false;
  try {
    // Waits while another instance writes the catalogue; the request's time limit cancels the wait
    // (from another connection: this one is busy waiting).
    const onAbort = () => sql`select pg_cancel_backend(${reserved.pid})`.catch(() => {});
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await shared(
        "taking the catalogue's write lease",
        () => reserved.sql`select pg_advisory_lock(hashtextextended(${key}, 0))`,
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    held = true;
  } finally {
    if (!held) reserved.release();
  }
  let head: Head;
  try {
    signal?.throwIfAborted();
    head = await readHead(reserved, key);
  } catch (error) {
    await giveBack();
    throw error;
  }
  return new PgHeldLease(sql, reserved, key, head, giveBack, onProblem, timing);
}

/** A catalogue's head: the id of the last write claimed, and that write when it is not recorded. */
interface Head {
  intent: string | null;
  unfinished: { id: string; revisionAfter: string } | null;
}

/** The key of a catalogue in the fencing tables: the sha256 of its real path (paths may be long). */
function headKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

async function readHead(reserved: Reserved, key: string): Promise<Head> {
  const hkey = headKey(key);
  const [row] = await onLease(
    reserved,
    "reading the catalogue's last write",
    () =>
      reserved.sql<{ intent: string | null; id: string | null; revision_after: string | null }[]>`
      with made as (
        insert into po_write_head (key) values (${hkey}) on conflict (key) do nothing returning intent
      ), head as (
        select intent from made union all select intent from po_write_head where key = ${hkey}
      )
      select h.intent::text as intent, i.id::text as id, i.revision_after
      from (select intent from head limit 1) h left join po_write_intent i on i.id = h.intent`,
  );
  return {
    intent: row?.intent ?? null,
    unfinished: row?.id ? { id: row.id, revisionAfter: row.revision_after! } : null,
  };
}

const LOST = "The catalogue's write lease was lost (the shared database went away or restarted); " +
  "nothing was written: try again in a few seconds";

/** Runs `work` on the lease's session; a session that ended (or ends now) is a lost lease: 503. */
async function onLease<T>(reserved: Reserved, what: string, work: () => Promise<T>): Promise<T> {
  if (!reserved.alive()) throw new UnavailableError(LOST);
  try {
    return await shared(what, work);
  } catch (error) {
    if (!reserved.alive()) throw new UnavailableError(LOST, { cause: error });
    throw error;
  }
}

/**
 * A lease held: the advisory lock on its session, and the fencing of the writes made under it.
 *
 * The lock keeps the other instances out while its session lives; a restarted database ends the
 * session while this writer goes on, and another may take the lease. So a write claims its change
 * right before its rename, in one statement on the lease's session that checks the session still
 * holds the lock (pg_locks) and moves the catalogue's head from the write it saw when the lease was
 * taken to this one (a compare-and-swap on the head's row): a lost lease, or another writer's claim
 * since, refuses it (503, nothing renamed). The claim inserts the write's intent (its audit record),
 * and the rename must follow within {@link RENAME_WITHIN_MS} of the claim's start, or it is not
 * made. After the rename the intent becomes the audit record, in one statement. A later writer
 * that finds an intent (its writer was killed between claim and record, or lost its lease) settles
 * it before it writes: recorded when the file holds its bytes, dropped once it is older than
 * {@link CLAIM_GRACE_MS} (its writer can no longer rename).
 */
class PgHeldLease implements HeldWriteLease {
  readonly #sql: Sql;
  readonly #reserved: Reserved;
  readonly #key: string;
  readonly #head: Head;
  readonly #giveBack: () => Promise<void>;
  readonly #onProblem: (line: string) => void;
  readonly #timing: Timing;
  /** The intent this lease claimed and has not recorded yet. */
  #claimed: string | null = null;
  /** True when the claimed write is known not to have been renamed (too late). */
  #abandoned = false;
  /** True when the claimed write carries an audit record. */
  #audited = false;

  constructor(
    sql: Sql,
    reserved: Reserved,
    key: string,
    head: Head,
    giveBack: () => Promise<void>,
    onProblem: (line: string) => void,
    timing: Timing,
  ) {
    this.#timing = timing;
    this.#sql = sql;
    this.#reserved = reserved;
    this.#key = key;
    this.#head = head;
    this.#giveBack = giveBack;
    this.#onProblem = onProblem;
  }

  get unfinished(): { revisionAfter: string } | null {
    return this.#head.unfinished;
  }

  async settle(current: string | null): Promise<boolean> {
    const unfinished = this.#head.unfinished;
    if (unfinished === null) return true;
    if (current === unfinished.revisionAfter) {
      // Its bytes are in place: the write happened, and gets its record.
      await onLease(
        this.#reserved,
        "recording an earlier write",
        () => complete(this.#reserved.sql, unfinished.id),
      );
      this.#head.unfinished = null;
      return true;
    }
    const [row] = await onLease(
      this.#reserved,
      "settling an earlier write",
      () =>
        this.#reserved.sql<{ present: number; dropped: number }[]>`
        with i as (
          select id, clock_timestamp() - claimed_at > ${this.#timing.claimGraceMs} * interval '1 millisecond' as old
          from po_write_intent where id = ${unfinished.id}
        ), d as (
          delete from po_write_intent where id in (select id from i where old) returning id
        )
        select (select count(*) from i)::int as present, (select count(*) from d)::int as dropped`,
    );
    if (row!.present === 0 || row!.dropped === 1) {
      if (row!.dropped === 1) {
        this.#onProblem(
          `write lease: a write claimed ${this.#timing.claimGraceMs / 1000} s ago was never renamed: dropped`,
        );
      }
      this.#head.unfinished = null;
      return true;
    }
    return false;
  }

  async claim(write: ClaimedWrite): Promise<() => void> {
    const started = performance.now();
    const sql = this.#reserved.sql;
    const hkey = headKey(this.#key);
    const record = write.record === null ? null : this.#sql.json(write.record as never);
    const [row] = await onLease(
      this.#reserved,
      "claiming the write",
      () =>
        sql<{ lease: number; id: string | null }[]>`
        with lease as (
          select 1 from pg_locks
          where locktype = 'advisory' and pid = pg_backend_pid() and granted and objsubid = 1
            and ((classid::bigint << 32) | objid::bigint) = hashtextextended(${this.#key}, 0)
        ), head as (
          update po_write_head set intent = nextval(pg_get_serial_sequence('po_write_intent', 'id'))
          where key = ${hkey} and intent is not distinct from ${this.#head.intent}::bigint
            and exists (select 1 from lease)
          returning intent
        ), made as (
          insert into po_write_intent (id, key, path, revision_before, revision_after, record)
          select intent, ${hkey}::text, ${this.#key}::text, ${write.revisionBefore}::text,
                 ${write.revisionAfter}::text,
                 ${record}::jsonb
          from head
          returning id
        )
        select (select count(*) from lease)::int as lease, (select id::text from made) as id`,
    );
    if (row!.lease === 0) throw new UnavailableError(LOST);
    if (row!.id === null) {
      throw new UnavailableError(
        "Another writer claimed this catalogue while this write held its lease (the shared database " +
          "restarted); nothing was written: try again",
      );
    }
    this.#claimed = row!.id;
    this.#audited = write.record !== null;
    this.#head.intent = row!.id;
    return () => {
      if (performance.now() - started > this.#timing.renameWithinMs) {
        this.#abandoned = true;
        throw new UnavailableError(
          "The write's claim took too long to rename under it (the shared database is slow or away); " +
            "nothing was written: try again",
        );
      }
    };
  }

  async complete(): Promise<void> {
    const id = this.#claimed;
    if (id === null) return;
    this.#claimed = null;
    const deadline = Date.now() + COMPLETE_RETRY_MS;
    for (let wait = 100;; wait = Math.min(wait * 2, 2000)) {
      try {
        const { found, recorded } = await complete(this.#sql, id);
        if (!found && !recorded && this.#audited) {
          // Neither recorded by another writer (it found the bytes) nor kept: dropped as never
          // renamed, so this rename came after the grace, and may have replaced a later write.
          this.#onProblem(
            `write lease: a write was renamed after its claim had been dropped (its writer paused longer than ${
              this.#timing.claimGraceMs / 1000
            } s): a later write of the catalogue may be lost`,
          );
        }
        return;
      } catch (error) {
        if (isConnectionError(error) && Date.now() + wait <= deadline) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        // Kept as an intent: the next write of the catalogue records it.
        this.#onProblem(
          `audit log: a write's record is left for the next write of the catalogue: ${
            String((error as Error)?.message ?? error).slice(0, 200)
          }`,
        );
        return;
      }
    }
  }

  async release(): Promise<void> {
    const id = this.#claimed;
    if (id !== null && this.#abandoned) {
      // Known not renamed: its intent goes (else the next writer drops it after the grace).
      await this.#sql`delete from po_write_intent where id = ${id}`.catch(() => {});
    }
    this.#claimed = null;
    await this.#giveBack();
  }
}

/** Turns the intent `id` into its audit record (once: a record already made is not made again). */
async function complete(
  sql: Sql | Reserved["sql"],
  id: string,
): Promise<{ found: boolean; recorded: boolean }> {
  const [row] = await sql<{ found: boolean; recorded: boolean }[]>`
    with i as (delete from po_write_intent where id = ${id} returning id, record),
    made as (
      insert into po_audit (record_key, time, who, role, via, action, file_path, entries, entries_total,
                            revision_before, revision_after, note)
      select 'intent:' || i.id, (r->>'time')::timestamptz, r->>'who', r->>'role', r->>'via', r->>'action',
             r->>'file_path', r->'entries', (r->>'entries_total')::integer, r->>'revision_before',
             r->>'revision_after', r->>'note'
      from i, lateral (select i.record as r) x
      where i.record is not null
      on conflict (record_key) do nothing
      returning 1
    )
    select exists (select 1 from i) as found,
           exists (select 1 from made) or exists (select 1 from po_audit where record_key = ${`intent:${id}`})
             as recorded`;
  return row!;
}

/**
 * The files (real paths, as leases name them) with a write claimed and not recorded: each is settled by
 * the next write of the file, or by `CatalogueStore.settleLeftWrite` (at start-up). At most 1,000.
 */
export async function leftWritePaths(sql: Sql): Promise<string[]> {
  const rows = await shared(
    "reading the writes left unrecorded",
    () => sql<{ path: string }[]>`select distinct path from po_write_intent order by path limit 1000`,
  );
  return rows.map((r) => r.path);
}

/** How long taking a connection may take before the database counts as away. */
const CONNECT_MS = 5000;
