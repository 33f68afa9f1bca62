/**
 * Charsets as msgcat 0.21 knows them: the names it accepts (and their canonical spelling), the
 * `charset=` of a header, and decoders from a file's bytes (held as byte strings, one character per
 * byte) to text. Used by the reader, the writer and the output encoding.
 *
 * @module
 */
import { latin1String } from "../../native_bytes.ts";
import { legacyCodec } from "./_legacy_charset.ts";

/** The charsets msgcat 0.21 accepts ("portable encoding names"), by upper-case spelling. */
const CANONICAL_CHARSETS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  const add = (canonical: string, ...aliases: string[]) => {
    for (const a of [canonical, ...aliases]) m.set(a.toUpperCase(), canonical);
  };
  add("ASCII", "ANSI_X3.4-1968", "US-ASCII");
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15]) add(`ISO-8859-${n}`, `ISO_8859-${n}`);
  for (
    const c of [
      "KOI8-R",
      "KOI8-U",
      "KOI8-T",
      "CP850",
      "CP866",
      "CP874",
      "CP932",
      "CP949",
      "CP950",
      "CP1250",
      "CP1251",
      "CP1252",
      "CP1253",
      "CP1254",
      "CP1255",
      "CP1256",
      "CP1257",
      "GB2312",
      "EUC-JP",
      "EUC-KR",
      "EUC-TW",
      "BIG5",
      "BIG5-HKSCS",
      "GBK",
      "GB18030",
      "SHIFT_JIS",
      "JOHAB",
      "TIS-620",
      "VISCII",
      "GEORGIAN-PS",
      "UTF-8",
    ]
  ) add(c);
  return m;
})();

/**
 * The canonical spelling of a charset msgcat 0.21 accepts (`utf-8` → `UTF-8`, `ISO_8859-1` →
 * `ISO-8859-1`, `US-ASCII` → `ASCII`), or null for a name it calls "not a portable encoding name".
 *
 * @example
 * ```ts
 * canonicalCharset("utf-8"); // "UTF-8"
 * canonicalCharset("latin1"); // null
 * ```
 */
export function canonicalCharset(name: string): string | null {
  return CANONICAL_CHARSETS.get(name.toUpperCase()) ?? null;
}

/** Charsets whose second byte of a character may be an ASCII `\` or `"` (gettext's "weird CJK"). */
export const WEIRD_CJK = new Set([
  "SHIFT_JIS",
  "CP932",
  "BIG5",
  "BIG5-HKSCS",
  "GBK",
  "GB18030",
  "CP949",
  "CP950",
  "JOHAB",
]);

/** WHATWG decoder labels for the charsets we can read; single-byte ones become 256-entry tables. */
const DECODER_LABELS: Record<string, { label: string; single: boolean; c1Identity?: boolean }> = {
  "ISO-8859-2": { label: "iso-8859-2", single: true },
  "ISO-8859-3": { label: "iso-8859-3", single: true },
  "ISO-8859-4": { label: "iso-8859-4", single: true },
  "ISO-8859-5": { label: "iso-8859-5", single: true },
  "ISO-8859-6": { label: "iso-8859-6", single: true },
  "ISO-8859-7": { label: "iso-8859-7", single: true },
  "ISO-8859-8": { label: "iso-8859-8", single: true },
  // WHATWG maps the ISO-8859-9 label to windows-1254; the real charset has C1 controls at 0x80–0x9F.
  "ISO-8859-9": { label: "windows-1254", single: true, c1Identity: true },
  "ISO-8859-13": { label: "iso-8859-13", single: true },
  "ISO-8859-14": { label: "iso-8859-14", single: true },
  "ISO-8859-15": { label: "iso-8859-15", single: true },
  "KOI8-R": { label: "koi8-r", single: true },
  "KOI8-U": { label: "koi8-u", single: true },
  "CP866": { label: "ibm866", single: true },
  "CP874": { label: "windows-874", single: true },
  "TIS-620": { label: "windows-874", single: true, c1Identity: true },
  "CP1250": { label: "windows-1250", single: true },
  "CP1251": { label: "windows-1251", single: true },
  "CP1252": { label: "windows-1252", single: true },
  "CP1253": { label: "windows-1253", single: true },
  "CP1254": { label: "windows-1254", single: true },
  "CP1255": { label: "windows-1255", single: true },
  "CP1256": { label: "windows-1256", single: true },
  "CP1257": { label: "windows-1257", single: true },
  "SHIFT_JIS": { label: "shift_jis", single: false },
  "CP932": { label: "shift_jis", single: false },
  "EUC-JP": { label: "euc-jp", single: false },
  "EUC-KR": { label: "euc-kr", single: false },
  "CP949": { label: "euc-kr", single: false },
  "BIG5": { label: "big5", single: false },
  "BIG5-HKSCS": { label: "big5", single: false },
  "CP950": { label: "big5", single: false },
  "GB2312": { label: "gbk", single: false },
  "GBK": { label: "gbk", single: false },
  "GB18030": { label: "gb18030", single: false },
};

const singleByteTables = new Map<string, string[]>();

/**
 * For a single-byte charset other than ASCII/ISO-8859-1, the character of each byte value ("" for
 * a byte the charset does not define); null for any other charset.
 */
export function singleByteTable(canonical: string): string[] | null {
  const spec = DECODER_LABELS[canonical];
  if (!spec?.single) return null;
  let table = singleByteTables.get(canonical);
  if (!table) {
    const decoder = new TextDecoder(spec.label, { fatal: true });
    table = [];
    for (let b = 0; b < 256; b++) {
      if (spec.c1Identity && b >= 0x80 && b < 0xa0) {
        table.push(String.fromCharCode(b));
        continue;
      }
      try {
        table.push(decoder.decode(new Uint8Array([b])));
      } catch {
        table.push("");
      }
    }
    singleByteTables.set(canonical, table);
  }
  return table;
}

