/**
 * The PO engine against hostile writes and files: values gettext would read back differently are
 * refused (and the refusal is proven by the real msgcat), a written catalogue keeps its header,
 * huge writes work, and no path of the engine is quadratic in its input.
 */
import assert from "node:assert/strict";
import { InvalidInputError } from "../lib/errors.ts";
import { applyWrite, encodePo, listEntries, parsePo, readContext, type WriteEntry } from "../lib/po/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { poFixture, postJson, testApp } from "./_helpers.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

let msgcatFound: boolean | undefined;
async function haveMsgcat(): Promise<boolean> {
  if (msgcatFound === undefined) {
    try {
      msgcatFound =
        (await new Deno.Command("msgcat", { args: ["--version"], stdout: "null" }).output()).success;
    } catch {
      msgcatFound = false;
    }
  }
  if (!msgcatFound) console.log("skipped the msgcat round trip: msgcat not found");
  return msgcatFound;
}

/** What msgcat prints for these bytes (`args` before the file), or null when it fails. */
async function msgcat(bytes: Uint8Array, args: string[] = []): Promise<Uint8Array | null> {
  const dir = await Deno.makeTempDir({ prefix: "security-po-" });
  try {
    await Deno.writeFile(`${dir}/t.po`, bytes);
    const r = await new Deno.Command("msgcat", {
      args: [...args, `${dir}/t.po`],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return r.success ? r.stdout : null;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The entries msgcat reads from these bytes (what it prints, read back), or null when it fails. */
async function msgcatEntries(bytes: Uint8Array) {
  const out = await msgcat(bytes);
  return out === null ? null : listEntries(parsePo(out));
}

function fails(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e) => e instanceof InvalidInputError && message.test(e.message));
}

// ---------------------------------------------------------------------------------------------
// Values gettext would read back differently

/**
 * Refused values: the write entry, the message it must give, and the lines a writer that took the
 * value as it is would have printed for it (a `#, fuzzy` line, unless the value is a flag, and
 * `msgctxt "ctx"` follow, so that a line glued to them shows).
 */
const REFUSED: { name: string; entry: WriteEntry; message: RegExp; naive: string }[] = [
  {
    name: "a translator comment ending with a backslash",
    entry: { msgid: "a", tcomment: "ends\\" },
    message:
      /^Invalid tcomment of the entry with msgid "a": it \("ends\\\\"\) cannot be written: it ends with a backslash, which gettext reads as a line continuation/,
    naive: "# ends\\\n",
  },
  {
    name: "a line of a translator comment ending with a backslash",
    entry: { msgid: "a", tcomment: "one\ntwo\\\nthree" },
    message: /^Invalid tcomment of the entry with msgid "a": its line 2 \("two\\\\"\) cannot be written/,
    naive: "# one\n# two\\\n# three\n",
  },
  {
    name: "an extracted comment ending with a backslash",
    entry: { msgid: "a", comment: "C:\\dir\\" },
    message:
      /^Invalid comment of the entry with msgid "a": it \("C:\\\\dir\\\\"\) cannot be written: it ends/,
    naive: "#. C:\\dir\\\n",
  },
  {
    name: "the comment of an obsolete entry ending with a backslash",
    entry: { msgid: "a", msgstr: "b", obsolete: true, tcomment: "x\\" },
    message: /^Invalid tcomment of the entry with msgid "a": it \("x\\\\"\) cannot be written/,
    naive: "# x\\\n",
  },
  {
    name: "an occurrence ending with a backslash",
    entry: { msgid: "a", occurrences: ["src/x.c:1", "dir\\"] },
    message:
      /^Invalid occurrences\[1\] of the entry with msgid "a": "dir\\\\" cannot be written: it ends with a backslash/,
    naive: "#: src/x.c:1 dir\\\n",
  },
  {
    name: "an occurrence ending with a backslash and a colon (a file without line)",
    entry: { msgid: "a", occurrences: ["dir\\:"] },
    message: /^Invalid occurrences\[0\] of the entry with msgid "a": "dir\\\\:" cannot be written/,
    naive: "#: dir\\\n",
  },
  {
    name: "an occurrence with a NUL",
    entry: { msgid: "a", occurrences: ["a\0b.c:1"] },
    message:
      /^Invalid occurrences\[0\] of the entry with msgid "a": "a\\u0000b.c:1" cannot be written: it contains a NUL/,
    naive: "#: a\0b.c:1\n",
  },
  {
    name: "an occurrence with a space",
    entry: { msgid: "a", occurrences: ["my file.c:1"] },
    message: /^Invalid occurrence "my file\.c:1" of the entry with msgid "a": a PO reference cannot be empty/,
    naive: "#: my file.c:1\n",
  },
  {
    name: "an occurrence with a tab",
    entry: { msgid: "a", occurrences: ["my\tfile.c:1"] },
    message: /^Invalid occurrence "my\\tfile\.c:1"/,
    naive: "#: my\tfile.c:1\n",
  },
  {
    name: "an occurrence with a newline",
    entry: { msgid: "a", occurrences: ["x.c:1\n#, fuzzy"] },
    message: /^Invalid occurrence "x\.c:1\\n#, fuzzy"/,
    naive: "#: x.c:1\n#, fuzzy\n",
  },
  {
    name: "an occurrence whose line number a JSON number cannot hold",
    entry: { msgid: "a", occurrences: ["x.c:99999999999999999999"] },
    message: /^Invalid occurrences\[0\] of the entry with msgid "a": .* its line number is too large/,
    naive: "#: x.c:99999999999999999999\n",
  },
  {
    name: "an occurrence gettext reads as the line number of the one before (a :12)",
    entry: { msgid: "a", occurrences: ["a:b", ":12"] },
    message:
      /^Invalid occurrences\[0\] of the entry with msgid "a": "a:b" cannot be written: gettext would read it together/,
    naive: "#: a:b :12\n",
  },
  {
    name: "an occurrence gettext reads as the line number of the one before (a: 12)",
    entry: { msgid: "a", occurrences: ["x.c:1", "a::", "12"] },
    message:
      /^Invalid occurrences\[1\] of the entry with msgid "a": "a::" cannot be written: gettext would read it/,
    naive: "#: x.c:1 a: 12\n",
  },
  {
    name: "a flag with a comma",
    entry: { msgid: "a", msgstr: "b", flags: ["fuzzy,c-format"] },
    message:
      /^Invalid flags\[0\] of the entry with msgid "a": "fuzzy,c-format" cannot be written: it contains a comma or white space/,
    naive: "#, fuzzy,c-format\n",
  },
  {
    name: "a flag with a space",
    entry: { msgid: "a", msgstr: "b", flags: ["c-format fuzzy"] },
    message: /^Invalid flags\[0\] .*it contains a comma or white space/,
    naive: "#, c-format fuzzy\n",
  },
  {
    name: "a flag with a newline",
    entry: { msgid: "a", msgstr: "b", flags: ["c-format\nmsgctxt"] },
    message: /^Invalid flags\[0\] .*it contains a comma or white space/,
    naive: "#, c-format\nmsgctxt\n",
  },
  {
    name: "a flag ending with a backslash",
    entry: { msgid: "a", msgstr: "b", flags: ["c-format\\"] },
    message: /^Invalid flags\[0\] .*gettext does not keep it/,
    naive: "#, c-format\\\n",
  },
  {
    name: "a flag gettext does not know",
    entry: { msgid: "a", msgstr: "b", flags: ["reviewed"] },
    message:
      /^Invalid flags\[0\] of the entry with msgid "a": "reviewed" cannot be written: gettext does not keep it/,
    naive: "#, reviewed\n",
  },
  {
    name: "an empty flag",
    entry: { msgid: "a", msgstr: "b", flags: [""] },
    message: /^Invalid flags\[0\] .*it is empty/,
    naive: "#, \n",
  },
  {
    name: "a range past gettext's int",
    entry: { msgid: "a", msgstr: "b", flags: ["range: 1..3000000000"] },
    message: /^Invalid flags\[0\] .*it is not a valid range/,
    naive: "#, range: 1..3000000000\n",
  },
  {
    name: "a translator comment gettext reads as a reference",
    entry: { msgid: "a", tcomment: "File: src/x.c, line:3" },
    message: /^Invalid tcomment of the entry with msgid "a": .*which gettext reads as a source reference/,
    naive: "# File: src/x.c, line:3\n",
  },
];

Deno.test("applyWrite refuses every value gettext would read back differently, naming the field", async (t) => {
  for (const c of REFUSED) {
    await t.step(c.name, () => {
      const cat = applyWrite(null, [{ msgid: "before", msgstr: "x" }]).catalog;
      fails(() => applyWrite(cat, [c.entry]), c.message);
      assert.deepEqual(listEntries(cat).map((e) => e.msgid), ["before"]); // the input is untouched
    });
  }
});

Deno.test("every value applyWrite refuses is one msgcat reads back differently", async (t) => {
  if (!(await haveMsgcat())) return;
  for (const c of REFUSED) {
    await t.step(c.name, async () => {
      // A flag line is the entry's last; after a comment or reference comes a flag line to lose.
      const flagLine = c.entry.flags === undefined ? "#, fuzzy\n" : "";
      const text = `${HEADER}${c.naive}${flagLine}msgctxt "ctx"\nmsgid "a"\nmsgstr "b"\n`;
      const entries = await msgcatEntries(encoder.encode(text));
      if (entries === null) return; // msgcat rejects the file outright
      const e = entries.find((x) => x.msgid === "a");
      const want = c.entry;
      const sorted = (list: string[]) => JSON.stringify([...list].sort());
      const same = e !== undefined && e.msgctxt === "ctx" &&
        (want.flags !== undefined || e.flags.includes("fuzzy")) &&
        (want.tcomment === undefined || e.tcomment === want.tcomment) &&
        (want.comment === undefined || e.comment === want.comment) &&
        (want.occurrences === undefined || sorted(e.occurrences) === sorted(want.occurrences)) &&
        (want.flags === undefined || sorted(e.flags) === sorted(want.flags));
      assert.equal(same, false, `msgcat read ${JSON.stringify(e)} back unchanged`);
    });
  }
});

/**
 * Accepted values, each proven by msgcat: the request's value reads back as given (or, for `flags`
 * and `occurrences` that gettext normalises, as `expected` says).
 */
const ACCEPTED: { name: string; entry: WriteEntry; expected?: Partial<Record<keyof WriteEntry, unknown>> }[] =
  [
    { name: "a backslash inside a comment", entry: { msgid: "a", tcomment: "C:\\dir\\file.txt" } },
    { name: "a backslash then a space at the end", entry: { msgid: "a", tcomment: "dir\\ " } },
    { name: "a backslash before a carriage return", entry: { msgid: "a", comment: "x\\\r" } },
    {
      name: "control characters in comments",
      entry: { msgid: "a", tcomment: "\x01\x07\x1b[31m\x7f\r\f\v\u0085\u2028", comment: "\x02\t" },
    },
    { name: "empty comment lines", entry: { msgid: "a", tcomment: "\n\nx\n", comment: "\n" } },
    {
      name: "leading and trailing spaces in comments",
      entry: { msgid: "a", tcomment: "  x ", comment: " y" },
    },
    {
      name: "a comment that looks like a flag or a keyword",
      entry: { msgid: "a", tcomment: ", fuzzy\n~ msgid" },
    },
    {
      name: "a 'File:' comment that is no reference",
      entry: { msgid: "a", tcomment: "File: x.c, line: 3 more" },
    },
    {
      name: "unusual occurrences",
      entry: {
        msgid: "a",
        occurrences: [
          ":12",
          "a\\b.c:1",
          "C:\\x\\y.py:7",
          "a:b",
          "a::3",
          "#x",
          '"q"',
          "a,b",
          "a\rb",
          "a\u00a0b:2",
        ],
      },
    },
    {
      name: "occurrences gettext normalises",
      entry: { msgid: "a", occurrences: ["./x.c:1", "x.c:1", "lib/c.py:", "a:012"] },
      expected: { occurrences: ["x.c:1", "lib/c.py", "a:12"] },
    },
    {
      name: "backslashes and quotes in strings",
      entry: {
        msgid: "a\\",
        msgstr: 'b\\\n"c"\\',
        msgctxt: "c\\",
        previous_msgid: "p\\",
        previous_msgctxt: "q\\",
      },
    },
    {
      name: "control characters in strings",
      entry: { msgid: "x\r\n\x01\x7f", msgstr: "\u0085\u2028\t\b\f\v\x07" },
    },
    { name: "an empty msgid with a context", entry: { msgid: "", msgctxt: "only context", msgstr: "t" } },
    { name: "an empty previous msgid", entry: { msgid: "a", previous_msgid: "" } },
    {
      name: "plural forms with gaps",
      entry: { msgid: "a", msgid_plural: "as", msgstr_plural: { "0": "x", "3": "z" } },
      expected: { msgstr_plural: { "0": "x", "1": "", "2": "", "3": "z" } },
    },
    {
      name: "many plural forms",
      entry: {
        msgid: "a",
        msgid_plural: "as",
        msgstr_plural: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i), `f${i}`])),
      },
    },
    {
      name: "an obsolete plural entry with a previous msgid",
      entry: {
        msgid: "a",
        msgid_plural: "as",
        msgstr_plural: { "0": "x", "1": "y" },
        obsolete: true,
        previous_msgid: "old",
      },
    },
    {
      name: "flags gettext knows",
      entry: {
        msgid: "a",
        msgstr: "b",
        flags: ["fuzzy", "c-format", "no-python-format", "range: 1..5", "no-wrap"],
      },
    },
    {
      name: "flags gettext normalises",
      entry: {
        msgid: "a",
        msgstr: "b",
        flags: ["no-wrap", "possible-python-format", "fuzzy", "fuzzy", "wrap", "impossible-c-format"],
      },
      expected: { flags: ["fuzzy", "python-format"] },
    },
    {
      name: "fuzzy on an entry without translation",
      entry: { msgid: "a", msgstr: "", flags: ["fuzzy", "c-format"] },
      expected: { flags: ["c-format"] },
    },
  ];

