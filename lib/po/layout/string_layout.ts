/**
 * Prints one string field of a PO file exactly as GNU msgcat 0.21 (libunistring 1.0, page width 79)
 * does: escaping, portions after `\n`, the `K ""` first line, and greedy filling with break
 * opportunities from UAX #14 as libunistring 1.0 computes them on the escaped text. The rules, and
 * the vectors proving them, are in `shared/docs/msgcat-format.md` sections 4 and 5; the filling
 * follows `u8_width_linebreaks` and the overrides follow gettext's `write-po.c`.
 *
 * @module
 */
import { directiveInteriorBytes } from "./_format_directives.ts";
import {
  astralLineBreakClass,
  BMP_CLASSES,
  BREAK_MANDATORY,
  BREAK_PROHIBITED,
  CLASS_COUNT,
  LB_ID1,
  LB_PR,
  LINE_BREAK_DFA_START,
} from "./_linebreak.ts";
import { ASCII_STEP as STORED_ASCII_STEP, DFA_BY_NUMBER as STORED_DFA_BY_NUMBER } from "./_scan_tables.ts";
import { astralWidth, BMP_WIDTHS } from "./_width.ts";
import {
  astralWidth023,
  bmpProps023,
  bmpWidths023,
  possibleLineBreaks023,
  propertyOf023,
} from "./_linebreak_023.ts";
import { cjkColumns, isAmbiguous } from "./_cjk_layout.ts";
import type { GettextGeneration } from "./generation.ts";

export type { GettextGeneration } from "./generation.ts";
import { ByteWriter, ESCAPE_LETTER, SEEN_NON_ASCII } from "../write/_byte_writer.ts";

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
  /**
   * The file is in one of libunistring's CJK encodings (EUC-KR, GBK, BIG5…: `isCjkEncoding`): U+00A1
   * to U+FF60 count 2 columns and ambiguous characters break as ideographs (`_cjk_layout.ts`).
   */
  cjk?: boolean;
  /** Which msgcat to lay out as: "0.21" (libunistring 1.0, the default) or "0.23" (libunistring 1.3). */
  generation?: GettextGeneration;
}

const PAGE_WIDTH = 79;

/** Columns of an ASCII code unit once escaped: 2 for an escape, 0 for other controls, else 1. */
const ASCII_COLUMNS = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_COLUMNS[c] = ESCAPE_LETTER[c] !== 0 ? 2 : BMP_WIDTHS[c]!;

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
      out += value.slice(from, i) + "\\" + String.fromCharCode(ESCAPE_LETTER[c]!);
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

/** What a byte asks of the writer: 0 nothing, 1 an escape (or a NUL or U+0004), 2 it is not ASCII. */
const BYTE_KIND = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  BYTE_KIND[b] = b >= 0x80 ? 2 : ESCAPE_LETTER[b] !== 0 || b === 0 || b === 4 ? 1 : 0;
}

/**
 * {@link BYTE_KIND}s of the portion last measured in full by {@link portionColumns} or scanned
 * by {@link scan}, or-ed: without 1, its lines are copied as they are.
 */
let portionKinds = 0;

/**
 * Columns of the escaped text of the UTF-8 bytes `src[from..to)`, counted only until they exceed
 * `limit` (then some value above `limit` is returned). When it measured everything, it sets
 * {@link portionKinds}.
 */
function portionColumns(src: Uint8Array, from: number, to: number, limit: number): number {
  const widths = bmpWidths;
  let columns = 0;
  let kinds = 0;
  for (let i = from; i < to && columns <= limit;) {
    // `!`: i < to <= src.length; the text is well-formed UTF-8 (a lead byte's continuation bytes
    // follow it) and every table index is masked to its table's size.
    const c = src[i]!;
    kinds |= BYTE_KIND[c]!;
    if (c < 0x80) {
      columns += ASCII_COLUMNS[c]!;
      i++;
    } else if (c < 0xe0) {
      columns += widths[((c & 0x1f) << 6) | (src[i + 1]! & 63)]!;
      i += 2;
    } else if (c < 0xf0) {
      columns += widths[((c & 0x0f) << 12) | ((src[i + 1]! & 63) << 6) | (src[i + 2]! & 63)]!;
      i += 3;
    } else {
      columns += astralWidthOf(
        ((c & 7) << 18) | ((src[i + 1]! & 63) << 12) | ((src[i + 2]! & 63) << 6) | (src[i + 3]! & 63),
      );
      i += 4;
    }
  }
  portionKinds = kinds;
  return columns;
}

