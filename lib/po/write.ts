/**
 * The PO writer: {@link PoCatalog} → exactly the text GNU msgcat 0.21 prints for the file it was
 * read from (`msgcat FILE`, page width 79), without running msgcat. Layout rules: section 3 of
 * `shared/docs/msgcat-format.md`; every string goes through `wrapString` (sections 4–5).
 *
 * Each message's laid-out text is cached by object identity (messages are immutable: a change
 * replaces the object), so formatting a catalogue again after one message changed lays out only
 * that message.
 *
 * @module
 */
import { PoSyntaxError, UnwritableCatalogError } from "../errors.ts";
import {
  addReference,
  canonicalCharset,
  forEachDuplicate,
  headerCharset,
  messageLine,
  parseReferences,
  readList,
  singleByteTable,
  solarisReference,
  tokenizeFlags,
} from "./parse.ts";
import { type ByteItem, type BytePiece, concatRuns, flatBytes, joinRuns, utf8Length } from "../byte_runs.ts";
import { ByteWriter, SEEN_NON_ASCII, SEEN_UNHOLDABLE } from "./_byte_writer.ts";
import type { PoCatalog, PoMessage, PoReference } from "./types.ts";
import { writeString } from "./wrap.ts";

const PAGE_WIDTH = 79;

/** gettext 0.21's format languages, in its internal order (the order of the `#,` line). */
export const FORMAT_LANGUAGES: readonly string[] = [
  "c",
  "objc",
  "python",
  "python-brace",
  "java",
  "java-printf",
  "csharp",
  "javascript",
  "scheme",
  "lisp",
  "elisp",
  "librep",
  "ruby",
  "sh",
  "awk",
  "lua",
  "object-pascal",
  "smalltalk",
  "qt",
  "qt-plural",
  "kde",
  "kde-kuit",
  "boost",
  "tcl",
  "perl",
  "perl-brace",
  "php",
  "gcc-internal",
  "gfc-internal",
  "ycp",
];

const LANGUAGE_INDEX = new Map(FORMAT_LANGUAGES.map((l, i) => [l, i]));

/** How a format flag was given: `X-format`, `possible-X-format`, `impossible-X-format`, `no-X-format`. */
type FormatKind = "yes" | "possible" | "impossible" | "no";

/** The meaning of an entry's flags, as gettext reads a `#,` line. */
export interface FlagState {
  fuzzy: boolean;
  /** Per language index of {@link FORMAT_LANGUAGES}: how it was flagged (last one wins). */
  formats: (FormatKind | undefined)[];
  range: { min: number; max: number } | null;
  /** `wrap` → true, `no-wrap` → false, neither → null. */
  wrap: boolean | null;
}

const FLAG_SEPARATORS = "\n \t\r\f\v,";
const INT_MAX = 2147483647;

function splitFlagTokens(flags: readonly string[]): string[] {
  const tokens: string[] = [];
  for (const f of flags) {
    let i = 0;
    while (i < f.length) {
      while (i < f.length && FLAG_SEPARATORS.includes(f[i])) i++;
      const start = i;
      while (i < f.length && !FLAG_SEPARATORS.includes(f[i])) i++;
      if (i > start) tokens.push(f.slice(start, i));
    }
  }
  return tokens;
}

function parseBound(s: string, at: number): [number, number] {
  let v = 0;
  let i = at;
  while (i < s.length && s[i] >= "0" && s[i] <= "9") {
    v = Math.min(INT_MAX, v * 10 + (s.charCodeAt(i) - 48));
    i++;
  }
  return [v, i];
}

/**
 * Interprets flag tokens the way gettext 0.21 reads one `#,` line: `fuzzy`, the format flags of
 * the 30 languages it knows, `range: MIN..MAX`, `wrap`/`no-wrap`; anything else is ignored.
 *
 * @example
 * ```ts
 * interpretFlags(["fuzzy", "possible-c-format", "range: 1..5"]).range; // { min: 1, max: 5 }
 * ```
 */
export function interpretFlags(flags: readonly string[]): FlagState {
  const state: FlagState = { fuzzy: false, formats: [], range: null, wrap: null };
  const tokens = splitFlagTokens(flags);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t === "fuzzy") {
      state.fuzzy = true;
      continue;
    }
    if (t.endsWith("-format")) {
      let name = t.slice(0, -7);
      let kind: FormatKind = "yes";
      if (name.startsWith("no-")) {
        name = name.slice(3);
        kind = "no";
      } else if (name.startsWith("possible-")) {
        name = name.slice(9);
        kind = "possible";
      } else if (name.startsWith("impossible-")) {
        name = name.slice(11);
        kind = "impossible";
      }
      const index = LANGUAGE_INDEX.get(name);
      if (index !== undefined) {
        state.formats[index] = kind;
        continue;
      }
    }
    if (t === "range:") {
      // The next token is consumed whatever it is; gettext reads "MIN..MAX" and ignores the rest.
      const arg = tokens[++k];
      if (arg !== undefined && arg[0] >= "0" && arg[0] <= "9") {
        const [min, i] = parseBound(arg, 0);
        if (arg[i] === "." && arg[i + 1] === "." && arg[i + 2] >= "0" && arg[i + 2] <= "9") {
          const [max] = parseBound(arg, i + 2);
          if (min <= max) state.range = { min, max };
        }
      }
      continue;
    }
    if (t === "wrap") state.wrap = true;
    else if (t === "no-wrap") state.wrap = false;
  }
  return state;
}

