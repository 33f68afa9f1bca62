/**
 * Break opportunities of Unicode line breaking (UAX #14) exactly as libunistring 1.0 computes them
 * for a UTF-8 string (`u8_possible_linebreaks_v2`), which is what GNU msgcat 0.21 wraps with. The
 * classes come already resolved from `_unicode_data.ts` (AI, SA, XX → AL; CB → ID1; OP/CP split).
 * Rules: `shared/docs/msgcat-format.md` section 5.3. While writing this module they were checked
 * against the installed library itself (a throw-away C program calling `u8_possible_linebreaks_v2`
 * of libunistring.so.2) on ~670,000 random strings of up to 30 characters of all classes: no
 * difference except CR LF, which msgcat never passes (both are escaped).
 *
 * @module
 */
import { astralValue, bmpTable, type CodePointTable, codePointTable } from "./_code_point_runs.ts";
import { LINE_BREAK_DFA as STORED_LINE_BREAK_DFA } from "./_scan_tables.ts";
import { LINE_BREAK_CLASS_NAMES, LINE_BREAK_RUNS, PAIR_CLASS_COUNT, PAIR_TABLE } from "./_unicode_data.ts";

function classNumber(name: string): number {
  const n = LINE_BREAK_CLASS_NAMES.indexOf(name);
  if (n < 0) throw new Error(`_unicode_data.ts lacks line-break class ${name}`);
  return n;
}

/** Line-break class numbers used by the rules (indices into `LINE_BREAK_CLASS_NAMES`). */
export const LB_AL: number = classNumber("AL");
/** Mandatory break (U+000B, U+000C, U+0085, U+2028, U+2029). */
export const LB_BK: number = classNumber("BK");
/** Carriage return. */
export const LB_CR: number = classNumber("CR");
/** Line feed. */
export const LB_LF: number = classNumber("LF");
/** Space. */
export const LB_SP: number = classNumber("SP");
/** Zero-width space. */
export const LB_ZW: number = classNumber("ZW");
/** Combining mark (also C0/C1 controls). */
export const LB_CM: number = classNumber("CM");
/** Zero-width joiner. */
export const LB_ZWJ: number = classNumber("ZWJ");
/** Regional indicator. */
export const LB_RI: number = classNumber("RI");
/** Hebrew letter. */
export const LB_HL: number = classNumber("HL");
/** Hyphen-minus. */
export const LB_HY: number = classNumber("HY");
/** Break after. */
export const LB_BA: number = classNumber("BA");
/** Prefix numeric (`\` is PR: every escape starts with it). */
export const LB_PR: number = classNumber("PR");
/** Quotation (`"`). */
export const LB_QU: number = classNumber("QU");
/** Ideographic (CJK ideographs; the AI class in a CJK encoding). */
export const LB_ID1: number = classNumber("ID1");

/** `prev` after HL followed by HY or BA (rule LB21a); not a real class. */
const HL_BA = 255;

/** Results written by {@link possibleLineBreaks}. */
export const BREAK_PROHIBITED = 0;
/** A new line may start at this character. */
export const BREAK_POSSIBLE = 1;
/** The character is a mandatory line break (BK, LF, CR). */
export const BREAK_MANDATORY = 2;

/** Pair table cell values. */
const P = 0;
const I = 1;
const D = 2;
/**
 * The pair table, made on first use: only {@link nextLineBreak} reads it, and the layout scans
 * with the stored automaton instead (what `wrap` starts with on a small file).
 */
let pairs: Uint8Array | null = null;

function pairTable(): Uint8Array {
  const table = new Uint8Array(PAIR_CLASS_COUNT * PAIR_CLASS_COUNT);
  for (let i = 0; i < table.length; i++) {
    const cell = PAIR_TABLE[i];
    table[i] = cell === "D" ? D : cell === "I" ? I : P;
  }
  return table;
}

/** Line-break class of every BMP code point. */
export const BMP_CLASSES: Uint8Array = bmpTable(LINE_BREAK_RUNS);

