/**
 * PHP's `sprintf` strings, as gettext 0.21's format-php.c reads them: `%%`, or `%` [`N$`] flags
 * (`0`, `-`, ` `, `'c`) [width] [`.` precision] [`l`] conversion (`b d u o x X`: integer, `e f`:
 * float, `c`, `s`); `N$` and unnumbered directives may mix (an unnumbered one takes the next
 * number among the unnumbered).
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
  b: "integer",
  d: "integer",
  u: "integer",
  o: "integer",
  x: "integer",
  X: "integer",
  e: "float",
  f: "float",
  c: "character",
  s: "string",
};

/** Parses a PHP format string (format-php.c's format_parse). */
export function parsePhpFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let directives = 0;
  let unnumbered = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    if (s[i] !== "%") {
      let number = ++unnumbered;
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
          unnumbered--;
        }
      }
      for (;;) {
        if (s[i] === "0" || s[i] === "-" || s[i] === " ") i++;
        else if (s[i] === "'") {
          i++;
          if (i >= s.length) return new InvalidFormat(`the directive ${s.slice(start)} is not finished`);
          i++;
        } else break;
      }
      while (isDigit(s[i])) i++;
      if (s[i] === ".") {
        i++;
        if (isDigit(s[i])) { while (isDigit(s[i])) i++; }
        else i--; // format-php.c: a "." without digits is then read as the conversion, and refused
      }
      if (s[i] === "l") i++;
      const c = s[i];
      const type = c === undefined ? undefined : TYPES[c];
      if (type === undefined) {
        return new InvalidFormat(
          i >= s.length
            ? `the directive ${s.slice(start)} is not finished`
            : `in directive ${directives}, "${c}" is not a valid conversion (${s.slice(start, i + 1)})`,
        );
      }
      args.push({ number, type, text: s.slice(start, i + 1) });
    }
    i++;
  }
  return numberedSpec(args);
}

/** php-format. */
export const PHP_FORMAT: FormatLanguage = {
  flag: "php",
  pretty: "PHP",
  parse: parsePhpFormat,
  compare: (a, b, strict, names) => compareNumbered(a, b, strict, names),
  hint: "write %% for a literal percent sign",
};
