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
import { cataloguePath, FilePath, optionalCataloguePath } from "./_catalogue_path.ts";
import { auditedWrite } from "./audit.ts";

export const PurgeObsoleteRequest = z.strictObject({
  file_path: FilePath,
  which: z.enum(["all", "before", "fuzzy"]).default("all").meta({
    description: "all: every #~ entry; before: those already #~ in before_path; fuzzy: the fuzzy #~ ones.",
  }),
  before_path: z.string().optional().meta({
    description: 'For which "before": the catalogue before the merge.',
  }),
  if_revision: z.string().optional().meta({
    description: "Only if the file is still at this revision (else 409).",
  }),
  dry_run: z.boolean().default(false).meta({
    description: "Write nothing; answer the counts and the diff.",
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
      role: "admin",
      path: "/po/purge",
      summary: "Remove obsolete (#~) entries from a PO file",
      description:
        "Removes obsolete #~ entries in one atomic write and lists them; dry_run first. Live entries: write_po with delete: true.",
      input: PurgeObsoleteRequest,
      // Removes translations from the file; a second run finds nothing more to remove.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue, dry_run: true }),
      errors: [403, 404, 409],
      output: PurgeObsoleteResponse,
      handle: async (input, { catalogues }, call) => {
        const { which, if_revision, dry_run } = input;
        const file_path = cataloguePath(catalogues, input.file_path);
        const before_path = optionalCataloguePath(catalogues, input.before_path);
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
        }, auditedWrite(call, "purge_obsolete", [], () => `which ${which}`));
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