/** The first language flagged `X-format` or `possible-X-format`, for the wrap engine; else null. */
export function formatLanguageOf(state: FlagState): string | null {
  for (let i = 0; i < FORMAT_LANGUAGES.length; i++) {
    const k = state.formats[i];
    if (k === "yes" || k === "possible") return FORMAT_LANGUAGES[i];
  }
  return null;
}

/** The `#,` line msgcat prints for an entry (with its newline), or "" when it prints none. */
export function flagLine(state: FlagState, msgstr0: string, obsolete: boolean): string {
  const parts: string[] = [];
  if (state.fuzzy && (obsolete || msgstr0 !== "")) parts.push("fuzzy");
  for (let i = 0; i < FORMAT_LANGUAGES.length; i++) {
    const k = state.formats[i];
    if (k === "yes" || k === "possible") parts.push(`${FORMAT_LANGUAGES[i]}-format`);
    else if (k === "no") parts.push(`no-${FORMAT_LANGUAGES[i]}-format`);
  }
  if (state.range && !obsolete) parts.push(`range: ${state.range.min}..${state.range.max}`);
  if (state.wrap === false) parts.push("no-wrap");
  return parts.length === 0 ? "" : `#, ${parts.join(", ")}\n`;
}

/** `#:` lines: references re-filled to 79 bytes, leading `./` removed (section 3.4). */
export function referenceLines(refs: readonly PoReference[], singleByte: boolean): string {
  if (refs.length === 0) return "";
  let out = "#:";
  let column = 2;
  for (const r of refs) {
    let file = r.file;
    while (file.startsWith("./")) file = file.slice(2);
    const text = r.line === null ? file : `${file}:${r.line}`;
    const len = (singleByte ? text.length : utf8Length(text)) + 1;
    if (column > 2 && column + len > PAGE_WIDTH) {
      out += "\n#:";
      column = 2;
    }
    out += " " + text;
    column += len;
  }
  return out + "\n";
}

/**
 * A message laid out: its UTF-8 lines, bytes `[start, end)` of a buffer many layouts share
 * (empty for an obsolete entry msgcat drops), and what they were laid out for.
 */
export interface Layout extends BytePiece {
  /** Every string and comment msgcat checks for non-ASCII text is ASCII. */
  ascii: boolean;
}

/** A message list as last laid out: `layouts[i]` is `messages[i]`'s. */
export interface LaidOutList {
  messages: readonly PoMessage[];
  layouts: readonly Layout[];
  /** Whether `#:` lines were filled counting one byte per character. */
  singleByte: boolean;
  /** Whether strings were laid out as with `msgcat --no-wrap`. */
  noWrapAll: boolean;
}

/**
 * The layout cache, by message list rather than by message: a WeakMap entry per message cost a cold
 * layout of 12k messages ~3 ms of insertions, and the collector more on its ephemerons. A list's
 * first and last {@link ANCHORS} messages lead to the list last laid out with them: the same list
 * laid out again finds its layouts by index, and a new list (a catalogue with a few messages
 * replaced or added) is matched in order against it ({@link matchLayouts}). A list stays findable
 * while one of its anchor messages lives and no later list took that anchor over.
 */
const anchors = new WeakMap<PoMessage, LaidOutList>();
const ANCHORS = 16;

/** The indices of a list's anchor messages, in order, each once. */
function anchorIndices(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n && i < ANCHORS; i++) out.push(i);
  for (let i = Math.max(ANCHORS, n - ANCHORS); i < n; i++) out.push(i);
  return out;
}
const utf8Decoder = new TextDecoder();

// Control characters are what these look for.
// deno-lint-ignore no-control-regex
const NOT_PLAIN = /[^\x01-\x03\x05-\x7f]/;
// deno-lint-ignore no-control-regex
const UNHOLDABLE = /[\0\x04]/;
const NON_ASCII_TEXT = /[^\0-\x7f]/;

/** Bit 1: some character is non-ASCII; bit 2: a NUL or U+0004, which a PO string cannot hold. */
function scanText(s: string): number {
  // Regular expressions: V8 scans a flat string natively, far faster than a charCodeAt loop.
  if (!NOT_PLAIN.test(s)) return 0;
  return (UNHOLDABLE.test(s) ? SEEN_UNHOLDABLE : 0) | (NON_ASCII_TEXT.test(s) ? SEEN_NON_ASCII : 0);
}

function scanList(list: readonly string[]): number {
  let r = 0;
  for (let i = 0; i < list.length; i++) r |= scanText(list[i]);
  return r;
}

/** What {@link scanText} finds in every string and comment of a message. */
function scanMessage(m: PoMessage): number {
  let scan = scanText(m.msgid) | scanText(m.msgstr) | scanList(m.translatorComments) |
    scanList(m.extractedComments);
  if (m.msgidPlural !== null) scan |= scanText(m.msgidPlural) | scanList(m.msgstrPlural ?? []);
  if (m.msgctxt !== null) scan |= scanText(m.msgctxt);
  if (m.previousMsgctxt !== null) scan |= scanText(m.previousMsgctxt);
  if (m.previousMsgid !== null) scan |= scanText(m.previousMsgid);
  if (m.previousMsgidPlural !== null) scan |= scanText(m.previousMsgidPlural);
  return scan;
}

