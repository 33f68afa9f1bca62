import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
// @ts-types="@types/gettext-parser"
import { po as gettextPo } from "gettext-parser";
import { Buffer } from "node:buffer";
import { PoSyntaxError, UnwritableCatalogError } from "../lib/errors.ts";
import { canonicalCatalog, encodePo, formatPo, parsePo } from "../lib/po/mod.ts";
import { interpretFlags } from "../lib/po/read/_flags.ts";
import { canonicalCatalogFrom } from "../lib/po/write/canonical.ts";
import { type LaidOutList, type Layout, matchLayouts } from "../lib/po/write/_layout_cache.ts";
import type { PoCatalog, PoMessage } from "../lib/po/mod.ts";
import { ByteWriter } from "../lib/po/write/_byte_writer.ts";

const FIXTURES = new URL("./fixtures/po/", import.meta.url);
const SHARED = new URL("../../shared/", import.meta.url);
const CORPUS = new URL("corpus/po/", SHARED);
const VECTORS = new URL("corpus/msgcat-vectors/", SHARED);

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/** `msgcat [args] FILE`: its stdout, or null when it rejects the file. */
async function msgcat(path: string, args: string[] = []): Promise<Uint8Array | null> {
  const r = await new Deno.Command("msgcat", { args: [...args, path], stdout: "piped", stderr: "null" })
    .output();
  return r.success ? r.stdout : null;
}

/** Our bytes for a file, or null when we reject it. */
function ours(bytes: Uint8Array, fileName: string): Uint8Array | null {
  try {
    return encodePo(parsePo(bytes, fileName));
  } catch (e) {
    if (e instanceof PoSyntaxError || e instanceof UnwritableCatalogError) return null;
    throw e;
  }
}

function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const la = new TextDecoder().decode(a).split("\n");
  const lb = new TextDecoder().decode(b).split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) {
      return `line ${i + 1}: expected ${JSON.stringify(la[i])}, got ${JSON.stringify(lb[i])}`;
    }
  }
  return "lengths differ";
}

function listPo(dir: URL, suffix: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(suffix)).sort();
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

Deno.test("formatPo reproduces the committed msgcat goldens byte for byte", async (t) => {
  for (const name of listPo(FIXTURES, ".in.po")) {
    await t.step(name, () => {
      const input = Deno.readFileSync(new URL(name, FIXTURES));
      const expected = Deno.readFileSync(new URL(name.replace(".in.po", ".out.po"), FIXTURES));
      const got = encodePo(parsePo(input, name));
      assert.ok(
        got.length === expected.length && got.every((b, i) => b === expected[i]),
        firstDifference(expected, got),
      );
    });
  }
  await t.step("--no-wrap golden", () => {
    const input = Deno.readFileSync(new URL("wrapping.in.po", FIXTURES));
    const expected = Deno.readTextFileSync(new URL("wrapping.nowrap.out.po", FIXTURES));
    assert.equal(formatPo(parsePo(input), { noWrap: true }), expected);
  });
});

Deno.test("the committed goldens are still what the installed msgcat prints", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async () => {
  for (const name of listPo(FIXTURES, ".in.po")) {
    const path = new URL(name, FIXTURES).pathname;
    const expected = Deno.readFileSync(new URL(name.replace(".in.po", ".out.po"), FIXTURES));
    assert.deepEqual(await msgcat(path), expected, name);
  }
  assert.deepEqual(
    await msgcat(new URL("wrapping.in.po", FIXTURES).pathname, ["--no-wrap"]),
    Deno.readFileSync(new URL("wrapping.nowrap.out.po", FIXTURES)),
  );
});

