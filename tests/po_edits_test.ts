/**
 * Writes that say exactly what they did (issue 24) and dry runs (issue 18, point 6), over a real
 * socket on catalogues with python-format entries: `fuzzy` alone, `mode` update/create with the
 * closest msgids of a typo, honest counts checked against a re-read, no rewrite when nothing
 * changes, and the diff a dry run shows.
 */
import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
import { msgidOf, partlyTranslated, servedCatalogues } from "./_catalogue_server.ts";

// deno-lint-ignore no-explicit-any
type Entry = any;

/** The entries of /po/read, without their lines (a write that adds a line moves the entries after it). */
async function entries(s: { post: (p: string, b: unknown) => Promise<{ body: Entry }> }, file: string) {
  return ((await s.post("/po/read", { file_path: file })).body.entries as Entry[]).map((e) => ({
    ...e,
    line: undefined,
  }));
}

function byMsgid(list: Entry[], msgid: string): Entry {
  const found = list.find((e) => e.msgid === msgid && !e.obsolete);
  assert.ok(found, `an entry ${JSON.stringify(msgid)}`);
  return found;
}

Deno.test("fuzzy: true marks an entry fuzzy and keeps python-format; fuzzy: false clears fuzzy alone", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(40) });
  const file = s.path("fr.po");
  // Entry 8: translated, python-format, not fuzzy. Entry 28: fuzzy, python-format, no-wrap.
  const mark = await s.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [{ msgid: msgidOf(8), msgstr: byMsgid(await entries(s, file), msgidOf(8)).msgstr, fuzzy: true }],
  });
  assert.equal(mark.status, 200);
  assert.equal(mark.type, "application/json");
  assert.deepEqual([mark.body.updated, mark.body.outcomes], [1, ["updated"]]);
  let list = await entries(s, file);
  assert.deepEqual(byMsgid(list, msgidOf(8)).flags, ["fuzzy", "python-format"]);
  assert.match(await Deno.readTextFile(file), /#, fuzzy, python-format\nmsgid "%\(count\)d item number 8 /);

  const clear = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: msgidOf(28), msgstr: byMsgid(list, msgidOf(28)).msgstr, fuzzy: false }],
  });
  assert.deepEqual(clear.body.outcomes, ["updated"]);
  list = await entries(s, file);
  assert.deepEqual(byMsgid(list, msgidOf(28)).flags, ["python-format", "no-wrap"], "no-wrap kept, in order");
  // The old way, flags: ["fuzzy"], still replaces the whole list (its documented meaning).
  const old = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: msgidOf(8), msgstr: byMsgid(list, msgidOf(8)).msgstr, flags: ["fuzzy"] }],
  });
  assert.deepEqual(old.body.outcomes, ["updated"]);
  assert.deepEqual(byMsgid(await entries(s, file), msgidOf(8)).flags, ["fuzzy"]);
});

Deno.test("fuzzy together with flags is refused with 422, and the file is untouched", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  const before = await Deno.readFile(file);
  const res = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: msgidOf(4), msgstr: "x", fuzzy: true, flags: ["python-format"] }],
  });
  assert.equal(res.status, 422);
  assert.equal(res.type, "application/json");
  assert.match(res.body.detail, /give fuzzy \(sets or clears the fuzzy flag, keeping the others\) or flags/);
  assert.deepEqual(await Deno.readFile(file), before);
});

Deno.test("mode update: 200 entries with one typo against 10,000 are refused whole, naming the typo's closest msgids", async () => {
  await using s = await servedCatalogues({ "big.po": partlyTranslated(10_000) });
  const file = s.path("big.po");
  const before = await Deno.readFile(file);
  const mtime = (await Deno.stat(file)).mtime;
  const request = Array.from(
    { length: 200 },
    (_, k) => ({ msgid: msgidOf(k * 50 + 1), msgstr: `Nouveau ${k}` }),
  );
  request[137] = { msgid: msgidOf(137 * 50 + 1).replace("glossary", "glosary"), msgstr: "typo" };
  const started = performance.now();
  const res = await s.post("/po/write", { file_path: file, mode: "update", entries: request });
  const ms = performance.now() - started;
  assert.equal(res.status, 409);
  assert.equal(res.type, "application/json");
  const detail = res.body.detail;
  assert.match(detail.message, /^Nothing was written: 1 of 200 entries do not fit the catalogue/);
  assert.match(detail.message, /entries\[137\] .* has no entry to update: mode "update" changes existing/);
  assert.equal(detail.mode, "update");
  assert.equal(detail.conflicts_total, 1);
  assert.equal(detail.conflicts.length, 1);
  const [conflict] = detail.conflicts;
  assert.deepEqual([conflict.index, conflict.reason, conflict.msgid], [137, "missing", request[137].msgid]);
  assert.deepEqual(conflict.closest[0], { msgctxt: null, msgid: msgidOf(137 * 50 + 1), distance: 1 });
  assert.equal(conflict.closest.length, 3);
  // Thousands of templated msgids of about its length: the search stops at its bound, and says so
  // (the msgid meant was found first all the same, as a neighbour in sorted order).
  assert.equal(conflict.closest_complete, false);
  assert.deepEqual(await Deno.readFile(file), before, "byte-identical");
  assert.deepEqual((await Deno.stat(file)).mtime, mtime, "not rewritten");
  console.log(`  a 200-entry update refused against 10,000 entries in ${ms.toFixed(0)} ms (parse included)`);
});

