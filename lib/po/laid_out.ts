/**
 * Whether a PO file is already laid out exactly as `msgcat FILE` (GNU gettext 0.21) prints it,
 * found by reading its own lines instead of parsing it into a catalogue and laying that out again.
 * Most catalogues a team checks are already laid out (a tree that powrap keeps: 482 of
 * python-docs-fr's 496), and for them `wrap --check` paid the whole reader (strings decoded, messages
 * built) and the whole writer (strings encoded again, a copy of the file written) to learn that
 * the bytes had not changed.
 *
 * The answer is one-sided: `true` only when msgcat's output is these very bytes; `false` means "not
 * shown here", and the caller lays the file out the usual way (`parsePo` + `encodePo`), which
 * decides, reports errors and rewrites. So the check needs to know only what a laid-out file looks
 * like, never how msgcat mends or rejects one; anything outside that shape answers `false`:
 *
 * - UTF-8 only (the first message is the header and names it), well-formed, no byte order mark;
 * - every line in the shape msgcat prints: comments (`#`, `#.`, `#:`, one `#,`) in msgcat's order,
 *   `#|` previous strings, then the strings, each line `P"…"` with msgcat's own escapes only;
 *   messages one blank line apart, obsolete (`#~`) ones last, none that msgcat would drop;
 * - no two messages with the same msgctxt and msgid (msgcat rejects the file);
 * - and each message equal, byte for byte, to what the writer prints for it. That last step uses
 *   the writer's own pieces: `writeStringBytes` (the layout of every string, on its unescaped
 *   bytes, with no string made), `writeComment`, `writeReferences` and `flagLine`, and reads the
 *   comment lines with the reader's own rules (`Pending`), so the two cannot disagree on a layout.
 *
 * Linear in the file: one pass over its lines, each string unescaped once and laid out once, and
 * duplicates found through a hash of each (msgctxt, msgid) with chains of at most {@link MAX_CHAIN} (a
 * file crafted to make longer ones answers `false`, and the full reader's linear check takes over).
 *
 * @module
 */
import { ByteWriter, SEEN_UNHOLDABLE } from "./_byte_writer.ts";
import { canonicalCharset, headerCharset } from "./_charset.ts";
import { flagLine, formatLanguageOf, interpretFlags, NO_FLAGS } from "./_flags.ts";
import { Pending } from "./_grammar.ts";
import { pluralKeyword, writeComment } from "./_message_layout.ts";
import { parseReferences, writeReferences } from "./_references.ts";
import { writeStringBytes } from "./wrap.ts";
import { equalBytes, isUtf8Bytes } from "../native_bytes.ts";

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

/** Longest chain of messages sharing a hash before the check gives up (see the module). */
const MAX_CHAIN = 16;

/** A value for {@link flagLine}'s msgstr, which it only tests for being empty. */
const SOME_TEXT = "\u0001";

const utf8Decoder = new TextDecoder();

/** The unescaped bytes of one message's strings, each followed by a spare byte (the writer's sentinel). */
let arena = new Uint8Array(1 << 16);
/** Start and end in {@link arena} of each field of the message being read, -1 when absent. */
const fieldStart = new Int32Array(F_STR + 1 + 64);
const fieldEnd = new Int32Array(F_STR + 1 + 64);
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
 * -1 for an escape msgcat does not print or a line that ends first. (In a laid-out line the first
 * quote not escaped is the closing one: msgcat escapes every other.)
 */
function unescapeLine(bytes: Uint8Array, from: number, at: number): number {
  const n = bytes.length;
  reserveArena(at, Math.min(n - from, 1 << 20));
  let out = arena;
  let k = at;
  for (let p = from; p < n; p++) {
    const c = bytes[p]!;
    if (k >= out.length) {
      reserveArena(k, 1 << 20);
      out = arena;
    }
    if (c === 34) {
      unescapedEnd = k;
      return p;
    }
    if (c === 10) return -1;
    if (c !== 92) {
      out[k++] = c;
      continue;
    }
    const e = bytes[++p]!;
    const b = e < 128 ? UNESCAPE[e]! : 0;
    if (b === 0) return -1;
    out[k++] = b;
  }
  return -1;
}

/** The arena's end after {@link unescapeLine}. */
let unescapedEnd = 0;

/** `bytes[from, to)` as text (the file is well-formed UTF-8), or null when it holds a NUL. */
function lineText(bytes: Uint8Array, from: number, to: number): string | null {
  const s = utf8Decoder.decode(bytes.subarray(from, to));
  return s.indexOf("\0") >= 0 ? null : s;
}