Deno.test("formatPo equals a live msgcat on every corpus file and vector (rejects included)", {
  ignore: lacks(import.meta.url, "shared", "msgcat"),
}, async () => {
  const files = [
    ...listPo(CORPUS, ".po").map((n) => new URL(n, CORPUS)),
    ...listPo(VECTORS, ".in.po").map((n) => new URL(n, VECTORS)),
  ];
  const failures: string[] = [];
  let rejected = 0;
  await pool(files, 2, async (url) => {
    const expected = await msgcat(url.pathname);
    const got = ours(Deno.readFileSync(url), url.pathname);
    if (expected === null) rejected++;
    if (expected === null && got === null) return;
    if (expected === null || got === null) {
      failures.push(
        `${url.pathname}: ${expected === null ? "msgcat rejects it, we accept it" : "we reject it"}`,
      );
    } else if (!(got.length === expected.length && got.every((b, i) => b === expected[i]))) {
      failures.push(`${url.pathname}: ${firstDifference(expected, got)}`);
    }
  });
  console.log(
    `${files.length - failures.length} passed, ${failures.length} failed (${rejected} rejected by both)`,
  );
  assert.deepEqual(failures, []);
  assert.ok(files.length >= 100 && rejected >= 9, `${files.length} files, ${rejected} rejected`);
});

Deno.test("formatting is idempotent on the corpus", { ignore: lacks(import.meta.url, "shared") }, () => {
  const files = [
    ...listPo(CORPUS, ".po").map((n) => new URL(n, CORPUS)),
    ...listPo(VECTORS, ".in.po").map((n) => new URL(n, VECTORS)),
  ];
  let checked = 0;
  for (const url of files) {
    const first = ours(Deno.readFileSync(url), url.pathname);
    if (first === null) continue;
    const second = ours(first, url.pathname);
    // refs-wrap: "./src/main.c:5" and "src/main.c:5" are distinct on the first read and print
    // alike, so the second read drops one, exactly as msgcat does (vector INDEX.md).
    if (url.pathname.endsWith("refs-wrap.in.po")) {
      assert.notDeepEqual(second, first);
      continue;
    }
    assert.deepEqual(second, first, url.pathname);
    checked++;
  }
  assert.ok(checked >= 90, `${checked} files`);
});

Deno.test("canonicalCatalog equals reading the written file back", async (t) => {
  const files = listPo(FIXTURES, ".in.po").map((n) => new URL(n, FIXTURES));
  if (exists(CORPUS) && exists(VECTORS)) {
    files.push(...listPo(CORPUS, ".po").map((n) => new URL(n, CORPUS)));
    files.push(...listPo(VECTORS, ".in.po").map((n) => new URL(n, VECTORS)));
  } else console.log("corpus part skipped: ../shared not found");
  let checked = 0;
  for (const url of files) {
    let cat: PoCatalog;
    try {
      cat = parsePo(Deno.readFileSync(url), url.pathname);
    } catch {
      continue; // rejected input
    }
    const canonical = canonicalCatalog(cat);
    assert.deepEqual(canonical, parsePo(encodePo(cat), url.pathname), url.pathname);
    checked++;
  }
  assert.ok(checked >= 9, `${checked} files`);
  await t.step("unchanged messages are shared, not copied", () => {
    const cat = parsePo(Deno.readFileSync(new URL("wrapping.in.po", FIXTURES)));
    const canonical = canonicalCatalog(cat);
    assert.ok(canonical.messages.every((m, i) => m === cat.messages[i]));
  });
  await t.step("comments with newlines, ./ references, unknown flags, empty obsolete entries", () => {
    const cat = parsePo(utf8('#, fuzzy\nmsgid "a"\nmsgstr "b"\n\n#~ msgid "o"\n#~ msgstr ""\n'));
    const m: PoMessage = {
      ...cat.messages[0]!,
      translatorComments: ["x\nFile: s.c, line:3"],
      extractedComments: ["e\n"],
      references: [{ file: "./a.c", line: 1 }, { file: "a.c", line: 1 }],
      flags: ["unknown", "fuzzy", "c-format"],
    };
    const edited: PoCatalog = { ...cat, messages: [cat.messages[1]!, m] };
    const canonical = canonicalCatalog(edited);
    assert.deepEqual(canonical, parsePo(encodePo(edited)));
    assert.deepEqual(canonical.messages[0]?.references, [{ file: "s.c", line: 3 }, { file: "a.c", line: 1 }]);
    assert.deepEqual(canonical.messages[0]?.flags, ["fuzzy", "c-format"]);
  });
});

/** The (msgctxt, msgid) → msgstr forms map of a catalogue, obsolete entries included. */
function translationMap(cat: PoCatalog): Map<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const m of cat.messages) {
    map.set(`${m.obsolete ? "~" : ""}${m.msgctxt ?? ""}\u0004${m.msgid}`, m.msgstrPlural ?? [m.msgstr]);
  }
  return map;
}

