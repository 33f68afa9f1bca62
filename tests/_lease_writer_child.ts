/**
 * A writer killed (SIGKILL) at a chosen point of a write under a PostgreSQL write lease, for
 * tests/write_fencing_test.ts:
 *
 *   _lease_writer_child.ts DATABASE_URL ROOT FILE LINE after-rename    killed once the file holds
 *                                                                      the new line, before its record
 *   _lease_writer_child.ts DATABASE_URL ROOT FILE LINE before-rename   killed after its claim, before
 *                                                                      the rename
 *
 * @module
 */
import postgres from "postgres";
import { type AuditRecord, auditRecord } from "../lib/audit/mod.ts";
import { ConnectionWatch, pgWriteLease, type Sql } from "../lib/pg/mod.ts";
import { CatalogueStore, type WrittenFile } from "../lib/store/mod.ts";
import { lineCodec } from "./_store_writer_child.ts";

/** The audit record of a write that adds `line` (the tests' writes, in this process and the child's). */
export function lineRecord(who: string, line: string): (write: WrittenFile) => AuditRecord {
  return (write) =>
    auditRecord({
      who,
      role: "translator",
      via: null,
      action: "write_po",
      file_path: write.path,
      entries: [{ msgctxt: null, msgid: line }],
      revision_before: write.revisionBefore,
      revision_after: write.revisionAfter,
    });
}

if (import.meta.main) {
  const [url, root, file, line, when] = Deno.args as [string, string, string, string, string];
  const watch = new ConnectionWatch();
  const sql = postgres(url, { ...watch.options, max: 4, onnotice: () => {} }) as unknown as Sql;
  const leases = pgWriteLease(sql, watch, 2);
  const kill = () => {
    Deno.kill(Deno.pid, "SIGKILL");
    return new Promise<never>(() => {});
  };
  const store = new CatalogueStore({
    roots: [root],
    codec: lineCodec(),
    writeLease: async (key, signal) => {
      const lease = await leases(key, signal);
      const claim = lease.claim.bind(lease);
      return Object.assign(lease, {
        claim: async (write: Parameters<typeof lease.claim>[0]) => {
          const check = await claim(write);
          return when === "before-rename" ? () => void kill() : check;
        },
        complete: when === "after-rename" ? kill : lease.complete.bind(lease),
      });
    },
  });
  await store.update(file, (doc) => ({ doc: { lines: [...(doc?.lines ?? []), line] }, result: null }), {
    auditRecord: lineRecord("child", line),
  });
  console.log("not killed");
  await sql.end();
}
