/**
 * The charset a catalogue is written in, as msgcat determines it from the current header(s), and
 * the encoding of the UTF-8 layout into that charset.
 *
 * @module
 */
import { UnwritableCatalogError } from "../../errors.ts";
import { canonicalCharset, headerCharset, singleByteTable } from "./_charset.ts";
import { outputCharsets } from "../_identity_caches.ts";
import { readList } from "../read/parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import { legacyCodec } from "./_legacy_charset.ts";

const utf8Decoder = new TextDecoder();

/** The charset msgcat would use for the catalogue, from its current header(s). */
export interface OutputCharset {
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
export function catalogCharset(catalog: PoCatalog, acceptPlaceholder = false): OutputCharset {
  // Asked several times per write (the update, the layout, the encoding) of a 10k-message list.
  const placeholder = acceptPlaceholder && catalog.placeholderCharset === "read"
    ? "merged"
    : catalog.placeholderCharset;
  const cached = outputCharsets.get(catalog.messages);
  if (
    cached !== undefined && cached.fileName === catalog.fileName &&
    cached.placeholder === placeholder
  ) return cached.charset;
  const charset = findCharset(catalog, placeholder);
  outputCharsets.set(catalog.messages, {
    fileName: catalog.fileName,
    placeholder,
    charset,
  });
  return charset;
}

/**
 * `placeholder` "merged": `charset=CHARSET` is written as ASCII, as msgmerge writes it, and as msgcat
 * 0.23.1 does (with a warning) where 0.21 refuses it.
 */
function findCharset(catalog: PoCatalog, placeholder: PoCatalog["placeholderCharset"]): OutputCharset {
  let canonical: string | null = null;
  let spelled: string | null = null;
  const messages = catalog.messages;
  // A list fresh from the reader: only the messages it saw as header-like can be headers.
  const candidates = readList(messages)?.headers;
  const count = candidates === undefined ? messages.length : candidates.length;
  for (let k = 0; k < count; k++) {
    const m = messages[candidates === undefined ? k : candidates[k]!]!;
    if (!isHeader(m)) continue;
    const value = headerCharset(m.msgstr);
    if (value === null) continue;
    let canon = canonicalCharset(value);
    if (
      canon === null && value === "CHARSET" &&
      (catalog.fileName?.endsWith(".pot") || placeholder === "merged")
    ) canon = "ASCII";
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

/** Whether `#:` lines of a catalogue in `canonical` are filled counting one byte per character. */
export function isSingleByte(canonical: string): boolean {
  return canonical !== "UTF-8" && canonical !== "ASCII" &&
    (canonical === "ISO-8859-1" || singleByteTable(canonical) !== null);
}

/**
 * Whether `encodePo` can write a catalogue in `canonical` (a name from `canonicalCharset`): UTF-8,
 * ASCII, the single-byte charsets and the multi-byte ones of `_legacy_charset.ts` (not EUC-TW).
 */
export function isWritableCharset(canonical: string): boolean {
  return canonical === "UTF-8" || canonical === "ASCII" || isSingleByte(canonical) ||
    legacyCodec(canonical) !== null;
}

/**
 * UTF-8 output `utf8` of `catalog` in a legacy charset, single-byte or multi-byte; a character the
 * charset cannot hold is refused, naming the first entry that has it.
 */
export function encodeLegacy(
  utf8: Uint8Array,
  canonical: string,
  spelled: string | null,
  catalog: PoCatalog,
): Uint8Array {
  const text = utf8Decoder.decode(utf8);
  if (canonical === "ISO-8859-1") {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0xff) throw unencodable(text, i, spelled!, catalog);
      out[i] = c;
    }
    return out;
  }
  const codec = legacyCodec(canonical);
  if (codec !== null) {
    const out = codec.encode(text);
    if (typeof out === "number") throw unencodable(text, out, spelled!, catalog);
    return out;
  }
  const table = singleByteTable(canonical);
  if (!table) {
    throw new UnwritableCatalogError(
      `Cannot write PO file in charset "${spelled}": EUC-TW catalogues cannot be written here ` +
        "(convert it with msgconv --to-code=UTF-8 first)",
    );
  }
  const reverse = new Map<string, number>();
  table.forEach((ch, b) => {
    if (ch !== "" && !reverse.has(ch)) reverse.set(ch, b);
  });
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const b = reverse.get(text[i]!);
    if (b === undefined) throw unencodable(text, i, spelled!, catalog);
    out[i] = b;
  }
  return out;
}

/**
 * The error for the character at `text[i]`, which `charset` cannot hold, naming the first entry
 * of `catalog` (in file order) that has it in a string, comment, reference or flag.
 */
function unencodable(text: string, i: number, charset: string, catalog: PoCatalog): UnwritableCatalogError {
  const cp = text.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  const m = catalog.messages.find((m) => messageTexts(m).some((t) => t.includes(ch)));
  const entry = m === undefined
    ? ""
    : ` the entry with ${
      m.msgctxt === null ? "" : `msgctxt ${JSON.stringify(m.msgctxt.slice(0, 60))} and `
    }msgid ${JSON.stringify(m.msgid.slice(0, 60))} has`;
  return new UnwritableCatalogError(
    `Cannot write PO file in charset "${charset}":${entry} the character U+${
      cp.toString(16).toUpperCase().padStart(4, "0")
    } (${ch}), which ${charset} cannot hold` + (cp === 0xfffd ? REPLACEMENT_HINT : ""),
  );
}

/**
 * Said of U+FFFD: the reader puts it for bytes of a comment, reference or flag that are no
 * character of the charset, which msgcat (checking only strings) copies as they are.
 */
const REPLACEMENT_HINT = " (the reader's stand-in for bytes of a comment, reference or flag that are no " +
  "character: msgcat copies those)";

/** Every text of a message that is written: strings, comments, reference file names, flags. */
function messageTexts(m: PoMessage): string[] {
  const out = [m.msgid, m.msgstr, ...(m.msgstrPlural ?? []), ...m.translatorComments, ...m.extractedComments];
  for (const t of [m.msgctxt, m.msgidPlural, m.previousMsgctxt, m.previousMsgid, m.previousMsgidPlural]) {
    if (t !== null) out.push(t);
  }
  for (const r of m.references) out.push(r.file);
  for (const f of m.flags) out.push(f);
  return out;
}
