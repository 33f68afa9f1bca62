/**
 * Catalogue maintenance tools: the header as fields (read, update), merge from a template
 * (msgmerge), compile to MO (msgfmt). Request schemas first, then the tools: validate, call
 * `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { InvalidInputError, NotFoundError, UnwritableCatalogError } from "../lib/errors.ts";
import {
  compileMo,
  editHeader,
  expectedPluralForms,
  type FuzzyLimits,
  MAX_HEADER_UPDATES,
  MAX_HEADER_VALUE_CHARS,
  mergeCatalogs,
  type MergeOutcome,
  type MergeStats,
  placeholderCharsetWarning,
  pluralFormsMismatch,
  readForCompile,
  readHeader,
} from "../lib/po/mod.ts";
import { cataloguePath, FilePath } from "./_catalogue_path.ts";
import { laidOutHow, LayoutAnswer, LayoutRequestField } from "./po.ts";
import { auditedWrite } from "./audit.ts";
import { pyInt } from "./validation.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep, type ToolAnnotations } from "./tool.ts";

export const ReadHeaderRequest = z.strictObject({ file_path: FilePath }).meta({ id: "ReadHeaderRequest" });

const HeaderFieldSchema = z.object({
  name: z.string().meta({ description: 'Field name as written ("" for a line without a colon).' }),
  value: z.string(),
}).meta({ id: "HeaderField" });

const ReadHeaderResponse = z.object({
  present: z.boolean().meta({ description: "False when the catalogue has no header entry." }),
  fields: z.array(HeaderFieldSchema).meta({ description: "Every header line, in file order." }),
  header: z.record(z.string(), z.string()).meta({
    description: "The same fields as an object (the first line of each name wins).",
  }),
  fuzzy: z.boolean().meta({ description: "True when the header entry is flagged fuzzy." }),
  nplurals: z.int().nullable().meta({ description: "nplurals of a valid Plural-Forms, else null." }),
  plural_forms_problem: z.string().nullable().meta({
    description: "Why Plural-Forms is invalid (msgfmt's rules), or null when it is valid or absent.",
  }),
  expected_plural_forms: z.object({
    language: z.string().meta({ description: 'The language it was found for ("zh" for zh_CN).' }),
    rule: z.string().meta({ description: 'e.g. "nplurals=1; plural=0;"' }),
    nplurals: z.int(),
    source: z.enum(["gettext", "cldr"]).meta({
      description: "gettext's table of languages (plural-table.c), or CLDR through gettext's cldr-plurals.",
    }),
  }).nullable().meta({
    description: "The Plural-Forms msginit gives the header's Language, or null (no Language, or unknown).",
  }),
  plural_forms_matches_language: z.boolean().nullable().meta({
    description: "Whether the valid Plural-Forms says what the expected rule says (null: either is missing).",
  }),
}).meta({ id: "ReadHeaderResponse" });

export const UpdateHeaderRequest = z.strictObject({
  file_path: FilePath,
  set: z.record(z.string(), z.string().max(MAX_HEADER_VALUE_CHARS).nullable()).default({}).meta({
    description: "Field → new value (one line), or null to remove it.",
  }),
  stamp_revision_date: z.boolean().default(false).meta({
    description: "Set PO-Revision-Date to the current time (UTC).",
  }),
  dry_run: z.boolean().default(false).meta({
    description: "Write nothing; answer the fields and the diff.",
  }),
  if_revision: z.string().optional().meta({
    description: "Update only if the file's revision is still this one (else 409).",
  }),
  plural_forms: z.literal("from_language").optional().meta({
    description: '"from_language": msginit\'s rule for the Language.',
  }),
  layout: LayoutRequestField,
}).refine((r) => Object.keys(r.set).length <= MAX_HEADER_UPDATES, {
  message: `At most ${MAX_HEADER_UPDATES} fields per update`,
  path: ["set"],
}).meta({ id: "UpdateHeaderRequest" });

const UpdateHeaderResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  changed: z.array(z.string()).meta({ description: "Names of the fields set, added or removed." }),
  fields: z.array(HeaderFieldSchema).meta({ description: "The header's fields after the update." }),
  revision: z.string().nullable().meta({
    description: "The file's revision after the update (dry run: the one the diff starts from).",
  }),
  written: z.boolean().meta({ description: "False for a dry run, or when the bytes would not change." }),
  diff: z.string().optional().meta({ description: "Dry run only: the unified diff the update would make." }),
  layout: LayoutAnswer,
}).meta({ id: "UpdateHeaderResponse" });

/** Most entries one merge answer lists per outcome. */
const MAX_OUTCOMES_LIMIT = 1000;

