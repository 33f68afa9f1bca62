/**
 * `laidOutVerdict` and `knownLayout` (lib/po/write/laid_out.ts): a definite answer only when the full reader
 * and writer give it too, and their bytes. Checked against them on every fixture and corpus file, on thousands of mutations of
 * laid-out files, and for each shape it must leave to them.
 */
import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
import { encodePo, layoutVote, parsePo } from "../lib/po/mod.ts";
import {
  differsInEveryGeneration,
  knownLayout,
  LAID_OUT,
  laidOutVerdict,
  NOT_LAID_OUT,
  UNKNOWN,
} from "../lib/po/write/laid_out.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const SHARED = new URL("../../shared/corpus/", import.meta.url);

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The full path's output for a file (`encodePo(parsePo())`, msgcat's bytes), or null when it refuses it. */
function fullLayout(bytes: Uint8Array, noWrap = false): Uint8Array | null {
  try {
    return encodePo(parsePo(bytes), { noWrap, once: true });
  } catch {
    return null;
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function unchanged(bytes: Uint8Array, noWrap = false): boolean {
  const out = fullLayout(bytes, noWrap);
  return out !== null && same(out, bytes);
}

/**
 * Fails unless a definite answer of `laidOutVerdict` is the full path's, and the bytes `knownLayout`
 * gives (if any) are the full path's output; returns the answer.
 */
function agrees(bytes: Uint8Array, noWrap: boolean, what: string): number {
  const fast = laidOutVerdict(bytes, noWrap);
  const everywhere = differsInEveryGeneration();
  const known = knownLayout(bytes, noWrap);
  assert.equal(differsInEveryGeneration(), everywhere, `${what}: the two readings disagree`);
  if (everywhere) {
    // Detection then skips 0.23's layout: it must not give the file back either.
    assert.equal(fast, NOT_LAID_OUT, `${what}: differs everywhere, yet ${fast}`);
    let other: Uint8Array | null = null;
    try {
      other = encodePo(parsePo(bytes, { placeholderCharset: true }), {
        noWrap,
        once: true,
        generation: "0.23",
      });
    } catch {
      other = null;
    }
    assert.ok(
      other === null || !same(other, bytes),
      `${what}: said to differ for every generation, not for 0.23`,
    );
  }
  if (fast === UNKNOWN) {
    assert.equal(known, null, `${what}: bytes without an answer`);
    return fast;
  }
  const full = fullLayout(bytes, noWrap);
  const said = fast === LAID_OUT ? "laid out" : "not laid out";
  assert.ok(full !== null, `${what}: said ${said}, but the full path refuses it`);
  assert.equal(same(full, bytes), fast === LAID_OUT, `${what}: said ${said}, the full path does not agree`);
  if (known !== null) assert.ok(same(known, full), `${what}: its bytes are not the full path's output`);
  else assert.equal(fast, NOT_LAID_OUT);
  return fast;
}

function poFiles(dir: URL): URL[] {
  const found: URL[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) found.push(...poFiles(url));
    else if (/\.pot?$/.test(e.name)) found.push(url);
  }
  return found.sort((a, b) => a.href < b.href ? -1 : 1);
}

/** Checks the one-sided rule on `files`; returns how many laid-out files were recognised. */
function checkFiles(files: URL[]): { clean: number; recognised: number } {
  let clean = 0;
  let recognised = 0;
  for (const url of files) {
    const bytes = Deno.readFileSync(url);
    for (const noWrap of [false, true]) {
      const fast = agrees(bytes, noWrap, `${url.pathname}${noWrap ? " (--no-wrap)" : ""}`);
      if (!noWrap && unchanged(bytes)) {
        clean++;
        if (fast === LAID_OUT) recognised++;
      }
    }
  }
  return { clean, recognised };
}

/** A header as msgcat prints it (checked against msgcat by hand: `msgcat FILE | cmp - FILE`). */
const HEADER =
  'msgid ""\nmsgstr ""\n"Project-Id-Version: x\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n';

Deno.test("laid_out: never true where the writer changes the file (the repository's fixtures)", async () => {
  for (const native of [false, true]) {
    if (native) await loadNativeBytes(); // native UTF-8 check and comparison, and their plain versions
    const { clean, recognised } = checkFiles(poFiles(FIXTURES));
    assert.ok(clean > 10, `only ${clean} laid-out fixtures`);
    assert.ok(recognised > 0);
  }
});

Deno.test(
  "laid_out: never true where the writer changes the file, and every UTF-8 corpus file that is laid out is recognised",
  {
    ignore: lacks(import.meta.url, "shared"),
  },
  async () => {
    await loadNativeBytes();
    const corpus = poFiles(new URL("po/", SHARED));
    const { clean, recognised } = checkFiles(corpus);
    // The corpus's laid-out catalogues are all UTF-8 with a header: every one is recognised (a
    // miss would send python-docs-like trees down the slow path without any test failing).
    assert.equal(recognised, clean, `${clean - recognised} laid-out corpus files not recognised`);
    assert.ok(clean >= 20);
    checkFiles(poFiles(new URL("msgcat-vectors/", SHARED)));
  },
);

/** A small deterministic generator (xorshift32). */
function random(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

Deno.test("laid_out: thousands of small mutations of laid-out files: every definite answer is the full path's", () => {
  // Laid-out fixtures (comments_flags.out.po is not one: msgcat drops a duplicate reference from it).
  const names = [
    "po/escapes.out.po",
    "po/wrapping.out.po",
    "po_wrap/random_text.out.po",
    "po_wrap/random_printf.out.po",
    "po_wrap/references.out.po",
  ];
  const sources = names.map((name) => Deno.readFileSync(new URL(name, FIXTURES)));
  for (const [i, b] of sources.entries()) {
    assert.ok(laidOutVerdict(b) === LAID_OUT, `${names[i]} is recognised as laid out`);
  }
  // Bytes that change meaning in a PO file, and plain ones.
  const alphabet = utf8(' "\\\n#~|:.,!ntx0[]mé\t/1');
  const next = random(16);
  const told = [0, 0, 0];
  for (let round = 0; round < 3000; round++) {
    const src = sources[round % sources.length]!;
    const at = Math.floor(next() * src.length);
    const b = alphabet[Math.floor(next() * alphabet.length)]!;
    let m: Uint8Array;
    switch (round % 4) {
      case 0: // replace a byte
        m = src.slice();
        m[at] = b;
        break;
      case 1: // insert one
        m = new Uint8Array(src.length + 1);
        m.set(src.subarray(0, at));
        m[at] = b;
        m.set(src.subarray(at), at + 1);
        break;
      case 2: // delete one
        m = new Uint8Array(src.length - 1);
        m.set(src.subarray(0, at));
        m.set(src.subarray(at + 1), at);
        break;
      default: { // move a line elsewhere
        const text = new TextDecoder().decode(src).split("\n");
        const from = Math.floor(next() * (text.length - 1));
        const [line] = text.splice(from, 1);
        text.splice(Math.floor(next() * text.length), 0, line!);
        m = utf8(text.join("\n"));
      }
    }
    told[agrees(m, false, `mutation ${round}`)]!++;
  }
  // Some mutations leave a laid-out file (a letter for a letter), many only change the layout.
  assert.ok(told[LAID_OUT]! > 0 && told[NOT_LAID_OUT]! > 0 && told[UNKNOWN]! > 0, `answers: ${told}`);
});

Deno.test("laid_out: a laid-out catalogue with every kind of line is recognised", () => {
  const file = HEADER + "\n" +
    "# translator\n#\n#. extracted\n#: a.c:1 b.c:2\n#, fuzzy, c-format\n" +
    '#| msgid "old"\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichier"\nmsgstr[1] "%d fichiers"\n\n' +
    'msgctxt "menu"\nmsgid "Open"\nmsgstr "Ouvrir \\"vite\\"\\n"\n\n' +
    'msgid ""\n"A long paragraph that msgcat wraps at seventy-nine columns, so that it takes "\n' +
    '"two lines."\nmsgstr "Traduit"\n\n' +
    '#~ msgid "gone"\n#~ msgstr "parti"\n';
  const bytes = utf8(file);
  assert.ok(unchanged(bytes), "the sample is what the writer prints");
  assert.equal(laidOutVerdict(bytes), LAID_OUT);
});

Deno.test("laidOutVerdict: what msgcat prints otherwise is NOT_LAID_OUT, what it may refuse is UNKNOWN", () => {
  const body = 'msgid "a"\nmsgstr "b"\n';
  const notLaidOut: Record<string, string> = {
    "an obsolete message before an active one (msgcat moves it)":
      `${HEADER}\n#~ msgid "x"\n#~ msgstr "y"\n\n${body}`,
    "an obsolete message without translation (msgcat drops it)":
      `${HEADER}\n${body}\n#~ msgid "x"\n#~ msgstr ""\n`,
    "a raw tab (msgcat writes \\t)": `${HEADER}\nmsgid "a\tb"\nmsgstr "b"\n`,
    "a Solaris reference (msgcat prints it on a #: line)": `${HEADER}\n# File: a.c, line:3\n${body}`,
    "two flag lines": `${HEADER}\n#, fuzzy\n#, c-format\n${body}`,
    "comments out of msgcat's order": `${HEADER}\n#. extracted\n# translator\n${body}`,
    "a string that msgcat wraps": `${HEADER}\nmsgid "${"word ".repeat(30)}"\nmsgstr "b"\n`,
    // Whitespace to gettext's reader: msgcat prints one blank line between messages, none after.
    "two blank lines": `${HEADER}\n\n${body}`,
    "three blank lines between two messages": `${HEADER}\n${body}\n\n\nmsgid "c"\nmsgstr "d"\n`,
    "a trailing blank line": `${HEADER}\n${body}\n`,
    "trailing blank lines": `${HEADER}\n${body}\n\n\n`,
  };
  const unknown: Record<string, string> = {
    "a duplicate message (msgcat refuses the file)": `${HEADER}\n${body}\n${body}`,
    "the header alone (msgcat prints nothing)": HEADER,
    "no charset in the header": `msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\n${body}`,
    "a Latin-1 catalogue": `msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\n${body}`,
    "a blank line between a msgid and its msgstr": `${HEADER}\nmsgid "a"\n\nmsgstr "b"\n`,
    "a blank line between a comment and its message": `${HEADER}\n# c\n\n${body}`,
    "a blank line between a msgctxt and its msgid": `${HEADER}\nmsgctxt "c"\n\n${body}`,
    "a blank line between a previous msgid and its message": `${HEADER}\n#| msgid "p"\n\n${body}`,
    "a blank line between two plural forms":
      `${HEADER}\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "c"\n\nmsgstr[1] "d"\n`,
    "a blank line before a continuation line": `${HEADER}\nmsgid "a"\nmsgstr "b"\n\n"c"\n`,
    "an obsolete message split by a blank line": `${HEADER}\n${body}\n#~ msgid "x"\n\n#~ msgstr "y"\n`,
    "no final newline": `${HEADER}\n${body}`.slice(0, -1),
    "an escape msgcat does not print": `${HEADER}\nmsgid "\\x41"\nmsgstr "b"\n`,
    "a domain directive": `${HEADER}\ndomain "other"\n\n${body}`,
    "CRLF line ends": `${HEADER}\n${body}`.replaceAll("\n", "\r\n"),
    "msgstr[0] without msgid_plural": `${HEADER}\nmsgid "a"\nmsgstr[0] "b"\n`,
    "plural forms out of order (gettext refuses it)":
      `${HEADER}\nmsgid "a"\nmsgid_plural "b"\nmsgstr[1] "c"\nmsgstr[0] "d"\n`,
    "#| msgctxt without #| msgid (gettext refuses it)": `${HEADER}\n#| msgctxt "x"\nmsgid "a"\nmsgstr "b"\n`,
    "a NUL in a string (msgcat refuses it)": `${HEADER}\nmsgid "a\0b"\nmsgstr "b"\n`,
    "a comment after the strings, with no blank line": `${HEADER}\n${body}# c\nmsgid "c"\nmsgstr "d"\n`,
    // Found by the mutations: gettext joins a line ending with a backslash to the next one.
    "a flag line ending with a backslash": `${HEADER}\n#, c-format\\\n${body}`,
    "a comment ending with a backslash (it reads back as one comment)": `${HEADER}\n# a\\\n# b\n${body}`,
  };
  for (const [what, text] of Object.entries(notLaidOut)) {
    assert.equal(agrees(utf8(text), false, what), NOT_LAID_OUT, what);
  }
  // What no generation's layout of strings changes is told so (detection then lays out one only).
  const everywhere = [
    "an obsolete message before an active one (msgcat moves it)",
    "an obsolete message without translation (msgcat drops it)",
    "a Solaris reference (msgcat prints it on a #: line)",
    "two flag lines",
    "comments out of msgcat's order",
    "two blank lines",
    "three blank lines between two messages",
    "a trailing blank line",
    "trailing blank lines",
  ];
  for (const [what, text] of Object.entries(notLaidOut)) {
    laidOutVerdict(utf8(text));
    assert.equal(differsInEveryGeneration(), everywhere.includes(what), what);
  }
  assert.equal(layoutVote(utf8(notLaidOut["two blank lines"]!)), "neither");
  for (const [what, text] of Object.entries(unknown)) assert.equal(laidOutVerdict(utf8(text)), UNKNOWN, what);
  assert.equal(
    laidOutVerdict(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(`${HEADER}\n${body}`)])),
    UNKNOWN,
    "a BOM",
  );
  const malformed = utf8(`${HEADER}\nmsgid "a?"\nmsgstr "b"\n`);
  malformed[malformed.indexOf(0x3f)] = 0xff; // not UTF-8
  assert.equal(laidOutVerdict(malformed), UNKNOWN, "malformed UTF-8");
  assert.equal(agrees(utf8(`${HEADER}\n${body}`), false, "the same file without the fault"), LAID_OUT);
});

