/**
 * Boost.Format strings, as gettext 0.21's format-boost.c reads them: `%%`; `%N%` (argument N, any
 * type); `%` or `%|…|` [`N$`] flags (` +-#0'_=hl`) [width: digits, `*`, `*N$`] [`.` precision]
 * [size `h l L`] conversion (`c C`, `s S`: any, `i d o u x X`, `e E f g G`, `p`, `t`, `Tc`, `n`).
 * Numbered and unnumbered arguments do not mix.
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
} from "./_format_numbered.ts";

const MIXES = "the string mixes numbered and unnumbered arguments";

/** A number written from `at` followed by `$`: [number, index after the `$`], or null. */
function dollarNumber(s: string, at: number): [number, number] | null {
  if (!isDigit(s[at])) return null;
  let f = at;
  let m = 0;
  while (isDigit(s[f])) m = Math.min(10 * m + Number(s[f++]), 2 ** 32);
  return s[f] === "$" ? [m, f + 1] : null;
}

/** Parses a Boost format string (format-boost.c's format_parse). */
export function parseBoostFormat(s: string): NumberedSpec | InvalidFormat {
  const numbered: NumberedArg[] = [];
  const unnumbered: NumberedArg[] = [];
  let directives = 0;
  let i = 0;
  const add = (number: number, type: string, text: string): InvalidFormat | null => {
    if (number > 0) {
      if (unnumbered.length > 0) return new InvalidFormat(MIXES);
      numbered.push({ number, type, text });
    } else {
      if (numbered.length > 0) return new InvalidFormat(MIXES);
      unnumbered.push({ number: unnumbered.length + 1, type, text });
    }
    return null;
  };
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    directives++;
    if (s[i] === "%") {
      i++;
      continue;
    }
    let brackets = false;
    let done = false;
    let number = 0;
    let type = "";
    if (s[i] === "|") {
      i++;
      brackets = true;
    }
    if (isDigit(s[i]) && s[i] !== "0") {
      let f = i;
      let m = 0;
      while (isDigit(s[f])) m = Math.min(10 * m + Number(s[f++]), 2 ** 32);
      if ((!brackets && s[f] === "%") || s[f] === "$") {
        number = m;
        if (s[f] === "%") {
          type = "any";
          done = true;
        }
        i = f + 1;
      }
    }
    if (!done) {
      while (" +-#0'_=hl".includes(s[i] ?? "x")) i++;
      if (s[i] === "*") {
        i++;
        const n = dollarNumber(s, i);
        if (n !== null) {
          if (n[0] === 0) {
            return new InvalidFormat(`in directive ${directives}, the width's argument number is 0`);
          }
          i = n[1];
        }
        const bad = add(n !== null ? n[0] : 0, "integer", s.slice(start, i));
        if (bad) return bad;
      } else while (isDigit(s[i])) i++;
      if (s[i] === ".") {
        i++;
        if (s[i] === "*") {
          i++;
          const n = dollarNumber(s, i);
          if (n !== null) {
            if (n[0] === 0) {
              return new InvalidFormat(`in directive ${directives}, the precision's argument number is 0`);
            }
            i = n[1];
          }
          const bad = add(n !== null ? n[0] : 0, "integer", s.slice(start, i));
          if (bad) return bad;
        } else while (isDigit(s[i])) i++;
      }
      while (s[i] === "h" || s[i] === "l" || s[i] === "L") i++;
      const c = s[i++];
      switch (c) {
        case "c":
        case "C":
          type = "character";
          break;
        case "s":
        case "S":
          type = "any";
          break;
        case "i":
        case "d":
        case "o":
        case "u":
        case "x":
        case "X":
          type = "integer";
          break;
        case "e":
        case "E":
        case "f":
        case "g":
        case "G":
          type = "double";
          break;
        case "p":
          type = "pointer";
          break;
        case "t":
        case "n":
          type = "";
          break;
        case "T":
          if (i >= s.length) return new InvalidFormat(`the directive ${s.slice(start)} is not finished`);
          i++;
          type = "";
          break;
        default:
          if (c === "|" && brackets) {
            i--;
            type = "any";
            break;
          }
          i--;
          return new InvalidFormat(
            i >= s.length
              ? `the directive ${s.slice(start)} is not finished`
              : `in directive ${directives}, "${s[i]}" is not a valid conversion (${s.slice(start, i + 1)})`,
          );
      }
      if (brackets) {
        if (s[i] !== "|") {
          return new InvalidFormat(
            i >= s.length
              ? `the directive ${s.slice(start)} is not finished`
              : `directive ${directives} starts with | but does not end with |`,
          );
        }
        i++;
      }
    }
    if (type !== "") {
      const bad = add(number, type, s.slice(start, i));
      if (bad) return bad;
    }
  }
  if (unnumbered.length > 0) return { named: new Map(), positional: [], numbered: unnumbered };
  // Duplicates merged as format-boost.c does: "any" gives way to the other type.
  const sorted = numbered.sort((a, b) => a.number - b.number);
  const out: NumberedArg[] = [];
  for (const arg of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.number === arg.number) {
      if (arg.type === last.type || last.type === "any") last.type = arg.type;
      else if (arg.type !== "any") {
        return new InvalidFormat(
          `the directives ${last.text} and ${arg.text} use argument ${arg.number} with incompatible types`,
        );
      }
      continue;
    }
    out.push({ ...arg });
  }
  return { named: new Map(), positional: [], numbered: out };
}

/** boost-format. */
export const BOOST_FORMAT: FormatLanguage = {
  flag: "boost",
  pretty: "Boost",
  parse: parseBoostFormat,
  compare: (a, b, strict, names) => compareNumbered(a, b, strict, names),
  hint: "write %% for a literal percent sign",
};
