/**
 * compile in every charset the reader supports: for each, a catalogue of the charset's whole
 * repertoire, made by glibc's iconv from UTF-8 (not by our encoder), is compiled by us and by
 * msgfmt 0.21, and the MO files must be the same bytes; our encoder must hold exactly the
 * characters glibc's iconv holds.
 */
import assert from "node:assert/strict";
import { compileMo } from "../lib/po/operations/compile.ts";
import { parsePo } from "../lib/po/read/parse.ts";
import { UnwritableCatalogError } from "../lib/errors.ts";
import { canonicalCharset } from "../lib/po/charsets/_charset.ts";
import { stringEncoder } from "../lib/po/charsets/_string_encoder.ts";
import { runs } from "./_prerequisites.ts";

/** Every charset msgcat 0.21 accepts, with whether this service reads and compiles it. */
const CHARSETS: readonly [string, boolean][] = [
  ["UTF-8", true],
  ["ASCII", true],
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15].map((n) => [`ISO-8859-${n}`, true] as [string, boolean]),
  ...["KOI8-R", "KOI8-U", "CP866", "CP874", "TIS-620"].map((c) => [c, true] as [string, boolean]),
  ...[1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257].map((n) => [`CP${n}`, true] as [string, boolean]),
  ...["EUC-KR", "CP949", "JOHAB", "EUC-JP", "SHIFT_JIS", "CP932", "GB2312", "GBK", "GB18030", "BIG5"]
    .map((c) => [c, true] as [string, boolean]),
  ["BIG5-HKSCS", true],
  ["CP950", true],
  ...["EUC-TW", "KOI8-T", "CP850", "VISCII", "GEORGIAN-PS"].map((c) => [c, false] as [string, boolean]),
];

/**
 * Where the reader's tables (WHATWG's single-byte ones, with glibc's corrections for the multi-byte
 * ones) and glibc's iconv encoder do not hold the same characters, none of which changes an MO:
 * msgfmt copies a string's bytes, and the reader and this encoder turn each byte sequence they
 * accept into one character and back into that very sequence. Each is a range of code points
 * and how many of them differ:
 * - Windows code pages, CP874, TIS-620: bytes glibc leaves undefined are read as the C1 control
 *   of the same number (WHATWG's tables; TIS-620 also A0), so "we hold" those controls (glibc's
 *   msgfmt refuses such a byte as an invalid multibyte sequence: a difference of the reader).
 * - KOI8-U: WHATWG's table is KOI8-RU's (Ў ў at AE, BE, where glibc's KOI8-U has ╝ ╬).
 * - CP1255: also U+05BA (glibc reads no CA); glibc's encoder composes Hebrew presentation forms (U+FB1D–FB4E) of letter + point.
 * - JOHAB, EUC-JP, Shift_JIS, CP932: glibc reads or writes 5C and 7E as ₩, ¥ and ‾; the PO syntax
 *   (and msgcat, and we) keeps them ASCII.
 */
const KNOWN_DIFFERENCES: Record<
  string,
  { onlyOurs?: [number, number, number]; onlyGlibc?: [number, number, number] }
> = {
  "KOI8-U": { onlyOurs: [0x40e, 0x45e, 2], onlyGlibc: [0x255d, 0x256c, 2] },
  "CP874": { onlyOurs: [0x81, 0x9f, 23] },
  "TIS-620": { onlyOurs: [0x80, 0xa0, 33] },
  "CP1250": { onlyOurs: [0x81, 0x98, 5] },
  "CP1251": { onlyOurs: [0x98, 0x98, 1] },
  "CP1252": { onlyOurs: [0x81, 0x9d, 5] },
  "CP1253": { onlyOurs: [0x81, 0x9f, 14] },
  "CP1254": { onlyOurs: [0x81, 0x9e, 7] },
  "CP1255": { onlyOurs: [0x81, 0x5ba, 13], onlyGlibc: [0xfb1d, 0xfb4e, 34] },
  "CP1257": { onlyOurs: [0x81, 0x9f, 10] },
  "JOHAB": { onlyGlibc: [0x20a9, 0x20a9, 1] },
  "EUC-JP": { onlyGlibc: [0x5c, 0x7e, 2] },
  "SHIFT_JIS": { onlyGlibc: [0xa5, 0x203e, 2] },
  "CP932": { onlyGlibc: [0x5c, 0x7e, 2] },
};

