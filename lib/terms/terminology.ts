/**
 * A team's terminology, built from its own files: the glossary catalogue (python-docs'
 * `glossary.po`, whose short msgids are the glossary's terms and their msgstrs the agreed
 * translations) and the terminology file (`.po-terms.csv`: agreed translations, terms kept as they
 * are, forbidden renderings, inflection patterns). See docs/terminology.md for both formats.
 *
 * Terms are found in a msgid by its words, not by a regular expression per term: the msgid is cut
 * into lower-case words once, and each word is looked up in a map from a term's first word (with
 * its English plural forms for one-word terms) to the terms starting with it, longest first. So
 * finding the terms of a msgid costs its words × the few terms sharing a first word, whatever the
 * size of the terminology. Words inside code (inline literals, roles other than `:term:`, link
 * targets) are not looked at.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { isHeader, messageLines, type PoCatalog } from "../po/mod.ts";
import { type CsvRow, parseCsv } from "./csv.ts";
import { compilePattern, literalRendering, type Rendering, RenderingSet } from "./_pattern.ts";
import { englishForms, markupSpans, type Token, tokens } from "./_text.ts";

/** Most terms one terminology holds (glossary and file together); more are left out, with a warning. */
export const MAX_TERMS = 20_000;
/** Most forbidden renderings one terminology holds. */
export const MAX_FORBIDDEN = 20_000;
/** Largest terminology file or glossary catalogue read, in bytes. */
export const MAX_TERMINOLOGY_FILE_BYTES = 4 * 1024 * 1024;
/** Longest term or translation of the terminology file, in characters. */
export const MAX_TERM_CHARS = 200;
/** Most words of a term. */
export const MAX_TERM_WORDS = 8;
/** A glossary catalogue's msgid is a term when it has at most this many words… */
export const GLOSSARY_MAX_WORDS = 4;
/** …and at most this many characters. */
export const GLOSSARY_MAX_CHARS = 40;
/** Most problems the warnings of one terminology list. */
const MAX_WARNINGS = 50;

/** The kinds of rows of the terminology file. */
export const TERM_KINDS = ["glossary", "do-not-translate", "forbidden"] as const;
export type TermKind = typeof TERM_KINDS[number];

/** A forbidden rendering: anywhere (term null), or of one term. */
export interface Forbidden {
  term: string | null;
  rendering: Rendering;
  /** What to write instead, or why (the file's `note`), or "". */
  note: string;
  /** Where it was defined: `.po-terms.csv:12`. */
  source: string;
}

/** One term. */
export interface Term {
  /** As written in the glossary or the file. */
  term: string;
  /** Its lower-case words. */
  words: readonly string[];
  /** The agreed translation as shown to a translator, or null (a term with forbidden renderings only). */
  translation: string | null;
  /** True when the term stays as it is in translations (product names, acronyms). */
  doNotTranslate: boolean;
  /** Each accepted rendering on its own (what `term_usage` counts), empty when none is agreed. */
  accepted: readonly Rendering[];
  forbidden: readonly Forbidden[];
  /** Where the agreed translation comes from: `glossary.po:57`, `.po-terms.csv:3`. */
  source: string;
  /**
   * True for a term of the terminology file: its translation is checked wherever the term occurs.
   * A term of the glossary catalogue is checked where the msgid marks it with `:term:` (prose uses
   * "object", "type", "list" loosely; docs/terminology.md has the measure).
   */
  everywhere: boolean;
}

/** A root's terminology (immutable once built). */
export interface Terminology {
  readonly terms: readonly Term[];
  /** Forbidden renderings of no particular term: wrong in any translation. */
  readonly forbiddenAnywhere: readonly Forbidden[];
  /** The files it was built from. */
  readonly sources: readonly string[];
  /** Rows and entries left out, and why (bounded). */
  readonly warnings: readonly string[];
  /** @internal first word (and plural forms of one-word terms) → terms, longest first. */
  readonly index: ReadonlyMap<string, readonly Term[]>;
  /** @internal */
  readonly anywhere: RenderingSet<Forbidden>;
}

/** A terminology of nothing: what a root without glossary or file has. */
export const EMPTY_TERMINOLOGY: Terminology = {
  terms: [],
  forbiddenAnywhere: [],
  sources: [],
  warnings: [],
  index: new Map(),
  anywhere: new RenderingSet<Forbidden>([], (f) => f.rendering),
};

