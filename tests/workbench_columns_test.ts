/**
 * The workbench keeps a searched catalogue in columns (`lib/workbench/_columns.ts`), not parsed: each
 * entry it gives back, each state, each match and each substring candidate must be exactly what the
 * parsed messages give, on every fixture and corpus catalogue (and on edge cases made by hand).
 */
import assert from "node:assert/strict";
import { entryMessages } from "../lib/po/operations/catalog.ts";
import { parsePo } from "../lib/po/mod.ts";
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";
import { SearchColumns } from "../lib/workbench/_columns.ts";
import { entryState, listedEntry, SEARCH_FIELDS, type SearchField } from "../lib/workbench/mod.ts";
import { poFilesIn, SHARED_DIR } from "./_helpers.ts";
import { lacks } from "./_prerequisites.ts";

/** The texts a search tests for a parsed message, field by field: the rule the columns must keep. */
function testedTexts(m: PoMessage, field: SearchField): string[] {
  switch (field) {
    case "msgid":
      return m.msgidPlural === null ? [m.msgid] : [m.msgid, m.msgidPlural];
    case "msgstr":
      return m.msgstrPlural !== null && m.msgidPlural !== null ? [...m.msgstrPlural] : [m.msgstr];
    case "msgctxt":
      return m.msgctxt === null ? [] : [m.msgctxt];
    case "comments":
      return [...m.translatorComments, ...m.extractedComments];
  }
}

/** Compares the columns of `doc` with its parsed entries; returns how many entries were compared. */
function compare(doc: PoCatalog, name: string): number {
  const columns = SearchColumns.of(doc);
  const messages = entryMessages(doc);
  assert.equal(columns.count, messages.length, name);
  messages.forEach((m, i) => {
    assert.deepEqual(columns.entry(i, null), listedEntry(doc, m, i, null), `${name}: entry ${i}`);
    assert.equal(columns.state(i), entryState(m), `${name}: state of ${i}`);
    for (const field of SEARCH_FIELDS) {
      const seen: string[] = [];
      columns.matches(i, [field], (text) => (seen.push(text), false));
      assert.deepEqual(seen, testedTexts(m, field), `${name}: ${field} texts of ${i}`);
    }
  });
  // Substring candidates: needles taken from the entries themselves, and one found nowhere.
  const needles = new Set<string>(["\u{10FFFF}nowhere"]);
  for (let i = 0; i < messages.length; i += Math.max(1, Math.floor(messages.length / 7))) {
    for (const field of SEARCH_FIELDS) {
      for (const text of testedTexts(messages[i]!, field)) if (text.length > 0) needles.add(text.slice(0, 6));
    }
  }
  for (const needle of needles) {
    for (const fields of [["msgid"], ["msgstr", "comments"], SEARCH_FIELDS] as SearchField[][]) {
      for (const from of [0, Math.floor(messages.length / 2)]) {
        const expected: number[] = [];
        for (let i = from; i < messages.length; i++) {
          if (fields.some((f) => testedTexts(messages[i]!, f).some((t) => t.includes(needle)))) {
            expected.push(i);
          }
        }
        const found = columns.candidates(fields, from, (text, at) => text.indexOf(needle, at), needle);
        assert.deepEqual(found, expected, `${name}: candidates of ${JSON.stringify(needle)} in ${fields}`);
      }
    }
  }
  return messages.length;
}

/** Every file of `paths` that parses, compared; returns the entries compared. */
function compareFiles(paths: string[]): number {
  let entries = 0;
  for (const path of paths) {
    let doc: PoCatalog;
    try {
      doc = parsePo(Deno.readFileSync(path), { fileName: path, strict: false, allowBom: true });
    } catch {
      continue; // an invalid catalogue is listed with its error, never searched
    }
    entries += compare(doc, path);
  }
  return entries;
}

const HEADER =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: nplurals=3; plural=n%10==1 ? 0 : 1;\\n"\n';

Deno.test("columns give back what the parsed entries are, on shapes made by hand", () => {
  const doc = parsePo(
    new TextEncoder().encode(
      HEADER + [
        '\nmsgid "plain"\nmsgstr "simple"\n',
        '\nmsgctxt ""\nmsgid "empty context"\nmsgstr ""\n',
        '\n# \n#.\nmsgid "empty comments"\nmsgstr "x"\n',
        '\n# t1\n# t2\n#. e1\n#: a.py:1 b.py\n#, fuzzy, python-format\n#| msgctxt "old"\n#| msgid "was"\nmsgid "all"\nmsgstr "tout"\n',
        '\nmsgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "un"\nmsgstr[1] ""\nmsgstr[2] "plusieurs"\n',
        '\nmsgid "tab\\there"\nmsgstr "line\\nbreak \\"quoted\\""\n',
        '\nmsgid "café ☕ 𝄞"\nmsgstr "ça"\n',
        '\n#~ msgctxt "c"\n#~ msgid "gone"\n#~ msgid_plural "gones"\n#~ msgstr[0] "parti"\n#~ msgstr[1] "partis"\n',
        '\n#, fuzzy\n#~ msgid "old fuzzy"\n#~ msgstr ""\n',
        // Texts holding the marks the columns use between occurrences and flags (U+0001..U+0003).
        '\n#: a\u0001b.py:3 c\u0002d.py \u0003e.py\n#, odd\u0001flag\nmsgid "marks"\nmsgstr "m"\n',
      ].join(""),
    ),
    { strict: false },
  );
  assert.equal(compare(doc, "hand-made"), 10);
  // A catalogue without entries, and one whose lines are not known (as after a write: none).
  assert.equal(compare(parsePo(new TextEncoder().encode(HEADER), { strict: false }), "header only"), 0);
  const written = { ...doc, messages: [...doc.messages] }; // a new catalogue value: no lines kept
  const columns = SearchColumns.of(written);
  assert.equal(columns.entry(0, ["msgid"]).line, null);
  assert.deepEqual(
    columns.entry(0, ["msgid"]),
    listedEntry(written, entryMessages(written)[0]!, 0, ["msgid"]),
  );
});

Deno.test("columns give back what the parsed entries are, on every fixture catalogue", () => {
  assert.ok(compareFiles(poFilesIn(new URL("./fixtures/", import.meta.url))) > 100);
});

Deno.test("columns give back what the parsed entries are, on every corpus catalogue", {
  ignore: lacks(import.meta.url, "shared"),
}, () => {
  assert.ok(compareFiles(poFilesIn(new URL("corpus/po/", SHARED_DIR))) > 10_000);
});
