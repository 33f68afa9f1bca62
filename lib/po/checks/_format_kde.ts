/**
 * KDE's `i18n` strings, as gettext 0.21's format-kde.c reads them: `%1` … `%99` (any number of
 * digits, not starting with 0); the arguments used must be 1…n, or 1…n but one. A msgstr may not
 * add an argument; when the comparison is strict it must keep them all, otherwise it may leave out
 * one (KDE substitutes the number in a plural form).
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import {
  compareNumbered,
  type FormatLanguage,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
} from "./_format_numbered.ts";
import { readNumber } from "./_format_scan.ts";

/** Parses a KDE format string (format-kde.c's format_parse). */
export function parseKdeFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    if (s[i]! > "0" && s[i]! <= "9") {
      const start = i - 1;
      let number: number;
      [number, i] = readNumber(s, i);
      args.push({ number, type: "", text: s.slice(start, i) });
    }
  }
  const spec = numberedSpec(args) as NumberedSpec;
  const n = spec.numbered;
  for (let k = 0; k < n.length; k++) {
    if (n[k]!.number > k + 1) {
      const firstGap = k + 1;
      for (; k < n.length; k++) {
        if (n[k]!.number > k + 2) {
          return new InvalidFormat(
            `the string refers to argument number ${n[k]!.number} but ignores the arguments ${firstGap} and ${
              k + 2
            }`,
          );
        }
      }
      break;
    }
  }
  return spec;
}

/** kde-format: format-kde.c's format_check (one argument may be left out when not strict). */
export const KDE_FORMAT: FormatLanguage = {
  flag: "kde",
  pretty: "KDE",
  parse: parseKdeFormat,
  compare: (a, b, strict, names) => {
    let missing: NumberedArg | null = null;
    return compareNumbered(a, b, strict, names, {
      leftOut: (arg) => {
        if (missing !== null) {
          return `${names.translation} lacks ${missing.text} and ${arg.text} of ${names.original}: only one ` +
            `argument may be left out`;
        }
        missing = arg;
        return null;
      },
    });
  },
  hint: "write the arguments as %1, %2, …",
};