/** What {@link buildTerminology} is built from. */
export interface TerminologySources {
  /** The glossary catalogue and its name for messages (`glossary.po`). */
  glossary?: { catalog: PoCatalog; source: string };
  /** The terminology file's text and its name (`.po-terms.csv`). */
  file?: { text: string; source: string };
}

const MARKUP = /[*`]/g;

/**
 * The renderings a glossary msgstr agrees on: the text without reST emphasis and backticks, cut at
 * ` -- ` (python-docs-zh-cn: `iterable -- 可迭代对象`), at ` / ` and `;`, and with a parenthesised
 * part as another rendering (`dictionnaire en compréhension (ou dictionnaire en intension)`). A
 * piece that recalls the English term (`iterable -- …`, `(*mapping* en anglais)`,
 * `attendable (*awaitable*)`) is not a translation, but it says the team knows the term as is: the
 * term itself is then accepted after the translations (zh-cn keeps `:term:\`iterable\`` in its
 * translations; French keeps *awaitable* in italics). A msgstr over 200 characters agrees on
 * nothing (it is a definition, not a translation).
 */
export function glossaryRenderings(term: string, msgstr: string): string[] {
  if (msgstr.length > 200) return [];
  const clean = msgstr.replace(MARKUP, "").replace(/\s+/g, " ").trim();
  const pieces: string[] = [];
  for (const part of clean.split(/ -- | — | \/ |;/)) {
    let rest = part;
    // Parenthesised pieces, full-width ones too: each is a rendering of its own.
    for (let n = 0; n < 8; n++) {
      const open = Math.max(rest.lastIndexOf("("), rest.lastIndexOf("（"));
      if (open < 0) break;
      const close = rest.indexOf(rest[open] === "(" ? ")" : "）", open);
      if (close < 0) break;
      pieces.push(rest.slice(open + 1, close).replace(/^(ou|or|o|oder|или|或|或者)\s+/i, ""));
      rest = rest.slice(0, open) + rest.slice(close + 1);
    }
    pieces.unshift(rest);
  }
  const all = [...new Set(pieces.map((p) => p.trim()).filter((p) => p !== ""))];
  const termWords = ` ${tokens(term).map((t) => t.word).join(" ")} `;
  const own = all.filter((p) => !` ${tokens(p).map((t) => t.word).join(" ")} `.includes(termWords));
  return own.length < all.length ? [...own, term] : own;
}

