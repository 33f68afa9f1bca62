/**
 * Tcl's `format` strings, as gettext 0.21's format-tcl.c reads them: `%%`, or `%` [`N$`] flags
 * (` +-#0`) width (digits or `*`) [`.` precision (digits or `*`)] [`h`|`l`] conversion (`c`, `s`,
 * `d i`, `u o x X`, `e E f g G`); `N$` and unnumbered directives do not mix; a `*` takes an integer
 * argument.
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import {
  mixes,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
  percentLanguage,
} from "./_format_numbered.ts";
import { argumentNumber, badConversion, conversions, conversionType, skipDigits } from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({
  character: "c",
  string: "s",
  integer: "id",
  "unsigned integer": "uoxX",
  float: "eEfgG",
});

/** Parses a Tcl format string (format-tcl.c's format_parse). */
export function parseTclFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let directives = 0;
  let number = 1;
  let seenNumbered = false;
  let seenUnnumbered = false;
  let i = 0;
  /** A width or precision at `i`: digits, or a `*` that takes the next argument, an integer. */
  const star = (start: number): void => {
    if (s[i] === "*") {
      i++;
      args.push({ number: number++, type: "integer", text: s.slice(start, i) });
    } else i = skipDigits(s, i);
  };
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    if (s[i] !== "%") {
      const own = argumentNumber(s, i, directives);
      if (own instanceof InvalidFormat) return own;
      if (own !== null ? seenUnnumbered : seenNumbered) return mixes();
      if (own !== null) {
        [number, i] = own;
        seenNumbered = true;
      } else seenUnnumbered = true;
      while (" +-#0".includes(s[i] ?? "x")) i++;
      star(start);
      if (s[i] === ".") {
        i++;
        star(start);
      }
      let short = false;
      if (s[i] === "h") {
        short = true;
        i++;
      } else if (s[i] === "l") i++;
      const type = conversionType(TYPES, s, i);
      if (type === undefined) return badConversion(s, start, i, directives);
      args.push({
        number: number++,
        type: short && type.endsWith("integer") ? `short ${type}` : type,
        text: s.slice(start, i + 1),
      });
    }
    i++;
  }
  return numberedSpec(args);
}

/** tcl-format. */
export const TCL_FORMAT = /* @__PURE__ */ percentLanguage("tcl", "Tcl", parseTclFormat);
