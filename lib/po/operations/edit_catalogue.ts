/**
 * One write request against a catalogue file, through the store: the compare-and-swap checks
 * (`if_revision`, each entry's `expected_msgstr`) made on the file as it is under the store's lock,
 * the batch applied in one atomic write, or, for a dry run, the unified diff that write would make
 * and nothing written. No HTTP here.
 *
 * @module
 */
import { flatBytes } from "../../byte_runs.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { CatalogueCallOptions, CatalogueStore } from "../../store/mod.ts";
import { applyWrite, type EntryOutcome, type WriteEntry, type WriteMode } from "./apply_write.ts";
import {
  type CheckProblem,
  ChecksFailedError,
  checkWrite,
  type TermRules,
  type WriteChecks,
} from "../checks/mod.ts";
import { draftProblems } from "./draft_checks.ts";
import { deleteEntries } from "./delete_entries.ts";
import { updateHeader } from "./header.ts";
import { PO_CODEC } from "./po_codec.ts";
import type { PoCatalog } from "../types.ts";
import { unifiedDiff } from "../write/unified_diff.ts";
import { type SimilarExisting, similarExisting } from "./similar_existing.ts";
import { withLines } from "../write/written_lines.ts";
import { layoutGenerationOf } from "./po_codec.ts";
import { keptBytes, type LayoutMode, type LayoutReport } from "../write/keep_layout.ts";

/** A write request. */
export interface CatalogueEdit {
  /** Entries to write, or with `delete: true` to remove (removals apply first; see `delete_entries.ts`). */
  entries: readonly (WriteEntry & { delete?: boolean })[];
  /**
   * When given, the entries to write are computed from the catalogue as it is under the lock
   * (instead of `entries`): a write that depends on what the file holds (a draft's review). It may
   * be called twice (see the store's update) and may throw to refuse the write.
   */
  entriesFor?: (
    doc: PoCatalog | null,
    revision: string | null,
  ) => readonly (WriteEntry & { delete?: boolean })[];
  /** See {@link WriteMode} (default "upsert"). */
  mode?: WriteMode;
  /** Write only if the file's revision now is this one (else {@link ConflictError}). */
  ifRevision?: string;
  /** Compute everything, write nothing, and tell the diff the write would make. */
  dryRun?: boolean;
  /** Quality checks of what the write changes (default "off"; see `checks/mod.ts` checkWrite). */
  checks?: WriteChecks;
  /** The terminology of the file's root, for the glossary, forbidden and term-target checks. */
  terminology?: TermRules | null;
  /** When the write changes an entry, set the header's PO-Revision-Date to this time (default: untouched). */
  stampRevisionDate?: Date;
  /**
   * In "upsert" mode, refuse the write ({@link ConflictError}, nothing written) when an entry it
   * would create has an existing msgid a few edits away (`similar_existing`): a typo would
   * otherwise add a stray entry. Mode "create" says the new entries are meant.
   */
  refuseSimilar?: boolean;
  /** The author of drafts whose entry names none: the caller's identity (default null). */
  draftAuthor?: string | null;
  /** The time draft marks record (default now). */
  now?: Date;
  /**
   * "keep" (default): re-lay out only the entries the write changes and keep every other byte of
   * the file; "full": lay the whole file out as msgcat (see `write/keep_layout.ts`). A file already
   * in msgcat's layout gets the same bytes either way.
   */
  layout?: LayoutMode;
}

/** What a write request did (or, for a dry run, would do). */
export interface EditResult {
  created: number;
  updated: number;
  unchanged: number;
  revived: number;
  /** Entries removed (`delete: true`). */
  deleted: number;
  duplicatesDropped: number;
  /** Per request entry, in request order. */
  outcomes: (EntryOutcome | "deleted")[];
  /** The file's revision now (after the write; for a dry run, the one the diff starts from). */
  revision: string | null;
  /** True when the file was replaced (false for a dry run and when its bytes would not change). */
  written: boolean;
  /** For a dry run: the unified diff from the file to what the write would make ("" if none). */
  diff?: string;
  /** The problems the write introduces (empty with checks "off"), with their lines in the file written. */
  problems: CheckProblem[];
  /** Entries the write creates (or would) while an existing msgid is a few edits away. */
  similarExisting: SimilarExisting[];
  /**
   * The catalogue as the file holds it after the write (for a dry run, as the write would leave
   * it), its lines those of the bytes written: for the answer's entries, their lines and states.
   */
  catalog: PoCatalog;
  /** How the file was laid out, whether it is in msgcat's layout, and what a full re-layout would change. */
  layout: LayoutReport;
}

/** Steps a dry run's diff may take (see `unified_diff.ts`): about 50 ms; past it, changed runs are shown whole. */
export const DRY_RUN_DIFF_WORK = 10_000_000;

/** How the store reads a file of `path` back (a kept write is read back before it is written). */
export function readBack(path: string): (bytes: Uint8Array) => PoCatalog {
  return (bytes) => PO_CODEC.parse(bytes, path);
}

/** Carries a dry run's result out of the store's update, which then writes nothing. */
class DryRunResult {
  constructor(readonly result: EditResult) {}
}

