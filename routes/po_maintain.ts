/**
 * Catalogue maintenance tools: the header as fields (read, update), merge from a template
 * (msgmerge), compile to MO (msgfmt). Request schemas first, then the tools: validate, call
 * `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { NotFoundError } from "../lib/errors.ts";
import { MAX_HEADER_UPDATES, MAX_HEADER_VALUE_CHARS, readHeader, updateHeader } from "../lib/po/header.ts";
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

/** What the header tools use: the catalogue store. */
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

/** The header tools: they need the catalogue store (`deps.catalogues`). */
export const poMaintainTools = defineToolGroup<HeaderToolDeps>({
  name: "the PO header tools",
  deps: (app) => ({ catalogues: requireDep(app.catalogues, "catalogues", "the PO header tools") }),
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
        return {
          present: info.present,
          fields: info.fields,
          header,
          fuzzy: info.fuzzy,
          nplurals: info.nplurals,
          plural_forms_problem: info.pluralFormsProblem,
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
      handle: async ({ file_path, set, stamp_revision_date }, { catalogues }, call) => {
        const stamp = stamp_revision_date ? new Date() : undefined;
        const r = await catalogues.update(file_path, (cat) => {
          if (cat === null) throw new NotFoundError(`File not found: ${file_path}`);
          const result = updateHeader(cat, { set, stampRevisionDate: stamp });
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
  ],
});