Deno.test("mode update: counts are honest, per entry in request order, and agree with a re-read", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(30) });
  const file = s.path("fr.po");
  const list = await entries(s, file);
  const res = await s.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [
      { msgid: msgidOf(3), msgstr: "Entrée trois" }, // untranslated → translated
      { msgid: msgidOf(5), msgstr: byMsgid(list, msgidOf(5)).msgstr }, // as it is
      { msgid: msgidOf(4), msgstr: byMsgid(list, msgidOf(4)).msgstr, fuzzy: false }, // not fuzzy already
      { msgid: msgidOf(6), msgstr: "Six", expected_msgstr: "" }, // untranslated, as read
      { msgid: msgidOf(5), msgstr: byMsgid(list, msgidOf(5)).msgstr, tcomment: "checked" }, // wins over [1]
    ],
  });
  assert.equal(res.status, 200);
  assert.deepEqual(
    [res.body.created, res.body.updated, res.body.unchanged, res.body.revived],
    [0, 3, 1, 0],
  );
  assert.deepEqual(res.body.outcomes, ["updated", "superseded", "unchanged", "updated", "updated"]);
  assert.equal(res.body.written, true);
  const after = await entries(s, file);
  assert.equal(after.length, list.length, "nothing added");
  const changed = after.filter((e, i) => JSON.stringify(e) !== JSON.stringify(list[i]));
  assert.deepEqual(changed.map((e) => e.msgid), [msgidOf(3), msgidOf(5), msgidOf(6)]);
  assert.equal(byMsgid(after, msgidOf(5)).tcomment, "checked");
  assert.deepEqual(byMsgid(after, msgidOf(4)), byMsgid(list, msgidOf(4)));
});

Deno.test("mode update does not revive an obsolete entry, and says only an obsolete one has it", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(5) });
  const file = s.path("fr.po");
  const before = await Deno.readFile(file);
  const res = await s.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [{ msgid: "Gone", msgstr: "Revenu" }],
  });
  assert.equal(res.status, 409);
  assert.deepEqual(res.body.detail.conflicts[0].obsolete_exists, true);
  assert.match(res.body.detail.message, /only an obsolete #~ entry has it/);
  assert.deepEqual(await Deno.readFile(file), before);
  // upsert (the default) revives it, as before.
  const upsert = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Gone", msgstr: "Revenu" }],
  });
  assert.deepEqual([upsert.body.revived, upsert.body.outcomes], [1, ["revived"]]);
});

Deno.test("mode create adds new entries only: an existing one is refused with its translation", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(5) });
  const file = s.path("fr.po");
  const before = await Deno.readFile(file);
  const refused = await s.post("/po/write", {
    file_path: file,
    mode: "create",
    entries: [{ msgid: "Brand new", msgstr: "Tout neuf" }, { msgid: msgidOf(1), msgstr: "Autre" }],
  });
  assert.equal(refused.status, 409);
  assert.deepEqual(refused.body.detail.conflicts, [{
    index: 1,
    msgid: msgidOf(1),
    msgctxt: null,
    key: { msgctxt: null, msgid: msgidOf(1) },
    reason: "exists",
    msgstr: "Entrée numéro 1 du glossaire : voir la section 1 du tutoriel",
    msgstr_plural: {},
  }]);
  assert.match(
    refused.body.detail.message,
    /entries\[1\] .* already exists: mode "create" adds new entries only/,
  );
  assert.deepEqual(await Deno.readFile(file), before);
  const ok = await s.post("/po/write", {
    file_path: file,
    mode: "create",
    entries: [{ msgid: "Brand new", msgstr: "Tout neuf", fuzzy: true }, { msgid: "Gone", msgstr: "Revenu" }],
  });
  assert.equal(ok.status, 200);
  assert.deepEqual([ok.body.created, ok.body.revived, ok.body.outcomes], [1, 1, ["created", "revived"]]);
  assert.deepEqual(byMsgid(await entries(s, file), "Brand new").flags, ["fuzzy"]);
});

