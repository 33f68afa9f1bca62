/**
 * The audit log: who wrote which catalogue when, which entries, revisions before and after.
 * Embedded (JSON lines in `PO_AUDIT_DIR`), in memory (no directory), or in PostgreSQL.
 *
 * @module
 */
export {
  type AuditAction,
  type AuditAnswer,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  auditRecord,
  type EntryKey,
  MAX_RECORD_BYTES,
  MAX_RECORD_ENTRIES,
} from "./record.ts";
export { MEMORY_AUDIT_RECORDS, MemoryAuditLog } from "./memory_log.ts";
export {
  DEFAULT_AUDIT_FILE_BYTES,
  DEFAULT_AUDIT_FILES,
  FileAuditLog,
  type FileAuditOptions,
} from "./file_log.ts";
