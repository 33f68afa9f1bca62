/**
 * `python-format` (`%s`, `%(name)s`, `%%`): the arguments of a string as gettext 0.21's
 * format-python.c reads them, and msgfmt's comparison of msgid and msgstr (named arguments may
 * move and, in a relaxed plural form, be left out; unnamed ones keep their number and order).
 *
 * @module
 */
import {
  emptySpec,
  type FieldNames,
  type FormatArgument,
  type FormatSpec,
  InvalidFormat,
  listDirectives,
} from "./_format_common.ts";
import { conversions, skipDigits } from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({
  character: "c",
  string: "sr",
  integer: "iduoxX",
  float: "eEfgG",
});

/**
 * Parses a Python `%` format string; one left-to-right pass.
 *
 * @example
 * ```ts
 * parsePythonFormat("%(n)d files in %(dir)s"); // named: n (integer), dir (string)
 * ```
 */
export function parsePythonFormat(s: string): FormatSpec | InvalidFormat {
  const spec = emptySpec();
  let directive = 0;
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    const start = i - 1;
    directive++;
    let name: string | null = null;
    if (s[i] === "(") {
      let depth = 0;
      const nameStart = ++i;
      for (; i < n; i++) {
        if (s[i] === "(") depth++;
        else if (s[i] === ")") {
          if (depth === 0) break;
          depth--;
        }
      }
      if (i >= n) {
        return new InvalidFormat(`directive ${directive} (${s.slice(start, start + 20)}…) is not closed`);
      }
      name = s.slice(nameStart, i);
      i++;
    }
    while (i < n && "-+ #0".includes(s[i]!)) i++;
    if (s[i] === "*") {
      i++;
      if (spec.named.size > 0) return mixes();
      spec.positional.push({ type: "integer", text: "*" });
    } else i = skipDigits(s, i);
    if (s[i] === ".") {
      i++;
      if (s[i] === "*") {
        i++;
        if (spec.named.size > 0) return mixes();
        spec.positional.push({ type: "integer", text: ".*" });
      } else i = skipDigits(s, i);
    }
    if (s[i] === "h" || s[i] === "l" || s[i] === "L") i++;
    if (i >= n) return new InvalidFormat(`directive ${directive} (${s.slice(start)}) is not finished`);
    const c = s.charAt(i); // i < n
    const text = s.slice(start, i + 1);
    i++;
    if (c === "%") {
      if (name === null) continue;
    } else if (!TYPES.has(c)) {
      return new InvalidFormat(`in directive ${directive}, "${c}" is not a valid conversion (${text})`);
    }
    const type = c === "%" ? "none" : TYPES.get(c)!; // checked just above
    if (name !== null) {
      if (spec.positional.length > 0) return mixes();
      const before = spec.named.get(name);
      if (before !== undefined && before.type !== type) {
        return new InvalidFormat(`the string uses the argument named "${name}" in incompatible ways`);
      }
      spec.named.set(name, { type, text });
    } else {
      if (spec.named.size > 0) return mixes();
      spec.positional.push({ type, text });
    }
  }
  return spec;
}

function mixes(): InvalidFormat {
  return new InvalidFormat("the string mixes named (%(name)s) and unnamed (%s) placeholders");
}

/**
 * Compares msgid's and a msgstr's arguments as msgfmt does; returns a message for the translator,
 * or null when they fit. `strict`: every argument of the original must be kept.
 */
export function comparePythonFormat(
  original: FormatSpec,
  translation: FormatSpec,
  strict: boolean,
  names: FieldNames,
): string | null {
  const { translation: t } = names;
  if (original.named.size > 0 && translation.positional.length > 0) {
    return `${t} uses unnamed placeholders (${listDirectives(translation.positional)}) where the original ` +
      `uses named ones (${listDirectives([...original.named.values()])}): keep the names`;
  }
  if (original.positional.length > 0 && translation.named.size > 0) {
    return `${t} uses named placeholders (${listDirectives([...translation.named.values()])}) where the ` +
      `original uses unnamed ones (${listDirectives(original.positional)}): keep them as they are`;
  }
  for (const [name, arg] of [...translation.named].sort(byName)) {
    const there = original.named.get(name);
    if (there === undefined) {
      return `${t} has the placeholder ${arg.text}, which the original does not have: ` +
        `the program would fail (KeyError); use only the original's placeholders`;
    }
  }
  if (strict) {
    for (const [name, arg] of [...original.named].sort(byName)) {
      if (!translation.named.has(name)) {
        return `${t} lacks the placeholder ${arg.text} of the original: keep it (its place may change)`;
      }
    }
  }
  for (const [name, arg] of [...translation.named].sort(byName)) {
    const there = original.named.get(name)!;
    if (there.type !== arg.type) {
      return `${t} has ${arg.text} where the original has ${there.text}: keep the conversion letter`;
    }
  }
  const a = original.positional;
  const b = translation.positional;
  if (a.length !== b.length) {
    return `${t} has ${b.length} unnamed placeholder${b.length === 1 ? "" : "s"}` +
      `${b.length > 0 ? ` (${listDirectives(b)})` : ""} but the original has ${a.length} ` +
      `(${listDirectives(a)}): keep each one, in the same order`;
  }
  for (let k = 0; k < b.length; k++) {
    if (a[k]!.type !== b[k]!.type) {
      return `placeholder ${k + 1} is ${b[k]!.text} in ${t} but ${a[k]!.text} in the original: unnamed ` +
        `placeholders must keep their order and conversion`;
    }
  }
  return null;
}

function byName(x: [string, FormatArgument], y: [string, FormatArgument]): number {
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
}
