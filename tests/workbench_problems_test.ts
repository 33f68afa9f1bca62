/**
 * Listings never hide a problem (issue 34.6): an unreadable catalogue stays in filtered listings
 * (with its error, counted in `errors`) and counts as a problem, not as done, in directory totals;
 * a `.pot` is `kind: "template"`, outside the progress totals and progress filters; `sort` orders
 * by path, percent, untranslated entries or words, page by page; a search names the files it could
 * not read. Over a real socket.
 */
import assert from "node:assert/strict";
import { servedCatalogues } from "./_catalogue_server.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';

/** A catalogue of `done` translated and `left` untranslated entries (the untranslated ones two words long). */
function catalogue(done: number, left: number): string {
  let text = HEADER;
  for (let i = 0; i < done; i++) text += `msgid "done ${i}"\nmsgstr "fait ${i}"\n\n`;
  for (let i = 0; i < left; i++) text += `msgid "left ${i} ${"word ".repeat(i)}"\nmsgstr ""\n\n`;
  return text;
}

const TREE = {
  "fr/half.po": catalogue(2, 2), // 50 %, 2 left (few words)
  "fr/most.po": catalogue(9, 1), // 90 %, 1 left
  "fr/words.po": catalogue(3, 1).replace('msgid "left 0 "', `msgid "left ${"many words ".repeat(20)}"`), // 75 %
  "de/only/bad.po": 'msgid "a"\nmsgstr "b"\nmsgid oops\n',
  "templates/app.pot": catalogue(0, 5),
};

type Summary = { path: string; kind: string; error: string | null; counts: { percent: number } | null };

Deno.test("list_catalogues keeps unreadable files in every filter, counts them as problems, and keeps templates apart", async () => {
  await using po = await servedCatalogues(TREE);
  const unfinished = await po.post("/po/catalogues", { max_percent: 99 });
  assert.equal(unfinished.status, 200);
  const paths = unfinished.body.catalogues.map((c: Summary) => c.path);
  assert.deepEqual(paths, ["de/only/bad.po", "fr/half.po", "fr/most.po", "fr/words.po"]);
  assert.equal(unfinished.body.errors, 1);
  const bad = unfinished.body.catalogues[0];
  assert.match(bad.error, /^Invalid PO file: .*line 3/);
  assert.equal(bad.kind, "catalogue");

  const all = await po.post("/po/catalogues", {});
  const pot = all.body.catalogues.find((c: Summary) => c.path === "templates/app.pot");
  assert.equal(pot.kind, "template");
  const dirs = Object.fromEntries(all.body.directories.map((d: { path: string }) => [d.path, d]));
  // The directory whose only file cannot be read: a problem, no percent (it showed 100 %).
  assert.equal(dirs["de/only"].percent, null);
  assert.equal(dirs["de/only"].errors, 1);
  assert.equal(dirs["de/only"].files, 1);
  // The template is counted apart, and not in the progress: 14 translated of 18 live entries.
  assert.equal(dirs["templates"].templates, 1);
  assert.equal(dirs["templates"].files, 0);
  assert.equal(dirs["templates"].percent, null);
  assert.deepEqual(
    [
      dirs[""].files,
      dirs[""].templates,
      dirs[""].errors,
      dirs[""].entries.translated,
      dirs[""].entries.untranslated,
    ],
    [4, 1, 1, 14, 4],
  );
  assert.equal(dirs[""].percent, Math.floor(14 * 100 / 18));
});

Deno.test("list_catalogues sorts by percent, untranslated entries or words, and pages in that order", async () => {
  await using po = await servedCatalogues(TREE);
  const order = async (sort: string) => {
    const whole = (await po.post("/po/catalogues", { sort })).body.catalogues.map((c: Summary) => c.path);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { catalogues: Summary[]; next_cursor: string | null } } = await po.post(
        "/po/catalogues",
        { sort, limit: 2, ...(cursor ? { cursor } : {}) },
      );
      paged.push(...page.body.catalogues.map((c) => c.path));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(paged, whole, `${sort}: pages give the whole order once`);
    return whole;
  };
  assert.deepEqual(await order("path"), [
    "de/only/bad.po",
    "fr/half.po",
    "fr/most.po",
    "fr/words.po",
    "templates/app.pot",
  ]);
  assert.deepEqual(await order("percent"), [
    "de/only/bad.po",
    "fr/half.po",
    "fr/words.po",
    "fr/most.po",
    "templates/app.pot",
  ]);
  assert.deepEqual(await order("untranslated"), [
    "de/only/bad.po",
    "fr/half.po",
    "fr/most.po",
    "fr/words.po",
    "templates/app.pot",
  ]);
  assert.deepEqual(await order("untranslated_words"), [
    "de/only/bad.po",
    "fr/words.po",
    "fr/half.po",
    "fr/most.po",
    "templates/app.pot",
  ]);
  const refused = await po.post("/po/catalogues", { sort: "size" });
  assert.equal(refused.status, 422);
});

Deno.test("search_entries names the files it could not read", async () => {
  await using po = await servedCatalogues(TREE);
  const found = await po.post("/po/search", { query: "done", in: ["msgid"] });
  assert.equal(found.status, 200);
  assert.ok(found.body.hits.length > 0);
  assert.equal(found.body.unreadable.length, 1);
  assert.equal(found.body.unreadable[0].path, "de/only/bad.po");
  assert.match(found.body.unreadable[0].error, /^Invalid PO file/);
});
