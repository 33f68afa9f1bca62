/**
 * The PO reader: bytes of a `.po`/`.pot` file → {@link PoCatalog}, reading exactly what GNU msgcat
 * 0.21 reads (docs: `shared/docs/msgcat-format.md`, section 2) and rejecting what it rejects.
 *
 * How it works: the file is decoded once (as UTF-8 when it is valid UTF-8, else byte for byte) and
 * scanned by a small lexer that mirrors gettext's (`#~` and `#|` are prefixes of ordinary tokens,
 * `#` starts a comment anywhere, a backslash-newline is removed everywhere, strings may be split
 * over several quoted pieces), then by a recursive-descent version of its grammar. Strings are
 * built from escapes at byte level (`\303\251` is "é" in a UTF-8 file) and decoded in the charset
 * named by the header.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { PoSyntaxError } from "../errors.ts";
import type { PoCatalog, PoMessage, PoReference } from "./types.ts";

/** Options of {@link parsePo}. */
export interface ParsePoOptions {
  /**
   * The file's name, for the `.pot` rule (msgcat accepts `charset=CHARSET` only in a `.pot`) and
   * kept on the catalogue. Absent = not a `.pot` (msgcat reading stdin).
   */
  fileName?: string;
  /**
   * Accept a UTF-8 byte order mark at the start (default false: msgcat 0.21 rejects it as a syntax
   * error). The catalogue is marked `bom: true`, and the writer still refuses to format it.
   */
  allowBom?: boolean;
  /**
   * Reject two messages with the same domain, msgctxt and msgid, obsolete ones included, as msgcat
   * does (default true). With `strict: false` every message is kept (polib reads such files); the
   * writer refuses to format the catalogue while the duplicates remain.
   */
  strict?: boolean;
}

/** The name of gettext's default domain. */
export const DEFAULT_DOMAIN = "messages";

const lineOfMessage = new WeakMap<PoMessage, number>();

/**
 * The 1-based line of the `msgid` keyword of a message returned by {@link parsePo}, or undefined
 * for a message made in memory. Used in error messages.
 */
export function messageLine(message: PoMessage): number | undefined {
  return lineOfMessage.get(message);
}

