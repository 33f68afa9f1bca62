/**
 * Catalogue maintenance tools: the header as fields (read, update), merge from a template
 * (msgmerge), compile to MO (msgfmt). Request schemas first, then the tools: validate, call
 * `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { NotFoundError } from "../lib/errors.ts";
import { compileMo } from "../lib/po/compile.ts";
import { MAX_HEADER_UPDATES, MAX_HEADER_VALUE_CHARS, readHeader, updateHeader } from "../lib/po/header.ts";
import { type FuzzyLimits, mergeCatalogs } from "../lib/po/merge.ts";
import { expectedPluralForms, pluralFormsMismatch } from "../lib/po/plural_rules.ts";
import { InvalidInputError } from "../lib/errors.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep, type ToolAnnotations } from "./tool.ts";

const FilePath = z.string().meta({
  description: "Absolute path of a .po/.pot file inside one of the configured catalogue roots (PO_ROOTS).",
});

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
    description: "Field name → new value (one line), or null to remove the field. Names match " +
      "case-insensitively; a new field goes where msgmerge puts it (e.g. Language after Language-Team). " +
      "Plural-Forms is checked as msgfmt checks it; a Content-Type that changes the charset is refused.",
  }),
  stamp_revision_date: z.boolean().default(false).meta({
    description: "Set PO-Revision-Date to the current time (UTC). Off by default, as powrap leaves it.",
  }),
  plural_forms: z.literal("from_language").optional().meta({
    description: '"from_language": set Plural-Forms to the rule msginit gives the Language (the one in ' +
      "`set`, else the header's), e.g. nplurals=1; plural=0; for zh_CN; 422 when the language is unknown.",
  }),
}).refine((r) => Object.keys(r.set).length <= MAX_HEADER_UPDATES, {
  message: `At most ${MAX_HEADER_UPDATES} fields per update`,
  path: ["set"],
}).meta({ id: "UpdateHeaderRequest" });

const UpdateHeaderResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  changed: z.array(z.string()).meta({ description: "Names of the fields set, added or removed." }),
  fields: z.array(HeaderFieldSchema).meta({ description: "The header's fields after the update." }),
}).meta({ id: "UpdateHeaderResponse" });

export const MergePoRequest = z.strictObject({
  file_path: FilePath.meta({ description: "The catalogue with the translations (.po), inside the roots." }),
  template_path: z.string().meta({
    description:
      "The template (.pot, or a .po used as one), inside the roots: it decides which entries exist.",
  }),
  output_path: z.string().nullable().optional().meta({
    description: "Where to write the result (a .po inside the roots, its directory must exist); absent or " +
      "null: file_path is updated in place, like msgmerge --update.",
  }),
  fuzzy_matching: z.boolean().default(true).meta({
    description: "Give an entry without exact match the translation of a similar msgid, marked fuzzy " +
      "(msgmerge's default; false is --no-fuzzy-matching).",
  }),
  previous: z.boolean().default(true).meta({
    description: "Keep the msgid a fuzzy entry was translated from as #| msgid (msgmerge --previous), so a " +
      "reviewer sees what changed. Default true here (msgmerge's default is false).",
  }),
  dry_run: z.boolean().default(false).meta({ description: "Count what would change; write nothing." }),
}).meta({ id: "MergePORequest" });

const MergePoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  output_path: z.string(),
  written: z.boolean().meta({ description: "False when the result equals the file, or with dry_run." }),
  merged: z.int().meta({ description: "Entries found by (msgctxt, msgid), the header included." }),
  fuzzied: z.int().meta({ description: "Entries given a similar msgid's translation, marked fuzzy." }),
  missing: z.int().meta({ description: "Template entries added untranslated." }),
  obsolete: z.int().meta({ description: "Catalogue entries the template no longer has, kept as #~." }),
  fuzzy_skipped: z.int().meta({
    description: "Entries not searched for a similar msgid because fuzzy matching's time or work bound " +
      "for one request was reached: added untranslated (as with fuzzy_matching false).",
  }),
}).meta({ id: "MergePOResponse" });

export const CompileMoRequest = z.strictObject({
  file_path: FilePath,
  output_path: z.string().nullable().optional().meta({
    description: "Where to write the MO file (a .mo inside the roots, its directory must exist); absent or " +
      "null: NAME.mo beside the catalogue.",
  }),
  use_fuzzy: z.boolean().default(false).meta({
    description: "Include fuzzy entries (msgfmt --use-fuzzy). By default they are left out, as msgfmt does.",
  }),
}).meta({ id: "CompileMORequest" });

const CompileMoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  output_path: z.string(),
  written: z.boolean().meta({ description: "False when the file already held these bytes." }),
  bytes: z.int(),
  messages: z.int().meta({ description: "Messages in the MO file, the header included." }),
  fuzzy_skipped: z.int(),
  untranslated_skipped: z.int(),
}).meta({ id: "CompileMOResponse" });

/**
 * Fuzzy matching's bound for one request: the merge runs on the server's thread, so its search
 * stops after 2 s (or a work bound) and the remaining entries are added untranslated.
 */
