/**
 * The PO writer: {@link PoCatalog} → exactly the text GNU msgcat 0.21 prints for the file it was
 * read from (`msgcat FILE`, page width 79), without running msgcat. Layout rules: section 3 of
 * `shared/docs/msgcat-format.md`; every string goes through `wrapString` (sections 4–5).
 *
 * Each message's laid-out text is cached by object identity (`_layout_cache.ts`; messages are
 * immutable: a change replaces the object), so formatting a catalogue again after one message
 * changed lays out only that message. One message's layout is `_message_layout.ts`; the charset
 * of the output and its encoding `_output_charset.ts`.
 *
 * @module
 */
import { PoSyntaxError, UnwritableCatalogError } from "../../errors.ts";
import { type ByteItem, type BytePiece, concatRuns, flatBytes, joinRuns } from "../../byte_runs.ts";
import { ByteWriter } from "./_byte_writer.ts";
import { domainGroups, groupAt, groupSize } from "./_domains.ts";
import { forEachDuplicate } from "../read/_duplicates.ts";
import { isRemembered, type Layout, previousLayouts, rememberLayouts } from "./_layout_cache.ts";
import { NO_BYTES, writeMessage } from "./_message_layout.ts";
import { catalogCharset, encodeLegacy, isSingleByte } from "../charsets/_output_charset.ts";
import { messageLine, readList } from "../read/parse.ts";
import { legacyCodec } from "../charsets/_legacy_charset.ts";
import type { PoCatalog, PoMessage } from "../types.ts";
import type { GettextGeneration } from "../layout/string_layout.ts";

const utf8Decoder = new TextDecoder();

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
    const first = catalog.messages[firstIndex]!;
    const m = catalog.messages[i]!;
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
  /**
   * The catalogue is encoded once and dropped (the `wrap` command): its messages' layouts are not
   * kept for a later encoding, which saves the cost of keeping them over a tree of catalogues.
   * The output is the same.
   */
  once?: boolean;
  /** Lay out as msgcat 0.21 (the default) or 0.23.1 (`string_layout.ts`). */
  generation?: GettextGeneration;
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
  const runs = layoutCatalog(
    catalog,
    options.noWrap ?? false,
    options.forcePo ?? false,
    options.once ?? false,
    options.generation ?? "0.21",
  );
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
function layoutCatalog(
  catalog: PoCatalog,
  noWrapAll: boolean,
  forcePo: boolean,
  once: boolean,
  generation: GettextGeneration,
): Uint8Array[] {
  checkAccepted(catalog);
  const charset = catalogCharset(catalog, generation === "0.23");
  const singleByte = isSingleByte(charset.canonical);
  const legacy = legacyCodec(charset.canonical);
  const messages = catalog.messages;
  const { domains, groups } = domainGroups(messages, forcePo);
  if (groups === null) return [];
  const previous = previousLayouts(messages, singleByte, noWrapAll, legacy?.charset ?? null, generation);
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
    const inDomain = groups[k]!; // a group per domain
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
        const i = pass === 0 ? groupAt(inDomain, q) : obsoleteOnes[q]!;
        const m = messages[i]!;
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
          layout = writeMessage(w, m, singleByte, noWrapAll, legacy, generation);
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
    for (let i = 0; i < domainLines.length; i++) domainLines[i]!.buffer = buffer;
    const fresh = cold ? all : freshLayouts;
    for (let i = 0; i < fresh.length; i++) if (fresh[i] !== undefined) fresh[i]!.buffer = buffer;
  }
  if (!once && (w !== null || !isRemembered(messages))) {
    rememberLayouts({
      messages,
      layouts: all,
      singleByte,
      noWrapAll,
      legacy: legacy?.charset ?? null,
      generation,
    });
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
    const m = messages[i]!;
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
  const runs = layoutCatalog(
    catalog,
    options.noWrap ?? false,
    options.forcePo ?? false,
    options.once ?? false,
    options.generation ?? "0.21",
  );
  const { canonical, spelled } = catalogCharset(catalog, options.generation === "0.23");
  if (canonical === "UTF-8" || canonical === "ASCII") return runs;
  return [encodeLegacy(runs.length === 1 ? runs[0]! : concatRuns(runs), canonical, spelled, catalog)];
}
