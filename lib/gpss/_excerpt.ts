/**
 * Bounded, single-line excerpts of upstream texts for error messages.
 *
 * Only a bounded window of the text is ever looked at ({@link EXCERPT_WINDOW} characters at the
 * end(s) the excerpt comes from), so quoting a 16 MiB body costs no more than quoting a short one.
 * A `clean` function (the user-code mask) runs on the window BEFORE it is cut, and once more on
 * each cut piece, so a secret cut in two by the excerpt is still recognised at the cut.
 *
 * @module
 */

/** Characters of the raw text looked at from each end an excerpt is taken from (an excerpt of a
 * text that starts with more whitespace than this is shorter, never slower). */
export const EXCERPT_WINDOW = 16 * 1024;

/** Where an excerpt is taken from: the text's start, its end, or both ends (`head … tail`). */
export type ExcerptFrom = "start" | "end" | "middle";

// deno-lint-ignore no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/g;

/** Whitespace runs → one space, control characters → U+FFFD, trimmed. */
function flatten(text: string): string {
  return text.replace(/\s+/g, " ").replace(CONTROL_RE, "\uFFFD").trim();
}

/** The first `max` UTF-16 units, not ending inside a surrogate pair. */
function head(text: string, max: number): string {
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The last `max` UTF-16 units, not starting inside a surrogate pair. */
function tail(text: string, max: number): string {
  const cut = text.slice(Math.max(0, text.length - max));
  const first = cut.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? cut.slice(1) : cut;
}

/**
 * A short, single-line excerpt: whitespace runs collapsed, control characters replaced by U+FFFD,
 * at most `max` characters (plus `…` where it was cut) from the start, the end, or both ends of
 * `text`. `clean` (default: none) is applied to the window before cutting and to each cut piece.
 *
 * @example
 * ```ts
 * boundedExcerpt("usage:\n  x", 200); // "usage: x"
 * boundedExcerpt("a".repeat(300), 10, "middle"); // "aaaaa…aaaaa"
 * ```
 */
export function boundedExcerpt(
  text: string,
  max = 200,
  from: ExcerptFrom = "start",
  clean: (text: string) => string = (t) => t,
): string {
  const limit = Math.max(1, Math.floor(max));
  if (from === "middle") {
    const whole = text.length <= 2 * EXCERPT_WINDOW ? flatten(clean(text)) : null;
    if (whole !== null && whole.length <= limit) return whole;
    const half = Math.max(1, Math.floor(limit / 2));
    const start = flatten(clean(text.slice(0, EXCERPT_WINDOW)));
    const end = flatten(clean(text.slice(-EXCERPT_WINDOW)));
    return `${clean(head(start, half))}…${clean(tail(end, limit - half))}`;
  }
  const window = from === "start" ? text.slice(0, EXCERPT_WINDOW) : text.slice(-EXCERPT_WINDOW);
  const flat = flatten(clean(window));
  const cut = window.length < text.length;
  if (flat.length <= limit && !cut) return flat;
  if (from === "start") return `${clean(head(flat, limit))}…`;
  return `…${clean(tail(flat, limit))}`;
}