const MergeOutcomeList = z.object({
  count: z.int(),
  entries: z.array(z.object({
    msgctxt: z.string().nullable(),
    msgid: z.string(),
    previous_msgid: z.string().optional(),
    now_fuzzy: z.boolean().optional(),
  })),
  next_offset: z.int().nullable().meta({ description: "outcomes_offset for the next entries, or null." }),
});

export const MergePoRequest = z.strictObject({
  file_path: FilePath.meta({ description: "The catalogue with the translations (.po)." }),
  template_path: z.string().meta({ description: "The template (.pot): it decides which entries exist." }),
  output_path: z.string().nullable().optional().meta({
    description: "Where to write the result (default: file_path, as msgmerge --update).",
  }),
  fuzzy_matching: z.boolean().default(true).meta({
    description: "Give an unmatched entry a similar msgid's translation, fuzzy (msgmerge's default).",
  }),
  previous: z.boolean().default(true).meta({
    description: "Keep a fuzzy entry's old msgid as #| msgid (msgmerge --previous).",
  }),
  dry_run: z.boolean().default(false).meta({ description: "Tell what would change; write nothing." }),
  outcomes_limit: pyInt({ ge: 0, le: MAX_OUTCOMES_LIMIT }).default(50).meta({
    description: `Entries listed per outcome (0–${MAX_OUTCOMES_LIMIT}); the counts are complete.`,
  }),
  outcomes_offset: pyInt({ ge: 0 }).default(0).meta({
    description: "Entries of each outcome to skip (a dry run's next_offset).",
  }),
}).meta({ id: "MergePORequest" });

const MergePoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  output_path: z.string(),
  written: z.boolean().meta({ description: "False when the result equals the file, or with dry_run." }),
  merged: z.int().meta({ description: "Entries found by (msgctxt, msgid), the header included." }),
  fuzzied: z.int().meta({ description: "Entries given a similar msgid's translation, marked fuzzy." }),
  missing: z.int().meta({ description: "Template entries added untranslated." }),
  obsolete: z.int().meta({
    description: "Catalogue entries the template no longer has, kept as #~ (as many as the file has).",
  }),
  dropped: z.int().meta({
    description: "Catalogue entries the template no longer has and that had no translation: left out of " +
      "the file (msgmerge does the same; its --verbose counts them as obsolete).",
  }),
  outcomes: z.object({
    kept: MergeOutcomeList,
    fuzzied: MergeOutcomeList,
    new: MergeOutcomeList,
    obsoleted: MergeOutcomeList,
    dropped: MergeOutcomeList,
  }).meta({
    description: "Per outcome, the entries (a page of outcomes_limit from outcomes_offset): kept (found " +
      "by msgctxt and msgid; now_fuzzy when the merge made it fuzzy), fuzzied (given previous_msgid's " +
      "translation), new (untranslated), obsoleted (#~), dropped (left out).",
  }),
  revision: z.string().nullable().meta({
    description: "The revision of output_path after the merge (dry run: of file_path as read).",
  }),
  warnings: z.array(z.string()).meta({
    description: "msgmerge's warnings about the catalogue (its header still says charset=CHARSET: read as " +
      "ASCII, as msgmerge reads it).",
  }),
  fuzzy_skipped: z.int().meta({
    description: "Entries not searched for a similar msgid because fuzzy matching's time or work bound " +
      "for one request was reached: added untranslated (as with fuzzy_matching false).",
  }),
}).meta({ id: "MergePOResponse" });

export const CompileMoRequest = z.strictObject({
  file_path: FilePath,
  output_path: z.string().nullable().optional().meta({
    description: "Where to write the .mo (default: NAME.mo beside the catalogue).",
  }),
  use_fuzzy: z.boolean().default(false).meta({
    description: "Include fuzzy entries (msgfmt --use-fuzzy).",
  }),
}).meta({ id: "CompileMORequest" });

const CompileMoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  output_path: z.string(),
  written: z.boolean().meta({
    description: "False when the file already held these bytes, or when there was nothing to compile " +
      "(no header and nothing translated: msgfmt writes no file then, and neither do we).",
  }),
  bytes: z.int(),
  messages: z.int().meta({ description: "Messages in the MO file, the header included." }),
  fuzzy_skipped: z.int(),
  untranslated_skipped: z.int(),
  warnings: z.array(z.string()).meta({
    description:
      "msgfmt's warnings about the catalogue (a header without a charset: compiled as its bytes are).",
  }),
}).meta({ id: "CompileMOResponse" });

