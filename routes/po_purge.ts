/**
 * `POST /po/purge` / MCP `purge_obsolete`: the obsolete (`#~`) clean-up teams do by hand, with a
 * dry run's diff, a compare-and-swap on the revision and counts. Request schema first, then the
 * tool: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { InvalidInputError } from "../lib/errors.ts";
import { MAX_LISTED_PURGED, purgeCatalogue, type PurgeSelection } from "../lib/po/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep } from "./tool.ts";

export const PurgeObsoleteRequest = z.strictObject({
  file_path: z.string().meta({
    description: "Absolute path of a .po file inside one of the configured catalogue roots (PO_ROOTS).",
  }),
  which: z.enum(["all", "before", "fuzzy"]).default("all").meta({
    description: "all (default): every obsolete entry. before: those already obsolete in before_path, the " +
      "catalogue as it was before the last merge (a copy, or the file in another checkout), so the " +
      "entries that merge obsoleted stay for a reviewer. fuzzy: the obsolete entries flagged fuzzy " +
      "(translations nobody reviewed; msgmerge keeps #~| previous msgids only on those).",
  }),
  before_path: z.string().optional().meta({
    description: 'With which "before": the catalogue before the last merge (.po/.pot, inside the roots).',
  }),
  if_revision: z.string().optional().meta({
    description:
      "Compare-and-swap: purge only if the file's revision (from a read) is still this one, else " +
      "409 with the current revision.",
  }),
  dry_run: z.boolean().default(false).meta({
    description: "true: write nothing; answer the counts and the unified diff the purge would make.",
  }),
}).meta({ id: "PurgeObsoleteRequest" });

const PurgeObsoleteResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  purged: z.int().meta({ description: "Obsolete entries removed (for a dry run: that would be)." }),
  kept: z.int().meta({ description: "Obsolete entries left in the file." }),
  entries: z.array(z.object({
    msgid: z.string(),
    msgctxt: z.string().nullable(),
    msgstr: z.string().meta({ description: "Its translation (the first form of a plural entry)." }),
    line: z.int().nullable().meta({ description: "Its line in the file before the purge." }),
  })).meta({ description: `The purged entries, in file order (the first ${MAX_LISTED_PURGED}).` }),
  revision: z.string().nullable().meta({
    description: "The file's revision after the purge (for a dry run, the one the diff starts from).",
  }),
  written: z.boolean(),
  diff: z.string().optional().meta({ description: "Dry run only: the unified diff of the purge." }),
}).meta({ id: "PurgeObsoleteResponse" });

/** The purge tool: it needs the catalogue store (`deps.catalogues`). */
export const poPurgeTools = defineToolGroup<{ catalogues: NonNullable<AppDeps["catalogues"]> }>({
  name: "the PO purge tool",
  deps: (app) => ({ catalogues: requireDep(app.catalogues, "catalogues", "the PO purge tool") }),
  tools: [
    defineTool({
      name: "purge_obsolete",
      path: "/po/purge",
      summary: "Remove obsolete (#~) entries from a PO file",
      description: "Removes obsolete #~ entries (all, those already obsolete before the last merge, or the " +
        "fuzzy ones) in one atomic write and lists them with their lines. Run it with dry_run: true first to " +
        "see the diff. To remove live entries (a stray entry a typo created), use write_po with delete: true.",
      input: PurgeObsoleteRequest,
      // Removes translations from the file; a second run finds nothing more to remove.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue, dry_run: true }),
      errors: [403, 404, 409],
      output: PurgeObsoleteResponse,
      handle: async (input, { catalogues }, call) => {
        const { file_path, which, before_path, if_revision, dry_run } = input;
        let selection: PurgeSelection;
        if (which === "before") {
          if (before_path === undefined) {
            throw new InvalidInputError('Invalid request: which "before" needs before_path');
          }
          selection = { which, before: (await catalogues.read(before_path, { signal: call.signal })).doc };
        } else selection = { which };
        const r = await purgeCatalogue(catalogues, file_path, {
          selection,
          ifRevision: if_revision,
          dryRun: dry_run,
        }, { signal: call.signal });
        const what = `${r.purged} obsolete entr${r.purged === 1 ? "y" : "ies"}`;
        return {
          success: true,
          message: dry_run
            ? `Dry run: would remove ${what} from ${file_path} (${r.kept} would stay); nothing was written`
            : r.written
            ? `Removed ${what} from ${file_path} (${r.kept} obsolete left)`
            : `Nothing to remove from ${file_path}: ${r.kept} obsolete entries, none selected`,
          ...r,
        };
      },
    }),
  ],
});
