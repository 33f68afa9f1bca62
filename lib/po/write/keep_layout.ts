/**
 * Writes that touch only what changed (`layout: "keep"`, issue 35.2): the bytes of a catalogue
 * after an edit, where the entries the edit changed (and the header, when it changed) are laid out
 * as msgcat lays them out and every other byte of the file is the file's own — its wrapping, its
 * comment spelling, its line ends (CRLF stays CRLF), its blank lines. A file already in msgcat's
 * layout gets exactly the bytes a full layout gives (tests/po_keep_layout_test.ts).
 *
 * Each entry of the file is found as a byte span from the lines the reader gives (`messageLines`:
 * each message's first keyword): the span runs from the first non-blank line after the previous
 * entry to the last string line of the entry. Unchanged messages are the same objects before and
 * after an edit (the rule of `types.ts`), so an unchanged message keeps its span's bytes.
 *
 * Nothing is written that gettext would read back differently: the kept bytes are read back and
 * compared, message by message, with what a full layout reads back as ({@link canonicalCatalog});
 * when they differ, or the file has something this does not keep apart (a `domain` line, a byte
 * order mark, a change of charset), the full layout is used and the answer says so.
 *
 * @module
 */
import { type Bytes, flatBytes } from "../../byte_runs.ts";
import { ByteWriter } from "./_byte_writer.ts";
import { writeMessage } from "./_message_layout.ts";
import { canonicalCatalog, canonicalMessage } from "./canonical.ts";
import { catalogCharset, encodeLegacy, isSingleByte } from "../charsets/_output_charset.ts";
import { legacyCodec } from "../charsets/_legacy_charset.ts";
import { messageLines, parsePo } from "../read/parse.ts";
import { changedLineCount } from "./unified_diff.ts";
import { LAID_OUT, laidOutVerdict } from "./laid_out.ts";
import { dropped } from "./written_lines.ts";
import { encodePoRuns } from "./write.ts";
import type { PoCatalog, PoMessage } from "../types.ts";
import type { GettextGeneration } from "../layout/string_layout.ts";
import { laidOutCatalogs, notLaidOutCatalogs } from "../_identity_caches.ts";

/** How a write lays out a catalogue: only what it changes, or the whole file as msgcat does. */
export type LayoutMode = "keep" | "full";

/** What the answer of a write says of the layout (`layout` in the JSON answer). */
export interface LayoutReport {
  /** The mode used: "full" when "keep" was asked but could not be kept (see `reason`). */
  mode: LayoutMode;
  /** Whether the file as written is in msgcat's layout (a full re-layout would change nothing). */
  file_in_layout: boolean;
  /** How many lines (removed + added) a full re-layout of the file as written would change. */
  full_relayout_changed_lines: number;
  /** Why "keep" fell back to "full", when it did. */
  reason?: string;
  /** The gettext generation whose msgcat layout was written. */
  gettext: GettextGeneration;
}

/**
 * Lays one entry out as msgcat does, in `catalog`'s charset: THE function every kept write lays an
 * entry out with (the layout generation, when there is more than one, is chosen here).
 *
 * @throws {UnwritableCatalogError} as the writer: NUL or U+0004, a character the charset lacks.
 */
export function layEntryOut(
  m: PoMessage,
  catalog: PoCatalog,
  generation: GettextGeneration = "0.21",
): Uint8Array {
  const charset = catalogCharset(catalog);
  const legacy = legacyCodec(charset.canonical);
  const w = new ByteWriter(256 + 2 * (m.msgid.length + m.msgstr.length));
  const layout = writeMessage(w, m, isSingleByte(charset.canonical), false, legacy, generation);
  const utf8 = w.buf.slice(layout.start, layout.end);
  if (charset.canonical === "UTF-8" || charset.canonical === "ASCII") return utf8;
  return encodeLegacy(utf8, charset.canonical, charset.spelled, catalog);
}

