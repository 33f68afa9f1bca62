/**
 * Terminology (lib/terms) and its checks: terms found in msgids by words (plurals, code left out,
 * leftmost-longest), the terminology file's CSV and patterns (inflections, linear on hostile
 * input), and the glossary, forbidden and term-target checks on python-docs-like entries and on
 * the real python-docs-fr glossary when ../shared is here.
 */
import assert from "node:assert/strict";
import { checkCatalog, checkMessage } from "../lib/po/checks/mod.ts";
import { EMPTY_MESSAGE, type PoMessage } from "../lib/po/types.ts";
import { parsePo } from "../lib/po/mod.ts";
import {
  buildTerminology,
  compilePattern,
  glossaryRenderings,
  isGlossaryTerm,
  termRules,
  termsInMsgid,
} from "../lib/terms/mod.ts";
import { parseCsv } from "../lib/terms/csv.ts";
import { RenderingSet } from "../lib/terms/_pattern.ts";
import { lacks } from "./_prerequisites.ts";
import { SHARED_DIR } from "./_helpers.ts";

const GLOSSARY_PO = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: fr\\n"

#: glossary.rst:5
msgid "Glossary"
msgstr "Glossaire"

#: glossary.rst:10
msgid "abstract base class"
msgstr "classe mère abstraite"

#: glossary.rst:12
msgid "Abstract base classes complement duck-typing."
msgstr "Les classes mères abstraites complètent le typage canard."

#: glossary.rst:20
msgid "class"
msgstr "classe"

#: glossary.rst:22
msgid "iterable"
msgstr "itérable"

#: glossary.rst:24
msgid "awaitable"
msgstr "attendable (*awaitable*)"

#: glossary.rst:26
msgid "mapping"
msgstr "tableau de correspondances (*mapping* en anglais)"

#: glossary.rst:28
msgid "dictionary comprehension"
msgstr "dictionnaire en compréhension (ou dictionnaire en intension)"

#: glossary.rst:30
#, fuzzy
msgid "decorator"
msgstr "décorateur"

