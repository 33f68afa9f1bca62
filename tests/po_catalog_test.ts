import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
import { InvalidInputError, UnwritableCatalogError } from "../lib/errors.ts";
import {
  applyWrite,
  encodePo,
  formatPo,
  listEntries,
  parsePo,
  readContext,
  toApiEntry,
} from "../lib/po/mod.ts";
import { findFuzzy } from "../lib/po/operations/catalog.ts";
import { NEW_CATALOG_HEADER } from "../lib/po/operations/apply_write.ts";
import type { ApiEntry, PoCatalog } from "../lib/po/mod.ts";
import { forEachDuplicate, knownUnique } from "../lib/po/read/_duplicates.ts";

const SAMPLE = `# header comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

# translator note
#. extracted note
#: src/a.py:10 README
#, fuzzy, python-format
#| msgid "Old hello"
msgid "Hello"
msgstr "Bonjour"

msgctxt "menu"
msgid "Open"
msgstr "Ouvrir"

msgid "Open"
msgstr "Ouvrez"

msgctxt ""
msgid "Save"
msgstr "Enregistrer (contexte vide)"

msgid "one file"
msgid_plural "%d files"
msgstr[0] "un fichier"
msgstr[1] "%d fichiers"

#, fuzzy
msgid "Untranslated"
msgstr ""

#~ msgid "Gone"
#~ msgstr "Parti"

#, fuzzy
#~ msgid "Old fuzzy"
#~ msgstr "Ancien"
`;

function sample(): PoCatalog {
  return parsePo(new TextEncoder().encode(SAMPLE), "sample.po");
}

function entry(partial: Partial<ApiEntry>): ApiEntry {
  return {
    msgid: "",
    msgstr: "",
    msgctxt: null,
    comment: "",
    tcomment: "",
    occurrences: [],
    flags: [],
    msgid_plural: null,
    msgstr_plural: {},
    previous_msgid: null,
    previous_msgctxt: null,
    obsolete: false,
    ...partial,
  };
}

/** The catalogue after writing is what reading the written file back gives; returns the text. */
function assertStable(cat: PoCatalog): string {
  const text = formatPo(cat);
  assert.deepEqual(parsePo(encodePo(cat), cat.fileName), cat);
  return text;
}

Deno.test("listEntries returns every entry in file order, header excluded, obsolete included", () => {
  const list = listEntries(sample());
  assert.deepEqual(list.map((e) => [e.msgctxt, e.msgid, e.obsolete]), [
    [null, "Hello", false],
    ["menu", "Open", false],
    [null, "Open", false],
    ["", "Save", false],
    [null, "one file", false],
    [null, "Untranslated", false],
    [null, "Gone", true],
    [null, "Old fuzzy", true],
  ]);
  assert.deepEqual(
    list[0],
    entry({
      msgid: "Hello",
      msgstr: "Bonjour",
      comment: "extracted note",
      tcomment: "translator note",
      occurrences: ["src/a.py:10", "README"],
      flags: ["fuzzy", "python-format"],
      previous_msgid: "Old hello",
    }),
  );
  assert.deepEqual(
    list[4],
    entry({
      msgid: "one file",
      msgid_plural: "%d files",
      msgstr_plural: { "0": "un fichier", "1": "%d fichiers" },
    }),
  );
});

Deno.test("findFuzzy returns the fuzzy entries, obsolete ones included", () => {
  assert.deepEqual(findFuzzy(sample()).map((e) => e.msgid), ["Hello", "Untranslated", "Old fuzzy"]);
});

