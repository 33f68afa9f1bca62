/**
 * The format languages beyond C and Python (tcl, javascript, php, lua, sh, kde, qt, perl, boost), each on small
 * catalogues with msgfmt -c 0.21's verdict written down: one entry, then a plural entry whose
 * msgstr[0] is the case's msgstr and msgstr[1] its msgid (form 0 of `n != 1` serves one number, so
 * there msgfmt lets an argument be left out, but not for lua and qt). Re-checked against the
 * installed msgfmt where there is one.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parsePo } from "../lib/po/mod.ts";
import { checkCatalog } from "../lib/po/checks/mod.ts";
import { countReads } from "./_work.ts";
import { HAS_MSGFMT } from "./_prerequisites.ts";
import { msgfmtAccepts } from "./_msgfmt_verdicts.ts";

/** [language, msgid, msgstr, msgfmt -c accepts the entry, accepts the plural entry]. */
const CASES: [string, string, string, boolean, boolean][] = [
  ["tcl", "%s files", "%s fichiers", true, true],
  ["tcl", "%s files", "%d fichiers", false, false],
  ["tcl", "%s in %s", "%2$s dans %1$s", true, true],
  ["tcl", "%s in %s", "%s dans", false, true],
  ["tcl", "%d", "%d %s", false, false],
  ["tcl", "%hd", "%d", false, false],
  ["tcl", "%*d", "%d", false, true],
  ["tcl", "100%", "100 %", true, true],
  ["tcl", "%s", "%1$s %s", false, false],
  ["tcl", "%x", "%u", true, true],
  ["tcl", "%s", "%0$s", false, false],
  ["tcl", "%s", "%q", false, false],
  ["tcl", "%s", "%", false, false],
  ["javascript", "%s files", "%s fichiers", true, true],
  ["javascript", "%s files", "%d fichiers", false, false],
  ["javascript", "%j", "%s", false, true],
  ["javascript", "%d and %s", "%2$s et %1$d", true, true],
  ["javascript", "%d and %s", "%d et", false, true],
  ["javascript", "%1$s %s", "%s", true, true],
  ["javascript", "%%", "%", false, false],
  ["javascript", "%s", "%y", false, false],
  ["javascript", "%5.2f", "%f", true, true],
  ["javascript", "%b", "%x", true, true],
  ["php", "%s files", "%s fichiers", true, true],
  ["php", "%s files", "%d fichiers", false, false],
  ["php", "%1$s %2$s", "%2$s %1$s", true, true],
  ["php", "%s %s", "%s", false, true],
  ["php", "%'*10s", "%s", true, true],
  ["php", "%.f", "%f", true, true],
  ["php", "%u", "%b", true, true],
  ["php", "%s %1$s", "%s", true, true],
  ["php", "%e", "%f", true, true],
  ["php", "%s", "%s %s", false, false],
  ["php", "%5.1f%%", "%.1f %%", true, true],
  ["php", "%s", "%F", false, false],
  ["lua", "%s files", "%s fichiers", true, true],
  ["lua", "%s files", "%d fichiers", false, false],
  ["lua", "%s %d", "%s", false, false],
  ["lua", "%q", "%s", false, false],
  ["lua", "%5.2f", "%f", true, true],
  ["lua", "%i", "%d", true, true],
  ["lua", "%s", "%s %s", false, false],
  ["lua", "%s", "%z", false, false],
  ["lua", "%a", "%g", true, true],
  ["sh", "$name is here", "$name est là", true, true],
  ["sh", "$name is here", "${name} est là", true, true],
  ["sh", "$name", "$other", false, false],
  ["sh", "$a $b", "$b", false, true],
  ["sh", "$a", "$a $b", false, false],
  ["sh", "$a", "${a:-x}", false, false],
  ["sh", "$a", "$1", false, false],
  ["sh", "$a", "cost $", false, false],
  ["sh", "$a", "$a$", false, false],
  ["sh", "${a}", "${}", false, false],
  ["sh", "$a_b", "${a_b}", true, true],
  ["sh", "$1", "$2", true, true],
  ["sh", "$a", "${a", false, false],
  ["kde", "%1 files", "%1 fichiers", true, true],
  ["kde", "%1 files", "fichiers", false, true],
  ["kde", "%1 of %2", "%2 sur %1", true, true],
  ["kde", "%1 of %2", "%1 sur %3", false, false],
  ["kde", "%1 %2 %3", "%1", false, false],
  ["kde", "%1", "%1 %2", false, false],
  ["kde", "%1 %3", "%1 %3", true, true],
  ["kde", "%1 %4", "%1", true, true],
  ["kde", "%1", "%10", false, false],
  ["kde", "100%", "100 %", true, true],
  ["kde", "%1", "%n", false, true],
  ["qt", "%1 files", "%1 fichiers", true, true],
  ["qt", "%1 files", "fichiers", false, false],
  ["qt", "%1 of %2", "%2 sur %1", true, true],
  ["qt", "%1", "%L1", false, false],
  ["qt", "%L1", "%1", true, true],
  ["qt", "%1", "%1 %2", false, false],
  ["qt", "%1", "%10", false, false],
  ["qt", "%0", "%0", true, true],
  ["qt", "%10", "%1", false, false],
  ["perl", "%s files", "%s fichiers", true, true],
  ["perl", "%s files", "%d fichiers", false, false],
  ["perl", "%d", "%ld", false, false],
  ["perl", "%s %s", "%2$s %1$s", true, true],
  ["perl", "%s %s", "%s", false, true],
  ["perl", "%s", "%s %s", false, false],
  ["perl", "%vd", "%s", false, false],
  ["perl", "%*d", "%d", false, true],
  ["perl", "%hf", "%f", true, true],
  ["perl", "%x", "%u", true, true],
  ["perl", "%s %1$s", "%s", true, true],
  ["perl", "%D", "%ld", false, false],
  ["perl", "%5.2f%%", "%.2f %%", true, true],
  ["perl", "%s", "%y", false, false],
  ["boost", "%1% files", "%1% fichiers", true, true],
  ["boost", "%1% files", "fichiers", false, true],
  ["boost", "%1% of %2%", "%2% sur %1%", true, true],
  ["boost", "%s files", "%d fichiers", false, false],
  ["boost", "%d files", "%1$d fichiers", true, true],
  ["boost", "%|1$d|", "%1$d", true, true],
  ["boost", "%1%", "%1$d", false, false],
  ["boost", "%s %s", "%s", false, true],
  ["boost", "%d", "%d %d", false, false],
  ["boost", "%|5d|", "%d", true, true],
  ["boost", "%1$s", "%1$s %1$d", false, false],
  ["boost", "%d", "%|d", false, false],
  ["boost", "%d", "%Tx%d", true, true],
  ["boost", "%d", "%q", false, false],
  ["boost", "%1% %2%", "%2%", false, true],
];

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n';

