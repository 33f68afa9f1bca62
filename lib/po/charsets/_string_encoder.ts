/**
 * One string at a time into a catalogue's charset, with the codec the reader and the writer use
 * (glibc's iconv tables: `_charset.ts`, `_legacy_charset.ts`, `_johab.ts`): what `compile` writes
 * into an MO file, where msgfmt copies the bytes of the PO file. Since the reader decodes as glibc
 * does and this encoder is its inverse, a string read from a file is written back as the bytes it
 * was read from (except where the charset has two codes for one character: then glibc's first).
 *
 * @module
 */
import { singleByteTable } from "./_charset.ts";
import { legacyCodec } from "./_legacy_charset.ts";

/** Encodes `text`: its bytes, or the index in `text` of the first character the charset cannot hold. */
export type StringEncoder = (text: string) => Uint8Array | number;

const utf8 = /* @__PURE__ */ new TextEncoder();
const encoders = new Map<string, StringEncoder | null>();

/**
 * The encoder of `canonical` (a name from `canonicalCharset`), or null for a charset this service
 * cannot encode (EUC-TW, KOI8-T, CP850, VISCII, GEORGIAN-PS): the caller may still write ASCII
 * text, which every charset gettext accepts holds as ASCII.
 *
 * @example
 * ```ts
 * stringEncoder("EUC-JP")!("〜"); // Uint8Array [0xA1, 0xC1]
 * stringEncoder("ISO-8859-1")!("€"); // 0: the charset cannot hold it
 * ```
 */
export function stringEncoder(canonical: string): StringEncoder | null {
  let encoder = encoders.get(canonical);
  if (encoder === undefined) encoders.set(canonical, encoder = makeEncoder(canonical));
  return encoder;
}

/** Whether every UTF-16 unit of `text` is ASCII. */
export function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function makeEncoder(canonical: string): StringEncoder | null {
  if (canonical === "UTF-8") return (text) => utf8.encode(text);
  if (canonical === "ASCII") {
    return (text) => {
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return i;
      return asciiBytes(text);
    };
  }
  if (canonical === "ISO-8859-1") {
    return (text) => {
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return i;
      return asciiBytes(text);
    };
  }
  const codec = legacyCodec(canonical);
  if (codec !== null) return (text) => codec.encode(text);
  const table = singleByteTable(canonical);
  if (table === null) return null;
  // The writer's inverse (`encodeLegacy`): a character two bytes read as is written as the first.
  const reverse = new Map<number, number>();
  table.forEach((ch, b) => {
    if (ch !== "" && !reverse.has(ch.charCodeAt(0))) reverse.set(ch.charCodeAt(0), b);
  });
  return (text) => {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const b = c < 0x80 ? c : reverse.get(c);
      if (b === undefined) return i;
      out[i] = b;
    }
    return out;
  };
}