Deno.test("laid_out: `#:` lines are taken as they are only where msgcat prints them so", () => {
  const ref = (lines: string) => utf8(`${HEADER}\n${lines}msgid "a"\nmsgstr "b"\n`);
  const name = (n: number) => "d/" + "x".repeat(n - 4) + ".c"; // n bytes
  const laidOut: Record<string, string> = {
    "one reference": "#: a.c:1\n",
    "a reference without a line": "#: Makefile\n",
    "a line filled to exactly 79 columns": `#: ${name(30)}:1 ${name(43)}\n`,
    "the next reference does not fit (80 columns)": `#: ${name(30)}:1\n#: ${name(42)}:1\n`,
    "a name longer than the line": `#: ${name(100)}:7\n#: a.c:1\n`,
    "a colon inside the name": "#: C:/w/a.c:10 a:b\n",
    "line 0, and ten digits' worth in nine": "#: a.c:0 b.c:999999999\n",
  };
  const notLaidOut: Record<string, string> = {
    "a line past 79 columns": `#: ${name(30)}:1 ${name(42)}:1\n`,
    "a reference that fits on the line before": "#: a.c:1\n#: b.c:2\n",
    "a duplicate on one line": "#: a.c:1 a.c:1\n",
    "a duplicate on the next line": `#: ${name(70)}:1\n#: ${name(70)}:1\n`,
    "./ removed": "#: ./a.c:1\n",
    "a leading zero": "#: a.c:01\n",
    "a tab": "#:\ta.c:1\n",
    "two spaces": "#: a.c:1  b.c:2\n",
    "a trailing space": "#: a.c:1 \n",
    "no space": "#:a.c:1\n",
    "NAME :N": "#: a.c :1\n",
    "NAME: N": "#: a.c: 1\n",
    "an empty #: line": "#:\n",
    "a Solaris reference after them": "#: a.c:1\n# File: b.c, line:2\n",
    "a duplicate of a Solaris reference": "# File: a.c, line:1\n#: a.c:1\n",
    "split by an extracted comment": "#: a.c:1\n#. x\n#: b.c:2\n",
    "after the flags": "#, fuzzy\n#: a.c:1\n",
    "twenty references on short lines": Array.from({ length: 20 }, (_, k) => `#: f${k}.c:${k}\n`).join(""),
  };
  for (const [what, lines] of Object.entries(laidOut)) {
    assert.equal(agrees(ref(lines), false, what), LAID_OUT, what);
  }
  for (const [what, lines] of Object.entries(notLaidOut)) {
    assert.equal(agrees(ref(lines), false, what), NOT_LAID_OUT, what);
  }
  // Not ASCII, or ten digits (read by the full reader's rules): whatever the answer, it is the full path's.
  for (
    const lines of ["#: é.c:1\n", "#: a.c:1234567890\n", "#: a.c:99999999999999999999\n", "#: a\u0001.c:1\n"]
  ) {
    agrees(ref(lines), false, lines);
  }
});

