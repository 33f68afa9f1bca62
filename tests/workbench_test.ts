/**
 * The workbench tools over HTTP: list_catalogues, list_entries, search_entries — pages, cursors,
 * fields, revisions, freshness after another writer.
 */
import assert from "node:assert/strict";
import { generatedCatalogue } from "../bench/_generated_po.ts";
import { poFixture } from "./_helpers.ts";

const FIXTURE = Deno.readTextFileSync(new URL("./fixtures/workbench/fr/LC_MESSAGES/app.po", import.meta.url));
const PARTIAL = Deno.readTextFileSync(new URL("./fixtures/workbench/partial_plural.po", import.meta.url));

function tree() {
  return poFixture({
    "fr/LC_MESSAGES/app.po": FIXTURE,
    "de/partial.po": PARTIAL,
    "big/library/many.po": generatedCatalogue(2500),
    "broken/bad.po": 'msgid "a"\nmsgstr "b"\nmsgid oops\n',
    ".hidden/skipped.po": FIXTURE,
    "notes.txt": "not a catalogue",
  });
}

Deno.test("POST /po/catalogues lists every catalogue with counts, revision and totals per directory", async () => {
  await using po = await tree();
  const res = await po.post("/po/catalogues", {});
  assert.equal(res.status, 200);
  assert.equal(res.type, "application/json");
  const { catalogues, directories, total, next_cursor } = res.body;
  assert.deepEqual(catalogues.map((c: { path: string }) => c.path), [
    "big/library/many.po",
    "broken/bad.po",
    "de/partial.po",
    "fr/LC_MESSAGES/app.po",
  ]);
  assert.equal(total, 4);
  assert.equal(next_cursor, null);
  const fr = catalogues[3];
  assert.equal(fr.root, po.root);
  assert.equal(fr.language, "fr");
  assert.deepEqual(fr.counts.entries, { translated: 4, fuzzy: 1, untranslated: 2, obsolete: 1 });
  assert.equal(fr.counts.percent, 57);
  assert.match(fr.revision, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(fr.size, new TextEncoder().encode(FIXTURE).length);
  assert.equal(fr.error, null);
  const bad = catalogues[1];
  assert.equal(bad.counts, null);
  assert.match(bad.error, /^Invalid PO file: .*line 3/);
  const rootTotals = directories.find((d: { path: string }) => d.path === "");
  assert.equal(rootTotals.files, 4);
  assert.equal(
    rootTotals.entries.translated,
    catalogues.reduce(
      (n: number, c: { counts: { entries: { translated: number } } | null }) =>
        n + (c.counts?.entries.translated ?? 0),
      0,
    ),
  );
  assert.ok(directories.some((d: { path: string }) => d.path === "big/library"));
});

Deno.test("POST /po/catalogues filters by glob, exclude, percent and fuzzy, and pages by position", async () => {
  await using po = await tree();
  const paths = async (body: unknown) =>
    (await po.post("/po/catalogues", body)).body.catalogues.map((c: { path: string }) => c.path);
  assert.deepEqual(await paths({ glob: "fr/**" }), ["fr/LC_MESSAGES/app.po"]);
  assert.deepEqual(await paths({ glob: "*.po", exclude: ["big/**", "broken/*"] }), [
    "de/partial.po",
    "fr/LC_MESSAGES/app.po",
  ]);
  // The unreadable file stays in every progress filter: its progress is unknown (issue 34.6).
  assert.deepEqual(await paths({ has_fuzzy: true }), [
    "big/library/many.po",
    "broken/bad.po",
    "fr/LC_MESSAGES/app.po",
  ]);
  assert.deepEqual(await paths({ min_percent: 50, max_percent: 60 }), [
    "broken/bad.po",
    "fr/LC_MESSAGES/app.po",
  ]);
  assert.deepEqual(await paths({ under: "de" }), ["de/partial.po"]);
  assert.deepEqual(await paths({ under: po.path("fr") }), ["fr/LC_MESSAGES/app.po"]);
  const first = await po.post("/po/catalogues", { limit: 3 });
  assert.equal(first.body.catalogues.length, 3);
  assert.equal(typeof first.body.next_cursor, "string");
  const second = await po.post("/po/catalogues", { limit: 3, cursor: first.body.next_cursor });
  assert.deepEqual(second.body.catalogues.map((c: { path: string }) => c.path), ["fr/LC_MESSAGES/app.po"]);
  assert.equal(second.body.next_cursor, null);
  assert.equal(second.body.directories, null);
  const other = await po.post("/po/catalogues", {
    limit: 3,
    cursor: first.body.next_cursor,
    has_fuzzy: true,
  });
  assert.equal(other.status, 422);
  assert.match(other.body.detail, /^Invalid cursor: it was made for a request with other filters/);
});

Deno.test("POST /po/catalogues refuses a directory outside the roots and names a missing one", async () => {
  await using po = await tree();
  const outside = await po.post("/po/catalogues", { under: "/etc" });
  assert.equal(outside.status, 403);
  const climbing = await po.post("/po/catalogues", { under: "../.." });
  assert.equal(climbing.status, 422);
  const missing = await po.post("/po/catalogues", { under: "nope" });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.detail, "Directory not found: nope");
});