function unholdable(m: PoMessage): UnwritableCatalogError {
  const all = [
    m.msgid,
    m.msgstr,
    m.msgctxt ?? "",
    m.msgidPlural ?? "",
    m.previousMsgctxt ?? "",
    m.previousMsgid ?? "",
    m.previousMsgidPlural ?? "",
    // (Array literals, not push(...list): a spread of a huge list into a call overflows the stack.)
    ...(m.msgstrPlural ?? []),
    ...m.translatorComments,
    ...m.extractedComments,
  ];
  const nul = all.some((s) => s.includes("\0"));
  return new UnwritableCatalogError(
    `Cannot write PO file: the entry with msgid ${JSON.stringify(m.msgid.slice(0, 60))} contains ` +
      (nul ? "a NUL character" : "the context separator U+0004 (EOT)") + ", which PO strings cannot hold",
  );
}

const NO_FLAGS: FlagState = { fuzzy: false, formats: [], range: null, wrap: null };

/** Comment lines as msgcat prints them: `#` (or `#.`) alone when empty, one line per `\n`. */
function writeComment(w: ByteWriter, marker: string, text: string): void {
  let from = 0;
  for (;;) {
    const nl = text.indexOf("\n", from);
    const to = nl < 0 ? text.length : nl;
    w.ascii(marker);
    if (to > from) {
      w.byte(32);
      w.text(text, from, to, true);
    }
    w.byte(10);
    if (nl < 0) return;
    from = nl + 1;
  }
}

/**
 * Layouts made before for the messages of `messages`, by index (undefined where there is none):
 * its own, when this list was laid out before, else those of the recent list sharing the most
 * messages with it, if any. Only layouts made with the same charset kind and wrapping count.
 */
function previousLayouts(
  messages: readonly PoMessage[],
  singleByte: boolean,
  noWrapAll: boolean,
): readonly (Layout | undefined)[] | null {
  const tried: LaidOutList[] = [];
  let best: (Layout | undefined)[] | null = null;
  let bestHits = 0;
  for (const i of anchorIndices(messages.length)) {
    const list = anchors.get(messages[i]);
    if (list === undefined || tried.includes(list)) continue;
    tried.push(list);
    if (list.singleByte !== singleByte || list.noWrapAll !== noWrapAll) continue;
    if (list.messages === messages) return list.layouts;
    const found: (Layout | undefined)[] = new Array(messages.length);
    const hits = matchLayouts(messages, list, found);
    if (hits > bestHits) {
      best = found;
      bestHits = hits;
      if (hits * 2 >= messages.length) break;
    }
  }
  return best;
}

/** How far ahead {@link matchLayouts} looks for a message when the next one of the old list is not it. */
const MATCH_WINDOW = 8;

/**
 * Walks `messages` and `old.messages` together, setting `found[i]` to the old layout of the same
 * message object; returns how many it found. A list made from another by replacing, inserting and
 * removing messages (what a write does) is matched in one pass: a message not found among the
 * next {@link MATCH_WINDOW} old ones is taken as new, and laid out again. A list whose first
 * {@link MATCH_WINDOW} × 4 messages are all new is taken as unrelated (0): say a freshly read one.
 */
export function matchLayouts(
  messages: readonly PoMessage[],
  old: LaidOutList,
  found: (Layout | undefined)[],
): number {
  const before = old.messages;
  let j = 0;
  let hits = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (j < before.length && before[j] === m) {
      found[i] = old.layouts[j++];
      hits++;
      continue;
    }
    const stop = Math.min(before.length, j + MATCH_WINDOW);
    let k = j + 1;
    while (k < stop && before[k] !== m) k++;
    if (k < stop) {
      found[i] = old.layouts[k];
      j = k + 1;
      hits++;
    } else if (hits === 0 && i + 1 >= MATCH_WINDOW * 4) return 0;
  }
  return hits;
}

/** Makes `list` the one {@link previousLayouts} finds from its anchor messages. */
function rememberLayouts(list: LaidOutList): void {
  for (const i of anchorIndices(list.messages.length)) anchors.set(list.messages[i], list);
}

/**
 * Writes one message into `w` as msgcat's `message_print` / `message_print_obsolete` would, and
 * returns its layout; `bytes.buffer` is set by the caller once the writer is done growing.
 *
 * @throws {UnwritableCatalogError} a string or comment holds NUL or U+0004.
 */
