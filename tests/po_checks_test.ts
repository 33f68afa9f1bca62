import assert from "node:assert/strict";
import { countReads } from "./_work.ts";
import { parsePo } from "../lib/po/mod.ts";
import {
  addTotals,
  CHECK_NAMES,
  checkCatalog,
  checkCatalogInTurns,
  checkMessage,
  CHECKS,
  DEFAULT_CHECKS,
  introducedProblems,
} from "../lib/po/checks/mod.ts";
import { pluralInfo } from "../lib/po/checks/_header.ts";
import { parsePythonFormat } from "../lib/po/checks/_format_python.ts";
import { parseBraceFormat } from "../lib/po/checks/_format_brace.ts";
import { parseCFormat } from "../lib/po/checks/_format_c.ts";
import { InvalidFormat } from "../lib/po/checks/_format_common.ts";
import { findEmails, findUrls } from "../lib/po/checks/_urls.ts";
import { scanRest } from "../lib/po/checks/_rest_scan.ts";
import { InvalidInputError } from "../lib/errors.ts";
import type { PoMessage } from "../lib/po/types.ts";

import { buildTerminology, termRules } from "../lib/terms/mod.ts";

const FIXTURES = new URL("./fixtures/checks/", import.meta.url);

function readFixture(name: string) {
  // As the store reads: duplicates kept (the duplicates check reports them).
  return parsePo(Deno.readFileSync(new URL(name, FIXTURES)), { fileName: name, strict: false });
}

function entry(fields: Partial<PoMessage> & { msgid: string }): PoMessage {
  return {
    msgctxt: null,
    msgidPlural: null,
    msgstr: "",
    msgstrPlural: null,
    translatorComments: [],
    extractedComments: [],
    references: [],
    flags: [],
    previousMsgctxt: null,
    previousMsgid: null,
    previousMsgidPlural: null,
    obsolete: false,
    ...fields,
  };
}

Deno.test("every fixture entry gets exactly the checks its 'expect:' comment names", () => {
  const catalog = readFixture("cases.po");
  // The terminology checks consult the fixture's terminology file.
  const terms = Deno.readTextFileSync(new URL("terms.csv", FIXTURES));
  const terminology = termRules(buildTerminology({ file: { text: terms, source: "terms.csv" } }));
  const problems = checkCatalog(catalog, { path: "cases.po", terminology });
  const byMsgid = new Map<string, Set<string>>();
  for (const p of problems) {
    if (!byMsgid.has(p.msgid)) byMsgid.set(p.msgid, new Set());
    byMsgid.get(p.msgid)!.add(p.check);
  }
  let positives = 0;
  let negatives = 0;
  const seen = new Set<string>();
  for (const m of catalog.messages) {
    const expect = m.translatorComments.find((c) => c.startsWith("expect: "));
    if (expect === undefined) continue;
    const wanted = expect.slice(8) === "none" ? [] : expect.slice(8).split(", ");
    const got = [...(byMsgid.get(m.msgid) ?? [])].sort();
    assert.deepEqual(
      got,
      wanted.sort(),
      `msgid ${JSON.stringify(m.msgid.slice(0, 60))}: ${
        JSON.stringify(problems.filter((p) => p.msgid === m.msgid).map((p) => p.message))
      }`,
    );
    if (wanted.length === 0) negatives++;
    else positives++;
    wanted.forEach((w) => seen.add(w));
  }
  assert.ok(positives >= 15 && negatives >= 12, `${positives} positives, ${negatives} negatives`);
  // Every default entry check has a true positive in the fixture.
  const entryChecks = CHECKS.filter((c) => c.defaultOn && !c.catalogue).map((c) => c.name);
  assert.deepEqual(entryChecks.filter((c) => !seen.has(c)), []);
});

Deno.test("a problem names the file, the msgid's line, the entry, the check, its severity and a message", () => {
  const problems = checkCatalog(readFixture("cases.po"), { path: "fr/cases.po" });
  const p = problems.find((p) => p.msgid === "Please enter a valid %s.")!;
  assert.deepEqual(Object.keys(p), ["path", "line", "msgctxt", "msgid", "check", "severity", "message"]);
  assert.equal(p.path, "fr/cases.po");
  assert.equal(p.check, "python-format");
  assert.equal(p.severity, "error");
  assert.equal(p.msgctxt, null);
  const lines = Deno.readTextFileSync(new URL("cases.po", FIXTURES)).split("\n");
  assert.equal(lines[p.line! - 1], 'msgid "Please enter a valid %s."');
  assert.match(p.message, /msgstr has 0 unnamed placeholders but the original has 1 \(%s\)/);
});