const NL = 0x0a, CR = 0x0d, HASH = 0x23, TILDE = 0x7e, BAR = 0x7c, QUOTE = 0x22, SPACE = 0x20, TAB = 0x09;
const M = 0x6d, S = 0x73, G = 0x67;

/** The entries of a file as byte spans: `[start, end)` per message, and the blank bytes around. */
interface Spans {
  starts: number[];
  ends: number[];
  /** Bytes after the last entry. */
  tail: number;
}

function isBlank(b: Uint8Array, from: number, to: number): boolean {
  for (let p = from; p < to; p++) {
    const c = b[p]!;
    if (c !== SPACE && c !== TAB && c !== CR && c !== NL && c !== 0x0c && c !== 0x0b) return false;
  }
  return true;
}

/** Whether the line at `p` continues an entry whose first keyword line came before it. */
function continues(b: Uint8Array, p: number, obsolete: boolean): boolean {
  if (obsolete) {
    if (b[p] !== HASH || b[p + 1] !== TILDE) return false;
    p += 2;
    if (b[p] === BAR) return true;
  } else if (b[p] === HASH) return b[p + 1] === BAR;
  while (b[p] === SPACE || b[p] === TAB) p++;
  return b[p] === QUOTE || (b[p] === M && b[p + 1] === S && b[p + 2] === G);
}

/**
 * The byte span of each message of `catalog` in `bytes` (the file it was read from), or null when
 * the lines are not known or do not fit.
 */
function entrySpans(bytes: Uint8Array, catalog: PoCatalog): Spans | null {
  const lines = messageLines(catalog);
  const n = catalog.messages.length;
  if (lines === undefined || lines.length !== n || n === 0) return null;
  const lineStarts = [0];
  for (let p = bytes.indexOf(NL); p >= 0; p = bytes.indexOf(NL, p + 1)) lineStarts.push(p + 1);
  if (lineStarts[lineStarts.length - 1] === bytes.length) lineStarts.pop();
  const lineEnd = (l: number) => l + 1 < lineStarts.length ? lineStarts[l + 1]! : bytes.length;
  const starts: number[] = new Array(n);
  const ends: number[] = new Array(n);
  let after = 0; // the first line after the previous entry
  for (let i = 0; i < n; i++) {
    const keyword = lines[i]! - 1;
    const next = i + 1 < n ? lines[i + 1]! - 1 : lineStarts.length;
    if (keyword < after || keyword >= lineStarts.length || next <= keyword) return null;
    let first = after;
    while (first < keyword && isBlank(bytes, lineStarts[first]!, lineEnd(first))) first++;
    let last = keyword + 1;
    const obsolete = catalog.messages[i]!.obsolete;
    while (last < next && continues(bytes, lineStarts[last]!, obsolete)) last++;
    starts[i] = lineStarts[first]!;
    ends[i] = lineEnd(last - 1);
    after = last;
  }
  if (!isBlank(bytes, ends[n - 1]!, bytes.length)) return null;
  return { starts, ends, tail: ends[n - 1]! };
}

/** Whether two messages read back the same (every field the reader gives). */
function sameMessage(a: PoMessage, b: PoMessage): boolean {
  if (a === b) return true;
  const list = (x: readonly unknown[] | null, y: readonly unknown[] | null) =>
    x === y || (x !== null && y !== null && x.length === y.length && x.every((v, i) => v === y[i]));
  return a.msgctxt === b.msgctxt && a.msgid === b.msgid && a.msgidPlural === b.msgidPlural &&
    a.msgstr === b.msgstr && list(a.msgstrPlural, b.msgstrPlural) && a.obsolete === b.obsolete &&
    list(a.translatorComments, b.translatorComments) && list(a.extractedComments, b.extractedComments) &&
    list(a.flags, b.flags) && a.previousMsgctxt === b.previousMsgctxt &&
    a.previousMsgid === b.previousMsgid &&
    a.previousMsgidPlural === b.previousMsgidPlural && (a.domain ?? null) === (b.domain ?? null) &&
    a.references.length === b.references.length &&
    a.references.every((r, i) => r.file === b.references[i]!.file && r.line === b.references[i]!.line);
}

