/** A child process appending records to one audit directory (tests/audit_log_test.ts). */
import { auditRecord, FileAuditLog } from "../lib/audit/mod.ts";

const [dir, name, count, maxFileBytes] = Deno.args as [string, string, string, string];
const log = new FileAuditLog(dir, { maxFileBytes: Number(maxFileBytes), files: 1000 });
await Promise.all(Array.from({ length: Number(count) }, (_, i) =>
  log.append(auditRecord({
    who: name,
    role: "translator",
    via: "http",
    action: "write_po",
    file_path: "/srv/po/fr.po",
    entries: [{ msgctxt: null, msgid: `${name} ${i} ${"x".repeat(i * 37 % 500)}` }],
    revision_before: null,
    revision_after: `r${i}`,
  }))));