function writeMessage(w: ByteWriter, m: PoMessage, singleByte: boolean, noWrapAll: boolean): Layout {
  const plural = m.msgidPlural !== null;
  const forms = m.msgstrPlural !== null && m.msgstrPlural.length > 0 ? m.msgstrPlural : null;
  const msgstr0 = plural && forms !== null ? forms[0] : m.msgstr;
  const start = w.pos;
  let seen: number;
  if (m.obsolete && msgstr0 === "") {
    // msgcat drops it, but still reads (and checks) its text.
    seen = scanMessage(m);
  } else {
    w.seen = 0;
    const flags = m.flags.length === 0 ? NO_FLAGS : interpretFlags(m.flags);
    const noWrap = noWrapAll || flags.wrap === false;
    const language = flags.formats.length === 0 ? null : formatLanguageOf(flags);
    for (let i = 0; i < m.translatorComments.length; i++) writeComment(w, "#", m.translatorComments[i]);
    for (let i = 0; i < m.extractedComments.length; i++) writeComment(w, "#.", m.extractedComments[i]);
    if (m.references.length > 0) writeReferences(w, m.references, singleByte);
    if (flags !== NO_FLAGS) w.ascii(flagLine(flags, msgstr0, m.obsolete));
    let prefix = m.obsolete ? "#~| " : "#| ";
    if (m.previousMsgctxt !== null) writeString(w, m.previousMsgctxt, prefix, "msgctxt", noWrap, language);
    if (m.previousMsgid !== null) writeString(w, m.previousMsgid, prefix, "msgid", noWrap, language);
    if (m.previousMsgidPlural !== null) {
      writeString(w, m.previousMsgidPlural, prefix, "msgid_plural", noWrap, language);
    }
    prefix = m.obsolete ? "#~ " : "";
    if (m.msgctxt !== null) writeString(w, m.msgctxt, prefix, "msgctxt", noWrap, language);
    writeString(w, m.msgid, prefix, "msgid", noWrap, language);
    if (!plural) writeString(w, m.msgstr, prefix, "msgstr", noWrap, language);
    else {
      writeString(w, m.msgidPlural!, prefix, "msgid_plural", noWrap, language);
      if (forms === null) writeString(w, m.msgstr, prefix, "msgstr[0]", noWrap, language);
      else {
        for (let i = 0; i < forms.length; i++) {
          writeString(w, forms[i], prefix, PLURAL_KEYWORDS[i] ?? `msgstr[${i}]`, noWrap, language);
        }
        // Not printed, but read and checked by msgcat all the same.
        w.seen |= scanText(m.msgstr);
      }
    }
    seen = w.seen;
  }
  if ((seen & SEEN_UNHOLDABLE) !== 0) throw unholdable(m);
  return { buffer: NO_BYTES, start, end: w.pos, ascii: (seen & SEEN_NON_ASCII) === 0 };
}

/** {@link referenceLines}, written into `w` without a string per reference. */
function writeReferences(w: ByteWriter, refs: readonly PoReference[], singleByte: boolean): void {
  w.ascii("#:");
  let column = 2;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i];
    const file = r.file;
    let from = 0;
    while (file.startsWith("./", from)) from += 2;
    const at = w.pos;
    w.byte(32);
    w.text(file, from, file.length, false);
    let len: number;
    if (r.line === null) len = singleByte ? file.length - from + 1 : w.pos - at;
    else {
      w.byte(58);
      const digitsAt = w.pos;
      w.decimal(r.line);
      len = singleByte ? file.length - from + 2 + (w.pos - digitsAt) : w.pos - at;
    }
    if (column > 2 && column + len > PAGE_WIDTH) {
      // Too long for this line: move it to a new one.
      w.reserve(3);
      w.buf.copyWithin(at + 3, at, w.pos);
      w.buf[at] = 10;
      w.buf[at + 1] = 35;
      w.buf[at + 2] = 58;
      w.pos += 3;
      column = 2;
    }
    column += len;
  }
  w.byte(10);
}

const NO_BYTES = new Uint8Array(0);
const PLURAL_KEYWORDS = Array.from({ length: 10 }, (_, i) => `msgstr[${i}]`);

function isHeader(m: PoMessage): boolean {
  return m.msgid === "" && m.msgctxt === null && !m.obsolete;
}

/** The charset msgcat would use for the catalogue, from its current header(s). */
interface OutputCharset {
  /** Canonical name ("ASCII" when the header names none). */
  canonical: string;
  /** As spelled in the header, or null. */
  spelled: string | null;
  /** True when no header names a charset. */
  missing: boolean;
}

/**
 * The charset of a catalogue as msgcat determines it from the current header messages (the
 * first non-obsolete `msgid ""` with a `charset=`; all must agree).
 *
 * @throws {UnwritableCatalogError} the header names a charset msgcat does not accept, or two.
 */
export function catalogCharset(catalog: PoCatalog): OutputCharset {
  // Asked several times per write (the update, the layout, the encoding) of a 10k-message list.
  const cached = charsets.get(catalog.messages);
  if (cached !== undefined && cached.fileName === catalog.fileName) return cached.charset;
  const charset = findCharset(catalog);
  charsets.set(catalog.messages, { fileName: catalog.fileName, charset });
  return charset;
}

const charsets = new WeakMap<
  readonly PoMessage[],
  { fileName: string | undefined; charset: OutputCharset }
>();

function findCharset(catalog: PoCatalog): OutputCharset {
  let canonical: string | null = null;
  let spelled: string | null = null;
  const messages = catalog.messages;
  // A list fresh from the reader: only the messages it saw as header-like can be headers.
  const candidates = readList(messages)?.headers;
  const count = candidates === undefined ? messages.length : candidates.length;
  for (let k = 0; k < count; k++) {
    const m = messages[candidates === undefined ? k : candidates[k]];
    if (!isHeader(m)) continue;
    const value = headerCharset(m.msgstr);
    if (value === null) continue;
    let canon = canonicalCharset(value);
    if (canon === null && value === "CHARSET" && catalog.fileName?.endsWith(".pot")) canon = "ASCII";
    if (canon === null) {
      throw new UnwritableCatalogError(
        `Cannot write PO file: the header's charset "${value}" is not a portable encoding name (msgcat refuses it)`,
      );
    }
    if (canonical === null) {
      canonical = canon;
      spelled = value;
    } else if (canon !== canonical) {
      throw new UnwritableCatalogError(
        `Cannot write PO file: two different charsets "${canonical}" and "${canon}" in its headers`,
      );
    }
  }
  return { canonical: canonical ?? "ASCII", spelled, missing: canonical === null };
}

function isSingleByte(canonical: string): boolean {
  return canonical !== "UTF-8" && canonical !== "ASCII" &&
    (canonical === "ISO-8859-1" || singleByteTable(canonical) !== null);
}

