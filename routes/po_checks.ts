/**
 * `POST /po/check` / MCP `check_po`: quality checks of one entry, a file or a tree, with totals.
 * Never writes. Request schema first, then the tool: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { CHECK_NAMES, CHECKS, DEFAULT_CHECKS, runCheckRequest } from "../lib/po/mod.ts";
import { catalogueStoreIo } from "../lib/store/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep } from "./tool.ts";
import { pyInt } from "./validation.ts";

/** Most problems one answer lists (the totals count every one). */
export const MAX_PROBLEMS = 10_000;
/** Most catalogues one tree check reads. */
export const MAX_TREE_FILES = 5_000;
/** Time a tree check may take before it stops starting files. */
const MAX_TREE_MS = 20_000;

const CheckName = z.enum(CHECK_NAMES as [string, ...string[]]).meta({
  description: CHECKS.map((c) =>
    `${c.name} (${c.severity}${c.defaultOn ? "" : ", off by default"}): ${c.description}`
  )
    .join(" | "),
});

const CheckEntryInput = z.strictObject({
  msgid: z.string(),
  msgstr: z.string().optional().meta({ description: 'The translation ("" or absent for a plural entry).' }),
  msgctxt: z.string().nullable().optional(),
  msgid_plural: z.string().nullable().optional(),
  msgstr_plural: z.record(z.string(), z.string()).optional().meta({
    description: 'Plural forms by index: {"0": "…", "1": "…"}.',
  }),
  flags: z.array(z.string()).optional().meta({
    description: 'Flags such as "python-format" or "c-format": they decide the placeholder checks.',
  }),
  occurrences: z.array(z.string()).optional().meta({
    description: 'References ("library/os.rst:12"): an entry from a .rst file gets the reST checks.',
  }),
}).meta({ id: "CheckEntry" });

export const CheckPoRequest = z.strictObject({
  entry: CheckEntryInput.optional().meta({
    description: "One entry to check (with file_path, against that catalogue's header: nplurals).",
  }),
  file_path: z.string().optional().meta({
    description:
      "Absolute path of a .po file inside the catalogue roots: checked whole (or gives entry's header).",
  }),
  directory: z.string().optional().meta({
    description:
      "Absolute path of a directory inside the catalogue roots: every *.po file under it is checked " +
      "(names starting with . and symbolic links skipped).",
  }),
  checks: z.array(CheckName).max(CHECK_NAMES.length * 2).optional().meta({
    description:
      `The checks to run (default: ${DEFAULT_CHECKS.join(", ")}). Named reST checks run on every ` +
      "entry; by default they run only on entries from .rst files.",
  }),
  include_fuzzy: z.boolean().default(false).meta({
    description: "Check fuzzy entries too (msgfmt leaves them out, and so do the checks by default).",
  }),
  max_problems: pyInt({ ge: 1, le: MAX_PROBLEMS }).default(1000).meta({
    description: `Problems to list, 1–${MAX_PROBLEMS} (default 1000); the totals count them all.`,
  }),
  max_files: pyInt({ ge: 1, le: MAX_TREE_FILES }).default(1000).meta({
    description: `Catalogues a directory check reads at most, 1–${MAX_TREE_FILES} (default 1000).`,
  }),
}).meta({ id: "CheckPORequest" });

const Problem = z.object({
  path: z.string().nullable(),
  line: z.int().nullable().meta({
    description: "Line of the entry's msgctxt or msgid keyword (null if unknown).",
  }),
  msgctxt: z.string().nullable(),
  msgid: z.string().meta({ description: '"" for a problem of the header or of the whole file.' }),
  check: z.string(),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
}).meta({ id: "CheckProblem" });

const CheckPoResponse = z.object({
  problems: z.array(Problem),
  totals: z.object({
    files: z.int(),
    files_with_problems: z.int(),
    problems: z.int(),
    errors: z.int(),
    warnings: z.int(),
    by_check: z.record(z.string(), z.int()),
  }),
  truncated: z.boolean().meta({ description: "True when more problems were found than listed." }),
  complete: z.boolean().meta({ description: "False when a tree check stopped early (files or time limit)." }),
  stopped_because: z.string().nullable(),
}).meta({ id: "CheckPOResponse" });

/** What the check tool uses: the catalogue store. */
interface CheckToolDeps {
  catalogues: NonNullable<AppDeps["catalogues"]>;
}

/** The check tool: it needs the catalogue store (`deps.catalogues`). */
export const poCheckTools = defineToolGroup<CheckToolDeps>({
  name: "the PO check tool",
  deps: (app) => ({ catalogues: requireDep(app.catalogues, "catalogues", "the PO check tool") }),
  tools: [
    defineTool({
      name: "check_po",
      path: "/po/check",
      summary: "Check translations for broken placeholders, markup, URLs and plural forms",
      description: "Lints one entry, a PO file or every *.po file under a directory, and lists problems as " +
        "{path, line, msgctxt, msgid, check, severity, message} with totals by check. Checks: placeholders " +
        "by the entry's flags as msgfmt --check-format (python-format, python-brace-format, c-format), " +
        "reST/Sphinx roles, literals and links as sphinx-lint (on entries from .rst files), URLs, HTML tags, " +
        "white space, escapes, newlines, plural forms and the header. Writes nothing.",
      input: CheckPoRequest,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: CheckPoResponse,
      handle: async (body, { catalogues }, call) => {
        const r = await runCheckRequest(
          {
            entry: body.entry,
            filePath: body.file_path,
            directory: body.directory,
            checks: body.checks,
            includeFuzzy: body.include_fuzzy,
            maxProblems: body.max_problems,
            maxFiles: body.max_files,
            maxMs: MAX_TREE_MS,
          },
          catalogueStoreIo(catalogues, call.signal),
          call.signal,
        );
        return {
          problems: r.problems,
          totals: {
            files: r.totals.files,
            files_with_problems: r.totals.filesWithProblems,
            problems: r.totals.problems,
            errors: r.totals.errors,
            warnings: r.totals.warnings,
            by_check: r.totals.byCheck,
          },
          truncated: r.truncated,
          complete: r.complete,
          stopped_because: r.stoppedBecause,
        };
      },
    }),
  ],
});