const REQUEST_FUZZY_LIMITS: Partial<FuzzyLimits> = { maxMs: 2_000, maxComparisons: 500_000, maxWork: 1e9 };

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
      path: "/po/header",
      summary: "Read the header of a PO file as fields",
      description:
        "Returns the header entry's fields (Project-Id-Version, Language, Plural-Forms, …) in file " +
        "order and as an object, whether it is fuzzy, and whether its Plural-Forms is valid.",
      input: ReadHeaderRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: ReadHeaderResponse,
      handle: async ({ file_path }, { catalogues }, call) => {
        const info = readHeader((await catalogues.read(file_path, { signal: call.signal })).doc);
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
      path: "/po/header/update",
      summary: "Set or remove header fields of a PO file",
      description:
        "Sets or removes header fields (Language, Plural-Forms, Last-Translator, …) and writes the " +
        "file with msgcat's layout; lines not named are kept as they are. stamp_revision_date sets " +
        "PO-Revision-Date to now. The entries are not touched.",
      input: UpdateHeaderRequest,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      // An empty update: sent as it is, it changes nothing.
      example: ({ catalogue }) => ({ file_path: catalogue, set: {} }),
      errors: [403, 404],
      output: UpdateHeaderResponse,
      handle: async ({ file_path, set, stamp_revision_date, plural_forms }, { catalogues }, call) => {
        const stamp = stamp_revision_date ? new Date() : undefined;
        const r = await catalogues.update(file_path, (cat) => {
          if (cat === null) throw new NotFoundError(`File not found: ${file_path}`);
          const fields = { ...set };
          if (plural_forms === "from_language") Object.assign(fields, pluralFormsFor(cat, set));
          const result = updateHeader(cat, { set: fields, stampRevisionDate: stamp });
          return { doc: result.catalog, result };
        }, { signal: call.signal });
        return {
          success: true,
          message: r.changed.length === 0
            ? `No header field of ${file_path} changed`
            : `Updated ${r.changed.join(", ")} in ${file_path}`,
          changed: r.changed,
          fields: readHeader(r.catalog).fields,
        };
      },
    }),
    defineTool({
      name: "merge_po",
      path: "/po/merge",
      summary: "Merge a catalogue with a template, as msgmerge does",
      description:
        "Brings a catalogue up to date with its template like msgmerge 0.21 (byte for byte): the " +
        "template's entries in its order, each with its translation and translator comments from the " +
        "catalogue (references, extracted comments and flags from the template); new ones untranslated, " +
        "or given a similar msgid's translation marked fuzzy; entries the template lost kept as obsolete " +
        "(#~). Writes file_path in place unless output_path is given; dry_run only counts.",
      input: MergePoRequest,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      // The catalogue merged with itself as template, counted only.
      example: ({ catalogue }) => ({ file_path: catalogue, template_path: catalogue, dry_run: true }),
      errors: [403, 404],
      output: MergePoResponse,
      handle: async (input, { catalogues }, call) => {
        const { file_path, template_path, output_path, fuzzy_matching, previous, dry_run } = input;
        const signal = call.signal;
        const template = (await catalogues.read(template_path, { signal })).doc;
        const options = {
          fuzzyMatching: fuzzy_matching,
          previous,
          fuzzyLimits: REQUEST_FUZZY_LIMITS,
          forcePo: true,
        };
        const target = output_path ?? file_path;
        let stats;
        let written = false;
        if (dry_run) {
          stats = mergeCatalogs((await catalogues.read(file_path, { signal })).doc, template, options).stats;
        } else {
          const def = target === file_path ? null : (await catalogues.read(file_path, { signal })).doc;
          const r = await catalogues.updateWithRevision(target, (cat) => {
            const base = def ?? cat;
            if (base === null) throw new NotFoundError(`File not found: ${file_path}`);
            const merged = mergeCatalogs(base, template, options);
            return { doc: merged.catalog, result: merged.stats };
          }, { signal });
          stats = r.result;
          written = r.written;
        }
        const skipped = stats.fuzzySkipped > 0
          ? `; fuzzy matching stopped at its bound, ${stats.fuzzySkipped} entries were added untranslated ` +
            "(merge those with msgmerge, or merge with fuzzy_matching false)"
          : "";
        return {
          success: true,
          message:
            `${dry_run ? "Would merge" : "Merged"} ${template_path} into ${target}: ${stats.merged} kept, ` +
            `${stats.fuzzied} fuzzy, ${stats.missing} new, ${stats.obsolete} obsolete${skipped}`,
          output_path: target,
          written,
          merged: stats.merged,
          fuzzied: stats.fuzzied,
          missing: stats.missing,
          obsolete: stats.obsolete,
          fuzzy_skipped: stats.fuzzySkipped,
        };
      },
    }),
    defineTool({
      name: "compile_mo",
      path: "/po/compile",
      summary: "Compile a catalogue to a binary MO file, as msgfmt does",
      description: "Writes the MO file msgfmt would write (fuzzy and untranslated entries left out unless " +
        "use_fuzzy; plural and context entries included) to NAME.mo beside the catalogue, or to output_path " +
        "(a .mo inside the roots). Atomic and locked; the catalogue is not changed.",
      input: CompileMoRequest,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: CompileMoResponse,
      handle: async ({ file_path, output_path, use_fuzzy }, { catalogues }, call) => {
        const target = output_path ?? moBeside(file_path);
        const doc = (await catalogues.read(file_path, { signal: call.signal })).doc;
        const r = compileMo(doc, { useFuzzy: use_fuzzy });
        const { written } = await catalogues.writeFile(target, r.bytes, [".mo"], { signal: call.signal });
        return {
          success: true,
          message: `Compiled ${file_path} to ${target}: ${r.messages} messages`,
          output_path: target,
          written,
          bytes: r.bytes.length,
          messages: r.messages,
          fuzzy_skipped: r.fuzzySkipped,
          untranslated_skipped: r.untranslatedSkipped,
        };
      },
    }),
  ],
});