Deno.test("POST /po/catalogues never serves counts of bytes no longer on disk", async () => {
  await using po = await tree();
  const before = (await po.post("/po/catalogues", { glob: "de/*" })).body.catalogues[0];
  assert.equal(before.counts.entries.translated, 1);
  // Another writer, same size and (very likely) the same mtime tick: only the bytes differ.
  const changed = PARTIAL.replace('msgstr[0] ""', 'msgstr[0] "X"').replace('"Fertig"', '"Ferti"');
  assert.equal(changed.length, PARTIAL.length);
  const { mtime } = Deno.statSync(po.path("de/partial.po"));
  Deno.writeTextFileSync(po.path("de/partial.po"), changed);
  // The modification time put back: device, inode, size and mtime are as they were (ctime has whole seconds).
  Deno.utimeSync(po.path("de/partial.po"), mtime!, mtime!);
  const after = (await po.post("/po/catalogues", { glob: "de/*" })).body.catalogues[0];
  assert.notEqual(after.revision, before.revision);
  assert.deepEqual(after.counts.entries, { translated: 2, fuzzy: 0, untranslated: 1, obsolete: 0 });
});

Deno.test("POST /po/entries walks a 2,500-entry catalogue in pages, missing and repeating nothing", async () => {
  await using po = await tree();
  const seen: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let revision = "";
  do {
    const res: { status: number; body: Record<string, unknown> } = await po.post("/po/entries", {
      path: "big/library/many.po",
      limit: 300,
      cursor,
      fields: ["msgid"],
    });
    assert.equal(res.status, 200);
    const entries = res.body.entries as { index: number; msgid: string; state: string; line: number }[];
    for (const e of entries) {
      seen.push(e.index);
      assert.deepEqual(Object.keys(e), ["index", "line", "state", "msgid"]);
    }
    revision = res.body.revision as string;
    cursor = res.body.next_cursor as string | null;
    pages++;
  } while (cursor !== null);
  assert.equal(pages, 9);
  assert.deepEqual(seen, Array.from({ length: 2500 }, (_, i) => i));
  assert.match(revision, /^[A-Za-z0-9_-]{22}$/);
});

