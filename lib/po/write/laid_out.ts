/**
 * What `msgcat FILE` (GNU gettext 0.21) prints for a PO file, told by reading the file's own lines
 * instead of parsing it into a catalogue and laying that out again. Most catalogues a team runs
 * `wrap` on are laid out already (a tree that powrap keeps: 482 of python-docs-fr's 496), and for
 * them the whole reader (strings decoded, messages built) and the whole writer (strings encoded
 * again, a copy of the file written) ran only to find the bytes unchanged.
 *
 * {@link laidOutVerdict} answers LAID_OUT (msgcat prints these very bytes), NOT_LAID_OUT (it reads
 * the file without an error and prints other bytes) or UNKNOWN; {@link knownLayout} gives msgcat's
 * bytes when it knows them. UNKNOWN means "not told here": the caller lays the file out the usual
 * way (`parsePo` + `encodePo`), which decides, reports errors and rewrites. So this reading needs to
 * know the shapes msgcat prints and a few it mends, never how msgcat refuses a file; anything
 * else is UNKNOWN:
 *
 * - UTF-8 only (the first message is the header and names it), well-formed, no byte order mark;
 * - every line in a shape msgcat prints: comments (`#`, `#.`, `#:`, `#,`; none ending with a
 *   backslash, which joins it to the next line), `#|` previous strings, then the strings, each line
 *   `P"…"` with msgcat's own escapes only, in gettext's grammar (a `#| msgctxt` comes with a
 *   `#| msgid`, plural forms in order); messages blank lines apart (msgcat prints one);
 * - no two messages with the same msgctxt and msgid (msgcat refuses the file), nor the same hash of
 *   them.
 *
 * Each message is then printed as the writer prints it, with the writer's own pieces:
 * `writeStringBytes` (the layout of every string, on its unescaped bytes, with no string made),
 * `writeComment`, `writeReferences` and `flagLine`, after reading its comment lines with the
 * reader's own rules (`Pending`), so the two cannot disagree on a layout. Two kinds of lines are
 * copied instead, where the writer's rules show it prints them as they are: a string of one line
 * that fits in 79 bytes (`printedAsIs`), and `#:` lines in msgcat's spelling and filling
 * (`ReferenceLinesAsRead`, next to `writeReferences`). An obsolete message without translation is
 * dropped as msgcat drops it. The file is LAID_OUT when those bytes are its own. Otherwise they are
 * msgcat's output, unless an obsolete message came before an active one (msgcat moves it last; this
 * reading does not): then only the verdict is known. The tests hold every definite answer, and every
 * output, to the full reader and writer's, on every fixture and corpus file and on thousands of
 * mutations of laid-out files.
 *
 * Linear in the file: one pass over its lines, each string unescaped once and laid out once, and
 * duplicates found through a hash of each (msgctxt, msgid): two messages with one hash, equal or
 * crafted to collide, make the file UNKNOWN, and the full reader's linear check takes over.
 *
 * @module
 */
import { ByteWriter, SEEN_UNHOLDABLE } from "./_byte_writer.ts";
import { canonicalCharset, headerCharset } from "../charsets/_charset.ts";
import { flagLine, formatLanguageOf, interpretFlags, NO_FLAGS } from "../read/_flags.ts";
import { Pending } from "../read/_grammar.ts";
import { pluralKeyword, writeComment } from "./_message_layout.ts";
import { parseReferences, ReferenceLinesAsRead, writeReferences } from "../read/_references.ts";
import { type GettextGeneration, writeStringBytes } from "../layout/string_layout.ts";
import { equalBytes } from "../../native_bytes.ts";

// String fields in msgcat's order; plural forms come after F_STR, one slot each.
const F_PREV_CTXT = 0;
const F_PREV_ID = 1;
const F_PREV_PLURAL = 2;
const F_CTXT = 3;
const F_ID = 4;
const F_PLURAL = 5;
const F_STR = 6;
const FIELD_KEYWORDS = ["msgctxt", "msgid", "msgid_plural", "msgctxt", "msgid", "msgid_plural", "msgstr"];

