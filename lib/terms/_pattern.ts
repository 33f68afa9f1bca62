/**
 * Renderings and how they are found in a translation. A rendering is written as a pattern of a
 * small linear syntax (never a regular expression: the terminology file is input like any other):
 *
 * - `|` separates alternatives: `itérable*|itérateur*`;
 * - `*` stands for up to {@link STAR_LETTERS} more letters of the same word (a stem: `itérable*`
 *   matches itérable, itérables);
 * - a space matches any run of white space; every other character is itself, case-insensitively.
 *
 * An alternative starts with a character (not `*`) and, where that character is a letter of a
 * spaced script, at the start of a word; it ends at the end of a word likewise (a pattern for
 * Chinese or Japanese matches inside a run of characters, which those scripts write without
 * spaces). A translation agreed in a glossary (no pattern written) is matched as the pattern made of
 * its words each followed by up to {@link AUTO_SUFFIX} letters: French and Spanish plurals
 * (`classe` → classes), German and Russian endings, without a rule per language; its hyphens
 * match a space too (`paquet-espace` finds `paquets espaces`).
 *
 * Matching simulates the pattern's small automaton from the positions where its first character
 * occurs, bounded by {@link MAX_MATCH_CHARS} per start: time linear in the translation for a fixed
 * terminology, whatever both contain.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { isWordChar, needsBoundary } from "./_text.ts";

/** Letters one `*` may stand for. */
export const STAR_LETTERS = 8;
/** Letters a glossary translation's word may be followed by (its inflections). */
export const AUTO_SUFFIX = 3;
/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_CHARS = 200;
/** Most alternatives in one pattern. */
export const MAX_ALTERNATIVES = 16;
/** Most `*` in one alternative. */
const MAX_STARS = 4;
/** Most characters of translation one match attempt reads from its start. */
const MAX_MATCH_CHARS = 256;

/** One step of an alternative: a character, an optional letter, one white space, or more white space. */
type Unit =
  | { kind: "char"; c: string }
  | { kind: "letter" }
  | { kind: "space" }
  | { kind: "spaces" }
  | { kind: "joint" };

/** One alternative, compiled. */
interface Alternative {
  units: Unit[];
  first: string;
}

/** A rendering: its text as the terminology shows it, and its compiled alternatives. */
export interface Rendering {
  /** What the answers show: the translation, or the pattern as written. */
  text: string;
  alternatives: Alternative[];
}

const isSpace = (c: string | undefined) =>
  c === " " || c === "\n" || c === "\t" || c === "\u00a0" || c === "\r";

function compileAlternative(alt: string, autoSuffix: boolean): Alternative {
  const units: Unit[] = [];
  let stars = 0;
  const lower = alt.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i]!;
    if (c === "*") {
      if (units.length === 0) throw new Error("starts with *: write the stem first (itérable*)");
      if (++stars > MAX_STARS) throw new Error(`has more than ${MAX_STARS} *`);
      for (let k = 0; k < STAR_LETTERS; k++) units.push({ kind: "letter" });
    } else {
      // Each word's end (before a space, a hyphen, an apostrophe) may take its inflection.
      if (autoSuffix && !isWordChar(c) && needsBoundary(lower[i - 1])) {
        for (let k = 0; k < AUTO_SUFFIX; k++) units.push({ kind: "letter" });
      }
      if (isSpace(c)) {
        while (isSpace(lower[i + 1])) i++;
        units.push({ kind: "space" }, { kind: "spaces" });
      } else if (c === "-" && autoSuffix && units.length > 0) {
        // A glossary's hyphen is also written as a space (paquet-espace, paquets espaces).
        units.push({ kind: "joint" }, { kind: "spaces" });
      } else units.push({ kind: "char", c });
    }
  }
  if (autoSuffix && needsBoundary(lower[lower.length - 1])) {
    for (let k = 0; k < AUTO_SUFFIX; k++) units.push({ kind: "letter" });
  }
  const first = units[0];
  if (first === undefined || first.kind !== "char") throw new Error("is empty");
  return { units, first: first.c };
}

/**
 * Compiles a pattern (see the module doc).
 *
 * @throws {InvalidInputError} an empty pattern, one over {@link MAX_PATTERN_CHARS} characters or
 *   {@link MAX_ALTERNATIVES} alternatives, an alternative starting with `*` or with too many `*`.
 */