Deno.test("POST /po/entries lists by state with positions, and refuses a cursor whose catalogue changed (409)", async () => {
  await using po = await tree();
  const res = await po.post("/po/entries", {
    path: "fr/LC_MESSAGES/app.po",
    states: ["untranslated"],
    limit: 1,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.root, po.root);
  assert.equal(res.body.path, "fr/LC_MESSAGES/app.po");
  assert.equal(res.body.total, 2);
  assert.deepEqual(res.body.entries[0], {
    index: 3,
    line: 28,
    state: "untranslated",
    msgid: "Fuzzy but empty",
    msgstr: "",
    msgctxt: null,
    comment: "",
    tcomment: "",
    occurrences: [],
    flags: ["fuzzy"],
    msgid_plural: null,
    msgstr_plural: {},
    previous_msgid: null,
    previous_msgctxt: null,
    obsolete: false,
  });
  const fuzzy = await po.post("/po/entries", { path: po.path("fr/LC_MESSAGES/app.po"), states: ["fuzzy"] });
  assert.equal(fuzzy.body.entries[0].previous_msgid, "Saved %s file");
  // Another writer changes the catalogue between two pages.
  Deno.writeTextFileSync(po.path("fr/LC_MESSAGES/app.po"), FIXTURE.replace("Ouvrir", "Ouvre"));
  const stale = await po.post("/po/entries", {
    path: "fr/LC_MESSAGES/app.po",
    states: ["untranslated"],
    limit: 1,
    cursor: res.body.next_cursor,
  });
  assert.equal(stale.status, 409);
  assert.match(stale.body.detail, /changed since this cursor was made .*Start again without a cursor\.$/);
});

Deno.test("POST /po/entries answers 404, 403 and 422 as /po/read does", async () => {
  await using po = await tree();
  assert.equal((await po.post("/po/entries", { path: "missing.po" })).status, 404);
  assert.equal((await po.post("/po/entries", { path: "/etc/passwd.po" })).status, 403);
  assert.equal((await po.post("/po/entries", { path: "../../etc/x.po" })).status, 422);
  assert.equal((await po.post("/po/entries", { path: "broken/bad.po" })).status, 422);
  assert.equal((await po.post("/po/entries", { path: "de/partial.po", limit: 0 })).status, 422);
  assert.equal((await po.post("/po/entries", { path: "de/partial.po", fields: ["nope"] })).status, 422);
  assert.equal((await po.post("/po/entries", { path: "de/partial.po", cursor: "!!" })).status, 422);
});

Deno.test("POST /po/search finds a term across catalogues, as a translation memory", async () => {
  await using po = await tree();
  const res = await po.post("/po/search", {
    query: "virtual environment",
    in: ["msgid"],
    states: ["translated"],
    fields: ["msgid", "msgstr"],
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.hits.length, 1);
  const [hit] = res.body.hits;
  assert.equal(hit.path, "fr/LC_MESSAGES/app.po");
  assert.equal(hit.root, po.root);
  assert.match(hit.revision, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(hit.index, 6);
  assert.match(hit.msgstr, /environnement virtuel/);
  assert.equal(res.body.next_cursor, null);
  const insensitive = await po.post("/po/search", { query: "SAVE", case_insensitive: true, glob: "fr/**" });
  assert.deepEqual(insensitive.body.hits.map((h: { msgid: string }) => h.msgid), [
    "Save",
    "Saved %(count)s files",
  ]);
  const ctxt = await po.post("/po/search", { query: "menu", in: ["msgctxt"] });
  assert.deepEqual(ctxt.body.hits.map((h: { msgid: string }) => h.msgid), ["Save"]);
  const comments = await po.post("/po/search", { query: "translator's note", in: ["comments"] });
  assert.equal(comments.body.hits.length, 1);
});

Deno.test("POST /po/search pages through hits across files, and regexes are checked first", async () => {
  await using po = await tree();
  const all: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: Record<string, unknown> } = await po.post("/po/search", {
      query: "^(the|a) ",
      regex: true,
      limit: 70,
      cursor,
      fields: ["msgid"],
    });
    assert.equal(res.status, 200);
    for (const h of res.body.hits as { path: string; index: number }[]) all.push(`${h.path}#${h.index}`);
    cursor = res.body.next_cursor as string | null;
  } while (cursor !== null);
  assert.equal(new Set(all).size, all.length);
  assert.ok(all.length > 100);
  for (const bad of ["a{17}", "(a{4}){5}", "(?=x)y", "(?<=x)y", "(x)\\1", "x".repeat(257), "(unclosed"]) {
    const res = await po.post("/po/search", { query: bad, regex: true });
    assert.equal(res.status, 422, bad);
    assert.match(res.body.detail, /^Regular expression refused: /, bad);
  }
});

Deno.test("POST /po/catalogues follows no symlink out of the roots, to a file or a directory", async () => {
  await using po = await tree();
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "wb-outside-" }));
  try {
    Deno.writeTextFileSync(`${outside}/secret.po`, FIXTURE);
    Deno.symlinkSync(`${outside}/secret.po`, po.path("linked.po"));
    Deno.symlinkSync(outside, po.path("linked-dir"));
    const res = await po.post("/po/catalogues", {});
    assert.equal(res.status, 200);
    const paths = res.body.catalogues.map((c: { path: string }) => c.path);
    assert.ok(!paths.some((p: string) => p.includes("linked") || p.includes("secret")), paths.join(" "));
    assert.ok(!JSON.stringify(res.body).includes(outside));
    const under = await po.post("/po/catalogues", { under: "linked-dir" });
    assert.equal(under.status, 404);
    const search = await po.post("/po/search", { query: "Ouvrir" });
    assert.deepEqual(search.body.hits.map((h: { path: string }) => h.path), ["fr/LC_MESSAGES/app.po"]);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("under the service's V8 flags a search expression runs on the linear engine, in linear time", async () => {
  const tasks = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url))).tasks;
  for (const task of ["start", "mcp", "compile", "test"]) {
    assert.match(tasks[task], /--enable-experimental-regexp-engine/, task);
  }
  const script = `
    import { compileSearchRegex, LINEAR_REGEXP } from "${new URL(
    "../lib/workbench/mod.ts",
    import.meta.url,
  )}";
    const re = compileSearchRegex("^x.*y.*z$", false);
    const started = performance.now();
    const matched = re.test("x" + "y".repeat(200000));
    console.log(JSON.stringify({ linear: LINEAR_REGEXP, flags: re.flags, matched, ms: performance.now() - started }));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--enable-experimental-regexp-engine", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(out.success);
  const result = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.equal(result.linear, true);
  assert.equal(result.flags, "l");
  assert.equal(result.matched, false);
  // Backtracking on this input takes minutes; the linear engine milliseconds (a wide margin for load).
  assert.ok(result.ms < 5000, `${result.ms} ms`);
});

Deno.test("POST /po/catalogues with fields returns root, path and only those", async () => {
  await using po = await tree();
  const res = await po.post("/po/catalogues", { glob: "de/*", fields: ["counts"] });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body.catalogues[0]), ["root", "path", "kind", "counts"]);
  assert.equal(res.body.catalogues[0].counts.entries.translated, 1);
  const bad = await po.post("/po/catalogues", { fields: ["msgid"] });
  assert.equal(bad.status, 422);
});

Deno.test("a substring search (one text per catalogue and field) finds exactly what a per-entry search finds", async () => {
  await using po = await tree();
  const hits = async (body: Record<string, unknown>) => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Record<string, unknown> } = await po.post("/po/search", {
        ...body,
        limit: 333,
        cursor,
        fields: ["msgid"],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const h of res.body.hits as { path: string; index: number }[]) all.push(`${h.path}#${h.index}`);
      cursor = res.body.next_cursor as string | null;
    } while (cursor !== null);
    return all;
  };
  const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  for (const query of ["function", "翻譯", "e", "Save", "s ", "%d", "virtual environment"]) {
    for (const fields of [["msgid"], ["msgstr"], ["msgid", "msgstr", "msgctxt", "comments"]]) {
      for (const case_insensitive of [false, true]) {
        const viaIndex = await hits({ query, in: fields, case_insensitive });
        const perEntry = await hits({ query: escape(query), regex: true, in: fields, case_insensitive });
        assert.deepEqual(viaIndex, perEntry, `${query} ${fields} ${case_insensitive}`);
      }
    }
  }
});