/** Comment sections in msgcat's order (a section may not come back after a later one). */
const S_TRANSLATOR = 0;
const S_EXTRACTED = 1;
const S_REFERENCES = 2;
const S_FLAGS = 3;
const S_STRINGS = 4;

/** A value for {@link flagLine}'s msgstr, which it only tests for being empty. */
const SOME_TEXT = "\u0001";

const utf8Decoder = new TextDecoder();

/** The unescaped bytes of one message's strings, each followed by a spare byte (the writer's sentinel). */
let arena = new Uint8Array(1 << 16);
/** Start and end in {@link arena} of each field of the message being read, -1 when absent. */
const fieldStart = new Int32Array(F_STR + 1 + 64);
const fieldEnd = new Int32Array(F_STR + 1 + 64);
/**
 * Where in the file each field's one line starts and ends (after its newline) when msgcat prints
 * that line as it is (see {@link printedAsIs}); -1 otherwise. Such a line is copied, not laid out.
 */
const lineStart = new Int32Array(F_STR + 1 + 64);
const lineEnd = new Int32Array(F_STR + 1 + 64);
/** msgcat's bytes for the file, message by message; kept from file to file (its pages stay mapped). */
const expected = new ByteWriter(1 << 16);

/** One message's strings as read: which fields, where. Reset for each message. */
class MessageShape {
  /** Highest field slot seen so far (slots must come in order). */
  last = -1;
  /** Plural forms read. */
  forms = 0;
  /** Whether the strings are obsolete (`#~`); null until the first string line. */
  obsolete: boolean | null = null;
  /** Next free byte of {@link arena}. */
  used = 0;

  reset(): void {
    for (let f = 0; f <= this.last; f++) fieldStart[f] = -1;
    this.last = -1;
    this.forms = 0;
    this.obsolete = null;
    this.used = 0;
  }

  has(f: number): boolean {
    return f <= this.last && fieldStart[f]! >= 0;
  }
}

/** Makes room in {@link arena} for `n` more bytes after `used` (kept). */
function reserveArena(used: number, n: number): void {
  if (used + n <= arena.length) return;
  let size = arena.length * 2;
  while (size < used + n) size *= 2;
  const next = new Uint8Array(size);
  next.set(arena.subarray(0, used));
  arena = next;
}

/** msgcat's escapes (`\n`…): the byte each letter stands for, 0 for a letter that is not one. */
const UNESCAPE = new Uint8Array(128);
for (
  const [letter, byte] of [["n", 10], ["t", 9], ["r", 13], ["a", 7], ["b", 8], ["f", 12], ["v", 11]] as const
) {
  UNESCAPE[letter.charCodeAt(0)] = byte;
}
UNESCAPE[92] = 92;
UNESCAPE[34] = 34;

/**
 * Appends the unescaped text of a quoted line, from `from` (after its opening quote) to its closing
 * quote, to the arena at `at`: sets {@link unescapedEnd} and returns the closing quote's offset, or
 * -1 for an escape msgcat does not print, bytes that are not UTF-8 or a line that ends first. (In a
 * laid-out line the first quote not escaped is the closing one: msgcat escapes every other.)
 */
function unescapeLine(bytes: Uint8Array, from: number, at: number): number {
  // One pass, byte by byte: copied, unescaped, or checked as UTF-8 (the file's only check: every
  // other byte is matched as ASCII). The file ends with a newline, so the line stops before its
  // end; the arena grows ahead of a write of up to 4 bytes and the writer's sentinel.
  let out = arena;
  let room = out.length - 5;
  let k = at;
  let p = from;
  unescapedPlain = true;
  for (;;) {
    if (k >= room) {
      reserveArena(k, 4096);
      out = arena;
      room = out.length - 5;
    }
    const c = bytes[p]!;
    if (NOT_PLAIN[c] === 0) {
      out[k++] = c;
      p++;
    } else if (c === 34) {
      unescapedEnd = k;
      return p;
    } else if (c === 92) {
      const e = bytes[p + 1]!;
      const b = e < 128 ? UNESCAPE[e]! : 0;
      if (b === 0) return -1;
      if (b === 10 && bytes[p + 2] !== 34) unescapedPlain = false; // a `\n` before the end
      out[k++] = b;
      p += 2;
    } else if (c === 10) {
      return -1;
    } else if (c < 0x80) {
      out[k++] = c; // a control character
      p++;
      unescapedPlain = false;
    } else {
      const length = utf8SequenceLength(bytes, p, bytes.length);
      if (length === 0) return -1;
      for (let j = 0; j < length; j++) out[k++] = bytes[p++]!;
    }
  }
}

