/**
 * Entries a create-or-update write would add while the catalogue already has a msgid a few edits
 * away: most often a typo of the msgid meant, which would otherwise add a stray translated entry
 * and leave the real one untranslated. Found with the bounded edit distance of `_closest.ts` (the
 * one a refused `mode: "update"` uses to name the closest msgids), at a smaller distance: a typo,
 * not a related message.
 *
 * @module
 */
import {
  ClosestBudget,
  closestEntries,
  type ClosestEntry,
  type ClosestIndex,
  closestIndex,
} from "./_closest.ts";
import { closestIndexes } from "../_identity_caches.ts";
import type { PoCatalog } from "../types.ts";

/** An entry the write creates, and the existing msgids close to its own. */
export interface SimilarExisting {
  /** Its position in the request's `entries`. */
  index: number;
  msgctxt: string | null;
  /** Its msgid, whole. */
  msgid: string;
  /**
   * Existing non-obsolete entries whose msgid is at most {@link similarDistance} edits away
   * (distance 0: the same msgid in another context, a mistyped msgctxt).
   */
  similar: ClosestEntry[];
}

/** Created entries looked at, at most, per request (each costs a bounded search). */
export const MAX_SIMILAR_CHECKED = 200;

/**
 * The largest distance counted as "similar" for a msgid of `length` UTF-16 units: 1 up to 7,
 * 2 up to 15, then 3. Smaller than the closest-msgid search's reach (a third of the length): two
 * real msgids often differ by a word ("Open" and "Open file"), a typo by a letter or two.
 */
export function similarDistance(length: number): number {
  return Math.min(3, 1 + Math.floor(length / 8));
}

/**
 * For each request entry the write creates (`created[i]` true), the existing entries of `catalog`
 * (non-obsolete, not the header) whose msgid is within {@link similarDistance} of its msgid, in
 * the same context or any other. At most {@link MAX_SIMILAR_CHECKED} created entries are looked
 * at; each search is bounded by the closest-msgid budget.
 *
 * @example
 * ```ts
 * similarExisting(catalog, [{ msgid: "Save fle", msgctxt: null }], [true]);
 * // [{ index: 0, msgctxt: null, msgid: "Save fle", similar: [{ msgctxt: null, msgid: "Save file", distance: 1 }] }]
 * ```
 */
export function similarExisting(
  catalog: PoCatalog | null,
  entries: readonly { msgid: string; msgctxt?: string | null }[],
  created: readonly boolean[],
): SimilarExisting[] {
  // An index of every msgid costs a pass over the catalogue: only a write that creates needs it.
  if (catalog === null || !created.includes(true)) return [];
  const index = indexOf(catalog);
  if (index.entries.length === 0) return [];
  const out: SimilarExisting[] = [];
  let checked = 0;
  for (let i = 0; i < entries.length && checked < MAX_SIMILAR_CHECKED; i++) {
    if (!created[i]) continue;
    checked++;
    const e = entries[i]!;
    const max = similarDistance(e.msgid.length);
    const near = closestEntries(index, e.msgid, new ClosestBudget()).entries
      .filter((c) => c.distance <= max);
    if (near.length === 0) continue;
    out.push({
      index: i,
      msgctxt: e.msgctxt === undefined || e.msgctxt === "" ? null : e.msgctxt,
      msgid: e.msgid,
      similar: near,
    });
  }
  return out;
}

/** The index a refused "update" builds too (the same entries), kept once per catalogue. */
function indexOf(catalog: PoCatalog): ClosestIndex {
  let index = closestIndexes.get(catalog);
  if (index === undefined) {
    const existing: { msgctxt: string | null; msgid: string }[] = [];
    for (const m of catalog.messages) {
      if (!m.obsolete && !(m.msgid === "" && m.msgctxt === null)) {
        existing.push({ msgctxt: m.msgctxt, msgid: m.msgid });
      }
    }
    closestIndexes.set(catalog, index = closestIndex(existing));
  }
  return index;
}

/**
 * The existing msgids closest to `msgid` (up to three, nearest first, within a third of its
 * length), for an answer that found no entry with it: a typo shows. `complete` is false when the
 * bounded search stopped early.
 */
export function closestExisting(
  catalog: PoCatalog,
  msgid: string,
): { entries: ClosestEntry[]; complete: boolean } {
  return closestEntries(indexOf(catalog), msgid, new ClosestBudget());
}
