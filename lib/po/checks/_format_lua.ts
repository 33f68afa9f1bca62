/**
 * Lua's `string.format` strings, as gettext 0.21's format-lua.c reads them: `%%`, or `%` [width]
 * [`.` precision] conversion (`c`, `d i o u x X`: integer, `a A e E f g G`: float, `s`, `q`). The
 * arguments are taken in order, and format_check wants every one of msgid in msgstr, of the same
 * type, whatever the plural form.
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";
import {
  extraArgument,
  type FormatLanguage,
  isDigit,
  missingArgument,
  type NumberedArg,
  type NumberedSpec,
  otherType,
} from "./_format_numbered.ts";

const TYPES: Record<string, string> = {
  c: "character",
  d: "integer",
  i: "integer",
  o: "integer",
  u: "integer",
  X: "integer",
  x: "integer",
  a: "float",
  A: "float",
  E: "float",
  e: "float",
  f: "float",
  g: "float",
  G: "float",
  s: "string",
  q: "escaped string",
};

/** Parses a Lua format string (format-lua.c's format_parse). */
export function parseLuaFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    if (s[i] !== "%") {
      while (isDigit(s[i])) i++;
      if (s[i] === ".") {
        i++;
        while (isDigit(s[i])) i++;
      }
      const c = s[i];
      const type = c === undefined ? undefined : TYPES[c];
      if (type === undefined) {
        return new InvalidFormat(
          i >= s.length
            ? `the directive ${s.slice(start)} is not finished`
            : `in directive ${args.length + 1}, "${c}" is not a valid conversion (${s.slice(start, i + 1)})`,
        );
      }
      args.push({ number: args.length + 1, type, text: s.slice(start, i + 1) });
    }
    i++;
  }
  return { named: new Map(), positional: [], numbered: args };
}

/** lua-format: format-lua.c's format_check, strict whatever the form. */
export const LUA_FORMAT: FormatLanguage = {
  flag: "lua",
  pretty: "Lua",
  parse: parseLuaFormat,
  compare: (a, b, _strict, names) => {
    const x = (a as NumberedSpec).numbered;
    const y = (b as NumberedSpec).numbered;
    for (let i = 0; i < x.length || i < y.length; i++) {
      if (i >= x.length) return extraArgument(y[i]!, names);
      if (i >= y.length) return missingArgument(x[i]!, names);
      if (x[i]!.type !== y[i]!.type) return otherType(x[i]!, y[i]!, names);
    }
    return null;
  },
  hint: "write %% for a literal percent sign",
};
