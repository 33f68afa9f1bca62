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