/** The whole table, with the runs above U+FFFF, made at the first such code point. */
let classes: CodePointTable | null = null;

/** Line-break class of a code point above U+FFFF (binary search over the runs). */
export function astralLineBreakClass(codePoint: number): number {
  classes ??= codePointTable(LINE_BREAK_RUNS, (cls) => cls);
  return astralValue(classes, codePoint);
}

/**
 * Line-break class number of a code point, as libunistring 1.0 resolves it for UTF-8 text.
 *
 * @example
 * ```ts
 * LINE_BREAK_CLASS_NAMES[lineBreakClass(0x28)]; // "OP1" — "("
 * ```
 */
export function lineBreakClass(codePoint: number): number {
  return codePoint < 0x10000 ? BMP_CLASSES[codePoint]! : astralLineBreakClass(codePoint);
}

/**
 * State of the scan (section 5.3): `last` = class of the last non-space character, `prev` = class of
 * the character just before (or the pseudo-class HL_BA), `space` = a space came after `last`,
 * `ri` = number of regional indicators immediately before.
 */
export interface LineBreakScan {
  last: number;
  prev: number;
  space: boolean;
  ri: number;
}

/** The state before the first character of a string. */
export function startLineBreakScan(): LineBreakScan {
  return { last: LB_BK, prev: LB_BK, space: false, ri: 0 };
}

/**
 * The rules of libunistring 1.0: feeds the next character, of line-break class `k`, to `scan` and
 * returns whether a line may start at it ({@link BREAK_POSSIBLE}), not ({@link BREAK_PROHIBITED}), or
 * it is a mandatory break character ({@link BREAK_MANDATORY}). This is the readable definition;
 * {@link LINE_BREAK_DFA} is derived from it for speed.
 *
 * @example
 * ```ts
 * const scan = startLineBreakScan();
 * [..."a b"].map((c) => nextLineBreak(scan, lineBreakClass(c.codePointAt(0)!))); // [0, 0, 1]
 * ```
 */
export function nextLineBreak(scan: LineBreakScan, k: number): number {
  const { last, prev, space } = scan;
  let brk = BREAK_PROHIBITED;
  if (k === LB_BK || k === LB_LF || k === LB_CR) {
    brk = BREAK_MANDATORY;
    scan.last = LB_BK;
    scan.space = false;
  } else if (k === LB_SP) {
    scan.space = true;
  } else if (k === LB_ZW) {
    scan.last = LB_ZW;
    scan.space = false;
  } else if (k === LB_CM || k === LB_ZWJ) {
    if (last === LB_BK) {
      scan.last = LB_AL;
      scan.space = false;
    } else if (last === LB_ZW || space) {
      // A combining mark after a space starts a new "word" that is treated as AL (LB10).
      brk = BREAK_POSSIBLE;
      scan.last = LB_AL;
      scan.space = false;
    }
    // Otherwise the mark is absorbed by the character before it.
  } else {
    if (last === LB_BK) {
      brk = BREAK_PROHIBITED;
    } else if (last === LB_ZW) {
      brk = BREAK_POSSIBLE;
    } else if (prev === LB_ZWJ) {
      brk = BREAK_PROHIBITED;
    } else if (last === LB_RI && k === LB_RI) {
      brk = space || (scan.ri & 1) === 0 ? BREAK_POSSIBLE : BREAK_PROHIBITED;
    } else if (prev === HL_BA) {
      brk = BREAK_PROHIBITED;
    } else {
      const cell = (pairs ??= pairTable())[last * PAIR_CLASS_COUNT + k];
      brk = cell === D || (cell === I && space) ? BREAK_POSSIBLE : BREAK_PROHIBITED;
    }
    scan.last = k;
    scan.space = false;
  }
  scan.prev = prev === LB_HL && (k === LB_HY || k === LB_BA) ? HL_BA : k;
  scan.ri = k === LB_RI ? scan.ri + 1 : 0;
  return brk;
}

