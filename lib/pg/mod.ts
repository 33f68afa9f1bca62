/**
 * Shared state in PostgreSQL (`DATABASE_URL`): the audit log table, catalogue write leases, the GPSS
 * quota ledger, answer cache and coalescing. The
 * client is made at the process edge and handed in.
 *
 * @module
 */
export { ConnectionWatch, isConnectionError, shared, type Sql } from "./client.ts";
export { ensureSchema } from "./schema.ts";
export { PgAuditLog } from "./audit_log.ts";
export {
  CLAIM_GRACE_MS,
  leftWritePaths,
  pgWriteLease,
  RENAME_WITHIN_MS,
  type WriteLease,
  type WriteLeaseOptions,
} from "./lease.ts";
export { PgQuotaLedger } from "./quota.ts";
export { PgSharedSearches } from "./searches.ts";
