/**
 * Compare-and-swap writes (issue 18, point 5): `if_revision` (or `If-Match`) and per-entry
 * `expected_msgstr`, checked on the file as it is under the store's lock, over a real socket:
 * two concurrent writers cannot both win, and a change by another process between a read and a
 * write is caught.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { msgidOf, partlyTranslated, servedCatalogues } from "./_catalogue_server.ts";

// deno-lint-ignore no-explicit-any
type Entry = any;

Deno.test("a write with the revision it read goes through and answers the new one; a stale one gets 409", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(20) });
  const file = s.path("fr.po");
  const revision = (await s.post("/po/write", { file_path: file, entries: [], dry_run: true })).body.revision;
  assert.match(revision, /^[A-Za-z0-9_-]{22}$/);
  const first = await s.post("/po/write", {
    file_path: file,
    if_revision: revision,
    entries: [{ msgid: msgidOf(3), msgstr: "Trois" }],
  });
  assert.equal(first.status, 200);
  assert.notEqual(first.body.revision, revision);
  const before = await Deno.readFile(file);
  const stale = await s.post("/po/write", {
    file_path: file,
    if_revision: revision,
    entries: [{ msgid: msgidOf(6), msgstr: "Six" }],
  });
  assert.equal(stale.status, 409);
  assert.equal(stale.type, "application/json");
  assert.equal(stale.body.detail.revision, first.body.revision);
  assert.match(
    stale.body.detail.message,
    /^Nothing was written: the file changed since it was read \(if_revision /,
  );
  assert.deepEqual(await Deno.readFile(file), before, "untouched");
  // The revision a write answers is the one to send next.
  const next = await s.post("/po/write", {
    file_path: file,
    if_revision: first.body.revision,
    entries: [{ msgid: msgidOf(6), msgstr: "Six" }],
  });
  assert.equal(next.status, 200);
});

Deno.test("If-Match carries the revision over HTTP; a malformed or disagreeing one is a 422", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  const revision = (await s.post("/po/write", { file_path: file, entries: [], dry_run: true })).body.revision;
  const write = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
    s.post(
      "/po/write",
      { file_path: file, entries: [{ msgid: msgidOf(3), msgstr: "Trois" }], ...extra },
      headers,
    );
  const stale = await write({ "If-Match": '"AAAAAAAAAAAAAAAAAAAAAA"' });
  assert.equal(stale.status, 409);
  assert.equal(stale.body.detail.revision, revision);
  for (const bad of ['W/"' + revision + '"', "*", `"${revision}", "x"`]) {
    const res = await write({ "If-Match": bad });
    assert.equal(res.status, 422, bad);
    assert.deepEqual(res.body.detail[0].loc, ["header", "if-match"]);
    assert.match(res.body.detail[0].msg, /^Value error, expected one strong entity tag/);
  }
  const both = await write({ "If-Match": `"${revision}"` }, { if_revision: "BBBBBBBBBBBBBBBBBBBBBB" });
  assert.equal(both.status, 422);
  assert.match(both.body.detail[0].msg, /give one/);
  const ok = await write({ "If-Match": `"${revision}"` });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body.outcomes, ["updated"]);
});

Deno.test("expected_msgstr: a translation changed since it was read gets 409 with the current one, file untouched", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  await s.post("/po/write", { file_path: file, entries: [{ msgid: msgidOf(3), msgstr: "Trois (humain)" }] });
  const before = await Deno.readFile(file);
  const res = await s.post("/po/write", {
    file_path: file,
    entries: [
      {
        msgid: msgidOf(1),
        msgstr: "Un",
        expected_msgstr: "Entrée numéro 1 du glossaire : voir la section 1 du tutoriel",
      },
      { msgid: msgidOf(3), msgstr: "Trois (agent)", expected_msgstr: "" },
      {
        msgid: "%d file",
        msgstr: "",
        msgstr_plural: { 0: "a", 1: "b" },
        expected_msgstr_plural: { 0: "%d fichier" },
      },
      { msgid: "No such msgid", msgstr: "x", expected_msgstr: "" },
    ],
  });
  assert.equal(res.status, 409);
  const detail = res.body.detail;
  assert.equal(detail.conflicts_total, 3);
  assert.equal(
    detail.revision,
    (await s.post("/po/write", { file_path: file, entries: [], dry_run: true })).body.revision,
  );
  assert.deepEqual(detail.conflicts.map((c: Entry) => [c.index, c.reason]), [[1, "changed"], [2, "changed"], [
    3,
    "missing",
  ]]);
  assert.equal(detail.conflicts[0].msgstr, "Trois (humain)");
  assert.deepEqual(detail.conflicts[1].msgstr_plural, { 0: "%d fichier", 1: "%d fichiers" });
  assert.match(detail.message, /the translation of entries\[1\] .* is no longer the expected_msgstr/);
  assert.deepEqual(await Deno.readFile(file), before, "untouched, the matching entry [0] included");
  const ok = await s.post("/po/write", {
    file_path: file,
    entries: [{
      msgid: "%d file",
      msgstr: "",
      msgstr_plural: { 0: "a", 1: "b" },
      expected_msgstr_plural: { 0: "%d fichier", 1: "%d fichiers" },
    }],
  });
  assert.equal(ok.status, 200);
});

Deno.test("two concurrent writers who read the same translation: exactly one wins, the other gets 409", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(2000) });
  const file = s.path("fr.po");
  for (let round = 0; round < 8; round++) {
    const msgid = msgidOf(round * 3); // untranslated: both read msgstr ""
    const [a, b] = await Promise.all(["A", "B"].map((who) =>
      s.post("/po/write", {
        file_path: file,
        mode: "update",
        entries: [{ msgid, msgstr: `${who} ${round}`, expected_msgstr: "" }],
      })
    ));
    assert.ok(a && b);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [200, 409], `round ${round}`);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    const winner = won === a ? "A" : "B";
    assert.equal(
      lost.body.detail.conflicts[0]?.msgstr,
      `${winner} ${round}`,
      "the loser sees the winner's text",
    );
    assert.equal(lost.body.detail.revision, won.body.revision);
    const entries = (await s.post("/po/read", { file_path: file })).body.entries as Entry[];
    assert.equal(entries.find((e) => e.msgid === msgid).msgstr, `${winner} ${round}`);
  }
});

Deno.test("a change by another process between a read and a write is caught by both checks", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(50) });
  const file = s.path("fr.po");
  const read = await s.post("/po/write", { file_path: file, entries: [], dry_run: true });
  // Another process (an editor, msgmerge…) translates entry 3 in place.
  const child = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const f = ${JSON.stringify(file)};
       const t = await Deno.readTextFile(f);
       await Deno.writeTextFile(f, t.replace(${JSON.stringify(`msgid "${msgidOf(3)}"\nmsgstr ""`)},
         ${JSON.stringify(`msgid "${msgidOf(3)}"\nmsgstr "Trois (éditeur)"`)}));`,
    ],
    stdout: "null",
    stderr: "inherit",
  }).output();
  assert.equal(child.code, 0);
  const edited = await Deno.readFile(file);
  const byRevision = await s.post("/po/write", {
    file_path: file,
    if_revision: read.body.revision,
    entries: [{ msgid: msgidOf(6), msgstr: "Six" }],
  });
  assert.equal(byRevision.status, 409);
  assert.notEqual(byRevision.body.detail.revision, read.body.revision);
  const byMsgstr = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: msgidOf(3), msgstr: "Trois (agent)", expected_msgstr: "" }],
  });
  assert.equal(byMsgstr.status, 409);
  assert.equal(byMsgstr.body.detail.conflicts[0].msgstr, "Trois (éditeur)");
  assert.deepEqual(await Deno.readFile(file), edited, "the other process's change stays");
});

Deno.test("over MCP, write_po takes if_revision and expected_msgstr in its arguments; a conflict is isError with the detail", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(s.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const dry = await client.callTool({
      name: "write_po",
      arguments: { file_path: file, entries: [], dry_run: true },
    });
    const revision = (dry.structuredContent as { revision: string }).revision;
    const ok = await client.callTool({
      name: "write_po",
      arguments: {
        file_path: file,
        mode: "update",
        if_revision: revision,
        entries: [{ msgid: msgidOf(3), msgstr: "Trois", expected_msgstr: "" }],
      },
    });
    assert.equal(ok.isError, undefined);
    assert.deepEqual((ok.structuredContent as { outcomes: string[] }).outcomes, ["updated"]);
    const stale = await client.callTool({
      name: "write_po",
      arguments: { file_path: file, if_revision: revision, entries: [{ msgid: msgidOf(6), msgstr: "Six" }] },
    });
    assert.equal(stale.isError, true);
    const detail = JSON.parse((stale.content as { text: string }[])[0]?.text ?? "");
    assert.equal(detail.revision, (ok.structuredContent as { revision: string }).revision);
    assert.match(detail.message, /^Nothing was written: the file changed since it was read/);
  } finally {
    await client.close();
  }
});

Deno.test("the two agent examples of docs/mcp.md work over MCP on the shipped French catalogue, and a second try is refused", async () => {
  const readme = await Deno.readTextFile(new URL("../docs/mcp.md", import.meta.url));
  // The two blocks of the "Editing from an agent" paragraph (other sections have their own).
  const start = readme.indexOf("**Editing from an agent.**");
  const paragraph = readme.slice(start, readme.indexOf("A 409 is an `isError` result", start));
  const examples = [...paragraph.matchAll(/```jsonc\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
  assert.equal(examples.length, 2);
  const glossary = await Deno.readTextFile(new URL("../examples/fr/glossary.po", import.meta.url));
  await using s = await servedCatalogues({ "fr/glossary.po": glossary });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(s.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const call = (args: Record<string, unknown>) =>
      client.callTool({ name: "write_po", arguments: { ...args, file_path: s.path("fr/glossary.po") } });
    for (const example of examples) {
      const done = await call(example);
      assert.equal(done.isError, undefined, JSON.stringify(done.content));
      assert.deepEqual((done.structuredContent as { outcomes: string[] }).outcomes, ["updated"]);
    }
    const entries = (await s.post("/po/read", { file_path: s.path("fr/glossary.po") })).body
      .entries as Entry[];
    assert.equal(entries.find((e) => e.msgid === "annotation").msgstr, "annotation");
    assert.deepEqual(entries.find((e) => e.msgid === "Glossary").flags, ["fuzzy"]);
    // The first example again: the entry is no longer untranslated.
    const again = await call(examples[0]);
    assert.equal(again.isError, true);
    const detail = JSON.parse((again.content as { text: string }[])[0]?.text ?? "");
    assert.deepEqual([detail.conflicts[0].reason, detail.conflicts[0].msgstr], ["changed", "annotation"]);
  } finally {
    await client.close();
  }
});

Deno.test("a conflict names its entry by its full key, however long the msgid (the msgid field stays cut)", async () => {
  const long = "A long paragraph of documentation, as python-docs has thousands of them. ".repeat(4).trim();
  assert.ok(long.length > 280);
  const po = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
    `msgctxt "ctx"\nmsgid "${long}"\nmsgstr "Theirs"\n`;
  await using s = await servedCatalogues({ "fr.po": po });
  const res = await s.post("/po/write", {
    file_path: s.path("fr.po"),
    mode: "update",
    entries: [{ msgctxt: "ctx", msgid: long, msgstr: "Mine", expected_msgstr: "" }],
  });
  assert.equal(res.status, 409);
  const [conflict] = res.body.detail.conflicts;
  assert.equal(conflict.msgid, long.slice(0, 200) + "…", "the old field as the replaced service had it");
  assert.deepEqual(conflict.key, { msgctxt: "ctx", msgid: long });
  assert.equal(conflict.msgstr, "Theirs");
});