// ---------------------------------------------------------------------------------------------
// Charsets

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
const WEIRD_CJK = new Set([
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

/**
 * Bytes → a byte string (one char per byte). Node's latin1 decoding is native and exact; the
 * WHATWG "latin1" decoder is windows-1252, which maps 0x80–0x9F elsewhere.
 */
function bytesToByteString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}

/**
 * A function decoding a byte string in `canonical`; `strict` ones return null for an invalid
 * sequence, loose ones substitute U+FFFD. Returns null when the charset cannot be decoded here.
 */
function byteStringDecoder(canonical: string, strict: boolean): ((s: string) => string | null) | null {
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

const NON_ASCII_CHAR = /[^\0-\x7f]/;

function isAscii(s: string): boolean {
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

function decodeUtf8Loose(s: string): string {
  return isAscii(s) ? s : UTF8_LOOSE.decode(scratchBytes(s));
}

/** Null for an invalid sequence (see {@link decodeUtf8}). */
function decodeUtf8Strict(s: string): string | null {
  return isAscii(s) ? s : decodeUtf8(scratchBytes(s));
}

// ---------------------------------------------------------------------------------------------
// Lexer

const T_EOF: number = 0;
const T_COMMENT: number = 1;
const T_STRING: number = 2;
const T_DOMAIN: number = 3;
const T_MSGCTXT: number = 4;
const T_MSGID: number = 5;
const T_MSGID_PLURAL: number = 6;
const T_MSGSTR: number = 7;
const T_LBRACKET: number = 8;
const T_RBRACKET: number = 9;
const T_NUMBER: number = 10;
/** A `#:` line, read in place: its text is `text[refFrom, refTo)` of the lexer's chunk. */
const T_REFERENCES: number = 11;

/** The keyword token of the word `t[i, j)`, or -1 (compared in place: no string per keyword). */
function keywordAt(t: string, i: number, j: number): number {
  switch (j - i) {
    case 5:
      return t.startsWith("msgid", i) ? T_MSGID : -1;
    case 6:
      return t.startsWith("msgstr", i) ? T_MSGSTR : t.startsWith("domain", i) ? T_DOMAIN : -1;
    case 7:
      return t.startsWith("msgctxt", i) ? T_MSGCTXT : -1;
    case 12:
      return t.startsWith("msgid_plural", i) ? T_MSGID_PLURAL : -1;
  }
  return -1;
}

const TOKEN_NAMES = [
  "end of file",
  "comment",
  "string",
  "domain",
  "msgctxt",
  "msgid",
  "msgid_plural",
  "msgstr",
  "[",
  "]",
  "number",
  "comment",
];

/** A string value under construction: text, or bytes once an escape produced a non-ASCII byte. */
type StringValue = string | Uint8Array;

const utf8Encoder = new TextEncoder();

function concatValues(parts: StringValue[]): StringValue {
  if (parts.length === 1) return parts[0];
  let anyBytes = false;
  for (const p of parts) if (typeof p !== "string") anyBytes = true;
  if (!anyBytes) return (parts as string[]).join("");
  const chunks = parts.map((p) => typeof p === "string" ? utf8Encoder.encode(p) : p);
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  n = 0;
  for (const c of chunks) {
    out.set(c, n);
    n += c.length;
  }
  return out;
}

class Lexer {
  /**
   * The chunk of the file being read. The file is one chunk, or chunks that each end a line (no
   * token spans two: strings and comments end at their line's end) and hold no backslash-newline.
   * Offsets (`i`, `start`, `lineStart`…) are within the current chunk.
   */
  text: string;
  /** The chunks after the current one, in order, and the index of the next. */
  readonly rest: readonly string[];
  nextChunk = 0;
  /** Offset in the file of the current chunk. */
  base = 0;
  /** True when `text` is the UTF-8 decoding of the file; false when it holds one char per byte. */
  readonly utf8: boolean;
  /** Weird CJK charset in byte mode: a lead byte takes the next byte with it inside strings. */
  readonly weird: string | null;
  /** Offsets (in `text`) where a backslash-newline was removed, ascending. */
  readonly removed: number[];
  i = 0;
  line = 1;
  lineStart = 0;
  obsoleteMode = false;
  previousMode = false;
  /** Offset in the file of the last token that held a non-ASCII character (or byte), or -1. */
  lastHighStart = -1;

  // The current token.
  kind = T_EOF;
  value: StringValue = "";
  number = 0;
  obsolete = false;
  previous = false;
  start = 0;
  tokLine = 1;
  tokLineStart = 0;
  /** Where the text after `#:` of a {@link T_REFERENCES} token starts and ends, in `text`. */
  refFrom = 0;
  refTo = 0;

  constructor(text: string, utf8: boolean, weird: string | null, removed: number[], rest: string[] = []) {
    this.text = text;
    this.rest = rest;
    this.utf8 = utf8;
    this.weird = weird;
    this.removed = removed;
  }

  /** Real (file) line of a line counted in `text`, before the backslash-newline removals. */
  realLine(line: number, offset: number): number {
    const r = this.removed;
    if (r.length === 0) return line;
    let lo = 0, hi = r.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    return line + lo;
  }

  error(reason: string, offset: number, line: number, lineStart: number): PoSyntaxError {
    let column = 1;
    const t = this.text;
    for (let k = lineStart; k < offset && k < t.length; k++) {
      const c = t.charCodeAt(k);
      if (this.utf8 && c >= 0xdc00 && c < 0xe000) continue; // low surrogate: same code point
      column++;
    }
    return new PoSyntaxError(reason, this.realLine(line, offset), column);
  }

  /** An error at the current token. */
  tokenError(reason: string): PoSyntaxError {
    return this.error(reason, this.start, this.tokLine, this.tokLineStart);
  }

  /** An error at the lexer's position `offset` on the current line. */
  hereError(reason: string, offset: number): PoSyntaxError {
    return this.error(reason, offset, this.line, this.lineStart);
  }

  /** Offset in the file of the current token. */
  tokenOffset(): number {
    return this.base + this.start;
  }

  /** Loads the next token. */
  advance(): void {
    let t = this.text;
    let n = t.length;
    let i = this.i;
    for (;;) {
      if (i >= n) {
        if (this.nextChunk < this.rest.length) {
          this.base += n;
          this.text = t = this.rest[this.nextChunk++];
          n = t.length;
          i = 0;
          this.lineStart = 0;
          continue;
        }
        this.i = i;
        this.kind = T_EOF;
        this.start = i;
        this.tokLine = this.line;
        this.tokLineStart = this.lineStart;
        return;
      }
      const c = t.charCodeAt(i);
      if (c === 10) {
        i++;
        this.line++;
        this.lineStart = i;
        this.obsoleteMode = false;
        this.previousMode = false;
        continue;
      }
      if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
        i++;
        continue;
      }
      this.start = i;
      this.tokLine = this.line;
      this.tokLineStart = this.lineStart;
      this.obsolete = this.obsoleteMode;
      this.previous = this.previousMode;
      if (c === 35) { // '#'
        const d = i + 1 < n ? t.charCodeAt(i + 1) : -1;
        if (d === 126) { // '#~'
          this.obsoleteMode = true;
          i += 2;
          if (i < n && t.charCodeAt(i) === 124) { // '#~|'
            this.previousMode = true;
            i++;
          }
          continue;
        }
        if (d === 124) { // '#|'
          this.previousMode = true;
          i += 2;
          continue;
        }
        let eol = t.indexOf("\n", i + 1);
        if (eol < 0) eol = n;
        // gettext keeps a comment line as a C string: it ends at a NUL (msgcat prints "# a" for
        // "# a<NUL>b", and "#: x" for "#: x<NUL>y:1").
        const end = Math.min(eol, this.nulFrom(t, i));
        if (d === 58) { // '#:': no string is made for the line, the parser reads it in place
          this.kind = T_REFERENCES;
          this.refFrom = i + 2;
          this.refTo = Math.max(end, i + 2);
          let all = 0;
          for (let k = i + 2; k < eol; k++) all |= t.charCodeAt(k);
          if (all > 0x7f) this.lastHighStart = this.base + i;
        } else {
          this.kind = T_COMMENT;
          const value = t.slice(i + 1, Math.max(end, i + 1));
          if (NON_ASCII_CHAR.test(value)) this.lastHighStart = this.base + i;
          this.value = value;
        }
        // The comment swallows its newline.
        if (eol < n) {
          this.line++;
          this.lineStart = eol + 1;
          this.i = eol + 1;
        } else this.i = eol;
        this.obsoleteMode = false;
        this.previousMode = false;
        return;
      }
      if (c === 34) { // '"'
        this.kind = T_STRING;
        this.value = this.lexString(i + 1);
        return;
      }
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36) {
        let j = i + 1;
        while (j < n) {
          const e = t.charCodeAt(j);
          if ((e >= 97 && e <= 122) || (e >= 65 && e <= 90) || (e >= 48 && e <= 57) || e === 95 || e === 36) {
            j++;
          } else break;
        }
        const k = keywordAt(t, i, j);
        if (k < 0) throw this.tokenError(`keyword "${t.slice(i, j)}" unknown`);
        this.kind = k;
        this.i = j;
        return;
      }
      if (c >= 48 && c <= 57) {
        let j = i + 1;
        while (j < n && t.charCodeAt(j) >= 48 && t.charCodeAt(j) <= 57) j++;
        this.kind = T_NUMBER;
        this.number = Number(t.slice(i, j));
        this.i = j;
        return;
      }
      if (c === 91) {
        this.kind = T_LBRACKET;
        this.i = i + 1;
        return;
      }
      if (c === 93) {
        this.kind = T_RBRACKET;
        this.i = i + 1;
        return;
      }
      throw this.tokenError("syntax error");
    }
  }

  /** The chunk ({@link nextChunk} when it was read) of {@link nulAt}, -1 before any search. */
  nulChunk = -1;
  /** The offset in that chunk of its first NUL at or after the last search (its length: none). */
  nulAt = 0;

  /**
   * The offset of the first NUL of the current chunk `t` at or after `from` (`t.length` when none).
   * Searches resume where the last one ended, so a chunk is scanned once however many comment
   * lines ask. (The chunk is told by its number: comparing the strings themselves may compare
   * their characters, a scan of the chunk per comment line.)
   */
  nulFrom(t: string, from: number): number {
    if (this.nulChunk !== this.nextChunk || this.nulAt < from) {
      const at = t.indexOf("\0", from);
      this.nulChunk = this.nextChunk;
      this.nulAt = at < 0 ? t.length : at;
    }
    return this.nulAt;
  }

  /** Reads a string whose content starts at `i` (after the opening quote); sets `this.i` past it. */
  lexString(i: number): StringValue {
    const t = this.text;
    const n = t.length;
    // Fast path: no escape, no control character of interest, no weird CJK.
    let j = i;
    if (this.weird === null) {
      let all = 0;
      for (; j < n; j++) {
        const c = t.charCodeAt(j);
        all |= c;
        if (c === 34 || c === 92 || c === 10 || c <= 4) break;
      }
      if (j < n && t.charCodeAt(j) === 34) {
        if (all > 0x7f) this.lastHighStart = this.base + this.start;
        this.i = j + 1;
        return t.slice(i, j);
      }
    }
    const value = this.lexStringSlow(i);
    if (typeof value !== "string" || NON_ASCII_CHAR.test(value)) this.lastHighStart = this.base + this.start;
    return value;
  }

  lexStringSlow(i: number): StringValue {
    const t = this.text;
    const n = t.length;
    let text = "";
    let bytes: number[] | null = null; // once a non-ASCII byte came from an escape (UTF-8 mode)
    let truncated = false;
    let eot = -1;
    const pushChar = (s: string) => {
      if (truncated) return;
      if (bytes) { for (const b of utf8Encoder.encode(s)) bytes.push(b); }
      else text += s;
    };
    const pushByte = (b: number, at: number) => {
      if (truncated) return;
      if (b === 0) {
        truncated = true;
        return;
      }
      if (b === 4 && eot < 0) eot = at;
      if (bytes) bytes.push(b);
      else if (b < 0x80 || !this.utf8) text += String.fromCharCode(b);
      else {
        bytes = Array.from(utf8Encoder.encode(text));
        bytes.push(b);
      }
    };
    let runStart = i;
    let j = i;
    for (;;) {
      if (j >= n) throw this.hereError("end-of-file within string", j);
      const c = t.charCodeAt(j);
      if (c === 34 || c === 92 || c === 10 || c <= 4 || (this.weird !== null && c >= 0x80)) {
        if (j > runStart) pushChar(t.slice(runStart, j));
        if (c === 34) {
          j++;
          break;
        }
        if (c === 10) throw this.hereError("end-of-line within string", j);
        if (c === 0) {
          truncated = true;
          j++;
        } else if (c === 4) {
          if (!truncated && eot < 0) eot = j;
          pushChar("\x04");
          j++;
        } else if (c === 92) {
          j = this.escape(j + 1, pushByte);
        } else {
          // Weird CJK lead byte: keep the following byte with it.
          const twoBytes = this.isLeadByte(c) && j + 1 < n && t.charCodeAt(j + 1) !== 10;
          pushChar(t.slice(j, twoBytes ? j + 2 : j + 1));
          j += twoBytes ? 2 : 1;
        }
        runStart = j;
        continue;
      }
      j++;
    }
    this.i = j;
    if (eot >= 0) throw this.hereError("context separator <EOT> within string", eot);
    return bytes ? new Uint8Array(bytes) : text;
  }

  isLeadByte(c: number): boolean {
    if (this.weird === "SHIFT_JIS" || this.weird === "CP932") {
      return (c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc);
    }
    return c >= 0x81 && c <= 0xfe;
  }

  /** Decodes the escape whose letter is at `j`; returns the offset after it. */
  escape(j: number, pushByte: (b: number, at: number) => void): number {
    const t = this.text;
    const n = t.length;
    const c = j < n ? t.charCodeAt(j) : -1;
    switch (c) {
      case 110: // n
        pushByte(10, j);
        return j + 1;
      case 116: // t
        pushByte(9, j);
        return j + 1;
      case 98: // b
        pushByte(8, j);
        return j + 1;
      case 114: // r
        pushByte(13, j);
        return j + 1;
      case 102: // f
        pushByte(12, j);
        return j + 1;
      case 118: // v
        pushByte(11, j);
        return j + 1;
      case 97: // a
        pushByte(7, j);
        return j + 1;
      case 92: // backslash
      case 34: // quote
        pushByte(c, j);
        return j + 1;
    }
    if (c >= 48 && c <= 55) {
      let v = 0;
      let k = j;
      while (k < n && k < j + 3) {
        const d = t.charCodeAt(k);
        if (d < 48 || d > 55) break;
        v = v * 8 + (d - 48);
        k++;
      }
      pushByte(v & 0xff, j);
      return k;
    }
    if (c === 120) { // x
      let v = 0;
      let k = j + 1;
      while (k < n) {
        const d = t.charCodeAt(k);
        let h: number;
        if (d >= 48 && d <= 57) h = d - 48;
        else if (d >= 97 && d <= 102) h = d - 87;
        else if (d >= 65 && d <= 70) h = d - 55;
        else break;
        v = ((v << 4) | h) & 0xff;
        k++;
      }
      if (k > j + 1) {
        pushByte(v, j);
        return k;
      }
    }
    throw this.hereError("invalid control sequence", j);
  }
}

// ---------------------------------------------------------------------------------------------
// Comments

/** `\n`, space, `\t`, `\r`, `\f`, `\v` and `,`: what separates flags on a `#,` line. */
function isFlagSeparator(c: number): boolean {
  return c === 44 || c === 32 || (c >= 9 && c <= 13);
}

/** Flags most catalogues use: a token equal to one of these is that string, not a new one. */
const COMMON_FLAGS = [
  "fuzzy",
  "c-format",
  "no-c-format",
  "python-format",
  "no-python-format",
  "python-brace-format",
  "no-python-brace-format",
  "possible-python-format",
];

function flagToken(s: string, start: number, end: number): string {
  for (let k = 0; k < COMMON_FLAGS.length; k++) {
    const f = COMMON_FLAGS[k];
    if (f.length === end - start && s.startsWith(f, start)) return f;
  }
  return ownString(s.slice(start, end));
}

/** Splits a `#,` line (text after `#,`) into tokens, joining `range:` with its argument. */
export function tokenizeFlags(s: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && isFlagSeparator(s.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isFlagSeparator(s.charCodeAt(i))) i++;
    if (i > start) tokens.push(flagToken(s, start, i));
  }
  const out: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k] === "range:" && k + 1 < tokens.length) {
      out.push(`range: ${tokens[k + 1]}`);
      k++;
    } else out.push(tokens[k]);
  }
  // (A list grown by push holds room for 17: the message keeps an exact copy.)
  return out.slice();
}

