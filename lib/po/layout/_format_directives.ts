/**
 * Format directives as GNU gettext 0.21's format-string parsers mark them, for the one thing msgcat
 * uses them for when writing: no line break strictly inside a valid directive
 * (`shared/docs/msgcat-format.md` section 4.9).
 *
 * Each parser here records, like gettext's, a START mark on a directive's first character, an END
 * mark on its last, and an ERROR mark where it gives up (it then stops: later directives get no
 * marks). write-po.c then pairs every START with the first END or ERROR at or after it and protects
 * the characters after the START up to an END. Errors found after the scan (argument types,
 * missing argument numbers) leave the marks in place.
 *
 * Languages implemented exactly (checked against msgcat 0.21): `c`, `objc`, `python`,
 * `python-brace`, `javascript` and `php`. For any other language nothing is protected, which is
 * exact whenever no directive of that language contains a break opportunity.
 *
 * gettext 0.21's python-brace parser records its marks relative to the directive's own `{` instead
 * of the string's start, so what it protects are the first bytes of the *string*; that quirk is
 * reproduced (vector: the golden cases labelled "regression: python-brace …" in
 * tests/po_wrap_test.ts).
 *
 * The parsers read UTF-16 code units where gettext reads bytes. Every syntax character is ASCII, so
 * they decide alike, except where gettext looks at "one character" that is a non-ASCII one
 * (python-brace's fill, php's padding) and sees only its first byte; those spots say so. Marks are
 * kept at UTF-8 byte offsets, as gettext keeps them.
 *
 * @module
 */

/** Format languages whose directives {@link directiveInteriors} finds. */
export const DIRECTIVE_LANGUAGES: readonly string[] = [
  "c",
  "objc",
  "python",
  "python-brace",
  "javascript",
  "php",
];

const START = 1;
const END = 2;
const ERROR = 4;

/**
 * Marks of one parse, kept by UTF-8 byte offset as gettext keeps them (its parsers see bytes).
 * Marks outside the string are dropped.
 */
class Marks {
  readonly flags: Uint8Array;
  /** UTF-8 byte offset of each UTF-16 index (and of the end), or null for an ASCII string. */
  readonly byteOffsets: Int32Array | null;
  /** Length of the string in UTF-16 code units. */
  readonly length: number;
  constructor(s: string) {
    this.length = s.length;
    let offsets: Int32Array | null = null;
    let bytes = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 && offsets === null) {
        offsets = new Int32Array(s.length + 1);
        for (let k = 0; k <= i; k++) offsets[k] = k;
      }
      if (offsets !== null) offsets[i] = bytes;
      // A surrogate pair is 4 bytes: 2 counted for each half.
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
    }
    if (offsets !== null) offsets[s.length] = bytes;
    this.byteOffsets = offsets;
    this.flags = new Uint8Array(bytes);
  }
  /** Byte offset of UTF-16 index `i`. */
  byteOf(i: number): number {
    return this.byteOffsets === null ? i : this.byteOffsets[i]!;
  }
  /** Marks the character at UTF-16 index `i`. */
  mark(i: number, flag: number): void {
    if (i >= 0 && i < this.length) this.markByte(this.byteOf(i), flag);
  }
  /** Marks byte offset `b`. */
  markByte(b: number, flag: number): void {
    if (b >= 0 && b < this.flags.length) this.flags[b] = this.flags[b]! | flag;
  }
}

type DirectiveParser = (s: string, translated: boolean, marks: Marks) => void;

const PARSERS: Record<string, DirectiveParser> = {
  c: (s, translated, marks) => parseC(s, translated, false, marks),
  objc: (s, translated, marks) => parseC(s, translated, true, marks),
  python: parsePython,
  "python-brace": parsePythonBrace,
  javascript: parseJavaScript,
  php: parsePhp,
};

