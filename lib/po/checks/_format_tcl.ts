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
  compareNumbered,
  type FormatLanguage,
  isDigit,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
} from "./_format_numbered.ts";

function typeOf(c: string | undefined, short: boolean): string | null {
  switch (c) {
    case "c":
      return "character";
    case "s":
      return "string";
    case "i":
    case "d":
      return short ? "short integer" : "integer";
    case "u":
    case "o":
    case "x":
    case "X":
      return short ? "short unsigned integer" : "unsigned integer";
    case "e":
    case "E":
    case "f":
    case "g":
    case "G":
      return "float";
    default:
      return null;
  }
}

/** Parses a Tcl format string (format-tcl.c's format_parse). */
export function parseTclFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let directives = 0;
  let number = 1;
  let seenNumbered = false;
  let seenUnnumbered = false;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    if (s[i] !== "%") {
      let numbered = false;
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
          if (seenUnnumbered) return new InvalidFormat("the string mixes numbered and unnumbered arguments");
          numbered = true;
          seenNumbered = true;
        }
      }
      if (!numbered) {
        if (seenNumbered) return new InvalidFormat("the string mixes numbered and unnumbered arguments");
        seenUnnumbered = true;
      }
      while (" +-#0".includes(s[i] ?? "x")) i++;
      if (s[i] === "*") {
        i++;
        args.push({ number: number++, type: "integer", text: s.slice(start, i) });
      } else while (isDigit(s[i])) i++;
      if (s[i] === ".") {
        i++;
        if (s[i] === "*") {
          i++;
          args.push({ number: number++, type: "integer", text: s.slice(start, i) });
        } else while (isDigit(s[i])) i++;
      }
      let short = false;
      if (s[i] === "h") {
        short = true;
        i++;
      } else if (s[i] === "l") i++;
      const type = typeOf(s[i], short);
      if (type === null) {
        return new InvalidFormat(
          i >= s.length
            ? `the directive ${s.slice(start)} is not finished`
            : `in directive ${directives}, "${s[i]}" is not a valid conversion (${s.slice(start, i + 1)})`,
        );
      }
      args.push({ number: number++, type, text: s.slice(start, i + 1) });
    }
    i++;
  }
  return numberedSpec(args);
}

/** tcl-format. */
export const TCL_FORMAT: FormatLanguage = {
  flag: "tcl",
  pretty: "Tcl",
  parse: parseTclFormat,
  compare: (a, b, strict, names) => compareNumbered(a, b, strict, names),
  hint: "write %% for a literal percent sign",
};
