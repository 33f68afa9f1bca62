/**
 * The audit log kept in memory (no `PO_AUDIT_DIR`): the newest {@link MEMORY_AUDIT_RECORDS}
 * records, lost on restart. The start-up warns of it.
 *
 * @module
 */
import { type AuditAnswer, type AuditLog, type AuditQuery, type AuditRecord, matches } from "./record.ts";

/** Records kept in memory (at most ~16 KB each; typically a few hundred bytes). */
export const MEMORY_AUDIT_RECORDS = 10_000;

/** An audit log in memory, oldest records dropped first. */
export class MemoryAuditLog implements AuditLog {
  readonly #records: AuditRecord[] = [];
  readonly #max: number;

  constructor(max = MEMORY_AUDIT_RECORDS) {
    this.#max = max;
  }

  append(record: AuditRecord): Promise<void> {
    this.#records.push(record);
    if (this.#records.length > this.#max) this.#records.splice(0, this.#records.length - this.#max);
    return Promise.resolve();
  }

  query(query: AuditQuery, limit: number): Promise<AuditAnswer> {
    const records: AuditRecord[] = [];
    for (let i = this.#records.length - 1; i >= 0; i--) {
      const r = this.#records[i]!;
      if (!matches(r, query)) continue;
      if (records.length === limit) return Promise.resolve({ records, truncated: true });
      records.push(r);
    }
    return Promise.resolve({ records, truncated: false });
  }
}
