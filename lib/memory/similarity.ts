/**
 * The similarity of two msgids, as msgmerge measures it (gettext's `fstrcmp`): the share of the two
 * strings' characters that their longest common subsequence keeps,
 * `(|a| + |b| - edits) / (|a| + |b|)`, where `edits` counts insertions and deletions only (a changed
 * character is one of each). msgmerge calls a msgid fuzzy-close from 0.6 on; a score is that value
 * × 100.
 *
 * The edit count is Myers' O((N + M) · D) difference algorithm, given up past a bound `D` that the
 * caller derives from the lowest score it still wants: a near-duplicate (one word edited) costs a few
 * passes over the strings, an unrelated one stops at the bound. Two cheaper upper bounds come first
 * ({@link similarityCeiling}): the lengths (a string cannot keep more characters than the shorter
 * one has) and the character histograms (a common subsequence keeps at most min(count) of each).
 *
 * Lengths are in UTF-16 code units (msgmerge counts characters; for the BMP text of msgids the two
 * agree).
 *
 * @module
 */

/** Work a caller allows, taken from `steps` as the diagonals are extended (may go below 0 once). */
export interface SimilarityBudget {
  steps: number;
}

/** V of Myers' algorithm, reused by every call (a call runs to its end without awaiting). */
let furthest = new Int32Array(0);

/**
 * The insertions + deletions that turn `a` into `b` when at most `bound`, else -1.
 *
 * @example
 * ```ts
 * indelDistance("the cat", "the bat", 5); // 2 (c deleted, b inserted)
 * ```
 */
export function indelDistance(a: string, b: string, bound: number, budget?: SimilarityBudget): number {
  let start = 0;
  let endA = a.length, endB = b.length;
  while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const n = endA - start, m = endB - start;
  if (budget) budget.steps -= a.length - n;
  if (n === 0 || m === 0) return n + m <= bound ? n + m : -1;
  if (Math.abs(n - m) > bound) return -1;
  const max = Math.min(bound, n + m);
  const offset = max + 1;
  if (furthest.length < 2 * max + 3) furthest = new Int32Array(2 * max + 3);
  const v = furthest;
  v[offset + 1] = 0;
  let steps = 0;
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      // Down (a character of b inserted) from diagonal k + 1, or right (one of a deleted) from k - 1.
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
        ? v[offset + k + 1]!
        : v[offset + k - 1]! + 1;
      let y = x - k;
      // Past an end, charCodeAt is NaN and nothing matches: such a point costs more than the corner
      // it passed, so the first point found at or past both ends is the corner, at its true cost.
      while (x < n && y < m && a.charCodeAt(start + x) === b.charCodeAt(start + y)) {
        x++;
        y++;
      }
      steps += 1 + x - v[offset + k]!;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        if (budget) budget.steps -= steps;
        return d;
      }
    }
  }
  if (budget) budget.steps -= steps;
  return -1;
}

/** msgmerge's similarity of `a` and `b` in 0..1 when it is at least `atLeast`, else -1. */
export function similarity(a: string, b: string, atLeast: number, budget?: SimilarityBudget): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const bound = Math.floor(total * (1 - atLeast) + 1e-9);
  const edits = indelDistance(a, b, bound, budget);
  return edits < 0 ? -1 : (total - edits) / total;
}

/** A score (0..100) from a similarity: 100 only for identical strings. */
export function scoreOf(value: number, identical: boolean): number {
  if (identical) return 100;
  return Math.min(99, Math.floor(value * 100 + 1e-9));
}

/** Buckets of the character histogram of {@link similarityCeiling}. */
export const BUCKETS = 64;

/**
 * A character histogram of `text` (code units folded into 64 buckets), for
 * {@link similarityCeiling}: 64 small counts, kept per msgid.
 */
export function charHistogram(text: string, out = new Uint16Array(BUCKETS)): Uint16Array {
  out.fill(0);
  for (let i = 0; i < text.length; i++) {
    const bucket = text.charCodeAt(i) & (BUCKETS - 1);
    if (out[bucket]! < 0xffff) out[bucket]!++;
  }
  return out;
}

/**
 * An upper bound of {@link similarity}: no common subsequence keeps more of a bucket's characters
 * than the string with fewer of them has (folding characters into buckets only raises the bound),
 * nor more than the shorter string. O(64).
 */
export function similarityCeiling(
  queryHistogram: Uint16Array,
  queryLength: number,
  other: Uint16Array,
  otherLength: number,
): number {
  const total = queryLength + otherLength;
  if (total === 0) return 1;
  let common = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const q = queryHistogram[i]!, o = other[i]!;
    common += q < o ? q : o;
  }
  // Counts saturate at 65535: then the lengths bound it.
  common = Math.min(common, queryLength, otherLength);
  if (queryLength >= 0xffff || otherLength >= 0xffff) common = Math.min(queryLength, otherLength);
  return (2 * common) / total;
}
