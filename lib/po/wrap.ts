/**
 * Prints one string field of a PO file exactly as GNU msgcat 0.21 (libunistring 1.0) does:
 * escaping, portions after `\n`, the `K ""` first-line rule, and greedy filling at 79 columns with
 * break opportunities from UAX #14 as libunistring 1.0 implements it. The rules and the vectors
 * proving them are in shared/docs/msgcat-format.md, sections 4 and 5.
 *
 * @module
 */
import { CLASS_NAMES, CLASS_RANGES, PAIR_COLUMNS, PAIR_ROWS, WIDTH_RANGES } from "./_unicode_data.ts";

/** Options of {@link wrapString}. */
export interface WrapOptions {
  /** Line prefix: "" normally, "#~ " obsolete, "#| " previous fields, "#~| " previous fields of obsolete entries. */
  prefix: string;
  /** "msgctxt" | "msgid" | "msgid_plural" | "msgstr" | "msgstr[0]" … */
  keyword: string;
  /** The entry's no-wrap flag: never break for width (still split after \n). */
  noWrap?: boolean;
  /** First applicable format language (e.g. "c", "python", "python-brace"), or null. */
  formatLanguage?: string | null;
}

const PAGE_WIDTH = 79;

// ---------------------------------------------------------------------------------------------
// Tables: class and width of a code point (flat arrays for the BMP, binary search above it).
// ---------------------------------------------------------------------------------------------

const C = Object.fromEntries(CLASS_NAMES.map((n, i) => [n, i])) as Record<
  (typeof CLASS_NAMES)[number],
  number
>;
const BMP_CLASS = new Uint8Array(0x10000).fill(C.AL);
const BMP_WIDTH = new Int8Array(0x10000).fill(1);
const ASTRAL_CLASS: number[] = [];
const ASTRAL_WIDTH: number[] = [];
for (let i = 0; i < CLASS_RANGES.length; i += 3) {
  const [lo, hi, k] = [CLASS_RANGES[i], CLASS_RANGES[i + 1], CLASS_RANGES[i + 2]];
  if (lo < 0x10000) BMP_CLASS.fill(k, lo, Math.min(hi, 0xffff) + 1);
  if (hi >= 0x10000) ASTRAL_CLASS.push(Math.max(lo, 0x10000), hi, k);
}
for (let i = 0; i < WIDTH_RANGES.length; i += 3) {
  const [lo, hi, w] = [WIDTH_RANGES[i], WIDTH_RANGES[i + 1], WIDTH_RANGES[i + 2]];
  if (lo < 0x10000) BMP_WIDTH.fill(w, lo, Math.min(hi, 0xffff) + 1);
  if (hi >= 0x10000) ASTRAL_WIDTH.push(Math.max(lo, 0x10000), hi, w);
}

function searchRanges(ranges: number[], cp: number, fallback: number): number {
  let lo = 0;
  let hi = ranges.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[mid * 3]) hi = mid - 1;
    else if (cp > ranges[mid * 3 + 1]) lo = mid + 1;
    else return ranges[mid * 3 + 2];
  }
  return fallback;
}

function classOf(cp: number): number {
  return cp < 0x10000 ? BMP_CLASS[cp] : searchRanges(ASTRAL_CLASS, cp, C.AL);
}

function widthOf(cp: number): number {
  const w = cp < 0x10000 ? BMP_WIDTH[cp] : searchRanges(ASTRAL_WIDTH, cp, 1);
  return w < 0 ? 0 : w;
}

/** PAIR[last * N + next]: 0 = P (never), 1 = I (only after spaces), 2 = D (allowed); -1 = not in the table. */
const N = CLASS_NAMES.length;
const PAIR = new Int8Array(N * N).fill(-1);
for (const [row, cells] of Object.entries(PAIR_ROWS)) {
  const r = C[row as keyof typeof C];
  PAIR_COLUMNS.forEach((col, j) => {
    PAIR[r * N + C[col as keyof typeof C]] = cells[j] === "D" ? 2 : cells[j] === "I" ? 1 : 0;
  });
}

// ---------------------------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------------------------

const ESCAPES: Record<string, string> = {
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\v": "\\v",
  '"': '\\"',
  "\\": "\\\\",
};
/** Second character of the escape of a code point below 0x5d, or 0. */
const ESCAPE_CHAR = new Uint8Array(0x5d);
for (const [c, e] of Object.entries(ESCAPES)) ESCAPE_CHAR[c.charCodeAt(0)] = e.charCodeAt(1);

