/**
 * What a parsed file's text means: the catalogue charset as msgcat determines it from the headers,
 * and the decoding (and checking) of every string, comment, reference and flag in that charset.
 *
 * @module
 */
import { PoSyntaxError } from "../../errors.ts";
import { latin1Bytes } from "../../native_bytes.ts";
import {
  bytesToByteString,
  byteStringDecoder,
  canonicalCharset,
  decodeUtf8Loose,
  headerCharset,
  isAscii,
  NON_ASCII_CHAR,
  UTF8_LOOSE,
} from "../charsets/_charset.ts";
import type { ParsedMessage, PendingField, RawParse } from "./_grammar.ts";
import { isHeader, type PoMessage } from "../types.ts";

/** Every string field of a message that msgcat checks for non-ASCII text, comments included. */
function checkedTexts(m: PoMessage): string[] {
  const out = [m.msgid, m.msgstr, ...m.translatorComments, ...m.extractedComments];
  if (m.msgctxt !== null) out.push(m.msgctxt);
  if (m.msgidPlural !== null) out.push(m.msgidPlural);
  // (A loop, not push(...list): a spread of a huge list overflows the stack.)
  if (m.msgstrPlural) { for (const s of m.msgstrPlural) out.push(s); }
  if (m.previousMsgctxt !== null) out.push(m.previousMsgctxt);
  if (m.previousMsgid !== null) out.push(m.previousMsgid);
  if (m.previousMsgidPlural !== null) out.push(m.previousMsgidPlural);
  return out;
}

/** The charset a catalogue was read in, as {@link resolveCharset} found it. */
export interface CharsetInfo {
  /** As spelled in the first header that names one, or null. */
  raw: string | null;
  /** Canonical name; "ASCII" when there is none (or CHARSET in a .pot). */
  canonical: string;
  /** True when no header names a charset. */
  missing: boolean;
  /** Line of the header that named it (for errors). */
  line: number;
  /** True when `charset=CHARSET` outside a `.pot` was read as ASCII (msgmerge's reading). */
  placeholder: boolean;
}

/**
 * The catalogue charset as msgcat determines it: the first non-obsolete header with `charset=`;
 * every such header must agree; a name msgcat does not know is fatal (except `CHARSET` in a .pot).
 *
 * @throws {PoSyntaxError} unknown charset name, or two different charsets.
 */
export function resolveCharset(
  raw: RawParse,
  fileName: string | undefined,
  missingCharset?: string,
  placeholderCharset = false,
): CharsetInfo {
  const headerBytes = new Map<PoMessage, Uint8Array>();
  for (const p of raw.pending) if (p.field === "msgstr" && p.index < 0) headerBytes.set(p.message, p.bytes);
  let spelled: string | null = null;
  let canonical: string | null = null;
  let line = 1;
  let placeholder = false;
  for (let k = 0; k < raw.headers.length; k++) {
    const i = raw.headers[k]!;
    const m = raw.messages[i]!; // headers lists indices of messages
    if (!isHeader(m)) continue;
    const b = headerBytes.get(m);
    const value = headerCharset(b ? bytesToByteString(b) : m.msgstr);
    if (value === null) continue;
    let canon = canonicalCharset(value);
    if (canon === null) {
      if (value === "CHARSET" && fileName !== undefined && fileName.endsWith(".pot")) canon = "ASCII";
      else if (value === "CHARSET" && placeholderCharset) {
        canon = "ASCII";
        placeholder = true;
      } else {throw new PoSyntaxError(
          `present charset "${value}" is not a portable encoding name`,
          raw.lines[i]!,
          1,
        );}
    }
    if (canonical === null) {
      spelled = value;
      canonical = canon;
      line = raw.lines[i]!; // a line per message
    } else if (canonical !== canon) {
      throw new PoSyntaxError(
        `two different charsets "${canonical}" and "${canon}" in input file`,
        raw.lines[i]!,
        1,
      );
    }
  }
  // (A charset-less file read for msgfmt's compilation: in the charset its bytes are valid in.)
  return {
    raw: spelled,
    canonical: canonical ?? missingCharset ?? "ASCII",
    missing: canonical === null,
    line,
    placeholder,
  };
}

function unsupportedCharset(info: CharsetInfo): PoSyntaxError {
  return new PoSyntaxError(
    `charset "${info.raw}" is accepted by msgcat but cannot be decoded by this service`,
    info.line,
    1,
  );
}

/**
 * Decodes, strictly, the fields the lexer left as bytes (a text-mode reading of a UTF-8 or ASCII
 * file whose escapes made non-ASCII bytes).
 *
 * @throws {PoSyntaxError} an invalid sequence, or a charset this service cannot decode.
 */
export function decodePending(pending: PendingField[], info: CharsetInfo): void {
  if (pending.length === 0) return;
  const decode = byteStringDecoder(info.canonical, true);
  if (!decode) throw unsupportedCharset(info);
  for (const p of pending) {
    const s = decode(bytesToByteString(p.bytes));
    if (s === null) throw new PoSyntaxError("invalid multibyte sequence", p.line, 1);
    if (p.index >= 0) p.message.msgstrPlural![p.index] = s;
    else p.message[p.field] = s;
  }
}

/**
 * Decodes every text of the messages of a byte-mode reading that may hold non-ASCII bytes: strings
 * strictly (as msgcat), comments, references and flags loosely; domain names too.
 *
 * @throws {PoSyntaxError} an invalid sequence in a string, or a charset this service cannot decode.
 */
