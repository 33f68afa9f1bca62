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
  canonicalCharset,
  forEachDuplicate,
  headerCharset,
  messageLine,
  parseReferences,
  singleByteTable,
  solarisReference,
  tokenizeFlags,
} from "./parse.ts";
import {
  type ByteItem,
  type BytePiece,
  concatRuns,
  encodePieces,
  joinRuns,
  utf8Length,
} from "../byte_runs.ts";
import type { PoCatalog, PoMessage, PoReference } from "./types.ts";
import { type WrapOptions, wrapString } from "./wrap.ts";

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

/** Comment lines as msgcat prints them: `#` (or `#.`) alone when empty, one line per `\n`. */
function commentLines(marker: string, text: string): string {
  let out = "";
  let s = text;
  for (;;) {
    const nl = s.indexOf("\n");
    const line = nl < 0 ? s : s.slice(0, nl);
    out += line === "" ? `${marker}\n` : `${marker} ${line}\n`;
    if (nl < 0) return out;
    s = s.slice(nl + 1);
  }
}

/** `#:` lines: references re-filled to 79 bytes, leading `./` removed (section 3.4). */
function referenceLines(refs: readonly PoReference[], singleByte: boolean): string {
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

interface Layout {
  /**
   * The entry's lines ("" for an obsolete entry msgcat drops); null once its UTF-8 bytes are
   * kept, which then hold them (a catalogue's laid-out text as UTF-16 would double its memory).
   */
  text: string | null;
  /** Whether `#:` lines were filled counting one byte per character. */
  singleByte: boolean;
  /** Whether strings were laid out as with `msgcat --no-wrap`. */
  noWrapAll: boolean;
  /** Every string and comment msgcat checks for non-ASCII text is ASCII. */
  ascii: boolean;
  /** `text` in UTF-8, kept by {@link encodePo} with `keepBytes` (in a buffer many layouts share). */
  bytes?: BytePiece;
}

const layouts = new WeakMap<PoMessage, Layout>();
const utf8Decoder = new TextDecoder();

function layoutText(l: Layout): string {
  return l.text ?? utf8Decoder.decode(l.bytes!.buffer.subarray(l.bytes!.start, l.bytes!.end));
}

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
  return (UNHOLDABLE.test(s) ? 2 : 0) | (NON_ASCII_TEXT.test(s) ? 1 : 0);
}

function scanList(list: readonly string[]): number {
  let r = 0;
  for (let i = 0; i < list.length; i++) r |= scanText(list[i]);
  return r;
}

function unholdable(m: PoMessage): UnwritableCatalogError {
  const all = [m.msgid, m.msgstr, m.msgctxt ?? "", m.msgidPlural ?? "", ...(m.msgstrPlural ?? [])];
  all.push(m.previousMsgctxt ?? "", m.previousMsgid ?? "", m.previousMsgidPlural ?? "");
  all.push(...m.translatorComments, ...m.extractedComments);
  const nul = all.some((s) => s.includes("\0"));
  return new UnwritableCatalogError(
    `Cannot write PO file: the entry with msgid ${JSON.stringify(m.msgid.slice(0, 60))} contains ` +
      (nul ? "a NUL character" : "the context separator U+0004 (EOT)") + ", which PO strings cannot hold",
  );
}

const NO_FLAGS: FlagState = { fuzzy: false, formats: [], range: null, wrap: null };

function wrapField(options: WrapOptions, keyword: string, value: string): string {
  options.keyword = keyword;
  return wrapString(value, options);
}

