/**
 * The tables the instances share in PostgreSQL (`DATABASE_URL`), made at start-up when missing.
 * Written so that several instances starting at once do not trip on each other (IF NOT EXISTS, under
 * an advisory lock of their own).
 *
 * @module
 */
import type { Sql } from "./client.ts";

/** Advisory lock key of the schema set-up (any constant that no catalogue lease hashes to by design). */
const SCHEMA_LOCK = 391_000_001;

/** Creates the shared tables when missing. */
export async function ensureSchema(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${SCHEMA_LOCK})`;
    await tx`
      create table if not exists po_audit (
        id bigserial primary key,
        time timestamptz not null,
        who text not null,
        role text,
        via text,
        action text not null,
        file_path text not null,
        entries jsonb not null,
        entries_total integer not null,
        revision_before text,
        revision_after text not null,
        note text
      )`;
    // A key per record, so an append retried after a lost answer is not recorded twice.
    await tx`alter table po_audit add column if not exists record_key text`;
    await tx`create unique index if not exists po_audit_key on po_audit (record_key)`;
    await tx`create index if not exists po_audit_file on po_audit (file_path, id)`;
    await tx`create index if not exists po_audit_who on po_audit (who, id)`;
    await tx`create index if not exists po_audit_time on po_audit (time)`;
    // Write fencing (lib/pg/lease.ts): per catalogue (a hash of its real path), the last write
    // claimed; per write claimed and not yet recorded, its intent (its audit record).
    await tx`
      create table if not exists po_write_head (
        key text primary key,
        intent bigint
      )`;
    await tx`
      create table if not exists po_write_intent (
        id bigserial primary key,
        key text not null,
        path text not null,
        revision_before text,
        revision_after text not null,
        record jsonb,
        claimed_at timestamptz not null default clock_timestamp()
      )`;
    // The GPSS quota ledger: a row per user code (a hash of it) and window (ms since the epoch).
    await tx`
      create table if not exists gpss_quota (
        code_key text not null,
        window_start bigint not null,
        window_end bigint not null,
        used bigint not null default 0,
        reserved bigint not null default 0,
        exhausted boolean not null default false,
        primary key (code_key, window_start)
      )`;
    // GPSS answers shared by the instances, by the user code's hash and the request.
    await tx`
      create table if not exists gpss_cache (
        key text primary key,
        expires timestamptz not null,
        outcome jsonb not null
      )`;
    await tx`create index if not exists gpss_cache_expires on gpss_cache (expires)`;
  });
}