/** `[first, last, count]` of characters, or null for none. */
function span(chars: readonly string[]): [number, number, number] | undefined {
  if (chars.length === 0) return undefined;
  const cps = chars.map((c) => c.codePointAt(0)!);
  return [Math.min(...cps), Math.max(...cps), cps.length];
}

const HAS_TOOLS = runs("msgfmt") && runs("iconv");
if (!HAS_TOOLS) {
  console.log(
    "not run in po_compile_charsets_test.ts: the msgfmt comparisons need msgfmt and iconv (not found)",
  );
}

async function run(cmd: string, args: string[], input?: Uint8Array) {
  const child = new Deno.Command(cmd, {
    args,
    stdin: input ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Written while the output is read: a pipe that fills up would stop both sides otherwise.
  const output = child.output();
  if (input) {
    const w = child.stdin.getWriter();
    await w.write(input).catch(() => {});
    await w.close().catch(() => {});
  }
  const out = await output;
  return { ok: out.success, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr) };
}

/** The code points tried: the BMP and plane 2 (Big5-HKSCS's ideographs); every plane for UTF-8 and GB18030. */
function* candidates(charset: string): Generator<number> {
  const all = charset === "UTF-8" || charset === "GB18030";
  for (let cp = 0x80; cp <= (all ? 0x10ffff : 0x2ffff); cp++) {
    if (cp >= 0xd800 && cp < 0xe000) continue;
    if (!all && cp === 0x10000) cp = 0x20000;
    yield cp;
  }
}

const te = new TextEncoder();

/**
 * msgfmt 0.21 aborts (SIGABRT) on any Hebrew letter in a CP1255 catalogue (glibc's decoder holds a
 * letter back, waiting for a point to compose with, which gettext's lexer does not expect): the
 * comparison in CP1255 leaves the letters out. We compile them (their bytes, as read).
 */
const HEBREW_LETTER = /[\u05d0-\u05f4]/;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

for (const [charset, supported] of CHARSETS) {
  Deno.test(
    `compile in ${charset}: ${supported ? "msgfmt's bytes for the whole repertoire" : "a clear refusal"}`,
    {
      ignore: supported && !HAS_TOOLS,
    },
    async () => {
      assert.equal(canonicalCharset(charset), charset);
      const encoder = stringEncoder(charset);
      const header = `msgid ""\nmsgstr "Content-Type: text/plain; charset=${charset}\\n"\n\n`;
      if (!supported) {
        assert.equal(encoder, null);
        // ASCII text is the same bytes in every charset: compiled; anything else refused, clearly.
        const ascii = parsePo(new TextEncoder().encode(header + 'msgid "a"\nmsgstr "b"\n'), "x.po");
        assert.ok(compileMo(ascii).bytes !== null);
        const other = {
          ...ascii,
          messages: [...ascii.messages, { ...ascii.messages[1]!, msgid: "c", msgstr: "é" }],
        };
        assert.throws(
          () => compileMo(other),
          (e: Error) =>
            e instanceof UnwritableCatalogError && e.message.includes(`charset ${charset} cannot be encoded`),
        );
        return;
      }
      assert.ok(encoder !== null);
      // Ours: every character our encoder holds. Glibc's: what `iconv -c` keeps of every candidate.
      const ours: string[] = [];
      const tried: string[] = [];
      for (const cp of candidates(charset)) {
        const ch = String.fromCodePoint(cp);
        tried.push(ch);
        if (typeof encoder(ch) !== "number") ours.push(ch);
      }
      if (charset === "ASCII") assert.equal(ours.length, 0);
      const kept = await run(
        "iconv",
        ["-c", "-f", "UTF-8", "-t", charset],
        new TextEncoder().encode(tried.join("\n")),
      );
      const back = await run("iconv", ["-f", charset, "-t", "UTF-8"], kept.stdout);
      assert.ok(back.ok, back.stderr);
      const glibc = new Set(new TextDecoder().decode(back.stdout).split("\n").filter((c) => c !== ""));
      const oursSet = new Set(ours);
      const known = KNOWN_DIFFERENCES[charset] ?? {};
      assert.deepEqual(
        span(ours.filter((c) => !glibc.has(c))),
        known.onlyOurs,
        "the characters only our codec holds are the known ones",
      );
      assert.deepEqual(
        span([...glibc].filter((c) => !oursSet.has(c))),
        known.onlyGlibc,
        "the characters only glibc's iconv holds are the known ones",
      );

      // The catalogue: the repertoire 64 characters per msgstr (printable ASCII for ASCII), in UTF-8,
      // converted to the charset by glibc's iconv, so its bytes are glibc's, not our encoder's.
      const repertoire = charset === "ASCII"
        ? [...Array(95).keys()].map((i) => String.fromCharCode(0x20 + i)).filter((c) =>
          c !== '"' && c !== "\\"
        )
        : ours.filter((c) => glibc.has(c) && !(charset === "CP1255" && HEBREW_LETTER.test(c)));
      // Only the strings go through iconv (glibc's JOHAB has no backslash: the syntax stays ASCII),
      // one per line (no charset here has 0A inside a character).
      const strings: string[] = [];
      for (let i = 0; i < repertoire.length; i += 64) strings.push(repertoire.slice(i, i + 64).join(""));
      const converted = await run("iconv", ["-f", "UTF-8", "-t", charset], te.encode(strings.join("\n")));
      assert.ok(converted.ok, converted.stderr);
      const parts: Uint8Array[] = [te.encode(header)];
      let from = 0;
      strings.forEach((_, k) => {
        let to = converted.stdout.indexOf(10, from);
        if (to < 0) to = converted.stdout.length;
        parts.push(
          te.encode(`msgid "${k}"\nmsgstr "`),
          converted.stdout.subarray(from, to),
          te.encode('"\n\n'),
        );
        from = to + 1;
      });
      const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (file.set(p, at), at + p.length), 0);
      const dir = await Deno.makeTempDir();
      try {
        await Deno.writeFile(`${dir}/in.po`, file);
        const gnu = await run("msgfmt", ["-o", `${dir}/gnu.mo`, `${dir}/in.po`]);
        assert.ok(gnu.ok, gnu.stderr);
        const r = compileMo(parsePo(file, "in.po"));
        assert.equal(r.messages, 1 + Math.ceil(repertoire.length / 64));
        assert.ok(
          sameBytes(r.bytes!, await Deno.readFile(`${dir}/gnu.mo`)),
          "our MO is msgfmt's, byte for byte",
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}

Deno.test("compile logs nothing per string, whatever the charset", () => {
  const said: unknown[] = [];
  const saved = { log: console.log, warn: console.warn, error: console.error, trace: console.trace };
  console.log =
    console.warn =
    console.error =
    console.trace =
      (...args: unknown[]) => said.push(args);
  try {
    for (
      const [charset, sample] of [["JOHAB", "\uac00"], ["EUC-JP", "\u301c"], [
        "BIG5-HKSCS",
        "\u4e2d",
      ]] as const
    ) {
      const encoder = stringEncoder(charset)!;
      let text = `msgid ""\nmsgstr "Content-Type: text/plain; charset=${charset}\\n"\n\n`;
      for (let i = 0; i < 200; i++) text += `msgid "m${i}"\nmsgstr "${sample}${i}"\n\n`;
      const bytes = new Uint8Array([...text].flatMap((c) => [...(encoder(c) as Uint8Array)]));
      assert.ok(compileMo(parsePo(bytes, "x.po")).bytes !== null);
    }
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(said, []);
});
