/**
 * The `#,` flag line: how the reader splits it into tokens, what gettext 0.21 makes of the tokens
 * (fuzzy, the format flags of its 30 languages, `range:`, `wrap`), and the line msgcat prints.
 *
 * @module
 */
import { ownString } from "./_lexer.ts";

/** `\n`, space, `\t`, `\r`, `\f`, `\v` and `,`: what separates flags on a `#,` line. */
function isFlagSeparator(c: number): boolean {
  return c === 44 || c === 32 || (c >= 9 && c <= 13);
}

/** Flags most catalogues use: a token equal to one of these is that string, not a new one. */
const COMMON_FLAGS = [
  "fuzzy",
  "c-format",
  "no-c-format",
  "python-format",
  "no-python-format",
  "python-brace-format",
  "no-python-brace-format",
  "possible-python-format",
];

function flagToken(s: string, start: number, end: number): string {
  for (let k = 0; k < COMMON_FLAGS.length; k++) {
    const f = COMMON_FLAGS[k]!;
    if (f.length === end - start && s.startsWith(f, start)) return f;
  }
  return ownString(s.slice(start, end));
}

/** Splits a `#,` line (text after `#,`) into tokens, joining `range:` with its argument. */
export function tokenizeFlags(s: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && isFlagSeparator(s.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isFlagSeparator(s.charCodeAt(i))) i++;
    if (i > start) tokens.push(flagToken(s, start, i));
  }
  const out: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    if (tokens[k] === "range:" && k + 1 < tokens.length) {
      out.push(`range: ${tokens[k + 1]}`);
      k++;
    } else out.push(tokens[k]!);
  }
  // (A list grown by push holds room for 17: the message keeps an exact copy.)
  return out.slice();
}

/** gettext 0.21's format languages, in its internal order (the order of the `#,` line). */
export const FORMAT_LANGUAGES: readonly string[] = [
  "c",
  "objc",
  "python",
  "python-brace",
  "java",
  "java-printf",
  "csharp",
  "javascript",
  "scheme",
  "lisp",
  "elisp",
  "librep",
  "ruby",
  "sh",
  "awk",
  "lua",
  "object-pascal",
  "smalltalk",
  "qt",
  "qt-plural",
  "kde",
  "kde-kuit",
  "boost",
  "tcl",
  "perl",
  "perl-brace",
  "php",
  "gcc-internal",
  "gfc-internal",
  "ycp",
];

const LANGUAGE_INDEX = new Map(FORMAT_LANGUAGES.map((l, i) => [l, i]));

/** How a format flag was given: `X-format`, `possible-X-format`, `impossible-X-format`, `no-X-format`. */
type FormatKind = "yes" | "possible" | "impossible" | "no";

/** The meaning of an entry's flags, as gettext reads a `#,` line. */
export interface FlagState {
  fuzzy: boolean;
  /** Per language index of {@link FORMAT_LANGUAGES}: how it was flagged (last one wins). */
  formats: (FormatKind | undefined)[];
  range: { min: number; max: number } | null;
  /** `wrap` → true, `no-wrap` → false, neither → null. */
  wrap: boolean | null;
}

const FLAG_SEPARATORS = "\n \t\r\f\v,";
const INT_MAX = 2147483647;

function splitFlagTokens(flags: readonly string[]): string[] {
  const tokens: string[] = [];
  for (const f of flags) {
    let i = 0;
    while (i < f.length) {
      while (i < f.length && FLAG_SEPARATORS.includes(f[i]!)) i++;
      const start = i;
      while (i < f.length && !FLAG_SEPARATORS.includes(f[i]!)) i++;
      if (i > start) tokens.push(f.slice(start, i));
    }
  }
  return tokens;
}

function parseBound(s: string, at: number): [number, number] {
  let v = 0;
  let i = at;
  while (i < s.length && s[i]! >= "0" && s[i]! <= "9") {
    v = Math.min(INT_MAX, v * 10 + (s.charCodeAt(i) - 48));
    i++;
  }
  return [v, i];
}

/**
 * Interprets flag tokens the way gettext 0.21 reads one `#,` line: `fuzzy`, the format flags of
 * the 30 languages it knows, `range: MIN..MAX`, `wrap`/`no-wrap`; anything else is ignored.
 *
 * @example
 * ```ts
 * interpretFlags(["fuzzy", "possible-c-format", "range: 1..5"]).range; // { min: 1, max: 5 }
 * ```
 */
export function interpretFlags(flags: readonly string[]): FlagState {
  const state: FlagState = { fuzzy: false, formats: [], range: null, wrap: null };
  const tokens = splitFlagTokens(flags);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t === "fuzzy") {
      state.fuzzy = true;
      continue;
    }
    if (t.endsWith("-format")) {
      let name = t.slice(0, -7);
      let kind: FormatKind = "yes";
      if (name.startsWith("no-")) {
        name = name.slice(3);
        kind = "no";
      } else if (name.startsWith("possible-")) {
        name = name.slice(9);
        kind = "possible";
      } else if (name.startsWith("impossible-")) {
        name = name.slice(11);
        kind = "impossible";
      }
      const index = LANGUAGE_INDEX.get(name);
      if (index !== undefined) {
        state.formats[index] = kind;
        continue;
      }
    }
    if (t === "range:") {
      // The next token is consumed whatever it is; gettext reads "MIN..MAX" and ignores the rest.
      const arg = tokens[++k];
      if (arg !== undefined && arg.charAt(0) >= "0" && arg.charAt(0) <= "9") {
        const [min, i] = parseBound(arg, 0);
        if (arg[i] === "." && arg[i + 1] === "." && arg.charAt(i + 2) >= "0" && arg.charAt(i + 2) <= "9") {
          const [max] = parseBound(arg, i + 2);
          if (min <= max) state.range = { min, max };
        }
      }
      continue;
    }
    if (t === "wrap") state.wrap = true;
    else if (t === "no-wrap") state.wrap = false;
  }
  return state;
}

/** The first language flagged `X-format` or `possible-X-format`, for the wrap engine; else null. */
export function formatLanguageOf(state: FlagState): string | null {
  for (let i = 0; i < FORMAT_LANGUAGES.length; i++) {
    const k = state.formats[i];
    if (k === "yes" || k === "possible") return FORMAT_LANGUAGES[i]!;
  }
  return null;
}

/** The `#,` line msgcat prints for an entry (with its newline), or "" when it prints none. */
export function flagLine(state: FlagState, msgstr0: string, obsolete: boolean): string {
  const parts: string[] = [];
  if (state.fuzzy && (obsolete || msgstr0 !== "")) parts.push("fuzzy");
  for (let i = 0; i < FORMAT_LANGUAGES.length; i++) {
    const k = state.formats[i];
    if (k === "yes" || k === "possible") parts.push(`${FORMAT_LANGUAGES[i]}-format`);
    else if (k === "no") parts.push(`no-${FORMAT_LANGUAGES[i]}-format`);
  }
  if (state.range && !obsolete) parts.push(`range: ${state.range.min}..${state.range.max}`);
  if (state.wrap === false) parts.push("no-wrap");
  return parts.length === 0 ? "" : `#, ${parts.join(", ")}\n`;
}

/** The meaning of no flags at all (shared, not to be changed). */
export const NO_FLAGS: FlagState = { fuzzy: false, formats: [], range: null, wrap: null };
