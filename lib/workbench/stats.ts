/**
 * Progress counts of a catalogue, with gettext's meanings (those of `msgfmt --statistics`):
 *
 * - The header (msgid "" without msgctxt) is not counted.
 * - `obsolete`: the `#~` entries (msgfmt does not count them at all).
 * - `untranslated`: the first (or only) msgstr is empty, fuzzy or not (msgfmt counts an empty fuzzy
 *   entry as untranslated, not as fuzzy).
 * - `fuzzy`: flagged fuzzy, with a non-empty first msgstr.
 * - `translated`: not fuzzy and every msgstr non-empty.
 *
 * One case differs from msgfmt 0.21 on purpose: a plural entry whose first form is translated but
 * another form is empty. msgfmt looks at the first form only and counts it as translated; here it
 * is untranslated (issue 18: "translated when not fuzzy and every msgstr is non-empty"), so that a
 * list of untranslated entries shows an agent the form still missing. msgfmt also counts a header
 * whose msgstr is empty as an untranslated message; here the header is never counted.
 *
 * Words are counted in the msgid as Python's `len(msgid.split())` counts them (whitespace-separated
 * runs), the measure potodo and pocount report progress by.
 *
 * @module
 */
import { isHeader, type PoCatalog, type PoMessage } from "../po/mod.ts";

/** The state of one entry: the keys of {@link StateCounts}. */
export type EntryState = "translated" | "fuzzy" | "untranslated" | "obsolete";

/** Every state, in the order answers list them. */
export const ENTRY_STATES: readonly EntryState[] = ["translated", "fuzzy", "untranslated", "obsolete"];

/** A number per state. */
export interface StateCounts {
  translated: number;
  fuzzy: number;
  untranslated: number;
  obsolete: number;
}

/** A catalogue's progress: entries and msgid words per state, and percentages done. */
export interface CatalogueCounts {
  /** Entries per state (header not counted). */
  entries: StateCounts;
  /** Words of the msgids per state. */
  words: StateCounts;
  /** Translated entries × 100 / live (non-obsolete) entries, rounded down; 100 for no live entry. */
  percent: number;
  /** The same by words. */
  percent_words: number;
}

/**
 * The state of an entry (see the module doc). The header has none: call {@link isHeader} first.
 *
 * @example
 * ```ts
 * entryState({ ...message, flags: ["fuzzy"], msgstr: "" }); // "untranslated"
 * ```
 */
export function entryState(m: PoMessage): EntryState {
  if (m.obsolete) return "obsolete";
  const forms = m.msgidPlural !== null && m.msgstrPlural !== null ? m.msgstrPlural : [m.msgstr];
  if (forms.length === 0 || forms[0] === "") return "untranslated";
  if (m.flags.includes("fuzzy")) return "fuzzy";
  for (let i = 1; i < forms.length; i++) if (forms[i] === "") return "untranslated";
  return "translated";
}

/**
 * The state of every entry of `catalog` (the header excluded, in `entryMessages` order), as indices
 * into {@link ENTRY_STATES}: made once per catalogue (immutable), so a page of a long list does not
 * work out every entry's state again.
 */
export function entryStates(catalog: PoCatalog, messages: readonly PoMessage[]): Uint8Array {
  let states = statesOf.get(catalog);
  if (states === undefined || states.length !== messages.length) {
    states = new Uint8Array(messages.length);
    for (let i = 0; i < messages.length; i++) states[i] = ENTRY_STATES.indexOf(entryState(messages[i]!));
    statesOf.set(catalog, states);
  }
  return states;
}

const statesOf = new WeakMap<PoCatalog, Uint8Array>();

/** Whitespace-separated runs in `text` (Python's `len(text.split())`). */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Python's str.isspace() for one UTF-16 unit (the BMP's whitespace, as `str.split()` splits). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Zero in every state. */
export function emptyCounts(): StateCounts {
  return { translated: 0, fuzzy: 0, untranslated: 0, obsolete: 0 };
}

/** Adds `b` into `a`. */
export function addCounts(a: StateCounts, b: StateCounts): void {
  a.translated += b.translated;
  a.fuzzy += b.fuzzy;
  a.untranslated += b.untranslated;
  a.obsolete += b.obsolete;
}

/** Translated × 100 / live, rounded down (100 when nothing is live), as potodo and polib report it. */
export function percentDone(c: StateCounts): number {
  const live = c.translated + c.fuzzy + c.untranslated;
  return live === 0 ? 100 : Math.floor((c.translated * 100) / live);
}

/**
 * Counts a catalogue's entries and words by state.
 *
 * @example
 * ```ts
 * const { entries, percent } = countCatalogue(parsePo(bytes));
 * ```
 */
export function countCatalogue(catalog: PoCatalog): CatalogueCounts {
  // Catalogues are immutable values: each is counted once (a page of list_entries answers with the
  // counts, and a paged walk of a 12,000-entry catalogue counted its words again on every page).
  let counts = countsOf.get(catalog);
  if (counts === undefined) {
    counts = countNow(catalog);
    countsOf.set(catalog, counts);
  }
  return structuredCounts(counts);
}

const countsOf = new WeakMap<PoCatalog, CatalogueCounts>();

/** A copy a caller may change without changing the kept counts. */
function structuredCounts(c: CatalogueCounts): CatalogueCounts {
  return {
    entries: { ...c.entries },
    words: { ...c.words },
    percent: c.percent,
    percent_words: c.percent_words,
  };
}

function countNow(catalog: PoCatalog): CatalogueCounts {
  const entries = emptyCounts();
  const words = emptyCounts();
  for (const m of catalog.messages) {
    if (isHeader(m)) continue;
    const state = entryState(m);
    entries[state]++;
    words[state] += wordCount(m.msgid);
  }
  return { entries, words, percent: percentDone(entries), percent_words: percentDone(words) };
}

/**
 * The language of a catalogue: the header's `Language:` field; else the nearest directory named like
 * a locale (`fr/LC_MESSAGES/app.po`, `pt_BR/app.po`), or a file named with a region (`pt_BR.po`);
 * else null. (A bare two-letter file name is not taken: python-docs has `library/re.po`.)
 */
export function catalogueLanguage(catalog: PoCatalog, relativePath: string): string | null {
  const header = catalog.messages.find(isHeader);
  if (header) {
    const match = /^Language:[ \t]*([^\n]*?)[ \t]*$/m.exec(header.msgstr);
    const language = match?.[1];
    if (language) return language;
  }
  return pathLanguage(relativePath);
}

/** The locale a catalogue's path names (see {@link catalogueLanguage}), or null. */
export function pathLanguage(relativePath: string): string | null {
  const parts = relativePath.split("/");
  const file = parts.pop()!.replace(/\.pot?$/, "");
  for (let i = parts.length - 1; i >= 0; i--) if (LOCALE.test(parts[i]!)) return parts[i]!;
  return LOCALE_WITH_REGION.test(file) ? file : null;
}

/** ll, ll_CC, ll-CC, ll_Scrp, with an optional @variant. */
const LOCALE = /^[a-z]{2}(?:[_-](?:[A-Z]{2}|[A-Z][a-z]{3}))?(?:@[a-z]+)?$/;
const LOCALE_WITH_REGION = /^[a-z]{2,3}[_-](?:[A-Z]{2}|[A-Z][a-z]{3})(?:@[a-z]+)?$/;