/**
 * Marks the characters of `value` before which msgcat may not break a line because a valid
 * `language` directive covers them (all of a directive's characters but its first). `translated`
 * is true for msgstr fields (C's `I` flag is only recognised there). Returns null when nothing is
 * protected or the language is not implemented.
 *
 * @example
 * ```ts
 * directiveInteriors("x % 5d", "c", false); // Uint8Array [0, 0, 0, 1, 1, 1]
 * ```
 */
export function directiveInteriors(value: string, language: string, translated: boolean): Uint8Array | null {
  const protectedBytes = directiveInteriorBytes(value, language, translated);
  if (protectedBytes === null) return null;
  // A character is protected when its first byte is.
  const offsets = new Marks(value);
  const mask = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) mask[i] = protectedBytes[offsets.byteOf(i)]!;
  return mask;
}

/**
 * {@link directiveInteriors} by UTF-8 byte offset of `value`: 1 at the first byte of each
 * protected character (and at its other bytes). Null when nothing is protected.
 */
export function directiveInteriorBytes(
  value: string,
  language: string,
  translated: boolean,
): Uint8Array | null {
  const parse = PARSERS[language];
  if (parse === undefined || value.length === 0 || !mayHaveDirective(value, language)) return null;
  const marks = new Marks(value);
  parse(value, translated, marks);
  const fdi = marks.flags;
  let protectedBytes: Uint8Array | null = null;
  for (let p = 0; p < fdi.length; p++) {
    if ((fdi[p]! & START) === 0) continue;
    let q = p;
    while (q < fdi.length && (fdi[q]! & (END | ERROR)) === 0) q++;
    // A START without END or ERROR would make msgcat abort; none of these parsers leaves one.
    if (q === fdi.length) break;
    if ((fdi[q]! & ERROR) === 0) {
      protectedBytes ??= new Uint8Array(fdi.length);
      for (let k = p; k <= q; k++) if ((fdi[k]! & START) === 0) protectedBytes[k] = 1;
    }
    p = q;
  }
  return protectedBytes;
}

