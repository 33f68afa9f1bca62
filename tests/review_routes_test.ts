/**
 * The review lane over a real socket and over MCP (issue 37.2): list_drafts per catalogue, per
 * tree and per author, in pages; review_draft's approve and reject, each refused (409, nothing
 * written) on a stale revision, If-Match or expected_msgstr, and on an entry no longer a draft.
 */
import assert from "node:assert/strict";
import { parsePo, readDraft } from "../lib/po/mod.ts";
import { msgidOf, partlyTranslated, servedCatalogues } from "./_catalogue_server.ts";
import { poFixture } from "./_helpers.ts";
import { mcpOverSocket } from "./_mcp_socket.ts";

/** Entry 1 is translated, 7 fuzzy, 3 untranslated in {@link partlyTranslated}. */
const TRANSLATED = msgidOf(1);
const FUZZY = msgidOf(7);
const UNTRANSLATED = msgidOf(3);

async function withDrafts() {
  const s = await servedCatalogues({ "fr/a.po": partlyTranslated(12), "fr/sub/b.po": partlyTranslated(12) });
  const a = s.path("fr/a.po");
  const write = await s.post("/po/write", {
    file_path: a,
    mode: "update",
    entries: [
      { msgid: TRANSLATED, msgstr: "Brouillon un", draft: true, draft_author: "model-a" },
      { msgid: FUZZY, msgstr: "Brouillon sept", draft: true, draft_author: "model-b" },
      { msgid: UNTRANSLATED, msgstr: "Brouillon trois", draft: true },
    ],
  });
  assert.equal(write.status, 200, JSON.stringify(write.body));
  const b = await s.post("/po/write", {
    file_path: s.path("fr/sub/b.po"),
    mode: "update",
    entries: [{ msgid: TRANSLATED, msgstr: "Brouillon b", draft: true, draft_author: "model-a" }],
  });
  assert.equal(b.status, 200);
  return s;
}

