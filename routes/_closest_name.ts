/**
 * "Did you mean …?" for a misspelt field name: the known name nearest by edit distance
 * (`lib/edit_distance.ts`: a swap of neighbours is one edit).
 *
 * @module
 */
import { boundedEditDistance } from "../lib/edit_distance.ts";

/** Keys longer than this get no suggestion (every field name we have is shorter than 32). */
const MAX_KEY_CHARS = 64;

/**
 * The name in `names` closest to `key`, or null when none is close: a name equal but for case,
 * else one within about a third of its length in edits (at least 2), ties going to the first
 * listed. The work is bounded: keys over 64 characters are not compared.
 *
 * @example
 * ```ts
 * closestName("msgctx", ["msgid", "msgstr", "msgctxt"]); // "msgctxt"
 * closestName("flag", ["flags", "comment"]); // "flags"
 * closestName("colour", ["msgid"]); // null
 * ```
 */
export function closestName(key: string, names: readonly string[]): string | null {
  if (key.length === 0 || key.length > MAX_KEY_CHARS) return null;
  const lower = key.toLowerCase();
  for (const name of names) if (name.toLowerCase() === lower) return name;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const limit = Math.max(2, Math.floor(name.length / 3));
    const d = boundedEditDistance(lower, name.toLowerCase(), Math.min(limit, bestDistance - 1));
    if (d >= 0 && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}