#: glossary.rst:32
msgid "namespace package"
msgstr "paquet-espace de nommage"
`;

const TERMS_CSV = `term,translation,kind,pattern,note
# agreed translations checked everywhere, with inflections
built-in,natif,glossary,nati*,
class,classe,glossary,,
Python,,do-not-translate,,
# zh_CN renderings forbidden in zh_TW, anywhere
,信息,forbidden,,use 訊息
,默认,forbidden,,use 預設
file,文件,forbidden,,use 檔案
object,objet,glossary,,
`;

function terminology() {
  return buildTerminology({
    glossary: {
      catalog: parsePo(new TextEncoder().encode(GLOSSARY_PO), "glossary.po"),
      source: "glossary.po",
    },
    file: { text: TERMS_CSV, source: ".po-terms.csv" },
  });
}

function entry(msgid: string, msgstr: string, rst = true): PoMessage {
  return {
    ...EMPTY_MESSAGE,
    msgid,
    msgstr,
    references: rst ? [{ file: "library/functions.rst", line: 1 }] : [],
  };
}

function problems(msgid: string, msgstr: string, checks = ["glossary", "forbidden", "term-target"]) {
  return checkMessage(entry(msgid, msgstr), { checks, terminology: termRules(terminology()) });
}

Deno.test("glossary.po: short translated msgids are terms; sentences, fuzzy and markup are not", () => {
  const t = terminology();
  const names = t.terms.map((x) => x.term).sort();
  assert.ok(
    names.includes("abstract base class") && names.includes("iterable") && names.includes("Glossary"),
  );
  assert.ok(!names.includes("decorator"), "fuzzy");
  assert.ok(!names.some((n) => n.startsWith("Abstract base classes complement")), "a sentence");
  assert.equal(isGlossaryTerm("``>>>``"), false);
  assert.equal(isGlossaryTerm("Can refer to:"), false);
  assert.equal(isGlossaryTerm("path-like object"), true);
  assert.deepEqual(t.warnings, []);
});

Deno.test("glossary renderings: alternatives in parentheses; the English term accepted last where the glossary recalls it", () => {
  assert.deepEqual(glossaryRenderings("awaitable", "attendable (*awaitable*)"), ["attendable", "awaitable"]);
  assert.deepEqual(glossaryRenderings("mapping", "tableau de correspondances (*mapping* en anglais)"), [
    "tableau de correspondances",
    "mapping",
  ]);
  assert.deepEqual(
    glossaryRenderings(
      "dictionary comprehension",
      "dictionnaire en compréhension (ou dictionnaire en intension)",
    ),
    ["dictionnaire en compréhension", "dictionnaire en intension"],
  );
  assert.deepEqual(glossaryRenderings("iterable", "iterable -- 可迭代对象"), ["可迭代对象", "iterable"]);
  assert.deepEqual(glossaryRenderings("argument", "argument"), ["argument"]);
});

Deno.test("termsInMsgid: by words, plurals of the last word, leftmost-longest, code left out", () => {
  const t = terminology();
  assert.deepEqual(termsInMsgid(t, "Abstract Base Classes and iterables."), [
    { term: "abstract base class", translation: "classe mère abstraite", doNotTranslate: false },
    { term: "iterable", translation: "itérable", doNotTranslate: false },
  ]);
  // Inside an inline literal, a role other than :term:, a link target or *param*: not prose.
  assert.deepEqual(termsInMsgid(t, "Use ``iterable`` or :class:`iterable` or *iterable* here."), []);
  assert.deepEqual(termsInMsgid(t, "A :term:`iterable <iterable>` object."), [
    { term: "iterable", translation: "itérable", doNotTranslate: false },
    { term: "object", translation: "objet", doNotTranslate: false },
  ]);
  assert.deepEqual(termsInMsgid(t, "Python is fine"), [{
    term: "Python",
    translation: "Python",
    doNotTranslate: true,
  }]);
  // "context. Manager" is not "context manager": only white space and hyphens join a term's words.
  assert.deepEqual(termsInMsgid(t, "built in, built-in, builtin").map((x) => x.term), ["built-in"]);
  assert.deepEqual(termsInMsgid(t, "classical music").length, 0);
});

Deno.test("the terminology file: CSV quoting, comments, bad rows warned with their line", () => {
  const rows = parseCsv(
    'term,translation,kind\n"a, ""b""",c,glossary\r\n\n# note\nx,"multi\nline",forbidden\n',
    [
      "term",
      "translation",
      "kind",
    ],
    { maxRows: 10, maxFieldChars: 50 },
  );
  assert.deepEqual(rows.map((r) => [r.line, r.fields.term, r.fields.translation]), [
    [2, 'a, "b"', "c"],
    [5, "x", "multi\nline"],
  ]);
  const t = buildTerminology({
    file: {
      text:
        "term,translation,kind,pattern\nfoo,bar,bogus,\nbaz,,glossary,\nqux,q,glossary,*q\n__proto__,p,glossary,\n",
      source: "t.csv",
    },
  });
  assert.deepEqual(t.warnings, [
    't.csv:2: unknown kind "bogus" (glossary, do-not-translate, forbidden)',
    "t.csv:3: a glossary row needs a translation or a pattern",
    't.csv:4: pattern alternative "*q" starts with *: write the stem first (itérable*)',
  ]);
  assert.deepEqual(t.terms.map((x) => x.term), ["__proto__"]);
  const broken = buildTerminology({ file: { text: 'term,translation,kind\n"open', source: "t.csv" } });
  assert.equal(broken.terms.length, 0);
  assert.match(broken.warnings[0]!, /t\.csv was not used: line 2: a quoted field is not closed/);
  assert.throws(() => parseCsv("a,b\n", ["term"], { maxRows: 5, maxFieldChars: 5 }), /term missing/);
});

Deno.test("patterns: stems, alternatives, white space, word boundaries only where the script has spaces", () => {
  const find = (pattern: string, text: string) =>
    new RenderingSet([compilePattern(pattern)], (r) => r).find(text).length === 1;
  assert.ok(find("itérable*", "Les itérables"));
  assert.ok(!find("itérable*", "non-itérable".replace("-", "")), "a word's start");
  assert.ok(find("Klasse|Klassen", "die KLASSEN"));
  assert.ok(!find("Klasse", "Klassenbibliothek"), "a word's end");
  assert.ok(find("gestionnaire* de contexte*", "des gestionnaires  de\ncontextes"));
  assert.ok(find("可迭代", "这是可迭代对象"), "no spaces in Chinese");
  assert.ok(find("이터러블", "이터러블을 받습니다"), "a Korean particle glued");
  assert.throws(() => compilePattern("a*b*c*d*e*f"), /more than 4/);
  assert.throws(() => compilePattern("x".repeat(201)), /longer than 200/);
  // Hostile text: a long run of what the pattern's stem repeats ends, whatever its length.
  const long = "a".repeat(200_000);
  assert.equal(find("a*b", long), false);
  assert.equal(
    new RenderingSet([compilePattern("a* a* a*b")], (r) => r).find(`${"a ".repeat(100_000)}`).length,
    0,
  );
});

Deno.test("glossary check: terminology-file terms everywhere, glossary.po terms where :term: marks them", () => {
  // .po-terms.csv's "class" is checked in prose, with French plurals.
  assert.deepEqual(problems("Return the class.", "Renvoie les classes."), []);
  const [p] = problems("Return the class.", "Renvoie le type.");
  assert.equal(p?.check, "glossary");
  assert.equal(p?.severity, "warning");
  assert.equal(p?.message, "msgstr lacks the agreed translation of “class”: “classe” (.po-terms.csv:4)");
  // glossary.po's "iterable": in prose it is not checked (prose uses the words loosely)…
  assert.deepEqual(problems("Any iterable works.", "Tout conteneur convient."), []);
  // …where the msgid links it to the glossary, it is.
  assert.deepEqual(
    problems("Any :term:`iterable` works.", "Tout :term:`conteneur <iterable>` convient.").map((x) =>
      x.message
    ),
    ["msgstr lacks the agreed translation of “iterable”: “itérable” (glossary.po:23)"],
  );
  assert.deepEqual(problems("An :term:`iterable` works.", "Un :term:`itérable <iterable>` convient."), []);
  // The emphasised English recall of the glossary is accepted; several renderings listed.
  assert.deepEqual(problems("An :term:`awaitable` object.", "Un objet :term:`*awaitable* <awaitable>`."), []);
  assert.match(
    problems(
      "A :term:`dictionary comprehension`.",
      "Une :term:`compréhension <dictionary comprehension>`.",
    )[0]!.message,
    /“dictionnaire en compréhension” or “dictionnaire en intension”/,
  );
  // A hyphenated rendering inflected in each word.
  assert.deepEqual(
    problems("A :term:`namespace package`.", "Des :term:`paquets-espaces de nommage <namespace package>`."),
    [],
  );
  // …and its hyphen written as a space (python-docs-fr's reference/import.po).
  assert.deepEqual(
    problems("A :term:`namespace package`.", "Des :term:`paquets espaces de nommage <namespace package>`."),
    [],
  );
  // do-not-translate.
  assert.match(
    problems("Python rocks.", "Le serpent déchire.")[0]!.message,
    /lacks the term “Python” of msgid, which stays/,
  );
  // A pattern of the file: nati* takes natif, native, natives.
  assert.deepEqual(problems("A built-in function.", "Une fonction native."), []);
});

Deno.test("forbidden check: zh_CN renderings in a zh_TW catalogue, anywhere or for a term", () => {
  const found = problems("Show the default file information.", "顯示默认的文件信息。", ["forbidden"]);
  assert.deepEqual(found.map((p) => [p.check, p.severity, p.message]), [
    ["forbidden", "error", "msgstr has “信息”, a forbidden rendering: use 訊息 (.po-terms.csv:7)"],
    ["forbidden", "error", "msgstr has “默认”, a forbidden rendering: use 預設 (.po-terms.csv:8)"],
    ["forbidden", "error", "msgstr has “文件”, a forbidden rendering of “file”: use 檔案 (.po-terms.csv:9)"],
  ]);
  // 文件 is forbidden for "file" only: a "document" may be 文件.
  assert.deepEqual(problems("Read the document.", "閱讀文件。", ["forbidden"]), []);
  assert.deepEqual(problems("Show the default file.", "顯示預設的檔案。", ["forbidden"]), []);
});

Deno.test("term-target check: a :term: target kept, or the glossary's translation, else reported", () => {
  const check = (id: string, str: string) => problems(id, str, ["term-target"]).map((p) => p.message);
  assert.deepEqual(check("An :term:`iterable`.", "Un :term:`itérable <iterable>`."), []);
  assert.deepEqual(
    check("An :term:`iterable`.", "Un :term:`itérables`."),
    [],
    "the agreed translation, inflected",
  );
  assert.deepEqual(
    check("An :term:`iterable`.", "Un :term:`Iterable`."),
    [],
    "Sphinx looks terms up lower-cased",
  );
  assert.deepEqual(check("An :term:`iterable`.", "Un :term:`itérateur <iterator>`."), [
    "msgstr lacks :term:`iterable` of msgid (or changed its target): keep :term:`text <iterable>` or write " +
    ":term:`itérable`",
  ]);
  assert.deepEqual(check("An :term:`iterable`.", "Un itérable."), [
    "msgstr lacks :term:`iterable` of msgid (or changed its target): keep :term:`text <iterable>` or write " +
    ":term:`itérable`",
  ]);
  // A term the terminology does not know: any :term: role of the translation may be its rendering.
  assert.deepEqual(check("A :term:`zork`.", "Un :term:`zorque`."), []);
  assert.deepEqual(check("A :term:`zork` and :term:`zork`.", "Un :term:`zorque`."), [
    "msgstr lacks :term:`zork` of msgid (or changed its target): keep :term:`text <zork>`",
  ]);
  // Without a terminology, only lost roles count.
  assert.deepEqual(
    checkMessage(entry("A :term:`zork`.", "Un zorque."), { checks: ["term-target"] }).length,
    1,
  );
  // Not a reST entry: the reST family does not run by default.
  const plain = entry("An :term:`iterable`.", "Un itérable.", false);
  const all = checkCatalog({ messages: [plain] } as never, { terminology: termRules(terminology()) });
  assert.deepEqual(all.filter((p) => p.check === "term-target"), []);
});

Deno.test("without a terminology the glossary and forbidden checks find nothing", () => {
  assert.deepEqual(
    checkMessage(entry("Return the class.", "默认"), { checks: ["glossary", "forbidden"] }),
    [],
  );
});

Deno.test(
  "python-docs-fr: the real glossary's terms, and known hits in real catalogues",
  { ignore: lacks(import.meta.url, "shared") },
  async () => {
    const dir = new URL("corpus/po/", SHARED_DIR);
    const glossary = parsePo(await Deno.readFile(new URL("fr__glossary.po", dir)), "glossary.po");
    const t = buildTerminology({ glossary: { catalog: glossary, source: "glossary.po" } });
    assert.ok(t.terms.length > 100, `${t.terms.length} terms`);
    const byTerm = new Map(t.terms.map((x) => [x.term, x.translation]));
    assert.equal(byTerm.get("iterable"), "itérable");
    assert.equal(byTerm.get("abstract base class"), "classe mère abstraite");
    const rules = termRules(t);
    // Every entry of the glossary's own definitions that renders a :term: with the agreed word passes;
    // a :term: left in English is reported.
    const functions = parsePo(await Deno.readFile(new URL("fr__library__functions.po", dir)), "functions.po");
    const found = checkCatalog(functions, { checks: ["glossary", "term-target"], terminology: rules });
    for (const p of found) assert.match(p.message, /^msgstr lacks /);
    const entries = functions.messages.filter((m) => m.msgstr !== "" && m.msgid !== "").length;
    // Few problems on a reviewed catalogue (docs/terminology.md has the tree's figure).
    assert.ok(found.length < entries / 20, `${found.length} of ${entries}`);
  },
);

Deno.test("term-target: a kept target is not taken for another term's translation (python-docs-zh-cn)", () => {
  const glossary = parsePo(
    new TextEncoder().encode(
      HEADER_ZH +
        'msgid "context"\nmsgstr "context -- 上下文"\n\nmsgid "context variable"\nmsgstr "context variable -- 上下文变量"\n',
    ),
    "glossary.po",
  );
  const rules = termRules(buildTerminology({ glossary: { catalog: glossary, source: "glossary.po" } }));
  const m = entry(
    "The :term:`context` used to access the values of :term:`context variables <context variable>`.",
    "用来访问 :term:`上下文变量 <context variable>` 的值的 :term:`context`。",
  );
  assert.deepEqual(checkMessage(m, { checks: ["term-target"], terminology: rules }), []);
});

const HEADER_ZH = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