/** gettext-parser does not decode \a \b \f \v, octal or hex escapes (spec section 8): skip such strings. */
function gettextParserCanRead(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return false;
  }
  return true;
}

Deno.test("our parser agrees with gettext-parser on every corpus file", {
  ignore: lacks(import.meta.url, "shared"),
}, () => {
  let compared = 0;
  let skipped = 0;
  for (const name of listPo(CORPUS, ".po")) {
    const bytes = Deno.readFileSync(new URL(name, CORPUS));
    let cat: PoCatalog;
    try {
      cat = parsePo(bytes, name);
    } catch (e) {
      assert.ok(e instanceof PoSyntaxError && name === "es__library__re.po", `${name}: ${e}`);
      continue;
    }
    const theirs = new Map<string, string[]>();
    type Table = Record<string, Record<string, { msgstr: string[] }>>;
    const parsed = gettextPo.parse(Buffer.from(bytes)) as unknown as {
      translations: Table;
      obsolete?: Table;
    };
    for (const [prefix, table] of [["", parsed.translations], ["~", parsed.obsolete ?? {}]] as const) {
      for (const [ctx, entries] of Object.entries(table)) {
        for (const [id, entry] of Object.entries(entries)) {
          theirs.set(`${prefix}${ctx}\u0004${id}`, entry.msgstr);
        }
      }
    }
    const mine = translationMap(cat);
    assert.equal(mine.size, theirs.size, `${name}: number of entries`);
    for (const [k, forms] of mine) {
      if (![k.replace("\u0004", ""), ...forms].every(gettextParserCanRead)) {
        skipped++;
        continue;
      }
      assert.deepEqual(theirs.get(k), forms, `${name}: ${JSON.stringify(k)}`);
      compared++;
    }
  }
  assert.ok(compared > 20000, `${compared} entries compared`);
  console.log(
    `${compared} entries agree, ${skipped} skipped (control characters gettext-parser does not decode)`,
  );
});

Deno.test("re-formatting after one message changed equals formatting from scratch", () => {
  const input = Deno.readFileSync(new URL("wrapping.in.po", FIXTURES));
  const cat = parsePo(input);
  const before = formatPo(cat);
  const i = cat.messages.findIndex((m) => m.msgid === "Python");
  const changed: PoMessage = {
    ...cat.messages[i]!,
    msgstr: "Python est un langage de programmation puissant et facile à apprendre.",
  };
  const next: PoCatalog = { ...cat, messages: cat.messages.with(i, changed) };
  const warm = formatPo(next);
  const cold = formatPo(parsePo(utf8(warm)));
  assert.equal(warm, cold);
  assert.notEqual(warm, before);
  assert.ok(
    warm.includes('msgstr "Python est un langage de programmation puissant et facile à apprendre."\n'),
  );
  assert.equal(formatPo(cat), before, "the old catalogue still formats as before");
});

Deno.test("encodePo with kept layouts: repeated writes with changes equal encoding from scratch", () => {
  const input = Deno.readFileSync(new URL("wrapping.in.po", FIXTURES));
  let cat = parsePo(input);
  const reference = (c: PoCatalog) => encodePo(parsePo(encodePo(c)));
  assert.deepEqual(encodePo(cat), reference(cat), "cold");
  // Changed, appended and removed messages, a batch, then the text of kept layouts again.
  const edits: ((c: PoCatalog) => PoMessage[])[] = [
    (c) => c.messages.map((m, i) => i === 1 ? { ...m, msgstr: m.msgstr + " — modifié, à la fin" } : m),
    (c) => [...c.messages, { ...c.messages[1]!, msgid: "Ajouté", msgstr: "nouveau\ntexte" }],
    (c) => c.messages.filter((_, i) => i !== 2),
    (c) => c.messages.map((m, i) => i % 2 === 1 ? { ...m, msgstr: `${m.msgstr} ${i}` } : m),
    (c) => c.messages.map((m, i) => i === c.messages.length - 1 ? { ...m, msgstr: "dernier" } : m),
  ];
  for (const edit of edits) {
    cat = { ...cat, messages: edit(cat) };
    const kept = encodePo(cat);
    assert.deepEqual(kept, utf8(formatPo(parsePo(encodePo(cat)))));
    assert.equal(formatPo(cat), new TextDecoder().decode(kept), "formatPo reads the kept bytes back");
  }
});