/**
 * Fuzzy matching's bound for one request: the merge runs on the server's thread, so its search
 * stops after 2 s (or a work bound) and the remaining entries are added untranslated.
 */
const REQUEST_FUZZY_LIMITS: Partial<FuzzyLimits> = { maxMs: 2_000, maxComparisons: 500_000, maxWork: 1e9 };

/** Each outcome's count, and a page of its entries (whole msgids: a client finds the entry by them). */
function outcomeLists(outcomes: readonly MergeOutcome[], limit: number, offset: number) {
  const kinds = ["kept", "fuzzied", "new", "obsoleted", "dropped"] as const;
  const lists = Object.fromEntries(kinds.map((k) => [k, {
    count: 0,
    entries: [] as { msgctxt: string | null; msgid: string; previous_msgid?: string; now_fuzzy?: boolean }[],
    next_offset: null as number | null,
  }])) as Record<(typeof kinds)[number], {
    count: number;
    entries: { msgctxt: string | null; msgid: string; previous_msgid?: string; now_fuzzy?: boolean }[];
    next_offset: number | null;
  }>;
  for (const o of outcomes) {
    const list = lists[o.outcome];
    const at = list.count++;
    if (at < offset) continue;
    if (list.entries.length >= limit) {
      list.next_offset ??= at;
      continue;
    }
    list.entries.push({
      msgctxt: o.msgctxt,
      msgid: o.msgid,
      ...(o.previousMsgid !== undefined ? { previous_msgid: o.previousMsgid } : {}),
      ...(o.nowFuzzy ? { now_fuzzy: true } : {}),
    });
  }
  return lists;
}

/** `/srv/po/fr.po` → `/srv/po/fr.mo`. */
function moBeside(path: string): string {
  return path.replace(/\.pot?$/, "") + ".mo";
}

/**
 * `{"Plural-Forms": rule}` for the Language `set` gives (any case), else the catalogue's.
 *
 * @throws {InvalidInputError} no Language, or one whose rule is not known.
 */
function pluralFormsFor(cat: Parameters<typeof readHeader>[0], set: Record<string, string | null>) {
  const named = Object.entries(set).findLast(([name]) => name.toLowerCase() === "language");
  const language = named !== undefined
    ? named[1]
    : readHeader(cat).fields.findLast((f) => f.name.toLowerCase() === "language")?.value.trim() ?? null;
  if (language === null || language === "") {
    throw new InvalidInputError(
      'Invalid request: plural_forms "from_language" needs a Language (in set or the header)',
    );
  }
  const expected = expectedPluralForms(language);
  if (expected === null) {
    throw new InvalidInputError(
      `Invalid request: no known Plural-Forms for Language ${JSON.stringify(language)} (neither gettext's ` +
        'table nor CLDR as listed here): give it in set, e.g. {"Plural-Forms": "nplurals=2; plural=(n != 1);"}',
    );
  }
  const name = Object.keys(set).find((n) => n.toLowerCase() === "plural-forms") ?? "Plural-Forms";
  return { [name]: expected.rule };
}

/** What the maintenance tools use: the catalogue store. */
interface HeaderToolDeps {
  catalogues: NonNullable<AppDeps["catalogues"]>;
}