/** A domain's messages: their indices in the list, in order, or a count n for all n of them. */
type Group = readonly number[] | number;

function groupSize(g: Group): number {
  return typeof g === "number" ? g : g.length;
}

/** The index in the list of the `q`th message of group `g`. */
function groupAt(g: Group, q: number): number {
  return typeof g === "number" ? q : g[q];
}

/**
 * The domains in output order (the default one first, the others by first appearance) with their
 * messages; `groups` is null when msgcat would write nothing at all: every domain is empty or
 * holds only a header-like message (msgid "", no msgctxt, obsolete or not). So a header-only file
 * becomes an empty file, while a header-only domain next to a non-empty one is printed
 * (tests/fixtures/fuzz/case-504.po, tests/fixtures/po/header_only*.po). With `forcePo`
 * (`msgcat --force-po`), only a list without messages gives null.
 */
function domainGroups(
  messages: readonly PoMessage[],
  forcePo = false,
): { domains: (string | undefined)[]; groups: Group[] | null } {
  const hasDomains = readList(messages)?.domains ?? messages.some((m) => m.domain !== undefined);
  if (!hasDomains) {
    const n = messages.length;
    const onlyHeader = n === 0 ||
      (!forcePo && n === 1 && messages[0].msgid === "" && messages[0].msgctxt === null);
    return { domains: [undefined], groups: onlyHeader ? null : [n] };
  }
  // One pass: a list per domain in order of first appearance, the default one first (a walk of
  // the messages per domain would cost O(domains × messages): one message per domain, N²).
  const byDomain = new Map<string | undefined, number[]>([[undefined, []]]);
  for (let i = 0; i < messages.length; i++) {
    const d = messages[i].domain;
    let indices = byDomain.get(d);
    if (indices === undefined) byDomain.set(d, indices = []);
    indices.push(i);
  }
  const domains = [...byDomain.keys()];
  const groups = [...byDomain.values()];
  const onlyHeaders = groups.every((g) =>
    g.length === 0 ||
    (!forcePo && g.length === 1 && messages[g[0]].msgid === "" && messages[g[0]].msgctxt === null)
  );
  return { domains, groups: onlyHeaders ? null : groups };
}

/**
 * Checks what msgcat would reject in a catalogue that may have been read leniently or changed in
 * memory: a byte order mark, duplicate messages.
 */
function checkAccepted(catalog: PoCatalog): void {
  if (catalog.bom) {
    throw new PoSyntaxError(
      "syntax error: byte order mark at the start of the file (msgcat 0.21 rejects it; remove the BOM)",
      1,
      1,
    );
  }
  forEachDuplicate(catalog.messages, (firstIndex, i) => {
    const first = catalog.messages[firstIndex];
    const m = catalog.messages[i];
    const firstLine = messageLine(first);
    throw new PoSyntaxError(
      `duplicate message definition: msgid ${JSON.stringify(m.msgid.slice(0, 60))}` +
        (m.msgctxt === null ? "" : ` with msgctxt ${JSON.stringify(m.msgctxt.slice(0, 60))}`) +
        (firstLine === undefined ? "" : ` (first defined at line ${firstLine})`),
      messageLine(m) ?? 1,
      1,
    );
  });
}

/** Options of {@link formatPo}. */
export interface FormatOptions {
  /** Never wrap strings for width, as `msgcat --no-wrap` (they are still cut after each `\n`). */
  noWrap?: boolean;
  /**
   * Write a catalogue that holds nothing but its header(s) too, as `msgcat --force-po` does (without
   * it, msgcat writes such a catalogue as an empty file, which loses the header and its charset).
   * The catalogue store writes with it, so that a file it writes always keeps its header.
   */
  forcePo?: boolean;
}

/**
 * Formats a catalogue exactly as `msgcat FILE` prints it (GNU gettext 0.21, width 79): messages in
 * order per domain, obsolete ones last, those with an empty msgstr dropped; comments, references
 * and flags normalised; every string wrapped by `wrapString`.
 *
 * @throws {PoSyntaxError} the catalogue has duplicate messages or came from a file with a byte
 *   order mark (msgcat rejects both).
 * @throws {UnwritableCatalogError} the header's charset is one msgcat refuses, non-ASCII text in a
 *   catalogue whose header names no charset, or a string holding NUL or U+0004.
 * @example
 * ```ts
 * formatPo(parsePo(new TextEncoder().encode('msgid "a"\n\n\nmsgstr "b"'))); // 'msgid "a"\nmsgstr "b"\n'
 * ```
 */
export function formatPo(catalog: PoCatalog, options: FormatOptions = {}): string {
  const runs = layoutCatalog(catalog, options.noWrap ?? false, options.forcePo ?? false);
  return utf8Decoder.decode(runs.length === 1 ? runs[0] : concatRuns(runs));
}

const NEWLINE_UTF8 = new Uint8Array([10]);

/**
 * The output in UTF-8, as runs of bytes to be concatenated. Messages laid out before (the layout
 * cache) are taken as they are; the others are written into one new buffer, with the separators
 * between them, so a catalogue laid out from scratch is one run and one buffer, and a catalogue
 * with one message changed is a few runs of existing bytes.
 *
 * @throws what {@link encodePo} throws.
 */
