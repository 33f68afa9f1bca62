/**
 * Column widths as msgcat 0.21 counts them (`uc_width` of libunistring 1.0 for a UTF-8 file, with
 * control characters, whose width is -1, counted as 0): CJK, fullwidth forms and emoji 2; combining
 * marks, zero-width characters and soft hyphen 0; East-Asian ambiguous characters 1. Rules:
 * `shared/docs/msgcat-format.md` section 4.3; data: `_unicode_data.ts`.
 *
 * @module
 */
import { WIDTH_RUNS } from "./_unicode_data.ts";

/** Width of every BMP code point (controls already 0), for lookups without a search. */
export const BMP_WIDTHS: Uint8Array = new Uint8Array(0x10000);

const ASTRAL_STARTS: number[] = [];
const ASTRAL_WIDTHS: number[] = [];

for (let i = 0; i < WIDTH_RUNS.length; i += 2) {
  const start = WIDTH_RUNS[i];
  const end = i + 2 < WIDTH_RUNS.length ? WIDTH_RUNS[i + 2] : 0x110000;
  const width = Math.max(0, WIDTH_RUNS[i + 1]);
  if (start < 0x10000) BMP_WIDTHS.fill(width, start, Math.min(end, 0x10000));
  if (end > 0x10000) {
    ASTRAL_STARTS.push(Math.max(start, 0x10000));
    ASTRAL_WIDTHS.push(width);
  }
}

/** Width of a code point above U+FFFF (binary search over the runs). */
export function astralWidth(codePoint: number): number {
  let lo = 0;
  let hi = ASTRAL_STARTS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ASTRAL_STARTS[mid] <= codePoint) lo = mid;
    else hi = mid - 1;
  }
  return ASTRAL_WIDTHS[lo];
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
  return codePoint < 0x10000 ? BMP_WIDTHS[codePoint] : astralWidth(codePoint);
}
