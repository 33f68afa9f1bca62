/**
 * Counts a catalogue's entries and words by state straight from its bytes, without building its
 * messages: what lets the first listing of a tree be several times faster than a full parse. It
 * reads the layout msgcat and every PO editor write (one keyword or string per line, `#` comments,
 * `#~` obsolete entries, UTF-8 or ASCII) and gives up, returning null, on anything else: another
 * charset, a backslash-newline, a CR, a `domain` line, a keyword it does not know, a comment inside
 * an entry, a string it cannot end. The caller then parses the file with the real parser. Where it
 * answers, it answers what `countCatalogue(parsePo(bytes))` answers (tests/workbench_stats_test.ts
 * checks this on the corpus, the fixtures and generated trees).
 *
 * One pass over the bytes, no allocation per line: linear in the file.
 *
 * @module
 */
import { type CatalogueCounts, emptyCounts, type EntryState, percentDone } from "./stats.ts";

/** What a scan finds: the counts and the header's `Language:` (null when none). */
export interface ScanResult {
  counts: CatalogueCounts;
  language: string | null;
}

/** n t r f v b a \\ " ? ' */
const SIMPLE_ESCAPES: boolean[] = (() => {
  const table = new Array<boolean>(256).fill(false);
  for (const c of [0x6e, 0x74, 0x72, 0x66, 0x76, 0x62, 0x61, 0x5c, 0x22, 0x3f, 0x27]) table[c] = true;
  return table;
})();
const HASH = 0x23;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NL = 0x0a;

/** Where a string value goes. */
const enum Target {
  None,
  Msgctxt,
  Msgid,
  MsgidPlural,
  Msgstr,
}

/**
 * The counts of a catalogue's bytes, or null when the file is not in the plain layout this scanner
 * reads (then parse it).
 */
