/**
 * HTML/XML tags of msgid kept in msgstr: `<b>`, `</a>`, `<br/>`, with attributes. A tag is `<`,
 * an optional `/`, a name of letters, digits and `-` starting with a letter, then white space,
 * `/` or `>`, closed by `>` within 512 characters with no `<` before it; so `<https://…>` link
 * targets and `a < b` are not tags. Found by one scan; linear in the entry.
 *
 * @module
 */
import { ofOriginal } from "./_original.ts";
import type { EntryCheck } from "./_types.ts";

const MAX_TAG = 512;

function isLetter(c: string | undefined): boolean {
  return c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && (isLetter(c) || (c >= "0" && c <= "9") || c === "-" || c === ":");
}

/** The tags of `s`, each as "<name>", "</name>" or "<name/>" (name in lower case), in order. */
export function findTags(s: string): string[] {
  const tags: string[] = [];
  for (let at = s.indexOf("<"); at >= 0; at = s.indexOf("<", at + 1)) {
    let i = at + 1;
    const closing = s[i] === "/";
    if (closing) i++;
    if (!isLetter(s[i])) continue;
    const nameStart = i;
    while (isNameChar(s[i]) && i - nameStart < 64) i++;
    const name = s.slice(nameStart, i).toLowerCase();
    if (name.includes(":") && !/^[a-z][a-z0-9-]*:[a-z]/.test(name)) continue;
    if (!(s[i] === ">" || s[i] === "/" || s[i] === " " || s[i] === "\n" || s[i] === "\t")) continue;
    let end = i;
    const limit = Math.min(s.length, at + MAX_TAG);
    while (end < limit && s[end] !== ">" && s[end] !== "<") end++;
    if (s[end] !== ">") continue;
    const selfClosing = s[end - 1] === "/";
    tags.push(closing ? `</${name}>` : selfClosing ? `<${name}/>` : `<${name}>`);
    at = end;
  }
  return tags;
}

const hasAngle = (s: string) => s.indexOf("<") >= 0;
const tagCounts = (s: string) => counts(findTags(s));

function counts(tags: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tags) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** The tag family. */
export const TAG_CHECKS: EntryCheck[] = [
  {
    name: "tags",
    severity: "warning",
    defaultOn: true,
    description: "HTML/XML tags of msgid (<b>, </a>, <br/>) are all in msgstr, and msgstr adds none " +
      "(not on reST entries, where <…> is text or a link target).",
    // In reST there is no HTML: "<name>" is prose or a link target (`text <target>`_).
    run: ({ pairs, rest }) => {
      const out: string[] = [];
      if (rest) return out;
      for (const p of pairs) {
        if (!ofOriginal(pairs, p, hasAngle) && p.translation.indexOf("<") < 0) continue;
        const a = ofOriginal(pairs, p, tagCounts);
        const b = counts(findTags(p.translation));
        let message: string | null = null;
        for (const [tag, n] of a) {
          if ((b.get(tag) ?? 0) < n) {
            message = `${p.translationName} lacks the tag ${tag} of ${p.originalName}: keep every tag`;
            break;
          }
        }
        if (message === null) {
          for (const [tag, n] of b) {
            if ((a.get(tag) ?? 0) < n) {
              message = `${p.translationName} has the tag ${tag}, which ${p.originalName} does not have`;
              break;
            }
          }
        }
        if (message !== null) out.push(message);
      }
      return out;
    },
  },
];
