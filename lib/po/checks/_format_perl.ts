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
import {
  compareNumbered,
  type FormatLanguage,
  isDigit,
  type NumberedArg,
  type NumberedSpec,
  numberedSpec,
} from "./_format_numbered.ts";

const isNonZeroDigit = (c: string | undefined) => c !== undefined && c >= "1" && c <= "9";

/** A number written from `at` followed by `$`: [number, index after the `$`], or null. */
function dollarNumber(s: string, at: number): [number, number] | null {
  if (!isNonZeroDigit(s[at])) return null;
  let f = at;
  let m = 0;
  while (isDigit(s[f])) m = Math.min(10 * m + Number(s[f++]), 2 ** 32);
  return s[f] === "$" ? [m, f + 1] : null;
}

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
    const numbered = dollarNumber(s, i);
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
        const n = dollarNumber(s, i + 1);
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
      const n = dollarNumber(s, i);
      if (n !== null) i = n[1];
      push(n !== null ? n[0] : ++unnumbered, "integer");
    } else if (isNonZeroDigit(s[i])) { while (isDigit(s[i])) i++; }
    if (s[i] === ".") {
      i++;
      if (s[i] === "*") {
        i++;
        const n = dollarNumber(s, i);
        if (n !== null) i = n[1];
        push(n !== null ? n[0] : ++unnumbered, "integer");
      } else while (isDigit(s[i])) i++;
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
    const c = s[i];
    let type: string | null;
    switch (c) {
      case "%":
        type = null;
        break;
      case "c":
        type = "character";
        break;
      case "s":
        type = "string";
        break;
      case "_":
        type = "vector";
        break;
      case "D":
        type = "V integer";
        break;
      case "i":
      case "d":
        type = `${size}integer`;
        break;
      case "U":
      case "O":
        type = "V unsigned integer";
        break;
      case "u":
      case "b":
      case "o":
      case "x":
      case "X":
        type = `${size}unsigned integer`;
        break;
      case "e":
      case "E":
      case "f":
      case "F":
      case "g":
      case "G":
        if (size === "short " || size === "long ") {
          return new InvalidFormat(
            `in directive ${directives}, the size is incompatible with the conversion "${c}" (${
              s.slice(start, i + 1)
            })`,
          );
        }
        type = `${size}double`;
        break;
      case "p":
        type = "pointer";
        break;
      case "n":
        type = `${size}count pointer`;
        break;
      default:
        return new InvalidFormat(
          i >= s.length
            ? `the directive ${s.slice(start)} is not finished`
            : `in directive ${directives}, "${c}" is not a valid conversion (${s.slice(start, i + 1)})`,
        );
    }
    i++;
    if (type !== null && !vectorize) push(number !== 0 ? number : ++unnumbered, type);
  }
  return numberedSpec(args);
}

/** perl-format. */
export const PERL_FORMAT: FormatLanguage = {
  flag: "perl",
  pretty: "Perl",
  parse: parsePerlFormat,
  compare: (a, b, strict, names) => compareNumbered(a, b, strict, names),
  hint: "write %% for a literal percent sign",
};