export function scanCounts(bytes: Uint8Array): ScanResult | null {
  const n = bytes.length;
  if (n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return null;
  const entries = emptyCounts();
  const words = emptyCounts();
  let language: string | null = null;
  let headerSeen = false;

  // The entry being read.
  let started = false; // a keyword of this entry was read
  let obsolete = false;
  let fuzzy = false; // from the entry's last `#,` line
  let hasCtxt = false;
  let msgidEmpty = true;
  let msgidWords = 0;
  let inWord = false;
  let formsSeen = 0;
  let firstFormEmpty = true;
  let someFormEmpty = false;
  let formEmpty = true; // the msgstr form being read
  let target = Target.None;
  let sawMsgstr = false;
  let headerStart = -1;
  let headerEnd = -1;
  let msgstrStart = -1;

  const finishForm = () => {
    if (formsSeen === 0) firstFormEmpty = formEmpty;
    else if (formEmpty) someFormEmpty = true;
    formsSeen++;
  };
  const finishEntry = (): boolean => {
    if (!started) return true;
    if (!sawMsgstr) return false;
    if (target === Target.Msgstr) finishForm();
    const header = msgidEmpty && !hasCtxt && !obsolete;
    if (header) {
      if (!headerSeen) {
        headerSeen = true;
        headerStart = msgstrStart;
        headerEnd = lastStringEnd;
      }
    } else {
      let state: EntryState;
      if (obsolete) state = "obsolete";
      else if (firstFormEmpty) state = "untranslated";
      else if (fuzzy) state = "fuzzy";
      else if (someFormEmpty) state = "untranslated";
      else state = "translated";
      entries[state]++;
      words[state] += msgidWords;
    }
    started = false;
    obsolete = false;
    fuzzy = false;
    hasCtxt = false;
    msgidEmpty = true;
    msgidWords = 0;
    inWord = false;
    formsSeen = 0;
    firstFormEmpty = true;
    someFormEmpty = false;
    formEmpty = true;
    target = Target.None;
    sawMsgstr = false;
    msgstrStart = -1;
    return true;
  };
  let lastStringEnd = -1;

  /** Reads the string whose opening quote is at `p` (on the line ending at `eol`); returns the index after it, or -1. */
  const readString = (p: number, eol: number): number => {
    const close = stringEnd(bytes, p, eol);
    if (close < 0) return -1;
    if (close > p + 1) {
      if (target === Target.Msgid) {
        msgidEmpty = false;
        const counted = countWords(bytes, p + 1, close, inWord);
        if (counted < 0) return -1;
        msgidWords += counted >> 1;
        inWord = (counted & 1) === 1;
      } else if (target === Target.Msgstr) formEmpty = false;
    }
    lastStringEnd = close;
    return close + 1;
  };

  let i = 0;
  while (i < n) {
    // One line: [i, eol).
    const eol = lineEnd(bytes, i, n);
    let p = i;
    let lineObsolete = false;
    if (bytes[p] === HASH) {
      const d = bytes[p + 1];
      if (d === 0x7e) { // #~
        if (bytes[p + 2] === 0x7c) { // #~| previous: ignored
          i = eol + 1;
          continue;
        }
        lineObsolete = true;
        p += 2;
        while (p < eol && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++;
        if (p === eol) { // an empty "#~" line
          i = eol + 1;
          continue;
        }
      } else {
        // A comment: it may only come before an entry's keywords.
        if (started && !sawMsgstr) return null;
        if (started && !finishEntry()) return null;
        if (d === 0x2c) fuzzy = flagLineHasFuzzy(bytes, p + 2, eol);
        i = eol + 1;
        continue;
      }
    }
    // Skip leading blanks.
    while (p < eol && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++;
    if (p === eol) {
      if (lineObsolete) return null;
      i = eol + 1;
      continue;
    }
    const c = bytes[p];
    if (c === 0x0d) return null;
    if (c === QUOTE) {
      if (target === Target.None || lineObsolete !== obsolete) return null;
      p = readString(p, eol);
      if (p < 0) return null;
    } else if (c === 0x6d) { // m
      const keyword = readKeyword(bytes, p, eol);
      if (keyword === null) return null;
      const [kind, end] = keyword;
      if (kind === "msgctxt" || kind === "msgid") {
        if (
          sawMsgstr || (started && kind === "msgctxt") ||
          (started && kind === "msgid" && target !== Target.Msgctxt)
        ) {
          if (!finishEntry()) return null;
        }
        if (!started) {
          started = true;
          obsolete = lineObsolete;
        } else if (lineObsolete !== obsolete) return null;
        target = kind === "msgctxt" ? Target.Msgctxt : Target.Msgid;
        if (kind === "msgctxt") hasCtxt = true;
      } else if (!started || lineObsolete !== obsolete) {
        return null;
      } else if (kind === "msgid_plural") {
        if (target !== Target.Msgid) return null;
        target = Target.MsgidPlural;
      } else { // msgstr or msgstr[N]
        if (target === Target.Msgstr) finishForm();
        else if (target !== Target.Msgid && target !== Target.MsgidPlural) return null;
        if (!sawMsgstr) msgstrStart = end;
        sawMsgstr = true;
        target = Target.Msgstr;
        formEmpty = true;
      }
      p = end;
      while (p < eol && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++;
      if (bytes[p] !== QUOTE) return null;
      p = readString(p, eol);
      if (p < 0) return null;
    } else return null;
    while (p < eol && (bytes[p] === 0x20 || bytes[p] === 0x09)) p++;
    if (p !== eol) return null;
    i = eol + 1;
  }
  if (started && !finishEntry()) return null;
  if (!asciiOrUtf8(bytes, headerStart, headerEnd)) return null;
  if (!validUtf8(bytes)) return null;
  if (headerStart >= 0) language = headerLanguage(bytes, headerStart, headerEnd);
  return {
    counts: { entries, words, percent: percentDone(entries), percent_words: percentDone(words) },
    language,
  };
}

/** The index of the newline ending the line that starts at `i` (or `n`): a loop, cheaper than a builtin call per line. */
function lineEnd(bytes: Uint8Array, i: number, n: number): number {
  while (i < n && bytes[i] !== NL) i++;
  return i;
}

/**
 * The index of the closing quote of the string opened at `p`, or -1 when it does not end on its
 * line or holds an escape left to the parser (\x, octal, unknown) or a CR.
 */
function stringEnd(bytes: Uint8Array, p: number, eol: number): number {
  for (let q = p + 1; q < eol; q++) {
    const c = bytes[q]!;
    if (c === QUOTE) return q;
    if (c === BACKSLASH) {
      // The escapes gettext knows and that stand for one character; the others go to the parser.
      if (!SIMPLE_ESCAPES[bytes[q + 1] ?? 0]) return -1;
      q++;
    } else if (c === 0x0d) return -1;
  }
  return -1;
}

/**
 * Words in the msgid text `bytes[from, to)` (escaped, UTF-8), continuing a word when `inWord`:
 * returns words × 2, plus 1 when the text ends inside a word.
 */
function countWords(bytes: Uint8Array, from: number, to: number, inWord: boolean): number {
  let words = 0;
  let p = from;
  while (p < to) {
    const c = bytes[p]!;
    let space: boolean;
    if (c === BACKSLASH) {
      const d = bytes[p + 1];
      // \n, \t, \r, \f, \v are whitespace in the decoded text; \\, \", \a… are not.
      space = d === 0x6e || d === 0x74 || d === 0x72 || d === 0x66 || d === 0x76;
      p += 2;
    } else if (c < 0x80) {
      space = c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
      p++;
    } else {
      const w = utf8Whitespace(bytes, p);
      space = w > 0;
      p += w > 0 ? w : 1;
    }
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words * 2 + (inWord ? 1 : 0);
}

/**
 * The keyword at `p` and where it ends, or null when it is not one this scanner reads: compared
 * byte by byte (a string made per keyword line, and a regular expression for `msgstr[N]`, took a
 * seventh of a cold listing).
 */
function readKeyword(bytes: Uint8Array, p: number, eol: number): [string, number] | null {
  let e = p;
  while (e < eol && bytes[e] !== 0x20 && bytes[e] !== 0x09 && bytes[e] !== QUOTE) e++;
  const length = e - p;
  // Every keyword starts with "msg".
  if (length < 5 || bytes[p] !== 0x6d || bytes[p + 1] !== 0x73 || bytes[p + 2] !== 0x67) return null;
  if (bytesAre(bytes, p + 3, "id")) {
    if (length === 5) return ["msgid", e];
    return length === 12 && bytesAre(bytes, p + 5, "_plural") ? ["msgid_plural", e] : null;
  }
  if (length === 7 && bytesAre(bytes, p + 3, "ctxt")) return ["msgctxt", e];
  if (length < 6 || !bytesAre(bytes, p + 3, "str")) return null;
  if (length === 6) return ["msgstr", e];
  // msgstr[N], N of 1 to 3 digits.
  if (length < 9 || length > 11 || bytes[p + 6] !== 0x5b || bytes[e - 1] !== 0x5d) return null;
  for (let q = p + 7; q < e - 1; q++) if (bytes[q]! < 0x30 || bytes[q]! > 0x39) return null;
  return ["msgstr[]", e];
}

/** True when the bytes at `at` are the ASCII characters of `text`. */
function bytesAre(bytes: Uint8Array, at: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (bytes[at + k] !== text.charCodeAt(k)) return false;
  return true;
}

/** True when the `#,` line's text `[from, to)` has the token `fuzzy` (separators: space, tab, CR, FF, VT, comma). */
function flagLineHasFuzzy(bytes: Uint8Array, from: number, to: number): boolean {
  let p = from;
  while (p < to) {
    while (p < to && isFlagSeparator(bytes[p]!)) p++;
    const start = p;
    while (p < to && !isFlagSeparator(bytes[p]!)) p++;
    if (
      p - start === 5 && bytes[start] === 0x66 && bytes[start + 1] === 0x75 && bytes[start + 2] === 0x7a &&
      bytes[start + 3] === 0x7a && bytes[start + 4] === 0x79
    ) return true;
  }
  return false;
}

function isFlagSeparator(c: number): boolean {
  return c === 0x20 || c === 0x2c || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b || c === NL;
}

/** Bytes of a UTF-8 whitespace character (those Python's str.split() splits at) at `p`, or 0. */
function utf8Whitespace(bytes: Uint8Array, p: number): number {
  const a = bytes[p];
  const b = bytes[p + 1];
  if (a === 0xc2) return b === 0x85 || b === 0xa0 ? 2 : 0;
  const c = bytes[p + 2] ?? 0; // past the end: no whitespace
  if (a === 0xe1) return b === 0x9a && c === 0x80 ? 3 : 0;
  if (a === 0xe2) {
    if (b === 0x80) return (c >= 0x80 && c <= 0x8a) || c === 0xa8 || c === 0xa9 || c === 0xaf ? 3 : 0;
    if (b === 0x81) return c === 0x9f ? 3 : 0;
    return 0;
  }
  if (a === 0xe3) return b === 0x80 && c === 0x80 ? 3 : 0;
  return 0;
}

/**
 * True when the header names UTF-8 or ASCII (or no charset): the only encodings this scanner
 * counts words in. The header is `bytes[from, to)`.
 */
function asciiOrUtf8(bytes: Uint8Array, from: number, to: number): boolean {
  if (from < 0) {
    // No header: gettext reads it as ASCII; non-ASCII bytes then are the parser's business.
    for (const b of bytes) if (b >= 0x80) return false;
    return true;
  }
  const header = new TextDecoder().decode(bytes.subarray(from, to));
  const match = /charset=([^\s\\"]*)/i.exec(header);
  if (match === null) {
    for (const b of bytes) if (b >= 0x80) return false;
    return true;
  }
  const charset = match[1]!.toUpperCase();
  return charset === "UTF-8" || charset === "UTF8";
}

/** The `Language:` field of the header's msgstr text in `bytes[from, to)`, or null. */
function headerLanguage(bytes: Uint8Array, from: number, to: number): string | null {
  const text = new TextDecoder().decode(bytes.subarray(from, to)).replace(/"\s*\n\s*"/g, "").replace(
    /\\n/g,
    "\n",
  );
  const match = /^\s*"?Language:[ \t]*([^\n"]*?)[ \t]*$/m.exec(text);
  return match && match[1] !== "" ? match[1]! : null;
}

const FATAL_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** True when `bytes` are valid UTF-8 (the parser refuses a file that says UTF-8 and is not). */
function validUtf8(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return true;
  try {
    FATAL_UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