/** Whether `bytes` holds the ASCII text `word` at `at`. */
function startsWith(bytes: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

/** The field slot of the keyword at `at` (followed by a space), and the offset after the space; null if none. */
function keywordAt(bytes: Uint8Array, at: number): { slot: number; after: number } | null {
  if (bytes[at] !== 109) return null; // 'm'
  if (startsWith(bytes, at, "msgid ")) return { slot: F_ID, after: at + 6 };
  if (startsWith(bytes, at, "msgstr ")) return { slot: F_STR, after: at + 7 };
  if (startsWith(bytes, at, "msgctxt ")) return { slot: F_CTXT, after: at + 8 };
  if (startsWith(bytes, at, "msgid_plural ")) return { slot: F_PLURAL, after: at + 13 };
  if (startsWith(bytes, at, "msgstr[")) {
    // The form's number is checked against its place when the message is compared.
    let p = at + 7;
    while (bytes[p]! >= 48 && bytes[p]! <= 57) p++;
    if (p === at + 7 || bytes[p] !== 93 || bytes[p + 1] !== 32) return null;
    return { slot: F_STR + 1, after: p + 2 };
  }
  return null;
}

/** Duplicate detection over the messages' (msgctxt, msgid), as unescaped bytes kept per file. */
class Identities {
  keys = new Uint8Array(1 << 16);
  used = 0;
  starts: number[] = [];
  chains = new Map<number, number[]>();

  /** Adds one message's identity; false when an equal one was added before, or a chain is too long. */
  add(ctxtFrom: number, ctxtTo: number, idFrom: number, idTo: number): boolean {
    const need = (ctxtFrom < 0 ? 1 : ctxtTo - ctxtFrom + 2) + (idTo - idFrom);
    if (this.used + need > this.keys.length) {
      let size = this.keys.length * 2;
      while (size < this.used + need) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.keys.subarray(0, this.used));
      this.keys = next;
    }
    const keys = this.keys;
    const start = this.used;
    let k = start;
    if (ctxtFrom < 0) keys[k++] = 2;
    else {
      keys[k++] = 1;
      keys.set(arena.subarray(ctxtFrom, ctxtTo), k);
      k += ctxtTo - ctxtFrom;
      keys[k++] = 0; // no string holds a NUL (the writer refuses one)
    }
    keys.set(arena.subarray(idFrom, idTo), k);
    k += idTo - idFrom;
    this.used = k;
    const index = this.starts.length;
    this.starts.push(start);
    const h = keyHash(keys, start, k);
    const chain = this.chains.get(h);
    if (chain === undefined) {
      this.chains.set(h, [index]);
      return true;
    }
    if (chain.length >= MAX_CHAIN) return false;
    for (const other of chain) {
      const from = this.starts[other]!;
      const to = other + 1 < this.starts.length ? this.starts[other + 1]! : start;
      if (to - from === k - start && sameRange(keys, from, start, k - start)) return false;
    }
    chain.push(index);
    return true;
  }

  /** Forgets every key (the buffer is kept for the next file). */
  clear(): void {
    this.used = 0;
    this.starts.length = 0;
    this.chains.clear();
  }
}

const IDENTITIES = new Identities();

function sameRange(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}

/**
 * A hash of every byte of `b[from, to)` (FNV-1a with a final mix): sampled bytes alone put a
 * catalogue's many same-length msgids that differ in one character (`Token value for "("`) in
 * one chain.
 */
function keyHash(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5 ^ (to - from);
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) | 0;
}

/**
 * Whether `msgcat FILE` (with `--no-wrap` when `noWrap`) prints exactly `bytes`. `false` says
 * nothing more: lay the file out to know (see the module's text).
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode(
 *   'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
 * );
 * isLaidOut(bytes); // true
 * ```
 */