export function compilePattern(pattern: string): Rendering {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new InvalidInputError(`pattern longer than ${MAX_PATTERN_CHARS} characters`);
  }
  const parts = pattern.split("|").map((p) => p.trim());
  if (parts.length > MAX_ALTERNATIVES) {
    throw new InvalidInputError(`pattern with more than ${MAX_ALTERNATIVES} alternatives`);
  }
  const alternatives: Alternative[] = [];
  for (const part of parts) {
    try {
      alternatives.push(compileAlternative(part, false));
    } catch (error) {
      throw new InvalidInputError(`pattern alternative ${JSON.stringify(part)} ${(error as Error).message}`);
    }
  }
  return { text: pattern, alternatives };
}

/** A translation as a rendering: its words each followed by up to {@link AUTO_SUFFIX} letters. */
export function literalRendering(text: string, alternatives: readonly string[] = [text]): Rendering {
  const compiled: Alternative[] = [];
  for (const alt of alternatives.slice(0, MAX_ALTERNATIVES)) {
    const trimmed = alt.trim().slice(0, MAX_PATTERN_CHARS).replaceAll("*", "");
    if (trimmed === "") continue;
    try {
      compiled.push(compileAlternative(trimmed, true));
    } catch {
      // an alternative of nothing but white space: nothing to find
    }
  }
  return { text, alternatives: compiled };
}

/** The automaton's two state sets, reused by every match attempt (the matcher is synchronous). */
let scratchA = new Uint8Array(256);
let scratchB = new Uint8Array(256);

/** Whether `alt` matches `text` (lower case) starting at `start`. */
function matchesAt(alt: Alternative, text: string, start: number): boolean {
  if (needsBoundary(text[start]) && isWordChar(text[start - 1])) return false;
  const units = alt.units;
  const n = units.length;
  if (scratchA.length < n + 1) {
    scratchA = new Uint8Array(2 * (n + 1));
    scratchB = new Uint8Array(2 * (n + 1));
  }
  let states = scratchA.subarray(0, n + 1);
  let next = scratchB.subarray(0, n + 1);
  states.fill(0);
  const close = (s: Uint8Array) => {
    for (let k = 0; k < n; k++) {
      if (s[k] && (units[k]!.kind === "letter" || units[k]!.kind === "spaces")) s[k + 1] = 1;
    }
  };
  states[0] = 1;
  close(states);
  const end = Math.min(text.length, start + MAX_MATCH_CHARS);
  for (let p = start; p < end; p++) {
    const ch = text[p]!;
    next.fill(0);
    let any = false;
    for (let k = 0; k < n; k++) {
      if (!states[k]) continue;
      const u = units[k]!;
      const ok = u.kind === "char"
        ? u.c === ch
        : u.kind === "letter"
        ? isWordChar(ch)
        : u.kind === "joint"
        ? ch === "-" || isSpace(ch)
        : isSpace(ch);
      if (ok) {
        next[u.kind === "spaces" ? k : k + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    close(next);
    [states, next] = [next, states];
    // Accepted at a word's end (or where the script needs none).
    if (states[n] && !(needsBoundary(ch) && isWordChar(text[p + 1]))) return true;
  }
  return false;
}

/**
 * A set of renderings found in one pass over a text: candidates are looked up by the character at
 * each position (a map of first characters), then simulated from there.
 */
export class RenderingSet<T> {
  readonly #byFirst = new Map<string, { item: T; index: number; alt: Alternative }[]>();
  readonly #count: number;

  constructor(items: readonly T[], rendering: (item: T) => Rendering) {
    items.forEach((item, index) => {
      for (const alt of rendering(item).alternatives) {
        let list = this.#byFirst.get(alt.first);
        if (list === undefined) this.#byFirst.set(alt.first, list = []);
        list.push({ item, index, alt });
      }
    });
    this.#count = items.length;
  }

  /** True when the set has nothing to find. */
  get empty(): boolean {
    return this.#byFirst.size === 0;
  }

  /** The items whose rendering occurs in `text`, in the set's order. */
  find(text: string): T[] {
    if (this.#byFirst.size === 0 || text === "") return [];
    return this.findLower(text.toLowerCase());
  }

  /** {@link RenderingSet.find} of a text already lower-cased. */
  findLower(lower: string): T[] {
    const found = new Array<T | undefined>(this.#count);
    let foundCount = 0;
    for (let i = 0; i < lower.length && foundCount < this.#count; i++) {
      const list = this.#byFirst.get(lower[i]!);
      if (list === undefined) continue;
      for (const c of list) {
        if (found[c.index] !== undefined) continue;
        if (matchesAt(c.alt, lower, i)) {
          found[c.index] = c.item;
          foundCount++;
        }
      }
    }
    return found.filter((x): x is T => x !== undefined);
  }
}