/** Cheap pre-check: no `%` (or `{`) means no directive. */
function mayHaveDirective(value: string, language: string): boolean {
  return value.indexOf(language === "python-brace" ? "{" : "%") >= 0;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Index after a run of digits starting at `i`. */
function skipDigits(s: string, i: number): number {
  while (isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** Value of the digits `s[i..j)`, or 1 when it exceeds any realistic argument number. */
function digitsValue(s: string, i: number, j: number): number {
  let m = 0;
  for (let k = i; k < j; k++) m = (m * 10 + (s.charCodeAt(k) - 0x30)) % 0x100000000;
  return m;
}

const C_SIZES = "hlLqjzZt";
const C_CONVERSIONS = "%mcCsSiduoxXeEfFgGaApn";

/**
 * C (and Objective-C) printf directives as gettext 0.21's format-c-parse.h reads them: `%` or `%m$`,
 * flags `' -+#0` (and `I` in msgstr), width `*`/`*m$`/digits, precision, then either an ISO C99
 * `<PRI…>` macro or size letters and a conversion (`@` too for Objective-C); numbered and unnumbered
 * arguments may not mix.
 */
function parseC(s: string, translated: boolean, objc: boolean, marks: Marks): void {
  const n = s.length;
  let numbered = 0;
  let unnumbered = 0;
  /** Parses what follows a `*` at `i`; returns the index after it, or -1 after marking an error. */
  const star = (i: number): number => {
    let number = 0;
    if (isDigit(s.charCodeAt(i))) {
      const f = skipDigits(s, i);
      if (s.charCodeAt(f) === 0x24) {
        number = digitsValue(s, i, f);
        if (number === 0) {
          marks.mark(f, ERROR);
          return -1;
        }
        i = f + 1;
      }
    }
    if (number > 0 ? unnumbered > 0 : numbered > 0) {
      marks.mark(i - 1, ERROR);
      return -1;
    }
    if (number > 0) numbered++;
    else unnumbered++;
    return i;
  };
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    marks.mark(i - 1, START);
    let number = 0;
    if (isDigit(s.charCodeAt(i))) {
      const f = skipDigits(s, i);
      if (s.charCodeAt(f) === 0x24) {
        number = digitsValue(s, i, f);
        if (number === 0) return marks.mark(f, ERROR);
        i = f + 1;
      }
    }
    for (;;) {
      const c = s[i];
      if (c === " " || c === "+" || c === "-" || c === "#" || c === "0" || c === "'") i++;
      else if (translated && c === "I") i++;
      else break;
    }
    if (s[i] === "*") {
      i = star(i + 1);
      if (i < 0) return;
    } else i = skipDigits(s, i);
    if (s[i] === ".") {
      i++;
      if (s[i] === "*") {
        i = star(i + 1);
        if (i < 0) return;
      } else i = skipDigits(s, i);
    }
    let takesArgument = true;
    if (s[i] === "<") {
      i = inttypesMacro(s, i + 1);
      if (i < 0) return marks.mark(-i - 1, ERROR);
    } else {
      while (i < n && C_SIZES.includes(s[i]!)) i++;
      const c = s.charAt(i);
      if (i >= n) return marks.mark(i - 1, ERROR);
      if (!(C_CONVERSIONS.includes(c) || (objc && c === "@"))) return marks.mark(i, ERROR);
      takesArgument = c !== "%" && c !== "m";
    }
    if (takesArgument) {
      if (number > 0 ? unnumbered > 0 : numbered > 0) return marks.mark(i, ERROR);
      if (number > 0) numbered++;
      else unnumbered++;
    }
    marks.mark(i, END);
    i++;
  }
}

/**
 * Parses `PRI{d,i,o,u,x,X}{8,16,32,64,LEAST…,FAST…,MAX,PTR}>` at `i`; returns the index of `>`, or
 * `-1 - e` where `e` is the index gettext marks as the error.
 */
function inttypesMacro(s: string, i: number): number {
  const fail = (k: number) => -1 - (k >= s.length ? k - 1 : k);
  for (const c of "PRI") {
    if (s[i] !== c) return fail(i);
    i++;
  }
  if (i >= s.length || !"diouxX".includes(s[i]!)) return fail(i);
  i++;
  if (s.startsWith("MAX", i) || s.startsWith("PTR", i)) i += 3;
  else {
    if (s.startsWith("LEAST", i)) i += 5;
    else if (s.startsWith("FAST", i)) i += 4;
    if (s[i] === "8") i++;
    else if (s.startsWith("16", i) || s.startsWith("32", i) || s.startsWith("64", i)) i += 2;
    else return fail(i);
  }
  return s[i] === ">" ? i : fail(i);
}

/**
 * Python `%` directives as gettext 0.21's format-python.c reads them: `%`, optional `(name)` with
 * balanced parentheses, flags `-+ #0`, width `*`/digits, precision, size `hlL`, conversion
 * `% c s r i d u o x X e E f g G`; named and unnamed arguments may not mix.
 */
function parsePython(s: string, _translated: boolean, marks: Marks): void {
  const n = s.length;
  let named = 0;
  let unnamed = 0;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    marks.mark(i - 1, START);
    let hasName = false;
    if (s[i] === "(") {
      let depth = 0;
      i++;
      for (; i < n; i++) {
        const c = s[i];
        if (c === "(") depth++;
        else if (c === ")") {
          if (depth === 0) break;
          depth--;
        }
      }
      if (i >= n) return marks.mark(i - 1, ERROR);
      i++;
      hasName = true;
    }
    while (i < n && "-+ #0".includes(s[i]!)) i++;
    if (s[i] === "*") {
      i++;
      if (named > 0) return marks.mark(i - 1, ERROR);
      unnamed++;
    } else i = skipDigits(s, i);
    if (s[i] === ".") {
      i++;
      if (s[i] === "*") {
        i++;
        if (named > 0) return marks.mark(i - 1, ERROR);
        unnamed++;
      } else i = skipDigits(s, i);
    }
    if (s[i] === "h" || s[i] === "l" || s[i] === "L") i++;
    const c = s.charAt(i);
    if (i >= n) return marks.mark(i - 1, ERROR);
    if (!"%csridiouxXeEfgG".includes(c)) return marks.mark(i, ERROR);
    if (hasName) {
      if (unnamed > 0) return marks.mark(i, ERROR);
      named++;
    } else if (c !== "%") {
      if (named > 0) return marks.mark(i, ERROR);
      unnamed++;
    }
    marks.mark(i, END);
    i++;
  }
}

function isNameStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** Index after an identifier at `i`, or -1. */
function identifierEnd(s: string, i: number): number {
  if (!isNameStart(s.charCodeAt(i))) return -1;
  i++;
  while (isNameStart(s.charCodeAt(i)) || isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** Index after an identifier or a number at `i`, or -1. */
function fieldEnd(s: string, i: number): number {
  const j = identifierEnd(s, i);
  if (j >= 0) return j;
  return isDigit(s.charCodeAt(i)) ? skipDigits(s, i) : -1;
}

/**
 * Python `str.format` directives as gettext 0.21's format-python-brace.c reads them: `{{` is an
 * escape; a directive is `{`, a field (identifier or number; `{}` is an error in 0.21), `.name` /
 * `[field]` chains, an optional `:` spec (a nested `{field}` or
 * `[[fill]align][sign][#][0][width][.[precision]][type]`), and `}`. A lone `}` is ordinary text.
 */
function parsePythonBrace(s: string, _translated: boolean, marks: Marks): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (s[i] !== "{") {
      i++;
      continue;
    }
    i = braceDirective(s, i, true, marks);
    if (i < 0) return;
  }
}

/**
 * Parses the directive whose `{` is at `open`; returns the index after it, or -1 after marking an
 * error. Marks are placed at offsets from `open` (gettext's quirk, see the module comment).
 */
function braceDirective(s: string, open: number, toplevel: boolean, marks: Marks): number {
  const openByte = marks.byteOf(open);
  /** Marks at the byte distance from `open` (gettext's quirk). */
  const markRelative = (at: number, flag: number) => {
    const b = at < s.length ? marks.byteOf(at) : marks.byteOf(s.length) + (at - s.length);
    marks.markByte(b - openByte, flag);
  };
  const fail = (at: number) => {
    markRelative(at, ERROR);
    return -1;
  };
  let i = open + 1;
  if (s[i] === "{") return i + 1;
  const fieldStart = i;
  i = fieldEnd(s, i);
  if (i < 0) return fail(fieldStart);
  for (;;) {
    const c = s[i];
    if (c === ".") {
      const j = identifierEnd(s, i + 1);
      if (j < 0) return fail(i + 1);
      i = j;
    } else if (c === "[") {
      const j = fieldEnd(s, i + 1);
      if (j < 0) return fail(i + 1);
      // msgcat 0.21 marks this error one character after the one that is not "]".
      if (s[j] !== "]") return fail(j + 1);
      i = j + 1;
    } else break;
  }
  if (s[i] === ":") {
    if (!toplevel) return fail(i);
    i++;
    if (s[i] === "{") {
      i = braceDirective(s, i, false, marks);
      if (i < 0) return -1;
    } else {
      if (i >= s.length) return fail(i);
      // gettext looks one *byte* ahead for an align character: a non-ASCII fill never matches.
      const c2 = s.charCodeAt(i) < 0x80 ? s[i + 1] : "";
      if (c2 === "<" || c2 === ">" || c2 === "=" || c2 === "^") i += 2;
      else if (s[i] === "<" || s[i] === ">" || s[i] === "=" || s[i] === "^") i++;
      if (s[i] === "+" || s[i] === "-" || s[i] === " ") i++;
      if (s[i] === "#") i++;
      if (s[i] === "0") i++;
      i = skipDigits(s, i);
      // In 0.21 the precision's digits are optional: "{0:.}" and "{0:.f}" are valid.
      if (s[i] === ".") i = skipDigits(s, i + 1);
      if (i < s.length && "bcdoxXneEfFgG%".includes(s[i]!)) i++;
    }
  }
  if (s[i] !== "}") return fail(i);
  if (toplevel) {
    marks.markByte(0, START);
    markRelative(i, END);
  }
  return i + 1;
}

/**
 * JavaScript directives as gettext 0.21's format-javascript.c reads them: `%` or `%m$`, flags
 * `-+ 0I`, width digits, `.` and optional precision digits, conversion `% c s b d o x X f j`;
 * numbered and unnumbered arguments may not mix.
 */
function parseJavaScript(s: string, _translated: boolean, marks: Marks): void {
  const n = s.length;
  let numbered = 0;
  let unnumbered = 0;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    marks.mark(i - 1, START);
    let number = 0;
    if (isDigit(s.charCodeAt(i))) {
      const f = skipDigits(s, i);
      if (s.charCodeAt(f) === 0x24) {
        number = digitsValue(s, i, f);
        if (number === 0) return marks.mark(f, ERROR);
        i = f + 1;
      }
    }
    while (i < n && "-+ 0I".includes(s[i]!)) i++;
    i = skipDigits(s, i);
    if (s[i] === ".") i = skipDigits(s, i + 1);
    if (i >= n) return marks.mark(i - 1, ERROR);
    const c = s.charAt(i);
    if (!"%csbdoxXfj".includes(c)) return marks.mark(i, ERROR);
    if (c !== "%") {
      if (number > 0 ? unnumbered > 0 : numbered > 0) return marks.mark(i, ERROR);
      if (number > 0) numbered++;
      else unnumbered++;
    }
    marks.mark(i, END);
    i++;
  }
}

