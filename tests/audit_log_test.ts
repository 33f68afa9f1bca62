/**
 * Issue 39.2: the audit log. Every write (entries, header, merge, compile, purge) records who,
 * when, which catalogue, which entries, the revision before and after; `audit_log` answers by
 * catalogue, entry, identity, action and time, to reviewers and admins only. The embedded log is
 * append-only JSON lines, bounded per line, rotated, safe to share between processes.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  type AuditRecord,
  auditRecord,
  FileAuditLog,
  MAX_RECORD_BYTES,
  MAX_RECORD_ENTRIES,
} from "../lib/audit/mod.ts";
import { parseTokens, type Role, ROLES, tokenHash } from "../lib/auth/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { servedOnLoopback, testApp } from "./_helpers.ts";

const TOKENS: Record<Role, string> = {
  reader: "reader-token-0123456789",
  translator: "translator-token-0123456789",
  reviewer: "reviewer-token-0123456789",
  admin: "admin-token-0123456789",
};
const tokens = () => parseTokens(ROLES.map((r) => `${r}-person ${r} ${tokenHash(TOKENS[r])}`).join("\n"));

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n';
const CATALOGUE = HEADER +
  'msgid "one"\nmsgstr "un"\n\nmsgctxt "menu"\nmsgid "two"\nmsgstr ""\n\n#~ msgid "old"\n#~ msgstr "vieux"\n';
const TEMPLATE =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "one"\nmsgstr ""\n\nmsgctxt "menu"\nmsgid "two"\nmsgstr ""\n\nmsgid "three"\nmsgstr ""\n';

function record(i: number, extra: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ...auditRecord({
      who: i % 2 === 0 ? "ada" : "bob",
      role: "translator",
      via: "http",
      action: "write_po",
      file_path: `/srv/po/${i % 3}.po`,
      entries: [{ msgctxt: i % 5 === 0 ? "ctx" : null, msgid: `m${i}` }],
      revision_before: `r${i}`,
      revision_after: `r${i + 1}`,
      time: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    }),
    ...extra,
  };
}

Deno.test("a record is bounded: long keys cut, entries capped, one line of at most 16 KB", () => {
  const big = auditRecord({
    who: "ada",
    role: "admin",
    via: "mcp",
    action: "write_po",
    file_path: "/srv/po/fr.po",
    entries: Array.from(
      { length: 5000 },
      (_, i) => ({ msgctxt: "c".repeat(1000), msgid: `${i}${"é".repeat(5000)}` }),
    ),
    revision_before: null,
    revision_after: "x",
  });
  assert.equal(big.entries_total, 5000);
  assert.ok(big.entries.length <= MAX_RECORD_ENTRIES);
  assert.ok(big.entries.length > 0);
  assert.ok(big.entries.every((e) => e.msgid.length <= 201 && e.msgid.endsWith("…")));
  assert.ok(new TextEncoder().encode(JSON.stringify(big)).length <= MAX_RECORD_BYTES);
});

Deno.test("the file log: queried newest first by catalogue, entry, identity, time; rotated; damaged lines skipped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "h7-audit-" });
  try {
    const log = new FileAuditLog(dir, { maxFileBytes: 4096, files: 50 });
    for (let i = 0; i < 60; i++) await log.append(record(i));
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.ok(names.includes("audit.1.jsonl"), `rotated: ${names.join(" ")}`);
    for (const name of names.filter((n) => n.endsWith(".jsonl"))) {
      assert.ok(Deno.statSync(`${dir}/${name}`).size <= 4096, name);
      assert.equal(Deno.statSync(`${dir}/${name}`).mode! & 0o777, 0o600, name);
    }
    const all = await log.query({}, 1000);
    assert.equal(all.records.length, 60);
    assert.deepEqual(
      all.records.map((r) => r.entries[0]!.msgid),
      Array.from({ length: 60 }, (_, i) => `m${59 - i}`),
    );
    const page = await log.query({}, 10);
    assert.equal(page.records.length, 10);
    assert.equal(page.truncated, true);
    assert.deepEqual(
      (await log.query({ who: "bob", file_path: "/srv/po/1.po" }, 100)).records.map((r) =>
        r.entries[0]!.msgid
      ),
      [
        "m55",
        "m49",
        "m43",
        "m37",
        "m31",
        "m25",
        "m19",
        "m13",
        "m7",
        "m1",
      ],
    );
    assert.equal((await log.query({ msgid: "m10" }, 10)).records.length, 1);
    assert.equal((await log.query({ msgid: "m10", msgctxt: null }, 10)).records.length, 0);
    assert.equal((await log.query({ msgid: "m10", msgctxt: "ctx" }, 10)).records.length, 1);
    const window = await log.query({
      since: new Date(Date.UTC(2026, 0, 1, 0, 10)),
      until: new Date(Date.UTC(2026, 0, 1, 0, 13)),
    }, 10);
    assert.deepEqual(window.records.map((r) => r.entries[0]!.msgid), ["m12", "m11", "m10"]);
    // A crash mid-append leaves a partial line: it is skipped, the next append starts a line of its own.
    await Deno.writeTextFile(`${dir}/audit.jsonl`, '{"time":"2026-', { append: true });
    await log.append(record(60));
    const after = await log.query({}, 1000);
    assert.equal(after.records[0]!.entries[0]!.msgid, "m60");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the file log: three processes appending at once lose no line and interleave none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "h7-audit-procs-" });
  try {
    const child = new URL("./_audit_writer_child.ts", import.meta.url).pathname;
    const runs = ["p1", "p2", "p3"].map((name) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-prompt",
          `--allow-read=${dir}`,
          `--allow-write=${dir}`,
          child,
          dir,
          name,
          "150",
          "20000",
        ],
        stdout: "null",
        stderr: "piped",
      }).output()
    );
    for (const out of await Promise.all(runs)) {
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    }
    const log = new FileAuditLog(dir, { maxFileBytes: 20000, files: 1000 });
    const { records } = await log.query({}, 10_000);
    assert.equal(records.length, 450);
    for (const name of ["p1", "p2", "p3"]) {
      const mine = records.filter((r) => r.who === name).map((r) =>
        Number(r.entries[0]!.msgid.split(" ")[1])
      );
      assert.deepEqual(mine.sort((a, b) => a - b), Array.from({ length: 150 }, (_, i) => i), name);
    }
    // Every line of every file is whole JSON.
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.name.endsWith(".jsonl")) continue;
      for (const line of Deno.readTextFileSync(`${dir}/${entry.name}`).split("\n")) {
        if (line !== "") JSON.parse(line);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every write is in the audit log with who, entries and revisions; audit_log is for reviewers", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "h7-audit-root-" }));
  const auditDir = await Deno.makeTempDir({ prefix: "h7-audit-dir-" });
  await Deno.writeTextFile(`${root}/fr.po`, CATALOGUE);
  await Deno.writeTextFile(`${root}/fr.pot`, TEMPLATE);
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const audit = new FileAuditLog(auditDir);
  const { app } = testApp({
    catalogues,
    audit,
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, tokens: tokens() },
  });
  const { server, base } = servedOnLoopback(app);
  const post = async (role: Role, path: string, body: unknown) => {
    const res = await fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKENS[role]}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, etag: res.headers.get("etag"), body: await res.json() };
  };
  const client = new Client({ name: "audit", version: "1.0.0" });
  try {
    const before = (await post("reader", "/po/read", { file_path: "fr.po" })).etag!.replaceAll('"', "");
    const w1 = await post("translator", "/po/write", {
      file_path: "fr.po",
      entries: [{ msgid: "two", msgctxt: "menu", msgstr: "deux" }],
    });
    assert.equal(w1.status, 200, JSON.stringify(w1.body));
    // Over MCP as another caller.
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKENS.reviewer}` } },
      }),
    );
    const w2 = await client.callTool({
      name: "write_po",
      arguments: { file_path: "fr.po", entries: [{ msgid: "one", msgstr: "une" }] },
    });
    assert.notEqual(w2.isError, true, JSON.stringify(w2.content));
    const w2rev = (w2.structuredContent as { revision: string }).revision;
    // A dry run and a write that changes nothing are not writes.
    assert.equal(
      (await post("translator", "/po/write", {
        file_path: "fr.po",
        entries: [{ msgid: "one", msgstr: "une" }],
      })).status,
      200,
    );
    assert.equal(
      (await post("translator", "/po/write", {
        file_path: "fr.po",
        dry_run: true,
        entries: [{ msgid: "one", msgstr: "x" }],
      })).status,
      200,
    );
    const h = await post("reviewer", "/po/header/update", {
      file_path: "fr.po",
      set: { "Language-Team": "French" },
    });
    assert.equal(h.status, 200, JSON.stringify(h.body));
    const m = await post("reviewer", "/po/merge", { file_path: "fr.po", template_path: "fr.pot" });
    assert.equal(m.status, 200, JSON.stringify(m.body));
    const c = await post("reviewer", "/po/compile", { file_path: "fr.po" });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const p = await post("admin", "/po/purge", { file_path: "fr.po" });
    assert.equal(p.status, 200, JSON.stringify(p.body));

    // A translator may not read the log; a reviewer may.
    assert.equal((await post("translator", "/po/audit", {})).status, 403);
    const all = await post("reviewer", "/po/audit", {});
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const records = all.body.records as AuditRecord[];
    assert.deepEqual(records.map((r) => [r.action, r.who, r.via]), [
      ["purge_obsolete", "admin-person", "http"],
      ["compile_mo", "reviewer-person", "http"],
      ["merge_po", "reviewer-person", "http"],
      ["update_header", "reviewer-person", "http"],
      ["write_po", "reviewer-person", "mcp"],
      ["write_po", "translator-person", "http"],
    ]);
    const [purge, compile, merge, header, second, first] = records as [
      AuditRecord,
      AuditRecord,
      AuditRecord,
      AuditRecord,
      AuditRecord,
      AuditRecord,
    ];
    assert.equal(first.file_path, `${root}/fr.po`);
    assert.deepEqual(first.entries, [{ msgctxt: "menu", msgid: "two" }]);
    assert.equal(first.revision_before, before);
    assert.equal(first.revision_after, w1.body.revision);
    assert.equal(second.revision_before, w1.body.revision);
    assert.equal(second.revision_after, w2rev);
    assert.deepEqual(second.entries, [{ msgctxt: null, msgid: "one" }]);
    // Each write starts from the revision the one before it left.
    assert.equal(header.revision_before, w2rev);
    assert.equal(header.revision_after, h.body.revision);
    assert.equal(merge.revision_before, h.body.revision);
    assert.equal(merge.revision_after, m.body.revision);
    assert.match(merge.note!, /fr\.pot: 3 kept, 0 fuzzy, 1 new/);
    assert.equal(compile.file_path, `${root}/fr.mo`);
    assert.equal(compile.revision_before, null);
    assert.equal(purge.revision_before, m.body.revision);
    assert.equal(purge.revision_after, p.body.revision);
    assert.equal(Date.parse(first.time) <= Date.parse(purge.time), true);
    // Queries: by catalogue (relative or absolute), entry, caller, action, time.
    assert.equal((await post("admin", "/po/audit", { file_path: "fr.po" })).body.records.length, 5);
    assert.deepEqual(
      (await post("admin", "/po/audit", { msgid: "two", msgctxt: "menu" })).body.records.map((
        r: AuditRecord,
      ) => r.who),
      ["translator-person"],
    );
    assert.equal((await post("admin", "/po/audit", { who: "reviewer-person" })).body.records.length, 4);
    assert.equal((await post("admin", "/po/audit", { action: "compile_mo" })).body.records.length, 1);
    assert.equal(
      (await post("admin", "/po/audit", { since: "2999-01-01T00:00:00Z" })).body.records.length,
      0,
    );
    assert.equal(
      (await post("admin", "/po/audit", { until: "2999-01-01T00:00:00Z", limit: 2 })).body.truncated,
      true,
    );
    assert.equal((await post("admin", "/po/audit", { since: "yesterday" })).status, 422);
    // The same over MCP.
    const viaMcp = await client.callTool({ name: "audit_log", arguments: { action: "merge_po" } });
    assert.equal((viaMcp.structuredContent as { records: unknown[] }).records.length, 1);
  } finally {
    await client.close();
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(auditDir, { recursive: true });
  }
});

Deno.test("concurrent writes to one catalogue: one record each, revisions chained", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "h7-audit-conc-" }));
  let body = HEADER;
  for (let i = 0; i < 40; i++) body += `msgid "m${i}"\nmsgstr ""\n\n`;
  await Deno.writeTextFile(`${root}/fr.po`, body);
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const { app } = testApp({ catalogues });
  const { server, base } = servedOnLoopback(app);
  try {
    const answers = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const res = await fetch(`${base}/po/write`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ file_path: "fr.po", entries: [{ msgid: `m${i}`, msgstr: `t${i}` }] }),
      });
      return await res.json();
    }));
    assert.ok(answers.every((a) => a.success === true));
    const res = await fetch(`${base}/po/audit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1000 }),
    });
    const { records } = await res.json() as { records: AuditRecord[] };
    assert.equal(records.length, 40);
    assert.deepEqual(
      records.map((r) => r.entries[0]!.msgid).sort(),
      Array.from({ length: 40 }, (_, i) => `m${i}`).sort(),
    );
    assert.ok(records.every((r) => r.who === "anonymous"));
    // Oldest to newest, each write starts where the one before ended.
    const chain = [...records].reverse();
    for (let i = 1; i < chain.length; i++) {
      assert.equal(chain[i]!.revision_before, chain[i - 1]!.revision_after);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});
