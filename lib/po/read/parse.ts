/**
 * The PO reader: bytes of a `.po`/`.pot` file → {@link PoCatalog}, reading exactly what GNU msgcat
 * 0.21 reads (docs: `shared/docs/msgcat-format.md`, section 2) and rejecting what it rejects.
 *
 * How it works: the bytes are lexed ({@link Lexer}, `_lexer.ts`) and parsed (`_grammar.ts`) into
 * messages whose strings may still be bytes; the header's charset is then resolved and everything
 * decoded in it (`_decode.ts`), and duplicates are checked (`_duplicates.ts`). Two readings: a fast
 * one over the bytes as one-byte strings ({@link readAsBytes}), and a careful one over the decoded
 * text ({@link readAsText}) for the files the first cannot read and for errors, whose columns count
 * characters.
 *
 * @module
 */
import { latin1String } from "../../native_bytes.ts";
import { PoSyntaxError } from "../../errors.ts";
import {
  bytesToByteString,
  canonicalCharset,
  decodeUtf8,
  guessCharset,
  WEIRD_CJK,
} from "../charsets/_charset.ts";
import { type CharsetInfo, checkAscii, decodeByteMode, decodePending, resolveCharset } from "./_decode.ts";
import { forEachDuplicate, sampleKey } from "./_duplicates.ts";
import { parseText, type RawParse } from "./_grammar.ts";
import {
  handOut,
  lineOfMessage,
  linesOfCatalog,
  linesOfList,
  type ReadList,
  readLists,
} from "../_identity_caches.ts";
import { Lexer, removeBackslashNewlines } from "./_lexer.ts";
import type { Draft, PoCatalog, PoMessage } from "../types.ts";

/** Options of {@link parsePo}. */
export interface ParsePoOptions {
  /**
   * The file's name, for the `.pot` rule (msgcat accepts `charset=CHARSET` only in a `.pot`) and
   * kept on the catalogue. Absent = not a `.pot` (msgcat reading stdin).
   */
  fileName?: string;
  /**
   * Accept a UTF-8 byte order mark at the start (default false: msgcat 0.21 rejects it as a syntax
   * error). The catalogue is marked `bom: true`, and the writer still refuses to format it.
   */
  allowBom?: boolean;
  /**
   * Reject two messages with the same domain, msgctxt and msgid, obsolete ones included, as msgcat
   * does (default true). With `strict: false` every message is kept (polib reads such files); the
   * writer refuses to format the catalogue while the duplicates remain.
   */
  strict?: boolean;
  /**
   * The charset to read a file in when no header names one (canonical name), instead of refusing
   * its non-ASCII text as msgcat does: msgfmt compiles such a file's bytes as they are, with a
   * warning (see `readForCompile`). The catalogue still has no charset (`charset: null`).
   */
  missingCharset?: string;
  /**
   * Read `charset=CHARSET` outside a `.pot` as ASCII, as msgmerge and msgfmt do (with a warning)
   * where msgcat refuses it: the catalogue is marked `placeholderCharset: "read"`, and its non-ASCII
   * text is still refused (msgmerge drops those bytes as invalid multibyte sequences).
   */
  placeholderCharset?: boolean;
}

/**
 * The 1-based line of the `msgid` keyword of a message returned by {@link parsePo}, or undefined
 * for a message made in memory. Used in error messages.
 */
export function messageLine(message: PoMessage): number | undefined {
  return lineOfMessage.get(message);
}

/**
 * The 1-based line of each message's first keyword, parallel to `catalog.messages`, when that list
 * is the one {@link parsePo} returned, or the catalogue is one the store wrote (`written_lines.ts`);
 * undefined for a list made or changed in memory.
 */
export function messageLines(catalog: PoCatalog): readonly number[] | undefined {
  const written = linesOfCatalog.get(catalog);
  if (written !== undefined) return written();
  return linesOfList.get(catalog.messages);
}

/**
 * Finds messages with the same domain, msgctxt and msgid (obsolete ones included), as msgcat does.
 * Strict: throws at the second one. Otherwise remembers the lines of the messages involved, for
 * the writer's error message.
 */