/** Lays out one message as msgcat's `message_print` / `message_print_obsolete` would. */
function layoutMessage(m: PoMessage, singleByte: boolean, noWrapAll: boolean): Layout {
  const cached = layouts.get(m);
  if (cached && cached.singleByte === singleByte && cached.noWrapAll === noWrapAll) return cached;

  const plural = m.msgidPlural !== null;
  const forms = m.msgstrPlural !== null && m.msgstrPlural.length > 0 ? m.msgstrPlural : [m.msgstr];
  const msgstr0 = plural ? forms[0] : m.msgstr;
  let scan = scanText(m.msgid) | scanText(m.msgstr) | scanList(m.translatorComments) |
    scanList(m.extractedComments);
  if (plural) scan |= scanText(m.msgidPlural!) | scanList(forms);
  if (m.msgctxt !== null) scan |= scanText(m.msgctxt);
  if (m.previousMsgctxt !== null) scan |= scanText(m.previousMsgctxt);
  if (m.previousMsgid !== null) scan |= scanText(m.previousMsgid);
  if (m.previousMsgidPlural !== null) scan |= scanText(m.previousMsgidPlural);
  if (scan & 2) throw unholdable(m);
  const ascii = (scan & 1) === 0;

  let text = "";
  if (!(m.obsolete && msgstr0 === "")) {
    const flags = m.flags.length === 0 ? NO_FLAGS : interpretFlags(m.flags);
    const options: WrapOptions = {
      prefix: m.obsolete ? "#~| " : "#| ",
      keyword: "",
      noWrap: noWrapAll || flags.wrap === false,
      formatLanguage: flags.formats.length === 0 ? null : formatLanguageOf(flags),
    };
    for (let i = 0; i < m.translatorComments.length; i++) text += commentLines("#", m.translatorComments[i]);
    for (let i = 0; i < m.extractedComments.length; i++) text += commentLines("#.", m.extractedComments[i]);
    if (m.references.length > 0) text += referenceLines(m.references, singleByte);
    if (flags !== NO_FLAGS) text += flagLine(flags, msgstr0, m.obsolete);
    if (m.previousMsgctxt !== null) text += wrapField(options, "msgctxt", m.previousMsgctxt);
    if (m.previousMsgid !== null) text += wrapField(options, "msgid", m.previousMsgid);
    if (m.previousMsgidPlural !== null) text += wrapField(options, "msgid_plural", m.previousMsgidPlural);
    options.prefix = m.obsolete ? "#~ " : "";
    if (m.msgctxt !== null) text += wrapField(options, "msgctxt", m.msgctxt);
    text += wrapField(options, "msgid", m.msgid);
    if (plural) {
      text += wrapField(options, "msgid_plural", m.msgidPlural!);
      for (let i = 0; i < forms.length; i++) text += wrapField(options, `msgstr[${i}]`, forms[i]);
    } else text += wrapField(options, "msgstr", m.msgstr);
  }
  const layout: Layout = { text, singleByte, noWrapAll, ascii };
  layouts.set(m, layout);
  return layout;
}

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
  let canonical: string | null = null;
  let spelled: string | null = null;
  for (const m of catalog.messages) {
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

/**
 * The domains in output order (the default one first, the others by first appearance) with their
 * messages; `groups` is null when msgcat would write nothing at all: every domain is empty or
 * holds only a header-like message (msgid "", no msgctxt, obsolete or not). So a header-only file
 * becomes an empty file, while a header-only domain next to a non-empty one is printed
 * (tests/fixtures/fuzz/case-504.po, tests/fixtures/po/header_only*.po).
 */
function domainGroups(
  messages: readonly PoMessage[],
): { domains: (string | undefined)[]; groups: (readonly PoMessage[])[] | null } {
  const hasDomains = messages.some((m) => m.domain !== undefined);
  const domains = hasDomains ? domainOrder(messages) : [undefined];
  const groups = domains.map((domain) => hasDomains ? messages.filter((m) => m.domain === domain) : messages);
  const onlyHeaders = groups.every((g) =>
    g.length === 0 || (g.length === 1 && g[0].msgid === "" && g[0].msgctxt === null)
  );
  return { domains, groups: onlyHeaders ? null : groups };
}

function domainOrder(messages: readonly PoMessage[]): (string | undefined)[] {
  const order: (string | undefined)[] = [undefined];
  const seen = new Set<string>();
  for (const m of messages) {
    if (m.domain !== undefined && !seen.has(m.domain)) {
      seen.add(m.domain);
      order.push(m.domain);
    }
  }
  return order;
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
   * {@link encodePo} keeps each message's UTF-8 bytes with its layout, so encoding a catalogue
   * again after a few messages changed copies bytes instead of encoding 4 MB of text (a store
   * that writes the same catalogue again and again wants this). The first such call costs more.
   */
  keepBytes?: boolean;
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
  return layoutCatalog(catalog, options).map((p) => typeof p === "string" ? p : layoutText(p)).join("");
}

/** The output as pieces: separators and domain lines as strings, messages as their layouts. */
function layoutCatalog(catalog: PoCatalog, options: FormatOptions): (string | Layout)[] {
  checkAccepted(catalog);
  const charset = catalogCharset(catalog);
  const singleByte = isSingleByte(charset.canonical);
  const { domains, groups } = domainGroups(catalog.messages);
  if (groups === null) return [];

  const out: (string | Layout)[] = [];
  let blank = false;
  for (let k = 0; k < domains.length; k++) {
    const domain = domains[k];
    const inDomain = groups[k];
    if (inDomain.length === 0) continue;
    if (domain !== undefined) {
      if (blank) out.push("\n");
      out.push(`domain "${domain}"\n`);
      blank = true;
    }
    for (let pass = 0; pass < 2; pass++) {
      const obsolete = pass === 1;
      for (const m of inDomain) {
        if (m.obsolete !== obsolete) continue;
        const layout = layoutMessage(m, singleByte, options.noWrap ?? false);
        if (!layout.ascii && charset.canonical === "ASCII") {
          throw new UnwritableCatalogError(
            charset.missing
              ? "Cannot write PO file: it has non-ASCII text but its header names no charset " +
                '(add "Content-Type: text/plain; charset=UTF-8")'
              : `Cannot write PO file: it has non-ASCII text but its header says charset=${charset.spelled}`,
          );
        }
        if (layout.text !== "") {
          if (blank) out.push("\n");
          out.push(layout);
        }
        blank = true;
      }
    }
  }
  return out;
}

const utf8Encoder = new TextEncoder();

const NEWLINE_UTF8 = utf8Encoder.encode("\n");

/** UTF-8 output from the pieces: one TextEncoder call over the joined text. */
function encodeUtf8(pieces: (string | Layout)[]): Uint8Array {
  return utf8Encoder.encode(pieces.map((p) => typeof p === "string" ? p : layoutText(p)).join(""));
}

/** Keeps each layout's bytes and drops its text. */
function keepBytes(layouts: Layout[], pieces: BytePiece[]): void {
  for (let i = 0; i < layouts.length; i++) {
    layouts[i].bytes = pieces[i];
    layouts[i].text = null;
  }
}

/**
 * UTF-8 output from the pieces, keeping each message's bytes. The first time (most layouts
 * without bytes), everything is encoded in one call and that buffer is the output. Later, the few
 * new layouts are encoded, and the output is copied from runs of bytes that lie next to each
 * other (separators found in place): a one-message change copies three runs, not 20,000 pieces.
 */
function encodeUtf8Keeping(pieces: (string | Layout)[]): Uint8Array {
  const fresh: Layout[] = [];
  for (const p of pieces) if (typeof p !== "string" && p.bytes === undefined) fresh.push(p);
  if (fresh.length * 4 > pieces.length) {
    const encoded = encodePieces(pieces.map((p) => typeof p === "string" ? p : layoutText(p)));
    const layouts: Layout[] = [];
    const kept: BytePiece[] = [];
    pieces.forEach((p, i) => {
      if (typeof p !== "string") {
        layouts.push(p);
        kept.push(encoded[i]);
      }
    });
    keepBytes(layouts, kept);
    return encoded.length > 0 ? encoded[0].buffer : new Uint8Array(0);
  }
  if (fresh.length > 0) keepBytes(fresh, encodePieces(fresh.map((l) => l.text!)));
  const items: ByteItem[] = pieces.map((p) =>
    typeof p !== "string" ? p.bytes! : p === "\n" ? NEWLINE_UTF8 : utf8Encoder.encode(p)
  );
  return concatRuns(joinRuns(items));
}

/**
 * Formats a catalogue ({@link formatPo}) and encodes it in its charset, as msgcat writes it
 * (no conversion). UTF-8, ASCII (written as UTF-8, as msgcat passes such bytes through),
 * ISO-8859-1 and the other single-byte charsets msgcat accepts are supported.
 *
 * @throws {UnwritableCatalogError} a multi-byte legacy charset (Shift_JIS, GBK, …), or a character
 *   the charset cannot represent; plus everything {@link formatPo} throws.
 */
export function encodePo(catalog: PoCatalog, options: FormatOptions = {}): Uint8Array {
  const pieces = layoutCatalog(catalog, options);
  const { canonical, spelled } = catalogCharset(catalog);
  if (canonical === "UTF-8" || canonical === "ASCII") {
    return options.keepBytes ? encodeUtf8Keeping(pieces) : encodeUtf8(pieces);
  }
  const text = pieces.map((p) => typeof p === "string" ? p : layoutText(p)).join("");
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
    for (const r of solaris) {
      if (!references.some((q) => q.file === r.file && q.line === r.line)) references.push(r);
    }
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
 * this one.
 *
 * @throws {UnwritableCatalogError} the header names a charset msgcat refuses.
 * @example
 * ```ts
 * const cat = canonicalCatalog(parsePo(bytes));
 * // deepEqual(cat, parsePo(encodePo(cat))) for every catalogue encodePo accepts
 * ```
 */
export function canonicalCatalog(catalog: PoCatalog): PoCatalog {
  const singleByte = isSingleByte(catalogCharset(catalog).canonical);
  const { groups } = domainGroups(catalog.messages);
  const messages: PoMessage[] = [];
  for (const group of groups ?? []) {
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
  return next;
}