export function decodeByteMode(raw: RawParse, info: CharsetInfo): void {
  const c = info.canonical;
  if (c === "ISO-8859-1") return; // byte strings are already the text
  if (c === "ASCII") {
    // Strings and comments must be ASCII (checked later); references, flags and domain names are
    // passed through by msgcat as bytes: read them as UTF-8, which the writer uses for ASCII files.
    for (const i of raw.high) {
      const m = raw.messages[i]!;
      m.references = m.references.map((r) => ({ file: decodeUtf8Loose(r.file), line: r.line }));
      m.flags = m.flags.map(decodeUtf8Loose);
    }
    if (raw.domains) decodeDomains(raw.messages, decodeUtf8Loose);
    return;
  }
  const strict = byteStringDecoder(c, true);
  const loose = byteStringDecoder(c, false);
  if (!strict || !loose) throw unsupportedCharset(info);
  const looseText = (t: string) => loose(t)!;
  // (A walk over every message, for the few catalogues with a `domain` line: skipped without one.)
  if (raw.domains) decodeDomains(raw.messages, looseText);
  if (c === "UTF-8" && decodeUtf8Batch(raw)) return;
  // Other messages are ASCII throughout, which reads the same in every charset msgcat accepts here.
  for (const i of raw.high) {
    const strictText = (v: string) => {
      const r = strict(v);
      if (r === null) throw new PoSyntaxError("invalid multibyte sequence", raw.lines[i]!, 1);
      return r;
    };
    // msgcat does not check comments: an invalid sequence there is kept (here as U+FFFD).
    mapTexts(raw.messages[i]!, strictText, looseText);
  }
}

/**
 * Replaces, in place, each text of a freshly read message that a charset decodes: strings (msgid,
 * msgstr, …) by `strings(value)`, comments, reference file names and flags by `others(value)`,
 * always in the same order.
 */
function mapTexts(m: ParsedMessage, strings: (s: string) => string, others: (s: string) => string): void {
  m.msgid = strings(m.msgid);
  m.msgstr = strings(m.msgstr);
  if (m.msgctxt !== null) m.msgctxt = strings(m.msgctxt);
  if (m.msgidPlural !== null) m.msgidPlural = strings(m.msgidPlural);
  const forms = m.msgstrPlural;
  if (forms !== null) { for (let k = 0; k < forms.length; k++) forms[k] = strings(forms[k]!); }
  if (m.previousMsgctxt !== null) m.previousMsgctxt = strings(m.previousMsgctxt);
  if (m.previousMsgid !== null) m.previousMsgid = strings(m.previousMsgid);
  if (m.previousMsgidPlural !== null) m.previousMsgidPlural = strings(m.previousMsgidPlural);
  // (The shared empty lists have nothing to replace.)
  const translator = m.translatorComments;
  for (let k = 0; k < translator.length; k++) translator[k] = others(translator[k]!);
  const extracted = m.extractedComments;
  for (let k = 0; k < extracted.length; k++) extracted[k] = others(extracted[k]!);
  for (const r of m.references) r.file = others(r.file);
  const flags = m.flags;
  for (let k = 0; k < flags.length; k++) flags[k] = others(flags[k]!);
}

/**
 * Decodes the non-ASCII texts of the messages of a UTF-8 file the lexer flagged, in one decoder
 * call (a call per text was most of a small file's reading): their bytes are laid
 * end to end with a NUL between two (no text holds one: the lexer ends strings and comment lines
 * at a NUL, so no sequence spans two texts), and the result is cut at the NULs. Returns false,
 * having changed nothing, when a U+FFFD comes out (an invalid sequence, or one written in the
 * file): the caller then decodes text by text, strictly where msgcat is strict.
 */
function decodeUtf8Batch(raw: RawParse): boolean {
  const texts: string[] = [];
  // Whether each text visited, in order, is non-ASCII: the second visit below replaces those.
  const high: boolean[] = [];
  const collect = (s: string) => {
    const isHigh = NON_ASCII_CHAR.test(s);
    high.push(isHigh);
    if (isHigh) texts.push(s);
    return s;
  };
  for (const i of raw.high) mapTexts(raw.messages[i]!, collect, collect);
  if (texts.length === 0) return true;
  const all = UTF8_LOOSE.decode(latin1Bytes(texts.join("\0")));
  if (all.indexOf("\uFFFD") >= 0) return false;
  const decoded = all.split("\0");
  if (decoded.length !== texts.length) return false; // (cannot happen: no text holds a NUL)
  let next = 0;
  let visited = 0;
  const replace = (s: string) => high[visited++] ? decoded[next++]! : s; // the same texts, in the same order
  for (const i of raw.high) mapTexts(raw.messages[i]!, replace, replace);
  return true;
}

/** Decodes the domain names (byte strings) of the messages that have one, each name once. */
function decodeDomains(messages: ParsedMessage[], decode: (s: string) => string): void {
  let names: Map<string, string> | null = null;
  for (const m of messages) {
    if (m.domain === undefined) continue;
    names ??= new Map();
    let name = names.get(m.domain);
    if (name === undefined) names.set(m.domain, name = decode(m.domain));
    m.domain = name;
  }
}

/**
 * Checks that an ASCII catalogue (or one without a charset) holds only ASCII strings and comments.
 *
 * @throws {PoSyntaxError} the first message that does not, as msgcat words it.
 */
export function checkAscii(raw: RawParse, info: CharsetInfo): void {
  for (const i of raw.high) {
    for (const t of checkedTexts(raw.messages[i]!)) {
      if (!isAscii(t)) {
        throw new PoSyntaxError(
          info.missing
            ? "non-ASCII text but no header entry with a charset specification"
            : "invalid multibyte sequence (non-ASCII text in an ASCII catalogue)",
          raw.lines[i]!,
          1,
        );
      }
    }
  }
}
