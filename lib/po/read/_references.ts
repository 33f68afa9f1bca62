/**
 * The `#:` reference syntax, read and written: gettext's three spellings of a reference and its
 * Solaris `# File:` comment on the way in, exact duplicates dropped as gettext drops them, and the
 * `#:` lines msgcat prints (filled to 79 bytes, `./` removed) on the way out.
 *
 * @module
 */
import { utf8Length } from "../../byte_runs.ts";
import type { ByteWriter } from "../write/_byte_writer.ts";
import { ownString } from "./_lexer.ts";
import type { PoReference } from "../types.ts";
import type { LegacyCodec } from "../charsets/_legacy_charset.ts";

const NON_ASCII_TEXT = /[^\0-\x7f]/;

const PAGE_WIDTH = 79;

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
    for (let k = 0; k < n; k++) if (out[k]!.line === line && out[k]!.file === file) return;
    out.push({ file, line });
    return;
  }
  let index = indexed === out ? listIndex : null;
  if (index === null || index.count !== n) {
    // Another list, or this one changed behind the index's back (lists are only appended to here).
    index = { count: 0, lines: new Map() };
    for (let k = 0; k < n; k++) indexReference(index, out[k]!.file, out[k]!.line);
    indexed = out;
    listIndex = index;
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

/**
 * The list being built and its index. Lists are built one at a time (an entry's references, then
 * the next entry's), so one slot serves: a list that comes back after another is indexed again,
 * in time linear in its length. (Not an identity cache: the list is not a handed-out value.)
 */
let indexed: readonly PoReference[] | null = null;
let listIndex: ReferenceIndex | null = null;

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

/** `#:` lines: references re-filled to 79 bytes, leading `./` removed (section 3.4). */
export function referenceLines(refs: readonly PoReference[], singleByte: boolean): string {
  if (refs.length === 0) return "";
  let out = "#:";
  let column = 2;
  for (const r of refs) {
    let file = r.file;
    while (file.startsWith("./")) file = file.slice(2);
    const text = r.line === null ? file : `${file}:${r.line}`;
    const len = (singleByte ? text.length : utf8Length(text)) + 1;
    if (column > 2 && column + len > PAGE_WIDTH) {
      out += "\n#:";
      column = 2;
    }
    out += " " + text;
    column += len;
  }
  return out + "\n";
}

/**
 * {@link referenceLines}, written into `w` without a string per reference. In a multi-byte legacy
 * charset (`legacy`), a non-ASCII file name counts the bytes it will be encoded in.
 */
export function writeReferences(
  w: ByteWriter,
  refs: readonly PoReference[],
  singleByte: boolean,
  legacy: LegacyCodec | null = null,
): void {
  w.ascii("#:");
  let column = 2;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i]!;
    const file = r.file;
    let from = 0;
    while (file.startsWith("./", from)) from += 2;
    const at = w.pos;
    w.byte(32);
    w.text(file, from, file.length, false);
    let len: number;
    if (r.line === null) len = singleByte ? file.length - from + 1 : w.pos - at;
    else {
      w.byte(58);
      const digitsAt = w.pos;
      w.decimal(r.line);
      len = singleByte ? file.length - from + 2 + (w.pos - digitsAt) : w.pos - at;
    }
    if (legacy !== null && NON_ASCII_TEXT.test(file)) {
      const name = file.slice(from);
      const encoded = legacy.encode(name);
      if (typeof encoded !== "number") len += encoded.length - utf8Length(name);
    }
    if (column > 2 && column + len > PAGE_WIDTH) {
      // Too long for this line: move it to a new one.
      w.reserve(3);
      w.buf.copyWithin(at + 3, at, w.pos);
      w.buf[at] = 10;
      w.buf[at + 1] = 35;
      w.buf[at + 2] = 58;
      w.pos += 3;
      column = 2;
    }
    column += len;
  }
  w.byte(10);
}

/**
 * A message's `#:` lines that msgcat prints exactly as they are, told from their bytes: the
 * laid-out-file check (`laid_out.ts`) copies them instead of reading them into references and
 * writing those again. Lines are taken one after another ({@link take}); `from` to `to` are the
 * lines taken (`to` after the last newline), `from` < 0 for none.
 */
export class ReferenceLinesAsRead {
  from = -1;
  to = -1;
  /** References taken, with their byte offsets (for duplicates), and the last line's width. */
  #count = 0;
  readonly #starts = new Int32Array(16);
  readonly #ends = new Int32Array(16);
  #lastColumns = 0;

  /** Forgets the lines taken. */
  clear(): void {
    this.from = this.to = -1;
    this.#count = 0;
  }

  /**
   * Takes the `#:` line `bytes[from, eol)` (from its `#`, the line after those taken, if any) when
   * msgcat prints it as it is, and returns whether it did: one space before each reference, each
   * `NAME` or `NAME:LINE` in printable ASCII that reads back as itself (no `./` to remove, no colon
   * that joins a neighbour, the line number in `%ld`'s digits), none a duplicate of one taken, and
   * the line filled as {@link writeReferences} fills (its first reference did not fit on the line
   * before). At most 16 references are taken in all (duplicates are looked for among them).
   */
  take(bytes: Uint8Array, from: number, eol: number): boolean {
    const starts = this.#starts;
    const ends = this.#ends;
    let count = this.#count;
    let column = 2;
    let p = from + 2;
    if (p >= eol) return false;
    while (p < eol) {
      if (bytes[p] !== 32) return false;
      const start = ++p;
      while (p < eol && bytes[p]! > 32 && bytes[p]! < 127) p++;
      const end = p;
      const length = end - start;
      if (length === 0 || (p < eol && bytes[p] !== 32)) return false;
      // `:N` and `NAME:` join a neighbour (gettext's other spellings); `./` is removed.
      if (bytes[start] === 58 || bytes[end - 1] === 58) return false;
      if (bytes[start] === 46 && bytes[start + 1] === 47) return false;
      let d = end;
      while (bytes[d - 1]! >= 48 && bytes[d - 1]! <= 57) d--;
      if (d < end && bytes[d - 1] === 58 && ((bytes[d] === 48 && end - d > 1) || end - d > 9)) return false;
      // A reference goes on the line when it fits (writeReferences).
      if (column > 2 && column + length + 1 > PAGE_WIDTH) return false;
      if (column === 2 && count > 0 && this.#lastColumns + length + 1 <= PAGE_WIDTH) return false;
      if (count === starts.length) return false;
      for (let k = 0; k < count; k++) {
        if (ends[k]! - starts[k]! === length && sameRange(bytes, starts[k]!, start, length)) {
          return false; // a duplicate: gettext keeps the first
        }
      }
      starts[count] = start;
      ends[count] = end;
      count++;
      column += length + 1;
    }
    if (this.from < 0) this.from = from;
    this.to = eol + 1;
    this.#count = count;
    this.#lastColumns = column;
    return true;
  }
}

/** Whether `bytes[a, a + length)` and `bytes[b, b + length)` are the same bytes. */
function sameRange(bytes: Uint8Array, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}