Deno.test("under the service's V8 flags a case-insensitive ASCII expression runs linear, matching as the i flag does", async () => {
  const script = `
    import { compileSearchRegex } from "${new URL("../lib/workbench/mod.ts", import.meta.url)}";
    const patterns = ["^X.*Y.*Z$", "[a-c]+D", "fichier\\\\s\\\\w+", "[^A-Z]x", "(?<word>ab)c", "[Z-a]", "\\\\bk\\\\d{2}"];
    const texts = ["xAyBz", "ABCD", "FICHIER abc", "1X", "aX", "ABC", "z", "\`", "A", "K12", "k1", "é", "Kelvin \\u212a12"];
    const out = { flags: [], differences: [] };
    for (const p of patterns) {
      const re = compileSearchRegex(p, true);
      out.flags.push(re.flags);
      for (const t of texts) if (re.test(t) !== new RegExp(p, "i").test(t)) out.differences.push([p, t]);
    }
    const started = performance.now();
    compileSearchRegex("^x.*y.*z$", true).test("X" + "Y".repeat(200000));
    out.ms = performance.now() - started;
    console.log(JSON.stringify(out));
  `;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--enable-experimental-regexp-engine", script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(run.success);
  const result = JSON.parse(new TextDecoder().decode(run.stdout));
  assert.deepEqual(result.flags, Array(7).fill("l"));
  assert.deepEqual(result.differences, []);
  // Backtracking on this input takes minutes; the linear engine milliseconds (a wide margin for load).
  assert.ok(result.ms < 5000, `${result.ms} ms`);
});
