/**
 * Shared state in PostgreSQL (`DATABASE_URL`): the audit log table and catalogue write leases. The
 * client is made at the process edge and handed in.
 *
 * @module
 */
export { isConnectionError, shared, type Sql } from "./client.ts";
export { ensureSchema } from "./schema.ts";
export { PgAuditLog } from "./audit_log.ts";
export { pgWriteLease, type WriteLease } from "./lease.ts";
