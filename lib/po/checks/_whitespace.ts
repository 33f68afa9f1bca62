/**
 * Whitespace and escapes: newlines at the start and end (msgfmt -c's own check), other leading
 * and trailing white space, doubled spaces the translation adds, and control characters (`\t`,
 * `\r`, …) it drops or adds.
 *
 * @module
 */
import { ofOriginal } from "./_original.ts";
import type { EntryCheck, TranslationPair } from "./_types.ts";

function eachPair(pairs: TranslationPair[], fn: (p: TranslationPair) => string | null): string[] {
  const out: string[] = [];
  for (const p of pairs) {
    const m = fn(p);
    if (m !== null) out.push(m);
  }
  return out;
}

/** Leading run of spaces and tabs (not newlines). */
function leading(s: string): string {
  let i = 0;
  while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\u3000")) i++;
  return s.slice(0, i);
}

/** Trailing run of spaces and tabs (not newlines). */
function trailing(s: string): string {
  let i = s.length;
  while (i > 0 && (s[i - 1] === " " || s[i - 1] === "\t" || s[i - 1] === "\u3000")) i--;
  return s.slice(i);
}

function strip(s: string, newline: boolean): string {
  let a = 0;
  let b = s.length;
  if (newline) {
    while (a < b && s[a] === "\n") a++;
    while (b > a && s[b - 1] === "\n") b--;
  }
  return s.slice(a, b);
}

const stripNewlines = (s: string) => strip(s, true);
const hasDoubleSpace = (s: string) => s.includes("  ");

/** True when `s` has two spaces in a row that do not follow a sentence's end: a column layout. */
function isColumns(s: string): boolean {
  for (let at = s.indexOf("  "); at >= 0; at = s.indexOf("  ", at + 2)) {
    if (at > 0 && !".!?:;".includes(s[at - 1]!) && s[at - 1] !== " ") return true;
  }
  return false;
}

const CONTROL_NAMES: Record<string, string> = {
  "\t": "tab (\\t)",
  "\r": "carriage return (\\r)",
  "\x07": "bell (\\a)",
  "\b": "backspace (\\b)",
  "\f": "form feed (\\f)",
  "\v": "vertical tab (\\v)",
};

/** Counts of control characters other than newline. */
function controls(s: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a) || c === 0x7f) counts.set(s[i]!, (counts.get(s[i]!) ?? 0) + 1);
  }
  return counts;
}

function controlName(c: string): string {
  return CONTROL_NAMES[c] ??
    `control character U+${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}`;
}

/** The whitespace family. */
export const WHITESPACE_CHECKS: EntryCheck[] = [
  {
    name: "newlines",
    severity: "error",
    defaultOn: true,
    description:
      "msgstr begins and ends with a newline exactly when msgid does (msgfmt -c refuses otherwise).",
    run: ({ pairs }) =>
      eachPair(pairs, (p) => {
        if (p.original.startsWith("\n") !== p.translation.startsWith("\n")) {
          return p.original.startsWith("\n")
            ? `${p.originalName} begins with a newline (\\n) and ${p.translationName} does not: add it`
            : `${p.translationName} begins with a newline (\\n) and ${p.originalName} does not: remove it`;
        }
        if (p.original.endsWith("\n") !== p.translation.endsWith("\n")) {
          return p.original.endsWith("\n")
            ? `${p.originalName} ends with a newline (\\n) and ${p.translationName} does not: add it`
            : `${p.translationName} ends with a newline (\\n) and ${p.originalName} does not: remove it`;
        }
        return null;
      }),
  },
  {
    name: "whitespace",
    severity: "warning",
    defaultOn: true,
    description:
      "Leading and trailing spaces and tabs of msgstr are those of msgid (they are often significant).",
    run: ({ pairs }) =>
      eachPair(pairs, (p) => {
        // Columns ("Strms  Blocks   Compressed", xz's list header): padding is the layout, and a
        // translation right-aligns its own words with leading spaces.
        if (ofOriginal(pairs, p, isColumns)) return null;
        const o = ofOriginal(pairs, p, stripNewlines);
        const t = strip(p.translation, true);
        if (leading(o) !== leading(t) && (leading(o) === "" || leading(t) === "")) {
          return leading(o) === ""
            ? `${p.translationName} starts with white space that ${p.originalName} does not have: remove it`
            : `${p.originalName} starts with white space (${JSON.stringify(leading(o))}) that ` +
              `${p.translationName} lacks: keep it`;
        }
        // "%s: " → "%s：": CJK's full-width punctuation carries its own space.
        const fullWidthEnd = /[\u3000-\u303f\uff01-\uff1f]$/u.test(t.trimEnd());
        if (trailing(o) !== trailing(t) && (trailing(o) === "" || trailing(t) === "") && !fullWidthEnd) {
          return trailing(o) === ""
            ? `${p.translationName} ends with white space that ${p.originalName} does not have: remove it`
            : `${p.originalName} ends with white space (${JSON.stringify(trailing(o))}) that ` +
              `${p.translationName} lacks: keep it`;
        }
        return null;
      }),
  },
  {
    name: "double-space",
    severity: "warning",
    defaultOn: true,
    description: "msgstr has two spaces in a row inside the text where msgid has none (a typing slip).",
    run: ({ pairs }) =>
      eachPair(pairs, (p) => {
        if (ofOriginal(pairs, p, hasDoubleSpace)) return null;
        const t = p.translation.trim();
        let at = t.indexOf("  ");
        // Two spaces after a sentence are a typing convention (python-docs uses it), not a slip.
        while (at > 0 && ".!?:;。".includes(t[at - 1]!)) at = t.indexOf("  ", at + 2);
        if (at < 0) return null;
        return `${p.translationName} has two spaces in a row (“…${
          t.slice(Math.max(0, at - 20), at + 22)
        }…”) ` +
          `where ${p.originalName} has none`;
      }),
  },
  {
    name: "escapes",
    severity: "warning",
    defaultOn: true,
    description: "Control characters (\\t, \\r, …) of msgid are kept in msgstr, and none are added.",
    run: ({ pairs }) =>
      eachPair(pairs, (p) => {
        const a = ofOriginal(pairs, p, controls);
        const b = controls(p.translation);
        for (const [c, n] of a) {
          const m = b.get(c) ?? 0;
          if (m !== n) {
            return `${p.originalName} has ${n} ${
              controlName(c)
            }, ${p.translationName} ${m}: keep them as they are`;
          }
        }
        for (const [c, m] of b) {
          if (!a.has(c)) {
            return `${p.translationName} has ${m} ${controlName(c)} that ${p.originalName} does not have: ` +
              `remove ${m === 1 ? "it" : "them"} (a typed "\\t" is written \\\\t in the file)`;
          }
        }
        return null;
      }),
  },
];