function layoutCatalog(catalog: PoCatalog, noWrapAll: boolean, forcePo: boolean): Uint8Array[] {
  checkAccepted(catalog);
  const charset = catalogCharset(catalog);
  const singleByte = isSingleByte(charset.canonical);
  const messages = catalog.messages;
  const { domains, groups } = domainGroups(messages, forcePo);
  if (groups === null) return [];
  const previous = previousLayouts(messages, singleByte, noWrapAll);
  // Laid out from scratch: everything goes into one buffer, in order, separators included, and
  // that buffer is the output; no pieces to join.
  const cold = previous === null;
  const all: Layout[] = new Array(messages.length);

  // Made at the first message (or domain line) not laid out before: sized for the whole catalogue
  // when that is the first one (a cold layout), small otherwise (a few changed messages).
  let w: ByteWriter | null = null;
  let visited = 0;
  const freshLayouts: Layout[] = []; // in `w`: their buffer is set at the end
  const domainLines: BytePiece[] = [];
  const items: ByteItem[] = [];
  let blank = false;
  for (let k = 0; k < domains.length; k++) {
    const domain = domains[k];
    const inDomain = groups[k];
    const size = groupSize(inDomain);
    if (size === 0) continue;
    if (domain !== undefined) {
      w ??= takeWriter(visited === 0 ? estimateCapacity(messages) : 4096);
      const start = w.pos;
      if (blank) w.byte(10);
      w.ascii("domain ");
      w.byte(34);
      w.text(domain, 0, domain.length, false);
      w.ascii('"\n');
      const piece = { buffer: NO_BYTES, start, end: w.pos };
      domainLines.push(piece);
      if (!cold) items.push(piece);
      blank = true;
    }
    // Obsolete messages go last: the first pass sets them aside.
    const obsoleteOnes: number[] = [];
    for (let pass = 0; pass < 2; pass++) {
      const count = pass === 0 ? size : obsoleteOnes.length;
      for (let q = 0; q < count; q++) {
        const i = pass === 0 ? groupAt(inDomain, q) : obsoleteOnes[q];
        const m = messages[i];
        if (pass === 0 && m.obsolete) {
          obsoleteOnes.push(i);
          continue;
        }
        let layout = previous !== null ? previous[i] : undefined;
        if (layout === undefined) {
          w ??= takeWriter(visited === 0 ? estimateCapacity(messages) : 4096);
          // The separator goes into the same buffer just before the message, where joinRuns finds it.
          const separatorAt = w.pos;
          if (blank) w.byte(10);
          layout = writeMessage(w, m, singleByte, noWrapAll);
          if (!cold) freshLayouts.push(layout);
          if (layout.end === layout.start) {
            w.pos = separatorAt;
            layout.start = layout.end = separatorAt;
          }
        }
        all[i] = layout;
        if (!cold && layout.end > layout.start) {
          if (blank) items.push(NEWLINE_UTF8);
          items.push(layout);
        }
        if (!layout.ascii && charset.canonical === "ASCII") {
          throw new UnwritableCatalogError(
            charset.missing
              ? "Cannot write PO file: it has non-ASCII text but its header names no charset " +
                '(add "Content-Type: text/plain; charset=UTF-8")'
              : `Cannot write PO file: it has non-ASCII text but its header says charset=${charset.spelled}`,
          );
        }
        blank = true;
        visited++;
      }
    }
  }
  let buffer = NO_BYTES;
  if (w !== null) {
    // Done writing: the pieces get a copy of what was written, and the new layouts are cached.
    buffer = w.buf.slice(0, w.pos);
    if (w.buf.length <= KEPT_WRITER_BYTES) keptWriter = w;
    for (let i = 0; i < domainLines.length; i++) domainLines[i].buffer = buffer;
    const fresh = cold ? all : freshLayouts;
    for (let i = 0; i < fresh.length; i++) if (fresh[i] !== undefined) fresh[i].buffer = buffer;
  }
  if (w !== null || messages.length === 0 || anchors.get(messages[0])?.messages !== messages) {
    rememberLayouts({ messages, layouts: all, singleByte, noWrapAll });
  }
  if (cold) return buffer.length === 0 ? [] : [buffer];
  return joinRuns(items);
}

/**
 * The writer of the last layout, kept for the next: its pages stay mapped, where a new buffer the
 * size of the file would be faulted in page by page at each cold layout (on our machines, that
 * costs more than writing the bytes). Each layout copies out what it wrote, at its exact size.
 */
let keptWriter: ByteWriter | null = null;
const KEPT_WRITER_BYTES = 32 * 1024 * 1024;

/** An empty writer: the kept one, or a new one of `capacity` bytes. */
function takeWriter(capacity: number): ByteWriter {
  const w = keptWriter ?? new ByteWriter(capacity);
  keptWriter = null; // a layout that throws does not give it back
  w.pos = 0;
  w.seen = 0;
  return w;
}

/**
 * A buffer size for laying out `messages` from scratch: twice their msgids' and msgstrs' UTF-16
 * length plus 64 bytes each (UTF-8 is ~1.1× the UTF-16 length in Latin scripts, ~1.5× in CJK, and
 * the comments, keywords and quotes come on top). The writer grows if it was too small.
 */
function estimateCapacity(messages: readonly PoMessage[]): number {
  // A list fresh from the reader comes out about as large as the file it was read from.
  const read = readList(messages);
  if (read !== undefined) return read.bytes + (read.bytes >> 3) + 65536;
  let n = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    n += m.msgid.length + m.msgstr.length + 64;
  }
  return Math.min(n * 2, 256 * 1024 * 1024);
}