function requestView(entry: WriteEntry, expected: Partial<Record<keyof WriteEntry, unknown>> = {}) {
  const view: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry)) {
    if (k === "msgctxt" && v === "") continue;
    view[k] = k in expected ? expected[k as keyof WriteEntry] : v;
  }
  return view;
}

function pick(e: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, e[k]]));
}

Deno.test("every value applyWrite accepts reads back through msgcat as the answer says", async (t) => {
  const check = await haveMsgcat();
  for (const c of ACCEPTED) {
    await t.step(c.name, async () => {
      const { catalog } = applyWrite(null, [
        { msgid: "before", msgstr: "x", flags: ["fuzzy"] },
        c.entry,
        { msgid: "after", msgctxt: "ctx", msgstr: "y", flags: ["fuzzy"] },
      ]);
      const answered = listEntries(catalog);
      const bytes = encodePo(catalog);
      // The engine's own invariant: the document equals what its bytes read back as.
      assert.deepEqual(listEntries(parsePo(bytes)), answered);
      // The request's values are in the answer (as given, or as gettext normalises them).
      const want = requestView(c.entry, c.expected);
      const got = answered.find((e) => e.msgid === c.entry.msgid)!;
      assert.deepEqual(pick(got as unknown as Record<string, unknown>, Object.keys(want)), want);
      if (!check) return;
      // msgcat prints the same bytes, so it reads the same entries.
      const printed = await msgcat(bytes);
      assert.notEqual(printed, null, "msgcat rejected the file");
      assert.equal(decoder.decode(printed!), decoder.decode(bytes));
      assert.deepEqual(listEntries(parsePo(printed!)), answered);
    });
  }
});

