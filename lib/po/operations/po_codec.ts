/**
 * The PO codec of the catalogue store: how a catalogue file becomes a {@link PoCatalog} and back.
 *
 * Reading is lenient where msgcat is strict but the content is still unambiguous (a byte order
 * mark, duplicate entries: polib reads both, and so must `/po/read`); writing is exactly msgcat's
 * (those files are refused with the reason, and nothing is written).
 *
 * @module
 */
import type { DocumentCodec } from "../../store/mod.ts";
import { parsePo } from "../read/parse.ts";
import type { PoCatalog } from "../types.ts";
import { encodePoRuns } from "../write/write.ts";
import { writtenCatalog } from "../write/written_lines.ts";

/**
 * The codec the service's store uses.
 *
 * @example
 * ```ts
 * const store = new CatalogueStore({ roots: ["/srv/po"], codec: PO_CODEC });
 * ```
 */
export const PO_CODEC: DocumentCodec<PoCatalog> = {
  // `charset=CHARSET` in a .po read as msgmerge and msgfmt read it (merge and check follow them);
  // the writer still refuses to write such a catalogue unless a merge made it, as msgcat refuses it.
  parse: (bytes, path) =>
    parsePo(bytes, { fileName: path, allowBom: true, strict: false, placeholderCharset: true }),
  // The store encodes the same catalogue after every write: the writer's layout cache keeps each
  // message's bytes, so only the changed messages are laid out again, and the file is written
  // from runs of those bytes, not from a copy of them all.
  // As `msgcat --force-po`: a catalogue of nothing but its header is written with it (msgcat
  // alone writes an empty file, and the charset is lost).
  encode: (catalog) => encodePoRuns(catalog, { forcePo: true }),
  // What a read of the written file gives: its lines known, in the order written (issue 34.5).
  written: writtenCatalog,
};