/** The arena's end after {@link unescapeLine}. */
let unescapedEnd = 0;
/**
 * Whether the line {@link unescapeLine} read holds no control character (which msgcat may escape,
 * or refuse) and no `\n` but at its end: a string of that one line is then printed as the same
 * line when the line fits in 79 columns ({@link printedAsIs}).
 */
let unescapedPlain = true;

/**
 * Whether the one-line string field at `bytes[from, to)` (its prefix to its closing quote) is
 * printed by msgcat as that same line: `writeStringBytes` keeps a string on its keyword line when
 * it has no `\n` but at its end and its escaped text fits in 79 columns with the prefix, keyword
 * and quotes. A line of at most 79 bytes fits: no character takes more columns than its UTF-8 bytes
 * (2 at most, for 2 bytes or more), an escape takes its 2. Escaping what {@link unescapeLine} read
 * gives the line's own text back: it takes msgcat's escapes only, and no control character.
 */
function printedAsIs(from: number, to: number): boolean {
  return unescapedPlain && to - from <= 79;
}

/** What {@link unescapeLine} does not just copy: `"`, `\\`, control characters, bytes outside ASCII. */
const NOT_PLAIN = new Uint8Array(256);
NOT_PLAIN.fill(1, 0, 0x20);
NOT_PLAIN.fill(1, 0x80);
NOT_PLAIN[34] = NOT_PLAIN[92] = NOT_PLAIN[10] = 1;

/**
 * The length of the well-formed UTF-8 sequence at `bytes[at]` (a byte outside ASCII) that ends by
 * `end`, or 0 when there is none: a stray continuation byte, an overlong form, a surrogate, a code
 * point past U+10FFFF or a sequence cut short (what a strict `TextDecoder` refuses).
 */
function utf8SequenceLength(bytes: Uint8Array, at: number, end: number): number {
  const c = bytes[at]!;
  if (c < 0xc2 || c > 0xf4) return 0;
  if (c < 0xe0) return at + 1 < end && (bytes[at + 1]! & 0xc0) === 0x80 ? 2 : 0;
  const length = c < 0xf0 ? 3 : 4;
  if (at + length > end) return 0;
  // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
  const second = bytes[at + 1]!;
  const low = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const high = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) if ((bytes[at + k]! & 0xc0) !== 0x80) return 0;
  return length;
}

/** Whether `bytes[from, to)` is well-formed UTF-8. */
function isUtf8Run(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to;) {
    if (bytes[i]! < 0x80) i++;
    else {
      const length = utf8SequenceLength(bytes, i, to);
      if (length === 0) return false;
      i += length;
    }
  }
  return true;
}

/** `bytes[from, to)` as text, or null when it holds a NUL or is not well-formed UTF-8. */
function lineText(bytes: Uint8Array, from: number, to: number): string | null {
  const s = utf8Decoder.decode(bytes.subarray(from, to));
  if (s.indexOf("\0") >= 0) return null;
  // The decoder puts U+FFFD for what is not UTF-8 (and the line may hold U+FFFD itself).
  return s.indexOf("\uFFFD") < 0 || isUtf8Run(bytes, from, to) ? s : null;
}

