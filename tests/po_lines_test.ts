/**
 * Line numbers always (issue 34.5): every entry in every answer names its line in the file as it
 * is now, right after the server's own write included (the store caches the version it wrote, with
 * the lines of the bytes it wrote, where it used to answer `line: null`). Over a real socket; the
 * oracle is a fresh parse of the file's bytes.
 */
import assert from "node:assert/strict";
import { flatBytes } from "../lib/byte_runs.ts";
import { messageLines, parsePo } from "../lib/po/read/parse.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { entryLines, writtenCatalog } from "../lib/po/write/written_lines.ts";
import { isHeader } from "../lib/po/types.ts";
import { partlyTranslated, servedCatalogues } from "./_catalogue_server.ts";

/** The msgid of each entry (header excluded) → its line, from a fresh parse of the file. */
async function linesInFile(path: string): Promise<Map<string, number>> {
  const cat = parsePo(await Deno.readFile(path), { fileName: path, strict: false });
  const lines = messageLines(cat)!;
  const out = new Map<string, number>();
  cat.messages.forEach((m, i) => {
    if (!isHeader(m)) out.set(`${m.obsolete ? "~" : ""}${m.msgid}`, lines[i]!);
  });
  return out;
}

/** partlyTranslated's entries, with blank lines msgcat removes: a write moves every entry up. */
function loosely(n: number): string {
  return partlyTranslated(n).replaceAll("\n\n", "\n\n\n\n");
}

Deno.test("after the server's own write, every answer gives each entry's line in the file as written", async () => {
  await using po = await servedCatalogues({ "fr/app.po": loosely(30) });
  const file = po.path("fr/app.po");
  const before = await linesInFile(file);

  // A write that also makes the next entries move: a long translation takes several lines.
  const long = "Entrée numéro 1 du glossaire : " + "une traduction bien plus longue que la ligne, ".repeat(4);
  const w = await po.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [
      { msgid: "Entry number 1 of the glossary: see the tutorial section 1", msgstr: long },
      // A lost placeholder: the answer's problem names the entry's line.
      { msgid: "%(count)d item number 4 was not found in %(place)s", msgstr: "introuvable" },
    ],
  });
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.equal(w.body.written, true);
  const now = await linesInFile(file);
  assert.notDeepEqual([...now.values()], [...before.values()], "the write moved the entries");

  // The write's answer: each entry with its line and state.
  assert.deepEqual(w.body.entries.map((e: { line: number; state: string }) => [e.line, e.state]), [
    [now.get("Entry number 1 of the glossary: see the tutorial section 1"), "translated"],
    [now.get("%(count)d item number 4 was not found in %(place)s"), "translated"],
  ]);
  assert.ok(w.body.problems.length > 0);
  for (const p of w.body.problems) assert.equal(p.line, now.get(p.msgid), `${p.check}: ${p.msgid}`);

  // list_entries, right after the write (served from the store's cache).
  const listed = await po.post("/po/entries", {
    path: file,
    states: ["translated", "fuzzy", "untranslated", "obsolete"],
    limit: 1000,
    fields: ["msgid", "obsolete"],
  });
  assert.equal(listed.status, 200);
  assert.equal(listed.body.entries.length, now.size);
  for (const e of listed.body.entries) {
    assert.equal(e.line, now.get(`${e.obsolete ? "~" : ""}${e.msgid}`), `list_entries: ${e.msgid}`);
  }

  // check_po of the whole file, and of one entry of it.
  const checked = await po.post("/po/check", { file_path: file });
  assert.equal(checked.status, 200);
  assert.ok(checked.body.problems.length > 0);
  for (const p of checked.body.problems) {
    if (p.msgid !== "") assert.equal(p.line, now.get(p.msgid), `check_po: ${p.check} ${p.msgid}`);
  }

  // search_entries.
  const found = await po.post("/po/search", { query: "glossary", in: ["msgid"], limit: 1000 });
  assert.equal(found.status, 200);
  assert.ok(found.body.hits.length > 10);
  for (const hit of found.body.hits) assert.equal(hit.line, now.get(hit.msgid), `search: ${hit.msgid}`);

  // read_po in pages, and find_fuzzy.
  const read = await po.post("/po/read", { file_path: file, limit: 1000 });
  assert.equal(read.status, 200);
  for (const e of read.body.entries) {
    assert.equal(e.line, now.get(`${e.obsolete ? "~" : ""}${e.msgid}`), `read_po: ${e.msgid}`);
  }
  const context = await po.post("/po/read_context", {
    file_path: file,
    msgid: "Entry number 1 of the glossary: see the tutorial section 1",
    context_size: 2,
  });
  assert.equal(context.status, 200);
  const around = [...context.body.context_before, context.body.target_entry, ...context.body.context_after];
  assert.equal(around.length, 4);
  for (const e of around) assert.equal(e.line, now.get(e.msgid), `read_po_context: ${e.msgid}`);
  assert.deepEqual(around.map((e: { index: number }) => e.index), [0, 1, 2, 3]);
  const fuzzy = await po.post("/po/find_fuzzy", { file_path: file, limit: 1000 });
  assert.ok(fuzzy.body.entries.length > 0);
  for (const e of fuzzy.body.entries) assert.equal(e.line, now.get(e.msgid), `find_fuzzy: ${e.msgid}`);
});

Deno.test("a dry run's entries name the lines the write would give", async () => {
  await using po = await servedCatalogues({ "app.po": loosely(12) });
  const file = po.path("app.po");
  const w = await po.post("/po/write", {
    file_path: file,
    dry_run: true,
    entries: [{ msgid: "A new one", msgstr: "Une nouvelle" }],
    layout: "full",
  });
  assert.equal(w.status, 200);
  assert.equal(w.body.written, false);
  // What the write would leave: the file as msgcat lays it out, the new entry last but the obsolete one.
  const would = parsePo(flatBytes(PO_CODEC.encode(parsePo(await Deno.readFile(file)))));
  const at = would.messages.length - 1; // the obsolete entry goes after the new one
  assert.equal(w.body.entries[0].state, "translated");
  assert.ok(w.body.entries[0].line > messageLines(would)![at - 1]!, "after the last live entry");
  assert.ok(w.body.entries[0].line < messageLines(would)![at]! + 5);
});

async function* poFiles(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* poFiles(path);
    else if (e.isFile && /\.pot?$/.test(e.name)) yield path;
  }
}

Deno.test("the written version's lines are those a parse of the bytes gives, for every fixture", async () => {
  let files = 0;
  for await (const path of poFiles(new URL("./fixtures", import.meta.url).pathname)) {
    let cat, bytes;
    try {
      cat = PO_CODEC.parse(await Deno.readFile(path), path);
      bytes = PO_CODEC.encode(cat);
    } catch {
      continue; // files the reader or the writer refuses
    }
    const written = writtenCatalog(cat, bytes);
    const reread = parsePo(flatBytes(bytes), { fileName: path, strict: false, allowBom: true });
    assert.deepEqual(messageLines(written), messageLines(reread), path);
    assert.deepEqual(written.messages.map((m) => m.msgid), reread.messages.map((m) => m.msgid), path);
    assert.deepEqual(entryLines(bytes), messageLines(reread), path);
    files++;
  }
  assert.ok(files > 100, `${files} fixtures`);
});