Deno.test("a list fresh from the reader is laid out as the same messages in a list of their own", async (t) => {
  // The writer takes what the reader knew of its lists (header-like messages, domains, file size)
  // instead of walking them; a list it knows nothing of is walked. Both must print the same.
  const files: [string, Uint8Array][] = listPo(FIXTURES, ".in.po").map((name) => [
    name,
    Deno.readFileSync(new URL(name, FIXTURES)),
  ]);
  for (const dir of [CORPUS, VECTORS].filter(exists)) {
    for (const name of listPo(dir, ".po")) files.push([name, Deno.readFileSync(new URL(name, dir))]);
  }
  if (!exists(CORPUS)) console.log("corpus not present: fixtures only");
  await t.step(`${files.length} files`, () => {
    for (const [name, bytes] of files) {
      let cat: PoCatalog;
      try {
        cat = parsePo(bytes, name);
      } catch {
        continue; // rejected on reading: nothing to lay out
      }
      // New message objects: no layout is cached for them, and the list is not the reader's.
      const rebuilt: PoCatalog = { ...cat, messages: cat.messages.map((m) => ({ ...m })) };
      const outcome = (c: PoCatalog) => {
        try {
          return encodePo(c);
        } catch (e) {
          return (e as Error).message;
        }
      };
      assert.deepEqual(outcome(cat), outcome(rebuilt), name);
    }
  });
});

Deno.test("ByteWriter.decimal spells a number as String() does", () => {
  const small = [0, -0, 7, 9, 10, 99, 100, 12345, 2147483647];
  const values = [...small, 2147483648, 2 ** 53 - 1, -1, -12, 1.5, 1e21, NaN];
  for (const v of values) {
    const w = new ByteWriter(1);
    w.ascii("#");
    w.decimal(v);
    assert.equal(new TextDecoder().decode(w.bytes()), "#" + String(v), String(v));
  }
});

Deno.test("formatPo normalises flags as msgcat does", async (t) => {
  const cases: [string, string[], string, string][] = [
    [
      "order, possible, impossible, unknown and check flags",
      [
        "python-format",
        "c-format",
        "range: 1..5",
        "fuzzy",
        "possible-sh-format",
        "impossible-lisp-format",
        "no-python-brace-format",
        "x",
        "no-ellipsis-unicode-check",
      ],
      "b",
      "#, fuzzy, c-format, python-format, no-python-brace-format, sh-format, range: 1..5\n",
    ],
    ["no-wrap last", ["no-wrap", "javascript-format"], "b", "#, javascript-format, no-wrap\n"],
    ["wrap is never printed", ["wrap"], "b", ""],
    ["fuzzy dropped on an empty msgstr", ["fuzzy"], "", ""],
    ["range with min > max is dropped", ["range: 3..2"], "b", ""],
    ["range: consumes the next token", ["range:", "fuzzy"], "b", ""],
  ];
  for (const [name, flags, msgstr, line] of cases) {
    await t.step(name, () => {
      const m: PoMessage = {
        msgctxt: null,
        msgid: "a",
        msgidPlural: null,
        msgstr,
        msgstrPlural: null,
        translatorComments: [],
        extractedComments: [],
        references: [],
        flags,
        previousMsgctxt: null,
        previousMsgid: null,
        previousMsgidPlural: null,
        obsolete: false,
      };
      assert.equal(formatPo({ messages: [m], charset: null }), `${line}msgid "a"\nmsgstr "${msgstr}"\n`);
    });
  }
  await t.step("interpretFlags", () => {
    assert.deepEqual(interpretFlags(["range: 1..5x", "no-wrap", "wrap"]).range, { min: 1, max: 5 });
    assert.equal(interpretFlags(["no-wrap", "wrap"]).wrap, true);
  });
});

Deno.test("formatPo prints comments with newlines as several lines", () => {
  const cat = parsePo(utf8('msgid "a"\nmsgstr "b"\n'));
  const m = { ...cat.messages[0]!, translatorComments: ["one\n\ntwo", ""], extractedComments: ["x\n"] };
  assert.equal(formatPo({ ...cat, messages: [m] }), '# one\n#\n# two\n#\n#. x\n#.\nmsgid "a"\nmsgstr "b"\n');
});

