/**
 * `c-format` (`%d`, `%2$s`, `%<PRId64>`): the arguments of a printf string as gettext 0.21's
 * format-c-parse.h reads them, and msgfmt's comparison (argument by argument, by number: `%2$s
 * %1$d` may reorder `%d %s`; the type, size modifiers included, must stay; in a relaxed plural
 * form trailing arguments may be left out).
 *
 * @module
 */
import { type FieldNames, type FormatArgument, type FormatSpec, InvalidFormat } from "./_format_common.ts";
import { isDigit } from "./_format_scan.ts";

const SIZES = "hlLqjzZt";

/** The argument type of a conversion with its size letters, or null for one that takes none. */
function typeOf(conversion: string, size: string): string | null {
  // `q` and `L` are `ll` for integers; `Z` is `z`; a size on %s/%c means the wide variant.
  const norm = size.replace(/q|L/g, "ll").replace(/Z/g, "z").replace(/lll+/g, "ll");
  switch (conversion) {
    case "%":
    case "m":
      return null;
    case "c":
      return size.includes("l") ? "wide character" : "character";
    case "C":
      return "wide character";
    case "s":
      return size.includes("l") ? "wide string" : "string";
    case "S":
      return "wide string";
    case "d":
    case "i":
      return `${norm} signed integer`.trim();
    case "o":
    case "u":
    case "x":
    case "X":
      return `${norm} unsigned integer`.trim();
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G":
    case "a":
    case "A":
      return size.includes("L") ? "long double" : "double";
    case "p":
      return "pointer";
    case "n":
      return `${norm} count pointer`.trim();
    default:
      return "";
  }
}

/**
 * Parses a printf format string; one left-to-right pass. Arguments are numbered 1..n whether the
 * string numbers them (`%2$s`) or not; numbered and unnumbered ones may not mix, and no number may
 * be skipped.
 *
 * @example
 * ```ts
 * parseCFormat("%2$s has %1$d files"); // positional: [signed integer, string]
 * ```
 */
export function parseCFormat(s: string, translated: boolean): FormatSpec | InvalidFormat {
  const byNumber = new Map<number, FormatArgument>();
  let unnumbered = 0;
  let numbered = 0;
  let directive = 0;
  const n = s.length;
  let i = 0;
  const take = (number: number, arg: FormatArgument): InvalidFormat | null => {
    if (number > 0 ? unnumbered > 0 : numbered > 0) {
      return new InvalidFormat("the string mixes numbered (%1$s) and unnumbered (%s) arguments");
    }
    let at = number;
    if (number > 0) numbered++;
    else at = ++unnumbered;
    const before = byNumber.get(at);
    if (before !== undefined && before.type !== arg.type) {
      return new InvalidFormat(`argument ${at} is used in incompatible ways (${before.text}, ${arg.text})`);
    }
    byNumber.set(at, arg);
    return null;
  };
  /** Reads a `m$` after a `*`; returns [number, index] (number 0 when there is none). */
  const argNumber = (k: number): [number, number] | InvalidFormat => {
    if (!isDigit(s[k])) return [0, k];
    let j = k;
    while (isDigit(s[j])) j++;
    if (s[j] !== "$") return [0, k];
    const value = Number(s.slice(k, Math.min(j, k + 9)));
    if (value === 0) return new InvalidFormat(`in directive ${directive}, argument number 0 is not allowed`);
    return [value, j + 1];
  };
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    const start = i - 1;
    directive++;
    const own = argNumber(i);
    if (own instanceof InvalidFormat) return own;
    i = own[1];
    for (;;) {
      const c = s[i];
      if (c === " " || c === "+" || c === "-" || c === "#" || c === "0" || c === "'") i++;
      else if (translated && c === "I") i++;
      else break;
    }
    for (const part of ["width", "precision"]) {
      if (part === "precision") {
        if (s[i] !== ".") break;
        i++;
      }
      if (s[i] === "*") {
        const star = argNumber(i + 1);
        if (star instanceof InvalidFormat) return star;
        i = star[1];
        const bad = take(star[0], { type: "signed integer", text: `* (${part} of directive ${directive})` });
        if (bad) return bad;
      } else while (isDigit(s[i])) i++;
    }
    let type: string | null;
    if (s[i] === "<") {
      // A macro name is short: looking further would make "%<%<%<…" quadratic.
      const rel = s.slice(i, i + 24).indexOf(">");
      const close = rel < 0 ? -1 : i + rel;
      const macro = close < 0 ? "" : s.slice(i + 1, close);
      const m = /^PRI([diouxX])(8|16|32|64|LEAST(?:8|16|32|64)|FAST(?:8|16|32|64)|MAX|PTR)$/.exec(macro);
      if (m === null) {
        return new InvalidFormat(`in directive ${directive}, "${s.slice(i, i + 12)}" is not a <PRI…> macro`);
      }
      type = `${m[2]} ${"di".includes(m[1]!) ? "signed" : "unsigned"} integer`;
      i = close;
    } else {
      const sizeStart = i;
      while (i < n && SIZES.includes(s[i]!)) i++;
      if (i >= n) return new InvalidFormat(`directive ${directive} (${s.slice(start)}) is not finished`);
      type = typeOf(s[i]!, s.slice(sizeStart, i));
      if (type === "") {
        return new InvalidFormat(
          `in directive ${directive}, "${s[i]}" is not a valid conversion (${s.slice(start, i + 1)})`,
        );
      }
    }
    const text = s.slice(start, i + 1);
    i++;
    if (type !== null) {
      const bad = take(own[0], { type, text });
      if (bad) return bad;
    }
  }
  const positional: FormatArgument[] = [];
  let count = unnumbered;
  for (const k of byNumber.keys()) if (k > count) count = k;
  for (let k = 1; k <= count; k++) {
    const arg = byNumber.get(k);
    if (arg === undefined) {
      return new InvalidFormat(`the string uses argument ${count} but skips argument ${k}`);
    }
    positional.push(arg);
  }
  return { named: new Map(), positional };
}

/**
 * Compares msgid's and a msgstr's arguments as msgfmt does; returns a message for the translator,
 * or null when they fit. `strict`: every argument of the original must be kept.
 */
export function compareCFormat(
  original: FormatSpec,
  translation: FormatSpec,
  strict: boolean,
  names: FieldNames,
): string | null {
  const a = original.positional;
  const b = translation.positional;
  const t = names.translation;
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    if (k >= a.length) {
      return `${t} has ${b[k]!.text} for argument ${k + 1}, which the original does not have ` +
        `(it has ${a.length}): the program would read memory it never passed`;
    }
    if (k >= b.length) {
      if (!strict) return null;
      return `${t} lacks argument ${k + 1} (${a[k]!.text} in the original): keep every placeholder; ` +
        `to change their order, number them (%1$s, %2$d)`;
    }
    if (a[k]!.type !== b[k]!.type) {
      return `argument ${k + 1} is ${b[k]!.text} in ${t} but ${a[k]!.text} in the original: ` +
        `keep its conversion and size (${a[k]!.type}); to change the order, number them (%2$s %1$d)`;
    }
  }
  return null;
}