/** Whether `bytes` holds the ASCII text `word` at `at`. */
function startsWith(bytes: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** Where the text after the keyword {@link keywordAt} found starts (after its space). */
let keywordEnd = 0;

/**
 * The field slot of the keyword at `at` (followed by a space; {@link keywordEnd} is set after
 * it), or -1 if none. Told by its fourth letter first: `msgid`, `msgstr`, `msgctxt`.
 */
function keywordAt(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== 109 || bytes[at + 1] !== 115 || bytes[at + 2] !== 103) return -1; // "msg"
  const d = bytes[at + 3];
  if (d === 105 && bytes[at + 4] === 100) { // "msgid"
    if (bytes[at + 5] === 32) {
      keywordEnd = at + 6;
      return F_ID;
    }
    if (startsWith(bytes, at + 5, "_plural ")) {
      keywordEnd = at + 13;
      return F_PLURAL;
    }
    return -1;
  }
  if (d === 115 && bytes[at + 4] === 116 && bytes[at + 5] === 114) { // "msgstr"
    if (bytes[at + 6] === 32) {
      keywordEnd = at + 7;
      return F_STR;
    }
    if (bytes[at + 6] !== 91) return -1;
    // msgstr[N], N spelled as msgcat spells it; the caller checks N is the form's place (gettext
    // refuses a form out of its place).
    let p = at + 7;
    let index = 0;
    while (bytes[p]! >= 48 && bytes[p]! <= 57 && p < at + 12) index = index * 10 + bytes[p++]! - 48;
    if (p === at + 7 || (bytes[at + 7] === 48 && p > at + 8) || bytes[p] !== 93 || bytes[p + 1] !== 32) {
      return -1;
    }
    keywordEnd = p + 2;
    return F_STR + 1 + index;
  }
  if (d === 99 && startsWith(bytes, at + 4, "txt ")) { // "msgctxt"
    keywordEnd = at + 8;
    return F_CTXT;
  }
  return -1;
}

/**
 * The message's `#:` lines that msgcat prints as they are, taken as bytes (no string made, nothing
 * parsed into references: most files' `#:` lines, ~56,000 in python-docs-fr).
 */
const refLines = new ReferenceLinesAsRead();

/**
 * Reads the `#:` lines taken as bytes into `comments.references`, as the reader reads them, so
 * that references read otherwise go after them; false when one holds a NUL (UNKNOWN).
 */
function takeReferencesAsRead(bytes: Uint8Array, comments: Pending): boolean {
  for (let p = refLines.from; p < refLines.to;) {
    const eol = bytes.indexOf(10, p);
    const text = lineText(bytes, p + 2, eol);
    if (text === null) return false;
    parseReferences(text, comments.references);
    p = eol + 1;
  }
  refLines.clear();
  return true;
}

/**
 * A hash of a message's (msgctxt, msgid) as unescaped bytes in the arena (FNV-1a over every byte,
 * the two fields told apart, with a final mix); `ctxtFrom` < 0 when it has no msgctxt.
 */
