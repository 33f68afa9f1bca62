/**
 * The workbench keeps a searched catalogue in columns (`lib/workbench/_columns.ts`), not the
 * parsed catalogue: a search must still match exactly what the parsed entries would, part by part
 * (an entry with no msgctxt is not one with an empty msgctxt; no comment is not an empty one), and
 * build its hits from the file as it is.
 */
import assert from "node:assert/strict";
import { poFixture } from "./_helpers.ts";

const HEADER =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n';
const CATALOGUE = HEADER + [
  '\nmsgid "plain"\nmsgstr "simple"\n',
  '\nmsgctxt ""\nmsgid "empty context"\nmsgstr "contexte vide"\n',
  '\n# \nmsgid "empty comment"\nmsgstr ""\n',
  '\n#. Extracted\n# Translator\nmsgid "two comments"\nmsgstr "deux"\n',
  '\nmsgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "un"\nmsgstr[1] ""\n',
  '\n#, fuzzy\nmsgid "café ☕"\nmsgstr "café"\n',
  '\n#~ msgid "gone"\n#~ msgstr "parti"\n',
].join("");

// deno-lint-ignore no-explicit-any
type Hit = any;

Deno.test("a search on the kept index matches as the parsed entries would, part by part", async () => {
  await using po = await poFixture({ "fr.po": CATALOGUE });
  const ids = async (body: Record<string, unknown>) => {
    const res = await po.post("/po/search", { fields: ["msgid"], ...body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.hits.map((h: Hit) => h.msgid);
  };
  // Twice: the first search reads and indexes the file, the second uses the kept index.
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await ids({ query: "^$", regex: true, in: ["msgctxt"] }), ["empty context"]);
    assert.deepEqual(await ids({ query: "^$", regex: true, in: ["comments"] }), ["empty comment"]);
    assert.deepEqual(await ids({ query: "^$", regex: true, in: ["msgstr"] }), ["empty comment", "one file"]);
    assert.deepEqual(await ids({ query: "^%d files$", regex: true, in: ["msgid"] }), ["one file"]);
    assert.deepEqual(await ids({ query: "^Translator$", regex: true, in: ["comments"] }), ["two comments"]);
    assert.deepEqual(await ids({ query: "CAFÉ", case_insensitive: true, in: ["msgid", "msgstr"] }), [
      "café ☕",
    ]);
    assert.deepEqual(await ids({ query: "a", in: ["msgstr"], states: ["obsolete", "fuzzy"] }), [
      "café ☕",
      "gone",
    ]);
    assert.deepEqual(await ids({ query: "e", states: ["untranslated"] }), ["empty comment", "one file"]);
  }
  const [hit] = (await po.post("/po/search", { query: "deux", in: ["msgstr"] })).body.hits;
  assert.deepEqual(
    { index: hit.index, line: hit.line, state: hit.state, comment: hit.comment, tcomment: hit.tcomment },
    { index: 3, line: 19, state: "translated", comment: "Extracted", tcomment: "Translator" },
  );
});

Deno.test("a search after another process rewrote a file finds what the file holds now", async () => {
  await using po = await poFixture({ "fr.po": CATALOGUE });
  assert.equal((await po.post("/po/search", { query: "simple", in: ["msgstr"] })).body.hits.length, 1);
  await Deno.writeTextFile(po.path("fr.po"), CATALOGUE.replace('msgstr "simple"', 'msgstr "ordinaire"'));
  assert.equal((await po.post("/po/search", { query: "simple", in: ["msgstr"] })).body.hits.length, 0);
  const [hit] = (await po.post("/po/search", { query: "ordinaire", in: ["msgstr"] })).body.hits;
  assert.equal(hit.msgstr, "ordinaire");
});
