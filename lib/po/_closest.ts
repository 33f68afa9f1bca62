/**
 * The existing msgids closest to one a request named but the catalogue lacks (a typo made visible),
 * by edit distance, in bounded time: one msgid costs at most {@link CLOSEST_WORK_CELLS} steps
 * (cells of the distance table, compared characters: a few milliseconds), whatever the lengths and
 * the catalogue's size; the caller bounds how many msgids it asks about. Building the index sorts
 * the msgids twice, O(n log n) once per catalogue.
 *
 * Where to look: first the msgids next to the target in sorted order, and next to it in the order
 * of their ends (a typo leaves everything before it, or everything after it, in common, so the
 * msgid meant is a close neighbour in one of the two orders, even among thousands of templated
 * msgids); then every msgid from the nearest length outward, within reach of the target's length
 * (a longer or shorter one cannot be closer), while the budget lasts. The distance is computed in a
 * band (Ukkonen's cut-off), given up as soon as a whole row is past the worst distance still
 * wanted, the common prefix and suffix skipped first. Once the budget is spent, the candidates not
 * yet looked at are skipped (the answer says so with `complete: false`).
 *
 * @module
 */

/** A msgid the catalogue has (with its context), as offered in place of one it lacks. */
export interface ClosestEntry {
  msgctxt: string | null;
  msgid: string;
  /** Edit distance (UTF-16 units inserted, deleted or replaced) from the msgid asked for. */
  distance: number;
}

/** The candidates of one catalogue and three orders of them (build once per catalogue). */
export interface ClosestIndex {
  /** In file order. */
  readonly entries: readonly { msgctxt: string | null; msgid: string }[];
  /** Positions in `entries` by msgid length (stable). */
  readonly byLength: Uint32Array;
  /** Positions in `entries` by msgid (UTF-16 code units). */
  readonly byStart: Uint32Array;
  /** Positions in `entries` by msgid read backwards. */
  readonly byEnd: Uint32Array;
}

/** Steps (cells of the distance table, characters compared) spent on one msgid at most. */
export const CLOSEST_WORK_CELLS = 50_000;

/** Suggestions per missing msgid. */
export const CLOSEST_COUNT = 3;

/** The largest distance looked for: farther msgids are not offered (they are not typos). */
export const CLOSEST_MAX_DISTANCE = 24;

/** Neighbours looked at on each side of the target in each sorted order. */
const NEIGHBOURS = 8;

/** The candidates, with their orders. */
export function closestIndex(entries: readonly { msgctxt: string | null; msgid: string }[]): ClosestIndex {
  const msgids = entries.map((e) => e.msgid);
  // (Plain arrays sort several times faster than typed arrays with a comparator.)
  const positions = () => Array.from({ length: msgids.length }, (_, i) => i);
  const byLength = positions().sort((a, b) => msgids[a]!.length - msgids[b]!.length || a - b);
  const byStart = positions().sort((a, b) => compareStarts(msgids[a]!, msgids[b]!));
  const byEnd = positions().sort((a, b) => compareEnds(msgids[a]!, msgids[b]!));
  return {
    entries,
    byLength: Uint32Array.from(byLength),
    byStart: Uint32Array.from(byStart),
    byEnd: Uint32Array.from(byEnd),
  };
}