Deno.test("POST /po/drafts lists drafts per catalogue, per tree and per author, beside the previous translation", async () => {
  await using s = await withDrafts();
  const one = await s.post("/po/drafts", { file_path: "fr/a.po" });
  assert.equal(one.status, 200);
  assert.equal(one.type, "application/json");
  assert.equal(one.body.total, 3);
  const [first, third, seventh] = one.body.drafts; // in file order
  assert.equal(first.msgid, TRANSLATED);
  assert.equal(first.msgstr, "Brouillon un");
  assert.equal(first.previous_msgstr, "Entrée numéro 1 du glossaire : voir la section 1 du tutoriel");
  assert.equal(first.previous_fuzzy, false);
  assert.equal(first.author, "model-a");
  assert.match(first.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(first.file_path, s.path("fr/a.po"));
  assert.equal(typeof first.line, "number");
  assert.equal(seventh.previous_fuzzy, true);
  assert.equal(third.previous_msgstr, null);
  assert.equal(third.author, null);

  const tree = await s.post("/po/drafts", {});
  assert.equal(tree.body.total, 4);
  assert.deepEqual(tree.body.drafts.map((d: { file_path: string }) => d.file_path.slice(s.root.length)), [
    "/fr/a.po",
    "/fr/a.po",
    "/fr/a.po",
    "/fr/sub/b.po",
  ]);
  const byA = await s.post("/po/drafts", { author: "model-a" });
  assert.equal(byA.body.total, 2);
  assert.deepEqual(byA.body.drafts.map((d: { msgstr: string }) => d.msgstr), ["Brouillon un", "Brouillon b"]);
  const unnamed = await s.post("/po/drafts", { author: null });
  assert.deepEqual(unnamed.body.drafts.map((d: { msgstr: string }) => d.msgstr), ["Brouillon trois"]);
});

Deno.test("list_drafts pages with a cursor, and a cursor into a file that changed is a 409", async () => {
  await using s = await withDrafts();
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: {
      status: number;
      body: { drafts: { msgstr: string }[]; next_cursor: string | null; total: number };
    } = await s.post("/po/drafts", { limit: 1, cursor });
    assert.equal(page.status, 200);
    assert.equal(page.body.total, 4);
    seen.push(...page.body.drafts.map((d) => d.msgstr));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  assert.deepEqual(seen, ["Brouillon un", "Brouillon trois", "Brouillon sept", "Brouillon b"]);

  const page = await s.post("/po/drafts", { limit: 2 });
  await s.post("/po/write", {
    file_path: s.path("fr/a.po"),
    entries: [{ msgid: msgidOf(2), msgstr: "changé" }],
  });
  const stale = await s.post("/po/drafts", { limit: 2, cursor: page.body.next_cursor });
  assert.equal(stale.status, 409);
  assert.match(JSON.stringify(stale.body.detail), /changed since this cursor was made/);
  const other = await s.post("/po/drafts", { limit: 2, author: "x", cursor: page.body.next_cursor });
  assert.equal(other.status, 422);
});

Deno.test("POST /po/review approves with CAS: a stale revision, If-Match or msgstr is a 409 and writes nothing", async () => {
  await using s = await withDrafts();
  const path = s.path("fr/a.po");
  const listed = (await s.post("/po/drafts", { file_path: path })).body.drafts[0];
  await s.post("/po/write", { file_path: path, entries: [{ msgid: msgidOf(2), msgstr: "changé" }] });
  const before = await Deno.readFile(path);
  const approve = { file_path: path, msgid: TRANSLATED, action: "approve" };
  const stale = await s.post("/po/review", { ...approve, if_revision: listed.revision });
  assert.equal(stale.status, 409);
  assert.match(stale.body.detail.message, /the file changed since it was read/);
  const staleTag = await s.post("/po/review", approve, { "If-Match": `"${listed.revision}"` });
  assert.equal(staleTag.status, 409);
  const staleText = await s.post("/po/review", { ...approve, expected_msgstr: "something else" });
  assert.equal(staleText.status, 409);
  assert.deepEqual(await Deno.readFile(path), before);

  const ok = await s.post("/po/review", {
    ...approve,
    expected_msgstr: "Brouillon un",
    msgstr: "Brouillon relu",
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.state, "translated");
  const m = parsePo(await Deno.readFile(path)).messages.find((m) => m.msgid === TRANSLATED)!;
  assert.equal(m.msgstr, "Brouillon relu");
  assert.deepEqual(m.flags, []);
  assert.deepEqual(m.translatorComments, []);
  // Approved once: approving again changes nothing; a reject or an edit finds no draft to review.
  const bytes = await Deno.readFile(path);
  const again = await s.post("/po/review", { ...approve, expected_msgstr: "Brouillon relu" });
  assert.equal(again.status, 200);
  assert.equal(again.body.written, false);
  assert.deepEqual(await Deno.readFile(path), bytes);
  const late = await s.post("/po/review", { ...approve, action: "reject" });
  assert.equal(late.status, 409);
  assert.match(late.body.detail, /is not a draft/);
  const edit = await s.post("/po/review", { ...approve, msgstr: "autre" });
  assert.equal(edit.status, 409);
  // An entry fuzzy because its source changed is no draft: approving it here changes nothing.
  const other = s.path("fr/sub/b.po");
  const fuzzy = await s.post("/po/review", { ...approve, file_path: other, msgid: FUZZY });
  assert.equal(fuzzy.status, 200);
  assert.deepEqual([fuzzy.body.written, fuzzy.body.state], [false, "fuzzy"]);
  const missing = await s.post("/po/review", { ...approve, msgid: "No such msgid" });
  assert.equal(missing.status, 404);
});

Deno.test("POST /po/review rejects: the previous translation comes back, fuzzy if it was; none: untranslated", async () => {
  await using s = await withDrafts();
  const path = s.path("fr/a.po");
  const revision = (await s.post("/po/drafts", { file_path: path })).body.drafts[0].revision;
  const reject = (msgid: string, extra = {}) =>
    s.post("/po/review", { file_path: path, msgid, action: "reject", ...extra });
  const first = await reject(TRANSLATED, { if_revision: revision, expected_msgstr: "Brouillon un" });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.state, "translated");
  const fuzzy = await reject(FUZZY, { if_revision: first.body.revision });
  assert.equal(fuzzy.body.state, "fuzzy");
  const none = await reject(UNTRANSLATED, { msgstr: "an edit" });
  assert.equal(none.status, 422);
  const untranslated = await reject(UNTRANSLATED);
  assert.equal(untranslated.body.state, "untranslated");
  // The file is what it was before the drafts.
  assert.equal(await Deno.readTextFile(path), partlyTranslated(12));
  assert.equal((await s.post("/po/drafts", { file_path: path })).body.total, 0);
});

Deno.test("two reviewers of one draft at once: one review wins, the other is a 409", async () => {
  await using s = await withDrafts();
  const path = s.path("fr/a.po");
  const { revision } = (await s.post("/po/drafts", { file_path: path })).body.drafts[0];
  const [x, y] = await Promise.all([
    s.post("/po/review", { file_path: path, msgid: TRANSLATED, action: "approve", if_revision: revision }),
    s.post("/po/review", { file_path: path, msgid: TRANSLATED, action: "reject", if_revision: revision }),
  ]);
  assert.deepEqual([x.status, y.status].sort(), [200, 409]);
});

Deno.test("an agent drafts, lists and reviews through MCP alone (the SDK client)", async () => {
  await using f = await poFixture({ "fr.po": partlyTranslated(8) });
  await using mcp = await mcpOverSocket(f.app);
  const path = f.path("fr.po");
  const wrote = await mcp.client.callTool({
    name: "write_po",
    arguments: {
      file_path: path,
      entries: [{ msgid: UNTRANSLATED, msgstr: "Brouillon", draft: true, draft_author: "agent\n# x" }],
    },
  });
  assert.ok(!wrote.isError, JSON.stringify(wrote.content));
  const listed = await mcp.client.callTool({ name: "list_drafts", arguments: { file_path: path } });
  const drafts =
    (listed.structuredContent as { drafts: { msgid: string; author: string; revision: string }[] })
      .drafts;
  assert.deepEqual(drafts.map((d) => [d.msgid, d.author]), [[UNTRANSLATED, "agent\n# x"]]);
  const stale = await mcp.client.callTool({
    name: "review_draft",
    arguments: { file_path: path, msgid: UNTRANSLATED, action: "approve", if_revision: "0000" },
  });
  assert.ok(stale.isError);
  const approved = await mcp.client.callTool({
    name: "review_draft",
    arguments: {
      file_path: path,
      msgid: UNTRANSLATED,
      action: "approve",
      if_revision: drafts[0]!.revision,
      expected_msgstr: "Brouillon",
    },
  });
  assert.ok(!approved.isError, JSON.stringify(approved.content));
  assert.equal((approved.structuredContent as { state: string }).state, "translated");
  const m = parsePo(await Deno.readFile(path)).messages.find((m) => m.msgid === UNTRANSLATED)!;
  assert.equal(m.msgstr, "Brouillon");
  assert.equal(readDraft(m), null);
});

Deno.test("a draft's problems come back from write_po (the checks pass over other fuzzy entries); strict refuses them", async () => {
  await using s = await servedCatalogues({ "a.po": partlyTranslated(8) });
  const path = s.path("a.po");
  const broken = { msgid: msgidOf(4), msgstr: "élément %(compte)d introuvable", draft: true };
  const before = await Deno.readFile(path);
  const strict = await s.post("/po/write", { file_path: path, entries: [broken], checks: "strict" });
  assert.equal(strict.status, 422);
  assert.match(strict.body.detail.message, /python-format/);
  assert.deepEqual(await Deno.readFile(path), before);
  const warned = await s.post("/po/write", { file_path: path, entries: [broken] });
  assert.equal(warned.status, 200);
  assert.deepEqual(warned.body.problems.map((p: { check: string }) => p.check), ["python-format"]);
  assert.equal(typeof warned.body.problems[0].line, "number");
  // The same problem again is not new; a plain fuzzy write stays unchecked, as msgfmt leaves it.
  const again = await s.post("/po/write", { file_path: path, entries: [{ ...broken, draft_author: "b" }] });
  assert.deepEqual(again.body.problems, []);
  const fuzzy = await s.post("/po/write", {
    file_path: path,
    entries: [{ msgid: msgidOf(8), msgstr: "%(x)d", fuzzy: true }],
  });
  assert.deepEqual(fuzzy.body.problems, []);
  const listed = await s.post("/po/drafts", { file_path: path });
  assert.deepEqual(listed.body.drafts[0].checks.map((p: { check: string }) => p.check), ["python-format"]);
});

Deno.test("list_drafts over the tree sees a draft another process wrote, and one it removed", async () => {
  await using s = await servedCatalogues({ "a.po": partlyTranslated(8), "b.po": partlyTranslated(8) });
  assert.equal((await s.post("/po/drafts", {})).body.total, 0);
  // Written by someone else (git pull, an editor), not through the service.
  const text = partlyTranslated(8).replace(
    `msgid "${msgidOf(1)}"`,
    `# draft: "pulled" 2026-01-02T03:04:05Z\n#, fuzzy\nmsgid "${msgidOf(1)}"`,
  );
  await Deno.writeTextFile(s.path("b.po"), text);
  const after = await s.post("/po/drafts", {});
  assert.deepEqual(after.body.drafts.map((d: { author: string }) => d.author), ["pulled"]);
  await Deno.writeTextFile(s.path("b.po"), partlyTranslated(8) + "\n");
  assert.equal((await s.post("/po/drafts", {})).body.total, 0);
});