/** Byte offsets where a new output line starts, as computed by the last {@link fill}. */
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

/** The BMP tables of a file in a CJK encoding (`cjk`), made on first use. */
let cjkTables: { classes: Uint8Array; widths: Uint8Array } | null = null;
/** The BMP widths of 0.23 for a file in a CJK encoding, made on first use. */
let cjkWidths023: Uint8Array | null = null;

function makeCjkTables(): { classes: Uint8Array; widths: Uint8Array } {
  const classes = BMP_CLASSES.slice();
  const widths = BMP_WIDTHS.slice();
  for (let c = 0x80; c < 0x10000; c++) {
    widths[c] = cjkColumns(c, BMP_WIDTHS[c]!);
    if (isAmbiguous(c)) classes[c] = LB_ID1;
  }
  return { classes, widths };
}

function makeCjkWidths023(): Uint8Array {
  const base = bmpWidths023();
  const widths = base.slice();
  for (let c = 0x80; c < 0x10000; c++) widths[c] = cjkColumns(c, base[c]!);
  return widths;
}

/**
 * The tables of the string being written: UTF-8 (and every other) files', or a CJK encoding's.
 * (Looked up for characters outside ASCII only: ASCII goes through {@link ASCII_STEP}.)
 */
let bmpClasses: Uint8Array = BMP_CLASSES;
let bmpWidths: Uint8Array = BMP_WIDTHS;
/** Whether astral AI characters break as ideographs (a CJK encoding). */
let astralAmbiguousAsId = false;
/** The width of a code point above U+FFFF, as the selected generation counts it. */
let astralWidthOf: (codePoint: number) => number = astralWidth;

/** Selects the tables for a string of a file in a CJK encoding or not, laid out as `generation`. */
function useTables(cjk: boolean, generation: GettextGeneration): void {
  if (generation === "0.23") {
    bmpClasses = bmpProps023();
    bmpWidths = cjk ? (cjkWidths023 ??= makeCjkWidths023()) : bmpWidths023();
    astralWidthOf = astralWidth023;
  } else if (!cjk) {
    bmpClasses = BMP_CLASSES;
    bmpWidths = BMP_WIDTHS;
    astralWidthOf = astralWidth;
  } else {
    cjkTables ??= makeCjkTables();
    bmpClasses = cjkTables.classes;
    bmpWidths = cjkTables.widths;
    astralWidthOf = astralWidth;
  }
  astralAmbiguousAsId = cjk;
}

/**
 * The scan's tables, as `.ci/gen_scan_tables.ts` stores them from {@link buildScanSteps} (a test
 * checks they agree; decoding them makes every start of `wrap` shorter than building them):
 * `DFA_BY_NUMBER` is `LINE_BREAK_DFA` (`_linebreak.ts`) with states numbered 0, 1, 2… (not multiples of
 * {@link CLASS_COUNT}), and `ASCII_STEP[state * 128 + byte]`, one load per ASCII byte for {@link scan},
 * holds the break before the byte (bits 0–1), its columns once escaped (bits 2–3), its
 * {@link BYTE_KIND} (bit 4) and the next state (bits 8 on), an escape's two characters (`\` then its
 * letter) stepped through at once: the `\` breaks as PR, the pair takes 2 columns.
 */
const DFA_BY_NUMBER = STORED_DFA_BY_NUMBER;
const ASCII_STEP = STORED_ASCII_STEP;
const DFA_START_NUMBER = LINE_BREAK_DFA_START / CLASS_COUNT;