/** True when a glossary catalogue's msgid is a term: short, words only (see docs/terminology.md). */
export function isGlossaryTerm(msgid: string): boolean {
  if (msgid.length === 0 || msgid.length > GLOSSARY_MAX_CHARS) return false;
  if (/[`:*.?!,;()\[\]{}<>="|\\]|^\s|\s$/.test(msgid)) return false;
  const words = tokens(msgid);
  return words.length > 0 && words.length <= GLOSSARY_MAX_WORDS && /\p{L}/u.test(msgid);
}

/** The terms of a glossary catalogue: translated, not fuzzy, not obsolete, short msgids. */
function glossaryTerms(
  catalog: PoCatalog,
  source: string,
): { term: string; translation: string; line: string }[] {
  const out: { term: string; translation: string; line: string }[] = [];
  const lines = messageLines(catalog);
  for (let i = 0; i < catalog.messages.length; i++) {
    const m = catalog.messages[i]!;
    if (m.obsolete || isHeader(m) || m.msgidPlural !== null || m.msgctxt !== null) continue;
    if (m.msgstr === "" || m.flags.includes("fuzzy")) continue;
    if (!isGlossaryTerm(m.msgid)) continue;
    const line = lines?.[i];
    out.push({ term: m.msgid, translation: m.msgstr, line: line == null ? source : `${source}:${line}` });
  }
  return out;
}

/**
 * Builds a terminology. A row of the file that cannot be used (an unknown kind, a bad pattern, a
 * missing field) is left out with a warning naming its line; the file's own syntax errors leave
 * the whole file out, with a warning. Rows of the file override the glossary's term of the same
 * words.
 */
export function buildTerminology(sources: TerminologySources): Terminology {
  const warnings: string[] = [];
  const warn = (w: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(w);
  };
  const byWords = new Map<string, Term>();
  const forbiddenAnywhere: Forbidden[] = [];
  let forbiddenCount = 0;
  const add = (term: Term) => {
    const key = term.words.join(" ");
    if (!byWords.has(key) && byWords.size >= MAX_TERMS) {
      warn(`more than ${MAX_TERMS} terms: ${term.source} and later ones left out`);
      return;
    }
    const old = byWords.get(key);
    // A file row adds its forbidden renderings to the term, and its agreed translation replaces one.
    byWords.set(
      key,
      old === undefined ? term : {
        ...(term.translation === null && !term.doNotTranslate ? old : term),
        forbidden: [...old.forbidden, ...term.forbidden],
      },
    );
  };
  const wordsOf = (text: string): string[] | null => {
    const words = tokens(text).map((t) => t.word);
    return words.length === 0 || words.length > MAX_TERM_WORDS ? null : words;
  };
  const used: string[] = [];
  if (sources.glossary !== undefined) {
    used.push(sources.glossary.source);
    for (const g of glossaryTerms(sources.glossary.catalog, sources.glossary.source)) {
      const words = wordsOf(g.term);
      if (words === null) continue;
      const renderings = glossaryRenderings(g.term, g.translation);
      if (renderings.length === 0) continue;
      add({
        term: g.term,
        words,
        translation: renderings[0]!,
        doNotTranslate: false,
        accepted: renderings.map((r) => literalRendering(r)),
        forbidden: [],
        source: g.line,
        everywhere: false,
      });
    }
  }
  if (sources.file !== undefined) {
    const { text, source } = sources.file;
    used.push(source);
    let rows: CsvRow[] = [];
    try {
      rows = parseCsv(text, ["term", "translation", "kind"], {
        maxRows: MAX_TERMS + MAX_FORBIDDEN,
        maxFieldChars: MAX_TERM_CHARS,
      });
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      warn(`${source} was not used: ${error.message}`);
    }
    for (const row of rows) {
      const at = `${source}:${row.line}`;
      const { term = "", translation = "", kind: rawKind = "", pattern = "", note = "" } = row.fields;
      const kind = (rawKind === "" ? "glossary" : rawKind.toLowerCase()) as TermKind;
      if (!TERM_KINDS.includes(kind)) {
        warn(`${at}: unknown kind ${JSON.stringify(rawKind)} (${TERM_KINDS.join(", ")})`);
        continue;
      }
      const words = term === "" ? null : wordsOf(term);
      if (term !== "" && words === null) {
        warn(`${at}: the term ${JSON.stringify(term)} has no word, or more than ${MAX_TERM_WORDS}`);
        continue;
      }
      let rendering: Rendering;
      try {
        const shown = kind === "do-not-translate" ? (translation || term) : translation;
        if (pattern !== "") rendering = { ...compilePattern(pattern), text: shown || pattern };
        else if (shown !== "") rendering = literalRendering(shown);
        else {
          warn(`${at}: a ${kind} row needs a translation or a pattern`);
          continue;
        }
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        warn(`${at}: ${error.message}`);
        continue;
      }
      if (kind === "forbidden") {
        if (++forbiddenCount > MAX_FORBIDDEN) {
          warn(`more than ${MAX_FORBIDDEN} forbidden renderings: ${at} and later ones left out`);
          continue;
        }
        const f: Forbidden = { term: words === null ? null : term, rendering, note, source: at };
        if (words === null) forbiddenAnywhere.push(f);
        else {
          add({
            term,
            words,
            translation: null,
            doNotTranslate: false,
            accepted: [],
            forbidden: [f],
            source: at,
            everywhere: true,
          });
        }
        continue;
      }
      if (words === null) {
        warn(`${at}: a ${kind} row needs a term`);
        continue;
      }
      // A pattern spells the inflections of one rendering: term_usage counts them together.
      const accepted = [rendering];
      add({
        term,
        words,
        translation: rendering.text,
        doNotTranslate: kind === "do-not-translate",
        accepted,
        forbidden: [],
        source: at,
        everywhere: true,
      });
    }
  }
  const terms = [...byWords.values()];
  const index = new Map<string, Term[]>();
  const put = (key: string, t: Term) => {
    let list = index.get(key);
    if (list === undefined) index.set(key, list = []);
    if (!list.includes(t)) list.push(t);
  };
  for (const t of terms) {
    if (t.words.length === 1) { for (const form of englishForms(t.words[0]!)) put(form, t); }
    else put(t.words[0]!, t);
  }
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length);
  return {
    terms,
    forbiddenAnywhere,
    sources: used,
    warnings,
    index,
    anywhere: new RenderingSet(forbiddenAnywhere, (f) => f.rendering),
  };
}

/** The last word's plural forms of each multi-word term, made once. */
const lastForms = new WeakMap<Term, ReadonlySet<string>>();

function formsOfLast(t: Term): ReadonlySet<string> {
  let s = lastForms.get(t);
  if (s === undefined) lastForms.set(t, s = new Set(englishForms(t.words[t.words.length - 1]!)));
  return s;
}

/** True when only white space and hyphens separate two words of a msgid. */
function joined(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let i = from; i < to; i++) if (!" \t\n-\u00a0".includes(text[i]!)) return false;
  return true;
}

/** A term met in a msgid, and whether it was met in the text of a `:term:` role. */
export interface TermOccurrence {
  term: Term;
  inTermRole: boolean;
}

/**
 * The terms of `msgid` in the order met, each once: leftmost-longest and not overlapping
 * (`abstract base class` is one term, not also `class`). Words in code are not looked at.
 */
export function findTermOccurrences(terminology: Terminology, msgid: string): TermOccurrence[] {
  if (terminology.index.size === 0 || msgid === "") return [];
  const words: Token[] = tokens(msgid);
  // 1: in code (skipped); 2: in a :term: role's text.
  const kind = new Uint8Array(words.length);
  if (msgid.includes("`") || msgid.includes("*")) {
    const { code, termRoles } = markupSpans(msgid);
    for (const [spans, mark] of [[code, 1], [termRoles, 2]] as const) {
      let s = 0;
      for (let i = 0; i < words.length; i++) {
        const w = words[i]!;
        while (s < spans.length && spans[s]![1] <= w.start) s++;
        if (s < spans.length && spans[s]![0] <= w.start && kind[i] === 0) kind[i] = mark;
      }
    }
  }
  const out: TermOccurrence[] = [];
  const seen = new Map<Term, TermOccurrence>();
  for (let i = 0; i < words.length; i++) {
    if (kind[i] === 1) continue;
    const candidates = terminology.index.get(words[i]!.word);
    if (candidates === undefined) continue;
    for (const t of candidates) {
      const n = t.words.length;
      let ok = i + n <= words.length;
      for (let k = 1; ok && k < n; k++) {
        const w = words[i + k]!;
        ok = kind[i + k] !== 1 && joined(msgid, words[i + k - 1]!.end, w.start) &&
          (k === n - 1 ? formsOfLast(t).has(w.word) : w.word === t.words[k]);
      }
      if (!ok) continue;
      const old = seen.get(t);
      if (old === undefined) {
        const o = { term: t, inTermRole: kind[i] === 2 };
        seen.set(t, o);
        out.push(o);
      } else if (kind[i] === 2) old.inTermRole = true;
      i += n - 1;
      break;
    }
  }
  return out;
}

/** The terms of `msgid` (see {@link findTermOccurrences}). */
export function findTerms(terminology: Terminology, msgid: string): Term[] {
  return findTermOccurrences(terminology, msgid).map((o) => o.term);
}

/** A term of a msgid as other tools show it (`suggest`, the editor's panel). */
export interface MsgidTerm {
  term: string;
  translation: string | null;
  doNotTranslate: boolean;
}

/** The terms of `msgid` with their agreed translations (see {@link findTerms}). */
export function termsInMsgid(terminology: Terminology, msgid: string): MsgidTerm[] {
  return findTerms(terminology, msgid).map((t) => ({
    term: t.term,
    translation: t.translation,
    doNotTranslate: t.doNotTranslate,
  }));
}

/** The term of `terminology` named by `name` (its words, case-insensitively), or null. */
export function termNamed(terminology: Terminology, name: string): Term | null {
  const words = tokens(name).map((t) => t.word).join(" ");
  return terminology.terms.find((t) => t.words.join(" ") === words) ?? null;
}

/** A term made of `name` alone, with nothing agreed (a word the terminology does not have). */
export function bareTerm(name: string): Term | null {
  const words = tokens(name).map((t) => t.word);
  if (words.length === 0 || words.length > MAX_TERM_WORDS) return null;
  return {
    term: name,
    words,
    translation: null,
    doNotTranslate: false,
    accepted: [],
    forbidden: [],
    source: "",
    everywhere: true,
  };
}

/** A terminology of one term (what a search for that term alone looks up). */
export function singleTerm(term: Term): Terminology {
  const index = new Map<string, Term[]>();
  if (term.words.length === 1) { for (const form of englishForms(term.words[0]!)) index.set(form, [term]); }
  else index.set(term.words[0]!, [term]);
  return { ...EMPTY_TERMINOLOGY, terms: [term], index };
}