Deno.test("a write in which nothing changes keeps the file's bytes, mtime and revision", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(20) });
  const file = s.path("fr.po");
  const list = await entries(s, file);
  const before = await Deno.readFile(file);
  const stat = await Deno.stat(file);
  const first = await s.post("/po/write", { file_path: file, entries: [] });
  await new Promise((resolve) => setTimeout(resolve, 20)); // a rewrite would now show in the mtime
  const res = await s.post("/po/write", {
    file_path: file,
    entries: [
      { msgid: msgidOf(4), msgstr: byMsgid(list, msgidOf(4)).msgstr, fuzzy: false },
      { msgid: msgidOf(7), msgstr: byMsgid(list, msgidOf(7)).msgstr, fuzzy: true },
      { msgid: "%d file", msgstr: "", msgstr_plural: { 0: "%d fichier", 1: "%d fichiers" } },
    ],
  });
  assert.equal(res.status, 200);
  assert.deepEqual([res.body.updated, res.body.unchanged], [0, 3]);
  assert.equal(res.body.written, false);
  assert.match(res.body.message, /^Nothing to write: /);
  assert.equal(res.body.revision, first.body.revision);
  assert.deepEqual(await Deno.readFile(file), before);
  const now = await Deno.stat(file);
  assert.deepEqual([now.mtime, now.ino], [stat.mtime, stat.ino], "not rewritten");
});

Deno.test("dry_run answers the exact diff the write then makes, and writes nothing", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(60) });
  const file = s.path("fr.po");
  const before = await Deno.readFile(file);
  const mtime = (await Deno.stat(file)).mtime;
  const request = {
    file_path: file,
    entries: [
      { msgid: msgidOf(3), msgstr: "Entrée trois" },
      { msgid: msgidOf(8), msgstr: "%(count)d élément huit dans %(place)s", fuzzy: true },
      { msgid: "Added at the end", msgstr: "Ajouté", occurrences: ["../../glossary.rst:999"] },
    ],
  };
  const dry = await s.post("/po/write", { ...request, dry_run: true });
  assert.equal(dry.status, 200);
  assert.deepEqual([dry.body.created, dry.body.updated, dry.body.written], [1, 2, false]);
  assert.match(dry.body.message, /^Dry run: nothing was written/);
  assert.deepEqual(await Deno.readFile(file), before, "nothing written");
  assert.deepEqual((await Deno.stat(file)).mtime, mtime);
  assert.match(dry.body.diff, /^--- .*fr\.po\n\+\+\+ .*fr\.po\n@@ /);
  assert.match(dry.body.diff, /\n-#, python-format\n\+#, fuzzy, python-format\n/);

  const real = await s.post("/po/write", request);
  assert.deepEqual(real.body.outcomes, dry.body.outcomes);
  assert.notEqual(real.body.revision, dry.body.revision);
  const written = await Deno.readTextFile(file);
  assert.equal(applyUnifiedDiff(new TextDecoder().decode(before), dry.body.diff), written);
  // An empty dry run of the new file: no diff.
  const again = await s.post("/po/write", { ...request, dry_run: true });
  assert.deepEqual([again.body.diff, again.body.revision], ["", real.body.revision]);
});

Deno.test(
  "the dry run's diff applies with GNU patch",
  { ignore: lacks(import.meta.url, "patch") },
  async () => {
    await using s = await servedCatalogues({ "fr.po": partlyTranslated(300) });
    const file = s.path("fr.po");
    const request = {
      file_path: file,
      entries: Array.from({ length: 40 }, (_, k) => ({ msgid: msgidOf(k * 7 + 2), msgstr: `Nouveau ${k}` })),
    };
    const dry = await s.post("/po/write", { ...request, dry_run: true });
    const copy = `${s.root}/copy.po`;
    await Deno.copyFile(file, copy);
    const out = await new Deno.Command("patch", { args: ["--quiet", copy], stdin: "piped" }).spawn();
    const writer = out.stdin.getWriter();
    await writer.write(new TextEncoder().encode(dry.body.diff));
    await writer.close();
    assert.equal((await out.status).code, 0);
    await s.post("/po/write", request);
    assert.deepEqual(await Deno.readFile(copy), await Deno.readFile(file));
  },
);