/** Reading changes nothing. */
const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The header, merge and compile tools: they need the catalogue store (`deps.catalogues`). */
export const poMaintainTools = defineToolGroup<HeaderToolDeps>({
  name: "the PO maintenance tools",
  deps: (app) => ({ catalogues: requireDep(app.catalogues, "catalogues", "the PO maintenance tools") }),
  tools: [
    defineTool({
      name: "read_header",
      role: "reader",
      path: "/po/header",
      summary: "Read the header of a PO file as fields",
      description: "The header's fields in order and as an object, and whether Plural-Forms is valid and " +
        "the Language's. To change them: update_header.",
      input: ReadHeaderRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: ReadHeaderResponse,
      handle: async ({ file_path }, { catalogues }, call) => {
        const path = cataloguePath(catalogues, file_path);
        const info = readHeader((await catalogues.read(path, { signal: call.signal })).doc);
        const header: Record<string, string> = {};
        for (const f of info.fields) {
          if (f.name !== "" && !Object.hasOwn(header, f.name)) header[f.name] = f.value;
        }
        const language = info.fields.findLast((f) => f.name.toLowerCase() === "language")?.value.trim() ??
          null;
        const pluralForms = info.fields.findLast((f) => f.name.toLowerCase() === "plural-forms")?.value ??
          null;
        const expected = language === null || language === "" ? null : expectedPluralForms(language);
        return {
          present: info.present,
          fields: info.fields,
          header,
          fuzzy: info.fuzzy,
          nplurals: info.nplurals,
          plural_forms_problem: info.pluralFormsProblem,
          expected_plural_forms: expected,
          plural_forms_matches_language: expected === null || info.nplurals === null
            ? null
            : pluralFormsMismatch(language, pluralForms) === null,
        };
      },
    }),
    defineTool({
      name: "update_header",
      role: "reviewer",
      path: "/po/header/update",
      summary: "Set or remove header fields of a PO file",
      description: "Sets or removes header fields; the rest is kept. Entries: write_po.",
      input: UpdateHeaderRequest,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      // An empty update: sent as it is, it changes nothing.
      example: ({ catalogue }) => ({ file_path: catalogue, set: {} }),
      errors: [403, 404, 409],
      output: UpdateHeaderResponse,
      handle: async (input, { catalogues }, call) => {
        const { set, stamp_revision_date, dry_run, if_revision, plural_forms, layout } = input;
        const file_path = cataloguePath(catalogues, input.file_path);
        const r = await editHeader(
          catalogues,
          file_path,
          {
            set,
            // The rule for the Language being set, or the header's: known only once the file is read.
            ...(plural_forms === "from_language"
              ? { setFor: (cat) => ({ ...set, ...pluralFormsFor(cat, set) }) }
              : {}),
            ...(stamp_revision_date ? { stampRevisionDate: new Date() } : {}),
            ...(if_revision !== undefined ? { ifRevision: if_revision } : {}),
            dryRun: dry_run,
            layout,
          },
          auditedWrite(
            call,
            "update_header",
            [{ msgctxt: null, msgid: "" }],
            () => `set ${Object.keys(set).join(", ")}`,
          ),
        );
        const fields = r.changed.join(", ");
        return {
          success: true,
          message: dry_run
            ? `Dry run: nothing was written to ${file_path}` +
              (r.changed.length > 0 ? ` (it would update ${fields})` : "")
            : r.changed.length === 0
            ? `No header field of ${file_path} changed`
            : `Updated ${fields} in ${file_path}` +
              (r.written ? `, ${laidOutHow(r.layout)}` : " (its bytes were already these)"),
          changed: r.changed,
          fields: readHeader(r.catalog).fields,
          revision: r.revision,
          written: r.written,
          ...(r.diff !== undefined ? { diff: r.diff } : {}),
          layout: r.layout,
        };
      },
    }),
    defineTool({
      name: "merge_po",
      role: "reviewer",
      path: "/po/merge",
      summary: "Merge a catalogue with a template, as msgmerge does",
      description: "Updates a catalogue from its template as msgmerge 0.21 does and lists each outcome's " +
        "entries. Single entries: write_po.",
      input: MergePoRequest,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      // The catalogue merged with itself as template, counted only.
      example: ({ catalogue }) => ({ file_path: catalogue, template_path: catalogue, dry_run: true }),
      errors: [403, 404],
      output: MergePoResponse,
      handle: async (input, { catalogues }, call) => {
        const { fuzzy_matching, previous, dry_run, outcomes_limit, outcomes_offset } = input;
        const file_path = cataloguePath(catalogues, input.file_path);
        const template_path = cataloguePath(catalogues, input.template_path);
        const output_path = input.output_path == null ? null : cataloguePath(catalogues, input.output_path);
        const signal = call.signal;
        const template = (await catalogues.read(template_path, { signal })).doc;
        const options = {
          fuzzyMatching: fuzzy_matching,
          previous,
          fuzzyLimits: REQUEST_FUZZY_LIMITS,
          forcePo: true,
        };
        const target = output_path ?? file_path;
        let merged: { stats: MergeStats; outcomes: MergeOutcome[] };
        let placeholder = false;
        let written = false;
        let revision: string | null;
        if (dry_run) {
          const read = await catalogues.read(file_path, { signal });
          merged = mergeCatalogs(read.doc, template, options);
          placeholder = read.doc.placeholderCharset !== undefined;
          revision = read.revision;
        } else {
          const def = target === file_path ? null : (await catalogues.read(file_path, { signal })).doc;
          let stats: MergeStats | undefined;
          const r = await catalogues.updateWithRevision(
            target,
            (cat) => {
              const base = def ?? cat;
              if (base === null) throw new NotFoundError(`File not found: ${file_path}`);
              const result = mergeCatalogs(base, template, options);
              placeholder = base.placeholderCharset !== undefined;
              stats = result.stats;
              return { doc: result.catalog, result: { stats: result.stats, outcomes: result.outcomes } };
            },
            auditedWrite(
              call,
              "merge_po",
              [],
              () =>
                stats === undefined
                  ? null
                  : `template ${template_path}${
                    target === file_path ? "" : ` (from ${file_path})`
                  }: ${stats.merged} kept, ` +
                    `${stats.fuzzied} fuzzy, ${stats.missing} new`,
            ),
          );
          merged = r.result;
          written = r.written;
          revision = r.revision;
        }
        const { stats } = merged;
        const lists = outcomeLists(merged.outcomes, outcomes_limit, outcomes_offset);
        const dropped = lists.dropped.count;
        const obsolete = lists.obsoleted.count;
        const skipped = stats.fuzzySkipped > 0
          ? `; fuzzy matching stopped at its bound, ${stats.fuzzySkipped} entries were added untranslated ` +
            "(merge those with msgmerge, or merge with fuzzy_matching false)"
          : "";
        const droppedText = dropped > 0
          ? `, ${dropped} dropped (obsolete without translation: left out)`
          : "";
        const more = Object.values(lists).some((l) => l.next_offset !== null)
          ? "; more entries than listed: see next_offset (a dry run with outcomes_offset lists them)"
          : "";
        return {
          success: true,
          message:
            `${
              dry_run ? "Would merge" : written ? "Merged" : "Merged (no byte changed)"
            } ${template_path} into ` +
            `${target}: ${stats.merged} kept, ${stats.fuzzied} fuzzy, ${stats.missing} new, ${obsolete} obsolete` +
            `${droppedText}${skipped}${more}`,
          output_path: target,
          written,
          merged: stats.merged,
          fuzzied: stats.fuzzied,
          missing: stats.missing,
          obsolete,
          dropped,
          fuzzy_skipped: stats.fuzzySkipped,
          outcomes: lists,
          revision,
          warnings: placeholder ? [placeholderCharsetWarning(file_path).replace(/\n +/, " ")] : [],
        };
      },
    }),
    defineTool({
      name: "compile_mo",
      role: "reviewer",
      path: "/po/compile",
      summary: "Compile a catalogue to MO, as msgfmt does",
      description: "Writes the MO file msgfmt 0.21 would write, beside the catalogue or to output_path. " +
        "Check first: check_po.",
      input: CompileMoRequest,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: CompileMoResponse,
      handle: async (input, { catalogues }, call) => {
        const { use_fuzzy } = input;
        const file_path = cataloguePath(catalogues, input.file_path);
        const target = input.output_path == null
          ? moBeside(file_path)
          : cataloguePath(catalogues, input.output_path);
        // Read as msgfmt reads it: a catalogue without a charset is compiled as its bytes are.
        const { bytes } = await catalogues.readBytes(file_path, { signal: call.signal });
        const read = readForCompile(bytes, file_path);
        const r = compileMo(read.catalog, {
          useFuzzy: use_fuzzy,
          missingCharset: read.missingCharset,
          msgstrLines: read.msgstrLines,
        });
        if (r.errors.length > 0) {
          // msgfmt exits 1 (and still writes the file): refused here, nothing written.
          const shown = r.errors.slice(0, 10).map((e) => `line ${e.line}: ${e.message}`).join("; ");
          throw new UnwritableCatalogError(
            `Cannot compile ${file_path}: msgfmt finds ${r.fatalErrors} fatal error${
              r.fatalErrors === 1 ? "" : "s"
            } and exits 1: ${shown}${r.errors.length > 10 ? "; …" : ""}`,
          );
        }
        const written = r.bytes === null ? false : (await catalogues.writeFile(
          target,
          r.bytes,
          [".mo"],
          auditedWrite(call, "compile_mo", [], () => `from ${file_path}: ${r.messages} messages`),
        )).written;
        return {
          success: true,
          message: r.bytes === null
            ? `Nothing to compile in ${file_path} (no header, nothing translated): no MO file written, as msgfmt writes none`
            : `Compiled ${file_path} to ${target}: ${r.messages} messages`,
          output_path: target,
          written,
          bytes: r.bytes?.length ?? 0,
          messages: r.messages,
          fuzzy_skipped: r.fuzzySkipped,
          untranslated_skipped: r.untranslatedSkipped,
          warnings: read.warnings,
        };
      },
    }),
  ],
});