Deno.test("a refused write through /po/write is a 422 naming the field and leaves the file as it was", async () => {
  const before = `${HEADER}#, fuzzy\nmsgctxt "ctx"\nmsgid "a"\nmsgstr "b"\n`;
  await using f = await poFixture({ "fr.po": before });
  const r = await f.post("/po/write", {
    file_path: f.path("fr.po"),
    entries: [{ msgid: "new", msgstr: "x", tcomment: "ends\\" }],
  });
  assert.equal(r.status, 422);
  assert.match(r.type ?? "", /^application\/json/);
  assert.match(
    r.body.detail,
    /^Invalid tcomment of the entry with msgid "new": it \("ends\\\\"\) cannot be written/,
  );
  assert.equal(await Deno.readTextFile(f.path("fr.po")), before);
  const read = await f.post("/po/read", { file_path: f.path("fr.po") });
  assert.deepEqual(read.body.entries.map((e: { msgid: string }) => e.msgid), ["a"]);
});

// ---------------------------------------------------------------------------------------------
// Headers kept

const DEFAULT_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"MIME-Version: 1.0\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n';

function storeBytes(cat: PoCatalog): Uint8Array {
  const runs = PO_CODEC.encode(cat);
  return runs instanceof Uint8Array ? runs : encoder.encode(runs.map((r) => decoder.decode(r)).join(""));
}