function keyOf(m: PoMessage): string {
  return `${m.obsolete ? "~" : ""}${m.msgctxt === null ? "" : "\u0004" + m.msgctxt}\u0000${m.msgid}`;
}

/** Steps the diff counting a full re-layout's lines may take (see `unified_diff.ts`). */
const COUNT_DIFF_WORK = 10_000_000;

/** What {@link keptBytes} gives. */
export interface KeptWrite {
  /** The bytes to write. */
  bytes: Bytes;
  /** The catalogue those bytes read back as, with their lines: what the store caches. */
  catalog: PoCatalog | null;
  layout: LayoutReport;
}

/** How the store reads a file back (the store's codec options). */
export type ReadBack = (bytes: Uint8Array) => PoCatalog;

const defaultReadBack: ReadBack = (bytes) =>
  parsePo(bytes, { allowBom: true, strict: false, placeholderCharset: true });

/**
 * The bytes of `after` (an edit of `before`, the catalogue read from `beforeBytes`) in `mode`, and
 * what the answer says of the layout. In "full" mode, or when "keep" cannot keep the file's bytes
 * (the reason is in the report), msgcat's layout of `after` (`encodePoRuns` with `forcePo`).
 *
 * `options.verify`: build the kept bytes of a file in msgcat's layout too, rather than take the
 * full layout for them (tests).
 *
 * @throws what `encodePoRuns` throws (the same refusals in both modes).
 */
export function keptBytes(
  beforeBytes: Bytes | null,
  before: PoCatalog | null,
  after: PoCatalog,
  mode: LayoutMode,
  readBack: ReadBack = defaultReadBack,
  options: { verify?: boolean; generation?: GettextGeneration } = {},
): KeptWrite {
  const generation = options.generation ?? "0.21";
  const fullRuns = encodePoRuns(after, { forcePo: true, generation });
  const fullWrite = (reason?: string): KeptWrite => ({
    bytes: fullRuns,
    catalog: null,
    layout: {
      mode: "full",
      file_in_layout: true,
      full_relayout_changed_lines: 0,
      gettext: generation,
      ...(reason === undefined ? {} : { reason }),
    },
  });
  if (mode === "full" || beforeBytes === null || before === null) return fullWrite();
  const old = flatBytes(beforeBytes);
  // A file in msgcat's layout: its entries are their msgcat layouts, so keeping them is the full
  // layout (tests/po_keep_layout_test.ts checks it on the corpus without this shortcut).
  if (
    !options.verify && notLaidOutCatalogs.get(before) !== generation &&
    (laidOutCatalogs.has(before) || laidOutVerdict(old, false, generation) === LAID_OUT)
  ) {
    laidOutCatalogs.add(before);
    return {
      bytes: fullRuns,
      catalog: null,
      layout: { mode: "keep", file_in_layout: true, full_relayout_changed_lines: 0, gettext: generation },
    };
  }
  const full = flatBytes(fullRuns);
  // First with the unchanged lines of changed entries kept too, then with changed entries laid out
  // whole: the first that reads back as the full layout does is written.
  let kept: Uint8Array | string = "";
  let read: PoCatalog | null = null;
  for (const fieldLevel of [true, false]) {
    kept = keepLayout(old, before, after, fieldLevel, generation);
    if (typeof kept === "string") return fullWrite(kept);
    if (equalBytes(kept, full)) {
      return {
        bytes: fullRuns,
        catalog: null,
        layout: { mode: "keep", file_in_layout: true, full_relayout_changed_lines: 0, gettext: generation },
      };
    }
    read = readsBackAs(kept, after, readBack);
    if (read !== null) break;
  }
  if (read === null || typeof kept === "string") {
    return fullWrite("the kept bytes read back differently (the full layout was written)");
  }
  const decoder = new TextDecoder();
  const changed = changedLineCount(decoder.decode(kept), decoder.decode(full), COUNT_DIFF_WORK);
  if (changed > 0) {
    notLaidOutCatalogs.set(before, generation);
    notLaidOutCatalogs.set(read, generation);
  }
  return {
    bytes: kept,
    catalog: read,
    layout: {
      mode: "keep",
      file_in_layout: false,
      full_relayout_changed_lines: changed,
      gettext: generation,
    },
  };
}

