/**
 * The audit log in PostgreSQL (table `po_audit`): the same records as the embedded log, shared by
 * every instance. Queries use the indexes on (file_path, id) and (who, id); an entry is found by
 * jsonb containment in `entries`.
 *
 * @module
 */
import type { AuditAnswer, AuditLog, AuditQuery, AuditRecord } from "../audit/mod.ts";
import { shared, type Sql } from "./client.ts";

/** The audit log as rows of `po_audit`. */
export class PgAuditLog implements AuditLog {
  readonly #sql: Sql;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  append(r: AuditRecord): Promise<void> {
    return shared("recording a write in the audit log", async () => {
      await this.#sql`
        insert into po_audit (time, who, role, via, action, file_path, entries, entries_total,
                              revision_before, revision_after, note)
        values (${r.time}, ${r.who}, ${r.role}, ${r.via}, ${r.action}, ${r.file_path},
                ${this.#sql.json(r.entries as never)}, ${r.entries_total}, ${r.revision_before},
                ${r.revision_after}, ${r.note})`;
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