/**
 * Formats a catalogue ({@link formatPo}) and encodes it in its charset, as msgcat writes it
 * (no conversion). UTF-8, ASCII (written as UTF-8, as msgcat passes such bytes through),
 * ISO-8859-1 and the other single-byte charsets msgcat accepts are supported.
 *
 * Each message's bytes are kept (by message object) and reused the next time a catalogue holding
 * that message is encoded, so encoding a catalogue again after a few messages changed lays out
 * only those and copies the rest. The returned bytes may share memory with that cache: they are
 * the caller's to read and write to a file, not to modify.
 *
 * @throws {UnwritableCatalogError} a multi-byte legacy charset (Shift_JIS, GBK, …), or a character
 *   the charset cannot represent; plus everything {@link formatPo} throws.
 */
export function encodePo(catalog: PoCatalog, options: FormatOptions = {}): Uint8Array {
  return flatBytes(encodePoRuns(catalog, options));
}

/**
 * {@link encodePo}'s bytes as runs to be written one after the other: after a few messages
 * changed, mostly views of the bytes kept from the last encoding, so no copy of the whole file is
 * made (on a 4 MB catalogue that copy, in memory fresh from the system, was most of a write).
 * Read-only, as encodePo's.
 *
 * @throws what {@link encodePo} throws.
 * @example
 * ```ts
 * for (const run of encodePoRuns(catalog)) await file.write(run);
 * ```
 */
export function encodePoRuns(catalog: PoCatalog, options: FormatOptions = {}): Uint8Array[] {
  const runs = layoutCatalog(catalog, options.noWrap ?? false, options.forcePo ?? false);
  const { canonical, spelled } = catalogCharset(catalog);
  if (canonical === "UTF-8" || canonical === "ASCII") return runs;
  return [encodeLegacy(runs.length === 1 ? runs[0] : concatRuns(runs), canonical, spelled)];
}

/** UTF-8 output `utf8` in a single-byte charset. */
function encodeLegacy(utf8: Uint8Array, canonical: string, spelled: string | null): Uint8Array {
  const text = utf8Decoder.decode(utf8);
  if (canonical === "ISO-8859-1") {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0xff) throw unencodable(text, i, spelled!);
      out[i] = c;
    }
    return out;
  }
  const table = singleByteTable(canonical);
  if (!table) {
    throw new UnwritableCatalogError(
      `Cannot write PO file in charset "${spelled}": only UTF-8 and single-byte charsets can be written`,
    );
  }
  const reverse = new Map<string, number>();
  table.forEach((ch, b) => {
    if (ch !== "" && !reverse.has(ch)) reverse.set(ch, b);
  });
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const b = reverse.get(text[i]);
    if (b === undefined) throw unencodable(text, i, spelled!);
    out[i] = b;
  }
  return out;
}

function unencodable(text: string, i: number, charset: string): UnwritableCatalogError {
  const cp = text.codePointAt(i)!;
  return new UnwritableCatalogError(
    `Cannot write PO file in charset "${charset}": the character U+${
      cp.toString(16).toUpperCase().padStart(4, "0")
    } (${String.fromCodePoint(cp)}) cannot be encoded in it`,
  );
}

// ---------------------------------------------------------------------------------------------
// The catalogue as it reads back

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A reference that may read back differently from how it is stored (see {@link canonicalCatalog}). */
function unusualReference(r: PoReference): boolean {
  const f = r.file;
  return f === "" || f.startsWith("./") || f.includes(":") || /\s/.test(f) ||
    (r.line !== null && !(r.line >= 0 && Number.isSafeInteger(r.line)));
}

const canonicalCache = new WeakMap<PoMessage, { singleByte: boolean; message: PoMessage }>();

/** One message as reading its printed form back gives it; the same object when nothing differs. */
function canonicalMessage(m: PoMessage, singleByte: boolean): PoMessage {
  const cached = canonicalCache.get(m);
  if (cached && cached.singleByte === singleByte) return cached.message;
  const message = computeCanonicalMessage(m, singleByte);
  canonicalCache.set(m, { singleByte, message });
  if (message !== m) canonicalCache.set(message, { singleByte, message });
  return message;
}

function computeCanonicalMessage(m: PoMessage, singleByte: boolean): PoMessage {
  const plural = m.msgidPlural !== null;
  let msgstr = m.msgstr;
  let msgstrPlural = m.msgstrPlural;
  if (!plural) msgstrPlural = null;
  else {
    if (msgstrPlural === null || msgstrPlural.length === 0) msgstrPlural = [m.msgstr];
    msgstr = "";
  }
  const msgstr0 = plural ? msgstrPlural![0] : msgstr;

  // Comments print one line per "\n"; a translator line that reads as a Solaris position is a reference.
  let translator = m.translatorComments;
  const solaris: PoReference[] = [];
  if (translator.some((c) => c.includes("\n") || /^[Ff]ile:/.test(c))) {
    translator = [];
    for (const line of m.translatorComments.flatMap((c) => c.split("\n"))) {
      const ref = line === "" ? null : solarisReference(` ${line}`);
      if (ref) solaris.push(ref);
      else translator.push(line);
    }
  }
  const extracted = m.extractedComments.some((c) => c.includes("\n"))
    ? m.extractedComments.flatMap((c) => c.split("\n"))
    : m.extractedComments;

  // References read back from their printed lines: "./" stripped, then exact duplicates removed.
  let references = m.references;
  if (solaris.length > 0 || references.some(unusualReference)) {
    references = [];
    for (const r of solaris) addReference(references, r.file, r.line);
    for (const line of referenceLines(m.references, singleByte).split("\n")) {
      if (line !== "") parseReferences(line.slice(2), references);
    }
  }

  // Flags read back from the printed flag line.
  let flags = m.flags;
  if (flags.length > 0) {
    const line = flagLine(interpretFlags(flags), msgstr0, m.obsolete);
    const printed = line === "" ? [] : tokenizeFlags(line.slice(2, -1));
    if (!sameList(printed, flags)) flags = printed;
  }

  const sameReferences = references === m.references ||
    (references.length === m.references.length &&
      references.every((r, i) => r.file === m.references[i].file && r.line === m.references[i].line));
  if (
    msgstr === m.msgstr && msgstrPlural === m.msgstrPlural && translator === m.translatorComments &&
    extracted === m.extractedComments && sameReferences && flags === m.flags
  ) {
    return m;
  }
  return {
    ...m,
    msgstr,
    msgstrPlural,
    translatorComments: translator,
    extractedComments: extracted,
    references: sameReferences ? m.references : references,
    flags,
  };
}