Deno.test("the catalogue checks: Plural-Forms missing with plural entries or out of range, no charset, duplicates", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "no_plural_forms.po",
      "plural-forms",
      /no Plural-Forms field but the catalogue has plural entries \(the first: msgid "some string"\)/,
    ],
    [
      "bad_plural_forms.po",
      "plural-forms",
      /nplurals = 2 but plural expression can produce values as large as 2/,
    ],
    ["no_charset.po", "charset", /declares no charset/],
    ["duplicates.po", "duplicates", /repeats the msgctxt and msgid of the entry at line 6/],
  ];
  for (const [file, check, message] of cases) {
    await t.step(file, () => {
      const problems = checkCatalog(readFixture(file), { path: file });
      // Without Plural-Forms, msgfmt names the first plural entry too, and so do the checks.
      assert.equal(problems.length, file === "no_plural_forms.po" ? 2 : 1, JSON.stringify(problems));
      if (file === "no_plural_forms.po") {
        assert.deepEqual([problems[1]?.line, problems[1]?.msgid, problems[1]?.check], [
          6,
          "some string",
          "plural-forms",
        ]);
      }
      assert.equal(problems[0]?.check, check);
      assert.equal(problems[0]?.msgid, check === "duplicates" ? "Compressed data is corrupt" : "");
      assert.equal(problems[0]?.line, check === "duplicates" ? 9 : 2);
      assert.match(problems[0]?.message ?? "", message);
    });
  }
});

Deno.test("python-format compares as msgfmt 0.21 does", async (t) => {
  const cases: [string, string, string | null][] = [
    ["%(a)s %(b)d", "%(b)d %(a)s", null],
    ["%(a)s %(b)d", "%(a)s", "lacks the placeholder %(b)d"],
    ["%(a)s", "%(a)s %(c)s", "has the placeholder %(c)s, which the original does not have"],
    ["%(a)d", "%(a)s", "has %(a)s where the original has %(a)d"],
    ["%(a)r", "%(a)s", null],
    ["%s %d", "%d %s", "placeholder 1 is %d in msgstr but %s in the original"],
    ["%i%%", "%d%%", null],
    ["%s", "%(s)s", "uses named placeholders"],
    ["%(a)s", "%s", "uses unnamed placeholders"],
    ["%s", "%y", "not a valid Python % format string"],
    ["100%", "100%", null], // an invalid msgid is not checked (msgfmt neither)
  ];
  for (const [msgid, msgstr, want] of cases) {
    await t.step(`${msgid} → ${msgstr}`, () => {
      const problems = checkMessage(entry({ msgid, msgstr, flags: ["python-format"] }));
      if (want === null) assert.deepEqual(problems, []);
      else {
        assert.equal(problems.length, 1);
        assert.ok(problems[0]?.message.includes(want), problems[0]?.message ?? "(none)");
      }
    });
  }
});

Deno.test("c-format compares argument types and numbers as msgfmt 0.21 does", async (t) => {
  const cases: [string, string, string | null][] = [
    ["%s %d", "%2$d %1$s", null],
    ["%ld", "%d", "argument 1 is %d in msgstr but %ld in the original"],
    ["%u", "%x", null],
    ["%d %s", "%2$s", "not a valid C printf format string: the string uses argument 2 but skips argument 1"],
    ["%1$s %2$d", "%2$d %s", "mixes numbered"],
    ["%s", "%s %s", "argument 2, which the original does not have"],
    ["%" + "<PRId64>", "%" + "<PRId64>", null],
    ["%m %s", "%s", null],
    ["%*d", "%d", "lacks argument 2 (%*d in the original)"],
  ];
  for (const [msgid, msgstr, want] of cases) {
    await t.step(`${msgid} → ${msgstr}`, () => {
      const problems = checkMessage(entry({ msgid, msgstr, flags: ["c-format"] }));
      if (want === null) assert.deepEqual(problems, []);
      else {
        assert.equal(problems.length, 1, JSON.stringify(problems));
        assert.ok(problems[0]?.message.includes(want), problems[0]?.message ?? "(none)");
      }
    });
  }
});