Deno.test("laid_out: a one-line string is taken as it is only where msgcat prints it so", () => {
  const file = (lines: string) => utf8(`${HEADER}\n${lines}`);
  const words = (bytes: number) => ("abcd ".repeat(20)).slice(0, bytes); // text of `bytes` bytes
  // `msgid "` + text + `"`: 8 bytes around the text, `msgstr "` 9, `#~ msgid "` 11.
  const laidOut: Record<string, string> = {
    "a msgid line of 79 bytes": `msgid "${words(71)}"\nmsgstr "b"\n`,
    "a msgstr line of 79 bytes": `msgid "a"\nmsgstr "${words(70)}"\n`,
    "an obsolete line of 79 bytes": `#~ msgid "${words(68)}"\n#~ msgstr "b"\n`,
    "a previous msgid of 79 bytes": `#| msgid "${words(68)}"\nmsgid "a"\nmsgstr "b"\n`,
    "escapes, a final \\n": `msgid "a\\tb\\"c\\\\d\\n"\nmsgstr "b\\n"\n`,
    "an empty string": `msgid "a"\nmsgstr ""\n`,
    "wide characters, 78 bytes": `msgid "${"漢字".repeat(11)}${"x".repeat(4)}"\nmsgstr "b"\n`,
    "a long word that cannot break": `msgid "${"x".repeat(90)}"\nmsgstr "b"\n`,
  };
  const notLaidOut: Record<string, string> = {
    "a msgid line of 80 bytes": `msgid "${words(72)}"\nmsgstr "b"\n`,
    "an obsolete line of 80 bytes": `#~ msgid "${words(69)}"\n#~ msgstr "b"\n`,
    "a \\n inside": `msgid "a\\nb"\nmsgstr "b"\n`,
    "a \\n before an escaped quote": `msgid "a\\n\\""\nmsgstr "b"\n`,
    "a raw tab": `msgid "a\tb"\nmsgstr "b"\n`,
    "a raw carriage return": `msgid "a\rb"\nmsgstr "b"\n`,
  };
  for (const [what, lines] of Object.entries(laidOut)) {
    assert.equal(agrees(file(lines), false, what), LAID_OUT, what);
  }
  for (const [what, lines] of Object.entries(notLaidOut)) {
    assert.equal(agrees(file(lines), false, what), NOT_LAID_OUT, what);
  }
  // Controls msgcat prints as they are, or refuses: whatever the answer, it is the full path's.
  for (const c of [1, 4, 0x1b, 0x7f]) {
    agrees(file(`msgid "a${String.fromCharCode(c)}b"\nmsgstr "b"\n`), false, `${c}`);
  }
});