Deno.test("encodePo refuses what it cannot write", async (t) => {
  const header = (charset: string) =>
    `msgid ""\nmsgstr "Content-Type: text/plain; charset=${charset}\\n"\n\n`;
  await t.step("a multi-byte charset no codec here covers (EUC-TW)", () => {
    const cat = parsePo(utf8(header("EUC-TW") + 'msgid "a"\nmsgstr "b"\n'));
    assert.throws(() => encodePo(cat), {
      name: "UnwritableCatalogError",
      message: 'Cannot write PO file in charset "EUC-TW": EUC-TW catalogues cannot be written here ' +
        "(convert it with msgconv --to-code=UTF-8 first)",
    });
  });
  await t.step("a character ISO-8859-1 cannot hold", () => {
    const cat = parsePo(utf8(header("ISO-8859-1") + 'msgid "a"\nmsgstr "b"\n'));
    const m = { ...cat.messages[1]!, msgstr: "中" };
    assert.throws(() => encodePo({ ...cat, messages: [cat.messages[0]!, m] }), {
      name: "UnwritableCatalogError",
      message:
        'Cannot write PO file in charset "ISO-8859-1": the entry with msgid "a" has the character U+4E2D (中), ' +
        "which ISO-8859-1 cannot hold",
    });
  });
  await t.step("non-ASCII text and no charset", () => {
    const cat = parsePo(utf8('msgid "a"\nmsgstr "b"\n'));
    assert.throws(() => formatPo({ ...cat, messages: [{ ...cat.messages[0]!, msgstr: "é" }] }), {
      name: "UnwritableCatalogError",
      message: "Cannot write PO file: it has non-ASCII text but its header names no charset " +
        '(add "Content-Type: text/plain; charset=UTF-8")',
    });
  });
  await t.step("a NUL character in a string", () => {
    const cat = parsePo(utf8('msgid "a"\nmsgstr "b"\n'));
    assert.throws(() => formatPo({ ...cat, messages: [{ ...cat.messages[0]!, msgstr: "a\0b" }] }), {
      name: "UnwritableCatalogError",
      message:
        'Cannot write PO file: the entry with msgid "a" contains a NUL character, which PO strings cannot hold',
    });
  });
  await t.step("ISO-8859-1 and KOI8-R are written in their own bytes", () => {
    const latin = new Uint8Array([
      ...utf8(header("ISO-8859-1") + 'msgid "a"\nmsgstr "'),
      0xe9,
      ...utf8('"\n'),
    ]);
    assert.deepEqual(encodePo(parsePo(latin)), latin);
    const koi = new Uint8Array([...utf8(header("KOI8-R") + 'msgid "a"\nmsgstr "'), 0xc1, ...utf8('"\n')]);
    assert.deepEqual(encodePo(parsePo(koi)), koi);
  });
});

