/**
 * "Did you mean …?" for a misspelt name a user typed (a request field, a command-line option): the
 * known name nearest by edit distance, or the one the name is a word of (`file` → `file_path`).
 *
 * @module
 */
import { boundedEditDistance } from "./edit_distance.ts";

/** Keys longer than this get no suggestion (every field name we have is shorter than 32). */
const MAX_KEY_CHARS = 64;

/**
 * The name in `names` closest to `key`, or null when none is close: a name equal but for case,
 * else one within about a third of its length in edits (at least 2), ties going to the first
 * listed; else the first name that has every word of `key` (`file` → `file_path`,
 * `stamp_revision` → `stamp_revision_date`), or whose words are all in `key` (`file_path` → `path`). The work is bounded: keys over 64 characters
 * are not compared.
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
  if (best !== null) return best;
  const words = (s: string) => s.toLowerCase().split(/[_-]+/).filter((w) => w !== "");
  const keyWords = words(key);
  const within = (a: string[], b: string[]) => a.length > 0 && a.every((w) => b.includes(w));
  for (const name of names) if (within(keyWords, words(name))) return name;
  for (const name of names) if (keyWords.length > 1 && within(words(name), keyWords)) return name;
  return null;
}

/**
 * The message for an unknown command-line option: `unknown option "--chek"; did you mean
 * --check?` when one of `known` is near (an option's `=value` is left out of the comparison).
 *
 * @example
 * ```ts
 * unknownOption("--chek", ["--check", "--diff"]); // 'unknown option "--chek"; did you mean --check?'
 * ```
 */
export function unknownOption(arg: string, known: readonly string[]): string {
  const eq = arg.indexOf("=");
  const name = eq > 0 ? arg.slice(0, eq) : arg;
  const near = name.startsWith("--")
    ? closestName(name.slice(2), known.filter((k) => k.startsWith("--")).map((k) => k.slice(2)))
    : null;
  if (near !== null && `--${near}` === name) return `invalid value in ${JSON.stringify(arg)} (see --help)`;
  return `unknown option ${JSON.stringify(arg)}${near === null ? "" : `; did you mean --${near}?`}`;
}