function compareStarts(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEnds(a: string, b: string): number {
  let i = a.length - 1, j = b.length - 1;
  while (i >= 0 && j >= 0) {
    const d = a.charCodeAt(i--) - b.charCodeAt(j--);
    if (d !== 0) return d;
  }
  return (i + 1) - (j + 1);
}

/** The work {@link closestEntries} may still do (one per msgid, or shared by several). */
export class ClosestBudget {
  constructor(public cells: number = CLOSEST_WORK_CELLS) {}
}

/**
 * Up to {@link CLOSEST_COUNT} candidates closest to `msgid` (nearest first; on a tie, the shorter
 * length difference, then file order), within a distance of a third of its length (at least 2, at
 * most {@link CLOSEST_MAX_DISTANCE}). `complete` is false when the budget ran out before every
 * candidate within reach was looked at.
 *
 * @example
 * ```ts
 * const index = closestIndex([{ msgctxt: null, msgid: "Save file" }]);
 * closestEntries(index, "Save fle", new ClosestBudget()).entries[0].distance; // 1
 * ```
 */
export function closestEntries(
  index: ClosestIndex,
  msgid: string,
  budget: ClosestBudget,
): { entries: ClosestEntry[]; complete: boolean } {
  const list = index.entries;
  const limit = Math.min(CLOSEST_MAX_DISTANCE, Math.max(2, Math.floor(msgid.length / 3)));
  const best: { at: number; distance: number }[] = [];
  const seen = new Set<number>();
  // The worst distance still worth computing: the limit, then one less than the last of a full list.
  const cutoff = () => best.length < CLOSEST_COUNT ? limit : best[best.length - 1]!.distance - 1;
  /** Looks at one candidate; false when the budget cannot pay for it. */
  const consider = (at: number): boolean => {
    if (seen.has(at)) return true;
    const k = cutoff();
    const other = list[at]!.msgid;
    if (k < 0 || Math.abs(other.length - msgid.length) > k) return true;
    if (bandCost(msgid, other, k) > budget.cells) return false;
    seen.add(at);
    const d = boundedDistance(msgid, other, k, budget);
    if (d < 0) return true;
    best.push({ at, distance: d });
    best.sort((a, b) =>
      a.distance - b.distance ||
      Math.abs(list[a.at]!.msgid.length - msgid.length) - Math.abs(list[b.at]!.msgid.length - msgid.length) ||
      a.at - b.at
    );
    if (best.length > CLOSEST_COUNT) best.pop();
    return true;
  };
  let complete = true;
  // Neighbours in both sorted orders first.
  for (const [order, compare] of [[index.byStart, compareStarts], [index.byEnd, compareEnds]] as const) {
    const at = lowerBound(order, (i) => compare(list[i]!.msgid, msgid) < 0);
    budget.cells -= Math.ceil(Math.log2(order.length + 1)) * Math.min(msgid.length + 1, 64);
    for (let q = Math.max(0, at - NEIGHBOURS); q < Math.min(order.length, at + NEIGHBOURS); q++) {
      if (!consider(order[q]!)) complete = false;
    }
  }
  // Then by length, from the target's outward.
  const order = index.byLength;
  let hi = lowerBound(order, (i) => list[i]!.msgid.length < msgid.length);
  let lo = hi - 1;
  while (complete) {
    // At 0, only an equal msgid (in another context) could still come in: the sorted order had it.
    const k = cutoff();
    if (k < 1) break;
    const upOk = hi < order.length && list[order[hi]!]!.msgid.length - msgid.length <= k;
    const downOk = lo >= 0 && msgid.length - list[order[lo]!]!.msgid.length <= k;
    if (!upOk && !downOk) break;
    const up = upOk &&
      (!downOk ||
        list[order[hi]!]!.msgid.length - msgid.length <= msgid.length - list[order[lo]!]!.msgid.length);
    if (!consider(up ? order[hi++]! : order[lo--]!)) complete = false;
  }
  return {
    entries: best.map(({ at, distance }) => ({
      msgctxt: list[at]!.msgctxt,
      msgid: list[at]!.msgid,
      distance,
    })),
    complete,
  };
}

/** The first position in `order` for which `before` is false (it must be true, then false). */
function lowerBound(order: Uint32Array, before: (i: number) => boolean): number {
  let lo = 0, hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(order[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Two rows of the band, reused by every call (a call runs to its end without awaiting). */
const SCRATCH_A = new Int32Array(2 * CLOSEST_MAX_DISTANCE + 2);
const SCRATCH_B = new Int32Array(2 * CLOSEST_MAX_DISTANCE + 2);

/** The most cells {@link boundedDistance} may compute for these strings and this bound. */
function bandCost(a: string, b: string, k: number): number {
  return (2 * k + 2) * (Math.max(a.length, b.length) + 1);
}

/**
 * The edit distance of `a` and `b` when it is at most `k`, else -1; the cells computed are taken
 * from `budget`. O(k · min(|a|, |b|)) time, O(k) memory.
 */
function boundedDistance(a: string, b: string, k: number, budget: ClosestBudget): number {
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
  budget.cells -= a.length - n;
  if (n === 0 || m === 0) return Math.max(n, m) <= k ? Math.max(n, m) : -1;
  // Row i of the table holds D[i][j] for j in [i - k, i + k], stored at j - i + k; slots outside
  // the table hold k + 1 ("too far"), which is all a cut-off distance needs to know.
  const width = 2 * k + 1;
  const far = k + 1;
  let prev = SCRATCH_A.fill(far, 0, width + 1);
  let row = SCRATCH_B.fill(far, 0, width + 1);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j + k] = j; // row 0: D[0][j] = j
  let cells = 0;
  for (let i = 1; i <= n; i++) {
    let rowMin = far;
    const from = i - k > 0 ? i - k : 0, to = i + k < m ? i + k : m;
    const ca = a.charCodeAt(start + i - 1);
    let left = far; // D[i][from - 1]
    if (from === 0) {
      left = i;
      row[k - i] = i;
    }
    for (let j = from === 0 ? 1 : from; j <= to; j++) {
      const s = j - i + k; // D[i-1][j-1] is prev[s], D[i-1][j] is prev[s + 1], D[i][j-1] is `left`
      let v = prev[s]! + (ca === b.charCodeAt(start + j - 1) ? 0 : 1);
      const up = prev[s + 1]! + 1;
      if (up < v) v = up;
      if (left + 1 < v) v = left + 1;
      if (v > far) v = far;
      row[s] = v;
      left = v;
      if (v < rowMin) rowMin = v;
    }
    if (from === 0 && i < rowMin) rowMin = i;
    // The next row reads one slot past `to` (its D[i][j] above): "too far", not a stale value.
    row[to - i + k + 1] = far;
    cells += to - from + 1;
    if (rowMin > k) {
      budget.cells -= cells;
      return -1;
    }
    const t = prev;
    prev = row;
    row = t;
  }
  budget.cells -= cells;
  const d = prev[m - n + k]!;
  return d <= k ? d : -1;
}
