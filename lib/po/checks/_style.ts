/**
 * Style checks that are off unless asked for: they suit languages written like English and drown
 * CJK translations in noise (no capital letters; full-width punctuation).
 *
 * @module
 */
import { ofOriginal } from "./_original.ts";
import type { EntryCheck } from "./_types.ts";

function firstLetter(s: string): string | null {
  for (const c of s) {
    if (/\p{L}/u.test(c)) return c;
    if (/[\p{N}`*:%{<]/u.test(c)) return null;
  }
  return null;
}

/** Sentence-ending punctuation, with the full-width forms CJK uses counted as the same. */
const END_PUNCTUATION: Record<string, string> = {
  ".": ".",
  "。": ".",
  "．": ".",
  "!": "!",
  "！": "!",
  "?": "?",
  "？": "?",
  ":": ":",
  "：": ":",
  ";": ";",
  "；": ";",
  "…": "…",
};

function endOf(s: string): string {
  const t = s.trimEnd();
  if (t.endsWith("...")) return "…";
  return END_PUNCTUATION[t[t.length - 1] ?? ""] ?? "";
}

/** The style family (off by default). */
export const STYLE_CHECKS: EntryCheck[] = [
  {
    name: "capitalisation",
    severity: "warning",
    defaultOn: false,
    description:
      "msgstr starts with a capital letter when msgid does (off by default: not for scripts without case).",
    run: ({ pairs }) => {
      const out: string[] = [];
      for (const p of pairs) {
        const a = ofOriginal(pairs, p, firstLetter);
        const b = firstLetter(p.translation);
        if (
          a === null || b === null || a.toLowerCase() === a.toUpperCase() ||
          b.toLowerCase() === b.toUpperCase()
        ) {
          continue;
        }
        const upperA = a === a.toUpperCase();
        const upperB = b === b.toUpperCase();
        if (upperA !== upperB) {
          out.push(
            `${p.originalName} starts with ${upperA ? "a capital" : "a small"} letter and ` +
              `${p.translationName} does not`,
          );
        }
      }
      return out;
    },
  },
  {
    name: "end-punctuation",
    severity: "warning",
    defaultOn: false,
    description:
      "msgstr ends with the same punctuation as msgid (full-width forms count as the same; off by default).",
    run: ({ pairs }) => {
      const out: string[] = [];
      for (const p of pairs) {
        const a = ofOriginal(pairs, p, endOf);
        const b = endOf(p.translation);
        if (a !== b) {
          out.push(
            a === ""
              ? `${p.translationName} ends with “${b}” and ${p.originalName} with no punctuation`
              : `${p.originalName} ends with “${a}” and ${p.translationName} ${
                b === "" ? "with none" : `with “${b}”`
              }`,
          );
        }
      }
      return out;
    },
  },
];