export function isLaidOut(bytes: Uint8Array, noWrap = false): boolean {
  const n = bytes.length;
  if (n === 0 || bytes[n - 1] !== 10 || bytes[0] === 10) return false;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return false;
  if (!isUtf8Bytes(bytes)) return false;
  expected.pos = 0;
  const shape = new MessageShape();
  for (let f = 0; f < fieldStart.length; f++) fieldStart[f] = -1;
  const comments = new Pending();
  const identities = IDENTITIES;
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
        if (section === S_STRINGS) return false;
        let eol = i + 1;
        while (bytes[eol] !== 10) eol++; // the file ends with a newline
        if (d === 58) {
          if (section > S_REFERENCES) return false;
          section = S_REFERENCES;
          const text = lineText(bytes, i + 2, eol);
          if (text === null) return false;
          parseReferences(text, comments.references);
        } else {
          const kind = d === 46 ? S_EXTRACTED : d === 44 ? S_FLAGS : d === 33 ? -1 : S_TRANSLATOR;
          if (kind < 0 || kind < section || (kind === S_FLAGS && ++flagLines > 1)) return false;
          section = kind;
          const text = lineText(bytes, i + 1, eol);
          if (text === null) return false;
          const references = comments.references.length;
          comments.comment(text);
          // A Solaris `# File: …` line is a reference, printed on a `#:` line.
          if (comments.references.length !== references) return false;
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
        if (bytes[at] !== 32) return false;
        at++;
      }
      section = S_STRINGS;
      let slot: number;
      let textFrom: number;
      if (bytes[at] === 34) {
        // A continuation line of the current field, with the same prefix.
        if (current < 0 || at - i !== currentPrefix || previous !== currentPrevious) return false;
        if (shape.obsolete !== obsolete) return false;
        slot = current;
        textFrom = at + 1;
      } else {
        const k = keywordAt(bytes, at);
        if (k === null || bytes[k.after] !== 34) return false;
        slot = k.slot;
        if (previous) {
          // Only msgctxt, msgid and msgid_plural have previous strings (`#| msgid "…"`).
          if (slot !== F_CTXT && slot !== F_ID && slot !== F_PLURAL) return false;
          slot = slot - F_CTXT + F_PREV_CTXT;
        }
        if (slot === F_STR + 1) slot = F_STR + 1 + shape.forms++;
        if (slot <= shape.last || slot >= fieldStart.length) return false;
        if (shape.obsolete === null) shape.obsolete = obsolete;
        else if (shape.obsolete !== obsolete) return false;
        for (let f = shape.last + 1; f < slot; f++) fieldStart[f] = -1;
        shape.last = slot;
        fieldStart[slot] = shape.used;
        fieldEnd[slot] = shape.used;
        current = slot;
        currentPrefix = at - i;
        currentPrevious = previous;
        textFrom = k.after + 1;
      }
      // The text between the quotes; the line ends with the closing one.
      const close = unescapeLine(bytes, textFrom, fieldEnd[slot]!);
      if (close < 0 || bytes[close + 1] !== 10) return false;
      fieldEnd[slot] = unescapedEnd;
      shape.used = unescapedEnd + 1; // a spare byte: the writer's sentinel
      i = close + 2;
    }
    if (!shape.has(F_ID) || shape.obsolete === null) return false;
    const obsolete = shape.obsolete;
    if (obsoleteSeen && !obsolete) return false; // msgcat moves obsolete messages last
    obsoleteSeen ||= obsolete;
    if (!layoutMatches(start, i, shape, comments, noWrap, messages === 0)) return false;
    if (!identities.add(fieldStart[F_CTXT]!, fieldEnd[F_CTXT]!, fieldStart[F_ID]!, fieldEnd[F_ID]!)) {
      return false;
    }
    messages++;
    comments.reset();
    shape.reset();
    // Exactly one blank line between two messages, none after the last.
    if (i < n) {
      i++;
      if (i >= n || bytes[i] === 10) return false;
      expected.byte(10);
    }
  }
  // A file of its header alone is printed as nothing.
  return messages >= 2 && expected.pos === n && equalBytes(expected.buf.subarray(0, n), bytes);
}

/**
 * Writes msgcat's bytes for the message read into `shape` and `comments` after the ones before it,
 * and tells whether they take the file's `[start, end)` (the bytes are compared once, for the whole
 * file); the first message must be the header, naming UTF-8.
 */
function layoutMatches(
  start: number,
  end: number,
  shape: MessageShape,
  comments: Pending,
  noWrapAll: boolean,
  first: boolean,
): boolean {
  const plural = shape.has(F_PLURAL);
  if (plural !== shape.forms > 0 || plural === shape.has(F_STR)) return false;
  // gettext's grammar: a previous msgctxt or msgid_plural comes with a previous msgid.
  if ((shape.has(F_PREV_CTXT) || shape.has(F_PREV_PLURAL)) && !shape.has(F_PREV_ID)) return false;
  const msgstr0 = plural ? F_STR + 1 : F_STR;
  const msgstr0Empty = fieldEnd[msgstr0] === fieldStart[msgstr0];
  const obsolete = shape.obsolete!;
  if (obsolete && msgstr0Empty) return false; // msgcat drops it
  if (first) {
    const isHeader = !obsolete && !plural && !shape.has(F_CTXT) && fieldEnd[F_ID] === fieldStart[F_ID];
    if (!isHeader) return false;
    const header = utf8Decoder.decode(arena.subarray(fieldStart[F_STR]!, fieldEnd[F_STR]!));
    const charset = headerCharset(header);
    if (charset === null || canonicalCharset(charset) !== "UTF-8") return false;
  }
  // As `writeMessage` (`_message_layout.ts`) prints a message of a UTF-8 catalogue, after the
  // messages before it and the blank line between (`start` is where that line ends).
  const w = expected;
  if (w.pos !== start) return false;
  w.seen = 0;
  const flags = comments.flags.length === 0 ? NO_FLAGS : interpretFlags(comments.flags);
  const noWrap = noWrapAll || flags.wrap === false;
  const language = flags.formats.length === 0 ? null : formatLanguageOf(flags);
  for (let k = 0; k < comments.translator.length; k++) writeComment(w, "#", comments.translator[k]!);
  for (let k = 0; k < comments.extracted.length; k++) writeComment(w, "#.", comments.extracted[k]!);
  if (comments.references.length > 0) writeReferences(w, comments.references, false, null);
  if (flags !== NO_FLAGS) w.ascii(flagLine(flags, msgstr0Empty ? "" : SOME_TEXT, obsolete));
  const previous = obsolete ? "#~| " : "#| ";
  const prefix = obsolete ? "#~ " : "";
  for (let f = 0; f <= shape.last; f++) {
    const from = fieldStart[f]!;
    if (from < 0) continue;
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
    );
  }
  // The bytes themselves are compared once, for the whole file (`isLaidOut`); lengths here.
  return (w.seen & SEEN_UNHOLDABLE) === 0 && w.pos === end;
}