/** Turns a byte string (one char per byte) into a Uint8Array. */
function byteStringToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Bytes → a byte string (one char per byte): {@link latin1String}. */
export function bytesToByteString(bytes: Uint8Array): string {
  return latin1String(bytes);
}

/**
 * A function decoding a byte string in `canonical`; `strict` ones return null for an invalid
 * sequence, loose ones substitute U+FFFD. Returns null when the charset cannot be decoded here.
 */
export function byteStringDecoder(canonical: string, strict: boolean): ((s: string) => string | null) | null {
  if (canonical === "ASCII") return (s) => s;
  if (canonical === "ISO-8859-1") return (s) => s;
  if (canonical === "UTF-8") return strict ? decodeUtf8Strict : decodeUtf8Loose;
  const table = singleByteTable(canonical);
  if (table) {
    return (s) => {
      if (isAscii(s)) return s;
      let out = "";
      for (let i = 0; i < s.length; i++) {
        const ch = table[s.charCodeAt(i)];
        if (ch === "") {
          if (strict) return null;
          out += "\uFFFD";
        } else out += ch;
      }
      return out;
    };
  }
  // Multi-byte legacy charsets: as glibc's iconv reads them (what msgcat reads with).
  const codec = legacyCodec(canonical);
  if (codec !== null) return (s) => isAscii(s) ? s : codec.decode(s, strict);
  const spec = DECODER_LABELS[canonical];
  if (!spec) return null;
  const d = new TextDecoder(spec.label, { fatal: strict });
  return (s) => {
    if (isAscii(s)) return s;
    try {
      return d.decode(byteStringToBytes(s));
    } catch {
      return null;
    }
  };
}

/** Matches a character outside ASCII. */
export const NON_ASCII_CHAR = /[^\0-\x7f]/;

/** Whether every character of `s` is ASCII. */
export function isAscii(s: string): boolean {
  return !NON_ASCII_CHAR.test(s);
}

/** The bytes of the byte string being decoded (one buffer, reused). */
let byteScratch = new Uint8Array(1024);

/** `s`'s bytes in {@link byteScratch}, which it may replace by a larger buffer. */
function scratchBytes(s: string): Uint8Array {
  const n = s.length;
  if (byteScratch.length < n) byteScratch = new Uint8Array(Math.max(n, byteScratch.length * 2));
  const out = byteScratch;
  for (let i = 0; i < n; i++) out[i] = s.charCodeAt(i);
  return out.subarray(0, n);
}

/** A byte string decoded as UTF-8, an invalid sequence as U+FFFD. */
export function decodeUtf8Loose(s: string): string {
  return isAscii(s) ? s : UTF8_LOOSE.decode(scratchBytes(s));
}

/** Null for an invalid sequence (see {@link decodeUtf8}). */
function decodeUtf8Strict(s: string): string | null {
  return isAscii(s) ? s : decodeUtf8(scratchBytes(s));
}

const UTF8_FATAL = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** A UTF-8 decoder that substitutes U+FFFD and keeps a byte order mark. */
export const UTF8_LOOSE = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The file as UTF-8 text, or null when it is not valid UTF-8. Deno's fatal decoder takes a much
 * slower path than the loose one: decode loosely, and only when a U+FFFD shows
 * (a replaced byte, or one written in the file) decode again strictly to tell which.
 */
export function decodeUtf8(body: Uint8Array): string | null {
  const text = UTF8_LOOSE.decode(body);
  if (text.indexOf("\uFFFD") < 0) return text;
  try {
    return UTF8_FATAL.decode(body);
  } catch {
    return null;
  }
}

/** The `charset=` value of a header msgstr (raw text), or null. */
export function headerCharset(msgstr: string): string | null {
  const at = msgstr.indexOf("charset=");
  if (at < 0) return null;
  let end = at + 8;
  while (end < msgstr.length) {
    const c = msgstr[end];
    if (c === " " || c === "\t" || c === "\n") break;
    end++;
  }
  return msgstr.slice(at + 8, end);
}

/**
 * The bytes after the first `charset=` of a file, up to a space, backslash or newline; a name
 * split over two quoted pieces (`"charset=BIG5-"` `"HKSCS\\n"`, as msgcat writes it when narrow)
 * is joined.
 */
export function guessCharset(body: Uint8Array): string {
  const needle = [0x63, 0x68, 0x61, 0x72, 0x73, 0x65, 0x74, 0x3d]; // "charset="
  const limit = Math.min(body.length, 65536);
  outer: for (let i = 0; i + needle.length <= limit; i++) {
    for (let k = 0; k < needle.length; k++) if (body[i + k] !== needle[k]) continue outer;
    let j = i + needle.length;
    let name = "";
    while (j < body.length && name.length < 64) {
      const b = body[j]!;
      if (b === 0x22) {
        // The end of a quoted piece: the name goes on in the next one, after white space.
        let k = j + 1;
        while (
          k < body.length && (body[k] === 0x20 || body[k] === 0x09 || body[k] === 0x0a || body[k] === 0x0d)
        ) k++;
        if (k >= body.length || body[k] !== 0x22) break;
        j = k + 1;
        continue;
      }
      if (b <= 0x20 || b === 0x5c || b >= 0x7f) break;
      name += String.fromCharCode(b);
      j++;
    }
    return name;
  }
  return "";
}
