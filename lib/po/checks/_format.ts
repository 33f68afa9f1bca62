/**
 * The format checks, driven by the entry's flags as `msgfmt --check-format` is: an entry flagged
 * `python-format`, `python-brace-format`, `c-format` or one of `_format_languages.ts`'s (tcl,
 * javascript, php, lua, sh, kde, qt), or `possible-…`, has its msgid (its
 * msgid_plural for a plural entry) compared with each msgstr form. A msgid that is not a valid
 * format string is not checked (msgfmt does the same); a msgstr that is not valid is a problem.
 *
 * Strictness follows msgfmt: every argument must be kept unless the entry is plural and has more
 * than one form, and the form applies to only a few numbers (form 0 of "n != 1": "one file" may
 * say "un fichier" without the %d).
 *
 * @module
 */
import { FORMAT_LANGUAGES } from "../read/_flags.ts";
import {
  comparePythonBraceFormat,
  parseBraceFormat,
  parsePythonBraceFormat,
  type PythonBraceSpec,
} from "./_format_brace.ts";
import { compareCFormat, parseCFormat } from "./_format_c.ts";
import { type FieldNames, type FormatSpec, InvalidFormat } from "./_format_common.ts";
import { comparePythonFormat, parsePythonFormat } from "./_format_python.ts";
import type { EntryCheck, EntryContext } from "./_types.ts";
import { MORE_FORMAT_LANGUAGES } from "./_format_languages.ts";

interface Language {
  check: string;
  flag: string;
  pretty: string;
  parse: (s: string, translated: boolean) => FormatSpec | InvalidFormat;
  compare: (a: FormatSpec, b: FormatSpec, strict: boolean, names: FieldNames) => string | null;
  hint: string;
}

// A @__PURE__ call, not a bare array with a spread: a bundle that never checks leaves it out.
const LANGUAGES: Language[] = /* @__PURE__ */ (() => [
  {
    check: "python-format",
    flag: "python",
    pretty: "Python %",
    parse: (s) => parsePythonFormat(s),
    compare: comparePythonFormat,
    hint: "write %% for a literal percent sign",
  },
  {
    check: "python-brace-format",
    flag: "python-brace",
    pretty: "Python {}",
    parse: (s) => parsePythonBraceFormat(s),
    compare: (a, b, strict, names) =>
      comparePythonBraceFormat(a as PythonBraceSpec, b as PythonBraceSpec, strict, names) ??
        gettextRejects(a, b, names),
    hint: "write {{ and }} for literal braces",
  },
  {
    check: "c-format",
    flag: "c",
    pretty: "C printf",
    parse: parseCFormat,
    compare: compareCFormat,
    hint: "write %% for a literal percent sign",
  },
  ...MORE_FORMAT_LANGUAGES.map((l) => ({ ...l, check: `${l.flag}-format` })),
])();

/** The texts each parsed spec came from (for the gettext 0.21 comparison of python-brace strings). */
const sources = new WeakMap<FormatSpec, string>();

/**
 * Python accepts `{}` and `{name!r}`, gettext 0.21 does not: when msgid is valid for gettext and a
 * msgstr is not, `msgfmt -c` refuses the catalogue, so that is reported too.
 */
function gettextRejects(original: FormatSpec, translation: FormatSpec, names: FieldNames): string | null {
  const a = sources.get(original);
  const b = sources.get(translation);
  if (a === undefined || b === undefined || parseBraceFormat(a) instanceof InvalidFormat) return null;
  const theirs = parseBraceFormat(b);
  if (!(theirs instanceof InvalidFormat)) return null;
  return `${names.translation} is valid for Python but msgfmt 0.21 refuses it (${theirs.reason}), so ` +
    `msgfmt -c fails: write the fields as the original does`;
}

function run(language: Language, context: EntryContext): string[] {
  const index = FORMAT_LANGUAGES.indexOf(language.flag);
  const kind = context.flags.formats[index];
  if (kind !== "yes" && kind !== "possible") return [];
  const m = context.message;
  const originalText = m.msgidPlural ?? m.msgid;
  const original = language.parse(originalText, false);
  if (original instanceof InvalidFormat) return [];
  sources.set(original, originalText);
  const originalName = m.msgidPlural !== null ? "msgid_plural" : "msgid";
  const out: string[] = [];
  for (const p of context.pairs) {
    const translation = language.parse(p.translation, true);
    if (!(translation instanceof InvalidFormat)) sources.set(translation, p.translation);
    if (translation instanceof InvalidFormat) {
      out.push(
        `${p.translationName} is not a valid ${language.pretty} format string: ${translation.reason} ` +
          `(${language.hint})`,
      );
      continue;
    }
    const message = language.compare(original, translation, context.strictForm(p.form), {
      original: originalName,
      translation: p.translationName,
    });
    if (message !== null) out.push(message);
  }
  return out;
}

/** The format family. */
export const FORMAT_CHECKS: EntryCheck[] = /* @__PURE__ */ LANGUAGES.map((language) => ({
  name: language.check,
  severity: "error" as const,
  defaultOn: true,
  description: `On entries flagged ${language.flag}-format: msgstr keeps the placeholders of msgid ` +
    `(as msgfmt --check-format).`,
  run: (context: EntryContext) => run(language, context),
}));
