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
import type { GettextGeneration } from "../layout/string_layout.ts";

/** The generation each catalogue is written in, by its file name (set once at start-up). */
let generationOf: (fileName: string | undefined) => GettextGeneration = () => "0.21";

/**
 * Makes the service's writes (entries, headers, merges, purges, deletes: everything
 * {@link PO_CODEC} encodes) lay out each catalogue as the generation `resolve` gives for its path:
 * the repository's choice or what its catalogues are laid out as (`cli/server_config.ts`).
 * Default: 0.21 everywhere.
 */
export function useLayoutGenerations(resolve: (fileName: string | undefined) => GettextGeneration): void {
  generationOf = resolve;
}

/** The generation {@link PO_CODEC} writes the catalogue at `fileName` in. */
export function layoutGenerationOf(fileName: string | undefined): GettextGeneration {
  return generationOf(fileName);
}

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
  encode: (catalog) => encodePoRuns(catalog, { forcePo: true, generation: generationOf(catalog.fileName) }),
  // What a read of the written file gives: its lines known, in the order written (issue 34.5).
  written: writtenCatalog,
};
