/**
 * `python-brace-format` (`{0}`, `{name}`, `{name.attr:>10}`): the fields of a string as gettext
 * 0.21's format-python-brace.c reads them, and msgfmt's comparison (fields are compared by their
 * whole name, `0.x` and `a[1]` included; they may move; in a relaxed plural form some may be left
 * out). gettext 0.21 rejects `{}` and conversions (`!r`) that Python accepts: the checks read
 * strings as Python does ({@link parsePythonBraceFormat}), compare `{}` fields by count, and also
 * report a msgstr that msgfmt 0.21 would refuse where the msgid is one it accepts.
 *
 * @module
 */
import { emptySpec, type FieldNames, type FormatSpec, InvalidFormat } from "./_format_common.ts";

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_");
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** Index after an identifier or a number at `i`, or -1. */
function fieldEnd(s: string, i: number): number {
  if (isNameStart(s[i])) {
    i++;
    while (isNameStart(s[i]) || isDigit(s[i])) i++;
    return i;
  }
  if (!isDigit(s[i])) return -1;
  while (isDigit(s[i])) i++;
  return i;
}

/**
 * Parses a `str.format` string; one left-to-right pass (a nested field in a format spec is one
 * level deep at most, as in gettext).
 *
 * @example
 * ```ts
 * parseBraceFormat("{count} files in {0}"); // named: count, 0
 * ```
 */
export function parseBraceFormat(s: string): FormatSpec | InvalidFormat {
  const spec = emptySpec();
  let i = 0;
  let directive = 0;
  while (i < s.length) {
    if (s[i] !== "{") {
      i++;
      continue;
    }
    if (s[i + 1] === "{") {
      i += 2;
      continue;
    }
    directive++;
    const end = field(s, i, true, spec);
    if (typeof end === "string") return new InvalidFormat(`in directive ${directive}, ${end}`);
    i = end;
  }
  return spec;
}

/** Parses the field whose `{` is at `open`; returns the index after it, or why it is invalid. */
function field(s: string, open: number, toplevel: boolean, spec: FormatSpec): number | string {
  let i = open + 1;
  const nameStart = i;
  i = fieldEnd(s, i);
  if (i < 0) {
    return s[nameStart] === "}"
      ? "an empty field {} (gettext 0.21 wants a number or a name: {0})"
      : `"${s.slice(open, open + 12)}" does not start with a number or a name`;
  }
  for (;;) {
    if (s[i] === ".") {
      if (!isNameStart(s[i + 1])) return `an attribute name must follow "." in "${s.slice(open, i + 2)}"`;
      i = fieldEnd(s, i + 1);
    } else if (s[i] === "[") {
      const j = fieldEnd(s, i + 1);
      if (j < 0 || s[j] !== "]") {
        return `an index in [] must be a number or a name in "${s.slice(open, i + 4)}"`;
      }
      i = j + 1;
    } else break;
  }
  const name = s.slice(nameStart, i);
  if (s[i] === ":") {
    if (!toplevel) return `a nested field cannot have a format spec`;
    i++;
    if (s[i] === "{") {
      const end = field(s, i, false, spec);
      if (typeof end === "string") return end;
      i = end;
    } else {
      if (i >= s.length) return `"${s.slice(open)}" is not closed`;
      const c2 = s.charCodeAt(i) < 0x80 ? s[i + 1] : "";
      if (c2 === "<" || c2 === ">" || c2 === "=" || c2 === "^") i += 2;
      else if (s[i] === "<" || s[i] === ">" || s[i] === "=" || s[i] === "^") i++;
      if (s[i] === "+" || s[i] === "-" || s[i] === " ") i++;
      if (s[i] === "#") i++;
      if (s[i] === "0") i++;
      while (isDigit(s[i])) i++;
      if (s[i] === ".") {
        i++;
        while (isDigit(s[i])) i++;
      }
      if (i < s.length && "bcdoxXneEfFgG%".includes(s[i]!)) i++;
    }
  }
  if (s[i] !== "}") {
    return i >= s.length
      ? `"${s.slice(open, open + 20)}" is not closed with "}"`
      : `"${s.slice(open, i + 1)}" has "${s[i]}" where "}" should be`;
  }
  spec.named.set(name, { type: "", text: s.slice(open, i + 1) });
  return i + 1;
}

/**
 * Compares msgid's and a msgstr's fields as msgfmt does; returns a message for the translator, or
 * null when they fit. `strict`: every field of the original must be kept.
 */
export function compareBraceFormat(
  original: FormatSpec,
  translation: FormatSpec,
  strict: boolean,
  names: FieldNames,
): string | null {
  const t = names.translation;
  for (const name of [...translation.named.keys()].sort()) {
    if (!original.named.has(name)) {
      return `${t} has the field ${translation.named.get(name)!.text}, which the original does not have: ` +
        `the program would fail (KeyError or IndexError); use only the original's fields`;
    }
  }
  if (strict) {
    for (const name of [...original.named.keys()].sort()) {
      if (!translation.named.has(name)) {
        return `${t} lacks the field ${original.named.get(name)!.text} of the original: keep it ` +
          `(its place may change)`;
      }
    }
  }
  return null;
}