Deno.test("readContext", async (t) => {
  const cat = sample();
  await t.step("finds the entry without context when msgctxt is null", () => {
    const w = readContext(cat, "Open", null, 1);
    assert.equal(w.target_entry?.msgstr, "Ouvrez");
    assert.deepEqual(w.context_before.map((e) => e.msgstr), ["Ouvrir"]);
    assert.deepEqual(w.context_after.map((e) => e.msgid), ["Save"]);
  });
  await t.step("finds the entry with the given context", () => {
    assert.equal(readContext(cat, "Open", "menu", 1).target_entry?.msgstr, "Ouvrir");
  });
  await t.step('"" matches only msgctxt ""', () => {
    assert.equal(readContext(cat, "Save", "", 0).target_entry?.msgstr, "Enregistrer (contexte vide)");
    assert.equal(readContext(cat, "Save", null, 0).target_entry, null);
  });
  await t.step("clips the window at the ends, header excluded", () => {
    const first = readContext(cat, "Hello", null, 3);
    assert.deepEqual(first.context_before, []);
    assert.deepEqual(first.context_after.map((e) => e.msgid), ["Open", "Open", "Save"]);
    const last = readContext(cat, "Old fuzzy", null, 5);
    assert.equal(last.context_before.length, 5);
    assert.deepEqual(last.context_after, []);
  });
  await t.step("context_size 0 gives the entry alone", () => {
    const w = readContext(cat, "Gone", null, 0);
    assert.equal(w.target_entry?.obsolete, true);
    assert.deepEqual([w.context_before, w.context_after], [[], []]);
  });
  await t.step("no match", () => {
    assert.deepEqual(readContext(cat, "Missing", null, 2), {
      target_entry: null,
      context_before: [],
      context_after: [],
    });
  });
});