/**
 * Applies `edit` to the catalogue at `path` (created when missing, unless the request conflicts).
 * Every check is made on the file as it is under the lock, so of two writers that read the same
 * revision, only the first to take the lock can win an `ifRevision` or `expected_msgstr` check.
 *
 * @throws {ConflictError} the revision is not `ifRevision` (details: `revision`, the current one),
 *   or an entry does not fit (see `applyWrite`); the file is untouched.
 * @throws {NotFoundError} `mode: "update"` and the file does not exist (nothing is created).
 * @throws {ChecksFailedError} `checks: "strict"` and the write would introduce an error; the file is
 *   untouched.
 * @throws what `applyWrite` and the store's update throw; the file is untouched.
 * @example
 * ```ts
 * const r = await editCatalogue(store, "/srv/po/fr/app.po", {
 *   entries: [{ msgid: "Save", msgstr: "Enregistrer", expected_msgstr: "" }],
 *   mode: "update",
 * });
 * // r.updated === 1, r.revision: the new revision
 * ```
 */
export async function editCatalogue(
  store: CatalogueStore<PoCatalog>,
  path: string,
  edit: CatalogueEdit,
  options: CatalogueCallOptions = {},
): Promise<EditResult> {
  try {
    const outcome = await store.updateWithRevision(path, (doc, current) => {
      if (edit.ifRevision !== undefined && edit.ifRevision !== current.revision) {
        throw new ConflictError(
          `Nothing was written: the file changed since it was read (if_revision ${
            JSON.stringify(edit.ifRevision)
          }, ${current.revision === null ? "but the file does not exist" : `now ${current.revision}`}); ` +
            "read it again and redo the edit on what it holds now",
          { revision: current.revision },
        );
      }
      if (doc === null && edit.mode === "update") {
        throw new NotFoundError(
          `File not found: ${path} (mode "update" changes entries of an existing catalogue)`,
        );
      }
      const requested = edit.entriesFor ? edit.entriesFor(doc, current.revision) : edit.entries;
      const removals = requested.filter((e) => e.delete === true);
      let base = doc;
      let deleted = 0;
      if (removals.length > 0) {
        if (doc === null) throw new NotFoundError(`File not found: ${path} (there is no entry to delete)`);
        ({ catalog: base, deleted } = deleteEntries(doc, removals, current.revision));
      }
      const writes = removals.length === 0 ? requested : requested.filter((e) => e.delete !== true);
      const write = applyWrite(base, writes, {
        mode: edit.mode,
        revision: current.revision,
        draftAuthor: edit.draftAuthor ?? null,
        ...(edit.now ? { now: edit.now } : {}),
      });
      const outcomes: (EntryOutcome | "deleted")[] = [];
      let next = 0;
      for (const e of requested) outcomes.push(e.delete === true ? "deleted" : write.outcomes[next++]!);
      if (edit.stampRevisionDate && write.created + write.updated + write.revived + deleted > 0) {
        write.catalog = updateHeader(write.catalog, { stampRevisionDate: edit.stampRevisionDate }).catalog;
      }
      const similar = (edit.mode ?? "upsert") === "create"
        ? []
        : similarExisting(doc, requested, write.outcomes.map((o) => o === "created"));
      if (edit.refuseSimilar && similar.length > 0) {
        const first = similar[0]!;
        throw new ConflictError(
          `Nothing was written: ${similar.length} of ${requested.length} entries would be created while ` +
            `an existing msgid is a few edits away: entries[${first.index}] (msgid ${
              JSON.stringify(first.msgid)
            }) is close to ${JSON.stringify(first.similar[0]!.msgid)}. Fix the msgid, or send mode ` +
            '"create" if the new entries are meant. See similar_existing for each entry.',
          { revision: current.revision, mode: edit.mode ?? "upsert", similar_existing: similar },
        );
      }
      const problems = checkWrite(doc, write.catalog, path, edit.checks ?? "off", edit.terminology ?? null);
      // Drafts are fuzzy, which the checks pass over as msgfmt does; a draft's problems are still
      // what its author and reviewer need to see (and what "strict" refuses).
      const drafted = requested.filter((e) => e.draft === true && e.delete !== true);
      if (drafted.length > 0 && (edit.checks ?? "off") !== "off") {
        const found = draftProblems(doc, write.catalog, drafted, path);
        if (edit.checks === "strict" && found.some((p) => p.severity === "error")) {
          throw new ChecksFailedError(path, [...problems, ...found]);
        }
        problems.push(...found);
      }
      const kept = keptBytes(current.bytes, doc, write.catalog, edit.layout ?? "keep", readBack(path), {
        generation: layoutGenerationOf(path),
      });
      const result: EditResult = {
        created: write.created,
        updated: write.updated,
        unchanged: write.unchanged,
        revived: write.revived,
        deleted,
        duplicatesDropped: write.duplicatesDropped,
        outcomes,
        revision: current.revision,
        written: false,
        problems,
        similarExisting: similar,
        catalog: write.catalog,
        layout: kept.layout,
      };
      if (edit.dryRun) {
        const decoder = new TextDecoder();
        const before = current.bytes === null ? "" : decoder.decode(flatBytes(current.bytes));
        const bytes = kept.bytes;
        const catalog = kept.catalog ?? PO_CODEC.written!(write.catalog, bytes);
        throw new DryRunResult({
          ...result,
          problems: withLines(problems, catalog),
          catalog,
          diff: unifiedDiff(before, decoder.decode(flatBytes(bytes)), path, { maxWork: DRY_RUN_DIFF_WORK }),
        });
      }
      return kept.catalog === null
        ? { doc: write.catalog, result }
        : { doc: kept.catalog, result, bytes: kept.bytes };
    }, options);
    return {
      ...outcome.result,
      problems: withLines(outcome.result.problems, outcome.doc),
      catalog: outcome.doc,
      revision: outcome.revision,
      written: outcome.written,
    };
  } catch (error) {
    if (error instanceof DryRunResult) return error.result;
    throw error;
  }
}