/** msgcat's escaping: \n \t \r \a \b \f \v \\ \" and nothing else. */
export function escapeString(value: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x5d && ESCAPE_CHAR[c] !== 0) {
      out += value.slice(from, i) + "\\" + String.fromCharCode(ESCAPE_CHAR[c]);
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

// ---------------------------------------------------------------------------------------------
// Format directives: no break strictly inside a valid directive (section 4.9).
// ---------------------------------------------------------------------------------------------

const DIRECTIVES: Record<string, RegExp> = {
  c: /%(?:\d+\$)?[-+ #0']*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?(?:hh|h|ll|l|L|q|j|z|Z|t|I32|I64|I)?[diouxXeEfFgGaAcCsSpnm%]|%<PRI[diouxX](?:8|16|32|64|LEAST8|LEAST16|LEAST32|LEAST64|FAST8|FAST16|FAST32|FAST64|MAX|PTR)>/g,
  objc:
    /%(?:\d+\$)?[-+ #0']*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?(?:hh|h|ll|l|L|q|j|z|Z|t)?[diouxXeEfFgGaAcCsSpnm@%]/g,
  python: /%(?:\([^)]*\))?[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[hlL]?[diouxXeEfFgGcrsa%]/g,
  "python-brace":
    /\{[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]{}]*\])*(?::[^{}]*)?\}|\{\d+(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]{}]*\])*(?::[^{}]*)?\}|\{\{|\}\}/g,
};

/**
 * Raw-string [start, end) spans of the valid directives before the first invalid one (msgcat's
 * format parsers stop at the first error, so later directives are not protected).
 */
function directiveSpans(value: string, language: string | null | undefined): [number, number][] {
  const pattern = language ? DIRECTIVES[language] : undefined;
  if (!pattern) return [];
  const brace = language === "python-brace";
  const starts = brace ? /[{}]/g : /%/g;
  const sticky = new RegExp(pattern.source, "y");
  const spans: [number, number][] = [];
  // gettext refuses to mix named and unnamed (python) or numbered and unnumbered (c) directives.
  let style = "";
  for (let at = value.search(starts); at !== -1;) {
    sticky.lastIndex = at;
    const m = sticky.exec(value);
    if (!m) break;
    if (!brace && m[0] !== "%%") {
      const named = language === "python" ? m[0][1] === "(" : /^%\d+\$/.test(m[0]);
      const kind = named ? "named" : "plain";
      if (style !== "" && style !== kind) break;
      style = kind;
    }
    const end = at + m[0].length;
    if (m[0].length > 1) spans.push([at, end]);
    starts.lastIndex = end;
    const next = starts.exec(value);
    at = next ? next.index : -1;
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Break opportunities and filling
// ---------------------------------------------------------------------------------------------

const SIMPLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Prints one string field exactly as msgcat 0.21 does: returns its lines, each ending in "\n".
 *
 * @example
 * ```ts
 * wrapString("a\nb", { prefix: "", keyword: "msgstr" }); // 'msgstr ""\n"a\\n"\n"b"\n'
 * ```
 */
export function wrapString(value: string, options: WrapOptions): string {
  const { prefix, keyword } = options;
  const escaped = escapeString(value);
  const width = PAGE_WIDTH - 2 - prefix.length; // columns between the quotes of a continuation line
  const start = keyword.length + 1;
  // Fast path: printable ASCII with no newline that fits on the keyword line.
  if (!escaped.includes("\\n") && SIMPLE_ASCII.test(escaped) && start + escaped.length <= width) {
    return `${prefix}${keyword} "${escaped}"\n`;
  }
  const limit = options.noWrap ? Infinity : width;

  // Code points of the escaped text, their UTF-16 offsets in it, and whether a break may come before each.
  const cps: number[] = [];
  const offsets: number[] = [];
  const glued: number[] = []; // 1: no break before this code point (inside an escape or a directive)
  const rawToEscaped = new Int32Array(value.length + 1);
  let off = 0;
  for (let i = 0; i < value.length; i++) {
    let cp = value.charCodeAt(i);
    rawToEscaped[i] = cps.length;
    const esc = cp < 0x5d ? ESCAPE_CHAR[cp] : 0;
    if (esc) {
      cps.push(0x5c, esc);
      offsets.push(off, off + 1);
      glued.push(0, 1);
      off += 2;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < value.length) {
      const lo = value.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        cps.push(cp);
        offsets.push(off);
        glued.push(0);
        off += 2;
        i++;
        rawToEscaped[i] = cps.length;
        continue;
      }
    }
    cps.push(cp);
    offsets.push(off);
    glued.push(0);
    off += 1;
  }
  rawToEscaped[value.length] = cps.length;
  offsets.push(off);
  for (const [s, t] of directiveSpans(value, options.formatLanguage)) {
    for (let k = rawToEscaped[s] + 1; k < rawToEscaped[t]; k++) glued[k] = 1;
  }

  // Portions end after every \n escape.
  const portions: [number, number][] = [];
  let from = 0;
  for (let k = 0; k < cps.length; k++) {
    if (cps[k] === 0x5c && glued[k + 1] === 1 && glued[k] === 0) {
      if (cps[k + 1] === 0x6e) {
        portions.push([from, k + 2]);
        from = k + 2;
      }
      k++;
    }
  }
  if (from < cps.length || portions.length === 0) portions.push([from, cps.length]);

  const lines: string[] = [];
  const text = (a: number, b: number) => escaped.slice(offsets[a], offsets[b]);
  const scans = portions.map(([a, b]) => scan(cps, glued, a, b));
  const layout = (n: number, col0: number): number[] =>
    fill(scans[n].marks, scans[n].widths, portions[n][0], col0, limit);

  let first = layout(0, start);
  const emptyString = cps.length === 0;
  const headerLine = !emptyString && (portions.length > 1 || first.length > 0);
  if (headerLine) {
    lines.push(`${prefix}${keyword} ""`);
    first = layout(0, 0);
  }
  portions.forEach(([a, b], n) => {
    const breaks = n === 0 ? first : layout(n, 0);
    const cuts = [a, ...breaks, b];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const seg = text(cuts[k], cuts[k + 1]);
      lines.push(!headerLine && n === 0 && k === 0 ? `${prefix}${keyword} "${seg}"` : `${prefix}"${seg}"`);
    }
  });
  if (emptyString) return `${prefix}${keyword} ""\n`;
  return lines.join("\n") + "\n";
}