/**
 * The catalogue that reading {@link formatPo}'s output back gives: messages grouped by domain
 * with obsolete ones last, obsolete messages with an empty msgstr gone, `./` prefixes stripped
 * and references deduplicated, flags as printed (unknown ones and `fuzzy` on an empty msgstr
 * gone), comments split at newlines. Messages that read back unchanged are the same objects, so
 * the layout cache keeps serving them. A store that caches the document it wrote should cache
 * this one. `forcePo` as in {@link FormatOptions}: without it, a catalogue of nothing but headers
 * reads back as one without messages (msgcat writes it as an empty file).
 *
 * @throws {UnwritableCatalogError} the header names a charset msgcat refuses.
 * @example
 * ```ts
 * const cat = canonicalCatalog(parsePo(bytes));
 * // deepEqual(cat, parsePo(encodePo(cat))) for every catalogue encodePo accepts
 * ```
 */
export function canonicalCatalog(
  catalog: PoCatalog,
  options: Pick<FormatOptions, "forcePo"> = {},
): PoCatalog {
  const singleByte = isSingleByte(catalogCharset(catalog).canonical);
  const { groups } = domainGroups(catalog.messages, options.forcePo ?? false);
  const messages: PoMessage[] = [];
  for (const indices of groups ?? []) {
    const group = typeof indices === "number"
      ? catalog.messages.slice(0, indices)
      : indices.map((i) => catalog.messages[i]);
    for (const m of group) if (!m.obsolete) messages.push(canonicalMessage(m, singleByte));
    for (const m of group) {
      if (!m.obsolete) continue;
      const msgstr0 = m.msgidPlural !== null && m.msgstrPlural && m.msgstrPlural.length > 0
        ? m.msgstrPlural[0]
        : m.msgstr;
      if (msgstr0 !== "") messages.push(canonicalMessage(m, singleByte));
    }
  }
  const next: PoCatalog = { ...catalog, messages, charset: null };
  next.charset = catalogCharset(next).spelled;
  canonicalLists.set(messages, groups !== null && groups.length > 1);
  return next;
}

/** Message lists {@link canonicalCatalog} made, and whether they have more than one domain. */
const canonicalLists = new WeakMap<readonly PoMessage[], boolean>();

/**
 * {@link canonicalCatalog} of `catalog`, made from `base` (a catalogue canonicalCatalog returned)
 * by replacing, inserting and removing messages, as a write does: only the messages not in
 * `base` are made canonical, found by walking both lists in order. Falls back to
 * canonicalCatalog when that would not give the same: `base` not known canonical or with several
 * domains, a new message obsolete, a message out of msgcat's order, another charset kind.
 *
 * @throws what canonicalCatalog throws.
 * @example
 * ```ts
 * const next = canonicalCatalogFrom(base, { ...base, messages: [...base.messages, added] });
 * ```
 */
export function canonicalCatalogFrom(
  base: PoCatalog,
  catalog: PoCatalog,
  options: Pick<FormatOptions, "forcePo"> = {},
): PoCatalog {
  if (canonicalLists.get(base.messages) !== false) return canonicalCatalog(catalog, options);
  // (A lone header is written only with forcePo.)
  if (!options.forcePo && catalog.messages.length <= 1) return canonicalCatalog(catalog, options);
  const singleByte = isSingleByte(catalogCharset(catalog).canonical);
  if (singleByte !== isSingleByte(catalogCharset(base).canonical)) return canonicalCatalog(catalog, options);
  const before = base.messages;
  const list = catalog.messages;
  const messages: PoMessage[] = new Array(list.length);
  let j = 0;
  let obsoleteSeen = false;
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m.domain !== undefined || (obsoleteSeen && !m.obsolete)) return canonicalCatalog(catalog, options);
    obsoleteSeen ||= m.obsolete;
    let k = j;
    const stop = Math.min(before.length, j + MATCH_WINDOW);
    while (k < stop && before[k] !== m) k++;
    if (k < stop) {
      messages[i] = m; // canonical already
      j = k + 1;
    } else if (m.obsolete) return canonicalCatalog(catalog, options);
    else messages[i] = canonicalMessage(m, singleByte);
  }
  const next: PoCatalog = { ...catalog, messages, charset: null };
  next.charset = catalogCharset(next).spelled;
  canonicalLists.set(messages, false);
  return next;
}
