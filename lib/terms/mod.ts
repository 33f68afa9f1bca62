/**
 * Terminology from the team's own files: a root's glossary catalogue (`glossary.po`, python-docs'
 * convention) and terminology file (`.po-terms.csv`: agreed translations, terms kept as they are,
 * forbidden renderings, inflection patterns), the terms of a msgid, the rules the `glossary`,
 * `forbidden` and `term-target` checks consult, and the renderings a tree uses (`term_usage`).
 * Formats and decisions: docs/terminology.md.
 *
 * @example
 * ```ts
 * import { buildTerminology, termsInMsgid } from "./lib/terms/mod.ts";
 * const t = buildTerminology({ file: { text: "term,translation,kind\niterable,itérable,glossary\n", source: "t.csv" } });
 * termsInMsgid(t, "Return an iterable."); // [{ term: "iterable", translation: "itérable", doNotTranslate: false }]
 * ```
 *
 * @module
 */
export {
  bareTerm,
  buildTerminology,
  EMPTY_TERMINOLOGY,
  findTermOccurrences,
  findTerms,
  type Forbidden,
  GLOSSARY_MAX_CHARS,
  GLOSSARY_MAX_WORDS,
  glossaryRenderings,
  isGlossaryTerm,
  MAX_FORBIDDEN,
  MAX_TERM_CHARS,
  MAX_TERM_WORDS,
  MAX_TERMINOLOGY_FILE_BYTES,
  MAX_TERMS,
  type MsgidTerm,
  singleTerm,
  type Term,
  TERM_KINDS,
  type Terminology,
  type TerminologySources,
  termNamed,
  type TermOccurrence,
  termsInMsgid,
} from "./terminology.ts";
export { termRules } from "./rules.ts";
export {
  GLOSSARY_FILE,
  type LoadedTerminology,
  type TermFilesIo,
  TerminologyCache,
  TERMS_FILE,
} from "./load.ts";
export {
  isTranslated,
  MAX_USAGE_EXAMPLES,
  type RenderingUsage,
  type TermUsage,
  type UsageExample,
  UsageTally,
} from "./usage.ts";
export { AUTO_SUFFIX, compilePattern, MAX_PATTERN_CHARS, STAR_LETTERS } from "./_pattern.ts";
