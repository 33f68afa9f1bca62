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
  possibleLineBreaks,
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
for (
  const [c, e] of [["\n", "n"], ["\t", "t"], ["\r", "r"], ["\x07", "a"], ["\b", "b"], ["\f", "f"], [
    "\v",
    "v",
  ], [
    '"',
    '"',
  ], ["\\", "\\"]]
) {
  ESCAPE_LETTER[c.charCodeAt(0)] = e.charCodeAt(0);
}

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

/** True when some character of `value` needs an escape. */
function needsEscaping(value: string): boolean {
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 128 && ESCAPE_LETTER[c] !== 0) return true;
  }
  return false;
}

/** Columns of the escaped text of `value[from..to)`. */
function portionColumns(value: string, from: number, to: number): number {
  let columns = 0;
  for (let i = from; i < to; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) columns += ASCII_COLUMNS[c];
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < to) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        columns += astralWidth(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
      } else columns += BMP_WIDTHS[c];
    } else columns += BMP_WIDTHS[c];
  }
  return columns;
}

// Scratch buffers for one portion's escaped characters (grown on demand, never shrunk).
let classes = new Uint8Array(256);
let widths = new Uint8Array(256);
let overrides = new Uint8Array(256);
let opportunities = new Uint8Array(256);
/** Index in the raw value of the character each escaped character comes from. */
let sources = new Int32Array(256);
/** Raw indices where a new output line starts, as computed by the last {@link layOut}. */
let lineStarts = new Int32Array(64);

/** An override that leaves the break opportunity as computed. */
const UNDEFINED = 255;

function ensureCapacity(units: number): void {
  if (classes.length >= units) return;
  const size = Math.max(units, classes.length * 2);
  classes = new Uint8Array(size);
  widths = new Uint8Array(size);
  overrides = new Uint8Array(size);
  opportunities = new Uint8Array(size);
  sources = new Int32Array(size);
}

/**
 * Computes where the portion `value[from..to)` is broken when it starts at column `startColumn` of
 * lines `width` columns wide: fills {@link lineStarts} with raw indices and returns their count.
 * `interiors[i] === 1` forbids a break before `value[i]` (inside a format directive).
 */
function layOut(
  value: string,
  from: number,
  to: number,
  startColumn: number,
  width: number,
  interiors: Uint8Array | null,
): number {
  ensureCapacity(2 * (to - from));
  // The escaped text, as classes, widths and write-po.c's overrides.
  let m = 0;
  for (let i = from; i < to; i++) {
    let c = value.charCodeAt(i);
    const override = interiors !== null && interiors[i] === 1 ? BREAK_PROHIBITED : UNDEFINED;
    sources[m] = i;
    overrides[m] = override;
    if (c < 128) {
      const letter = ESCAPE_LETTER[c];
      if (letter !== 0) {
        // "\" is PR; the second character may never start a line.
        classes[m] = LB_PR;
        widths[m] = 1;
        m++;
        sources[m] = i;
        overrides[m] = BREAK_PROHIBITED;
        classes[m] = BMP_CLASSES[letter];
        widths[m] = 1;
      } else {
        classes[m] = BMP_CLASSES[c];
        widths[m] = BMP_WIDTHS[c];
      }
    } else if (c >= 0xd800 && c < 0xdc00 && i + 1 < to && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = ((c - 0xd800) << 10) + (value.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      classes[m] = astralLineBreakClass(c);
      widths[m] = astralWidth(c);
      i++;
    } else {
      classes[m] = BMP_CLASSES[c];
      widths[m] = BMP_WIDTHS[c];
    }
    m++;
  }
  // No break just before the "\n" that ends a portion.
  if (value.charCodeAt(to - 1) === 10) overrides[m - 2] = BREAK_PROHIBITED;

  possibleLineBreaks(classes, 0, m, opportunities);

  // Greedy filling of whole pieces (a piece runs from one opportunity to the next).
  let count = 0;
  let pieceStart = -1;
  let column = startColumn;
  let pieceWidth = 0;
  for (let k = 0; k < m; k++) {
    const brk = overrides[k] === UNDEFINED ? opportunities[k] : overrides[k];
    if (brk !== BREAK_PROHIBITED) {
      if (pieceStart >= 0 && column + pieceWidth > width) {
        if (count === 0 || lineStarts[count - 1] !== sources[pieceStart]) {
          count = pushLineStart(count, pieceStart);
        }
        column = 0;
      }
      if (brk === BREAK_MANDATORY) {
        // U+2028 & co.: columns restart at 0, but no line is started in the output.
        pieceStart = -1;
        column = 0;
        pieceWidth = 0;
        continue;
      }
      pieceStart = k;
      column += pieceWidth;
      pieceWidth = 0;
    }
    pieceWidth += widths[k];
  }
  if (pieceStart >= 0 && column + pieceWidth > width) {
    if (count === 0 || lineStarts[count - 1] !== sources[pieceStart]) {
      count = pushLineStart(count, pieceStart);
    }
  }
  return count;
}

function pushLineStart(count: number, unit: number): number {
  if (count === lineStarts.length) {
    const grown = new Int32Array(count * 2);
    grown.set(lineStarts);
    lineStarts = grown;
  }
  lineStarts[count] = sources[unit];
  return count + 1;
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
  if (newline < 0 || newline === n - 1) {
    // One portion: the fast path when it fits on the keyword line.
    if (firstColumn <= width && firstColumn + portionColumns(value, 0, n) <= width) {
      return prefix + keyword + ' "' + escapeString(value) + '"\n';
    }
  }

  const escape = needsEscaping(value);
  const language = options.formatLanguage;
  const interiors = language ? directiveInteriors(value, language, keyword.startsWith("msgstr")) : null;
  const continuation = prefix + '"';
  let out = "";
  let firstLine = true;
  let from = 0;
  do {
    const nl = value.indexOf("\n", from);
    const to = nl < 0 ? n : nl + 1;
    const columns = portionColumns(value, from, to);
    let count = 0;
    if (firstLine) {
      // `K ""` first when more text follows this portion or it needs a break on the keyword line.
      const emptyFirst = to < n || firstColumn > width ||
        (firstColumn + columns > width && layOut(value, from, to, firstColumn, width, interiors) > 0);
      if (emptyFirst) {
        out += prefix + keyword + ' ""\n';
        firstLine = false;
      }
    }
    if (!firstLine && columns > width) count = layOut(value, from, to, 0, width, interiors);
    let line = firstLine ? prefix + keyword + ' "' : continuation;
    let start = from;
    for (let j = 0; j < count; j++) {
      const end = lineStarts[j];
      line += escape ? escapeString(value.slice(start, end)) : value.slice(start, end);
      out += line + '"\n';
      line = continuation;
      start = end;
    }
    out += line + (escape ? escapeString(value.slice(start, to)) : value.slice(start, to)) + '"\n';
    firstLine = false;
    from = to;
  } while (from < n);
  return out;
}
