/**
 * Column widths as msgcat 0.21 counts them (`uc_width` of libunistring 1.0 for a UTF-8 file, with
 * control characters, whose width is -1, counted as 0): CJK, fullwidth forms and emoji 2; combining
 * marks, zero-width characters and soft hyphen 0; East-Asian ambiguous characters 1. Rules:
 * `shared/docs/msgcat-format.md` section 4.3; data: `_unicode_data.ts`.
 *
 * @module
 */
import { astralValue, bmpTable, type CodePointTable, codePointTable } from "./_code_point_runs.ts";
import { WIDTH_RUNS } from "./_unicode_data.ts";

/**
 * Width of every BMP code point, for lookups without a search (control characters have width -1 in
 * libunistring; msgcat counts them as 0, as `bmpTable` clamps them).
 */
export const BMP_WIDTHS: Uint8Array = bmpTable(WIDTH_RUNS);

/** The whole table, with the runs above U+FFFF, made at the first such code point. */
let widths: CodePointTable | null = null;

/** Width of a code point above U+FFFF (binary search over the runs). */
export function astralWidth(codePoint: number): number {
  // Control characters have width -1 in libunistring; msgcat counts them as 0.
  widths ??= codePointTable(WIDTH_RUNS, (width) => Math.max(0, width));
  return astralValue(widths, codePoint);
}

/**
 * Number of columns msgcat 0.21 gives one code point in a UTF-8 PO file (0, 1 or 2).
 *
 * @example
 * ```ts
 * columnWidth(0x61); // 1
 * columnWidth(0x4e2d); // 2 (中)
 * columnWidth(0x301); // 0 (combining acute accent)
 * ```
 */
export function columnWidth(codePoint: number): number {
  return codePoint < 0x10000 ? BMP_WIDTHS[codePoint]! : astralWidth(codePoint);
}