Deno.test(
  "what a write leaves is what msgcat prints for it",
  { ignore: lacks(import.meta.url, "msgcat") },
  async () => {
    await using s = await servedCatalogues({ "fr.po": partlyTranslated(50) });
    const file = s.path("fr.po");
    await s.post("/po/write", {
      file_path: file,
      mode: "update",
      entries: [{ msgid: msgidOf(8), msgstr: "%(count)d x %(place)s", fuzzy: true }, {
        msgid: msgidOf(28),
        msgstr: "y",
        fuzzy: false,
      }],
    });
    const msgcat = await new Deno.Command("msgcat", { args: [file] }).output();
    assert.equal(msgcat.code, 0);
    assert.deepEqual(msgcat.stdout, await Deno.readFile(file));
  },
);

/** Applies a unified diff to a text (hunks in order; context and removed lines checked). */
function applyUnifiedDiff(before: string, diff: string): string {
  const a = before.split("\n");
  a.pop(); // the text ends with a newline
  const out: string[] = [];
  let at = 0;
  for (const line of diff.split("\n").slice(2, -1)) {
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(line);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (at < start) out.push(a[at++] ?? "");
    } else if (line.startsWith(" ")) {
      assert.equal(a[at], line.slice(1));
      out.push(a[at++]!); // just compared equal to a line
    } else if (line.startsWith("-")) {
      assert.equal(a[at++], line.slice(1));
    } else if (line.startsWith("+")) out.push(line.slice(1));
  }
  while (at < a.length) out.push(a[at++]!); // at < a.length
  return out.map((l) => l + "\n").join("");
}

Deno.test("mode update on a missing file is a 404 and creates nothing; upsert creates it as before", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(3) });
  const file = s.path("new.po");
  for (const entries of [[], [{ msgid: "Save", msgstr: "Enregistrer" }]]) {
    const res = await s.post("/po/write", { file_path: file, mode: "update", entries });
    assert.equal(res.status, 404);
    assert.equal(
      res.body.detail,
      `File not found: ${file} (mode "update" changes entries of an existing catalogue)`,
    );
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  }
  const dry = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Save", msgstr: "Enregistrer" }],
    dry_run: true,
  });
  assert.deepEqual([dry.status, dry.body.revision, dry.body.outcomes], [200, null, ["created"]]);
  assert.match(dry.body.diff, /^--- .*\n\+\+\+ .*\n@@ -0,0 \+1,\d+ @@\n\+msgid ""\n/);
  await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  const created = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Save", msgstr: "Enregistrer" }],
  });
  assert.deepEqual([created.status, created.body.written], [200, true]);
  assert.equal(applyUnifiedDiff("", dry.body.diff), await Deno.readTextFile(file));
});

Deno.test(
  "on a real python-docs catalogue: fuzzy keeps python-format, a typo is refused, and msgcat agrees",
  {
    ignore: lacks(import.meta.url, "shared", "msgcat"),
  },
  async () => {
    // Laid out by msgcat already (tests/po_write_test.ts): a write that changes nothing leaves it as it is.
    const corpus = new URL("../../shared/corpus/po/es__c-api__unicode.po", import.meta.url);
    await using s = await servedCatalogues({ "unicode.po": await Deno.readTextFile(corpus) });
    const file = s.path("unicode.po");
    const literal = "The literal ``%`` character."; // fuzzy, python-format
    const support = 'Support for ``"%li"``, ``"%lli"`` and ``"%zi"`` added.'; // python-format
    const typo = await s.post("/po/write", {
      file_path: file,
      mode: "update",
      entries: [
        { msgid: literal, msgstr: "El carácter literal ``%``.", fuzzy: false },
        { msgid: support.replace("added", "aded"), msgstr: "x" },
      ],
    });
    assert.equal(typo.status, 409);
    assert.deepEqual(typo.body.detail.conflicts[0].closest[0], {
      msgctxt: null,
      msgid: support,
      distance: 1,
    });
    const list = await entries(s, file);
    const res = await s.post("/po/write", {
      file_path: file,
      mode: "update",
      entries: [
        { msgid: literal, msgstr: "El carácter literal ``%``.", fuzzy: false },
        { msgid: support, msgstr: byMsgid(list, support).msgstr, fuzzy: true },
        { msgid: support, msgstr: byMsgid(list, support).msgstr },
      ],
    });
    assert.deepEqual([res.status, res.body.outcomes], [200, ["updated", "superseded", "unchanged"]]);
    const after = await entries(s, file);
    assert.deepEqual(byMsgid(after, literal).flags, ["python-format"]);
    assert.deepEqual(byMsgid(after, support).flags, ["python-format"]);
    const msgcat = await new Deno.Command("msgcat", { args: [file] }).output();
    assert.deepEqual(msgcat.stdout, await Deno.readFile(file));
  },
);
