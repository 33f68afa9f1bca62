/**
 * The one bounded edit distance: the optimal-string-alignment distance (an insertion, a deletion,
 * a substitution or a swap of two neighbouring characters costs 1 each: a typed swap, "msgdi" for
 * "msgid", is one typo, not two), computed only as far as a bound. Used for "did you mean …?" on a
 * misspelt field name (`routes/_closest_name.ts`) and for the msgids closest to one a catalogue
 * lacks (`lib/po/operations/_closest.ts`).
 *
 * The common prefix and suffix are skipped first, then the table is computed in a band of width
 * 2k + 1 around its diagonal (Ukkonen's cut-off) and given up as soon as a whole row is past `k`:
 * O(k · min(|a|, |b|)) time, O(k) memory, whatever the lengths.
 *
 * @module
 */

/** The cells a caller allows (taken from `cells` as they are computed; it may go below 0 once). */
export interface EditBudget {
  cells: number;
}

/** Three rows of the band, reused by every call (a call runs to its end without awaiting). */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];

/** The most cells {@link boundedEditDistance} may compute for these strings and this bound. */
export function editBandCost(a: string, b: string, k: number): number {
  return (2 * k + 2) * (Math.max(a.length, b.length) + 1);
}

/**
 * The optimal-string-alignment distance of `a` and `b` (UTF-16 code units) when it is at most `k`,
 * else -1. The cells computed (and the characters compared to skip the common ends) are taken from
 * `budget` when one is given.
 *
 * @example
 * ```ts
 * boundedEditDistance("msgdi", "msgid", 2); // 1 (one swap)
 * boundedEditDistance("colour", "msgid", 2); // -1
 * ```
 */
export function boundedEditDistance(a: string, b: string, k: number, budget?: EditBudget): number {
  if (Math.abs(a.length - b.length) > k) return -1;
  let start = 0;
  let endA = a.length, endB = b.length;
  while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const n = endA - start, m = endB - start;
  // The comparisons that skipped the common ends count as cells too.
  if (budget) budget.cells -= a.length - n;
  if (n === 0 || m === 0) return Math.max(n, m) <= k ? Math.max(n, m) : -1;
  // Row i of the table holds D[i][j] for j in [i - k, i + k], stored at j - i + k; slots outside
  // the table hold k + 1 ("too far"), which is all a cut-off distance needs to know. D[i-1][j-1],
  // D[i-1][j] and D[i-2][j-2] (the swap) sit at slots s, s + 1 and s of the rows before.
  const width = 2 * k + 1;
  const far = k + 1;
  if (rows[0].length < width + 1) {
    rows = [new Int32Array(width + 1), new Int32Array(width + 1), new Int32Array(width + 1)];
  }
  let [before, prev, row] = rows;
  before.fill(far, 0, width + 1);
  prev.fill(far, 0, width + 1);
  row.fill(far, 0, width + 1);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j + k] = j; // row 0: D[0][j] = j
  let cells = 0;
  for (let i = 1; i <= n; i++) {
    let rowMin = far;
    const from = i - k > 0 ? i - k : 0, to = i + k < m ? i + k : m;
    const ca = a.charCodeAt(start + i - 1);
    const caBefore = i > 1 ? a.charCodeAt(start + i - 2) : -1;
    let left = far; // D[i][from - 1]
    if (from === 0) {
      left = i;
      row[k - i] = i;
    }
    for (let j = from === 0 ? 1 : from; j <= to; j++) {
      const s = j - i + k;
      const cb = b.charCodeAt(start + j - 1);
      let v = prev[s]! + (ca === cb ? 0 : 1);
      const up = prev[s + 1]! + 1;
      if (up < v) v = up;
      if (left + 1 < v) v = left + 1;
      if (j > 1 && ca === b.charCodeAt(start + j - 2) && caBefore === cb && before[s]! + 1 < v) {
        v = before[s]! + 1;
      }
      if (v > far) v = far;
      row[s] = v;
      left = v;
      if (v < rowMin) rowMin = v;
    }
    if (from === 0 && i < rowMin) rowMin = i;
    // The next row reads one slot past `to` (its D[i][j] above): "too far", not a stale value.
    row[to - i + k + 1] = far;
    cells += to - from + 1;
    // Every way to the end passes through this row, or swaps over it from the row before at a cost
    // no lower than this row's cell it passes: nothing below is closer than this row's least.
    if (rowMin > k) {
      if (budget) budget.cells -= cells;
      return -1;
    }
    const t = before;
    before = prev;
    prev = row;
    row = t;
  }
  if (budget) budget.cells -= cells;
  const d = prev[m - n + k]!;
  return d <= k ? d : -1;
}
