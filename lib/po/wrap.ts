/**
 * Prints one string field of a PO file exactly as GNU msgcat 0.21 (libunistring 1.0, page width 79)
 * does: escaping, portions after `\n`, the `K ""` first line, and greedy filling with break
 * opportunities from UAX #14 as libunistring 1.0 computes them on the escaped text. The rules, and
 * the vectors proving them, are in `shared/docs/msgcat-format.md` sections 4 and 5; the filling
 * follows `u8_width_linebreaks` and the overrides follow gettext's `write-po.c`.
 *
 * @module
 */
import { directiveInteriors } from "./_format_directives.ts";
import {
  astralLineBreakClass,
  BMP_CLASSES,
  BREAK_MANDATORY,
  BREAK_PROHIBITED,
  LB_PR,
  LINE_BREAK_DFA,
  LINE_BREAK_DFA_START,
} from "./_linebreak.ts";
import { astralWidth, BMP_WIDTHS } from "./_width.ts";

/** Options of {@link wrapString}. */
export interface WrapOptions {
  /** Line prefix: "" normally, "#~ " obsolete, "#| " previous fields, "#~| " previous fields of obsolete entries. */
  prefix: string;
  /** "msgctxt" | "msgid" | "msgid_plural" | "msgstr" | "msgstr[0]" … */
  keyword: string;
  /** The entry's no-wrap flag: never break for width (still split after \n). */
  noWrap?: boolean;
  /** First applicable format language per msgcat-format.md 3.5/4.9 (e.g. "c", "python", "python-brace"), or null. */
  formatLanguage?: string | null;
}

const PAGE_WIDTH = 79;

/** For ASCII code units: the letter of their escape (`n` for newline, `"` for `"`…), or 0. */
const ESCAPE_LETTER = new Uint8Array(128);
const ESCAPES: Record<string, string> = {
  "\n": "n",
  "\t": "t",
  "\r": "r",
  "\x07": "a",
  "\b": "b",
  "\f": "f",
  "\v": "v",
  '"': '"',
  "\\": "\\",
};
for (const [c, letter] of Object.entries(ESCAPES)) ESCAPE_LETTER[c.charCodeAt(0)] = letter.charCodeAt(0);

/** Columns of an ASCII code unit once escaped: 2 for an escape, 0 for other controls, else 1. */
const ASCII_COLUMNS = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_COLUMNS[c] = ESCAPE_LETTER[c] !== 0 ? 2 : BMP_WIDTHS[c];

/**
 * msgcat's escaping (4.1): \n \t \r \a \b \f \v \\ \" and nothing else; every other character,
 * control characters included, is written as it is.
 *
 * @example
 * ```ts
 * escapeString('say "hi"\n'); // 'say \\"hi\\"\\n'
 * ```
 */
export function escapeString(value: string): string {
  let out = "";
  let from = 0;
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 128 && ESCAPE_LETTER[c] !== 0) {
      out += value.slice(from, i) + "\\" + String.fromCharCode(ESCAPE_LETTER[c]);
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

/** Whether the text last measured by {@link portionColumns} or {@link scan}ned has escapes. */
let sawEscape = false;

/**
 * Columns of the escaped text of `value[from..to)`, counted only until they exceed `limit` (then
 * some value above `limit` is returned). When the whole text was measured, {@link sawEscape} says
 * whether it has escapes.
 */
function portionColumns(value: string, from: number, to: number, limit: number): number {
  let columns = 0;
  let escapes = false;
  for (let i = from; i < to && columns <= limit; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) {
      columns += ASCII_COLUMNS[c];
      if (ESCAPE_LETTER[c] !== 0) escapes = true;
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < to && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      columns += astralWidth(((c - 0xd800) << 10) + (value.charCodeAt(i + 1) - 0xdc00) + 0x10000);
      i++;
    } else columns += BMP_WIDTHS[c];
  }
  sawEscape = escapes;
  return columns;
}

/** Raw indices where a new output line starts, as computed by the last {@link fill}. */
let lineStarts = new Int32Array(64);

function pushLineStart(count: number, index: number): number {
  // The same piece can overflow at two checks (before a mandatory break, then at the end).
  if (count > 0 && lineStarts[count - 1] === index) return count;
  if (count === lineStarts.length) {
    const grown = new Int32Array(count * 2);
    grown.set(lineStarts);
    lineStarts = grown;
  }
  lineStarts[count] = index;
  return count + 1;
}

