/**
 * The PO lexer, a mirror of gettext's: `#~` and `#|` are prefixes of ordinary tokens, `#` starts a
 * comment anywhere, a backslash-newline is removed everywhere (before lexing), strings may be
 * split over several quoted pieces. Strings are built from escapes at byte level (`\303\251` is "é"
 * in a UTF-8 file), to be decoded once the catalogue's charset is known.
 *
 * @module
 */
import { PoSyntaxError } from "../../errors.ts";
import { NON_ASCII_CHAR } from "../charsets/_charset.ts";

// Token kinds (numbers, not strings: compared on every token).
/** End of the file. */
export const T_EOF: number = 0;
/** A comment line other than `#:`; its text after `#` is the value. */
export const T_COMMENT: number = 1;
/** A quoted string; its unescaped content is the value. */
export const T_STRING: number = 2;
/** The `domain` keyword. */
export const T_DOMAIN: number = 3;
/** The `msgctxt` keyword. */
export const T_MSGCTXT: number = 4;
/** The `msgid` keyword. */
export const T_MSGID: number = 5;
/** The `msgid_plural` keyword. */
export const T_MSGID_PLURAL: number = 6;
/** The `msgstr` keyword. */
export const T_MSGSTR: number = 7;
/** `[` */
export const T_LBRACKET: number = 8;
/** `]` */
export const T_RBRACKET: number = 9;
/** A number (a plural form index). */
export const T_NUMBER: number = 10;
/** A `#:` line, read in place: its text is `text[refFrom, refTo)` of the lexer's chunk. */
export const T_REFERENCES: number = 11;

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

/** U+0000–U+0004: NUL ends a string, EOT is refused in it (searched with `lastIndex`). */
// deno-lint-ignore no-control-regex -- these control characters are what it looks for
const LOW_CONTROL = /[\0-\x04]/g;
/** A non-ASCII character (searched with `lastIndex`). */
const NON_ASCII_FROM = /[^\0-\x7f]/g;

/** An `indexOf` result, or the text's length for "none". */
function nextOf(at: number, t: string): number {
  return at < 0 ? t.length : at;
}

/**
 * Offset of the first match of the global, one-character `re` in `t` at or after `from`, or
 * `t.length`. (`test` leaves `lastIndex` just past the match, and makes no match object.)
 */
function nextMatch(re: RegExp, t: string, from: number): number {
  re.lastIndex = from;
  return re.test(t) ? re.lastIndex - 1 : t.length;
}

/** Token kinds as error messages name them, by kind. */
export const TOKEN_NAMES = [
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
export type StringValue = string | Uint8Array;

const utf8Encoder = new TextEncoder();

/** The pieces of a string joined: text when all are text, else UTF-8 bytes. */
export function concatValues(parts: StringValue[]): StringValue {
  if (parts.length === 1) return parts[0]!;
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

/**
 * The lexer over a file's text (or bytes, as one-byte strings): {@link Lexer.advance} loads the
 * next token into its fields, and its errors carry gettext's line and column.
 */
export class Lexer {
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

  // For {@link lexString}'s fast path: the next offsets (in the chunk at file offset
  // `scannedBase`, where they were found) of a backslash, a newline, a character U+0000–U+0004 and
  // a non-ASCII character, each the chunk's length when there is none; -1 until searched. The lexer
  // only moves forward in a chunk, so each is searched again only once the lexer has passed it:
  // every search together reads the chunk about once, natively, instead of a loop over every
  // character of every string. (The chunk is told by its offset, not by comparing strings: two
  // chunks of the same text are equal strings, and comparing them cost a whole chunk per call.)
  private scannedBase = -1;
  private nextBackslash = -1;
  private nextNewline = -1;
  private nextLow = -1;
  private nextHigh = -1;

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
      if (r[mid]! <= offset) lo = mid + 1;
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
          this.text = t = this.rest[this.nextChunk++]!;
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
    // Fast path: the closing quote comes before any backslash, newline or U+0000–U+0004 (and the
    // file is not in a weird CJK charset): the string is the text between the quotes.
    if (this.weird === null) {
      const t = this.text;
      const q = t.indexOf('"', i);
      if (q >= 0) {
        if (this.scannedBase !== this.base) {
          this.scannedBase = this.base;
          this.nextBackslash = -1;
          this.nextNewline = -1;
          this.nextLow = -1;
          this.nextHigh = -1;
        }
        if (this.nextNewline < i) this.nextNewline = nextOf(t.indexOf("\n", i), t);
        if (this.nextBackslash < i) this.nextBackslash = nextOf(t.indexOf("\\", i), t);
        if (q < this.nextNewline && q < this.nextBackslash) {
          if (this.nextLow < i) this.nextLow = nextMatch(LOW_CONTROL, t, i);
          if (q < this.nextLow) {
            if (this.nextHigh < i) this.nextHigh = nextMatch(NON_ASCII_FROM, t, i);
            if (this.nextHigh < q) this.lastHighStart = this.base + this.start;
            this.i = q + 1;
            return t.slice(i, q);
          }
        }
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

/**
 * `s` as a string of its own. V8 makes a slice of 13 characters or more a view of the string it was
 * cut from, which then lives as long as the slice: a catalogue's fields would keep every 64 KiB
 * chunk of the file in memory, a second copy of it. Joining two pieces makes a copy.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join("");
}

/** `text` without its backslash-newlines, and where (in the result) each was removed, ascending. */
export function removeBackslashNewlines(text: string): { text: string; removed: number[] } {
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
