/**
 * The PO engine against hostile writes and files: a written catalogue keeps its header, huge writes
 * work, and no path of the engine is quadratic in its input.
 */
import assert from "node:assert/strict";
import { applyWrite, encodePo, listEntries, parsePo, readContext, type WriteEntry } from "../lib/po/mod.ts";
import { PO_CODEC } from "../lib/po/po_codec.ts";
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
    assert.equal(catalog.messages[0].msgstr, "Language: fr\n");
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
  assert.equal(second.catalog.messages[200_001].msgid, "old");
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
  assert.equal(parsePo(one).messages[1].references.length, 100_000);
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
  assert.equal(parsePo(a).messages[1].references.length, n);
  assertComparable(time(() => encodePo(parsePo(a))), time(() => encodePo(parsePo(b))), "parse + encode");
});