Deno.test("laid_out: only gettext's keywords, spelled as msgcat spells them, are read as keywords", () => {
  const file = (lines: string) => utf8(`${HEADER}\n${lines}`);
  const read: Record<string, string> = {
    "msgctxt, msgid, msgstr": 'msgctxt "c"\nmsgid "a"\nmsgstr "b"\n',
    "msgid_plural and msgstr[N]": 'msgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\nmsgstr[1] "bs"\n',
    "ten plural forms": 'msgid "a"\nmsgid_plural "as"\n' +
      Array.from({ length: 11 }, (_, k) => `msgstr[${k}] "b${k}"\n`).join(""),
  };
  for (const [what, lines] of Object.entries(read)) {
    assert.equal(agrees(file(lines), false, what), LAID_OUT, what);
  }
  const notKeywords = [
    'msgi "a"\nmsgstr "b"\n',
    'msgid  "a"\nmsgstr "b"\n',
    'msgid"a"\nmsgstr "b"\n',
    'msgid "a"\nmsgstrx "b"\n',
    'msgid "a"\nmsgid_plurals "as"\nmsgstr[0] "b"\n',
    'msgid "a"\nmsgid_plural "as"\nmsgstr[00] "b"\nmsgstr[1] "c"\n',
    'msgid "a"\nmsgid_plural "as"\nmsgstr[0 ] "b"\nmsgstr[1] "c"\n',
    'msgid "a"\nmsgid_plural "as"\nmsgstr[] "b"\n',
    'msgctx "c"\nmsgid "a"\nmsgstr "b"\n',
    'msgctxtx "c"\nmsgid "a"\nmsgstr "b"\n',
    'MSGID "a"\nmsgstr "b"\n',
  ];
  for (const lines of notKeywords) assert.equal(laidOutVerdict(file(lines)), UNKNOWN, lines);
});

