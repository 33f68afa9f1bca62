/**
 * The purge of a catalogue's obsolete (`#~`) entries through the store (issue 34.3): under the
 * file's lock, the compare-and-swap on its revision, the entries removed in one atomic write, or,
 * for a dry run, the unified diff that write would make and nothing written. No HTTP here.
 *
 * @module
 */
import { flatBytes } from "../../byte_runs.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { CatalogueCallOptions, CatalogueStore } from "../../store/mod.ts";
import { purgeObsolete, type PurgeSelection } from "./delete_entries.ts";
import { DRY_RUN_DIFF_WORK } from "./edit_catalogue.ts";
import { messageLines } from "../read/parse.ts";
import { PO_CODEC } from "./po_codec.ts";
import type { PoCatalog } from "../types.ts";
import { unifiedDiff } from "../write/unified_diff.ts";

/** Purged entries an answer lists at most (all are counted). */
export const MAX_LISTED_PURGED = 200;

/** One purged entry, as answered: its key, its translation and its line in the file before. */
export interface PurgedEntry {
  msgid: string;
  msgctxt: string | null;
  msgstr: string;
  line: number | null;
}

/** What a purge did (or, for a dry run, would do). */
export interface PurgeResult {
  /** Obsolete entries removed. */
  purged: number;
  /** Obsolete entries left in the file. */
  kept: number;
  /** The first {@link MAX_LISTED_PURGED} of them, in file order. */
  entries: PurgedEntry[];
  /** The file's revision after the purge (for a dry run, the one the diff starts from). */
  revision: string | null;
  written: boolean;
  /** Dry run only: the unified diff the purge would make. */
  diff?: string;
}

class DryRun {
  constructor(readonly result: PurgeResult) {}
}

/**
 * Removes the obsolete entries `selection` names from the catalogue at `path`.
 *
 * @throws {NotFoundError} there is no file.
 * @throws {ConflictError} `ifRevision` is not the file's revision now (details: `revision`).
 */
export async function purgeCatalogue(
  store: CatalogueStore<PoCatalog>,
  path: string,
  options: { selection: PurgeSelection; ifRevision?: string; dryRun?: boolean },
  call: CatalogueCallOptions = {},
): Promise<PurgeResult> {
  try {
    const outcome = await store.updateWithRevision(path, (doc, current) => {
      if (doc === null) throw new NotFoundError(`File not found: ${path}`);
      if (options.ifRevision !== undefined && options.ifRevision !== current.revision) {
        throw new ConflictError(
          `Nothing was purged: the file changed since it was read (if_revision ${
            JSON.stringify(options.ifRevision)
          }, now ${current.revision}); read it again`,
          { revision: current.revision },
        );
      }
      const r = purgeObsolete(doc, options.selection);
      const lines = messageLines(doc);
      const at = new Map(doc.messages.map((m, i) => [m, i]));
      const result: PurgeResult = {
        purged: r.purged.length,
        kept: r.kept,
        entries: r.purged.slice(0, MAX_LISTED_PURGED).map((m) => ({
          msgid: m.msgid,
          msgctxt: m.msgctxt,
          msgstr: m.msgidPlural !== null ? m.msgstrPlural?.[0] ?? "" : m.msgstr,
          line: lines?.[at.get(m)!] ?? null,
        })),
        revision: current.revision,
        written: false,
      };
      if (options.dryRun) {
        const decoder = new TextDecoder();
        const before = decoder.decode(flatBytes(current.bytes!));
        const after = decoder.decode(flatBytes(PO_CODEC.encode(r.catalog)));
        throw new DryRun({
          ...result,
          diff: unifiedDiff(before, after, path, { maxWork: DRY_RUN_DIFF_WORK }),
        });
      }
      return { doc: r.catalog, result };
    }, call);
    return { ...outcome.result, revision: outcome.revision, written: outcome.written };
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}