Deno.test("a catalogue the service writes always keeps its header", async (t) => {
  await t.step("entries: [] on a new file writes the header, as msgcat --force-po prints it", async () => {
    const { catalog } = applyWrite(null, []);
    const bytes = storeBytes(catalog);
    assert.equal(decoder.decode(bytes), DEFAULT_HEADER);
    assert.deepEqual(parsePo(bytes).messages, catalog.messages);
    if (await haveMsgcat()) {
      assert.equal(decoder.decode((await msgcat(bytes, ["--force-po"]))!), DEFAULT_HEADER);
    }
  });
  await t.step("obsoleting every entry (untranslated ones vanish) keeps the header", () => {
    const first = applyWrite(null, [{ msgid: "a" }, { msgid: "b" }]).catalog;
    const { catalog } = applyWrite(first, [{ msgid: "a", obsolete: true }, { msgid: "b", obsolete: true }]);
    assert.equal(decoder.decode(storeBytes(catalog)), DEFAULT_HEADER);
    assert.deepEqual(listEntries(catalog), []);
    assert.equal(catalog.charset, "UTF-8");
  });
  await t.step("a catalogue without header (an empty file) gets one at its first write", () => {
    const empty = parsePo(new Uint8Array(0));
    const { catalog } = applyWrite(empty, [{ msgid: "a", msgstr: "é" }]);
    assert.equal(decoder.decode(storeBytes(catalog)), `${DEFAULT_HEADER}\nmsgid "a"\nmsgstr "é"\n`);
  });
  await t.step("a header the file has is kept as it is", () => {
    const cat = parsePo(
      encoder.encode('msgid ""\nmsgstr "Language: fr\\n"\n\n#~ msgid "a"\n#~ msgstr "b"\n'),
    );
    const { catalog } = applyWrite(cat, [{ msgid: "a", obsolete: true }]);
    assert.equal(catalog.messages[0]?.msgstr, "Language: fr\n");
  });
});