Deno.test("laid_out: a byte sequence is read as UTF-8 exactly where a strict decoder takes it, in strings and comments", () => {
  // Every lead byte outside ASCII, with second bytes at the edges of every range the UTF-8 table
  // draws (overlong forms, surrogates, past U+10FFFF) and third and fourth bytes in or out of the
  // continuation range, cut short by a quote or a line end too; in a msgstr, a continuation line,
  // a translator comment, a reference and a flag line. (The reading checks each sequence where it
  // meets it, with no decode of the whole file: this holds it to a strict decoder.)
  const strict = new TextDecoder("utf-8", { fatal: true });
  const places = [
    (s: Uint8Array) => [utf8(`${HEADER}\nmsgid "a"\nmsgstr "x`), s, utf8('y"\n')],
    (s: Uint8Array) => [utf8(`${HEADER}\nmsgid "a"\nmsgstr ""\n"x\\n"\n"`), s, utf8('"\n')],
    (s: Uint8Array) => [utf8(`${HEADER}\n# x`), s, utf8('\nmsgid "a"\nmsgstr "b"\n')],
    (s: Uint8Array) => [utf8(`${HEADER}\n#: a`), s, utf8('.c:1\nmsgid "a"\nmsgstr "b"\n')],
    (s: Uint8Array) => [utf8(`${HEADER}\n#, fuzzy`), s, utf8('\nmsgid "a"\nmsgstr "b"\n')],
  ];
  const seconds = [0x61, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0x22, 0x0a];
  const laterBytes = [0x80, 0xbf, 0x61, 0xc3];
  let refused = 0;
  let taken = 0;
  for (let lead = 0x80; lead <= 0xff; lead++) {
    for (const second of seconds) {
      for (const third of laterBytes) {
        for (const fourth of laterBytes) {
          const sequence = new Uint8Array([lead, second, third, fourth]);
          for (const [p, place] of places.entries()) {
            const parts = place(sequence);
            const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
            parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
            let wellFormed = true;
            try {
              strict.decode(bytes);
            } catch {
              wellFormed = false;
            }
            const what = `[${[...sequence].map((b) => b.toString(16))}] in place ${p}`;
            if (!wellFormed) {
              assert.equal(laidOutVerdict(bytes), UNKNOWN, `${what}: not UTF-8, but given an answer`);
              refused++;
            } else if (agrees(bytes, false, what) !== UNKNOWN) taken++;
          }
        }
      }
    }
  }
  assert.ok(refused > 10_000 && taken > 1_000, `refused ${refused}, taken ${taken}`);
  // Well-formed at the edges: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+10000, U+10FFFF.
  for (const c of [0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0x10000, 0x10ffff]) {
    const ch = String.fromCodePoint(c);
    for (
      const text of [`${HEADER}\n# ${ch}\nmsgid "a"\nmsgstr "b"\n`, `${HEADER}\nmsgid "a"\nmsgstr "${ch}"\n`]
    ) {
      assert.notEqual(
        agrees(utf8(text), false, `U+${c.toString(16)}`),
        UNKNOWN,
        `U+${c.toString(16)} is taken`,
      );
    }
  }
});

