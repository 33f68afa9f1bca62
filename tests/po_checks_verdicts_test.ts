/**
 * The checks ⊇ `msgfmt -c`: small catalogues with msgfmt 0.21's verdict written down (and checked
 * against the installed msgfmt where there is one), then every file of ../shared/corpus/po and the
 * msgcat vectors compared with msgfmt -c (bench/check_corpus.ts prints the figures).
 *
 * @module
 */
import assert from "node:assert/strict";
import { parsePo } from "../lib/po/mod.ts";
import { checkCatalog, type CheckProblem } from "../lib/po/checks/mod.ts";
import { MSGFMT_CHECKS, msgfmtAccepts, poFilesUnder, verdicts } from "./_msgfmt_verdicts.ts";
import { HAS_MSGFMT, lacks } from "./_prerequisites.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n';
const PLURAL_HEADER = HEADER + '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n';

/** A case: its text, msgfmt -c's verdict, and the (line, check) of our errors of msgfmt's kind. */
type Case = [string, string, boolean, [number | null, string][]];

export const CASES: Case[] = [
  [
    "a live and an obsolete entry with one msgid",
    HEADER + '\nmsgid "a"\nmsgstr "b"\n\n#~ msgid "a"\n#~ msgstr "c"\n',
    false,
    [[8, "duplicates"]],
  ],
  [
    "two obsolete entries with one msgid",
    HEADER + '\n#~ msgid "a"\n#~ msgstr "b"\n\n#~ msgid "a"\n#~ msgstr "c"\n',
    false,
    [[8, "duplicates"]],
  ],
  ["no header entry", 'msgid "a"\nmsgstr "b"\n', false, [[null, "header"]]],
  ["a header entry with an empty msgstr", 'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\n', false, [[
    1,
    "header",
  ]]],
  ["a fuzzy header entry", "#, fuzzy\n" + HEADER + '\nmsgid "a"\nmsgstr "b"\n', true, []],
  [
    "plural entries all untranslated, no Plural-Forms",
    HEADER + '\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] ""\nmsgstr[1] ""\n',
    true,
    [],
  ],
  [
    "a fuzzy plural entry, no Plural-Forms",
    HEADER + '\n#, fuzzy\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\n',
    true,
    [],
  ],
  [
    "a plural entry whose msgstr[0] is empty, no Plural-Forms",
    HEADER + '\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] ""\nmsgstr[1] "y"\n',
    true,
    [],
  ],
  [
    "a plural entry whose msgstr[0] is empty and msgstr[1] breaks its format",
    PLURAL_HEADER + '\n#, c-format\nmsgid "%d a"\nmsgid_plural "%d as"\nmsgstr[0] ""\nmsgstr[1] "%s"\n',
    true,
    [],
  ],
  [
    "a translated plural entry, no Plural-Forms",
    HEADER + '\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\n',
    false,
    [[1, "plural-forms"], [5, "plural-forms"]],
  ],
  [
    "a header without a charset",
    'msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    true,
    [],
  ],
  [
    "charset=CHARSET in a .po (msgfmt -c warns; the charset check too)",
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=CHARSET\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    true,
    [],
  ],
];

function ours(text: string): CheckProblem[] {
  const catalog = parsePo(new TextEncoder().encode(text), {
    fileName: "t.po",
    strict: false,
    allowBom: true,
    placeholderCharset: true,
  });
  return checkCatalog(catalog, { path: "t.po" });
}

Deno.test("the checks give msgfmt -c's verdict on the minimal cases, at the entries it names", async (t) => {
  if (!HAS_MSGFMT) {
    console.log("po_checks_verdicts_test.ts: msgfmt not found, its verdicts are not re-checked");
  }
  for (const [name, text, accepts, errors] of CASES) {
    await t.step(name, async () => {
      if (HAS_MSGFMT) assert.equal(await msgfmtAccepts(text), accepts, "msgfmt -c's verdict as written");
      const found = ours(text).filter((p) => p.severity === "error" && MSGFMT_CHECKS.has(p.check));
      assert.deepEqual(found.map((p) => [p.line, p.check]), errors, JSON.stringify(found));
    });
  }
});

Deno.test("a header without a charset is a warning, as msgfmt -c warns", () => {
  const problems = ours('msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\nmsgid "a"\nmsgstr "b"\n');
  assert.deepEqual(problems.map((p) => [p.check, p.severity]), [["charset", "warning"]]);
});

Deno.test("a byte order mark is reported: msgfmt refuses the file", () => {
  const problems = ours("\uFEFF" + HEADER + '\nmsgid "a"\nmsgstr "b"\n');
  assert.deepEqual(problems.map((p) => [p.line, p.check, p.severity]), [[1, "syntax", "error"]]);
});

Deno.test(
  "every file of the corpus and the msgcat vectors: msgfmt -c rejects it exactly when the checks do, at its entries",
  { ignore: lacks(import.meta.url, "shared", "msgcat") },
  async () => {
    const shared = new URL("../../shared/corpus/", import.meta.url).pathname;
    const files = [...poFilesUnder(`${shared}po`), ...poFilesUnder(`${shared}msgcat-vectors`)];
    const disagreeing: string[] = [];
    let agreeing = 0;
    for (const path of files) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      const v = await verdicts(path);
      // (A syntax error too: at msgfmt's line.)
      const same = v.msgfmtRejects === v.oursRejects && v.missedEntries.length === 0;
      if (same) agreeing++;
      else {
        disagreeing.push(`${name}: msgfmt ${v.msgfmtErrors[0] ?? ""} / ours ${v.ourErrors[0] ?? ""}`);
      }
    }
    console.log(`check vs msgfmt -c: ${agreeing} of ${files.length} files agree`);
    assert.deepEqual(disagreeing, []);
  },
);

Deno.test("a reST hyperlink whose URL now names another page of the site is reported; its localised copy is not", () => {
  const entry = (msgid: string, msgstr: string) =>
    HEADER + `\n#: ../../library/logging.rst:10\nmsgid "${msgid}"\nmsgstr "${msgstr}"\n`;
  const link = (url: string) => `Voir \`le guide <${url}>\`_.`;
  const original = "See `the guide <https://docs.python.org/3/howto/logging.html>`_.";
  const changed = ours(entry(original, link("https://docs.python.org/3/howto/logging-cookbook.html")));
  assert.deepEqual(changed.map((p) => [p.check, p.severity]), [["rest-links", "error"]]);
  assert.match(
    changed[0]!.message,
    /lacks the hyperlink to https:\/\/docs\.python\.org\/3\/howto\/logging\.html/,
  );
  for (
    const same of [
      "https://docs.python.org/3/howto/logging.html",
      "https://docs.python.org/fr/3/howto/logging.html",
    ]
  ) {
    assert.deepEqual(ours(entry(original, link(same))), [], same);
  }
  const wiki = "A `list <https://en.wikipedia.org/wiki/List>`_.";
  assert.deepEqual(ours(entry(wiki, "Une `liste <https://fr.wikipedia.org/wiki/Liste>`_.")), []);
});