/**
 * Whether the file `bytes` (read as `catalog`) is in msgcat's layout: a full write of it as it is
 * would change nothing. What the dashboard tells before a first save (a keep save then changes
 * only the entries saved; `wrap` would re-lay out the rest).
 */
export function fileInLayout(
  bytes: Uint8Array,
  catalog: PoCatalog,
  generation: GettextGeneration = "0.21",
): boolean {
  if (laidOutVerdict(bytes, false, generation) === LAID_OUT) return true;
  try {
    return equalBytes(flatBytes(encodePoRuns(catalog, { forcePo: true, generation })), bytes);
  } catch {
    return false; // msgcat refuses it: it is not in its layout
  }
}

/**
 * What `bytes` read back as, when that is what the full layout of `after` reads back as (message by
 * message, as gettext reads them), else null.
 */
function readsBackAs(bytes: Uint8Array, after: PoCatalog, readBack: ReadBack): PoCatalog | null {
  let read: PoCatalog;
  try {
    read = readBack(bytes);
  } catch {
    return null;
  }
  const want = canonicalCatalog(after, { forcePo: true }).messages;
  const got = canonicalCatalog(read, { forcePo: true }).messages;
  return want.length === got.length && want.every((m, i) => sameMessage(m, got[i]!)) ? read : null;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The kept bytes of `after`, or why they cannot be kept. Messages of `before` found in `after`
 * (same object) keep their spans, and the blank bytes before them; the others are laid out by
 * {@link layEntryOut}, with the file's line end, after the blank bytes that preceded the entry of
 * their key in `before` (one blank line for a new entry).
 */
function keepLayout(
  old: Uint8Array,
  before: PoCatalog,
  after: PoCatalog,
  fieldLevel: boolean,
  generation: GettextGeneration,
): Uint8Array | string {
  if (before.bom) return "the file starts with a byte order mark";
  if (
    before.messages.some((m) => m.domain !== undefined) || after.messages.some((m) => m.domain !== undefined)
  ) {
    return "the file has domain directives";
  }
  if (catalogCharset(before).canonical !== catalogCharset(after).canonical) return "the charset changes";
  const spans = entrySpans(old, before);
  if (spans === null) return "the entries' lines in the file are not known";
  const crlf = old.indexOf(NL) > 0 && old[old.indexOf(NL) - 1] === CR;
  const newline = crlf ? new Uint8Array([CR, NL]) : new Uint8Array([NL]);
  const indexOf = new Map<PoMessage, number>();
  before.messages.forEach((m, i) => indexOf.set(m, i));
  // A message the edit did not change may still be a new object (a write hands out the messages as
  // they read back): it keeps its span when it reads back as the file's entry of its key does.
  const singleByte = isSingleByte(catalogCharset(after).canonical);
  const unmatched = new Map<string, number>();
  const matched = new Set<PoMessage>(after.messages);
  before.messages.forEach((m, i) => {
    if (!matched.has(m) && !unmatched.has(keyOf(m))) unmatched.set(keyOf(m), i);
  });
  /** The entry of `before` that `m` is (`same`) or is an edit of; null for a new entry. */
  const entryOf = (m: PoMessage): { j: number; same: boolean } | null => {
    const i = indexOf.get(m);
    if (i !== undefined) return { j: i, same: true };
    const j = unmatched.get(keyOf(m));
    if (j === undefined) return null;
    unmatched.delete(keyOf(m));
    const same = sameMessage(
      canonicalMessage(m, singleByte),
      canonicalMessage(before.messages[j]!, singleByte),
    );
    return { j, same };
  };
  const separatorOf = (i: number) => old.subarray(i === 0 ? 0 : spans.ends[i - 1]!, spans.starts[i]!);
  const separatorOfKey = new Map<string, Uint8Array>();
  before.messages.forEach((m, i) => {
    if (i > 0 && !separatorOfKey.has(keyOf(m))) separatorOfKey.set(keyOf(m), separatorOf(i));
  });
  const pieces: Uint8Array[] = [];
  let emitted = 0;
  let endsLine = true;
  for (const m of after.messages) {
    const entry = entryOf(m);
    let piece: Uint8Array;
    let separator: Uint8Array;
    if (entry !== null && entry.same) {
      const i = entry.j;
      piece = old.subarray(spans.starts[i]!, spans.ends[i]!);
      separator = i === 0 ? newline : separatorOf(i);
    } else {
      if (dropped(m)) continue;
      piece = layEntryOut(m, after, generation);
      if (crlf) piece = withCrlf(piece);
      if (entry !== null && fieldLevel) {
        const was = before.messages[entry.j]!;
        const oldPiece = old.subarray(spans.starts[entry.j]!, spans.ends[entry.j]!);
        piece =
          mergedEntry(oldPiece, canonicalMessage(was, singleByte), canonicalMessage(m, singleByte), piece) ??
            piece;
      }
      separator = separatorOfKey.get(keyOf(m)) ?? newline;
    }
    if (piece.length === 0) continue;
    if (emitted === 0) pieces.push(old.subarray(0, spans.starts[0]!));
    else {
      if (!endsLine) pieces.push(newline);
      pieces.push(separator);
    }
    pieces.push(piece);
    endsLine = piece[piece.length - 1] === NL;
    emitted++;
  }
  if (emitted > 0) pieces.push(old.subarray(spans.tail));
  let size = 0;
  for (const p of pieces) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * `bytes` (an entry's lines) with the line end `\r\n` on keyword and string lines, where gettext
 * reads a `\r` after the closing quote as white space. Comment, reference and flag lines keep their
 * `\n`: there gettext reads a `\r` as part of the text (a comment read from a CRLF file ends with
 * it, and is printed with it), so adding one would change what reads back.
 */
function withCrlf(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  let lineStart = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === NL) {
      const comment = bytes[lineStart] === HASH && bytes[lineStart + 1] !== TILDE &&
        bytes[lineStart + 1] !== BAR;
      if (!comment && bytes[i - 1] !== CR) out.push(CR);
      lineStart = i + 1;
    }
    out.push(c);
  }
  return new Uint8Array(out);
}

/** A part of an entry, as {@link mergedEntry} keeps or replaces it. */
type Part =
  | "#"
  | "#."
  | "#:"
  | "#,"
  | "#|"
  | "msgctxt"
  | "msgid"
  | "msgid_plural"
  | "msgstr"
  | `msgstr[${number}]`;

const COMMENT_PARTS: readonly Part[] = ["#", "#.", "#:", "#,"];

/**
 * The lines of an entry's bytes (each with its line end) and the part each belongs to, or null
 * when a line is of no part (a blank line inside the entry, a string line before any keyword).
 */
function partsOf(b: Uint8Array): { lines: Uint8Array[]; parts: Part[] } | null {
  const lines: Uint8Array[] = [];
  const parts: Part[] = [];
  let current: Part | null = null;
  const keyword = (q: number): Part | null | "string" => {
    while (b[q] === SPACE || b[q] === TAB) q++;
    if (b[q] === QUOTE) return "string";
    const word = (w: string) => w.split("").every((ch, k) => b[q + k] === ch.charCodeAt(0));
    if (word("msgctxt")) return "msgctxt";
    if (word("msgid_plural")) return "msgid_plural";
    if (word("msgid")) return "msgid";
    if (word("msgstr[")) {
      let n = 0, k = q + 7;
      while (b[k]! >= 0x30 && b[k]! <= 0x39 && k < q + 12) n = n * 10 + b[k++]! - 0x30;
      return b[k] === 0x5d ? `msgstr[${n}]` : null;
    }
    if (word("msgstr")) return "msgstr";
    return null;
  };
  for (let p = 0; p < b.length;) {
    const nl = b.indexOf(NL, p);
    const end = nl < 0 ? b.length : nl + 1;
    let part: Part | null | "string";
    if (b[p] === HASH && b[p + 1] === TILDE) part = b[p + 2] === BAR ? "#|" : keyword(p + 2);
    else if (b[p] === HASH) {
      const c = b[p + 1];
      part = c === BAR ? "#|" : c === 0x2e ? "#." : c === 0x3a ? "#:" : c === 0x2c ? "#," : "#";
    } else part = keyword(p);
    if (part === "string") part = current;
    if (part === null) return null;
    current = part;
    lines.push(b.subarray(p, end));
    parts.push(part);
    p = end;
  }
  return { lines, parts };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Whether the part reads the same in `a` and `b`. */
function samePart(part: Part, a: PoMessage, b: PoMessage): boolean {
  switch (part) {
    case "#":
      return sameStrings(a.translatorComments, b.translatorComments);
    case "#.":
      return sameStrings(a.extractedComments, b.extractedComments);
    case "#:":
      return a.references.length === b.references.length &&
        a.references.every((r, i) => r.file === b.references[i]!.file && r.line === b.references[i]!.line);
    case "#,":
      return sameStrings(a.flags, b.flags);
    case "#|":
      return a.previousMsgctxt === b.previousMsgctxt && a.previousMsgid === b.previousMsgid &&
        a.previousMsgidPlural === b.previousMsgidPlural;
    case "msgctxt":
      return a.msgctxt === b.msgctxt;
    case "msgid":
      return a.msgid === b.msgid;
    case "msgid_plural":
      return a.msgidPlural === b.msgidPlural;
    case "msgstr":
      return a.msgstr === b.msgstr && (a.msgstrPlural === null) === (b.msgstrPlural === null);
    default: {
      const n = Number(part.slice(7, -1));
      return a.msgstrPlural !== null && b.msgstrPlural !== null && a.msgstrPlural[n] === b.msgstrPlural[n];
    }
  }
}

/**
 * The changed entry `fresh` (msgcat's layout of `now`) with the parts that did not change taken
 * from `old` (the file's bytes of the entry, read as `was`): an edit of a msgstr leaves the msgid's
 * lines, the comments and the references as the file had them. Null when the entry's lines cannot
 * be told apart. The caller reads the result back.
 */
function mergedEntry(old: Uint8Array, was: PoMessage, now: PoMessage, fresh: Uint8Array): Uint8Array | null {
  const a = partsOf(old);
  const b = partsOf(fresh);
  if (a === null || b === null) return null;
  // Lines by part, in one pass each (an entry may have many msgstr[N] parts).
  const byPart = (x: { lines: Uint8Array[]; parts: Part[] }) => {
    const map = new Map<Part, Uint8Array[]>();
    x.lines.forEach((line, k) => {
      const list = map.get(x.parts[k]!);
      if (list === undefined) map.set(x.parts[k]!, [line]);
      else list.push(line);
    });
    return map;
  };
  const olds = byPart(a), news = byPart(b);
  const out: Uint8Array[] = [];
  const commentsSame = COMMENT_PARTS.every((part) => samePart(part, was, now));
  if (commentsSame) {
    a.lines.forEach((line, k) => COMMENT_PARTS.includes(a.parts[k]!) && out.push(line));
  }
  for (const part of news.keys()) {
    if (commentsSame && COMMENT_PARTS.includes(part)) continue;
    const kept = samePart(part, was, now) ? olds.get(part) ?? [] : [];
    for (const line of kept.length > 0 ? kept : news.get(part)!) out.push(line);
  }
  let size = 0;
  for (const line of out) size += line.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const line of out) {
    bytes.set(line, at);
    at += line.length;
  }
  return bytes;
}
