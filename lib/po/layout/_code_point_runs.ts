/**
 * A property of every code point, from runs `[start0, value0, start1, value1, …]` (each value holds
 * from its start up to the next start; the last up to U+10FFFF), as `_unicode_data.ts` stores the
 * line-break classes and the column widths: a table of the 65,536 BMP code points for lookups
 * without a search, and the runs above U+FFFF for a binary search.
 *
 * @module
 */

/** A code-point property table made by {@link codePointTable}. */
export interface CodePointTable {
  /** The value of every BMP code point. */
  readonly bmp: Uint8Array;
  /** Starts of the runs above U+FFFF (the first clipped to U+10000), ascending. */
  readonly astralStarts: readonly number[];
  /** The value of each of those runs. */
  readonly astralValues: readonly number[];
}

/**
 * The table of `runs`, each value passed through `value` first (say, to clamp it).
 *
 * @example
 * ```ts
 * const t = codePointTable([0, 1, 0x300, 0, 0x370, 1], (v) => v);
 * t.bmp[0x301]; // 0
 * ```
 */
export function codePointTable(runs: readonly number[], value: (v: number) => number): CodePointTable {
  const bmp = new Uint8Array(0x10000);
  const astralStarts: number[] = [];
  const astralValues: number[] = [];
  for (let i = 0; i < runs.length; i += 2) {
    const start = runs[i]!;
    const end = i + 2 < runs.length ? runs[i + 2]! : 0x110000;
    const v = value(runs[i + 1]!);
    if (start < 0x10000) bmp.fill(v, start, Math.min(end, 0x10000));
    if (end > 0x10000) {
      astralStarts.push(Math.max(start, 0x10000));
      astralValues.push(v);
    }
  }
  return { bmp, astralStarts, astralValues };
}

/**
 * The BMP part of {@link codePointTable}`(runs, (v) => Math.max(0, v))` alone: what a start-up needs,
 * in one tight loop (the runs above U+FFFF are for the first such code point). Filling it from the
 * runs is cheaper at start-up than storing the 64 KB table: each 100 KB of source a module loads
 * costs more than this loop.
 *
 * @example
 * ```ts
 * bmpTable([0, 1, 0x300, 0, 0x370, 1])[0x301]; // 0
 * ```
 */
export function bmpTable(runs: readonly number[]): Uint8Array {
  const bmp = new Uint8Array(0x10000);
  const n = runs.length;
  let i = 0;
  for (; i + 2 < n; i += 2) {
    const end = runs[i + 2]!;
    const v = runs[i + 1]!;
    bmp.fill(v < 0 ? 0 : v, runs[i]!, end < 0x10000 ? end : 0x10000);
    if (end >= 0x10000) return bmp;
  }
  const v = runs[i + 1]!;
  if (runs[i]! < 0x10000) bmp.fill(v < 0 ? 0 : v, runs[i]!);
  return bmp;
}

/** The value of a code point above U+FFFF (binary search over the runs). */
export function astralValue(table: CodePointTable, codePoint: number): number {
  const starts = table.astralStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= codePoint) lo = mid;
    else hi = mid - 1;
  }
  return table.astralValues[lo]!; // 0 <= lo < starts.length = values.length
}