/** The fields of a string as Python's `str.format` reads them. */
export interface PythonBraceSpec extends FormatSpec {
  /** Automatically numbered fields (`{}`, `{!r}`, `{:>10}`), in order. */
  auto: string[];
}

/**
 * Parses a `str.format` string as Python does (a superset of what gettext 0.21 accepts): `{}`
 * numbered automatically, conversions `!r` `!s` `!a`, any format spec with nested `{field}`s, and
 * `{{`/`}}` escapes. A lone `}` is left as text, as gettext leaves it. One pass.
 *
 * @example
 * ```ts
 * parsePythonBraceFormat("{} of {name!r:>10}"); // auto: ["{}"], named: name
 * ```
 */
export function parsePythonBraceFormat(s: string): PythonBraceSpec | InvalidFormat {
  const spec: PythonBraceSpec = { ...emptySpec(), auto: [] };
  let manual = false;
  let i = 0;
  /** Reads a field at `open` ("{"); returns the index after it or why it is invalid. */
  const readField = (open: number, depth: number): number | string => {
    let j = open + 1;
    const nameStart = j;
    if (s[j] !== "}" && s[j] !== "!" && s[j] !== ":") {
      j = fieldEnd(s, j);
      if (j < 0) return `"${s.slice(open, open + 12)}" does not start with a number or a name`;
      for (;;) {
        if (s[j] === ".") {
          if (!isNameStart(s[j + 1])) return `an attribute name must follow "." in "${s.slice(open, j + 2)}"`;
          j = fieldEnd(s, j + 1);
        } else if (s[j] === "[") {
          // An index is short: looking further would make "{a[{a[{a[…" quadratic.
          const close = s.slice(j, j + 257).indexOf("]");
          if (close < 0) return `"[" is not closed in "${s.slice(open, j + 12)}"`;
          j += close + 1;
        } else break;
      }
    }
    const name = s.slice(nameStart, j);
    if (s[j] === "!") {
      if (!"rsa".includes(s[j + 1] ?? "x") || s[j + 1] === undefined) {
        return `"!${s[j + 1] ?? ""}" is not a conversion (!r, !s or !a) in "${s.slice(open, j + 3)}"`;
      }
      j += 2;
    }
    if (s[j] === ":") {
      j++;
      // The spec: any text up to the closing "}", with nested fields (one level deep in Python).
      while (j < s.length && s[j] !== "}") {
        if (s[j] === "{") {
          if (depth > 0) return `a format spec nests fields too deeply in "${s.slice(open, j + 8)}"`;
          const end = readField(j, depth + 1);
          if (typeof end === "string") return end;
          j = end;
        } else j++;
      }
    }
    if (s[j] !== "}") {
      return j >= s.length
        ? `"${s.slice(open, open + 20)}" is not closed with "}"`
        : `"${s.slice(open, j + 1)}" has "${s[j]}" where "}" should be`;
    }
    const text = s.slice(open, j + 1);
    if (name === "") {
      if (manual) return `${text} is numbered automatically after fields numbered by hand ({0})`;
      spec.auto.push(text);
    } else {
      const root = name.match(/^[0-9]+/);
      if (root !== null) {
        if (spec.auto.length > 0) {
          return `${text} is numbered by hand after fields numbered automatically ({})`;
        }
        manual = true;
      }
      spec.named.set(name, { type: "", text });
    }
    return j + 1;
  };
  while (i < s.length) {
    const c = s[i];
    if (c === "{") {
      if (s[i + 1] === "{") {
        i += 2;
        continue;
      }
      const end = readField(i, 0);
      if (typeof end === "string") return new InvalidFormat(end);
      i = end;
    } else if (c === "}" && s[i + 1] === "}") i += 2;
    else i++;
  }
  return spec;
}

/**
 * Compares msgid's and a msgstr's fields as Python would run them: named and numbered fields as
 * msgfmt compares them ({@link compareBraceFormat}), and the automatically numbered ones by count
 * (they take the arguments in order, so their number must not change).
 */
export function comparePythonBraceFormat(
  original: PythonBraceSpec,
  translation: PythonBraceSpec,
  strict: boolean,
  names: FieldNames,
): string | null {
  const named = compareBraceFormat(original, translation, strict, names);
  if (named !== null) return named;
  const a = original.auto.length;
  const b = translation.auto.length;
  if (b > a || (strict && b !== a)) {
    return `${names.translation} has ${b} field${
      b === 1 ? "" : "s"
    } {} numbered automatically, the original ` +
      `${a}: they take the arguments in order, keep each one`;
  }
  return null;
}
