/**
 * JavaScript format strings as gettext 0.21's format-javascript.c reads them (Gjs/Node `format`):
 * `%` [`N$`] flags (`-+ 0I`) [width] [`.` precision] conversion (`%`, `c`, `s`, `b d o x X`:
 * integer, `f`: float, `j`: any); `N$` and unnumbered directives do not mix. Its format_check lets
 * `j` stand for any type when the comparison is not strict (and, as gettext's, looks at the msgstr
 * argument at msgid's index for that: reproduced).
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import {
  compareNumbered,
  type FormatLanguage,
  isDigit,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
} from "./_format_numbered.ts";

const TYPES: Record<string, string> = {
  "%": "",
  c: "character",
  s: "string",
  b: "integer",
  d: "integer",
  o: "integer",
  x: "integer",
  X: "integer",
  f: "float",
  j: "any",
};

/** Parses a JavaScript format string (format-javascript.c's format_parse). */
export function parseJavaScriptFormat(s: string): NumberedSpec | InvalidFormat {
  const numbered: NumberedArg[] = [];
  const unnumbered: NumberedArg[] = [];
  let directives = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    let number = 0;
    if (isDigit(s[i])) {
      let f = i;
      let m = 0;
      while (isDigit(s[f])) m = Math.min(10 * m + Number(s[f++]), 2 ** 32);
      if (s[f] === "$") {
        if (m === 0) {
          return new InvalidFormat(
            `in directive ${directives}, the argument number 0 is not a positive integer`,
          );
        }
        number = m;
        i = f + 1;
      }
    }
    while ("-+ 0I".includes(s[i] ?? "x")) i++;
    while (isDigit(s[i])) i++;
    if (s[i] === ".") {
      i++;
      while (isDigit(s[i])) i++;
    }
    const c = s[i];
    const type = c === undefined ? undefined : TYPES[c];
    if (type === undefined) {
      return new InvalidFormat(
        i >= s.length
          ? `the directive ${s.slice(start)} is not finished`
          : `in directive ${directives}, "${c}" is not a valid conversion (${s.slice(start, i + 1)})`,
      );
    }
    if (type !== "") {
      const text = s.slice(start, i + 1);
      if (number > 0) {
        if (unnumbered.length > 0) {
          return new InvalidFormat("the string mixes numbered and unnumbered arguments");
        }
        numbered.push({ number, type, text });
      } else {
        if (numbered.length > 0) {
          return new InvalidFormat("the string mixes numbered and unnumbered arguments");
        }
        unnumbered.push({ number: unnumbered.length + 1, type, text });
      }
    }
    i++;
  }
  return unnumbered.length > 0
    ? { named: new Map(), positional: [], numbered: unnumbered }
    : numberedSpec(numbered);
}

/** javascript-format. */
export const JAVASCRIPT_FORMAT: FormatLanguage = {
  flag: "javascript",
  pretty: "JavaScript",
  parse: parseJavaScriptFormat,
  compare: (a, b, strict, names) =>
    compareNumbered(a, b, strict, names, (x, y, i) =>
      x.type === y.type ||
      (!strict && (x.type === "any" || (b as NumberedSpec).numbered[i]?.type === "any"))),
  hint: "write %% for a literal percent sign",
};