function identityHash(ctxtFrom: number, ctxtTo: number, idFrom: number, idTo: number): number {
  const b = arena;
  let h = 0x811c9dc5;
  if (ctxtFrom >= 0) {
    h = Math.imul(h ^ (ctxtTo - ctxtFrom + 1), 0x01000193);
    for (let i = ctxtFrom; i < ctxtTo; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  }
  h = Math.imul(h ^ (idTo - idFrom), 0x01000193);
  for (let i = idFrom; i < idTo; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) | 0;
}

/**
 * The identity hashes of the file's messages so far. Two messages with the same hash make the file
 * UNKNOWN: a duplicate (msgcat refuses the file) or, rarely, two that only share a hash; either way
 * the full reader decides, in linear time, however the file was crafted.
 */
const identities = new Set<number>();

/** {@link laidOutVerdict}: msgcat prints exactly these bytes. */
export const LAID_OUT = 0;
/**
 * {@link laidOutVerdict}: msgcat reads the file without an error and prints other bytes (every line
 * has a shape the reader takes, the header names UTF-8, no message comes twice, and some message is
 * laid out differently, in another order, or dropped).
 */
export const NOT_LAID_OUT = 1;
/** {@link laidOutVerdict}: not told here; lay the file out to know. */
export const UNKNOWN = 2;
/** {@link layoutMatches}: an obsolete message msgcat drops (its bytes are to be taken back). */
const DROPPED = 3 as const;
/**
 * {@link readVerdict}: NOT_LAID_OUT, and `expected` is not msgcat's output (an obsolete message came
 * before an active one: msgcat moves it last, this reading does not).
 */
const REORDERED = 4 as const;
/** What {@link laidOutVerdict} answers. */
export type LaidOutVerdict = typeof LAID_OUT | typeof NOT_LAID_OUT | typeof UNKNOWN;

/**
 * {@link LAID_OUT} when `msgcat FILE` (with `--no-wrap` when `noWrap`) prints exactly `bytes`,
 * {@link NOT_LAID_OUT} when it reads the file without an error and prints other bytes (what
 * `wrap --check` reports as "Would rewrap"), {@link UNKNOWN} when this reading cannot tell (lay the
 * file out: that decides, and reports what msgcat refuses).
 */
export function laidOutVerdict(
  bytes: Uint8Array,
  noWrap = false,
  generation: GettextGeneration = "0.21",
): LaidOutVerdict {
  lastReading = null;
  const verdict = readVerdict(bytes, noWrap, generation);
  lastReading = { bytes, noWrap, generation, verdict };
  releaseLarge();
  return verdict === REORDERED ? NOT_LAID_OUT : verdict;
}

/** What {@link differsInEveryGeneration} answers: set by the last reading. */
let differedEverywhere = false;

/**
 * Whether the file the last {@link laidOutVerdict} or {@link knownLayout} call read NOT_LAID_OUT
 * differs from msgcat's output in a way no generation's layout of strings changes: blank lines,
 * comments out of msgcat's order or kind, an untranslated obsolete message, obsolete messages before
 * active ones. Such a file is then NOT_LAID_OUT (or UNKNOWN) for every generation, so detection need
 * not lay it out as the other one. False after any other answer.
 *
 * @example
 * ```ts
 * if (laidOutVerdict(bytes) === NOT_LAID_OUT && differsInEveryGeneration()) {
 *   // not a fixed point of 0.23's msgcat either
 * }
 * ```
 */
export function differsInEveryGeneration(): boolean {
  return differedEverywhere;
}

/** Buffers kept from file to file: up to this size (a huge file's would otherwise stay for the run). */
const KEPT_BYTES = 32 * 1024 * 1024;

/** Drops the arena and the expected bytes when a large file made them grow past {@link KEPT_BYTES}. */
function releaseLarge(): void {
  if (arena.length > KEPT_BYTES) arena = new Uint8Array(1 << 16);
  if (expected.buf.length > KEPT_BYTES) {
    expected.buf = new Uint8Array(1 << 16);
    expected.pos = 0;
    lastReading = null;
  }
}

/**
 * The last {@link laidOutVerdict}'s file and answer (`expected` still holding msgcat's bytes after
 * NOT_LAID_OUT): a {@link knownLayout} of the same bytes with the same options right after it
 * answers from them instead of reading the file again (`wrap` outside a repository elects the
 * layout from the very file it then lays out). The same array means the same bytes: neither
 * function is given one that changed in between.
 */
let lastReading: {
  bytes: Uint8Array;
  noWrap: boolean;
  generation: GettextGeneration;
  verdict: LaidOutVerdict | typeof REORDERED;
} | null = null;

/**
 * The reading itself ({@link laidOutVerdict}); after NOT_LAID_OUT, `expected` holds msgcat's bytes
 * (not after REORDERED).
 */
function readVerdict(
  bytes: Uint8Array,
  noWrap: boolean,
  generation: GettextGeneration,
): LaidOutVerdict | typeof REORDERED {
  const n = bytes.length;
  if (n === 0 || bytes[n - 1] !== 10 || bytes[0] === 10) return UNKNOWN;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return UNKNOWN;
  // Set at the first thing msgcat would print otherwise; reading goes on, to tell a file msgcat
  // takes from one it refuses (UNKNOWN).
  let differs = false;
  // Set with it where no generation's layout makes the difference (see differsInEveryGeneration).
  let everywhere = false;
  differedEverywhere = false;
  // Obsolete messages before active ones: msgcat moves them, and `expected` is not its output.
  let reordered = false;
  // Messages written to `expected` (msgcat drops some).
  let written = 0;
  expected.pos = 0;
  const shape = new MessageShape();
  for (let f = 0; f < fieldStart.length; f++) fieldStart[f] = -1;
  const comments = new Pending();
  refLines.clear();
  identities.clear();
  let messages = 0;
  let obsoleteSeen = false;
  let i = 0;
  while (i < n) {
    // One message: its lines up to a blank line or the end of the file.
    const start = i;
    let section = S_TRANSLATOR;
    let flagLines = 0;
    let current = -1; // the field that continuation lines extend
    let currentPrefix = -1; // its prefix's length, and its kind:
    let currentPrevious = false;
    while (i < n && bytes[i] !== 10) {
      const c = bytes[i]!;
      const d = bytes[i + 1];
      let obsolete = false;
      let previous = false;
      let at = i;
      if (c === 35 && d !== 126 && d !== 124) {
        // A comment line: `#`, `#.`, `#:`, `#,`.
        // (Comments after the strings belong to the next message: left to the full reader.)
        if (section === S_STRINGS) return UNKNOWN;
        let eol = i + 1;
        while (bytes[eol] !== 10) eol++; // the file ends with a newline
        // gettext's reader drops a backslash-newline anywhere, so this line and the next are one
        // (a string line ends with its quote: only a comment can end with a backslash).
        if (bytes[eol - 1] === 92) return UNKNOWN;
        // msgcat prints each kind in its place (so one out of it is printed elsewhere), one `#,`
        // line (the last one read), and a `#!` line as a `#,` one.
        if (d === 58) {
          if (section > S_REFERENCES) differs = everywhere = true;
          else section = S_REFERENCES;
          // Lines msgcat prints as they are are taken as bytes while they follow one another and
          // no reference was read otherwise.
          const takes = refLines.from < 0 ? comments.references.length === 0 : refLines.to === i;
          if (!takes || !refLines.take(bytes, i, eol)) {
            if (refLines.from >= 0 && !takeReferencesAsRead(bytes, comments)) return UNKNOWN;
            const text = lineText(bytes, i + 2, eol);
            if (text === null) return UNKNOWN;
            parseReferences(text, comments.references);
          }
        } else {
          const kind = d === 46 ? S_EXTRACTED : d === 44 || d === 33 ? S_FLAGS : S_TRANSLATOR;
          if (d === 33 || kind < section || (kind === S_FLAGS && ++flagLines > 1)) {
            differs = everywhere = true;
          } else section = kind;
          const text = lineText(bytes, i + 1, eol);
          if (text === null) return UNKNOWN;
          // A Solaris `# File:` comment adds a reference: after those taken as bytes.
          if (kind === S_TRANSLATOR && refLines.from >= 0 && !takeReferencesAsRead(bytes, comments)) {
            return UNKNOWN;
          }
          const references = comments.references.length;
          comments.comment(text);
          // A Solaris `# File: …` line is a reference, printed on a `#:` line.
          if (comments.references.length !== references) differs = everywhere = true;
        }
        i = eol + 1;
        continue;
      }
      if (c === 35) {
        // `#~ `, `#~| ` or `#| `, then a keyword or a continuation.
        obsolete = d === 126;
        at = i + 2;
        if (obsolete && bytes[at] === 124) {
          previous = true;
          at++;
        } else previous = !obsolete;
        if (bytes[at] !== 32) return UNKNOWN;
        at++;
      }
      section = S_STRINGS;
      let slot: number;
      let textFrom: number;
      if (bytes[at] === 34) {
        // A continuation line of the current field, with the same prefix.
        if (current < 0 || at - i !== currentPrefix || previous !== currentPrevious) return UNKNOWN;
        if (shape.obsolete !== obsolete) return UNKNOWN;
        slot = current;
        textFrom = at + 1;
      } else {
        slot = keywordAt(bytes, at);
        if (slot < 0 || bytes[keywordEnd] !== 34) return UNKNOWN;
        if (previous) {
          // Only msgctxt, msgid and msgid_plural have previous strings (`#| msgid "…"`).
          if (slot !== F_CTXT && slot !== F_ID && slot !== F_PLURAL) return UNKNOWN;
          slot = slot - F_CTXT + F_PREV_CTXT;
        }
        if (slot > F_STR) {
          if (slot !== F_STR + 1 + shape.forms) return UNKNOWN;
          shape.forms++;
        }
        if (slot <= shape.last || slot >= fieldStart.length) return UNKNOWN;
        if (shape.obsolete === null) shape.obsolete = obsolete;
        else if (shape.obsolete !== obsolete) return UNKNOWN;
        shape.last = slot;
        fieldStart[slot] = shape.used;
        fieldEnd[slot] = shape.used;
        lineStart[slot] = i;
        current = slot;
        currentPrefix = at - i;
        currentPrevious = previous;
        textFrom = keywordEnd + 1;
      }
      // The text between the quotes; the line ends with the closing one.
      const close = unescapeLine(bytes, textFrom, fieldEnd[slot]!);
      if (close < 0 || bytes[close + 1] !== 10) return UNKNOWN;
      // A field's one line may be copied; one of several lines, or another line, may not.
      if (lineStart[slot] === i && printedAsIs(i, close + 1)) lineEnd[slot] = close + 2;
      else lineStart[slot] = -1;
      fieldEnd[slot] = unescapedEnd;
      shape.used = unescapedEnd + 1; // a spare byte: the writer's sentinel
      i = close + 2;
    }
    if (!shape.has(F_ID) || shape.obsolete === null) return UNKNOWN;
    const obsolete = shape.obsolete;
    if (obsoleteSeen && !obsolete) {
      differs = everywhere = true; // msgcat moves obsolete messages last (this reading does not)
      reordered = true;
    }
    obsoleteSeen ||= obsolete;
    // msgcat's bytes for this message go after the others', one blank line apart.
    const separatorAt = expected.pos;
    if (written > 0) expected.byte(10);
    const at = expected.pos;
    if (at !== start) differs = true;
    const layout = layoutMatches(bytes, at, i - start, shape, comments, noWrap, messages === 0, generation);
    if (layout === UNKNOWN) return UNKNOWN;
    if (layout === DROPPED) {
      // An obsolete message without translation: msgcat prints neither it nor its blank line.
      expected.pos = separatorAt;
      differs = everywhere = true;
    } else {
      written++;
      if (layout === NOT_LAID_OUT) differs = true;
    }
    const identity = identityHash(fieldStart[F_CTXT]!, fieldEnd[F_CTXT]!, fieldStart[F_ID]!, fieldEnd[F_ID]!);
    if (identities.has(identity)) return UNKNOWN; // a message that comes twice: msgcat refuses the file
    identities.add(identity);
    messages++;
    comments.reset();
    refLines.clear();
    shape.reset();
    // msgcat prints one blank line between two messages and none after the last; more are
    // whitespace to gettext's reader (a message's own lines never hold a blank one here: each
    // part of one alone lacks its msgid or msgstr, and is UNKNOWN above).
    if (i < n) {
      i++;
      if (i >= n || bytes[i] === 10) differs = everywhere = true;
      while (i < n && bytes[i] === 10) i++;
    }
  }
  // A file of its header alone is printed as nothing.
  if (messages < 2) return UNKNOWN;
  differedEverywhere = everywhere;
  if (reordered) return REORDERED;
  if (!differs && expected.pos === n && equalBytes(expected.buf.subarray(0, n), bytes)) return LAID_OUT;
  return NOT_LAID_OUT;
}

/**
 * msgcat's bytes for `bytes` (with `--no-wrap` when `noWrap`) when this reading knows them: `bytes`
 * itself for a laid-out file, a new array for one it lays out differently (every line in a shape it
 * reads, obsolete messages already last), else null (lay the file out with `parsePo` + `encodePo`:
 * that decides, and reports what msgcat refuses).
 *
 * @example
 * ```ts
 * const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n';
 * const bytes = new TextEncoder().encode(header + '\n# \nmsgid "a"\nmsgstr "b"\n'); // "# " prints as "#"
 * new TextDecoder().decode(knownLayout(bytes)!); // header + '\n#\nmsgid "a"\nmsgstr "b"\n'
 * ```
 */
export function knownLayout(
  bytes: Uint8Array,
  noWrap = false,
  generation: GettextGeneration = "0.21",
): Uint8Array | null {
  const last = lastReading;
  lastReading = null;
  const verdict =
    last !== null && last.bytes === bytes && last.noWrap === noWrap && last.generation === generation
      ? last.verdict
      : readVerdict(bytes, noWrap, generation);
  const out = verdict === LAID_OUT
    ? bytes
    : verdict === NOT_LAID_OUT
    ? expected.buf.slice(0, expected.pos)
    : null;
  releaseLarge();
  return out;
}

/**
 * Writes msgcat's bytes for the message read into `shape` and `comments` at `expected`'s end (`at`)
 * and tells whether they are as long as the file's `length` bytes of it (the bytes themselves are
 * compared once, for the whole file), or that msgcat drops it ({@link DROPPED}); the first message
 * must be the header, naming UTF-8.
 */
function layoutMatches(
  bytes: Uint8Array,
  at: number,
  length: number,
  shape: MessageShape,
  comments: Pending,
  noWrapAll: boolean,
  first: boolean,
  generation: GettextGeneration,
): LaidOutVerdict | typeof DROPPED {
  const plural = shape.has(F_PLURAL);
  if (plural !== shape.forms > 0 || plural === shape.has(F_STR)) return UNKNOWN;
  // gettext's grammar: a previous msgctxt or msgid_plural comes with a previous msgid.
  if ((shape.has(F_PREV_CTXT) || shape.has(F_PREV_PLURAL)) && !shape.has(F_PREV_ID)) return UNKNOWN;
  const msgstr0 = plural ? F_STR + 1 : F_STR;
  const msgstr0Empty = fieldEnd[msgstr0] === fieldStart[msgstr0];
  const obsolete = shape.obsolete!;
  const dropped = obsolete && msgstr0Empty; // msgcat drops it (still reading its strings)
  if (first) {
    const isHeader = !obsolete && !plural && !shape.has(F_CTXT) && fieldEnd[F_ID] === fieldStart[F_ID];
    if (!isHeader) return UNKNOWN;
    const header = utf8Decoder.decode(arena.subarray(fieldStart[F_STR]!, fieldEnd[F_STR]!));
    const charset = headerCharset(header);
    if (charset === null || canonicalCharset(charset) !== "UTF-8") return UNKNOWN;
  }
  // As `writeMessage` (`_message_layout.ts`) prints a message of a UTF-8 catalogue, after the
  // messages before it and the blank line between (`start` is where that line ends).
  const w = expected;
  w.seen = 0;
  const flags = comments.flags.length === 0 ? NO_FLAGS : interpretFlags(comments.flags);
  const noWrap = noWrapAll || flags.wrap === false;
  const language = flags.formats.length === 0 ? null : formatLanguageOf(flags);
  for (let k = 0; k < comments.translator.length; k++) writeComment(w, "#", comments.translator[k]!);
  for (let k = 0; k < comments.extracted.length; k++) writeComment(w, "#.", comments.extracted[k]!);
  if (refLines.from >= 0) w.copy(bytes, refLines.from, refLines.to); // printed as they are read
  else if (comments.references.length > 0) writeReferences(w, comments.references, false, null);
  if (flags !== NO_FLAGS) w.ascii(flagLine(flags, msgstr0Empty ? "" : SOME_TEXT, obsolete));
  const previous = obsolete ? "#~| " : "#| ";
  const prefix = obsolete ? "#~ " : "";
  for (let f = 0; f <= shape.last; f++) {
    const from = fieldStart[f]!;
    if (from < 0) continue;
    if (lineStart[f]! >= 0) {
      w.copy(bytes, lineStart[f]!, lineEnd[f]!); // printed as it is
      continue;
    }
    const to = fieldEnd[f]!;
    const keyword = f <= F_STR ? FIELD_KEYWORDS[f]! : pluralKeyword(f - F_STR - 1);
    writeStringBytes(
      w,
      arena.subarray(from, to + 1),
      to - from,
      null,
      to - from,
      f <= F_PREV_PLURAL ? previous : prefix,
      keyword,
      noWrap,
      language,
      false,
      generation,
    );
  }
  // A NUL or U+0004 is refused (UNKNOWN: the writer says why). The bytes themselves are compared
  // once, for the whole file (`laidOutVerdict`); lengths here.
  if ((w.seen & SEEN_UNHOLDABLE) !== 0) return UNKNOWN;
  if (dropped) return DROPPED;
  return w.pos - at === length ? LAID_OUT : NOT_LAID_OUT;
}