Deno.test("python-brace-format reads fields as Python does ({}, !r, specs) and reports what msgfmt 0.21 refuses", async (t) => {
  const spec = parseBraceFormat("{0.x} {a[1]} {{lit}} {n:{w}}");
  assert.ok(!(spec instanceof InvalidFormat));
  assert.deepEqual([...spec.named.keys()].sort(), ["0.x", "a[1]", "n", "w"]);
  // gettext 0.21's own reading (what msgfmt -c applies) refuses {} and conversions.
  assert.ok(parseBraceFormat("{}") instanceof InvalidFormat);
  assert.ok(parseBraceFormat("{a!r}") instanceof InvalidFormat);
  const cases: [string, string, string | null][] = [
    ["{0.x} {a}", "{0.y} {a}", "has the field {0.y}"],
    ["{} of {}", "{} de {}", null],
    ["{} of {}", "{}", "has 1 field {} numbered automatically, the original 2"],
    ["{name!r:>10} is {n:{w}}", "{n:{w}} est {name!r:>10}", null],
    ["{name}", "{name!r}", "valid for Python but msgfmt 0.21 refuses it"],
    ["{name}", "{name!x}", "not a valid Python {} format string"],
    ["{} {0}", "{} {0}", null], // msgid invalid for Python: not checked
  ];
  for (const [msgid, msgstr, want] of cases) {
    await t.step(`${msgid} → ${msgstr}`, () => {
      const problems = checkMessage(entry({ msgid, msgstr, flags: ["python-brace-format"] }));
      if (want === null) assert.deepEqual(problems, []);
      else {
        assert.equal(problems.length, 1, JSON.stringify(problems));
        assert.ok(problems[0]?.message.includes(want), problems[0]?.message ?? "(none)");
      }
    });
  }
});

Deno.test("a plural form for one number may leave out a placeholder; a form for many may not", () => {
  const catalog = parsePo(
    new TextEncoder().encode(
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n' +
        '#, c-format\nmsgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "un fichier"\nmsgstr[1] "%d fichiers"\n\n' +
        '#, c-format\nmsgid "one dir"\nmsgid_plural "%d dirs"\nmsgstr[0] "%d dossier"\nmsgstr[1] "des dossiers"\n',
    ),
    "p.po",
  );
  const problems = checkCatalog(catalog);
  assert.deepEqual(problems.map((p) => [p.msgid, p.check]), [["one dir", "c-format"]]);
  assert.match(problems[0]?.message ?? "", /msgstr\[1\] lacks argument 1/);
});

Deno.test("the plural distribution is msgfmt's: a form is 'often' when 5 of n = 0..1000 select it", () => {
  const info = (forms: string) => pluralInfo({ ...entry({ msgid: "" }), msgstr: `Plural-Forms: ${forms}\n` });
  const ru = info(
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
  );
  assert.deepEqual(ru.often, [true, true, true]);
  assert.deepEqual(info("nplurals=2; plural=(n > 1);").often, [false, true]);
  assert.deepEqual(info("nplurals=3; plural=n==0 ? 0 : n==1 ? 1 : 2;").often, [false, false, true]);
  assert.equal(info("nplurals=3; plural=n==0 ? 0 : n==1 ? 1 : 2;").histogram!(0, 1, 1), 1);
  assert.match(info("nplurals=2; plural=n/0;").forms as string, /division by zero/);
});

Deno.test("the checks can be chosen; an unknown name is refused with the list", () => {
  const m = entry({ msgid: "Hello.", msgstr: "bonjour", references: [] });
  assert.deepEqual(checkMessage(m), []);
  const asked = checkMessage(m, { checks: ["capitalisation", "end-punctuation"] }).map((p) => p.check);
  assert.deepEqual(asked, ["capitalisation", "end-punctuation"]);
  assert.ok(!DEFAULT_CHECKS.includes("capitalisation") && !DEFAULT_CHECKS.includes("end-punctuation"));
  assert.throws(() => checkMessage(m, { checks: ["python-fromat"] }), (e) => {
    assert.ok(e instanceof InvalidInputError);
    assert.match(
      e.message,
      /Unknown check "python-fromat": the checks are syntax, file, plural-forms, plural-forms-language, duplicates, header, charset, domains, python-format/,
    );
    return true;
  });
  assert.equal(new Set(CHECK_NAMES).size, CHECK_NAMES.length);
});