/**
 * What {@link scan} needs of a BMP code unit, in one load: bits 0–5 its line-break class, bits 6–7
 * its columns; for a character msgcat escapes, bit 8 is set, the class is the `\\`'s (PR), the
 * columns are the escape's 2, and bits 9–14 are the class of the escape's second character.
 */
const UNIT_INFO = new Uint16Array(0x10000);
for (let c = 0; c < 0x10000; c++) {
  const letter = c < 128 ? ESCAPE_LETTER[c] : 0;
  UNIT_INFO[c] = letter === 0
    ? BMP_CLASSES[c] | (BMP_WIDTHS[c] << 6)
    : LB_PR | (2 << 6) | 0x100 | (BMP_CLASSES[letter] << 9);
}

// The break opportunities of the portion last {@link scan}ned, in order: raw index of the
// character, columns of the portion before it, and whether the break is possible or mandatory.
let opportunityAt = new Int32Array(256);
let opportunityColumn = new Int32Array(256);
let opportunityKind = new Uint8Array(256);
let opportunityCount = 0;
/** Columns of the portion last scanned. */
let scannedColumns = 0;

/**
 * Scans the portion `value[from..to)` in one pass over its escaped text: break opportunities
 * (UAX #14 as libunistring 1.0), write-po.c's overrides (no break inside an escape, before a final
 * `\n`, or inside a format directive) and column widths. Records the opportunities for
 * {@link fill} and sets {@link sawEscape}.
 */
function scan(value: string, from: number, to: number, interiors: Uint8Array | null): void {
  if (opportunityAt.length <= to - from) {
    const size = Math.max(to - from + 1, opportunityAt.length * 2);
    opportunityAt = new Int32Array(size);
    opportunityColumn = new Int32Array(size);
    opportunityKind = new Uint8Array(size);
  }
  const ats = opportunityAt;
  const columnsBefore = opportunityColumn;
  const kinds = opportunityKind;
  let state = LINE_BREAK_DFA_START;
  let n = 0;
  let run = 0;
  let escapes = false;
  for (let i = from; i < to; i++) {
    const at = i;
    const c = value.charCodeAt(i);
    let brk: number;
    let columns: number;
    if (c < 0xd800 || c >= 0xe000) {
      const info = UNIT_INFO[c];
      let t = LINE_BREAK_DFA[state + (info & 63)];
      brk = t & 3;
      columns = (info >> 6) & 3;
      if ((info & 0x100) !== 0) {
        // The escape's second character: never a break before it.
        t = LINE_BREAK_DFA[(t >> 2) + (info >> 9)];
        escapes = true;
        // No break just before the "\n" that ends a portion.
        if (c === 10) brk = BREAK_PROHIBITED;
      }
      state = t >> 2;
    } else {
      let cls: number;
      if (c < 0xdc00 && i + 1 < to && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        const cp = ((c - 0xd800) << 10) + (value.charCodeAt(i + 1) - 0xdc00) + 0x10000;
        cls = astralLineBreakClass(cp);
        columns = astralWidth(cp);
        i++;
      } else {
        cls = BMP_CLASSES[c];
        columns = BMP_WIDTHS[c];
      }
      const t = LINE_BREAK_DFA[state + cls];
      brk = t & 3;
      state = t >> 2;
    }
    if (interiors !== null && interiors[at] === 1) brk = BREAK_PROHIBITED;
    // Recorded unconditionally, kept only when it is an opportunity (no branch to mispredict).
    ats[n] = at;
    columnsBefore[n] = run;
    kinds[n] = brk;
    n += (brk + 1) >> 1;
    // A mandatory break character (U+2028 & co.) takes no columns: they restart after it.
    if (brk === BREAK_MANDATORY) run -= columns;
    run += columns;
  }
  opportunityCount = n;
  scannedColumns = run;
  sawEscape = escapes;
}

/**
 * `u8_width_linebreaks`' greedy filling of whole pieces (a piece runs from one opportunity to the
 * next) over the portion last {@link scan}ned, starting at column `startColumn` of lines `width`
 * columns wide. Fills {@link lineStarts} with the raw indices where new lines start and returns
 * their count; with `record` false it stops at the first break and returns 1.
 */
