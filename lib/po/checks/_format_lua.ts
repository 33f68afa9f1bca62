/**
 * Lua's `string.format` strings, as gettext 0.21's format-lua.c reads them: `%%`, or `%` [width]
 * [`.` precision] conversion (`c`, `d i o u x X`: integer, `a A e E f g G`: float, `s`, `q`). The
 * arguments are taken in order, and format_check wants every one of msgid in msgstr, of the same
 * type, whatever the plural form.
 *
 * @module
 */
import type { InvalidFormat } from "./_format_common.ts";
import {
  extraArgument,
  missingArgument,
  type NumberedArg,
  type NumberedSpec,
  otherType,
  percentLanguage,
  specOf,
} from "./_format_numbered.ts";
import { badConversion, conversions, conversionType, skipWidthAndPrecision } from "./_format_scan.ts";

const TYPES = /* @__PURE__ */ conversions({
  character: "c",
  integer: "diouXx",
  float: "aAEefgG",
  string: "s",
  "escaped string": "q",
});

/** Parses a Lua format string (format-lua.c's format_parse). */
export function parseLuaFormat(s: string): NumberedSpec | InvalidFormat {
  const args: NumberedArg[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== "%") continue;
    const start = i - 1;
    if (s[i] !== "%") {
      i = skipWidthAndPrecision(s, i);
      const type = conversionType(TYPES, s, i);
      if (type === undefined) return badConversion(s, start, i, args.length + 1);
      args.push({ number: args.length + 1, type, text: s.slice(start, i + 1) });
    }
    i++;
  }
  return specOf(args);
}

/** lua-format: format-lua.c's format_check, argument by argument, strict whatever the form. */
export const LUA_FORMAT = /* @__PURE__ */ percentLanguage(
  "lua",
  "Lua",
  parseLuaFormat,
  (a, b, _strict, names) => {
    const x = (a as NumberedSpec).numbered;
    const y = (b as NumberedSpec).numbered;
    for (let i = 0; i < x.length || i < y.length; i++) {
      if (i >= x.length) return extraArgument(y[i]!, names);
      if (i >= y.length) return missingArgument(x[i]!, names);
      if (x[i]!.type !== y[i]!.type) return otherType(x[i]!, y[i]!, names);
    }
    return null;
  },
);
