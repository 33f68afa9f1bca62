/**
 * Progress counts: equal to `msgfmt --statistics` on the corpus and on every fixture (where gettext
 * is installed), and to hand-counted numbers always.
 */
import assert from "node:assert/strict";
import { parsePo } from "../lib/po/mod.ts";
import { catalogueLanguage, countCatalogue, entryState, wordCount } from "../lib/workbench/mod.ts";
import { scanCounts } from "../lib/workbench/_count_scan.ts";
import { generatedCatalogue } from "../bench/_generated_po.ts";
import { HAS_MSGCAT, lacks } from "./_prerequisites.ts";
import { poFilesIn, SHARED_DIR } from "./_helpers.ts";

const FIXTURES = new URL("./fixtures/workbench/", import.meta.url);
const PO_FIXTURES = new URL("./fixtures/po/", import.meta.url);

function read(url: URL) {
  return parsePo(Deno.readFileSync(url), { fileName: url.pathname, strict: false, allowBom: true });
}

/** msgfmt's three numbers for a file, or null when msgfmt refuses it. */
function msgfmtStatistics(path: string): { translated: number; fuzzy: number; untranslated: number } | null {
  const out = new Deno.Command("msgfmt", {
    args: ["--statistics", "-o", "/dev/null", path],
    env: { LC_ALL: "C" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) return null;
  const text = new TextDecoder().decode(out.stderr);
  const n = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    translated: n(/(\d+) translated message/),
    fuzzy: n(/(\d+) fuzzy translation/),
    untranslated: n(/(\d+) untranslated message/),
  };
}

Deno.test("counts of the fixture catalogue are those counted by hand", () => {
  const counts = countCatalogue(read(new URL("fr/LC_MESSAGES/app.po", FIXTURES)));
  assert.deepEqual(counts, {
    entries: { translated: 4, fuzzy: 1, untranslated: 2, obsolete: 1 },
    words: { translated: 17, fuzzy: 3, untranslated: 11, obsolete: 2 },
    percent: 57,
    percent_words: 54,
  });
});

Deno.test("a fuzzy entry with an empty msgstr is untranslated, as msgfmt counts it", () => {
  const catalog = read(new URL("fr/LC_MESSAGES/app.po", FIXTURES));
  const entry = catalog.messages.find((m) => m.msgid === "Fuzzy but empty")!;
  assert.equal(entryState(entry), "untranslated");
});

Deno.test("a plural entry with one form missing is untranslated (msgfmt 0.21 looks at the first form only)", () => {
  const catalog = read(new URL("partial_plural.po", FIXTURES));
  assert.deepEqual(countCatalogue(catalog).entries, {
    translated: 1,
    fuzzy: 0,
    untranslated: 2,
    obsolete: 0,
  });
});

Deno.test("words are counted as Python's str.split() counts them", () => {
  assert.equal(wordCount(""), 0);
  assert.equal(wordCount("  one\ttwo\nthree  "), 3);
  assert.equal(wordCount("a\u00a0b\u3000c"), 3);
  assert.equal(wordCount("虚拟环境"), 1);
});

Deno.test("the language comes from the header, else from a locale directory in the path", () => {
  const withHeader = read(new URL("fr/LC_MESSAGES/app.po", FIXTURES));
  assert.equal(catalogueLanguage(withHeader, "x/app.po"), "fr");
  const bare = parsePo(new TextEncoder().encode('msgid "a"\nmsgstr "b"\n'));
  assert.equal(catalogueLanguage(bare, "pt_BR/LC_MESSAGES/app.po"), "pt_BR");
  assert.equal(catalogueLanguage(bare, "locales/pt_BR.po"), "pt_BR");
  assert.equal(catalogueLanguage(bare, "library/re.po"), null);
});

/** Every file msgfmt accepts: our three counts equal its, except the documented partial-plural case. */
function compareWithMsgfmt(files: string[]) {
  let compared = 0;
  for (const path of files) {
    const expected = msgfmtStatistics(path);
    if (expected === null) continue;
    let catalog;
    try {
      catalog = parsePo(Deno.readFileSync(path), { fileName: path, strict: false, allowBom: true });
    } catch {
      continue;
    }
    // The header with an empty msgstr, and partly translated plurals, are the two stated differences.
    const partial = catalog.messages.some((m) =>
      !m.obsolete && m.msgstrPlural !== null && m.msgstrPlural[0] !== "" && m.msgstrPlural.includes("")
    );
    const emptyHeader = catalog.messages.some((m) =>
      m.msgid === "" && m.msgctxt === null && !m.obsolete && m.msgstr === ""
    );
    if (partial || emptyHeader) continue;
    const { translated, fuzzy, untranslated } = countCatalogue(catalog).entries;
    assert.deepEqual({ translated, fuzzy, untranslated }, expected, path);
    compared++;
  }
  return compared;
}

Deno.test("counts equal msgfmt --statistics for every fixture catalogue", {
  ignore: lacks(import.meta.url, "msgcat"),
}, () => {
  const files = [...poFilesIn(FIXTURES), ...poFilesIn(PO_FIXTURES)];
  assert.ok(compareWithMsgfmt(files) >= 10);
});

Deno.test(
  "counts equal msgfmt --statistics for every corpus catalogue msgfmt accepts",
  { ignore: lacks(import.meta.url, "shared", "msgcat") },
  () => {
    const files = poFilesIn(new URL("corpus/po/", SHARED_DIR));
    assert.ok(compareWithMsgfmt(files) >= 30);
  },
);

Deno.test("msgfmt itself says what the partial plural difference is", { ignore: !HAS_MSGCAT }, () => {
  assert.deepEqual(msgfmtStatistics(new URL("partial_plural.po", FIXTURES).pathname), {
    translated: 2,
    fuzzy: 0,
    untranslated: 1,
  });
});

/** What the scanner and the parser say of a file: equal counts and language, or the scanner declines. */
function scanAgrees(path: string, bytes: Uint8Array): "scanned" | "declined" | "unparsable" {
  let catalog;
  try {
    catalog = parsePo(bytes, { fileName: path, strict: false, allowBom: true });
  } catch {
    return "unparsable";
  }
  const scanned = scanCounts(bytes);
  if (scanned === null) return "declined";
  assert.deepEqual(scanned.counts, countCatalogue(catalog), path);
  const headerLanguage = catalogueLanguage(catalog, "x.po");
  assert.equal(scanned.language, headerLanguage, path);
  return "scanned";
}

Deno.test("the byte scanner counts what the parser counts, on every fixture and generated catalogue", () => {
  const files = [
    ...poFilesIn(FIXTURES),
    ...poFilesIn(PO_FIXTURES),
    ...poFilesIn(new URL("./fixtures/fuzz/", import.meta.url)),
  ];
  const outcomes = files.map((f) => scanAgrees(f, Deno.readFileSync(f)));
  assert.ok(outcomes.filter((o) => o === "scanned").length >= 8, outcomes.join(" "));
  for (const n of [0, 1, 14, 500]) {
    assert.equal(scanAgrees(`generated ${n}`, generatedCatalogue(n)), "scanned");
  }
});

Deno.test("the byte scanner declines what it does not read, and the parser decides", () => {
  const cases: [string, string][] = [
    ["CRLF", 'msgid "a"\r\nmsgstr "b"\r\n'],
    ["backslash-newline", 'msgid "a\\\nb"\nmsgstr "c"\n'],
    [
      "Latin-1 header",
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "\xe9"\nmsgstr ""\n',
    ],
    ["a domain line", 'domain "x"\nmsgid "a"\nmsgstr "b"\n'],
    ["an octal escape", 'msgid "\\101"\nmsgstr "b"\n'],
    ["msgid without msgstr", 'msgid "a"\nmsgid "b"\nmsgstr "c"\n'],
    ["a comment inside an entry", 'msgid "a"\n# note\nmsgstr "b"\n'],
    ["an unterminated string", 'msgid "a\nmsgstr "b"\n'],
    [
      "invalid UTF-8",
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "\xff"\nmsgstr ""\n',
    ],
  ];
  for (const [name, text] of cases) {
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    assert.equal(scanCounts(bytes), null, name);
  }
});

Deno.test(
  "the byte scanner counts what the parser counts on every corpus catalogue it reads",
  { ignore: lacks(import.meta.url, "shared") },
  () => {
    const outcomes = poFilesIn(new URL("corpus/po/", SHARED_DIR)).map((f) =>
      scanAgrees(f, Deno.readFileSync(f))
    );
    // Most of the corpus is in the plain layout (the rest: CRLF, other charsets, odd escapes).
    assert.ok(outcomes.filter((o) => o === "scanned").length >= 39, outcomes.join(" "));
  },
);
