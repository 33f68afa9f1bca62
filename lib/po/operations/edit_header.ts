/**
 * One header update against a catalogue file, through the store, as a write request is
 * (`edit_catalogue.ts`): the `ifRevision` compare-and-swap made under the store's lock, or, for a
 * dry run, the unified diff the update would make and nothing written. No HTTP here.
 *
 * @module
 */
import { flatBytes } from "../../byte_runs.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { CatalogueCallOptions, CatalogueStore } from "../../store/mod.ts";
import { type HeaderUpdate, updateHeader } from "./header.ts";
import type { PoCatalog } from "../types.ts";
import { unifiedDiff } from "../write/unified_diff.ts";
import { DRY_RUN_DIFF_WORK, readBack } from "./edit_catalogue.ts";
import { layoutGenerationOf } from "./po_codec.ts";
import { keptBytes, type LayoutMode, type LayoutReport } from "../write/keep_layout.ts";

/** A header update request. */
export interface HeaderEdit extends HeaderUpdate {
  /** Update only if the file's revision now is this one (else {@link ConflictError}). */
  ifRevision?: string;
  /** Compute everything, write nothing, and tell the diff the update would make. */
  dryRun?: boolean;
  /** The fields to set, from the catalogue as it is under the lock (replaces `set` when given). */
  setFor?: (catalog: PoCatalog) => Readonly<Record<string, string | null>>;
  /** "keep" (default): re-lay out the header only; "full": the whole file (see `write/keep_layout.ts`). */
  layout?: LayoutMode;
}

/** What a header update did (or, for a dry run, would do). */
export interface HeaderEditResult {
  catalog: PoCatalog;
  /** Names of the fields set, added or removed. */
  changed: string[];
  /** The file's revision now (after the update; for a dry run, the one the diff starts from). */
  revision: string | null;
  /** True when the file was replaced. */
  written: boolean;
  /** For a dry run: the unified diff from the file to what the update would make ("" if none). */
  diff?: string;
  /** How the file was laid out, whether it is in msgcat's layout, and what a full re-layout would change. */
  layout: LayoutReport;
}

class DryRunResult {
  constructor(readonly result: HeaderEditResult) {}
}

/**
 * Applies `edit` to the header of the catalogue at `path`.
 *
 * @throws {NotFoundError} the file does not exist (nothing is created).
 * @throws {ConflictError} the revision is not `ifRevision` (details: `revision`, the current one).
 * @throws what `updateHeader` and the store's update throw; the file is untouched.
 */
export async function editHeader(
  store: CatalogueStore<PoCatalog>,
  path: string,
  edit: HeaderEdit,
  options: CatalogueCallOptions = {},
): Promise<HeaderEditResult> {
  try {
    const outcome = await store.updateWithRevision(path, (doc, current) => {
      if (doc === null) throw new NotFoundError(`File not found: ${path}`);
      if (edit.ifRevision !== undefined && edit.ifRevision !== current.revision) {
        throw new ConflictError(
          `Nothing was written: the file changed since it was read (if_revision ${
            JSON.stringify(edit.ifRevision)
          }, now ${current.revision}); read it again and redo the update on what it holds now`,
          { revision: current.revision },
        );
      }
      const updated = updateHeader(doc, edit.setFor ? { ...edit, set: edit.setFor(doc) } : edit);
      const kept = keptBytes(current.bytes, doc, updated.catalog, edit.layout ?? "keep", readBack(path), {
        generation: layoutGenerationOf(path),
      });
      const result: HeaderEditResult = {
        catalog: kept.catalog ?? updated.catalog,
        changed: updated.changed,
        revision: current.revision,
        written: false,
        layout: kept.layout,
      };
      if (edit.dryRun) {
        const decoder = new TextDecoder();
        const before = current.bytes === null ? "" : decoder.decode(flatBytes(current.bytes));
        const after = decoder.decode(flatBytes(kept.bytes));
        throw new DryRunResult({
          ...result,
          diff: unifiedDiff(before, after, path, { maxWork: DRY_RUN_DIFF_WORK }),
        });
      }
      return kept.catalog === null
        ? { doc: updated.catalog, result }
        : { doc: kept.catalog, result, bytes: kept.bytes };
    }, options);
    return { ...outcome.result, revision: outcome.revision, written: outcome.written };
  } catch (error) {
    if (error instanceof DryRunResult) return error.result;
    throw error;
  }
}
