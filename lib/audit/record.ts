/**
 * One audit record: who wrote which catalogue when, which entries, and the file's revision before
 * and after. Bounded when made ({@link auditRecord}): one record is one line of at most
 * {@link MAX_RECORD_BYTES} bytes of JSON, whatever a write touched.
 *
 * @module
 */

/** An entry's key as the tools name it. */
export interface EntryKey {
  msgctxt: string | null;
  msgid: string;
}

/** What a write did: the tool (or review action) that did it. */
export type AuditAction =
  | "write_po"
  | "update_header"
  | "merge_po"
  | "compile_mo"
  | "purge_obsolete"
  | "review_approve"
  | "review_reject";

/** One write, as the audit log keeps it. */
export interface AuditRecord {
  /** When it was written (ISO 8601, UTC, milliseconds). */
  time: string;
  /** The caller's name (tokens file, `api-token`, `anonymous`, `local` over stdio, `unknown`). */
  who: string;
  /** The caller's role, or null when unknown. */
  role: string | null;
  /** How the call came: http, mcp, or null. */
  via: string | null;
  action: AuditAction;
  /** The catalogue (or .mo file) as the caller named it. */
  file_path: string;
  /** The entries the write named (the first ones; `entries_total` counts them all). */
  entries: EntryKey[];
  entries_total: number;
  revision_before: string | null;
  revision_after: string;
  /** A short word on what was done (merge counts, purge counts), or null. */
  note: string | null;
}

/** Largest line one record takes in the log (its JSON, newline excluded). */
export const MAX_RECORD_BYTES = 16 * 1024;

/** Most entries one record lists; the rest are counted in `entries_total`. */
export const MAX_RECORD_ENTRIES = 100;

/** Longest msgid or msgctxt kept in a record, in UTF-16 units (longer ones are cut, marked with …). */
const MAX_KEY_CHARS = 200;

const MAX_FIELD_CHARS = 1024;

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Not in the middle of a surrogate pair.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

/**
 * A record within the bounds: keys cut to {@link MAX_KEY_CHARS}, at most {@link MAX_RECORD_ENTRIES}
 * entries, and fewer still when its JSON would pass {@link MAX_RECORD_BYTES}.
 */
export function auditRecord(
  given: Omit<AuditRecord, "entries_total" | "time" | "note"> & { time?: Date; note?: string | null },
): AuditRecord {
  const entries = given.entries.slice(0, MAX_RECORD_ENTRIES).map((e) => ({
    msgctxt: e.msgctxt === null ? null : cut(e.msgctxt, MAX_KEY_CHARS),
    msgid: cut(e.msgid, MAX_KEY_CHARS),
  }));
  const record: AuditRecord = {
    time: (given.time ?? new Date()).toISOString(),
    who: cut(given.who, 64),
    role: given.role,
    via: given.via,
    action: given.action,
    file_path: cut(given.file_path, MAX_FIELD_CHARS),
    entries,
    entries_total: given.entries.length,
    revision_before: given.revision_before,
    revision_after: given.revision_after,
    note: given.note == null ? null : cut(given.note, MAX_FIELD_CHARS),
  };
  const encoder = new TextEncoder();
  while (encoder.encode(JSON.stringify(record)).length > MAX_RECORD_BYTES && record.entries.length > 0) {
    record.entries = record.entries.slice(0, Math.floor(record.entries.length / 2));
  }
  return record;
}

/** What a query asks for; every field given must match. */
export interface AuditQuery {
  file_path?: string;
  msgid?: string;
  /** With `msgid`: this context (null: none); absent: any. */
  msgctxt?: string | null;
  who?: string;
  action?: AuditAction;
  /** Records at or after this time. */
  since?: Date;
  /** Records before this time. */
  until?: Date;
}

/** True when `record` answers `query`. */
export function matches(record: AuditRecord, query: AuditQuery): boolean {
  if (query.file_path !== undefined && record.file_path !== query.file_path) return false;
  if (query.who !== undefined && record.who !== query.who) return false;
  if (query.action !== undefined && record.action !== query.action) return false;
  const t = Date.parse(record.time);
  if (query.since !== undefined && !(t >= query.since.getTime())) return false;
  if (query.until !== undefined && !(t < query.until.getTime())) return false;
  if (query.msgid !== undefined) {
    const ctxt = query.msgctxt;
    const named = record.entries.some((e) =>
      e.msgid === query.msgid && (ctxt === undefined || e.msgctxt === ctxt)
    );
    if (!named) return false;
  }
  return true;
}

/** A query's answer: newest first. */
export interface AuditAnswer {
  records: AuditRecord[];
  /** True when more records matched than the limit let through. */
  truncated: boolean;
}

/** Where audit records are kept: a file (embedded), memory, or PostgreSQL. */
export interface AuditLog {
  /** Keeps one record (bounded: see {@link auditRecord}). */
  append(record: AuditRecord): Promise<void>;
  /** The newest `limit` records that match. */
  query(query: AuditQuery, limit: number): Promise<AuditAnswer>;
}

/** A record as read back from storage, or null when the value is not one (a damaged line). */
export function asRecord(value: unknown): AuditRecord | null {
  if (value === null || typeof value !== "object") return null;
  const r = value as Record<string, unknown>;
  if (typeof r.time !== "string" || typeof r.who !== "string" || typeof r.file_path !== "string") return null;
  if (typeof r.action !== "string" || !Array.isArray(r.entries)) return null;
  return r as unknown as AuditRecord;
}
