/**
 * The layout cache: each message's laid-out bytes, found again by message identity (messages are
 * immutable: a change replaces the object), so formatting a catalogue again after one message
 * changed lays out only that message.
 *
 * @module
 */
import type { BytePiece } from "../../byte_runs.ts";
import { layoutAnchors } from "../_identity_caches.ts";
import type { PoMessage } from "../types.ts";
import type { GettextGeneration } from "../layout/string_layout.ts";

/**
 * A message laid out: its UTF-8 lines, bytes `[start, end)` of a buffer many layouts share
 * (empty for an obsolete entry msgcat drops), and what they were laid out for.
 */
export interface Layout extends BytePiece {
  /** Every string and comment msgcat checks for non-ASCII text is ASCII. */
  ascii: boolean;
}

/** A message list as last laid out: `layouts[i]` is `messages[i]`'s. */
export interface LaidOutList {
  messages: readonly PoMessage[];
  layouts: readonly Layout[];
  /** Whether `#:` lines were filled counting one byte per character. */
  singleByte: boolean;
  /** Whether strings were laid out as with `msgcat --no-wrap`. */
  noWrapAll: boolean;
  /** The multi-byte legacy charset laid out for (CJK widths, `#:` lines counted in its bytes); absent for none. */
  legacy?: string | null;
  /** The gettext generation laid out as; absent for 0.21. */
  generation?: GettextGeneration;
}

/**
 * The layout cache, by message list rather than by message: a WeakMap entry per message cost a cold
 * layout of a large catalogue an insertion per message, and the collector more on its ephemerons. A list's
 * first and last {@link ANCHORS} messages lead to the list last laid out with them: the same list
 * laid out again finds its layouts by index, and a new list (a catalogue with a few messages
 * replaced or added) is matched in order against it ({@link matchLayouts}). A list stays findable
 * while one of its anchor messages lives and no later list took that anchor over
 * (`layoutAnchors` in `_identity_caches.ts`).
 */
const ANCHORS = 16;

/** The indices of a list's anchor messages, in order, each once. */
function anchorIndices(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n && i < ANCHORS; i++) out.push(i);
  for (let i = Math.max(ANCHORS, n - ANCHORS); i < n; i++) out.push(i);
  return out;
}

/**
 * Layouts made before for the messages of `messages`, by index (undefined where there is none):
 * its own, when this list was laid out before, else those of the recent list sharing the most
 * messages with it, if any. Only layouts made with the same charset kind and wrapping count.
 */
export function previousLayouts(
  messages: readonly PoMessage[],
  singleByte: boolean,
  noWrapAll: boolean,
  legacy: string | null = null,
  generation: GettextGeneration = "0.21",
): readonly (Layout | undefined)[] | null {
  const tried: LaidOutList[] = [];
  let best: (Layout | undefined)[] | null = null;
  let bestHits = 0;
  for (const i of anchorIndices(messages.length)) {
    const list = layoutAnchors.get(messages[i]!);
    if (list === undefined || tried.includes(list)) continue;
    tried.push(list);
    if (list.singleByte !== singleByte || list.noWrapAll !== noWrapAll) continue;
    if ((list.legacy ?? null) !== legacy || (list.generation ?? "0.21") !== generation) continue;
    if (list.messages === messages) return list.layouts;
    const found: (Layout | undefined)[] = new Array(messages.length);
    const hits = matchLayouts(messages, list, found);
    if (hits > bestHits) {
      best = found;
      bestHits = hits;
      if (hits * 2 >= messages.length) break;
    }
  }
  return best;
}

/** How far ahead {@link matchLayouts} looks for a message when the next one of the old list is not it. */
export const MATCH_WINDOW = 8;

/**
 * Walks `messages` and `old.messages` together, setting `found[i]` to the old layout of the same
 * message object; returns how many it found. A list made from another by replacing, inserting and
 * removing messages (what a write does) is matched in one pass: a message not found among the
 * next {@link MATCH_WINDOW} old ones is taken as new, and laid out again. A list whose first
 * {@link MATCH_WINDOW} × 4 messages are all new is taken as unrelated (0): say a freshly read one.
 */
export function matchLayouts(
  messages: readonly PoMessage[],
  old: LaidOutList,
  found: (Layout | undefined)[],
): number {
  const before = old.messages;
  let j = 0;
  let hits = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (j < before.length && before[j] === m) {
      found[i] = old.layouts[j++];
      hits++;
      continue;
    }
    const stop = Math.min(before.length, j + MATCH_WINDOW);
    let k = j + 1;
    while (k < stop && before[k] !== m) k++;
    if (k < stop) {
      found[i] = old.layouts[k];
      j = k + 1;
      hits++;
    } else if (hits === 0 && i + 1 >= MATCH_WINDOW * 4) return 0;
  }
  return hits;
}

/** Whether `messages` is the list {@link previousLayouts} finds from its first message. */
export function isRemembered(messages: readonly PoMessage[]): boolean {
  return messages.length > 0 && layoutAnchors.get(messages[0]!)?.messages === messages;
}

/** Makes `list` the one {@link previousLayouts} finds from its anchor messages. */
export function rememberLayouts(list: LaidOutList): void {
  for (const i of anchorIndices(list.messages.length)) layoutAnchors.set(list.messages[i]!, list);
}
