/**
 * Boost.Format strings, as gettext 0.21's format-boost.c reads them: `%%`; `%N%` (argument N, any
 * type); `%` or `%|…|` [`N$`] flags (` +-#0'_=hl`) [width: digits, `*`, `*N$`] [`.` precision]
 * [size `h l L`] conversion (`c C`, `s S`: any, `i d o u x X`, `e E f g G`, `p`, `t`, `Tc`, `n`).
 * Numbered and unnumbered arguments do not mix.
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import { type NumberedSpec, percentLanguage, UnmixedArgs } from "./_format_numbered.ts";
import {
  badConversion,
  conversions,
  conversionType,
  dollarNumber,
  isDigit,
  readNumber,
  skipDigits,
  unfinished,
} from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({
  character: "cC",
  any: "sS",
  integer: "idouxX",
  double: "eEfgG",
  pointer: "p",
  "": "tn",
});

/** Parses a Boost format string (format-boost.c's format_parse). */
export function parseBoostFormat(s: string): NumberedSpec | InvalidFormat {
  const args = new UnmixedArgs();
  let directives = 0;
  let i = 0;
  /** A `*` [`N$`] at `i`: the width or precision is an integer argument. */
  const star = (start: number, part: string): InvalidFormat | null => {
    const n = dollarNumber(s, ++i);
    if (n !== null) {
      if (n[0] === 0) {
        return new InvalidFormat(`in directive ${directives}, the ${part}'s argument number is 0`);
      }
      i = n[1];
    }
    return args.add(n !== null ? n[0] : 0, "integer", s.slice(start, i));
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
      const [m, f] = readNumber(s, i);
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
        const bad = star(start, "width");
        if (bad) return bad;
      } else i = skipDigits(s, i);
      if (s[i] === ".") {
        i++;
        if (s[i] === "*") {
          const bad = star(start, "precision");
          if (bad) return bad;
        } else i = skipDigits(s, i);
      }
      while (s[i] === "h" || s[i] === "l" || s[i] === "L") i++;
      if (s[i] === "T") {
        if (++i >= s.length) return unfinished(s, start);
        i++;
        type = "";
      } else if (s[i] === "|" && brackets) type = "any";
      else {
        const conversion = conversionType(TYPES, s, i);
        if (conversion === undefined) return badConversion(s, start, i, directives);
        type = conversion;
        i++;
      }
      if (brackets) {
        if (s[i] !== "|") {
          return i >= s.length
            ? unfinished(s, start)
            : new InvalidFormat(`directive ${directives} starts with | but does not end with |`);
        }
        i++;
      }
    }
    if (type !== "") {
      const bad = args.add(number, type, s.slice(start, i));
      if (bad) return bad;
    }
  }
  // Duplicates merged as format-boost.c does: "any" gives way to the other type.
  return args.spec((x, y) => x === y || x === "any" ? y : y === "any" ? x : null);
}

/** boost-format. */
export const BOOST_FORMAT = /* @__PURE__ */ percentLanguage("boost", "Boost", parseBoostFormat);