Deno.test("/po/write with no entries, then a restart, then a non-ASCII write works", async () => {
  await using f = await poFixture();
  const file = f.path("new.po");
  const r = await f.post("/po/write", { file_path: file, entries: [] });
  assert.equal(r.status, 200);
  assert.equal(await Deno.readTextFile(file), DEFAULT_HEADER);
  // A restart: a new store over the same root, nothing cached.
  const { app } = testApp({ catalogues: new CatalogueStore({ roots: [f.root], codec: PO_CODEC }) });
  const w = await postJson(app, "/po/write", { file_path: file, entries: [{ msgid: "a", msgstr: "Grüß" }] });
  assert.equal(w.status, 200, await w.clone().text());
  assert.equal(await Deno.readTextFile(file), `${DEFAULT_HEADER}\nmsgid "a"\nmsgstr "Grüß"\n`);
});

// ---------------------------------------------------------------------------------------------
// Large inputs

Deno.test("a write of 200k new entries works (no spread of a huge list into a call)", () => {
  const entries = Array.from(
    { length: 200_000 },
    (_, i): WriteEntry => ({ msgid: `m${i}`, msgstr: `t${i}` }),
  );
  const first = applyWrite(null, entries);
  assert.equal(first.created, 200_000);
  assert.equal(first.catalog.messages.length, 200_001);
  // Into an existing catalogue too, with obsolete ones (appended after the last active message).
  const base = applyWrite(null, [{ msgid: "old", msgstr: "x", obsolete: true }]).catalog;
  const second = applyWrite(base, [...entries, { msgid: "gone", msgstr: "y", obsolete: true }]);
  assert.equal(second.created, 200_001);
  assert.equal(second.catalog.messages[200_001]?.msgid, "old");
  assert.equal(encodePo(second.catalog).length > 0, true);
});

