/**
 * Qt's `QString::arg` strings, as gettext 0.21's format-qt.c reads them: `%0` … `%99`, optionally
 * `%L1` (localised). Every string is valid. A string is "simple" without `L` and two-digit
 * numbers; a simple msgid's msgstr must be simple too, and the arguments used must be the same
 * (Qt warns "Argument missing" at run time), whatever the plural form.
 *
 * @module
 */
import type { FieldNames, FormatSpec } from "./_format_common.ts";
import type { FormatLanguage } from "./_format_numbered.ts";

interface QtSpec extends FormatSpec {
  simple: boolean;
  used: Map<number, string>;
}

/** Parses a Qt format string (format-qt.c's format_parse). */
export function parseQtFormat(s: string): QtSpec {
  const used = new Map<number, string>();
  let simple = true;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    let locale = false;
    if (s[i] === "L") {
      locale = true;
      i++;
    }
    if (s[i]! >= "0" && s[i]! <= "9") {
      if (locale) simple = false;
      let number = Number(s[i]);
      if (s[i + 1]! >= "0" && s[i + 1]! <= "9") {
        number = 10 * number + Number(s[i + 1]);
        simple = false;
        i++;
      }
      i++;
      if (!used.has(number)) used.set(number, s.slice(start, i));
    }
  }
  return { named: new Map(), positional: [], simple, used };
}

function compareQt(a: FormatSpec, b: FormatSpec, _strict: boolean, names: FieldNames): string | null {
  const x = a as QtSpec;
  const y = b as QtSpec;
  if (x.simple && !y.simple) {
    return `${names.original} is a simple format string, but ${names.translation} is not: it has an L flag or a ` +
      `two-digit argument number`;
  }
  const top = Math.max(-1, ...x.used.keys(), ...y.used.keys());
  for (let k = 0; k <= top; k++) {
    if (x.used.has(k) === y.used.has(k)) continue;
    return x.used.has(k)
      ? `${names.translation} lacks argument ${k} (${
        x.used.get(k)
      } in ${names.original}): keep every placeholder ` +
        `(Qt warns "Argument missing")`
      : `${names.translation} has ${y.used.get(k)} for argument ${k}, which ${names.original} does not have`;
  }
  return null;
}

/** qt-format. */
export const QT_FORMAT: FormatLanguage = {
  flag: "qt",
  pretty: "Qt",
  parse: parseQtFormat,
  compare: compareQt,
  hint: "write the arguments as %1, %2, …",
};
