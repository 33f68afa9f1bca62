/**
 * The shapes the checks share: a problem as the tools report it, and one check as the registry
 * holds it.
 *
 * @module
 */
import type { PoMessage } from "../types.ts";
import type { FlagState } from "../read/_flags.ts";

/** How bad a problem is: `error` breaks the program or the docs build; `warning` is likely wrong. */
export type Severity = "error" | "warning";

/** One problem found, as `/po/check` and `check_po` report it. */
export interface CheckProblem {
  /** The catalogue's path as the caller gave it, or null for an entry checked on its own. */
  path: string | null;
  /**
   * 1-based line of the entry's first keyword (`msgctxt`, else `msgid`; the header's for header
   * problems), or null when unknown (an entry made in memory, a catalogue just written).
   */
  line: number | null;
  msgctxt: string | null;
  msgid: string;
  /** The check's stable name, e.g. `python-format`. */
  check: string;
  severity: Severity;
  /** What is wrong and what to do, for a translator. */
  message: string;
}

/** A msgstr (or one plural form) and the text it translates. */
export interface TranslationPair {
  /** msgid, or msgid_plural for plural forms after the first. */
  original: string;
  translation: string;
  /** "msgid" / "msgid_plural". */
  originalName: string;
  /** "msgstr" / "msgstr[N]". */
  translationName: string;
  /** Plural form index, or null for a non-plural entry. */
  form: number | null;
}

/** What an entry check sees. */
export interface EntryContext {
  message: PoMessage;
  flags: FlagState;
  /** The translated forms (empty ones left out), each with its original. */
  pairs: TranslationPair[];
  /** Whether `strict` comparison applies to plural form N (msgfmt's plural distribution). */
  strictForm: (form: number | null) => boolean;
  /** nplurals from the header, or null when it has none or it is invalid. */
  nplurals: number | null;
  /** True when the entry is reST (from a `.rst` file, or the reST checks were asked for). */
  rest: boolean;
  /** The terminology of the run, or null when the caller has none. */
  terminology: TermRules | null;
}

/** One entry check. `run` returns a message per problem (usually none); each is linear in the entry. */
export interface EntryCheck {
  name: string;
  severity: Severity;
  /** Run when the request names no checks. */
  defaultOn: boolean;
  /** True for the reST/Sphinx checks: by default they run only on entries from `.rst` sources. */
  rest?: boolean;
  /** One line for the documentation and the tool's schema. */
  description: string;
  run(context: EntryContext): string[];
}

/**
 * A terminology as the `glossary`, `forbidden` and `term-target` checks consult it (`lib/terms`
 * builds one from a root's glossary and terminology file; the caller loads it and passes it in).
 * Each method is linear in its texts.
 */
export interface TermRules {
  /** The terms of `original` whose agreed translation (or, kept terms, the term itself) `translation` lacks. */
  missing(original: string, translation: string): {
    term: string;
    translation: string;
    doNotTranslate: boolean;
    source: string;
  }[];
  /** The forbidden renderings `translation` has: anywhere, or of a term of `original`. */
  forbidden(original: string, translation: string): {
    term: string | null;
    rendering: string;
    note: string;
    agreed: string | null;
    source: string;
  }[];
  /**
   * Whether a `:term:` role of a translation whose target is `translated` keeps the original's
   * target `target`: true or false when the terminology knows the term (its agreed translation, or
   * the target itself), null when it does not.
   */
  keepsTermTarget(target: string, translated: string): boolean | null;
  /** The agreed translation of the term `target` names, or null. */
  agreedFor(target: string): string | null;
}