/** Break opportunities of one portion: BREAK before a code point, RESET after a mandatory break. */
const BREAK = 1;
const RESET = 2;

function scan(
  cps: number[],
  glued: number[],
  a: number,
  b: number,
): { marks: Uint8Array; widths: Uint8Array } {
  const marks = new Uint8Array(b - a);
  const widths = new Uint8Array(b - a);
  // UAX #14 scan state (section 5.3), fresh at the start of each portion.
  let last = C.BK;
  let prev = C.BK;
  let prevHlBa = false;
  let space = false;
  let ri = 0;
  // The \n that ends a portion never starts a line: its backslash is glued to the text before.
  const endsInNewline = b - a >= 2 && cps[b - 2] === 0x5c && cps[b - 1] === 0x6e && glued[b - 1] === 1;
  let mandatoryReset = false;
  for (let k = a; k < b; k++) {
    const cp = cps[k];
    const cls = cp < 0x10000 ? BMP_CLASS[cp] : classOf(cp);
    let allowed = false;
    if (cls === C.BK || cls === C.LF || cls === C.CR) {
      last = C.BK;
      space = false;
    } else if (cls === C.SP) {
      space = true;
    } else if (cls === C.ZW) {
      last = C.ZW;
      space = false;
    } else if (cls === C.CM || cls === C.ZWJ) {
      if (last === C.BK) last = C.AL;
      else if (last === C.ZW || space) {
        allowed = true;
        last = C.AL;
        space = false;
      }
    } else {
      if (last === C.BK) allowed = false;
      else if (last === C.ZW) allowed = true;
      else if (prev === C.ZWJ) allowed = false;
      else if (last === C.RI && cls === C.RI) allowed = space || ri % 2 === 0;
      else if (prevHlBa) allowed = false;
      else {
        const p = PAIR[last * N + cls];
        allowed = p === 2 || (p === 1 && space);
      }
      last = cls;
      space = false;
    }
    prevHlBa = prev === C.HL && (cls === C.HY || cls === C.BA);
    prev = cls;
    ri = cls === C.RI ? ri + 1 : 0;
    if (k === a || glued[k] === 1 || (endsInNewline && k === b - 2)) allowed = false;
    if (mandatoryReset) {
      // After U+2028 & co.: as if a new line had started, with no break before the next piece.
      marks[k - a] = RESET;
      mandatoryReset = false;
    } else if (allowed) {
      marks[k - a] = BREAK;
    }
    const w = cp < 0x10000 ? BMP_WIDTH[cp] : widthOf(cp);
    widths[k - a] = w < 0 ? 0 : w;
    if (cls === C.BK) mandatoryReset = true;
  }
  return { marks, widths };
}

/** Line breaks (code point indices where a new line starts) of one portion: greedy, whole pieces. */
function fill(marks: Uint8Array, widths: Uint8Array, a: number, col0: number, limit: number): number[] {
  const breaks: number[] = [];
  let col = col0;
  let pieceWidth = 0;
  let pieceStart = 0;
  let firstPiece = true;
  const n = marks.length;
  for (let k = 0; k <= n; k++) {
    const mark = k === n ? BREAK : marks[k];
    if (mark !== 0) {
      if (!firstPiece && col + pieceWidth > limit) {
        breaks.push(a + pieceStart);
        col = 0;
      }
      col += pieceWidth;
      pieceWidth = 0;
      pieceStart = k;
      firstPiece = false;
      if (mark === RESET) {
        col = 0;
        firstPiece = true;
      }
    }
    if (k < n) pieceWidth += widths[k];
  }
  return breaks;
}