function quoted(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function catalogue(language: string, msgid: string, msgstr: string, plural: boolean): string {
  return HEADER + `#, ${language}-format\nmsgid ${quoted(msgid)}\n` +
    (plural
      ? `msgid_plural ${quoted(msgid)}\nmsgstr[0] ${quoted(msgstr)}\nmsgstr[1] ${quoted(msgid)}\n`
      : `msgstr ${quoted(msgstr)}\n`);
}

Deno.test("every format language the checks know gives msgfmt -c's verdict on its small catalogues", async (t) => {
  if (!HAS_MSGFMT) {
    console.log("po_checks_formats_test.ts: msgfmt not found, its verdicts are not re-checked");
  }
  for (const [language, msgid, msgstr, single, plural] of CASES) {
    await t.step(`${language}-format: ${JSON.stringify(msgid)} → ${JSON.stringify(msgstr)}`, async () => {
      for (const [isPlural, accepts] of [[false, single], [true, plural]] as const) {
        const text = catalogue(language, msgid, msgstr, isPlural);
        if (HAS_MSGFMT) {
          assert.equal(await msgfmtAccepts(text), accepts, `msgfmt's verdict as written (${text})`);
        }
        const errors = checkCatalog(parsePo(new TextEncoder().encode(text), "t.po"))
          .filter((p) => p.severity === "error");
        assert.equal(errors.length === 0, accepts, JSON.stringify(errors));
        if (!accepts) assert.equal(errors[0]!.check, `${language}-format`);
      }
    });
  }
  const rejected = CASES.filter((c) => !c[3]).length;
  assert.ok(rejected > 20 && rejected < CASES.length - 20, "both verdicts are well represented");
});

Deno.test("the format languages stay linear on hostile strings of 256 KiB", async (t) => {
  const flags = ["tcl", "javascript", "php", "lua", "sh", "kde", "qt", "perl", "boost"].map((l) =>
    `${l}-format`
  );
  const hostile = (n: number) => [
    "%" + "1".repeat(n - 2) + "$",
    "%1".repeat(n / 2),
    "%L1".repeat(n / 3),
    "%*v".repeat(n / 3),
    "%|".repeat(n / 2),
    "%1$s%s".repeat(n / 6),
    "${".repeat(n / 2),
    "$a".repeat(n / 2),
    "${" + "a".repeat(n - 2),
    "%'".repeat(n / 2),
  ];
  const checkAll = (text: string) => {
    for (const flag of flags) {
      const po = (msgid: string, msgstr: string) =>
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
        `#, ${flag}\nmsgid ${quoted(msgid)}\nmsgstr ${quoted(msgstr)}\n`;
      for (const [a, b] of [[text, text + "x"], ["x", text]]) {
        checkCatalog(parsePo(new TextEncoder().encode(po(a!, b!)), "t.po"), { checks: [...flags] });
      }
    }
  };
  const small = hostile(1 << 14);
  const large = hostile(1 << 18);
  for (const [i, text] of large.entries()) {
    await t.step(JSON.stringify(text.slice(0, 12)), () => {
      const a = countReads(() => checkAll(small[i]!)).reads;
      const b = countReads(() => checkAll(text)).reads;
      assert.ok(a > 0, "the checks read the text");
      assert.ok(b <= 20 * a, `16× the text, ${(b / a).toFixed(1)}× the reads (${a} → ${b})`);
    });
  }
});