Deno.test("end punctuation counts full-width forms as the same, so CJK is not flagged for 。", () => {
  const m = entry({ msgid: "Done.", msgstr: "完成。" });
  assert.deepEqual(checkMessage(m, { checks: ["end-punctuation"] }), []);
});

Deno.test("reST checks run on entries from .rst files, or on any entry when named", () => {
  const m = entry({ msgid: "See :func:`open`.", msgstr: "Voir :func:`open." });
  assert.deepEqual(checkMessage(m), []);
  assert.deepEqual(checkMessage(m, { checks: ["rest-roles"] }).map((p) => p.check), ["rest-roles"]);
  const fromRst = { ...m, references: [{ file: "library/io.rst", line: 3 }] };
  // The role is not closed, so its target is not found either.
  assert.deepEqual(checkMessage(fromRst).map((p) => p.check), ["rest-roles", "rest-role-targets"]);
});

Deno.test("a mistake the msgid already has is not blamed on the translation", () => {
  const m = entry({
    msgid: "Use *args and ``x",
    msgstr: "Utilisez *args et ``x",
    references: [{ file: "a.rst", line: 1 }],
  });
  assert.deepEqual(checkMessage(m), []);
});

Deno.test("URLs, e-mail addresses and reST are found by linear scans", () => {
  assert.deepEqual(findUrls("see https://www.python.org/psf/), and (http://x.org/a_b)."), [
    "https://www.python.org/psf/",
    "http://x.org/a_b",
  ]);
  assert.deepEqual(findEmails("Report bugs to <xz@tukaani.org>, not a@b."), ["xz@tukaani.org"]);
  assert.deepEqual(scanRest("the:func:`x`").issues.map((i) => i.kind), ["role-glued-before"]);
  assert.deepEqual(scanRest(":issue`123`").issues.map((i) => i.kind), ["role-missing-colon"]);
  assert.deepEqual(scanRest("call :func:open now").issues.map((i) => i.kind), ["role-no-backticks"]);
  assert.deepEqual(scanRest(":func:``open``").issues.map((i) => i.kind), ["role-double-backticks"]);
  assert.deepEqual(scanRest("`Python<https://python.org>`_").issues.map((i) => i.kind), ["link-no-space"]);
  assert.deepEqual(scanRest("`Python <https://python.org>`").issues.map((i) => i.kind), [
    "link-no-underscore",
  ]);
});

Deno.test("every check stays linear on hostile entries of 256 KiB", async (t) => {
  const hostileTexts = (n: number) => [
    "%(".repeat(n / 2),
    "%" + "1".repeat(n - 2) + "$",
    "{".repeat(n),
    "{a[".repeat(n / 3),
    "{0:".repeat(n / 3),
    "`".repeat(n),
    ":a:`".repeat(n / 4),
    " :a".repeat(n / 3),
    "``x".repeat(n / 3),
    "*".repeat(n),
    " *a".repeat(n / 3),
    "http://".repeat(n / 7),
    "a@".repeat(n / 2),
    "a".repeat(n - 1) + "@",
    "<a".repeat(n / 2),
    "%<".repeat(n / 2),
    "\t".repeat(n),
    "a  ".repeat(n / 3),
  ];
  const checkAll = (text: string) => {
    for (const f of ["python-format", "c-format", "python-brace-format"]) {
      checkMessage(entry({ msgid: text, msgstr: text + "x", flags: [f] }), { checks: [...CHECK_NAMES] });
      checkMessage(entry({ msgid: "x", msgstr: text, flags: [f] }), { checks: [...CHECK_NAMES] });
    }
  };
  // Work counted, not timed: the characters read at 16 KiB and at 256 KiB. Linear work reads 16×
  // as many at 16× the size (a little more for fixed costs); quadratic work would read 256×.
  const small = hostileTexts(1 << 14), large = hostileTexts(1 << 18);
  for (const [i, text] of large.entries()) {
    await t.step(JSON.stringify(text.slice(0, 12)), () => {
      const a = countReads(() => checkAll(small[i]!)).reads;
      const b = countReads(() => checkAll(text)).reads;
      assert.ok(a > 0, "the checks read the text");
      assert.ok(b <= 20 * a, `16× the text, ${(b / a).toFixed(1)}× the reads (${a} → ${b})`);
    });
  }
});

