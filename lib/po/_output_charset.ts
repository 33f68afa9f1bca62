/**
 * The charset a catalogue is written in, as msgcat determines it from the current header(s), and
 * the encoding of the UTF-8 layout into that charset.
 *
 * @module
 */
import { UnwritableCatalogError } from "../errors.ts";
import { canonicalCharset, headerCharset, singleByteTable } from "./_charset.ts";
import { readList } from "./parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "./types.ts";

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

/** Whether `#:` lines of a catalogue in `canonical` are filled counting one byte per character. */
export function isSingleByte(canonical: string): boolean {
  return canonical !== "UTF-8" && canonical !== "ASCII" &&
    (canonical === "ISO-8859-1" || singleByteTable(canonical) !== null);
}

/** UTF-8 output `utf8` in a single-byte charset. */
export function encodeLegacy(utf8: Uint8Array, canonical: string, spelled: string | null): Uint8Array {
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
