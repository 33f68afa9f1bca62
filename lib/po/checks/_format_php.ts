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
  type FormatLanguage,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
  percentLanguage,
} from "./_format_numbered.ts";
import {
  argumentNumber,
  badConversion,
  conversions,
  conversionType,
  isDigit,
  skipDigits,
  unfinished,
} from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({ integer: "bduoxX", float: "ef", character: "c", string: "s" });

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
      let number: number;
      const own = argumentNumber(s, i, directives);
      if (own instanceof InvalidFormat) return own;
      if (own !== null) [number, i] = own;
      else number = ++unnumbered;
      for (;;) {
        if (s[i] === "0" || s[i] === "-" || s[i] === " ") i++;
        else if (s[i] === "'") {
          i++;
          if (i >= s.length) return unfinished(s, start);
          i++;
        } else break;
      }
      i = skipDigits(s, i);
      if (s[i] === ".") {
        i++;
        if (isDigit(s[i])) i = skipDigits(s, i);
        else i--; // format-php.c: a "." without digits is then read as the conversion, and refused
      }
      if (s[i] === "l") i++;
      const type = conversionType(TYPES, s, i);
      if (type === undefined) return badConversion(s, start, i, directives);
      args.push({ number, type, text: s.slice(start, i + 1) });
    }
    i++;
  }
  return numberedSpec(args);
}

/** php-format. */
export const PHP_FORMAT: FormatLanguage = /* @__PURE__ */ percentLanguage("php", "PHP", parsePhpFormat);