Deno.test("an entry with 200k translator comments and a NUL is refused with a message, not a stack overflow", () => {
  const comments = Array.from({ length: 200_000 }, () => "c");
  comments.push("\0");
  const m: PoMessage = {
    msgctxt: null,
    msgid: "a",
    msgidPlural: null,
    msgstr: "b",
    msgstrPlural: null,
    translatorComments: comments,
    extractedComments: [],
    references: [],
    flags: [],
    previousMsgctxt: null,
    previousMsgid: null,
    previousMsgidPlural: null,
    obsolete: false,
  };
  assert.throws(() => encodePo({ messages: [m], charset: null }), /contains a NUL character/);
});

Deno.test("a plural entry of 200k forms with non-ASCII text and no charset is refused with a message", () => {
  const forms = Array.from({ length: 200_000 }, (_, i) => `msgstr[${i}] "é"\n`).join("");
  assert.throws(() => parsePo(encoder.encode(`msgid "a"\nmsgid_plural "b"\n${forms}`)), /charset/);
});

// ---------------------------------------------------------------------------------------------
// No quadratic path

/** Best of two runs, in ms. */
function time(fn: () => unknown): number {
  let best = Infinity;
  for (let k = 0; k < 2; k++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * `fn` on a shape must cost about what it costs on a harmless input of the same size: at most
 * `factor` times, plus a margin for a loaded machine. Quadratic work misses by a factor of 100 or more.
 */
function assertComparable(hostile: number, harmless: number, what: string, factor = 6): void {
  assert.ok(
    hostile <= harmless * factor + 300,
    `${what}: ${hostile.toFixed(0)} ms against ${harmless.toFixed(0)} ms`,
  );
}

Deno.test("an entry with 100k references reads and writes in linear time", () => {
  const refs = (n: number, file: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => `${file(i)}:${i}`);
  const text = (list: string[]) => {
    let lines = "";
    for (let i = 0; i < list.length; i += 8) lines += `#: ${list.slice(i, i + 8).join(" ")}\n`;
    return encoder.encode(`${HEADER}${lines}msgid "a"\nmsgstr "b"\n`);
  };
  // Harmless: as many references spread over entries of 8 each.
  const spread = (list: string[]) => {
    let s = "";
    for (let i = 0; i < list.length; i += 8) {
      s += `#: ${list.slice(i, i + 8).join(" ")}\nmsgid "m${i}"\nmsgstr "b"\n\n`;
    }
    return encoder.encode(HEADER + s);
  };
  const list = refs(100_000, (i) => `src/f${i % 97}.py`);
  const one = text(list);
  const many = spread(list);
  assert.equal(parsePo(one).messages[1]?.references.length, 100_000);
  assertComparable(time(() => parsePo(one)), time(() => parsePo(many)), "parse");
  const entry = [{ msgid: "a", msgstr: "b", occurrences: list }];
  const entries = Array.from({ length: list.length / 8 }, (_, i) => ({
    msgid: `m${i}`,
    msgstr: "b",
    occurrences: list.slice(i * 8, i * 8 + 8),
  }));
  assertComparable(
    time(() => encodePo(applyWrite(null, entry).catalog)),
    time(() => encodePo(applyWrite(null, entries).catalog)),
    "applyWrite + encode",
  );
});

Deno.test("100k entries sharing one msgid read in the time of 100k distinct msgids", () => {
  const n = 100_000;
  let shared = "";
  let distinct = "";
  for (let i = 0; i < n; i++) {
    shared += `msgctxt "c${i}"\nmsgid "same"\nmsgstr "x"\n\n`;
    distinct += `msgctxt "c${i}"\nmsgid "m${i}"\nmsgstr "x"\n\n`;
  }
  const sharedBytes = encoder.encode(HEADER + shared);
  const distinctBytes = encoder.encode(HEADER + distinct);
  const read = (bytes: Uint8Array) => () => {
    const cat = parsePo(bytes, { strict: false });
    listEntries(cat);
    return readContext(cat, "same", "c99999", 1);
  };
  assert.equal(read(sharedBytes)().target_entry?.msgctxt, "c99999");
  assertComparable(time(read(sharedBytes)), time(read(distinctBytes)), "parse + list + read_context");
  // A strict parse and a write of them.
  assertComparable(time(() => parsePo(sharedBytes)), time(() => parsePo(distinctBytes)), "strict parse");
  const writes = (id: (i: number) => string) =>
    Array.from({ length: n }, (_, i): WriteEntry => ({ msgid: id(i), msgctxt: `c${i}`, msgstr: "x" }));
  const sharedWrites = writes(() => "same");
  const distinctWrites = writes((i) => `m${i}`);
  assertComparable(
    time(() => encodePo(applyWrite(null, sharedWrites).catalog)),
    time(() => encodePo(applyWrite(null, distinctWrites).catalog)),
    "applyWrite + encode",
  );
});

Deno.test("40k Solaris 'File:' references on one entry read and write in linear time", () => {
  const n = 40_000;
  let one = "";
  let spread = "";
  for (let i = 0; i < n; i++) {
    one += `# File: src/f${i % 97}.py, line:${i}\n`;
    spread += `# File: src/f${i % 97}.py, line:${i}\n`;
    if (i % 8 === 7) spread += `msgid "m${i}"\nmsgstr "b"\n\n`;
  }
  const a = encoder.encode(`${HEADER}${one}msgid "a"\nmsgstr "b"\n`);
  const b = encoder.encode(HEADER + spread);
  assert.equal(parsePo(a).messages[1]?.references.length, n);
  assertComparable(time(() => encodePo(parsePo(a))), time(() => encodePo(parsePo(b))), "parse + encode");
});

Deno.test("a msgstr of 600k identical string lines reads in linear time (the file's chunks are equal strings)", () => {
  // The reader hands the lexer 64 KB chunks; lines repeated the whole file long make chunks of
  // equal text. A lexer that told its chunk by comparing strings compared 64 KB per string there.
  const n = 600_000;
  const same = encoder.encode(`${HEADER}msgid "a"\nmsgstr ""\n${'"piece"\n'.repeat(n)}`);
  let lines = "";
  for (let i = 0; i < n; i++) lines += `"p${i % 10000}"\n`;
  const differing = encoder.encode(`${HEADER}msgid "a"\nmsgstr ""\n${lines}`);
  assert.equal(parsePo(same).messages[1]?.msgstr.length, 5 * n);
  assertComparable(time(() => parsePo(same)), time(() => parsePo(differing)), "parse");
});

Deno.test("40k domains of one message each lay out in linear time", () => {
  const n = 40_000;
  let domains = "";
  let plain = "";
  for (let i = 0; i < n; i++) {
    domains += `domain "d${i}"\nmsgid "m"\nmsgstr "t"\n\n`;
    plain += `msgctxt "d${i}"\nmsgid "m"\nmsgstr "t"\n\n`;
  }
  const a = encoder.encode(HEADER + domains);
  const b = encoder.encode(HEADER + plain);
  assert.equal(parsePo(a).messages.length, n + 1);
  assertComparable(time(() => encodePo(parsePo(a))), time(() => encodePo(parsePo(b))), "parse + encode");
});

Deno.test("a NUL in a comment line ends it, as gettext reads it", async () => {
  const bytes = encoder.encode(
    `${HEADER}# kept\0dropped\n#. x\0y\n#: a.c:1\0 b.c:2\n#, fuzzy\0, c-format\nmsgid "a"\nmsgstr "b"\n`,
  );
  const [e] = listEntries(parsePo(bytes));
  assert.ok(e);
  assert.deepEqual([e.tcomment, e.comment, e.occurrences, e.flags], ["kept", "x", ["a.c:1"], ["fuzzy"]]);
  const expected = `${HEADER}# kept\n#. x\n#: a.c:1\n#, fuzzy\nmsgid "a"\nmsgstr "b"\n`;
  assert.equal(decoder.decode(encodePo(parsePo(bytes))), expected);
  if (await haveMsgcat()) assert.equal(decoder.decode((await msgcat(bytes))!), expected);
});