function fill(startColumn: number, width: number, record: boolean): number {
  const n = opportunityCount;
  let count = 0;
  let pieceStart = -1;
  let pieceBegin = 0;
  let column = startColumn;
  for (let k = 0; k < n; k++) {
    const before = opportunityColumn[k];
    const pieceWidth = before - pieceBegin;
    if (pieceStart >= 0 && column + pieceWidth > width) {
      if (!record) return 1;
      count = pushLineStart(count, opportunityAt[pieceStart]);
      column = 0;
    }
    if (opportunityKind[k] === BREAK_MANDATORY) {
      // Columns restart at 0, but no line is started in the output.
      pieceStart = -1;
      column = 0;
    } else {
      pieceStart = k;
      column += pieceWidth;
    }
    pieceBegin = before;
  }
  if (pieceStart >= 0 && column + scannedColumns - pieceBegin > width) {
    if (!record) return 1;
    count = pushLineStart(count, opportunityAt[pieceStart]);
  }
  return count;
}

/**
 * Prints one string field exactly as msgcat 0.21 does: returns its lines, each ending in "\n".
 * `value` is the raw (unescaped) string.
 *
 * @example
 * ```ts
 * wrapString("a\nb", { prefix: "", keyword: "msgstr" }); // 'msgstr ""\n"a\\n"\n"b"\n'
 * wrapString("", { prefix: "#~ ", keyword: "msgid" }); // '#~ msgid ""\n'
 * ```
 */
export function wrapString(value: string, options: WrapOptions): string {
  const prefix = options.prefix;
  const keyword = options.keyword;
  const n = value.length;
  if (n === 0) return prefix + keyword + ' ""\n';
  // Columns between the quotes of a continuation line `P"…"` (79 in all), and where the text of the
  // first line `PK "…"` starts relative to a continuation line's.
  const width = options.noWrap ? Infinity : PAGE_WIDTH - 1 - (prefix.length + 1);
  const firstColumn = keyword.length + 1;

  const newline = value.indexOf("\n");
  if (
    (newline < 0 || newline === n - 1) && firstColumn <= width && n <= width - firstColumn &&
    portionColumns(value, 0, n, width - firstColumn) <= width - firstColumn
  ) {
    // One portion that fits on the keyword line.
    return prefix + keyword + ' "' + (sawEscape ? escapeString(value) : value) + '"\n';
  }

  const language = options.formatLanguage;
  let interiors: Uint8Array | null | undefined;
  const continuation = prefix + '"';
  let out = "";
  let firstLine = true;
  let from = 0;
  do {
    const nl = value.indexOf("\n", from);
    const to = nl < 0 ? n : nl + 1;
    // The first portion stays on the keyword line unless more text follows it or it needs a break
    // there; then the first line is `K ""` and the portion starts a line of its own.
    const onKeywordLine = firstLine && to === n && firstColumn <= width;
    let emptyFirst = firstLine && !onKeywordLine;
    const room = onKeywordLine ? width - firstColumn : width;
    let count = 0;
    let escape = true;
    if (width === Infinity) {
      // no-wrap: never laid out
    } else if (to - from > room || portionColumns(value, from, to, room) > room) {
      // (More code units than columns: measuring first would rarely spare the layout.)
      if (interiors === undefined) {
        interiors = language ? directiveInteriors(value, language, keyword.startsWith("msgstr")) : null;
      }
      scan(value, from, to, interiors);
      if (onKeywordLine && fill(firstColumn, width, false) === 0) {
        count = 0; // no break is needed (or possible) after `K "`: it stays there, however long
      } else {
        emptyFirst ||= onKeywordLine;
        count = fill(0, width, true);
      }
      escape = sawEscape;
    } else escape = sawEscape;
    if (emptyFirst) {
      out += prefix + keyword + ' ""\n';
      firstLine = false;
    }
    let line = firstLine ? prefix + keyword + ' "' : continuation;
    let start = from;
    for (let j = 0; j < count; j++) {
      const end = lineStarts[j];
      out += line + (escape ? escapeString(value.slice(start, end)) : value.slice(start, end)) + '"\n';
      line = continuation;
      start = end;
    }
    out += line + (escape ? escapeString(value.slice(start, to)) : value.slice(start, to)) + '"\n';
    firstLine = false;
    from = to;
  } while (from < n);
  return out;
}