Deno.test("laid_out: 20,000 same-length msgids that differ in a few bytes are all told apart", () => {
  // The case that put a catalogue's messages in one chain when the hash sampled a few bytes
  // (python-docs-fr's token.po): their hashes differ, and the file is recognised in one pass.
  const parts = [HEADER];
  for (let i = 0; i < 20000; i++) {
    parts.push(`msgid "Token value for \`\`${i.toString(36).padStart(4, "0")}\`\`."\nmsgstr "v"\n`);
  }
  const bytes = utf8(parts.join("\n"));
  assert.equal(laidOutVerdict(bytes), LAID_OUT);
  // And one duplicate among them is found.
  assert.equal(laidOutVerdict(utf8(parts.join("\n") + "\n" + parts[1])), UNKNOWN);
});

Deno.test("knownLayout right after laidOutVerdict of the same bytes answers as a reading of its own", () => {
  const body = 'msgid "a"\nmsgstr "b"\n';
  const notLaidOut = utf8(`${HEADER}\n\n${body}`);
  const other = utf8(`${HEADER}\n#, fuzzy\n#, c-format\n${body}`);
  const fresh = knownLayout(notLaidOut.slice());
  assert.ok(fresh !== null);
  assert.equal(laidOutVerdict(notLaidOut), NOT_LAID_OUT);
  assert.deepEqual(knownLayout(notLaidOut), fresh);
  // Another file read in between, or other options: read again.
  laidOutVerdict(notLaidOut);
  laidOutVerdict(other);
  assert.deepEqual(knownLayout(notLaidOut), fresh);
  laidOutVerdict(notLaidOut, true);
  assert.deepEqual(knownLayout(notLaidOut), fresh);
  laidOutVerdict(notLaidOut);
  assert.deepEqual(knownLayout(notLaidOut, false, "0.23"), knownLayout(notLaidOut.slice(), false, "0.23"));
  // Laid out: the bytes themselves.
  const laidOut = utf8(`${HEADER}\n${body}`);
  assert.equal(laidOutVerdict(laidOut), LAID_OUT);
  assert.equal(knownLayout(laidOut), laidOut);
});
