/**
 * `POST /po/check` / MCP `check_po`: quality checks of one entry, a file or a tree, with totals.
 * Never writes. Request schema first, then the tool: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { CHECK_NAMES, CHECKS, DEFAULT_CHECKS, REST_CHECK_NAMES, runCheckRequest } from "../lib/po/mod.ts";
import { GLOSSARY_FILE, TERMS_FILE } from "../lib/terms/mod.ts";
import { catalogueStoreIo } from "../lib/store/mod.ts";
import { cataloguePath } from "./_catalogue_path.ts";
import { terminologyFor } from "./_terminology.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep } from "./tool.ts";
import { pyInt } from "./validation.ts";

/** Most problems one answer lists (the totals count every one). */
export const MAX_PROBLEMS = 10_000;
/** Most catalogues one tree check reads. */
export const MAX_TREE_FILES = 5_000;
/** Time a tree check may take before it stops starting files. */
const MAX_TREE_MS = 20_000;

// What each check does is the answer of list_checks (and docs/checks.md), not repeated in every
// tools/list: it was 2.8 of its 67 KB.
const CheckName = z.enum(CHECK_NAMES as [string, ...string[]]);

const CheckEntryInput = z.strictObject({
  msgid: z.string(),
  msgstr: z.string().optional().meta({ description: 'The translation ("" or absent for a plural entry).' }),
  msgctxt: z.string().nullable().optional(),
  msgid_plural: z.string().nullable().optional(),
  msgstr_plural: z.record(z.string(), z.string()).optional().meta({
    description: 'Plural forms by index: {"0": "…", "1": "…"}.',
  }),
  flags: z.array(z.string()).optional().meta({
    description: 'Flags ("python-format"); with file_path: the file\'s.',
  }),
  occurrences: z.array(z.string()).optional().meta({
    description: 'References ("library/os.rst:12"); with file_path: the file\'s.',
  }),
}).meta({ id: "CheckEntry" });

export const CheckPoRequest = z.strictObject({
  entry: CheckEntryInput.optional().meta({
    description: "One entry; with file_path, checked with that catalogue's header, references, flags.",
  }),
  file_path: z.string().optional().meta({
    description: "A catalogue: checked whole, or the entry's.",
  }),
  directory: z.string().optional().meta({
    description: "A directory: every *.po under it.",
  }),
  checks: z.array(CheckName).max(CHECK_NAMES.length * 2).optional().meta({
    description: "Checks to run (names and defaults: list_checks).",
  }),
  include_fuzzy: z.boolean().default(false).meta({
    description: "Check fuzzy entries too (msgfmt leaves them out).",
  }),
  max_problems: pyInt({ ge: 1, le: MAX_PROBLEMS }).default(1000).meta({
    description: `Problems to list (1–${MAX_PROBLEMS}); the totals count them all.`,
  }),
  max_files: pyInt({ ge: 1, le: MAX_TREE_FILES }).default(1000).meta({
    description: `Catalogues a directory check reads at most (1–${MAX_TREE_FILES}).`,
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
  not_run: z.array(z.object({ check: z.string(), reason: z.string() })).meta({
    description: "The checks that did not run, and why (off by default, nothing they apply to, an entry " +
      "without .rst reference or format flag, a catalogue check on a lone entry).",
  }),
  from_file: z.object({
    occurrences: z.array(z.string()).optional(),
    flags: z.array(z.string()).optional(),
  }).nullable().optional().meta({
    description: "entry with file_path: the fields the request left out, taken from the file's entry " +
      "(null: the file has no such entry).",
  }),
  notes: z.array(z.string()).meta({ description: "What the answer should make plain." }),
}).meta({ id: "CheckPOResponse" });

const ListChecksResponse = z.object({
  success: z.boolean(),
  checks: z.array(z.object({
    name: z.string(),
    severity: z.enum(["error", "warning"]),
    default_on: z.boolean().meta({ description: "Runs when check_po names no checks." }),
    scope: z.enum(["entry", "catalogue"]),
    rest: z.boolean().meta({ description: "A reST check: by default only on entries from .rst files." }),
    description: z.string(),
  })),
}).meta({ id: "ListChecksResponse" });

/** The terminology checks that had no terminology to consult, and why. */
function termsNotRun(
  named: readonly string[] | undefined,
  terminology: {
    sources: readonly string[];
    terms: readonly unknown[];
    forbiddenAnywhere: readonly unknown[];
  } | null,
): { check: string; reason: string }[] {
  const selected = new Set(named ?? DEFAULT_CHECKS);
  const out: { check: string; reason: string }[] = [];
  for (const check of ["glossary", "forbidden"]) {
    if (!selected.has(check)) continue;
    if (terminology === null) {
      out.push({ check, reason: "an entry alone has no root: send file_path for its root's terminology" });
    } else if (terminology.sources.length === 0) {
      out.push({
        check,
        reason:
          `the root has no ${GLOSSARY_FILE} or ${TERMS_FILE}: nothing to check against (docs/terminology.md)`,
      });
    }
  }
  return out;
}

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
      role: "reader",
      path: "/po/check",
      summary: "Check translations (placeholders, markup, plurals)",
      description: "Checks an entry, a catalogue or a directory (placeholders as msgfmt -c, reST, URLs, " +
        "plurals: list_checks); not_run says what did not run. Before write_po: entry + file_path.",
      input: CheckPoRequest,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: CheckPoResponse,
      handle: async (body, { catalogues }, call) => {
        const filePath = body.file_path === undefined ? undefined : cataloguePath(catalogues, body.file_path);
        const directory = body.directory === undefined
          ? undefined
          : cataloguePath(catalogues, body.directory, "directory");
        // The terminology of the root the file or directory is in (an entry alone has none).
        const target = filePath ?? directory;
        const terms = target === undefined ? null : await terminologyFor(catalogues, target, call.signal);
        const r = await runCheckRequest(
          {
            entry: body.entry,
            filePath,
            directory,
            terminology: terms?.rules ?? null,
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
          not_run: [...r.notRun, ...termsNotRun(body.checks, terms?.terminology ?? null)],
          ...(r.fromFile !== undefined ? { from_file: r.fromFile } : {}),
          notes: [...r.notes, ...(terms?.terminology.warnings ?? []).map((w) => `Terminology: ${w}`)],
        };
      },
    }),
    defineTool({
      name: "list_checks",
      role: "reader",
      path: "/po/checks",
      summary: "List the checks",
      description: "Every check: name, severity, default, what it finds. To choose check_po's checks.",
      input: null,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      output: ListChecksResponse,
      handle: () => ({
        success: true,
        checks: CHECKS.map((c) => ({
          name: c.name,
          severity: c.severity,
          default_on: c.defaultOn,
          scope: c.catalogue ? "catalogue" : "entry",
          rest: REST_CHECK_NAMES.has(c.name),
          description: c.description,
        })),
      }),
    }),
  ],
});
