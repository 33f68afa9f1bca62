/**
 * Issue 40.2: a request's plural forms are bounded everywhere it gives them, and every check reads
 * an entry's original once, whatever the number of forms: the work (characters read, counted by
 * tests/_work.ts, not timed) grows with the request's size, not forms × the original's length.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CHECK_NAMES, checkMessage, MAX_CHECKED_ENTRY_CHARS } from "../lib/po/checks/mod.ts";
import { messageOfEntry } from "../lib/po/checks/request.ts";
import { MAX_PLURAL_FORMS } from "../lib/po/operations/apply_write.ts";
import { partlyTranslated } from "./_catalogue_server.ts";
import { servedCatalogues } from "./_catalogue_server.ts";
import { countReads } from "./_work.ts";

/** Text dense in everything the checks look at: roles, links, placeholders, tags, URLs, addresses, tabs. */
const UNIT = "See `os.path <https://docs.python.org/x>`_ and %(n)d <b>x</b> :ref:`foo` :term:`bar` " +
  "a@b.org http://e.com/ \t";
const text = (n: number) => UNIT.repeat(Math.ceil(n / UNIT.length)).slice(0, n);

function forms(n: number, make: (i: number) => string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), make(i)]));
}

Deno.test("/po/write refuses more plural forms than the documented bound, over HTTP, dry run or not", async () => {
  assert.equal(MAX_PLURAL_FORMS, 100);
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(5) });
  const entry = (n: number) => ({
    msgid: "%d file",
    msgid_plural: text(200_000),
    msgstr: "",
    msgstr_plural: forms(n, (i) => `${i} fichiers`),
  });
  // The red team's request: 640 forms and a 200 KB msgid_plural (it stalled 7.3 s in the checks).
  for (const dry_run of [true, false]) {
    const res = await s.post("/po/write", { file_path: s.path("fr.po"), entries: [entry(640)], dry_run });
    assert.equal(res.status, 422, JSON.stringify(res.body).slice(0, 300));
    assert.match(JSON.stringify(res.body), /at most 100 plural forms \(\\"0\\" to \\"99\\"\)/);
  }
  const ok = await s.post("/po/write", {
    file_path: s.path("fr.po"),
    entries: [entry(MAX_PLURAL_FORMS)],
    dry_run: true,
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body).slice(0, 300));
  const check = await s.post("/po/check", { entry: entry(MAX_PLURAL_FORMS + 1) });
  assert.equal(check.status, 422);
});

Deno.test("every check reads a plural entry's original once, whatever the number of forms", () => {
  const original = text(20_000);
  const readsWith = (n: number, checks?: string[]) => {
    const m = messageOfEntry({
      msgid: "%(n)d file",
      msgid_plural: original,
      msgstr_plural: forms(n, (i) => `x${i} <b>`),
      flags: ["python-format"],
      occurrences: ["a.rst:1"],
    });
    return countReads(() => checkMessage(m, checks === undefined ? {} : { checks })).reads;
  };
  // 10 forms → 100 forms adds 90 short forms: the work may grow by their size, not 9 × 20,000.
  const all10 = readsWith(10);
  const all100 = readsWith(100);
  assert.ok(all100 < all10 * 1.5, `default checks: ${all10} reads with 10 forms, ${all100} with 100`);
  for (const name of CHECK_NAMES) {
    if (["syntax", "file", "size", "plural-forms", "duplicates", "charset"].includes(name)) continue;
    const r10 = readsWith(10, [name]);
    const r100 = readsWith(100, [name]);
    assert.ok(r100 <= r10 * 1.5 + 20_000, `${name}: ${r10} reads with 10 forms, ${r100} with 100`);
  }
});

Deno.test("a check's work is linear in a long entry: four times the text, at most ~four times the reads", () => {
  const readsFor = (n: number) => {
    const m = messageOfEntry({
      msgid: text(n),
      msgid_plural: text(n),
      msgstr_plural: forms(2, () => text(n)),
      flags: ["python-format"],
      occurrences: ["a.rst:1"],
    });
    return countReads(() => checkMessage(m, {})).reads;
  };
  const small = readsFor(12_500);
  const big = readsFor(50_000);
  assert.ok(big < small * 5, `${small} reads for 12.5k, ${big} for 50k`);
});

Deno.test("an entry longer than the checks look at gets one size warning, over HTTP, and no check reads it", async () => {
  assert.equal(MAX_CHECKED_ENTRY_CHARS, 262_144);
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(5) });
  // The red team's /po/check was 100 forms of 7.8 KB and a 780 KB msgid_plural (1.56 MB, 12.1 s);
  // the test server takes 1 MiB bodies: 200 KB and 100 forms of 1 KB are past the bound too.
  const entry = {
    msgid: "%(n)d file",
    msgid_plural: text(200_000),
    msgstr_plural: forms(100, () => text(1_000)),
    flags: ["python-format"],
    occurrences: ["library/os.rst:1"],
  };
  const res = await s.post("/po/check", { entry });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.deepEqual(res.body.problems.map((p: { check: string }) => p.check), ["size"]);
  assert.match(
    res.body.problems[0].message,
    /^this entry is 300010 characters long: the checks look at entries of at most 262144/,
  );
  const m = messageOfEntry(entry);
  assert.ok(countReads(() => checkMessage(m, {})).reads < 1000);
  // At the bound, the entry is checked.
  const atBound = messageOfEntry({ msgid: "x", msgstr: text(MAX_CHECKED_ENTRY_CHARS - 1) });
  assert.ok(!checkMessage(atBound, {}).some((p) => p.check === "size"));
});