Deno.test("applyWrite updates an entry and keeps what the request omits", async (t) => {
  await t.step("omitted occurrences, flags, comments and previous msgid are kept", () => {
    const { catalog, created, updated } = applyWrite(sample(), [{ msgid: "Hello", msgstr: "Salut" }]);
    assert.deepEqual([created, updated], [0, 1]);
    assert.deepEqual(
      listEntries(catalog)[0],
      entry({
        msgid: "Hello",
        msgstr: "Salut",
        comment: "extracted note",
        tcomment: "translator note",
        occurrences: ["src/a.py:10", "README"],
        flags: ["fuzzy", "python-format"],
        previous_msgid: "Old hello",
      }),
    );
  });
  await t.step("flags [] clears fuzzy; given occurrences replace the old ones", () => {
    const { catalog } = applyWrite(sample(), [{
      msgid: "Hello",
      msgstr: "Salut",
      flags: [],
      occurrences: ["src/b.py:3", "lib/c.py:", "C:\\x\\y.py:7"],
      previous_msgid: null,
    }]);
    const e = listEntries(catalog)[0]!;
    assert.deepEqual(e.flags, []);
    assert.deepEqual(e.occurrences, ["src/b.py:3", "lib/c.py", "C:\\x\\y.py:7"]);
    assert.equal(e.previous_msgid, null);
    const text = assertStable(catalog);
    assert.match(
      text,
      /#\. extracted note\n#: src\/b\.py:3 lib\/c\.py C:\\x\\y\.py:7\nmsgid "Hello"\nmsgstr "Salut"\n/,
    );
  });
  await t.step("null comment and tcomment keep them; strings replace them", () => {
    const kept = applyWrite(sample(), [{ msgid: "Hello", msgstr: "x", comment: null, tcomment: null }]);
    assert.equal(listEntries(kept.catalog)[0]?.comment, "extracted note");
    const replaced = applyWrite(sample(), [{ msgid: "Hello", msgstr: "x", comment: "a\nb", tcomment: "" }]);
    assert.deepEqual(
      [listEntries(replaced.catalog)[0]?.comment, listEntries(replaced.catalog)[0]?.tcomment],
      [
        "a\nb",
        "",
      ],
    );
    assert.match(assertStable(replaced.catalog), /\n#\. a\n#\. b\n#: src/);
  });
  await t.step("plural forms", () => {
    const { catalog } = applyWrite(sample(), [{
      msgid: "one file",
      msgstr: "",
      msgstr_plural: { "1": "%d fich.", "0": "1 fich." },
    }]);
    assert.deepEqual(listEntries(catalog)[4]?.msgstr_plural, { "0": "1 fich.", "1": "%d fich." });
    assert.match(assertStable(catalog), /msgstr\[0\] "1 fich\."\nmsgstr\[1\] "%d fich\."\n/);
  });
  await t.step("the input catalogue and its messages are not modified", () => {
    const cat = sample();
    const before = structuredClone(cat.messages);
    const messages = cat.messages.slice();
    const { catalog } = applyWrite(cat, [{ msgid: "Hello", msgstr: "x", flags: [] }, {
      msgid: "New",
      msgstr: "y",
    }]);
    assert.deepEqual(cat.messages, before);
    assert.ok(cat.messages.every((m, i) => m === messages[i]));
    assert.notEqual(catalog.messages[1], cat.messages[1]);
    assert.equal(catalog.messages[2], cat.messages[2], "untouched messages are shared");
  });
});

Deno.test("applyWrite matches msgctxt: null, absent and empty mean no context", async (t) => {
  for (const msgctxt of [null, undefined, ""]) {
    await t.step(`msgctxt ${JSON.stringify(msgctxt)}`, () => {
      const { catalog, updated, created } = applyWrite(sample(), [{ msgid: "Open", msgstr: "X", msgctxt }]);
      assert.deepEqual([updated, created], [1, 0]);
      assert.deepEqual(listEntries(catalog).filter((e) => e.msgid === "Open").map((e) => e.msgstr), [
        "Ouvrir",
        "X",
      ]);
    });
  }
  await t.step("a context updates the entry with that context", () => {
    const { catalog } = applyWrite(sample(), [{ msgid: "Open", msgstr: "X", msgctxt: "menu" }]);
    assert.deepEqual(listEntries(catalog).filter((e) => e.msgid === "Open").map((e) => e.msgstr), [
      "X",
      "Ouvrez",
    ]);
  });
  await t.step(
    'an entry with msgctxt "" in the file is not targeted: a new entry without context is added',
    () => {
      const { catalog, created } = applyWrite(sample(), [{ msgid: "Save", msgstr: "S" }]);
      assert.equal(created, 1);
      assert.deepEqual(
        listEntries(catalog).filter((e) => e.msgid === "Save").map((e) => [e.msgctxt, e.msgstr]),
        [
          ["", "Enregistrer (contexte vide)"],
          [null, "S"],
        ],
      );
      assertStable(catalog);
    },
  );
});

Deno.test("applyWrite appends new entries after the last non-obsolete one", () => {
  const { catalog, created } = applyWrite(sample(), [
    { msgid: "New 1", msgstr: "N1", occurrences: ["x.py:1"], flags: ["fuzzy"], tcomment: "t", comment: "c" },
    { msgid: "New 2", msgstr: "N2", msgctxt: "ctx" },
  ]);
  assert.equal(created, 2);
  assert.deepEqual(listEntries(catalog).map((e) => e.msgid).slice(5), [
    "Untranslated",
    "New 1",
    "New 2",
    "Gone",
    "Old fuzzy",
  ]);
  assert.deepEqual(
    listEntries(catalog)[6],
    entry({
      msgid: "New 1",
      msgstr: "N1",
      occurrences: ["x.py:1"],
      flags: ["fuzzy"],
      tcomment: "t",
      comment: "c",
    }),
  );
  const text = assertStable(catalog);
  assert.match(
    text,
    /msgstr ""\n\n# t\n#\. c\n#: x\.py:1\n#, fuzzy\nmsgid "New 1"\nmsgstr "N1"\n\nmsgctxt "ctx"\nmsgid "New 2"\n/,
  );
});

Deno.test("applyWrite revives an obsolete entry instead of duplicating it", () => {
  const { catalog, created, revived } = applyWrite(sample(), [{ msgid: "Gone", msgstr: "Revenu" }]);
  assert.deepEqual([created, revived], [0, 1]);
  const list = listEntries(catalog);
  assert.deepEqual(list.filter((e) => e.msgid === "Gone"), [entry({ msgid: "Gone", msgstr: "Revenu" })]);
  assert.deepEqual(list.map((e) => e.msgid).slice(-3), ["Untranslated", "Gone", "Old fuzzy"]);
  assertStable(catalog);
});

Deno.test("applyWrite keeps the last of duplicate request entries", () => {
  const { catalog, created, updated, duplicatesDropped } = applyWrite(sample(), [
    { msgid: "Hello", msgstr: "first" },
    { msgid: "New", msgstr: "a" },
    { msgid: "Hello", msgstr: "second", msgctxt: "" },
    { msgid: "New", msgstr: "b" },
  ]);
  assert.deepEqual([created, updated, duplicatesDropped], [1, 1, 2]);
  const list = listEntries(catalog);
  assert.equal(list[0]?.msgstr, "second");
  assert.deepEqual(list.filter((e) => e.msgid === "New").map((e) => e.msgstr), ["b"]);
});

Deno.test("applyWrite on a missing file creates a catalogue msgcat accepts", () => {
  const { catalog, created } = applyWrite(null, [{ msgid: "Hello", msgstr: "Grüß dich" }, { msgid: "Bye" }]);
  assert.equal(created, 2);
  assert.equal(catalog.charset, "UTF-8");
  const text = assertStable(catalog);
  assert.equal(
    text,
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"MIME-Version: 1.0\\n"\n' +
      '"Content-Transfer-Encoding: 8bit\\n"\n\nmsgid "Hello"\nmsgstr "Grüß dich"\n\nmsgid "Bye"\nmsgstr ""\n',
  );
  assert.equal(catalog.messages[0]?.msgstr, NEW_CATALOG_HEADER);
});

Deno.test("applyWrite creates plural entries with the header's number of forms", () => {
  const { catalog } = applyWrite(sample(), [{ msgid: "a dog", msgid_plural: "%d dogs", msgstr: "un chien" }]);
  const e = listEntries(catalog).find((x) => x.msgid === "a dog")!;
  assert.deepEqual([e.msgstr, e.msgstr_plural], ["", { "0": "un chien", "1": "" }]);
  assertStable(catalog);
});

Deno.test("applyWrite refuses what cannot be written", async (t) => {
  await t.step("a catalogue in a charset the writer does not cover", () => {
    const tw = parsePo(
      new TextEncoder().encode('msgid ""\nmsgstr "Content-Type: text/plain; charset=EUC-TW\\n"\n'),
    );
    assert.throws(
      () => applyWrite(tw, [{ msgid: "a", msgstr: "b" }]),
      (e) =>
        e instanceof UnwritableCatalogError &&
        e.message ===
          'Cannot write to a catalogue in charset "EUC-TW": EUC-TW catalogues cannot be updated ' +
            "(convert it with msgconv --to-code=UTF-8 first)",
    );
  });
  const cases: [string, object, RegExp][] = [
    [
      "the header",
      { msgid: "", msgstr: "x" },
      /^Invalid entry: msgid "" without msgctxt is the catalogue header/,
    ],
    [
      "a NUL character",
      { msgid: "a\0" },
      /^Invalid msgid of the entry with msgid "a\\u0000": it contains a NUL character/,
    ],
    [
      "white space in an occurrence",
      { msgid: "a", occurrences: ["my file.c:1"] },
      /^Invalid occurrence "my file\.c:1"/,
    ],
    [
      "msgstr_plural without msgid_plural",
      { msgid: "a", msgstr_plural: { "0": "x" } },
      /msgstr_plural is given but/,
    ],
    [
      "a bad plural key",
      { msgid: "one file", msgstr_plural: { "x": "y" } },
      /^Invalid msgstr_plural key "x"/,
    ],
    [
      "previous_msgctxt alone",
      { msgid: "Open", previous_msgctxt: "p" },
      /previous_msgctxt needs a previous_msgid/,
    ],
  ];
  for (const [name, e, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => applyWrite(sample(), [e as { msgid: string }]),
        (err) => err instanceof InvalidInputError && message.test(err.message),
      );
    });
  }
  await t.step("non-ASCII text in a catalogue whose header names no charset is refused when encoding", () => {
    const ascii = parsePo(
      new TextEncoder().encode('msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\nmsgid "a"\nmsgstr "b"\n'),
    );
    const { catalog } = applyWrite(ascii, [{ msgid: "a", msgstr: "é" }]);
    assert.throws(() => encodePo(catalog), UnwritableCatalogError);
  });
});