/**
 * PHP `sprintf` directives as gettext 0.21's format-php.c reads them: `%%`, or `%` / `%m$`, flags
 * `0`, `-`, space and `'` followed by any one byte, width digits, `.` and precision digits, an
 * ignored `l`, conversion `b d u o x X e f c s`. Numbered and unnumbered arguments may mix.
 */
function parsePhp(s: string, _translated: boolean, marks: Marks): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (s.charCodeAt(i++) !== 0x25) continue;
    marks.mark(i - 1, START);
    if (s[i] !== "%") {
      if (isDigit(s.charCodeAt(i))) {
        const f = skipDigits(s, i);
        if (s.charCodeAt(f) === 0x24) {
          if (digitsValue(s, i, f) === 0) return marks.mark(f, ERROR);
          i = f + 1;
        }
      }
      for (;;) {
        const c = s[i];
        if (c === "0" || c === "-" || c === " ") i++;
        else if (c === "'") {
          i++;
          if (i >= n) return marks.mark(i - 1, ERROR);
          // The padding "character" is one byte: after a non-ASCII one gettext reads a UTF-8
          // continuation byte, which ends the directive as an invalid conversion.
          if (s.charCodeAt(i) >= 0x80) return marks.mark(i, ERROR);
          i++;
        } else break;
      }
      i = skipDigits(s, i);
      if (s[i] === ".") {
        if (!isDigit(s.charCodeAt(i + 1))) return marks.mark(i, ERROR);
        i = skipDigits(s, i + 1);
      }
      if (s[i] === "l") i++;
      if (i >= n) return marks.mark(i - 1, ERROR);
      if (!"bduoxXefcs".includes(s[i]!)) return marks.mark(i, ERROR);
    }
    marks.mark(i, END);
    i++;
  }
}
