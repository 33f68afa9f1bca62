/**
 * `layout` through the service (issue 35.2): write_po, a write_po delete and update_header keep a
 * Transifex-laid file's other bytes by default and say so; list_entries' first page tells the
 * dashboard whether the file is in msgcat's layout. Real sockets, and MCP through the SDK client.
 */
import assert from "node:assert/strict";
import { servedCatalogues } from "./_catalogue_server.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";
import { poFixture } from "./_helpers.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";

const TRANSIFEX = Deno.readTextFileSync(new URL("./fixtures/keep/transifex.po", import.meta.url));
const LAID_OUT = new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(TRANSIFEX))));

/** The lines of `after` that are not lines of `before`, and the reverse (a multiset difference). */
function changed(before: string, after: string): { removed: string[]; added: string[] } {
  const count = new Map<string, number>();
  for (const l of before.split("\n")) count.set(l, (count.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of after.split("\n")) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added.push(l);
  }
  const removed = [...count].flatMap(([l, n]) => Array(n).fill(l));
  return { removed: removed.sort(), added: added.sort() };
}

Deno.test("HTTP: write_po keeps a Transifex file's other bytes by default, full re-lays it out", async () => {
  await using s = await servedCatalogues({
    "fr/tx.po": TRANSIFEX,
    "fr/full.po": TRANSIFEX,
    "fr/ok.po": LAID_OUT,
  });
  const file = s.path("fr/tx.po");
  const first = await s.post("/po/entries", { path: file });
  assert.equal(first.status, 200);
  assert.equal(first.body.in_layout, false, "the dashboard is told before the first save");
  assert.equal((await s.post("/po/entries", { path: s.path("fr/ok.po") })).body.in_layout, true);

  const entries = [{ msgid: "Return the example.", msgstr: "Renvoie l'exemple donné." }];
  const dryRun = await s.post("/po/write", { file_path: file, entries, dry_run: true });
  const w = await s.post("/po/write", { file_path: file, entries });
  assert.equal(
    dryRun.body.entries[0].line,
    w.body.entries[0].line,
    "a dry run names the line the write gives",
  );
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.equal(w.body.layout.mode, "keep");
  assert.equal(w.body.layout.file_in_layout, false);
  assert.ok(w.body.layout.full_relayout_changed_lines > 10, JSON.stringify(w.body.layout));
  assert.match(w.body.message, /^Successfully wrote to .*every other byte kept/);
  const text = await Deno.readTextFile(file);
  assert.deepEqual(changed(TRANSIFEX, text), {
    removed: ['msgstr "Renvoie l\'exemple."'],
    added: ['msgstr "Renvoie l\'exemple donné."'],
  });
  // The answer's line is that of the file written; a second write starts from the kept file.
  const line = w.body.entries[0].line;
  assert.equal(text.split("\n")[line - 1], 'msgid "Return the example."');

  // A delete removes the entry's lines only.
  const d = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "A deprecated function.", msgstr: "", delete: true }],
  });
  assert.equal(d.status, 200, JSON.stringify(d.body));
  const afterDelete = await Deno.readTextFile(file);
  assert.deepEqual(changed(text, afterDelete), {
    removed: ["#: ../Doc/library/example.rst:40", 'msgid "A deprecated function."', 'msgstr ""', ""].sort(),
    added: [],
  });

  // A dry run's diff is the keep write's.
  const dry = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgctxt: "noun", msgid: "Example", msgstr: "Un exemple" }],
    dry_run: true,
  });
  assert.equal(dry.body.written, false);
  assert.match(dry.body.diff, /^-msgstr "Exemple"\n\+msgstr "Un exemple"$/m);
  assert.equal(dry.body.diff.split("\n").filter((l: string) => /^[-+][^-+]/.test(l)).length, 2);

  // layout "full": today's behaviour, the whole file as msgcat lays it out.
  const full = await s.post("/po/write", {
    file_path: s.path("fr/full.po"),
    entries: [{ msgid: "Return the example.", msgstr: "Renvoie l'exemple donné." }],
    layout: "full",
  });
  assert.deepEqual(full.body.layout, {
    mode: "full",
    file_in_layout: true,
    full_relayout_changed_lines: 0,
    gettext: "0.21",
  });
  assert.equal(
    await Deno.readTextFile(s.path("fr/full.po")),
    LAID_OUT.replace('msgstr "Renvoie l\'exemple."', 'msgstr "Renvoie l\'exemple donné."'),
  );
  assert.equal((await s.post("/po/entries", { path: s.path("fr/full.po") })).body.in_layout, true);
});

Deno.test("HTTP: update_header keeps the entries' bytes and re-lays out the header only", async () => {
  await using s = await servedCatalogues({ "tx.po": TRANSIFEX });
  const file = s.path("tx.po");
  const r = await s.post("/po/header/update", { file_path: file, set: { "Language-Team": "French" } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.layout.mode, "keep");
  const text = await Deno.readTextFile(file);
  assert.deepEqual(changed(TRANSIFEX, text), {
    removed: ['"Language-Team: French (https://www.transifex.com/python-doc/teams/5390/fr/)\\n"'],
    added: ['"Language-Team: French\\n"'],
  });
});

Deno.test("MCP: write_po answers the layout and keeps the file's other bytes", async () => {
  await using f = await poFixture({ "tx.po": TRANSIFEX });
  await using m = await mcpOverSocket(f.app);
  const result = await m.client.callTool({
    name: "write_po",
    arguments: {
      file_path: f.path("tx.po"),
      entries: [{
        msgid: "Return the example.",
        msgstr: "Renvoie l'exemple donné.",
        expected_msgstr: "Renvoie l'exemple.",
      }],
    },
  });
  assert.ok(!result.isError, textOf(result));
  const answer = JSON.parse(textOf(result));
  assert.equal(answer.layout.mode, "keep");
  assert.equal(answer.layout.file_in_layout, false);
  assert.deepEqual(changed(TRANSIFEX, await Deno.readTextFile(f.path("tx.po"))).added, [
    'msgstr "Renvoie l\'exemple donné."',
  ]);
});