/**
 * Builds the scan's tables (`DFA_BY_NUMBER`, `ASCII_STEP`) from the line-break automaton (as
 * `buildLineBreakAutomaton` computes `LINE_BREAK_DFA`) and the classes of ASCII.
 */
export function buildScanSteps(lineBreakDfa: Int32Array): { dfaByNumber: Int32Array; asciiStep: Int32Array } {
  const dfaByNumber = Int32Array.from(
    lineBreakDfa,
    (t) => (((t >> 2) / CLASS_COUNT) << 2) | (t & 3),
  );
  const states = dfaByNumber.length / CLASS_COUNT;
  const asciiStep = new Int32Array(states * 128);
  for (let state = 0; state < states; state++) {
    for (let c = 0; c < 128; c++) {
      const letter = ESCAPE_LETTER[c]!;
      let t = dfaByNumber[state * CLASS_COUNT + (letter !== 0 ? LB_PR : BMP_CLASSES[c]!)]!;
      let brk = t & 3;
      if (letter !== 0) {
        // The escape's second character: never a break before it.
        t = dfaByNumber[(t >> 2) * CLASS_COUNT + BMP_CLASSES[letter]!]!;
        // No break just before the "\n" that ends a portion.
        if (c === 10) brk = BREAK_PROHIBITED;
      }
      asciiStep[state * 128 + c] = ((t >> 2) << 8) | (BYTE_KIND[c]! << 4) | (ASCII_COLUMNS[c]! << 2) | brk;
    }
  }
  return { dfaByNumber, asciiStep };
}

// The break opportunities of the portion last {@link scan}ned, in order: byte offset of the
// character, columns of the portion before it, and whether the break is possible or mandatory.
let opportunityAt = new Int32Array(256);
let opportunityColumn = new Int32Array(256);
let opportunityKind = new Uint8Array(256);
let opportunityCount = 0;
/** Columns of the portion last scanned. */
let scannedColumns = 0;

/**
 * Scans the UTF-8 portion `src[from..to)` in one pass over its escaped text: break opportunities
 * (UAX #14 as libunistring 1.0), write-po.c's overrides (no break inside an escape, before a final
 * `\n`, or inside a format directive: `interiors`, by byte offset) and column widths. Records the
 * opportunities for {@link fill}.
 */
