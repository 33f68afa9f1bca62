/**
 * The `#:` reference syntax, read and written: gettext's three spellings of a reference and its
 * Solaris `# File:` comment on the way in, exact duplicates dropped as gettext drops them, and the
 * `#:` lines msgcat prints (filled to 79 bytes, `./` removed) on the way out.
 *
 * @module
 */
import { utf8Length } from "../byte_runs.ts";
import type { ByteWriter } from "./_byte_writer.ts";
import { ownString } from "./_lexer.ts";
import type { PoReference } from "./types.ts";
import type { LegacyCodec } from "./_legacy_charset.ts";

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