/**
 * Computes, for the characters whose classes are `classes[start..end)`, whether a line may begin at
 * each (`out[i]` = {@link BREAK_PROHIBITED}, {@link BREAK_POSSIBLE} or {@link BREAK_MANDATORY} for a
 * BK/LF/CR character itself). The text is scanned as one whole string: the first character never
 * gets a break.
 *
 * @example
 * ```ts
 * const cls = Uint8Array.from([..."a b"].map((c) => lineBreakClass(c.codePointAt(0)!)));
 * const out = new Uint8Array(3);
 * possibleLineBreaks(cls, 0, 3, out); // out = [0, 0, 1]: a line may start at "b"
 * ```
 */
export function possibleLineBreaks(classes: Uint8Array, start: number, end: number, out: Uint8Array): void {
  const scan = startLineBreakScan();
  for (let i = start; i < end; i++) out[i] = nextLineBreak(scan, classes[i]!);
}

/** Number of line-break classes (the row length of {@link LINE_BREAK_DFA}). */
export const CLASS_COUNT: number = LINE_BREAK_CLASS_NAMES.length;

/**
 * The scan as a finite automaton, for hot loops: states are numbers (multiples of
 * {@link CLASS_COUNT}); `t = LINE_BREAK_DFA[state + k]` gives the break at a character of class `k`
 * (`t & 3`) and the next state (`t >> 2`). Start at {@link LINE_BREAK_DFA_START}. What
 * {@link buildLineBreakAutomaton} computes from {@link nextLineBreak}, stored by
 * `.ci/gen_scan_tables.ts` in `_scan_tables.ts` (a test checks they agree): decoding it is ~1 ms less
 * of every start of `wrap` than building it.
 *
 * @example
 * ```ts
 * let state = LINE_BREAK_DFA_START;
 * const breaks = [..."a b"].map((c) => {
 *   const t = LINE_BREAK_DFA[state + lineBreakClass(c.codePointAt(0)!)];
 *   state = t >> 2;
 *   return t & 3;
 * }); // [0, 0, 1]
 * ```
 */
export const LINE_BREAK_DFA: Int32Array = STORED_LINE_BREAK_DFA;

/** Start state of {@link LINE_BREAK_DFA}. */
export const LINE_BREAK_DFA_START = 0;

/**
 * Builds {@link LINE_BREAK_DFA} by running {@link nextLineBreak} from every reachable state: only
 * whether `prev` is ZWJ, HL or HL_BA and the parity of `ri` matter, so the states are few.
 */
export function buildLineBreakAutomaton(): Int32Array {
  // A state as a number: the class of `last`, `prev` reduced to what the rules look at (ZWJ, HL,
  // HL_BA or anything else, as AL), `space`, and the parity of `ri`.
  const PREVS = [LB_AL, LB_ZWJ, LB_HL, HL_BA];
  const keyOf = (s: LineBreakScan) => {
    const prev = s.prev === LB_ZWJ ? 1 : s.prev === LB_HL ? 2 : s.prev === HL_BA ? 3 : 0;
    return (((s.last * 4 + prev) * 2 + (s.space ? 1 : 0)) * 2) + (s.ri & 1);
  };
  const numberOfKey = new Int32Array(CLASS_COUNT * 16).fill(-1);
  const keys = [keyOf(startLineBreakScan())];
  numberOfKey[keys[0]!] = 0;
  const scan = startLineBreakScan();
  const table: number[] = [];
  for (let n = 0; n < keys.length; n++) {
    const key = keys[n]!;
    for (let k = 0; k < CLASS_COUNT; k++) {
      scan.last = key >> 4;
      scan.prev = PREVS[(key >> 2) & 3]!;
      scan.space = ((key >> 1) & 1) === 1;
      scan.ri = key & 1;
      const brk = nextLineBreak(scan, k);
      const next = keyOf(scan);
      let target = numberOfKey[next]!;
      if (target < 0) {
        target = keys.length;
        keys.push(next);
        numberOfKey[next] = target;
      }
      table.push(((target * CLASS_COUNT) << 2) | brk);
    }
  }
  return Int32Array.from(table);
}