/**
 * `s` as a string of its own. V8 makes a slice of 13 characters or more a view of the string it was
 * cut from, which then lives as long as the slice: a catalogue's fields would keep every 64 KiB
 * chunk of the file in memory, a second copy of it. Joining two pieces makes a copy.
 */
function ownString(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join("");
}

/** Space, tab or newline (NaN, past the end, is none). */
function isRefSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Line numbers as gettext stores them: a size_t, printed with `%ld`. */
function lineNumber(s: string, from: number, to: number): number {
  if (to - from >= 16) return Number(BigInt.asIntN(64, BigInt(s.slice(from, to))));
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

/**
 * Parses the text after `#:` (`s`, or `s[from, to)`) into references (gettext's three spellings,
 * section 2.4).
 */
export function parseReferences(s: string, out: PoReference[], from = 0, to = s.length): void {
  const n = to;
  let i = from;
  while (i < n) {
    while (i < n && isRefSpace(s.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isRefSpace(s.charCodeAt(i))) i++;
    const end = i;
    // "NAME :N", "NAME : N": a colon after optional spaces, then the number.
    let p = end;
    while (p < n && isRefSpace(s.charCodeAt(p))) p++;
    if (p < n && s.charCodeAt(p) === 58) {
      p++;
      while (p < n && isRefSpace(s.charCodeAt(p))) p++;
      if (p < n && isDigit(s.charCodeAt(p))) {
        const d = p;
        while (p < n && isDigit(s.charCodeAt(p))) p++;
        if (p >= n || isRefSpace(s.charCodeAt(p))) {
          addReference(out, fileName(s, start, end), lineNumber(s, d, p));
          i = p;
          continue;
        }
      }
    }
    // "NAME: N": the token ends with a colon, the number follows.
    if (s.charCodeAt(end - 1) === 58) {
      p = end;
      while (p < n && isRefSpace(s.charCodeAt(p))) p++;
      if (p < n && isDigit(s.charCodeAt(p))) {
        const d = p;
        while (p < n && isDigit(s.charCodeAt(p))) p++;
        if (p >= n || isRefSpace(s.charCodeAt(p))) {
          addReference(out, fileName(s, start, end - 1), lineNumber(s, d, p));
          i = p;
          continue;
        }
      }
    }
    // "NAME:N": digits at the end of the token after its last colon.
    p = end;
    while (p > start && isDigit(s.charCodeAt(p - 1))) p--;
    if (p < end && p - 1 >= start && s.charCodeAt(p - 1) === 58) {
      addReference(out, fileName(s, start, p - 1), lineNumber(s, p, end));
      continue;
    }
    addReference(out, fileName(s, start, end), null);
  }
}

/** The file name last cut by {@link fileName}. */
let lastFileName = "";

/**
 * `s.slice(start, end)`, as the same string as the file name before it when they are equal: a
 * catalogue names a few source files thousands of times, and one string each is enough.
 */
function fileName(s: string, start: number, end: number): string {
  if (end - start !== lastFileName.length || !s.startsWith(lastFileName, start)) {
    lastFileName = ownString(s.slice(start, end));
  }
  return lastFileName;
}

/**
 * Appends a reference to `out` unless it holds the same file and line already (gettext keeps the
 * first of exact duplicates). A short list is scanned; past {@link SCANNED_REFERENCES} the list
 * gets an index (file → lines), so an entry with N references costs O(N), not O(N²).
 */
export function addReference(out: PoReference[], file: string, line: number | null): void {
  const n = out.length;
  if (n < SCANNED_REFERENCES) {
    for (let k = 0; k < n; k++) if (out[k].line === line && out[k].file === file) return;
    out.push({ file, line });
    return;
  }
  let index = referenceIndexes.get(out);
  if (index === undefined || index.count !== n) {
    // New, or the list changed behind the index's back (lists are only appended to here).
    index = { count: 0, lines: new Map() };
    for (let k = 0; k < n; k++) indexReference(index, out[k].file, out[k].line);
    referenceIndexes.set(out, index);
  }
  if (!indexReference(index, file, line)) return;
  out.push({ file, line });
}

/** Past this many references, {@link addReference} looks references up in an index. */
const SCANNED_REFERENCES = 16;

/** The references of a long list: file → its line numbers (null for none), and how many in all. */
interface ReferenceIndex {
  count: number;
  lines: Map<string, Set<number | null>>;
}

const referenceIndexes = new WeakMap<PoReference[], ReferenceIndex>();

/** Adds a reference to the index; false when it was there already. */
function indexReference(index: ReferenceIndex, file: string, line: number | null): boolean {
  const lines = index.lines.get(file);
  if (lines === undefined) index.lines.set(file, new Set([line]));
  else if (lines.has(line)) return false;
  else lines.add(line);
  index.count++;
  return true;
}

/** The reference of a Solaris `# File: NAME, line:N` comment (its text after `#`), or null. */
export function solarisReference(s: string): PoReference | null {
  if (!(s[0] === " " && (s[1] === "F" || s[1] === "f") && s.startsWith("ile:", 2))) return null;
  let p = 6;
  while (s[p] === " " || s[p] === "\t") p++;
  const nameStart = p;
  const n = s.length;
  for (let e = nameStart; e < n; e++) {
    p = e;
    while (s[p] === " " || s[p] === "\t") p++;
    if (s[p] !== ",") continue;
    p++;
    while (s[p] === " " || s[p] === "\t") p++;
    if (!s.startsWith("line", p)) continue;
    p += 4;
    while (s[p] === " " || s[p] === "\t") p++;
    if (s.startsWith("number", p)) {
      p += 6;
      while (s[p] === " " || s[p] === "\t") p++;
    }
    if (s[p] !== ":") continue;
    p++;
    if (!isDigit(s.charCodeAt(p))) continue;
    const d = p;
    while (isDigit(s.charCodeAt(p))) p++;
    const digitsEnd = p;
    while (s[p] === " " || s[p] === "\t" || s[p] === "\n") p++;
    if (p === n) return { file: s.slice(nameStart, e), line: lineNumber(s, d, digitsEnd) };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Parser

/** Fields whose value may still be bytes (UTF-8 mode, an escape produced a non-ASCII byte). */
interface PendingField {
  message: PoMessage;
  field:
    | "msgctxt"
    | "msgid"
    | "msgidPlural"
    | "msgstr"
    | "previousMsgctxt"
    | "previousMsgid"
    | "previousMsgidPlural";
  index: number; // for msgstrPlural; -1 otherwise
  line: number;
  bytes: Uint8Array;
}

export interface RawParse {
  messages: PoMessage[];
  /** Line of each message's msgid keyword, parallel to `messages`. */
  lines: number[];
  pending: PendingField[];
  /**
   * Indices of the messages that may hold non-ASCII text (in a string, a comment, a reference or a
   * flag), ascending; the others are ASCII throughout and need no decoding or checking.
   */
  high: number[];
  /**
   * {@link sampleKey} of each message's msgid, parallel to `messages`, taken while the msgid was
   * fresh in the cache; a message whose msgid is decoded later (one in `high`) gets it again then.
   */
  keys: number[];
  /**
   * Indices of the messages that were header-like when read (msgid "", no msgctxt, not obsolete),
   * ascending: a message whose msgid is decoded later holds "" until then, so this may name a
   * few that are not headers in the end, never fewer.
   */
  headers: number[];
  /** Whether a `domain` directive put some message outside the default domain. */
  domains: boolean;
}

/**
 * Calls `found(first, second)` for each message (by index) that repeats an earlier one's domain,
 * msgctxt (null ≠ "") and msgid, obsolete ones included, as msgcat compares them; stops when it
 * returns false. A list found free of duplicates is remembered (message lists are not changed in
 * place: see `types.ts`), so the writer's check of a freshly parsed catalogue costs nothing.
 *
 * Messages are bucketed by a number made from the msgid's length and a few of its characters
 * ({@link sampleKey}): hashing every msgid in full costs more than the rest of the check, and
 * a fresh string's hash is computed on first use. Within a bucket msgids are compared in full; a
 * bucket that grows past {@link MAX_CHAIN} (msgids alike at every sampled place, or one msgid with
 * many contexts) is re-indexed by identity, so no input makes the check quadratic.
 */
const uniqueLists = new WeakSet<readonly PoMessage[]>();

/**
 * Records that `list` has no duplicate messages, for a caller that knows it by construction (a
 * write made it from a list without duplicates, matching every new message against the old ones):
 * {@link forEachDuplicate} then finds nothing without looking.
 *
 * @example
 * ```ts
 * if (knownUnique(old)) markUnique(updated);
 * ```
 */
export function markUnique(list: readonly PoMessage[]): void {
  uniqueLists.add(list);
}

/** Whether `list` is known to have no duplicate messages (see {@link markUnique}). */
export function knownUnique(list: readonly PoMessage[]): boolean {
  return uniqueLists.has(list);
}

const MAX_CHAIN = 16;

/** A number from a string's length and up to eight of its characters, spread over it. */
export function sampleKey(s: string): number {
  const n = s.length;
  let h = n;
  if (n > 0) {
    h = Math.imul(h ^ s.charCodeAt(0), 0x9e3779b1);
    h = Math.imul(h ^ s.charCodeAt(n - 1), 0x85ebca6b);
    h = Math.imul(h ^ s.charCodeAt(n >> 1), 0xc2b2ae35);
    if (n > 3) {
      h = Math.imul(h ^ s.charCodeAt(n >> 2), 0x27d4eb2f);
      h = Math.imul(h ^ s.charCodeAt((n * 3) >> 2), 0x165667b1);
      h = Math.imul(h ^ s.charCodeAt(n >> 3), 0x9e3779b1);
      h = Math.imul(h ^ s.charCodeAt(n - 2), 0x85ebca6b);
      h = Math.imul(h ^ s.charCodeAt(1), 0xc2b2ae35);
    }
  }
  return (h ^ (h >>> 15)) & 0x3fffffff;
}

function sameIdentity(a: PoMessage, b: PoMessage): boolean {
  return a.msgid === b.msgid && a.msgctxt === b.msgctxt && a.domain === b.domain;
}

export function forEachDuplicate(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
  keys?: readonly number[],
): void {
  if (uniqueLists.has(messages)) return;
  const result = probeDuplicates(messages, found, keys);
  if (result === PROBE_TOO_LONG) bucketDuplicates(messages, found);
  else if (result === PROBE_UNIQUE) uniqueLists.add(messages);
}

const PROBE_UNIQUE = 0;
const PROBE_DUPLICATES = 1;
const PROBE_TOO_LONG = 2;

/** Open-addressing table of {@link probeDuplicates}: sampled keys, and first indices + 1 (0: empty). */
let probeKeys = new Int32Array(0);
let probeFirsts = new Int32Array(0);

/**
 * The common case of {@link forEachDuplicate}: a table of {@link sampleKey}s with linear probing,
 * in typed arrays kept between calls (a Map of 12k numbers cost more than the rest of the check).
 * Gives up, having reported nothing, when a probe runs past {@link MAX_CHAIN} × 4 slots (msgids
 * alike at every sampled place), for {@link bucketDuplicates} to do it with no such worst case.
 */
function probeDuplicates(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
  keys?: readonly number[],
): number {
  const n = messages.length;
  let size = 16;
  while (size < n * 2) size *= 2;
  if (probeKeys.length < size) {
    probeKeys = new Int32Array(size);
    probeFirsts = new Int32Array(size);
  } else probeFirsts.fill(0, 0, size);
  const table = probeKeys;
  const firsts = probeFirsts;
  const mask = size - 1;
  // Duplicates are reported once the whole list has been probed, so that giving up reports none.
  let pairs: number[] | null = null;
  for (let i = 0; i < n; i++) {
    const m = messages[i];
    const key = keys !== undefined ? keys[i] : sampleKey(m.msgid);
    let slot = key & mask;
    for (let probes = 0;; probes++) {
      const f = firsts[slot];
      if (f === 0) {
        table[slot] = key;
        firsts[slot] = i + 1;
        break;
      }
      if (table[slot] === key && sameIdentity(messages[f - 1], m)) {
        (pairs ??= []).push(f - 1, i);
        break;
      }
      if (probes === MAX_CHAIN * 4) return PROBE_TOO_LONG;
      slot = (slot + 1) & mask;
    }
  }
  if (pairs === null) return PROBE_UNIQUE;
  for (let k = 0; k < pairs.length; k += 2) if (!found(pairs[k], pairs[k + 1])) break;
  return PROBE_DUPLICATES;
}

/**
 * {@link forEachDuplicate} by buckets of sampled keys; a bucket that grows past {@link MAX_CHAIN}
 * is re-indexed by identity (msgid, then msgctxt, then domain), so that neither msgids alike where
 * sampled nor many messages sharing one msgid (with different contexts) make it quadratic.
 */
function bucketDuplicates(
  messages: readonly PoMessage[],
  found: (first: number, second: number) => boolean,
): void {
  // Sampled key → index of the first message with it, the first index of each distinct identity,
  // or (past MAX_CHAIN) those indices by identity.
  const buckets = new Map<number, number | number[] | IdentityIndex>();
  let duplicates = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const key = sampleKey(m.msgid);
    const bucket = buckets.get(key);
    if (bucket === undefined) {
      buckets.set(key, i);
      continue;
    }
    let first = -1;
    if (typeof bucket === "number") {
      if (sameIdentity(messages[bucket], m)) first = bucket;
      else buckets.set(key, [bucket, i]);
    } else if (Array.isArray(bucket)) {
      for (let k = 0; k < bucket.length; k++) {
        if (sameIdentity(messages[bucket[k]], m)) {
          first = bucket[k];
          break;
        }
      }
      if (first < 0) {
        if (bucket.length < MAX_CHAIN) bucket.push(i);
        else {
          const index = newIdentityIndex();
          for (const k of bucket) firstOfIdentity(index, messages[k], k);
          firstOfIdentity(index, m, i);
          buckets.set(key, index);
        }
      }
    } else {
      const f = firstOfIdentity(bucket, m, i);
      if (f !== i) first = f;
    }
    if (first >= 0) {
      duplicates = true;
      if (!found(first, i)) return;
    }
  }
  if (!duplicates) uniqueLists.add(messages);
}

/**
 * First message index by identity: by msgid alone for a message without msgctxt or domain (most),
 * else by a key made of all three (no nested maps: a map per message costs more than the check).
 */
interface IdentityIndex {
  plain: Map<string, number>;
  keyed: Map<string, number>;
}

function newIdentityIndex(): IdentityIndex {
  return { plain: new Map(), keyed: new Map() };
}

/** The index of the first message with `m`'s identity: `i` when `m` is the first (then recorded). */
function firstOfIdentity(index: IdentityIndex, m: PoMessage, i: number): number {
  const plain = m.msgctxt === null && m.domain === undefined;
  const map = plain ? index.plain : index.keyed;
  const key = plain ? m.msgid : JSON.stringify([m.domain ?? null, m.msgctxt, m.msgid]);
  const first = map.get(key);
  if (first !== undefined) return first;
  map.set(key, i);
  return i;
}

/**
 * Finds messages with the same domain, msgctxt and msgid (obsolete ones included), as msgcat does.
 * Strict: throws at the second one. Otherwise remembers the lines of the messages involved, for
 * the writer's error message.
 */
function checkDuplicates(raw: RawParse, strict: boolean): void {
  const { messages, lines } = raw;
  for (const i of raw.high) raw.keys[i] = sampleKey(messages[i].msgid);
  forEachDuplicate(messages, (first, i) => {
    if (strict) {
      throw new PoSyntaxError(
        `duplicate message definition (first defined at line ${lines[first]})`,
        lines[i],
        1,
      );
    }
    lineOfMessage.set(messages[first], lines[first]);
    lineOfMessage.set(messages[i], lines[i]);
    return true;
  }, raw.keys);
}

const NO_STRINGS = Object.freeze([]) as unknown as string[];
const NO_REFERENCES = Object.freeze([]) as unknown as PoReference[];

/** The parser state carried from one message to the next: comments waiting for their message. */
class Pending {
  // Most messages have no comment of some kind: they share one frozen empty list (a push to it
  // would throw), and a list is made only when a comment of its kind comes.
  translator: string[] = NO_STRINGS;
  extracted: string[] = NO_STRINGS;
  flags: string[] = NO_STRINGS;
  /**
   * The references read so far, in a list kept from message to message: {@link takeReferences}
   * copies them out at their exact size (a list grown by push holds room for 17).
   */
  references: PoReference[] = [];

  reset(): void {
    this.translator = NO_STRINGS;
    this.extracted = NO_STRINGS;
    // (Setting a list's length costs ~45 ns, a new empty list ~15: this runs for every message.)
    if (this.references.length !== 0) this.references = [];
    this.flags = NO_STRINGS;
  }

  /** The references read since the last reset, as a list of their own; none are left. */
  takeReferences(): PoReference[] {
    const refs = this.references;
    if (refs.length === 0) return NO_REFERENCES;
    if (refs.length === 1) return [refs.pop()!];
    this.references = [];
    return refs.slice();
  }

  comment(s: string): void {
    const c = s.charCodeAt(0);
    if (c === 46) { // '.'
      if (this.extracted === NO_STRINGS) this.extracted = [];
      this.extracted.push(ownString(s.charCodeAt(1) === 32 ? s.slice(2) : s.slice(1)));
    } else if (c === 44 || c === 33) { // ',' '!': only the last flag line counts
      this.flags = tokenizeFlags(s.slice(1));
    } else {
      const ref = solarisReference(s);
      if (ref) {
        addReference(this.references, ref.file, ref.line);
      } else {
        if (this.translator === NO_STRINGS) this.translator = [];
        this.translator.push(ownString(c === 32 ? s.slice(1) : s));
      }
    }
  }
}

function parseText(lex: Lexer): RawParse {
  const messages: PoMessage[] = [];
  const lines: number[] = [];
  const pending: PendingField[] = [];
  const high: number[] = [];
  const keys: number[] = [];
  const headers: number[] = [];
  let domains = false;
  const comments = new Pending();
  let domain: string | undefined;
  // Where the tokens of the next message start (its comments, or its keyword).
  let spanStart = 0;

  lex.advance();
  while (lex.kind !== T_EOF) {
    switch (lex.kind) {
      case T_COMMENT:
        comments.comment(lex.value as string);
        lex.advance();
        break;
      case T_REFERENCES:
        parseReferences(lex.text, comments.references, lex.refFrom, lex.refTo);
        lex.advance();
        break;
      case T_DOMAIN: {
        lex.advance();
        if (lex.kind !== T_STRING) throw lex.tokenError("syntax error: expected a string after domain");
        const v = lex.value;
        const name = typeof v === "string" ? v : new TextDecoder().decode(v);
        domain = name === DEFAULT_DOMAIN ? undefined : name;
        // gettext throws away comments that precede a domain directive.
        comments.reset();
        lex.advance();
        spanStart = lex.tokenOffset();
        break;
      }
      case T_MSGCTXT:
      case T_MSGID: {
        const line = lex.realLine(lex.tokLine, lex.start);
        const m = parseMessage(lex, pending, comments, line);
        if (domain !== undefined) {
          m.domain = domain;
          domains = true;
        }
        if (m.msgid === "" && m.msgctxt === null && !m.obsolete) headers.push(messages.length);
        comments.reset();
        // The lexer is one token ahead, into the next message: at worst a message is counted in
        // for a character of the next one, never left out.
        if (lex.lastHighStart >= spanStart) high.push(messages.length);
        spanStart = lex.tokenOffset();
        messages.push(m);
        keys.push(sampleKey(m.msgid));
        lines.push(line);
        break;
      }
      default:
        throw lex.tokenError(
          lex.kind === T_STRING ? "syntax error: a string without a keyword" : "syntax error",
        );
    }
  }
  return { messages, lines, pending, high, keys, headers, domains };
}

/** Checks that the current token has the message's obsolete flag (gettext: "inconsistent use of #~"). */
function checkObsolete(lex: Lexer, obsolete: boolean): void {
  if (lex.obsolete !== obsolete) throw lex.tokenError("inconsistent use of #~");
}

/** Reads one or more strings (of `#|` lines when `previous`) and concatenates them. */
function readStrings(lex: Lexer, obsolete: boolean, previous: boolean): StringValue {
  if (lex.kind !== T_STRING) {
    throw lex.tokenError(`syntax error: expected a string, found ${TOKEN_NAMES[lex.kind]}`);
  }
  // Text pieces are joined once, into a flat string: `a + b + …` would make a rope that every
  // later hash, scan and regular expression flattens (an allocation and a copy each time). The
  // first piece needs no list, and a list is made for the second.
  let first = "";
  let texts: string[] | null = null;
  let parts: StringValue[] | null = null;
  while (lex.kind === T_STRING) {
    checkObsolete(lex, obsolete);
    if (lex.previous !== previous) throw lex.tokenError("syntax error: misplaced #| string");
    const v = lex.value;
    if (parts !== null) parts.push(v);
    else if (typeof v !== "string") {
      parts = texts !== null ? [texts.join(""), v] : first === "" ? [v] : [first, v];
    } else if (v.length > 0) {
      if (texts !== null) texts.push(v);
      else if (first === "") first = v;
      else texts = [first, v];
    }
    lex.advance();
  }
  if (parts !== null) return concatValues(parts);
  // (Joined pieces are a new string; a single one is a slice of the lexer's chunk.)
  return texts !== null ? texts.join("") : ownString(first);
}

/** Consumes a keyword token of the expected kind. */
function takeKeyword(lex: Lexer, kind: number, obsolete: boolean, previous: boolean): void {
  if (lex.kind !== kind || lex.previous !== previous) {
    throw lex.tokenError(`syntax error: expected ${previous ? "#| " : ""}${TOKEN_NAMES[kind]}`);
  }
  checkObsolete(lex, obsolete);
  lex.advance();
}

function parseMessage(lex: Lexer, pending: PendingField[], comments: Pending, line: number): PoMessage {
  const obsolete = lex.obsolete;
  let prevCtxt: StringValue | null = null;
  let prevId: StringValue | null = null;
  let prevPlural: StringValue | null = null;
  if (lex.previous) {
    if (lex.kind === T_MSGCTXT) {
      takeKeyword(lex, T_MSGCTXT, obsolete, true);
      prevCtxt = readStrings(lex, obsolete, true);
    }
    takeKeyword(lex, T_MSGID, obsolete, true);
    prevId = readStrings(lex, obsolete, true);
    if (lex.kind === T_MSGID_PLURAL && lex.previous) {
      takeKeyword(lex, T_MSGID_PLURAL, obsolete, true);
      prevPlural = readStrings(lex, obsolete, true);
    }
    if ((lex.kind !== T_MSGCTXT && lex.kind !== T_MSGID) || lex.previous) {
      throw lex.tokenError("syntax error: #| lines must come directly before msgctxt or msgid");
    }
  }
  let ctxt: StringValue | null = null;
  if (lex.kind === T_MSGCTXT) {
    takeKeyword(lex, T_MSGCTXT, obsolete, false);
    ctxt = readStrings(lex, obsolete, false);
  }
  const idStart = lex.start;
  const idTokLine = lex.tokLine;
  const idLineStart = lex.tokLineStart;
  takeKeyword(lex, T_MSGID, obsolete, false);
  const id = readStrings(lex, obsolete, false);
  let plural: StringValue | null = null;
  let msgstr: StringValue = "";
  let forms: StringValue[] | null = null;
  if (lex.kind === T_MSGID_PLURAL && !lex.previous) {
    takeKeyword(lex, T_MSGID_PLURAL, obsolete, false);
    plural = readStrings(lex, obsolete, false);
    forms = [];
    while (lex.kind === T_MSGSTR && !lex.previous) {
      takeKeyword(lex, T_MSGSTR, obsolete, false);
      if (lex.kind !== T_LBRACKET) {
        throw lex.tokenError("syntax error: expected [ after msgstr of a plural entry");
      }
      checkObsolete(lex, obsolete);
      lex.advance();
      if (lex.kind !== T_NUMBER) throw lex.tokenError("syntax error: expected a plural form index");
      checkObsolete(lex, obsolete);
      const index = lex.number;
      const indexError = index === forms.length ? null : lex.tokenError(
        forms.length === 0 ? "first plural form has nonzero index" : "plural form has wrong index",
      );
      lex.advance();
      if (lex.kind !== T_RBRACKET) throw lex.tokenError("syntax error: expected ]");
      checkObsolete(lex, obsolete);
      lex.advance();
      const s = readStrings(lex, obsolete, false);
      if (indexError) throw indexError;
      forms.push(s);
    }
    if (forms.length === 0) throw lex.error("missing 'msgstr[]' section", idStart, idTokLine, idLineStart);
  } else if (lex.kind === T_MSGSTR && !lex.previous) {
    takeKeyword(lex, T_MSGSTR, obsolete, false);
    if (lex.kind === T_LBRACKET) {
      throw lex.error("missing 'msgid_plural' section", idStart, idTokLine, idLineStart);
    }
    msgstr = readStrings(lex, obsolete, false);
  } else {
    throw lex.error("missing 'msgstr' section", idStart, idTokLine, idLineStart);
  }

  const m: PoMessage = {
    msgctxt: typeof ctxt === "string" || ctxt === null ? ctxt : "",
    msgid: typeof id === "string" ? id : "",
    msgidPlural: typeof plural === "string" || plural === null ? plural : "",
    msgstr: typeof msgstr === "string" ? msgstr : "",
    msgstrPlural: null,
    translatorComments: comments.translator,
    extractedComments: comments.extracted,
    references: comments.takeReferences(),
    flags: comments.flags,
    previousMsgctxt: typeof prevCtxt === "string" || prevCtxt === null ? prevCtxt : "",
    previousMsgid: typeof prevId === "string" || prevId === null ? prevId : "",
    previousMsgidPlural: typeof prevPlural === "string" || prevPlural === null ? prevPlural : "",
    obsolete,
  };
  if (typeof ctxt === "object" && ctxt !== null) {
    pending.push({ message: m, line, field: "msgctxt", index: -1, bytes: ctxt });
  }
  if (typeof id !== "string") pending.push({ message: m, line, field: "msgid", index: -1, bytes: id });
  if (typeof plural === "object" && plural !== null) {
    pending.push({ message: m, line, field: "msgidPlural", index: -1, bytes: plural });
  }
  if (typeof msgstr !== "string") {
    pending.push({ message: m, line, field: "msgstr", index: -1, bytes: msgstr });
  }
  if (typeof prevCtxt === "object" && prevCtxt !== null) {
    pending.push({ message: m, line, field: "previousMsgctxt", index: -1, bytes: prevCtxt });
  }
  if (typeof prevId === "object" && prevId !== null) {
    pending.push({ message: m, line, field: "previousMsgid", index: -1, bytes: prevId });
  }
  if (typeof prevPlural === "object" && prevPlural !== null) {
    pending.push({ message: m, line, field: "previousMsgidPlural", index: -1, bytes: prevPlural });
  }
  if (forms) {
    const list: string[] = [];
    for (let index = 0; index < forms.length; index++) {
      const v = forms[index];
      if (typeof v === "string") list.push(v);
      else {
        list.push("");
        pending.push({ message: m, line, field: "msgstr", index, bytes: v });
      }
    }
    m.msgstrPlural = list;
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// Entry point

const UTF8_FATAL = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const UTF8_LOOSE = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The file as UTF-8 text, or null when it is not valid UTF-8. Deno's fatal decoder takes a slower
 * path (2 to 15 ms on a 2.3 MB file against 0.4 ms): decode loosely, and only when a U+FFFD shows
 * (a replaced byte, or one written in the file) decode again strictly to tell which.
 */
function decodeUtf8(body: Uint8Array): string | null {
  const text = UTF8_LOOSE.decode(body);
  if (text.indexOf("\uFFFD") < 0) return text;
  try {
    return UTF8_FATAL.decode(body);
  } catch {
    return null;
  }
}

function isHeader(m: PoMessage): boolean {
  return m.msgid === "" && m.msgctxt === null && !m.obsolete;
}

/** Every string field of a message that msgcat checks for non-ASCII text, comments included. */
function checkedTexts(m: PoMessage): string[] {
  const out = [m.msgid, m.msgstr, ...m.translatorComments, ...m.extractedComments];
  if (m.msgctxt !== null) out.push(m.msgctxt);
  if (m.msgidPlural !== null) out.push(m.msgidPlural);
  // (A loop, not push(...list): a spread of a huge list overflows the stack.)
  if (m.msgstrPlural) { for (const s of m.msgstrPlural) out.push(s); }
  if (m.previousMsgctxt !== null) out.push(m.previousMsgctxt);
  if (m.previousMsgid !== null) out.push(m.previousMsgid);
  if (m.previousMsgidPlural !== null) out.push(m.previousMsgidPlural);
  return out;
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

export interface CharsetInfo {
  /** As spelled in the first header that names one, or null. */
  raw: string | null;
  /** Canonical name; "ASCII" when there is none (or CHARSET in a .pot). */
  canonical: string;
  /** True when no header names a charset. */
  missing: boolean;
  /** Line of the header that named it (for errors). */
  line: number;
}

/**
 * The catalogue charset as msgcat determines it: the first non-obsolete header with `charset=`;
 * every such header must agree; a name msgcat does not know is fatal (except `CHARSET` in a .pot).
 *
 * @throws {PoSyntaxError} unknown charset name, or two different charsets.
 */
function resolveCharset(raw: RawParse, fileName: string | undefined): CharsetInfo {
  const headerBytes = new Map<PoMessage, Uint8Array>();
  for (const p of raw.pending) if (p.field === "msgstr" && p.index < 0) headerBytes.set(p.message, p.bytes);
  let spelled: string | null = null;
  let canonical: string | null = null;
  let line = 1;
  for (let k = 0; k < raw.headers.length; k++) {
    const i = raw.headers[k];
    const m = raw.messages[i];
    if (!isHeader(m)) continue;
    const b = headerBytes.get(m);
    const value = headerCharset(b ? bytesToByteString(b) : m.msgstr);
    if (value === null) continue;
    let canon = canonicalCharset(value);
    if (canon === null) {
      if (value === "CHARSET" && fileName !== undefined && fileName.endsWith(".pot")) canon = "ASCII";
      else {throw new PoSyntaxError(
          `present charset "${value}" is not a portable encoding name`,
          raw.lines[i],
          1,
        );}
    }
    if (canonical === null) {
      spelled = value;
      canonical = canon;
      line = raw.lines[i];
    } else if (canonical !== canon) {
      throw new PoSyntaxError(
        `two different charsets "${canonical}" and "${canon}" in input file`,
        raw.lines[i],
        1,
      );
    }
  }
  return { raw: spelled, canonical: canonical ?? "ASCII", missing: canonical === null, line };
}

function removeBackslashNewlines(text: string): { text: string; removed: number[] } {
  if (text.indexOf("\\\n") < 0) return { text, removed: [] };
  const removed: number[] = [];
  let out = "";
  let runStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92 && i + 1 < n && text.charCodeAt(i + 1) === 10) {
      out += text.slice(runStart, i);
      removed.push(out.length);
      i += 2;
      runStart = i;
      continue;
    }
    i++;
  }
  out += text.slice(runStart);
  return { text: out, removed };
}

function parseWith(text: string, utf8: boolean, weird: string | null): RawParse {
  const { text: clean, removed } = removeBackslashNewlines(text);
  return parseText(new Lexer(clean, utf8, weird, removed));
}

/**
 * Parses the bytes of a PO file into a {@link PoCatalog}: every message in file order (header,
 * obsolete entries and all their comments included), strings decoded from the header's charset.
 *
 * Reads what GNU msgcat 0.21 reads and rejects what it rejects: syntax errors, invalid escapes
 * (`\\'`, `\\?`), misplaced `#|` lines, `inconsistent use of #~`, duplicate messages (unless
 * `strict: false`), a byte order mark (unless `allowBom`), non-ASCII text without a header
 * charset, an unknown charset name (`charset=CHARSET` outside a `.pot`), and strings that are not
 * valid in the charset.
 *
 * Not kept (msgcat drops them too): blank lines, comments after the last message or before a
 * `domain` line, all `#,` lines of an entry but the last.
 *
 * @param bytes the file's contents.
 * @param options a file name, or {@link ParsePoOptions}.
 * @throws {PoSyntaxError} the file is not a PO file msgcat would accept; carries reason, 1-based
 *   line and column.
 * @example
 * ```ts
 * const cat = parsePo(new TextEncoder().encode('msgid "a"\\nmsgstr "b"\\n'));
 * cat.messages[0].msgstr; // "b"
 * ```
 */
export function parsePo(bytes: Uint8Array, options: string | ParsePoOptions = {}): PoCatalog {
  const opts: ParsePoOptions = typeof options === "string" ? { fileName: options } : options;
  let body = bytes;
  let bom = false;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    if (!opts.allowBom) {
      throw new PoSyntaxError(
        "syntax error: byte order mark at the start of the file (msgcat 0.21 rejects it)",
        1,
        1,
      );
    }
    body = bytes.subarray(3);
    bom = true;
  }

  let read: { raw: RawParse; info: CharsetInfo } | null;
  try {
    read = readAsBytes(body, opts.fileName);
  } catch (e) {
    if (!(e instanceof PoSyntaxError)) throw e;
    read = null; // the careful reading finds the same error and says where, in characters
  }
  const { raw, info } = read ?? readAsText(body, opts.fileName);
  checkDuplicates(raw, opts.strict ?? true);

  const catalog: PoCatalog = { messages: raw.messages, charset: info.raw };
  readLists.set(raw.messages, { headers: raw.headers, domains: raw.domains, bytes: body.length });
  if (bom) catalog.bom = true;
  if (opts.fileName !== undefined) catalog.fileName = opts.fileName;
  return catalog;
}

/**
 * What {@link parsePo} knew of a message list it returned, for the writer to lay it out without
 * walking all of its messages for each (a walk of 12k messages fresh from the reader costs a cache
 * miss or more per message). Lists are not changed in place (see `types.ts`).
 */
export interface ReadList {
  /** Indices of the messages that may be headers, ascending: every header is among them. */
  headers: readonly number[];
  /** Whether some message belongs to a domain other than the default one. */
  domains: boolean;
  /** Size of the file it was read from, in bytes. */
  bytes: number;
}

const readLists = new WeakMap<readonly PoMessage[], ReadList>();

/** What {@link parsePo} knew of `list`, when it made it; undefined for any other list. */
export function readList(list: readonly PoMessage[]): ReadList | undefined {
  return readLists.get(list);
}

/** What a reading of a file gives {@link parsePo}: its messages, decoded, and its charset. */
export interface Reading {
  raw: RawParse;
  info: CharsetInfo;
}

/**
 * The fast reading of a PO file's bytes (after any BOM), used by {@link parsePo} first: the lexer
 * reads the bytes as one-byte strings (V8 keeps them, and each ASCII field cut from them, at a
 * byte per character, where a decoded UTF-8 file with one CJK character takes two bytes per
 * character), and only the messages the lexer saw a non-ASCII byte in are decoded afterwards.
 * Null when the file names a charset whose second bytes may be ASCII (the lexer must know it
 * first) or holds a backslash-newline. Otherwise it gives what {@link readAsText} gives.
 *
 * @param chunkBytes roughly how many bytes each string holds (tests make it small).
 * @throws {PoSyntaxError} at any error; its column counts bytes, so {@link parsePo} reads the
 *   file again with {@link readAsText} to report it as msgcat does.
 * @example
 * ```ts
 * readAsBytes(new TextEncoder().encode('msgid "a"\nmsgstr "b"\n'), "a.po")?.raw.messages[0].msgstr; // "b"
 * ```
 */
export function readAsBytes(
  body: Uint8Array,
  fileName: string | undefined,
  chunkBytes = CHUNK_BYTES,
): Reading | null {
  const guess = canonicalCharset(guessCharset(body));
  if (guess !== null && WEIRD_CJK.has(guess)) return null;
  const chunks = byteStringChunks(body, chunkBytes);
  if (chunks === null) return null;
  const raw = parseText(new Lexer(chunks[0], false, null, [], chunks.slice(1)));
  const info = resolveCharset(raw, fileName);
  if (WEIRD_CJK.has(info.canonical)) return null;
  decodeByteMode(raw, info);
  if (info.canonical === "ASCII") checkAscii(raw, info);
  return { raw, info };
}

/** Bytes per chunk, roughly: V8 makes a string this long in its young generation, not in pages of its own. */
const CHUNK_BYTES = 1 << 16;

/**
 * The file as byte strings of about {@link CHUNK_BYTES} each, cut after a newline; null when it holds
 * a backslash-newline (the careful reading removes those first). A string of the whole file would
 * be a large object, in memory fresh from the system at every reading: on our machines the first
 * touch of each page of it costs more than lexing it.
 */
function byteStringChunks(body: Uint8Array, chunkBytes: number): string[] | null {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.length);
  const chunks: string[] = [];
  for (let from = 0; from < body.length || chunks.length === 0;) {
    const newline = from + chunkBytes < body.length ? body.indexOf(10, from + chunkBytes) : -1;
    const to = newline < 0 ? body.length : newline + 1;
    const chunk = buffer.toString("latin1", from, to);
    if (chunk.indexOf("\\\n") >= 0) return null;
    chunks.push(chunk);
    from = to;
  }
  return chunks;
}

/**
 * The careful reading of a PO file's bytes (after any BOM), which {@link parsePo} uses when
 * {@link readAsBytes} cannot read a file or finds an error: a UTF-8 file is decoded first and
 * lexed as text, so error columns count characters as msgcat's do; another file is lexed as
 * bytes once its charset is known.
 *
 * @throws {PoSyntaxError} the file is not one msgcat reads.
 * @example
 * ```ts
 * readAsText(new TextEncoder().encode('msgid "a"\nmsgstr "b"\n'), "a.po").raw.messages[0].msgstr; // "b"
 * ```
 */
export function readAsText(body: Uint8Array, fileName: string | undefined): Reading {
  const utf8Text = decodeUtf8(body);
  let raw: RawParse;
  let info: CharsetInfo;
  let byteMode: boolean;
  if (utf8Text !== null) {
    raw = parseWith(utf8Text, true, null);
    info = resolveCharset(raw, fileName);
    const allAscii = utf8Text.length === body.length;
    byteMode = info.canonical !== "UTF-8" && info.canonical !== "ASCII" && !allAscii;
  } else {
    byteMode = true;
    // In Shift_JIS, Big5, GBK… the second byte of a character may be `\` or `"`: the lexer must
    // know the charset before it reads strings. Guess it from the first "charset=" in the file.
    const guess = canonicalCharset(guessCharset(body));
    raw = parseWith(bytesToByteString(body), false, guess !== null && WEIRD_CJK.has(guess) ? guess : null);
    info = resolveCharset(raw, fileName);
    if (info.canonical !== guess && WEIRD_CJK.has(info.canonical)) {
      raw = parseWith(bytesToByteString(body), false, info.canonical);
    }
  }
  if (byteMode) {
    if (utf8Text !== null) raw = parseWith(bytesToByteString(body), false, null);
    decodeByteMode(raw, info);
  } else {
    decodePending(raw.pending, info);
  }
  if (info.canonical === "ASCII") checkAscii(raw, info);
  return { raw, info };
}

/** The bytes after the first `charset=` of a file, up to a space, quote, backslash or newline. */
function guessCharset(body: Uint8Array): string {
  const needle = [0x63, 0x68, 0x61, 0x72, 0x73, 0x65, 0x74, 0x3d]; // "charset="
  const limit = Math.min(body.length, 65536);
  outer: for (let i = 0; i + needle.length <= limit; i++) {
    for (let k = 0; k < needle.length; k++) if (body[i + k] !== needle[k]) continue outer;
    let j = i + needle.length;
    let name = "";
    while (j < body.length && body[j] > 0x20 && body[j] !== 0x22 && body[j] !== 0x5c && body[j] < 0x7f) {
      name += String.fromCharCode(body[j++]);
    }
    return name;
  }
  return "";
}

function unsupportedCharset(info: CharsetInfo): PoSyntaxError {
  return new PoSyntaxError(
    `charset "${info.raw}" is accepted by msgcat but cannot be decoded by this service`,
    info.line,
    1,
  );
}

function decodePending(pending: PendingField[], info: CharsetInfo): void {
  if (pending.length === 0) return;
  const decode = byteStringDecoder(info.canonical, true);
  if (!decode) throw unsupportedCharset(info);
  for (const p of pending) {
    const s = decode(bytesToByteString(p.bytes));
    if (s === null) throw new PoSyntaxError("invalid multibyte sequence", p.line, 1);
    if (p.index >= 0) p.message.msgstrPlural![p.index] = s;
    else p.message[p.field] = s;
  }
}

function decodeByteMode(raw: RawParse, info: CharsetInfo): void {
  const c = info.canonical;
  if (c === "ISO-8859-1") return; // byte strings are already the text
  if (c === "ASCII") {
    // Strings and comments must be ASCII (checked later); references, flags and domain names are
    // passed through by msgcat as bytes: read them as UTF-8, which the writer uses for ASCII files.
    for (const i of raw.high) {
      const m = raw.messages[i];
      m.references = m.references.map((r) => ({ file: decodeUtf8Loose(r.file), line: r.line }));
      m.flags = m.flags.map(decodeUtf8Loose);
    }
    decodeDomains(raw.messages, decodeUtf8Loose);
    return;
  }
  const strict = byteStringDecoder(c, true);
  const loose = byteStringDecoder(c, false);
  if (!strict || !loose) throw unsupportedCharset(info);
  const looseText = (t: string) => loose(t)!;
  decodeDomains(raw.messages, looseText);
  if (c === "UTF-8" && decodeUtf8Batch(raw)) return;
  // Other messages are ASCII throughout, which reads the same in every charset msgcat accepts here.
  for (const i of raw.high) {
    const strictText = (v: string) => {
      const r = strict(v);
      if (r === null) throw new PoSyntaxError("invalid multibyte sequence", raw.lines[i], 1);
      return r;
    };
    // msgcat does not check comments: an invalid sequence there is kept (here as U+FFFD).
    mapTexts(raw.messages[i], strictText, looseText);
  }
}

/**
 * Replaces, in place, each text of a freshly read message that a charset decodes: strings (msgid,
 * msgstr, …) by `strings(value)`, comments, reference file names and flags by `others(value)`,
 * always in the same order.
 */
function mapTexts(m: PoMessage, strings: (s: string) => string, others: (s: string) => string): void {
  m.msgid = strings(m.msgid);
  m.msgstr = strings(m.msgstr);
  if (m.msgctxt !== null) m.msgctxt = strings(m.msgctxt);
  if (m.msgidPlural !== null) m.msgidPlural = strings(m.msgidPlural);
  const forms = m.msgstrPlural;
  if (forms !== null) { for (let k = 0; k < forms.length; k++) forms[k] = strings(forms[k]); }
  if (m.previousMsgctxt !== null) m.previousMsgctxt = strings(m.previousMsgctxt);
  if (m.previousMsgid !== null) m.previousMsgid = strings(m.previousMsgid);
  if (m.previousMsgidPlural !== null) m.previousMsgidPlural = strings(m.previousMsgidPlural);
  // (The shared empty lists have nothing to replace.)
  const translator = m.translatorComments;
  for (let k = 0; k < translator.length; k++) translator[k] = others(translator[k]);
  const extracted = m.extractedComments;
  for (let k = 0; k < extracted.length; k++) extracted[k] = others(extracted[k]);
  for (const r of m.references) r.file = others(r.file);
  const flags = m.flags;
  for (let k = 0; k < flags.length; k++) flags[k] = others(flags[k]);
}

/**
 * Decodes the non-ASCII texts of the messages of a UTF-8 file the lexer flagged, in one decoder
 * call (one per text costs ~0.3 µs each, most of a small file's reading): their bytes are laid
 * end to end, an ASCII separator after each so that no sequence spans two texts, and the result
 * is cut by each text's UTF-16 length, counted from its bytes. Returns false, having changed
 * nothing, when a U+FFFD comes out (an invalid sequence, or one written in the file): the caller
 * then decodes text by text, strictly where msgcat is strict.
 */
function decodeUtf8Batch(raw: RawParse): boolean {
  const texts: string[] = [];
  const collect = (s: string) => {
    if (NON_ASCII_CHAR.test(s)) texts.push(s);
    return s;
  };
  for (const i of raw.high) mapTexts(raw.messages[i], collect, collect);
  if (texts.length === 0) return true;
  let size = texts.length;
  for (const s of texts) size += s.length;
  const bytes = new Uint8Array(size);
  const units = new Int32Array(texts.length);
  let pos = 0;
  for (let k = 0; k < texts.length; k++) {
    const s = texts[k];
    let count = 0;
    for (let j = 0; j < s.length; j++) {
      const b = s.charCodeAt(j);
      bytes[pos++] = b;
      // A lead byte starts a character: two UTF-16 units from U+10000 on.
      if ((b & 0xc0) !== 0x80) count += b >= 0xf0 ? 2 : 1;
    }
    bytes[pos++] = 10;
    units[k] = count;
  }
  const all = UTF8_LOOSE.decode(bytes);
  if (all.indexOf("\uFFFD") >= 0) return false;
  let at = 0;
  for (let k = 0; k < texts.length; k++) {
    texts[k] = all.slice(at, at + units[k]);
    at += units[k] + 1;
  }
  let next = 0;
  const replace = (s: string) => NON_ASCII_CHAR.test(s) ? texts[next++] : s;
  for (const i of raw.high) mapTexts(raw.messages[i], replace, replace);
  return true;
}

/** Decodes the domain names (byte strings) of the messages that have one, each name once. */
function decodeDomains(messages: PoMessage[], decode: (s: string) => string): void {
  let names: Map<string, string> | null = null;
  for (const m of messages) {
    if (m.domain === undefined) continue;
    names ??= new Map();
    let name = names.get(m.domain);
    if (name === undefined) names.set(m.domain, name = decode(m.domain));
    m.domain = name;
  }
}

function checkAscii(raw: RawParse, info: CharsetInfo): void {
  for (const i of raw.high) {
    for (const t of checkedTexts(raw.messages[i])) {
      if (!isAscii(t)) {
        throw new PoSyntaxError(
          info.missing
            ? "non-ASCII text but no header entry with a charset specification"
            : "invalid multibyte sequence (non-ASCII text in an ASCII catalogue)",
          raw.lines[i],
          1,
        );
      }
    }
  }
}
