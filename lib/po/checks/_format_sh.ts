/**
 * Shell format strings (`envsubst`, `eval_gettext`), as gettext 0.21's format-sh.c reads them:
 * `$name` or `${name}` (ASCII letters, digits and `_`, not starting with a digit); `${x:-y}`,
 * `$1`, `$?`, a `$` at the end or before a non-name character make the string invalid. Named
 * arguments: msgstr may not add one; it must keep all of msgid's when the comparison is strict.
 *
 * @module
 */
import { type FieldNames, type FormatSpec, InvalidFormat } from "./_format_common.ts";
import type { FormatLanguage } from "./_format_numbered.ts";

const isAscii = (c: string) => c.charCodeAt(0) < 0x80;
const isAlpha = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);
const isAlnum = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9]$/.test(c);

/** Parses a shell format string (format-sh.c's format_parse). */
export function parseShFormat(s: string): FormatSpec | InvalidFormat {
  const named = new Map<string, { type: string; text: string }>();
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "$") continue;
    const start = i - 1;
    let name: string;
    if (s[i] === "{") {
      const nameStart = ++i;
      for (; i < s.length; i++) {
        const c = s[i]!;
        if (c === "}") break;
        if (!isAscii(c)) {
          return new InvalidFormat("the string refers to a shell variable with a non-ASCII name");
        }
        if (i > nameStart && "-=+?:".includes(c)) {
          return new InvalidFormat("the string refers to a shell variable with complex shell brace syntax");
        }
        if (!(isAlnum(c) || c === "_") || (i === nameStart && c >= "0" && c <= "9")) {
          return new InvalidFormat(
            "the string refers to a shell variable whose value may be different inside shell functions",
          );
        }
      }
      if (i >= s.length) return new InvalidFormat(`the directive ${s.slice(start)} is not finished`);
      name = s.slice(nameStart, i++);
      if (name === "") return new InvalidFormat("the string refers to a shell variable with an empty name");
    } else if (isAlpha(s[i]) || s[i] === "_") {
      const nameStart = i;
      do i++; while (i < s.length && (isAlnum(s[i]) || s[i] === "_"));
      name = s.slice(nameStart, i);
    } else if (i < s.length) {
      return new InvalidFormat(
        isAscii(s[i]!)
          ? "the string refers to a shell variable whose value may be different inside shell functions"
          : "the string refers to a shell variable with a non-ASCII name",
      );
    } else return new InvalidFormat("the string ends in the middle of a directive ($)");
    if (!named.has(name)) named.set(name, { type: "", text: s.slice(start, i) });
  }
  return { named, positional: [] };
}

function compareSh(a: FormatSpec, b: FormatSpec, strict: boolean, names: FieldNames): string | null {
  // format_check walks both sorted name lists: the first difference in byte order is reported.
  const all = [...new Set([...a.named.keys(), ...b.named.keys()])].sort((
    x,
    y,
  ) => (x < y ? -1 : x > y ? 1 : 0));
  for (const name of all) {
    const inA = a.named.get(name);
    const inB = b.named.get(name);
    if (inA === undefined) {
      return `${names.translation} has ${inB!.text}, which ${names.original} does not have: ` +
        `use only ${names.original}'s variables`;
    }
    if (inB === undefined && strict) {
      return `${names.translation} lacks ${inA.text} of ${names.original}: keep every variable`;
    }
  }
  return null;
}

/** sh-format. */
export const SH_FORMAT: FormatLanguage = {
  flag: "sh",
  pretty: "shell",
  parse: parseShFormat,
  compare: compareSh,
  hint: "write only $name or ${name}",
};
