/**
 * Perl's `sprintf` strings, as gettext 0.21's format-perl.c reads them: `%%`, or `%` [`N$`] flags
 * (` +-#0`) [vector `v`, `*v`, `*N$v`] [width: digits, `*`, `*N$`] [`.` precision: digits, `*`,
 * `*N$`] [size `h l ll L q V I64 I32 I`] conversion (`c s _ D i d U O u b o x X e E f F g G p n`).
 * Numbered and unnumbered arguments may mix. A type is its class with its size (`%ld` is not
 * `%d`), as gettext compares them.
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import { type NumberedArg, type NumberedSpec, numberedSpec, percentLanguage } from "./_format_numbered.ts";
import { badConversion, conversions, conversionType, dollarNumber, skipDigits } from "./_format_scan.ts";

/** The conversions by type class; a class in {@link SIZED} takes the size before it (`long integer`). */
const TYPES = /* @__PURE__ */ conversions({
  "": "%",
  character: "c",
  string: "s",
  vector: "_",
  "V integer": "D",
  integer: "id",
  "V unsigned integer": "UO",
  "unsigned integer": "uboxX",
  double: "eEfFgG",
  pointer: "p",
  "count pointer": "n",
});
const SIZED = new Set(["integer", "unsigned integer", "double", "count pointer"]);

/** Parses a Perl format string (format-perl.c's format_parse). */
export function parsePerlFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let directives = 0;
  let unnumbered = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    let number = 0;
    let vectorize = false;
    const numbered = dollarNumber(s, i, true);
    if (numbered !== null) [number, i] = numbered;
    while (" +-#0".includes(s[i] ?? "x")) i++;
    const push = (n: number, type: string) => args.push({ number: n, type, text: s.slice(start, i) });
    if (s[i] === "v") {
      i++;
      vectorize = true;
    } else if (s[i] === "*") {
      if (s[i + 1] === "v") {
        i += 2;
        vectorize = true;
        push(++unnumbered, "vector");
      } else {
        const n = dollarNumber(s, i + 1, true);
        if (n !== null && s[n[1]] === "v") {
          i = n[1] + 1;
          vectorize = true;
          push(n[0], "vector");
        }
      }
    }
    if (vectorize) push(number !== 0 ? number : ++unnumbered, "vector");
    if (s[i] === "*") {
      i++;
      const n = dollarNumber(s, i, true);
      if (n !== null) i = n[1];
      push(n !== null ? n[0] : ++unnumbered, "integer");
    } else if (s[i] !== "0") i = skipDigits(s, i);
    if (s[i] === ".") {
      i++;
      if (s[i] === "*") {
        i++;
        const n = dollarNumber(s, i, true);
        if (n !== null) i = n[1];
        push(n !== null ? n[0] : ++unnumbered, "integer");
      } else i = skipDigits(s, i);
    }
    let size = "";
    if (s[i] === "h") {
      size = "short ";
      i++;
    } else if (s[i] === "l") {
      if (s[i + 1] === "l") {
        size = "long long ";
        i += 2;
      } else {
        size = "long ";
        i++;
      }
    } else if (s[i] === "L" || s[i] === "q") {
      size = "long long ";
      i++;
    } else if (s[i] === "V") {
      size = "V ";
      i++;
    } else if (s[i] === "I") {
      if (s[i + 1] === "6" && s[i + 2] === "4") {
        size = "long long ";
        i += 3;
      } else if (s[i + 1] === "3" && s[i + 2] === "2") i += 3;
      else {
        size = "pointer-sized ";
        i++;
      }
    }
    const base = conversionType(TYPES, s, i);
    if (base === undefined) return badConversion(s, start, i, directives);
    if (base === "double" && (size === "short " || size === "long ")) {
      return new InvalidFormat(
        `in directive ${directives}, the size is incompatible with the conversion "${s[i]}" (${
          s.slice(start, i + 1)
        })`,
      );
    }
    i++;
    if (base !== "" && !vectorize) {
      push(number !== 0 ? number : ++unnumbered, SIZED.has(base) ? size + base : base);
    }
  }
  return numberedSpec(args);
}

/** perl-format. */
export const PERL_FORMAT = /* @__PURE__ */ percentLanguage("perl", "Perl", parsePerlFormat);