function checkDuplicates(raw: RawParse, strict: boolean): void {
  const { messages, lines } = raw;
  for (const i of raw.high) raw.keys[i] = sampleKey(messages[i]!.msgid);
  forEachDuplicate(messages, (first, i) => {
    if (strict) {
      throw new PoSyntaxError(
        `duplicate message definition (first defined at line ${lines[first]})`,
        lines[i]!,
        1,
      );
    }
    lineOfMessage.set(messages[first]!, lines[first]!);
    lineOfMessage.set(messages[i]!, lines[i]!);
    return true;
  }, raw.keys);
}

function parseWith(text: string, utf8: boolean, weird: string | null): RawParse {
  const { text: clean, removed } = removeBackslashNewlines(text);
  return parseText(new Lexer(clean, utf8, weird, removed));
}

/**
 * Parses the bytes of a PO file into a {@link PoCatalog}: every message in file order (header,
 * obsolete entries and all their comments included), strings decoded from the header's charset.
 *
 * Reads what GNU msgcat 0.21 reads and rejects what it rejects: syntax errors, invalid escapes
 * (`\\'`, `\\?`), misplaced `#|` lines, `inconsistent use of #~`, duplicate messages (unless
 * `strict: false`), a byte order mark (unless `allowBom`), non-ASCII text without a header
 * charset, an unknown charset name (`charset=CHARSET` outside a `.pot`), and strings that are not
 * valid in the charset.
 *
 * Not kept (msgcat drops them too): blank lines, comments after the last message or before a
 * `domain` line, all `#,` lines of an entry but the last.
 *
 * @param bytes the file's contents.
 * @param options a file name, or {@link ParsePoOptions}.
 * @throws {PoSyntaxError} the file is not a PO file msgcat would accept; carries reason, 1-based
 *   line and column.
 * @example
 * ```ts
 * const cat = parsePo(new TextEncoder().encode('msgid "a"\\nmsgstr "b"\\n'));
 * cat.messages[0].msgstr; // "b"
 * ```
 */
export function parsePo(bytes: Uint8Array, options: string | ParsePoOptions = {}): PoCatalog {
  const opts: ParsePoOptions = typeof options === "string" ? { fileName: options } : options;
  let body = bytes;
  let bom = false;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    if (!opts.allowBom) {
      throw new PoSyntaxError(
        "syntax error: byte order mark at the start of the file (msgcat 0.21 rejects it)",
        1,
        1,
      );
    }
    body = bytes.subarray(3);
    bom = true;
  }

  let read: { raw: RawParse; info: CharsetInfo } | null;
  try {
    read = readAsBytes(body, opts.fileName, CHUNK_BYTES, opts.missingCharset, opts.placeholderCharset);
  } catch (e) {
    if (!(e instanceof PoSyntaxError)) throw e;
    read = null; // the careful reading finds the same error and says where, in characters
  }
  const { raw, info } = read ?? readAsText(body, opts.fileName, opts.missingCharset, opts.placeholderCharset);
  checkDuplicates(raw, opts.strict ?? true);

  const catalog: Draft<PoCatalog> = { messages: raw.messages, charset: info.raw };
  readLists.set(raw.messages, { headers: raw.headers, domains: raw.domains, bytes: body.length });
  linesOfList.set(raw.messages, raw.lines);
  if (bom) catalog.bom = true;
  if (opts.fileName !== undefined) catalog.fileName = opts.fileName;
  if (info.placeholder) catalog.placeholderCharset = "read";
  return handOut(catalog);
}

/** What {@link parsePo} knew of `list`, when it made it; undefined for any other list. */
export function readList(list: readonly PoMessage[]): ReadList | undefined {
  return readLists.get(list);
}

/** What a reading of a file gives {@link parsePo}: its messages, decoded, and its charset. */
export interface Reading {
  raw: RawParse;
  info: CharsetInfo;
}

/**
 * The fast reading of a PO file's bytes (after any BOM), used by {@link parsePo} first: the lexer
 * reads the bytes as one-byte strings (V8 keeps them, and each ASCII field cut from them, at a
 * byte per character, where a decoded UTF-8 file with one CJK character takes two bytes per
 * character), and only the messages the lexer saw a non-ASCII byte in are decoded afterwards.
 * Null when the file names a charset whose second bytes may be ASCII (the lexer must know it
 * first) or holds a backslash-newline. Otherwise it gives what {@link readAsText} gives.
 *
 * @param chunkBytes roughly how many bytes each string holds (tests make it small).
 * @throws {PoSyntaxError} at any error; its column counts bytes, so {@link parsePo} reads the
 *   file again with {@link readAsText} to report it as msgcat does.
 * @example
 * ```ts
 * readAsBytes(new TextEncoder().encode('msgid "a"\nmsgstr "b"\n'), "a.po")?.raw.messages[0].msgstr; // "b"
 * ```
 */