Deno.test("introducedProblems reports what a change adds, not what was there before", () => {
  const before = readFixture("cases.po");
  const broken = before.messages.find((m) => m.msgid === "Please enter a valid %s.")!;
  const fine = before.messages.find((m) => m.msgid === "%s: Cannot remove: %s")!;
  const after = {
    ...before,
    messages: before.messages.map((m) =>
      m === fine ? { ...fine, msgstr: "%s : impossible de supprimer" } : m
    ),
  };
  const added = introducedProblems(before, after);
  assert.deepEqual(added.map((p) => [p.msgid, p.check]), [["%s: Cannot remove: %s", "c-format"]]);
  assert.ok(checkCatalog(after).some((p) => p.msgid === broken.msgid), "the old problem is still there");
  assert.deepEqual(introducedProblems(before, before), []);
  // An entry changed but still broken the same way: its former version had the problem, so it is
  // not new (the former version is found by msgctxt and msgid, the header unchanged).
  const stillBroken = {
    ...before,
    messages: before.messages.map((m) => m === broken ? { ...broken, msgstr: `${broken.msgstr} ` } : m),
  };
  const brokenBefore = checkCatalog(before).filter((p) => p.msgid === broken.msgid).map((p) => p.check);
  assert.ok(brokenBefore.length > 0);
  assert.deepEqual(
    introducedProblems(before, stillBroken).filter((p) => brokenBefore.includes(p.check)),
    [],
  );
  // Messages that only moved are not new, whether two swapped places or the whole list turned round.
  const [header, first, second, ...rest] = before.messages;
  const swapped = { ...before, messages: [header!, second!, first!, ...rest] };
  assert.deepEqual(introducedProblems(before, swapped), []);
  const reversed = { ...before, messages: [header!, ...[first!, second!, ...rest].reverse()] };
  assert.deepEqual(introducedProblems(before, reversed), []);
  const reversedAndChanged = { ...after, messages: [header!, ...after.messages.slice(1).reverse()] };
  assert.deepEqual(introducedProblems(before, reversedAndChanged).map((p) => p.msgid), [fine.msgid]);
});

Deno.test("addTotals counts problems by check and by severity", () => {
  const totals = addTotals(checkCatalog(readFixture("cases.po")));
  assert.equal(totals.problems, totals.errors + totals.warnings);
  assert.equal(totals.byCheck["python-format"], 3);
  assert.equal(Object.values(totals.byCheck).reduce((a, b) => a + b, 0), totals.problems);
});

Deno.test("the format parsers agree with the wrap engine's on what is a directive", () => {
  assert.ok(!(parsePythonFormat("%(a)s %%") instanceof InvalidFormat));
  assert.ok(parsePythonFormat("%(a)s %d") instanceof InvalidFormat);
  assert.ok(!(parseCFormat("%'I5d", true) instanceof InvalidFormat));
  assert.ok(parseCFormat("%'I5d", false) instanceof InvalidFormat);
});

Deno.test("docs/checks.md lists every check", () => {
  const doc = Deno.readTextFileSync(new URL("../docs/checks.md", import.meta.url));
  for (const name of CHECK_NAMES) assert.ok(doc.includes(`| \`${name}\``), `docs/checks.md lacks ${name}`);
});

Deno.test("checkCatalogInTurns gives other work a turn between slices and stops when the signal is aborted", async () => {
  const text = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n' +
    Array.from({ length: 3000 }, (_, i) => `\n#, python-format\nmsgid "e${i} %s"\nmsgstr "f${i}"\n`).join("");
  const catalog = parsePo(new TextEncoder().encode(text), "big.po");
  const all = await checkCatalogInTurns(catalog, {});
  assert.deepEqual(all, checkCatalog(catalog));
  assert.equal(all.length, 3000);
  const controller = new AbortController();
  let turns = 0;
  const timer = setInterval(() => {
    if (++turns === 2) controller.abort(new Error("time is up"));
  }, 0);
  try {
    await assert.rejects(checkCatalogInTurns(catalog, {}, controller.signal), /time is up/);
  } finally {
    clearInterval(timer);
  }
  assert.ok(turns >= 2);
});
