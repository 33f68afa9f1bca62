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
  type NumberedSpec,
  percentLanguage,
  UnmixedArgs,
} from "./_format_numbered.ts";
import {
  argumentNumber,
  badConversion,
  conversions,
  conversionType,
  skipWidthAndPrecision,
} from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({
  "": "%",
  character: "c",
  string: "s",
  integer: "bdoxX",
  float: "f",
  any: "j",
});

/** Parses a JavaScript format string (format-javascript.c's format_parse). */
export function parseJavaScriptFormat(s: string): NumberedSpec | InvalidFormat {
  const args = new UnmixedArgs();
  let directives = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    let number = 0;
    const own = argumentNumber(s, i, directives);
    if (own instanceof InvalidFormat) return own;
    if (own !== null) [number, i] = own;
    while ("-+ 0I".includes(s[i] ?? "x")) i++;
    i = skipWidthAndPrecision(s, i);
    const type = conversionType(TYPES, s, i);
    if (type === undefined) return badConversion(s, start, i, directives);
    if (type !== "") {
      const bad = args.add(number, type, s.slice(start, i + 1));
      if (bad) return bad;
    }
    i++;
  }
  return args.spec();
}

/** javascript-format. */
export const JAVASCRIPT_FORMAT: FormatLanguage = /* @__PURE__ */ percentLanguage(
  "javascript",
  "JavaScript",
  parseJavaScriptFormat,
  (a, b, strict, names) =>
    compareNumbered(a, b, strict, names, {
      sameType: (x, y, i) =>
        x.type === y.type ||
        (!strict && (x.type === "any" || (b as NumberedSpec).numbered[i]?.type === "any")),
    }),
);
