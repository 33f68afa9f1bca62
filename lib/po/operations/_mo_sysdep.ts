/**
 * Where msgfmt 0.21 splits a C-format string into system-dependent segments: the ISO C 99
 * `<inttypes.h>` directives (`%<PRIu32>`, `%<PRIdMAX>`…) and, in translations, glibc's `I` flag.
 * A port of gettext's `format-c-parse.h` (with the Objective-C extension on, as
 * `get_sysdep_c_format_directives` parses), on the encoded bytes as msgfmt parses them: a string
 * that is not a valid C format string has no segments at all, as there.
 *
 * One pass over the string, no backtracking: linear in its length.
 *
 * @module
 */

/** A directive's bytes `[start, end)`, `<` and `>` included. */
export interface SysdepInterval {
  start: number;
  end: number;
}

// Argument types, only to tell duplicates of a numbered argument apart (format-c-parse.h's FAT_*).
const INTEGER = 1, DOUBLE = 2, CHAR = 3, STRING = 4, OBJC = 5, POINTER = 6, COUNT = 7;
const UNSIGNED = 1 << 3, SHORT = 1 << 4, SCHAR = 2 << 4, LONG = 1 << 6, LONGLONG = 2 << 6;
const INTMAX = 1 << 20, SIZE = 1 << 22, PTRDIFF = 1 << 23;
/** All the size bits of format-c-parse.h's FAT_SIZE_MASK. */
const SIZE_MASK = SHORT | SCHAR | LONG | LONGLONG | 0xfff00 | INTMAX | 1 << 21 | SIZE | PTRDIFF;

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const at = (s: Uint8Array, i: number) => s[i] ?? 0;

/** `<inttypes.h>` size suffixes after `PRI` + conversion, with their type bits. */
// A @__PURE__ call, not a bare array with a spread: a bundle that never compiles leaves it out.
const MACRO_SIZES: readonly [string, number][] = /* @__PURE__ */ (() => [
  ["MAX", INTMAX],
  ["PTR", 1 << 21],
  // FAT_SIZE_8_T… from bit 8, FAT_SIZE_LEAST8_T… from bit 12, FAT_SIZE_FAST8_T… from bit 16.
  ...([["", 8], ["LEAST", 12], ["FAST", 16]] as const).flatMap(([kind, base]) =>
    ["8", "16", "32", "64"].map((bits, b) => [kind + bits, 1 << (base + b)] as [string, number])
  ),
])();

function startsWith(s: Uint8Array, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (s[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The system-dependent directives of `s` (one string, no NUL), or `[]` when it has none or is
 * not a valid C format string. `translated` allows the `I` flag (msgstr only).
 */
export function sysdepDirectives(s: Uint8Array, translated: boolean): SysdepInterval[] {
  const found: SysdepInterval[] = [];
  let unnumbered = 0;
  const numbered = new Map<number, number>();
  const take = (number: number, type: number): boolean => {
    if (number > 0) {
      if (unnumbered > 0) return false;
      const before = numbered.get(number);
      if (before !== undefined && before !== type) return false;
      numbered.set(number, type);
    } else {
      if (numbered.size > 0) return false;
      unnumbered++;
    }
    return true;
  };
  /** Digits then `$` at `i`: [number, index after `$`], or null (number 0 is an error: -1). */
  const argNumber = (i: number): [number, number] | null => {
    if (!isDigit(s[i])) return null;
    let m = 0;
    let f = i;
    while (isDigit(s[f])) m = Math.min(10 * m + (s[f++]! - 0x30), 0xffffffff);
    return s[f] === 0x24 ? [m, f + 1] : null;
  };
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== 0x25) continue;
    let number = 0;
    const arg = argNumber(i);
    if (arg !== null) {
      if (arg[0] === 0) return [];
      [number, i] = arg;
    }
    for (;;) { // flags
      const c = at(s, i);
      if (c === 0x20 || c === 0x2b || c === 0x2d || c === 0x23 || c === 0x30 || c === 0x27) i++;
      else if (translated && c === 0x49) {
        found.push({ start: i, end: i + 1 });
        i++;
      } else break;
    }
    for (const part of ["width", "precision"]) {
      if (part === "precision") {
        if (s[i] !== 0x2e) break;
        i++;
      }
      if (s[i] === 0x2a) {
        i++;
        const star = argNumber(i);
        if (star !== null) {
          if (star[0] === 0) return [];
          i = star[1];
          if (!take(star[0], INTEGER)) return [];
        } else if (!take(0, INTEGER)) return [];
      } else while (isDigit(s[i])) i++;
    }
    let type: number;
    if (s[i] === 0x3c) {
      const start = i++;
      if (!startsWith(s, i, "PRI")) return [];
      i += 3;
      const conversion = at(s, i);
      if (conversion === 0x69 || conversion === 0x64) type = INTEGER;
      else if (conversion === 0x75 || conversion === 0x6f || conversion === 0x78 || conversion === 0x58) {
        type = INTEGER | UNSIGNED;
      } else return [];
      i++;
      const size = MACRO_SIZES.find(([word]) => startsWith(s, i, word));
      if (size === undefined) return [];
      type |= size[1];
      i += size[0].length;
      if (s[i] !== 0x3e) return [];
      found.push({ start, end: i + 1 });
    } else {
      let size = 0;
      for (;; i++) {
        const c = at(s, i);
        if (c === 0x68) size = size & (SHORT | SCHAR) ? SCHAR : SHORT;
        else if (c === 0x6c) size = size & (LONG | LONGLONG) ? LONGLONG : LONG;
        else if (c === 0x4c || c === 0x71) size = LONGLONG;
        else if (c === 0x6a) size = INTMAX;
        else if (c === 0x7a || c === 0x5a) size = SIZE;
        else if (c === 0x74) size = PTRDIFF;
        else break;
      }
      const c = String.fromCharCode(at(s, i));
      const wide = size & (LONG | LONGLONG) ? LONG : 0;
      if (c === "%" || c === "m") type = 0;
      else if (c === "c") type = CHAR | wide;
      else if (c === "C") type = CHAR | LONG;
      else if (c === "s") type = STRING | wide;
      else if (c === "S") type = STRING | LONG;
      else if (c === "i" || c === "d") type = INTEGER | (size & SIZE_MASK);
      else if ("uoxX".includes(c)) type = INTEGER | UNSIGNED | (size & SIZE_MASK);
      else if ("eEfFgGaA".includes(c)) type = DOUBLE | (size & LONGLONG);
      else if (c === "@") type = OBJC;
      else if (c === "p") type = POINTER;
      else if (c === "n") type = COUNT | (size & SIZE_MASK);
      else return []; // unterminated directive or unknown conversion
    }
    if (type !== 0 && !take(number, type)) return [];
    i++;
  }
  // Numbered arguments must be 1..N without a gap.
  for (let k = 1; k <= numbered.size; k++) if (!numbered.has(k)) return [];
  return found;
}
