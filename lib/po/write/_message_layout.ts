/**
 * One message laid out as msgcat's `message_print` / `message_print_obsolete` prints it: comments,
 * references, flags, previous strings, then the strings, each through `writeString` (`string_layout.ts`).
 *
 * @module
 */
import { UnwritableCatalogError } from "../../errors.ts";
import { ByteWriter, SEEN_NON_ASCII, SEEN_UNHOLDABLE } from "./_byte_writer.ts";
import { flagLine, formatLanguageOf, interpretFlags, NO_FLAGS } from "../read/_flags.ts";
import type { Layout } from "./_layout_cache.ts";
import { writeReferences } from "../read/_references.ts";
import type { PoMessage } from "../types.ts";
import { type GettextGeneration, writeString } from "../layout/string_layout.ts";
import { isCjkEncoding, type LegacyCodec } from "../charsets/_legacy_charset.ts";

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
  for (let i = 0; i < list.length; i++) r |= scanText(list[i]!);
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

/** Comment lines as msgcat prints them: `#` (or `#.`) alone when empty, one line per `\n`. */
export function writeComment(w: ByteWriter, marker: string, text: string): void {
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
 * Writes one message into `w` as msgcat's `message_print` / `message_print_obsolete` would, and
 * returns its layout; `bytes.buffer` is set by the caller once the writer is done growing. `legacy`:
 * the codec of a multi-byte legacy charset the catalogue is written in (widths of libunistring's
 * CJK encodings, `#:` lines counted in its bytes), or null.
 *
 * @throws {UnwritableCatalogError} a string or comment holds NUL or U+0004.
 */
export function writeMessage(
  w: ByteWriter,
  m: PoMessage,
  singleByte: boolean,
  noWrapAll: boolean,
  legacy: LegacyCodec | null = null,
  generation: GettextGeneration = "0.21",
): Layout {
  const plural = m.msgidPlural !== null;
  const forms = m.msgstrPlural !== null && m.msgstrPlural.length > 0 ? m.msgstrPlural : null;
  const msgstr0 = plural && forms !== null ? forms[0] ?? "" : m.msgstr;
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
    const cjk = legacy !== null && isCjkEncoding(legacy.charset);
    for (let i = 0; i < m.translatorComments.length; i++) writeComment(w, "#", m.translatorComments[i]!);
    for (let i = 0; i < m.extractedComments.length; i++) writeComment(w, "#.", m.extractedComments[i]!);
    if (m.references.length > 0) writeReferences(w, m.references, singleByte, legacy);
    if (flags !== NO_FLAGS) w.ascii(flagLine(flags, msgstr0, m.obsolete));
    let prefix = m.obsolete ? "#~| " : "#| ";
    if (m.previousMsgctxt !== null) {
      writeString(w, m.previousMsgctxt, prefix, "msgctxt", noWrap, language, cjk, generation);
    }
    if (m.previousMsgid !== null) {
      writeString(w, m.previousMsgid, prefix, "msgid", noWrap, language, cjk, generation);
    }
    if (m.previousMsgidPlural !== null) {
      writeString(w, m.previousMsgidPlural, prefix, "msgid_plural", noWrap, language, cjk, generation);
    }
    prefix = m.obsolete ? "#~ " : "";
    if (m.msgctxt !== null) writeString(w, m.msgctxt, prefix, "msgctxt", noWrap, language, cjk, generation);
    writeString(w, m.msgid, prefix, "msgid", noWrap, language, cjk, generation);
    if (!plural) writeString(w, m.msgstr, prefix, "msgstr", noWrap, language, cjk, generation);
    else {
      writeString(w, m.msgidPlural!, prefix, "msgid_plural", noWrap, language, cjk, generation);
      if (forms === null) writeString(w, m.msgstr, prefix, "msgstr[0]", noWrap, language, cjk, generation);
      else {
        for (let i = 0; i < forms.length; i++) {
          writeString(w, forms[i]!, prefix, pluralKeyword(i), noWrap, language, cjk, generation);
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

/** The buffer of a layout not yet given its own (and of an empty one). */
export const NO_BYTES = new Uint8Array(0);
const PLURAL_KEYWORDS = Array.from({ length: 10 }, (_, i) => `msgstr[${i}]`);

/** The keyword of plural form `i`: `msgstr[i]`. */
export function pluralKeyword(i: number): string {
  return PLURAL_KEYWORDS[i] ?? `msgstr[${i}]`;
}
