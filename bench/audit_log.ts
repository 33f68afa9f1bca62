/**
 * The embedded audit log's cost (issue 39.2): appending records (each fsync'd), a filtered query
 * over them, and what starting with a full log costs (nothing is read at start-up). Run:
 *   deno run --allow-read --allow-write bench/audit_log.ts [records]
 * Prints the figures; docs/team-server.md has the latest.
 */
import { auditRecord, FileAuditLog } from "../lib/audit/mod.ts";

const n = Number(Deno.args[0] ?? 10_000);
const dir = await Deno.makeTempDir({ prefix: "po-bench-audit-" });
try {
  const log = new FileAuditLog(dir);
  const record = (i: number) =>
    auditRecord({
      who: `translator-${i % 7}`,
      role: "translator",
      via: "http",
      action: "write_po",
      file_path: `/srv/po/library/${i % 300}.po`,
      entries: [{ msgctxt: null, msgid: `A message of ordinary length, number ${i}, as in the docs` }],
      revision_before: "9KR7a1oRCySGEKBuGCN1ZQ",
      revision_after: "kxMi6m5F84guQY4wEDQK1Q",
    });
  const heap0 = Deno.memoryUsage().heapUsed;
  let t = performance.now();
  for (let i = 0; i < n; i++) await log.append(record(i));
  const appendMs = performance.now() - t;
  const bytes = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".jsonl"))
    .reduce((sum, e) => sum + Deno.statSync(`${dir}/${e.name}`).size, 0);
  t = performance.now();
  const startup = new FileAuditLog(dir);
  const startMs = performance.now() - t;
  t = performance.now();
  const one = await startup.query({ file_path: "/srv/po/library/7.po" }, 100);
  const queryMs = performance.now() - t;
  t = performance.now();
  const rare = await startup.query({ msgid: "no such message" }, 100);
  const scanMs = performance.now() - t;
  console.log(
    `${n} records, ${(bytes / 1024 / 1024).toFixed(2)} MiB on disk (${Math.round(bytes / n)} B each)\n` +
      `append (one fsync each): ${(appendMs / n).toFixed(3)} ms/record\n` +
      `start-up with the full log: ${startMs.toFixed(3)} ms (nothing read); heap after appends +${
        ((Deno.memoryUsage().heapUsed - heap0) / 1024 / 1024).toFixed(1)
      } MiB\n` +
      `query by catalogue (newest 100 of ${one.records.length}${one.truncated ? "+" : ""}): ${
        queryMs.toFixed(1)
      } ms\n` +
      `query matching nothing (whole log scanned): ${scanMs.toFixed(1)} ms (${rare.records.length} found)`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