Deno.test("matchLayouts finds the old layout of every message a write kept, in one pass", async (t) => {
  const msg = (msgid: string): PoMessage => ({
    ...parsePo(utf8(`msgid "${msgid}"\nmsgstr "x"\n`)).messages[0]!,
  });
  const old = Array.from({ length: 30 }, (_, i) => msg(`m${i}`));
  const layouts = old.map((_, i) => ({ start: i }) as unknown as Layout);
  const list: LaidOutList = { messages: old, layouts, singleByte: false, noWrapAll: false };
  /** The old index of each message's layout found, -1 where none was. */
  const match = (messages: PoMessage[]): { found: number[]; hits: number } => {
    const found: (Layout | undefined)[] = new Array(messages.length);
    const hits = matchLayouts(messages, list, found);
    return { found: Array.from(found, (l) => l === undefined ? -1 : l.start), hits };
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
  await t.step("the same messages", () => {
    assert.deepEqual(match([...old]), { found: range(0, 30), hits: 30 });
  });
  await t.step("one replaced", () => {
    const { found } = match(old.map((m, i) => i === 7 ? { ...m, msgstr: "y" } : m));
    assert.deepEqual(found, range(0, 30).map((i) => i === 7 ? -1 : i));
  });
  await t.step("new messages inserted before the last five (an append before the obsolete ones)", () => {
    const { found, hits } = match([...old.slice(0, 25), msg("n1"), msg("n2"), ...old.slice(25)]);
    assert.deepEqual(found, [...range(0, 25), -1, -1, ...range(25, 30)]);
    assert.equal(hits, 30);
  });
  await t.step("messages removed", () => {
    const { found } = match(old.filter((_, i) => i !== 3 && i !== 4 && i !== 20));
    assert.deepEqual(found, range(0, 30).filter((i) => i !== 3 && i !== 4 && i !== 20));
  });
  await t.step("a message moved far is laid out again; the others are still found", () => {
    const moved = [...old.slice(1, 29), old[0]!, old[29]!];
    const { found } = match(moved);
    assert.deepEqual(found, [...range(1, 29), -1, 29]);
  });
  await t.step("an unrelated list finds nothing", () => {
    assert.deepEqual(match(range(0, 5).map((i) => msg(`m${i}`))).hits, 0);
  });
  await t.step("a list whose first 32 messages are new is taken as unrelated", () => {
    const fresh = range(0, 32).map((i) => msg(`f${i}`));
    assert.equal(match([...fresh, ...old]).hits, 0);
    assert.equal(match([...fresh.slice(1), ...old]).hits, 30);
  });
});

Deno.test("canonicalCatalogFrom gives what canonicalCatalog gives, for edits a write makes and others", async (t) => {
  const base = canonicalCatalog(parsePo(Deno.readFileSync(new URL("comments_flags.in.po", FIXTURES))));
  const withFlags = (m: PoMessage): PoMessage => ({ ...m, flags: ["python-format", "fuzzy", "c-format"] });
  const last = base.messages.length - 1;
  const edits: [string, (list: readonly PoMessage[]) => PoMessage[]][] = [
    ["nothing changed", (l) => [...l]],
    ["one message replaced by a non-canonical one", (l) => l.map((m, i) => i === 1 ? withFlags(m) : m)],
    ["a message inserted and one removed", (l) => [...l.slice(0, 2), withFlags(l[1]!), ...l.slice(3)]],
    ["a message made obsolete (falls back)", (l) => l.map((m, i) => i === 1 ? { ...m, obsolete: true } : m)],
    ["an active message after an obsolete one (falls back)", (l) => [...l, { ...l[1]!, msgid: "late" }]],
    ["a message in another domain (falls back)", (l) => [...l, { ...l[1]!, msgid: "d", domain: "other" }]],
    ["the last message moved first", (l) => [l[last]!, ...l.slice(0, last)]],
  ];
  for (const [name, edit] of edits) {
    await t.step(name, () => {
      const edited = { ...base, messages: edit(base.messages) };
      assert.deepEqual(canonicalCatalogFrom(base, edited), canonicalCatalog(edited));
    });
  }
  await t.step("a base that canonicalCatalog did not make", () => {
    const raw = parsePo(Deno.readFileSync(new URL("comments_flags.in.po", FIXTURES)));
    const edited = { ...raw, messages: raw.messages.map((m, i) => i === 1 ? withFlags(m) : m) };
    assert.deepEqual(canonicalCatalogFrom(raw, edited), canonicalCatalog(edited));
  });
});

Deno.test("encodePo with once (wrap's one-shot layout) writes the same bytes, and a later encoding is unaffected", async () => {
  const dir = new URL("./fixtures/po_wrap/", import.meta.url);
  let files = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".po")) continue;
    const bytes = await Deno.readFile(new URL(entry.name, dir));
    let catalog: PoCatalog;
    try {
      catalog = parsePo(bytes, { fileName: entry.name });
    } catch {
      continue; // a fixture msgcat rejects
    }
    const fresh = () => parsePo(bytes, { fileName: entry.name });
    let expected: Uint8Array;
    try {
      expected = encodePo(fresh());
    } catch {
      continue;
    }
    assert.deepEqual(encodePo(catalog, { once: true }), expected, entry.name);
    // The same catalogue again, from the cache or not: still the same bytes.
    assert.deepEqual(encodePo(catalog), expected, entry.name);
    assert.deepEqual(encodePo(catalog, { once: true }), expected, entry.name);
    files++;
  }
  assert.ok(files >= 3, `${files} fixtures`);
});