Deno.test("toApiEntry shows a reference without line as its file name", () => {
  const m = sample().messages[1]!;
  assert.deepEqual(toApiEntry({ ...m, references: [{ file: "./x.c", line: null }] }).occurrences, ["./x.c"]);
});

Deno.test("catalogues written by applyWrite are what msgcat prints for them", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async () => {
  const results = [
    applyWrite(null, [{ msgid: "Hello", msgstr: "Grüß dich", occurrences: ["a.py:1"], flags: ["fuzzy"] }])
      .catalog,
    applyWrite(sample(), [
      { msgid: "Hello", msgstr: "Salut", flags: [] },
      { msgid: "Gone", msgstr: "Revenu" },
      { msgid: "a dog", msgid_plural: "%d dogs", msgstr_plural: { "0": "un chien", "1": "%d chiens" } },
      {
        msgid: "Long",
        msgstr:
          "Une traduction assez longue pour être coupée par msgcat à la largeur de soixante-dix-neuf colonnes",
      },
      { msgid: "Open", msgstr: "X", obsolete: true },
    ]).catalog,
  ];
  const dir = await Deno.makeTempDir();
  try {
    for (const [i, cat] of results.entries()) {
      const path = `${dir}/${i}.po`;
      const bytes = encodePo(cat);
      await Deno.writeFile(path, bytes);
      const r = await new Deno.Command("msgcat", { args: [path], stdout: "piped", stderr: "piped" }).output();
      assert.ok(r.success, new TextDecoder().decode(r.stderr));
      assert.equal(new TextDecoder().decode(r.stdout), new TextDecoder().decode(bytes));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("applyWrite keeps a list known free of duplicates so, and only then", () => {
  const writes: ApiEntry[][] = [
    [entry({ msgid: "Hello", msgstr: "Salut" })],
    [entry({ msgid: "New", msgstr: "Nouveau" }), entry({ msgid: "Open", msgctxt: "menu", msgstr: "O" })],
    [entry({ msgid: "Gone", msgstr: "Revenu" })], // revives the obsolete twin
    [entry({ msgid: "Open", msgstr: "x", obsolete: true })],
  ];
  let cat = sample();
  forEachDuplicate(cat.messages, () => true); // the read checks it: known unique from here
  assert.ok(knownUnique(cat.messages));
  for (const write of writes) {
    cat = applyWrite(cat, write).catalog;
    assert.ok(knownUnique(cat.messages));
    const found: number[] = [];
    forEachDuplicate([...cat.messages], (first, second) => (found.push(first, second), true));
    assert.deepEqual(found, [], "a copy of the list, checked in full, has no duplicates either");
    assertStable(cat);
  }
  // A list read leniently with a duplicate in it is not taken for one without.
  const dup = parsePo(new TextEncoder().encode(SAMPLE + '\nmsgid "Hello"\nmsgstr "again"\n'), {
    fileName: "d.po",
    strict: false,
  });
  assert.ok(!knownUnique(dup.messages));
  assert.ok(!knownUnique(applyWrite(dup, [entry({ msgid: "Open", msgstr: "y" })]).catalog.messages));
});

Deno.test("a revived obsolete entry is counted as revived and is not fuzzy unless the request says so", () => {
  const text = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
    'msgid "Open"\nmsgstr "Öffnen"\n\n' +
    '# kept comment\n#, fuzzy, python-format\n#~| msgid "Quit now"\n#~ msgctxt "menu"\n#~ msgid "Quit"\n#~ msgstr "Beenden"\n';
  const revive = (flags?: string[]) =>
    applyWrite(parsePo(new TextEncoder().encode(text)), [{
      msgid: "Quit",
      msgctxt: "menu",
      msgstr: "Schließen",
      flags,
    }]);
  const plain = revive();
  assert.deepEqual([plain.created, plain.updated, plain.revived], [0, 0, 1]);
  const quit = listEntries(plain.catalog).find((e) => e.msgid === "Quit")!;
  assert.equal(quit.obsolete, false);
  assert.equal(quit.msgstr, "Schließen");
  assert.deepEqual(quit.flags, ["python-format"], "fuzzy dropped, the format flag kept");
  assert.equal(quit.previous_msgid, null);
  assert.equal(quit.tcomment, "kept comment");
  assertStable(plain.catalog);
  const fuzzy = listEntries(revive(["fuzzy", "python-format"]).catalog).find((e) => e.msgid === "Quit")!;
  assert.deepEqual(fuzzy.flags, ["fuzzy", "python-format"]);
});