export function readAsBytes(
  body: Uint8Array,
  fileName: string | undefined,
  chunkBytes = CHUNK_BYTES,
  missingCharset?: string,
  placeholderCharset = false,
): Reading | null {
  const guess = canonicalCharset(guessCharset(body));
  if (guess !== null && WEIRD_CJK.has(guess)) return null;
  const chunks = byteStringChunks(body, chunkBytes);
  if (chunks === null) return null;
  const raw = parseText(new Lexer(chunks[0]!, false, null, [], chunks.slice(1)));
  const info = resolveCharset(raw, fileName, missingCharset, placeholderCharset);
  if (WEIRD_CJK.has(info.canonical)) return null;
  decodeByteMode(raw, info);
  if (info.canonical === "ASCII") checkAscii(raw, info);
  return { raw, info };
}

/** Bytes per chunk, roughly: V8 makes a string this long in its young generation, not in pages of its own. */
const CHUNK_BYTES = 1 << 16;

/**
 * The file as byte strings of about {@link CHUNK_BYTES} each, cut after a newline; null when it holds
 * a backslash-newline (the careful reading removes those first). A string of the whole file would
 * be a large object, in memory fresh from the system at every reading: on our machines the first
 * touch of each page of it costs more than lexing it.
 */
function byteStringChunks(body: Uint8Array, chunkBytes: number): string[] | null {
  const chunks: string[] = [];
  for (let from = 0; from < body.length || chunks.length === 0;) {
    const newline = from + chunkBytes < body.length ? body.indexOf(10, from + chunkBytes) : -1;
    const to = newline < 0 ? body.length : newline + 1;
    const chunk = latin1String(body, from, to);
    if (chunk.indexOf("\\\n") >= 0) return null;
    chunks.push(chunk);
    from = to;
  }
  return chunks;
}

/**
 * The careful reading of a PO file's bytes (after any BOM), which {@link parsePo} uses when
 * {@link readAsBytes} cannot read a file or finds an error: a UTF-8 file is decoded first and
 * lexed as text, so error columns count characters as msgcat's do; another file is lexed as
 * bytes once its charset is known.
 *
 * @throws {PoSyntaxError} the file is not one msgcat reads.
 * @example
 * ```ts
 * readAsText(new TextEncoder().encode('msgid "a"\nmsgstr "b"\n'), "a.po").raw.messages[0].msgstr; // "b"
 * ```
 */
export function readAsText(
  body: Uint8Array,
  fileName: string | undefined,
  missingCharset?: string,
  placeholderCharset = false,
): Reading {
  const utf8Text = decodeUtf8(body);
  let raw: RawParse;
  let info: CharsetInfo;
  let byteMode: boolean;
  if (utf8Text !== null) {
    raw = parseWith(utf8Text, true, null);
    info = resolveCharset(raw, fileName, missingCharset, placeholderCharset);
    const allAscii = utf8Text.length === body.length;
    byteMode = info.canonical !== "UTF-8" && info.canonical !== "ASCII" && !allAscii;
  } else {
    byteMode = true;
    // In Shift_JIS, Big5, GBK… the second byte of a character may be `\` or `"`: the lexer must
    // know the charset before it reads strings. Guess it from the first "charset=" in the file.
    const guess = canonicalCharset(guessCharset(body));
    raw = parseWith(bytesToByteString(body), false, guess !== null && WEIRD_CJK.has(guess) ? guess : null);
    info = resolveCharset(raw, fileName, missingCharset, placeholderCharset);
    if (info.canonical !== guess && WEIRD_CJK.has(info.canonical)) {
      raw = parseWith(bytesToByteString(body), false, info.canonical);
    }
  }
  if (byteMode) {
    if (utf8Text !== null) raw = parseWith(bytesToByteString(body), false, null);
    decodeByteMode(raw, info);
  } else {
    decodePending(raw.pending, info);
  }
  if (info.canonical === "ASCII") checkAscii(raw, info);
  return { raw, info };
}
