/**
 * Break opportunities of Unicode line breaking (UAX #14) exactly as libunistring 1.0 computes them
 * for a UTF-8 string (`u8_possible_linebreaks_v2`), which is what GNU msgcat 0.21 wraps with. The
 * classes come already resolved from `_unicode_data.ts` (AI, SA, XX → AL; CB → ID1; OP/CP split).
 * Rules: `shared/docs/msgcat-format.md` section 5.3 (checked against the installed library on
 * millions of random strings).
 *
 * @module
 */
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
const PAIRS = new Uint8Array(PAIR_CLASS_COUNT * PAIR_CLASS_COUNT);
for (let i = 0; i < PAIRS.length; i++) {
  const cell = PAIR_TABLE[i];
  PAIRS[i] = cell === "D" ? D : cell === "I" ? I : P;
}

/** Line-break class of every BMP code point. */
export const BMP_CLASSES: Uint8Array = new Uint8Array(0x10000);
const ASTRAL_STARTS: number[] = [];
const ASTRAL_CLASSES: number[] = [];
for (let i = 0; i < LINE_BREAK_RUNS.length; i += 2) {
  const start = LINE_BREAK_RUNS[i];
  const end = i + 2 < LINE_BREAK_RUNS.length ? LINE_BREAK_RUNS[i + 2] : 0x110000;
  const cls = LINE_BREAK_RUNS[i + 1];
  if (start < 0x10000) BMP_CLASSES.fill(cls, start, Math.min(end, 0x10000));
  if (end > 0x10000) {
    ASTRAL_STARTS.push(Math.max(start, 0x10000));
    ASTRAL_CLASSES.push(cls);
  }
}

/** Line-break class of a code point above U+FFFF (binary search over the runs). */
export function astralLineBreakClass(codePoint: number): number {
  let lo = 0;
  let hi = ASTRAL_STARTS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ASTRAL_STARTS[mid] <= codePoint) lo = mid;
    else hi = mid - 1;
  }
  return ASTRAL_CLASSES[lo];
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
  return codePoint < 0x10000 ? BMP_CLASSES[codePoint] : astralLineBreakClass(codePoint);
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
  // State of the scan (section 5.3): `last` = class of the last non-space character, `prev` = class
  // of the character just before, `space` = a space came after `last`, `ri` = regional indicators
  // immediately before.
  let last = LB_BK;
  let prev = LB_BK;
  let space = false;
  let ri = 0;
  for (let i = start; i < end; i++) {
    const k = classes[i];
    let brk = BREAK_PROHIBITED;
    if (k === LB_BK || k === LB_LF || k === LB_CR) {
      brk = BREAK_MANDATORY;
      last = LB_BK;
      space = false;
    } else if (k === LB_SP) {
      space = true;
    } else if (k === LB_ZW) {
      last = LB_ZW;
      space = false;
    } else if (k === LB_CM || k === LB_ZWJ) {
      if (last === LB_BK) {
        last = LB_AL;
        space = false;
      } else if (last === LB_ZW || space) {
        // A combining mark after a space starts a new "word" that is treated as AL (LB10).
        brk = BREAK_POSSIBLE;
        last = LB_AL;
        space = false;
      }
    } else {
      if (last === LB_BK) {
        brk = BREAK_PROHIBITED;
      } else if (last === LB_ZW) {
        brk = BREAK_POSSIBLE;
      } else if (prev === LB_ZWJ) {
        brk = BREAK_PROHIBITED;
      } else if (last === LB_RI && k === LB_RI) {
        brk = space || (ri & 1) === 0 ? BREAK_POSSIBLE : BREAK_PROHIBITED;
      } else if (prev === HL_BA) {
        brk = BREAK_PROHIBITED;
      } else {
        const cell = PAIRS[last * PAIR_CLASS_COUNT + k];
        brk = cell === D || (cell === I && space) ? BREAK_POSSIBLE : BREAK_PROHIBITED;
      }
      last = k;
      space = false;
    }
    out[i] = brk;
    prev = prev === LB_HL && (k === LB_HY || k === LB_BA) ? HL_BA : k;
    ri = k === LB_RI ? ri + 1 : 0;
  }
}
