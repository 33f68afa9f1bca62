/**
 * What gettext's `%` format parsers (format-javascript.c, format-php.c, format-tcl.c, format-lua.c,
 * format-perl.c, format-boost.c, format-c-parse.h) read the same way: digits, an `N$` argument
 * number, a table of conversions by type class, and the reason a directive has no valid conversion.
 *
 * @module
 */
import { InvalidFormat } from "./_format_common.ts";

/** True for an ASCII digit. */
export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** The index after the digits at `at`. */
export function skipDigits(s: string, at: number): number {
  while (isDigit(s[at])) at++;
  return at;
}

/** Digits, then optionally `.` and digits (a width and a precision): the index after them. */
export function skipWidthAndPrecision(s: string, at: number): number {
  at = skipDigits(s, at);
  return s[at] === "." ? skipDigits(s, at + 1) : at;
}

/** The number written at `at` (capped at 2^32, as gettext's overflow guard) and the index after it. */
export function readNumber(s: string, at: number): [number, number] {
  let m = 0;
  while (isDigit(s[at])) m = Math.min(10 * m + Number(s[at++]), 2 ** 32);
  return [m, at];
}

/**
 * A number written from `at` and followed by `$`: [number, index after the `$`], or null.
 * `nonZero`: the first digit may not be 0 (format-perl.c reads a 0 there as a flag).
 */
export function dollarNumber(s: string, at: number, nonZero = false): [number, number] | null {
  if (!isDigit(s[at]) || (nonZero && s[at] === "0")) return null;
  const [m, f] = readNumber(s, at);
  return s[f] === "$" ? [m, f + 1] : null;
}

/** A directive's `N$` at `at`, as {@link dollarNumber}; `N` = 0 makes the string invalid. */
export function argumentNumber(
  s: string,
  at: number,
  directive: number,
): [number, number] | null | InvalidFormat {
  const own = dollarNumber(s, at);
  if (own !== null && own[0] === 0) {
    return new InvalidFormat(`in directive ${directive}, the argument number 0 is not a positive integer`);
  }
  return own;
}

/** The conversions of a language by letter, from the letters of each type class (`{ integer: "di" }`). */
export function conversions(byType: Record<string, string>): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const [type, letters] of Object.entries(byType)) for (const c of letters) out.set(c, type);
  return out;
}

/** The type class of the conversion at `s[i]`, or undefined when it is none of `table`'s. */
export function conversionType(table: ReadonlyMap<string, string>, s: string, i: number): string | undefined {
  const c = s[i];
  return c === undefined ? undefined : table.get(c);
}

/** A directive from `start` that ends before its conversion. */
export function unfinished(s: string, start: number): InvalidFormat {
  return new InvalidFormat(`the directive ${s.slice(start)} is not finished`);
}

/** Directive number `directive` (from `start`) has no valid conversion at `i` (or ends before one). */
export function badConversion(s: string, start: number, i: number, directive: number): InvalidFormat {
  return i >= s.length ? unfinished(s, start) : new InvalidFormat(
    `in directive ${directive}, "${s[i]}" is not a valid conversion (${s.slice(start, i + 1)})`,
  );
}
