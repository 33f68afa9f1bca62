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
 * (a longer or shorter one cannot be closer), while the budget lasts. The distance is the house's
 * one bounded edit distance (`lib/edit_distance.ts`: a swap of neighbours is one edit), asked only
 * up to the worst distance still wanted. Once the budget is spent, the candidates not
 * yet looked at are skipped (the answer says so with `complete: false`).
 *
 * @module
 */
import { boundedEditDistance, editBandCost } from "../../edit_distance.ts";

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
    if (editBandCost(msgid, other, k) > budget.cells) return false;
    seen.add(at);
    const d = boundedEditDistance(msgid, other, k, budget);
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
