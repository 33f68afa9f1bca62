/**
 * The audit log in PostgreSQL (table `po_audit`): the same records as the embedded log, shared by
 * every instance. Queries use the indexes on (file_path, id) and (who, id); an entry is found by
 * jsonb containment in `entries`.
 *
 * @module
 */
import type { AuditAnswer, AuditLog, AuditQuery, AuditRecord } from "../audit/mod.ts";
import { isConnectionError, shared, type Sql } from "./client.ts";

/** How long an append waits for a database that went away (a restart) before it gives up. */
const APPEND_RETRY_MS = 30_000;

/** The audit log as rows of `po_audit`. */
export class PgAuditLog implements AuditLog {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  /**
   * Appends `r`. The write it records is already made, so a database that is away (restarting) is
   * waited for, up to {@link APPEND_RETRY_MS}, rather than losing the record; each try carries the
   * same key, so a try whose answer was lost after it committed is not recorded twice.
   */
  append(r: AuditRecord): Promise<void> {
    const key = crypto.randomUUID();
    const deadline = Date.now() + APPEND_RETRY_MS;
    return shared("recording a write in the audit log", async () => {
      for (let wait = 100;; wait = Math.min(wait * 2, 2000)) {
        try {
          await this.#sql`
            insert into po_audit (record_key, time, who, role, via, action, file_path, entries, entries_total,
                                  revision_before, revision_after, note)
            values (${key}, ${r.time}, ${r.who}, ${r.role}, ${r.via}, ${r.action}, ${r.file_path},
                    ${this.#sql.json(r.entries as never)}, ${r.entries_total}, ${r.revision_before},
                    ${r.revision_after}, ${r.note})
            on conflict (record_key) do nothing`;
          return;
        } catch (error) {
          if (!isConnectionError(error) || Date.now() + wait > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    });
  }

  query(q: AuditQuery, limit: number): Promise<AuditAnswer> {
    const sql = this.#sql;
    const entry = q.msgid === undefined
      ? null
      : q.msgctxt === undefined
      ? [{ msgid: q.msgid }]
      : [{ msgid: q.msgid, msgctxt: q.msgctxt }];
    return shared("reading the audit log", async () => {
      const rows = await sql<(AuditRecord & { time: Date })[]>`
        select time, who, role, via, action, file_path, entries, entries_total, revision_before,
               revision_after, note
        from po_audit
        where true
          ${q.file_path === undefined ? sql`` : sql`and file_path = ${q.file_path}`}
          ${q.who === undefined ? sql`` : sql`and who = ${q.who}`}
          ${q.action === undefined ? sql`` : sql`and action = ${q.action}`}
          ${q.since === undefined ? sql`` : sql`and time >= ${q.since}`}
          ${q.until === undefined ? sql`` : sql`and time < ${q.until}`}
          ${entry === null ? sql`` : sql`and entries @> ${sql.json(entry as never)}`}
        order by id desc
        limit ${limit + 1}`;
      const records = rows.slice(0, limit).map((row) => ({
        ...row,
        time: new Date(row.time).toISOString(),
      }));
      return { records, truncated: rows.length > limit };
    });
  }
}