function scan(src: Uint8Array, from: number, to: number, interiors: Uint8Array | null): void {
  if (opportunityAt.length <= to - from) {
    const size = Math.max(to - from + 1, opportunityAt.length * 2);
    opportunityAt = new Int32Array(size);
    opportunityColumn = new Int32Array(size);
    opportunityKind = new Uint8Array(size);
  }
  const ats = opportunityAt;
  const columnsBefore = opportunityColumn;
  const kinds = opportunityKind;
  const classes = bmpClasses;
  const widths = bmpWidths;
  let state = DFA_START_NUMBER;
  let n = 0;
  let run = 0;
  let byteKinds = 0;
  for (let i = from; i < to;) {
    const at = i;
    // `!`: i < to <= src.length; the text is well-formed UTF-8 (a lead byte's continuation bytes
    // follow it) and every table index is masked to its table's size.
    const c = src[i]!;
    let brk: number;
    let columns: number;
    if (c < 0x80) {
      const e = ASCII_STEP[(state << 7) + c]!;
      brk = e & 3;
      columns = (e >> 2) & 3;
      byteKinds |= (e >> 4) & 1;
      state = e >> 8;
      i++;
    } else {
      byteKinds |= 2;
      let cls: number;
      if (c < 0xf0) {
        const cp = c < 0xe0
          ? ((c & 0x1f) << 6) | (src[i + 1]! & 63)
          : ((c & 0x0f) << 12) | ((src[i + 1]! & 63) << 6) | (src[i + 2]! & 63);
        i += c < 0xe0 ? 2 : 3;
        cls = classes[cp]!;
        columns = widths[cp]!;
      } else {
        const cp = ((c & 7) << 18) | ((src[i + 1]! & 63) << 12) | ((src[i + 2]! & 63) << 6) |
          (src[i + 3]! & 63);
        i += 4;
        cls = astralAmbiguousAsId && isAmbiguous(cp) ? LB_ID1 : astralLineBreakClass(cp);
        columns = astralWidth(cp);
      }
      // (No character outside ASCII is escaped.)
      const t = DFA_BY_NUMBER[state * CLASS_COUNT + cls]!;
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
  portionKinds = byteKinds;
}

// The escaped characters of the portion {@link scan023} reads: code point, property, byte offset in
// the source (-1 for the letter of an escape) and columns.
let escapedPoints = new Int32Array(256);
let escapedProps = new Uint8Array(256);
let escapedAt = new Int32Array(256);
let escapedColumns = new Uint8Array(256);
let escapedBreaks = new Uint8Array(256);

/**
 * {@link scan} as msgcat 0.23.1 breaks lines (libunistring 1.3, `_linebreak_023.ts`): its rules look
 * ahead and at East-Asian widths, so the escaped text is first listed, then its opportunities computed,
 * then recorded with write-po.c's overrides as {@link scan} does.
 */
function scan023(src: Uint8Array, from: number, to: number, interiors: Uint8Array | null): void {
  // At most two escaped characters per byte.
  if (escapedPoints.length < 2 * (to - from) + 2) {
    const size = Math.max(2 * (to - from) + 2, escapedPoints.length * 2);
    escapedPoints = new Int32Array(size);
    escapedProps = new Uint8Array(size);
    escapedAt = new Int32Array(size);
    escapedColumns = new Uint8Array(size);
    escapedBreaks = new Uint8Array(size);
  }
  if (opportunityAt.length <= to - from) {
    const size = Math.max(to - from + 1, opportunityAt.length * 2);
    opportunityAt = new Int32Array(size);
    opportunityColumn = new Int32Array(size);
    opportunityKind = new Uint8Array(size);
  }
  const props = bmpClasses;
  const widths = bmpWidths;
  let m = 0;
  let byteKinds = 0;
  for (let i = from; i < to;) {
    const c = src[i]!;
    let cp: number;
    const at = i;
    if (c < 0x80) {
      byteKinds |= BYTE_KIND[c]!;
      i++;
      const letter = ESCAPE_LETTER[c]!;
      if (letter !== 0) {
        escapedPoints[m] = 0x5c;
        escapedProps[m] = props[0x5c]!;
        escapedAt[m] = at;
        escapedColumns[m++] = 2;
        escapedPoints[m] = letter;
        escapedProps[m] = props[letter]!;
        escapedAt[m] = -1;
        escapedColumns[m++] = 0;
        continue;
      }
      cp = c;
    } else {
      byteKinds |= 2;
      if (c < 0xe0) {
        cp = ((c & 0x1f) << 6) | (src[i + 1]! & 63);
        i += 2;
      } else if (c < 0xf0) {
        cp = ((c & 0x0f) << 12) | ((src[i + 1]! & 63) << 6) | (src[i + 2]! & 63);
        i += 3;
      } else {
        cp = ((c & 7) << 18) | ((src[i + 1]! & 63) << 12) | ((src[i + 2]! & 63) << 6) | (src[i + 3]! & 63);
        i += 4;
      }
    }
    escapedPoints[m] = cp;
    escapedProps[m] = cp < 0x10000 ? props[cp]! : propertyOf023(cp);
    escapedAt[m] = at;
    escapedColumns[m++] = cp < 0x80 ? ASCII_COLUMNS[cp]! : cp < 0x10000 ? widths[cp]! : astralWidth023(cp);
  }
  possibleLineBreaks023(escapedPoints, escapedProps, m, astralAmbiguousAsId, escapedBreaks);
  let n = 0;
  let run = 0;
  for (let j = 0; j < m; j++) {
    const at = escapedAt[j]!;
    if (at < 0) continue; // the letter of an escape: never a break before it
    let brk = escapedBreaks[j]!;
    // No break just before the "\n" that ends a portion.
    if (escapedPoints[j] === 0x5c && escapedAt[j + 1] === -1 && escapedPoints[j + 1] === 0x6e) {
      brk = BREAK_PROHIBITED;
    }
    if (interiors !== null && interiors[at] === 1) brk = BREAK_PROHIBITED;
    const columns = escapedColumns[j]!;
    opportunityAt[n] = at;
    opportunityColumn[n] = run;
    opportunityKind[n] = brk;
    n += (brk + 1) >> 1;
    if (brk === BREAK_MANDATORY) run -= columns;
    run += columns;
  }
  opportunityCount = n;
  scannedColumns = run;
  portionKinds = byteKinds;
}

/**
 * `u8_width_linebreaks`' greedy filling of whole pieces (a piece runs from one opportunity to the
 * next) over the portion last {@link scan}ned, starting at column `startColumn` of lines `width`
 * columns wide. Fills {@link lineStarts} with the byte offsets where new lines start and returns
 * their count; with `record` false it stops at the first break and returns 1.
 */
function fill(startColumn: number, width: number, record: boolean): number {
  const n = opportunityCount;
  let count = 0;
  let pieceStart = -1;
  let pieceBegin = 0;
  let column = startColumn;
  for (let k = 0; k < n; k++) {
    const before = opportunityColumn[k]!;
    const pieceWidth = before - pieceBegin;
    if (pieceStart >= 0 && column + pieceWidth > width) {
      if (!record) return 1;
      count = pushLineStart(count, opportunityAt[pieceStart]!);
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
    count = pushLineStart(count, opportunityAt[pieceStart]!);
  }
  return count;
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
const scratch = new ByteWriter(4096);

/** The UTF-8 bytes of the value being written (one buffer, reused). */
let source = new Uint8Array(4096);

/**
 * Prints one string field exactly as msgcat 0.21 does: returns its lines, each ending in "\n".
 * `value` is the raw (unescaped) string. (The writer uses {@link writeString}, which writes the
 * same lines as UTF-8 bytes.)
 *
 * @example
 * ```ts
 * wrapString("a\nb", { prefix: "", keyword: "msgstr" }); // 'msgstr ""\n"a\\n"\n"b"\n'
 * wrapString("", { prefix: "#~ ", keyword: "msgid" }); // '#~ msgid ""\n'
 * ```
 */
export function wrapString(value: string, options: WrapOptions): string {
  scratch.pos = 0;
  writeString(
    scratch,
    value,
    options.prefix,
    options.keyword,
    options.noWrap ?? false,
    options.formatLanguage ?? null,
    options.cjk ?? false,
    options.generation ?? "0.21",
  );
  return utf8Decoder.decode(scratch.bytes());
}

/**
 * Writes one string field as msgcat 0.21 prints it ({@link wrapString}) into `w`, in UTF-8; what
 * the string holds is recorded in `w.seen`. The value is encoded once, and everything after that
 * (measuring, break opportunities, escaping) reads its bytes. `cjk`: as {@link WrapOptions.cjk}.
 */
export function writeString(
  w: ByteWriter,
  value: string,
  prefix: string,
  keyword: string,
  noWrap: boolean,
  language: string | null,
  cjk = false,
  generation: GettextGeneration = "0.21",
): void {
  if (source.length < value.length * 3 + 1) source = new Uint8Array(value.length * 3 + 1024);
  const n = utf8Encoder.encodeInto(value, source).written;
  writeStringBytes(w, source, n, value, value.length, prefix, keyword, noWrap, language, cjk, generation);
}

/**
 * {@link writeString} for a value given as its UTF-8 bytes `src[0, n)` (well-formed UTF-8; `src`
 * must have room for one byte more, where a sentinel is put). `value` is the same text as a
 * string, or null: it is needed only for format directives (`language`), and decoded then.
 * `units` bounds its UTF-16 length from above (the byte count will do): a value longer than the
 * first line's room is measured by the scan instead of the quick count, with the same result.
 * The laid-out-file check (`laid_out.ts`) writes the strings it reads this way, with no string.
 */
export function writeStringBytes(
  w: ByteWriter,
  src: Uint8Array,
  n: number,
  value: string | null,
  units: number,
  prefix: string,
  keyword: string,
  noWrap: boolean,
  language: string | null,
  cjk = false,
  generation: GettextGeneration = "0.21",
): void {
  if (n === 0) {
    w.ascii(prefix);
    w.ascii(keyword);
    w.ascii(' ""\n');
    return;
  }
  useTables(cjk, generation);
  // A sentinel newline after the text: searches for "\n" stop there, not at the buffer's end.
  src[n] = 10;
  // Columns between the quotes of a continuation line `P"…"` (79 in all), and where the text of the
  // first line `PK "…"` starts relative to a continuation line's.
  const width = noWrap ? Infinity : PAGE_WIDTH - 1 - (prefix.length + 1);
  const firstColumn = keyword.length + 1;

  const newline = src.indexOf(10);
  if (
    newline >= n - 1 && firstColumn <= width && units <= width - firstColumn &&
    portionColumns(src, 0, n, width - firstColumn) <= width - firstColumn
  ) {
    // One portion that fits on the keyword line.
    w.ascii(prefix);
    w.ascii(keyword);
    w.ascii(' "');
    writeLine(w, src, 0, n, portionKinds);
    w.ascii('"\n');
    return;
  }

  let interiors: Uint8Array | null | undefined;
  let firstLine = true;
  let from = 0;
  do {
    const nl = src.indexOf(10, from);
    const to = nl >= n ? n : nl + 1;
    // The first portion stays on the keyword line unless more text follows it or it needs a break
    // there; then the first line is `K ""` and the portion starts a line of its own.
    const onKeywordLine = firstLine && to === n && firstColumn <= width;
    let emptyFirst = firstLine && !onKeywordLine;
    const room = onKeywordLine ? width - firstColumn : width;
    let count = 0;
    if (width === Infinity) {
      // no-wrap: never laid out
      portionKinds = 1;
    } else if (to - from > room || portionColumns(src, from, to, room) > room) {
      // More bytes than room: the text rarely fits (CJK takes 3 bytes for 2 columns), and the scan
      // measures it anyway; fewer: it fits unless escapes widen it, which measuring tells first.
      if (interiors === undefined) {
        interiors = language
          ? directiveInteriorBytes(
            value ?? utf8Decoder.decode(src.subarray(0, n)),
            language,
            keyword.startsWith("msgstr"),
          )
          : null;
      }
      if (generation === "0.23") scan023(src, from, to, interiors);
      else scan(src, from, to, interiors);
      if (onKeywordLine && fill(firstColumn, width, false) === 0) {
        count = 0; // no break is needed (or possible) after `K "`: it stays there, however long
      } else {
        emptyFirst ||= onKeywordLine;
        count = fill(0, width, true);
      }
    }
    if (emptyFirst) {
      w.ascii(prefix);
      w.ascii(keyword);
      w.ascii(' ""\n');
      firstLine = false;
    }
    const kinds = portionKinds;
    let start = from;
    for (let j = 0; j <= count; j++) {
      const end = j < count ? lineStarts[j]! : to;
      w.ascii(prefix);
      if (firstLine) {
        w.ascii(keyword);
        w.byte(32);
        firstLine = false;
      }
      w.byte(34);
      writeLine(w, src, start, end, kinds);
      w.byte(34);
      w.byte(10);
      start = end;
    }
    from = to;
  } while (from < n);
}

/** Writes the text of one line: escaped, or copied when its portion needs no escape. */
function writeLine(w: ByteWriter, src: Uint8Array, from: number, to: number, kinds: number): void {
  if ((kinds & 1) !== 0) w.escapedBytes(src, from, to);
  else {
    w.copy(src, from, to);
    if (kinds !== 0) w.seen |= SEEN_NON_ASCII;
  }
}
