/**
 * `/po/*`: read, write and search gettext catalogues. Request schemas first (the HTTP contract,
 * also the MCP tool schemas), then the tools: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { editCatalogue } from "../lib/po/edit_catalogue.ts";
import { entryMessages, fuzzyMessages, readContext, toApiEntry } from "../lib/po/catalog.ts";
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";
import { KeptItemJson, ListAnswers } from "../lib/json_answer.ts";
import type { CatalogueRead, CatalogueStore } from "../lib/store/mod.ts";
import {
  contextWithPositions,
  ENTRY_FIELDS,
  ENTRY_STATES,
  type EntryField,
  entryPlaces,
  entryPositions,
  entryPositionsJson,
  MAX_PAGE_LIMIT,
  pageEntries,
  requestDigest,
} from "../lib/workbench/mod.ts";
import type { AppDeps } from "./deps.ts";
import {
  defineTool,
  defineToolGroup,
  requireDep,
  REVISION_ETAG,
  tagRevision,
  type ToolAnnotations,
} from "./tool.ts";
import { pyInt, RequestValidationError } from "./validation.ts";

const FilePath = z.string().meta({
  description: "Absolute path of a .po/.pot file inside one of the configured catalogue roots (PO_ROOTS).",
});

/** An entry as read and written (the old API's seven fields, then the extras old clients can ignore). */
export const PoEntry = z.object({
  msgid: z.string(),
  msgstr: z.string().meta({ description: 'The translation ("" for plural entries: see msgstr_plural).' }),
  msgctxt: z.string().nullable().meta({ description: "Message context, or null when the entry has none." }),
  comment: z.string().meta({ description: "Extracted comments (#.), lines joined with \\n." }),
  tcomment: z.string().meta({ description: "Translator comments (#), lines joined with \\n." }),
  occurrences: z.array(z.string()).meta({
    description: 'References: "file:line", or "file" without a line.',
  }),
  flags: z.array(z.string()).meta({ description: 'Flags such as "fuzzy" or "python-format".' }),
  msgid_plural: z.string().nullable(),
  msgstr_plural: z.record(z.string(), z.string()).meta({
    description: 'Plural forms by index: {"0": "…", "1": "…"}.',
  }),
  previous_msgid: z.string().nullable().meta({ description: "The #| msgid of a fuzzy entry, if any." }),
  previous_msgctxt: z.string().nullable(),
  obsolete: z.boolean().meta({ description: "True for #~ entries." }),
}).meta({ id: "POEntry" });

/**
 * An entry to write: msgid and msgstr are required; every other field left out is kept as it is.
 * An unknown field is refused (422 `extra_forbidden`, naming the field meant): the old service
 * ignored it, so a misspelt `"msgctx"` silently wrote the entry without context.
 */
export const PoEntryInput = z.strictObject({
  msgid: z.string(),
  msgstr: z.string(),
  msgctxt: z.string().nullable().optional().meta({
    description: 'Context; null, absent or "" mean "no context".',
  }),
  comment: z.string().nullable().optional().meta({
    description: "Replaces the #. comment; null or absent keep it.",
  }),
  tcomment: z.string().nullable().optional().meta({
    description: "Replaces the # comment; null or absent keep it.",
  }),
  occurrences: z.array(z.string()).optional().meta({ description: "Replaces the references when given." }),
  flags: z.array(z.string()).optional().meta({
    description: "Replaces the whole flag list when given ([] clears fuzzy and python-format alike). " +
      "To mark or unmark fuzzy alone, use fuzzy instead (not both).",
  }),
  fuzzy: z.boolean().optional().meta({
    description: "true sets the fuzzy flag, false clears it; every other flag (python-format, no-wrap, …) " +
      "is kept. Not together with flags.",
  }),
  msgid_plural: z.string().nullable().optional(),
  msgstr_plural: z.record(z.string(), z.string()).optional(),
  previous_msgid: z.string().nullable().optional(),
  previous_msgctxt: z.string().nullable().optional(),
  obsolete: z.boolean().optional(),
  expected_msgstr: z.string().optional().meta({
    description: "Compare-and-swap: the msgstr you read. The whole write is refused (409, with the current " +
      "msgstr) unless a non-obsolete entry with this msgctxt and msgid holds exactly this now.",
  }),
  expected_msgstr_plural: z.record(z.string(), z.string()).optional().meta({
    description: "As expected_msgstr, for the plural forms (msgstr_plural as read).",
  }),
  delete: z.boolean().optional().meta({
    description: "true: remove this entry (the first live one with this msgctxt and msgid; with obsolete: " +
      "true, the obsolete one); msgstr and the other fields are ignored. The header cannot be removed " +
      "(422); an entry that is not there refuses the whole write (409, with the closest msgids); with " +
      "expected_msgstr, only if it still holds that. Removals apply before the other entries.",
  }),
}).meta({ id: "POEntryInput" });

/**
 * Optional paging of `/po/read` and `/po/find_fuzzy` (issue 18.4). Without any of these fields the
 * answer is exactly the old one; with one, it is a page: `entries` (only `fields`), `next_cursor`,
 * `revision` and `total`.
 */
const PagingFields = {
  limit: pyInt({ ge: 1, le: MAX_PAGE_LIMIT }).optional().meta({
    description: `Page size (1 to ${MAX_PAGE_LIMIT}). With limit, cursor or fields the answer is one page: ` +
      "entries, next_cursor (null on the last page), revision, total. Without them: every entry, as always.",
  }),
  cursor: z.string().max(8192).nullable().optional().meta({
    description: "next_cursor of the previous page. A cursor into a catalogue that changed since is " +
      "refused with 409 (start again without it).",
  }),
  fields: z.array(z.enum(ENTRY_FIELDS)).max(ENTRY_FIELDS.length).nullable().optional().meta({
    description: 'Entry fields to return, e.g. ["msgid", "msgstr"] (default all).',
  }),
};
export const ReadPoRequest = z.strictObject({ file_path: FilePath, ...PagingFields }).meta({
  id: "ReadPORequest",
});
export const FindFuzzyRequest = z.strictObject({ file_path: FilePath, ...PagingFields }).meta({
  id: "FindFuzzyRequest",
});
export const WritePoRequest = z.strictObject({
  file_path: FilePath,
  entries: z.array(PoEntryInput),
  mode: z.enum(["upsert", "update", "create"]).default("upsert").meta({
    description: "upsert (default): update or add each entry. update: every entry must match an existing, " +
      "non-obsolete entry by (msgctxt, msgid), else nothing is written (409 listing each missing msgid with " +
      "the closest existing ones: a typo shows). create: every entry must be new, else 409.",
  }),
  if_revision: z.string().optional().meta({
    description:
      "Compare-and-swap on the whole file: write only if its revision (from a read) is still this " +
      "one, else 409 with the current revision. Over HTTP, the If-Match header does the same.",
  }),
  dry_run: z.boolean().default(false).meta({
    description: "true: write nothing, and answer the counts and the unified diff the write would make.",
  }),
  checks: z.enum(["off", "warn", "strict"]).default("warn").meta({
    description:
      "Quality checks of the entries the write changes (those of POST /po/check). warn (default): " +
      "write, and list in `problems` what the write introduces (problems already there are not listed). " +
      "strict: a write that would introduce an error (a broken placeholder, role, plural form…) is refused " +
      "with 422 listing each problem (entry, check, message), and the file is untouched. off: no checks.",
  }),
  stamp_revision_date: z.boolean().default(false).meta({
    description: "When the write changes an entry, set the header's PO-Revision-Date to now (UTC). Off by " +
      "default: powrap leaves the header alone.",
  }),
}).meta({ id: "WritePORequest" });
export const ReadPoContextRequest = z.strictObject({
  file_path: FilePath,
  msgid: z.string().meta({ description: "The msgid to find (the first entry with this msgid and msgctxt)." }),
  msgctxt: z.string().nullable().optional().meta({
    description: "The context; absent or null = no context.",
  }),
  context_size: pyInt({ ge: 0 }).default(1).meta({
    description: "Neighbours to return on each side (default 1).",
  }),
}).meta({ id: "ReadPOContextRequest" });

/** Every entry; or, when paged (limit, cursor or fields), a page of entries with only the fields asked. */
const EntriesResponse = z.object({
  entries: z.array(
    PoEntry.partial().extend({
      index: z.int().optional().meta({ description: "Position among the entries (header excluded)." }),
      line: z.int().nullable().optional().meta({
        description: "The line of the entry's first keyword in the file as it is now.",
      }),
      state: z.enum(ENTRY_STATES as [string, ...string[]]).optional().meta({
        description: "translated, fuzzy, untranslated or obsolete, as list_entries counts them.",
      }),
    }),
  ),
  next_cursor: z.string().nullable().optional().meta({ description: "Paged answers only." }),
  revision: z.string().optional().meta({ description: "Paged answers only: the catalogue's revision." }),
  total: z.int().optional().meta({ description: "Paged answers only: entries in the whole list." }),
});
const WritePoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  created: z.int().meta({ description: "Entries added (no entry had their msgctxt and msgid)." }),
  updated: z.int().meta({ description: "Existing entries that changed (as msgcat writes them)." }),
  unchanged: z.int().meta({ description: "Existing entries that already were as sent: nothing changed." }),
  revived: z.int().meta({
    description:
      "Entries that matched only an obsolete (#~) entry, which was revived (without its fuzzy flag " +
      "unless the request gives fuzzy: true).",
  }),
  deleted: z.int().meta({ description: "Entries removed (delete: true)." }),
  outcomes: z.array(z.enum(["created", "updated", "unchanged", "revived", "superseded", "deleted"])).meta({
    description: "What happened to each request entry, in request order (superseded: a later entry of the " +
      "request had the same msgctxt and msgid, and was applied instead).",
  }),
  revision: z.string().nullable().meta({
    description: "The file's revision after the write (for a dry run, the one the diff starts from; null: " +
      "there is no file). Send it as if_revision to write again only if nobody else did in between.",
  }),
  written: z.boolean().meta({
    description: "True when the file was replaced; false for a dry run, or when its bytes would not change.",
  }),
  diff: z.string().optional().meta({
    description: 'Dry run only: the unified diff from the file to what the write would make ("" if none).',
  }),
  entries: z.array(z.object({
    msgid: z.string(),
    msgctxt: z.string().nullable(),
    index: z.int().nullable().meta({
      description: "Its position among the entries (as list_entries' index).",
    }),
    line: z.int().nullable().meta({ description: "The line of its first keyword in the file as written." }),
    state: z.enum(ENTRY_STATES as [string, ...string[]]).nullable().meta({
      description: "Its state now, as the server counts it (null: not in the file, e.g. an untranslated " +
        "obsolete entry, which msgcat drops).",
    }),
  })).meta({
    description: "Each request entry as the file holds it after the write (for a dry run, as it would): " +
      "where it is and its state, in request order.",
  }),
  problems: z.array(z.object({
    path: z.string().nullable(),
    line: z.int().nullable(),
    msgctxt: z.string().nullable(),
    msgid: z.string(),
    check: z.string(),
    severity: z.enum(["error", "warning"]),
    message: z.string(),
  })).meta({
    description: 'Problems the write introduces (checks "warn"; [] with "off"): see POST /po/check.',
  }),
}).meta({ id: "WritePOResponse" });
const PlacedEntry = PoEntry.extend({
  index: z.int().meta({ description: "Position among the entries (header excluded)." }),
  line: z.int().nullable().meta({ description: "The line of its first keyword in the file as it is now." }),
  state: z.enum(ENTRY_STATES as [string, ...string[]]),
}).meta({ id: "PlacedPOEntry" });
const ReadPoContextResponse = z.object({
  target_entry: PlacedEntry.nullable(),
  context_before: z.array(PlacedEntry),
  context_after: z.array(PlacedEntry),
}).meta({ id: "ReadPOContextResponse" });

/** The shortest JSON an entry can have (every field empty), with the comma after it. */
const MIN_ENTRY_JSON = JSON.stringify({
  msgid: "",
  msgstr: "",
  msgctxt: "",
  comment: "",
  tcomment: "",
  occurrences: [],
  flags: [],
  msgid_plural: "",
  msgstr_plural: {},
  previous_msgid: "",
  previous_msgctxt: "",
  obsolete: false,
}).length + 1;

const SMALLER_READ_HINT = "Read a part: read_po_context (POST /po/read_context) gives one entry and its " +
  "neighbours, find_fuzzy (POST /po/find_fuzzy) the entries that need review.";

/** What the PO tools use: the catalogue store, and the kept answers of read_po and find_fuzzy. */
export interface PoToolDeps {
  catalogues: CatalogueStore<PoCatalog>;
  /** `{"entries": [...]}` of every entry of a catalogue version. */
  readAnswers: ListAnswers<PoCatalog, PoMessage>;
  /** `{"entries": [...]}` of the fuzzy entries of a catalogue version. */
  fuzzyAnswers: ListAnswers<PoCatalog, PoMessage>;
}

/** The PO tools' dependencies: the app's catalogue store, and answer caches of their own. */
function poToolDeps(app: AppDeps): PoToolDeps {
  const catalogues = requireDep(app.catalogues, "catalogues", "the PO tools");
  // Each message's JSON is kept once, for both lists.
  const items = new KeptItemJson<PoMessage>(
    toApiEntry,
    (m) => MIN_ENTRY_JSON + m.msgid.length + m.msgstr.length,
  );
  const list = (
    select: (catalog: PoCatalog) => readonly PoMessage[],
    keep: ((m: PoMessage) => boolean) | null,
  ) =>
    new ListAnswers({
      key: "entries",
      select,
      items,
      keepCompacted: keep === null,
      hint: SMALLER_READ_HINT,
      // Each entry's index, line in the file as it is now, and state (issue 34.5).
      positions: (catalog) => entryPositions(catalog, keep),
      positionsJson: (catalog) => entryPositionsJson(catalog, keep),
    });
  return {
    catalogues,
    readAnswers: list(entryMessages, null),
    fuzzyAnswers: list(fuzzyMessages, (m) => m.flags.includes("fuzzy")),
  };
}

/** True when a read asks for a page (any paging field given): else the old answer, unchanged. */
function isPaged(
  input: { limit?: number; cursor?: string | null; fields?: readonly string[] | null },
): boolean {
  return input.limit !== undefined || input.cursor != null || input.fields != null;
}

/** A page of a catalogue's entries in `/po/read`'s entry shape (see `lib/workbench/entries.ts`). */
function entriesPage(
  read: CatalogueRead<PoCatalog>,
  input: { file_path: string; limit?: number; cursor?: string | null; fields?: readonly EntryField[] | null },
  kind: string,
  select: (m: PoMessage) => boolean,
) {
  const page = pageEntries(read.doc, read.revision, input.file_path, {
    kind,
    digest: requestDigest(kind, { path: read.path.realPath }),
    select,
  }, {
    limit: input.limit ?? DEFAULT_PAGE_LIMIT,
    cursor: input.cursor ?? null,
    fields: input.fields ?? null,
  });
  return { entries: page.entries, next_cursor: page.next_cursor, revision: page.revision, total: page.total };
}

/** Page size of a paged read that gives no limit. */
const DEFAULT_PAGE_LIMIT = 100;

/**
 * The revision a write expects: `if_revision`, or the `If-Match` header's one strong entity tag
 * (`"REVISION"`; a bare REVISION is taken too). Both given must agree.
 */
function expectedRevision(fromBody: string | undefined, ifMatch: string | null): string | undefined {
  if (ifMatch === null) return fromBody;
  const value = ifMatch.trim();
  const tag = /^"([^"]*)"$/.exec(value)?.[1] ?? (/^[A-Za-z0-9_-]+$/.test(value) ? value : null);
  const problem = tag === null
    ? 'expected one strong entity tag, "REVISION" (a weak W/ tag, * or a list cannot be compared with a revision)'
    : fromBody !== undefined && fromBody !== tag
    ? `it names revision ${JSON.stringify(tag)} and if_revision ${JSON.stringify(fromBody)}: give one`
    : null;
  if (problem !== null) {
    throw new RequestValidationError([{
      type: "value_error",
      loc: ["header", "if-match"],
      msg: `Value error, ${problem}`,
      input: ifMatch.length > 100 ? ifMatch.slice(0, 100) + "…" : ifMatch,
    }]);
  }
  return tag!;
}

/** Reading a catalogue changes nothing. */
const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** `/po/*`: they need the catalogue store (`deps.catalogues`). */
export const poTools = defineToolGroup<PoToolDeps>({
  name: "the PO tools",
  deps: poToolDeps,
  tools: [
    defineTool({
      name: "read_po",
      path: "/po/read",
      summary: "Read every entry of a PO file",
      description:
        "Returns every entry of the catalogue in file order (header excluded, obsolete #~ entries " +
        "included). file_path must be absolute and inside one of the catalogue roots (PO_ROOTS). A long " +
        "catalogue can be read in pages: limit (then next_cursor as cursor until it is null) and fields " +
        "(only the entry fields needed); a paged answer also has revision and total.",
      input: ReadPoRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: EntriesResponse.meta({ id: "ReadPOResponse" }),
      httpResponseHeaders: [REVISION_ETAG],
      handle: async (input, { catalogues, readAnswers }, call) => {
        const read = await catalogues.read(input.file_path, { signal: call.signal });
        tagRevision(call, read.revision);
        if (!isPaged(input)) return readAnswers.answer(read.doc, call.maxAnswerBytes);
        return entriesPage(read, input, "read", () => true);
      },
    }),
    defineTool({
      name: "write_po",
      path: "/po/write",
      summary: "Create or update entries, then lay the file out exactly as msgcat/powrap would",
      description:
        "Each entry updates the non-obsolete entry with the same msgid and msgctxt, or is appended " +
        "(or, when only an obsolete #~ entry has that key, revives it). Fields left out are kept " +
        "(references, flags, comments); a field given replaces the old value. One request is one atomic " +
        "write; the answer counts created, updated (changed), unchanged and revived entries, gives each " +
        "entry's outcome in request order, and the file's new revision. A missing file is created with a " +
        'UTF-8 header. An unknown field is refused with a suggestion (e.g. "msgctx": did you mean ' +
        '"msgctxt"?). The safe way for an agent to edit: read first, then write with mode "update" (a ' +
        "mistyped msgid is refused with the closest existing msgids instead of being added) and " +
        "expected_msgstr (refused with the current msgstr if someone changed it since your read). " +
        'Translate an untranslated entry: {"file_path": F, "mode": "update", "entries": [{"msgid": ' +
        '"Save", "msgstr": "Enregistrer", "expected_msgstr": ""}]}. Mark one fuzzy, keeping its other ' +
        'flags: {"file_path": F, "mode": "update", "entries": [{"msgid": "Save", "msgstr": "Enregistrer", ' +
        '"fuzzy": true}]}. dry_run: true shows the diff and writes nothing.',
      input: WritePoRequest,
      // Replaces translations in place; the same write twice leaves the file as the first left it.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      // The catalogue's own first translation: sent as it is, it changes no translation.
      example: ({ catalogue, msgid, msgstr }) => ({
        file_path: catalogue,
        mode: "update",
        entries: [{ msgid, msgstr, expected_msgstr: msgstr }],
      }),
      errors: [403, 404, 409],
      httpHeaders: [{
        name: "If-Match",
        description:
          'The revision the write expects, as an entity tag ("REVISION"): as if_revision in the body.',
      }],
      output: WritePoResponse,
      handle: async (input, { catalogues }, call) => {
        const { file_path, entries, mode, if_revision, dry_run, checks, stamp_revision_date } = input;
        const r = await editCatalogue(catalogues, file_path, {
          entries,
          mode,
          ifRevision: expectedRevision(if_revision, call.headers?.get("if-match") ?? null),
          dryRun: dry_run,
          checks,
          ...(stamp_revision_date ? { stampRevisionDate: new Date() } : {}),
        }, { signal: call.signal });
        const merged = r.duplicatesDropped > 0
          ? `; ${r.duplicatesDropped} duplicate (msgctxt, msgid) entries in the request were merged, the last one wins`
          : "";
        const message = dry_run
          ? `Dry run: nothing was written to ${file_path}${merged}`
          : r.written
          ? `Successfully wrote to ${file_path} and formatted with powrap${merged}`
          : `Nothing to write: ${file_path} already holds what the write would make${merged}`;
        return {
          success: true,
          message,
          created: r.created,
          updated: r.updated,
          unchanged: r.unchanged,
          revived: r.revived,
          deleted: r.deleted,
          outcomes: r.outcomes,
          revision: r.revision,
          written: r.written,
          ...(r.diff !== undefined ? { diff: r.diff } : {}),
          entries: entryPlaces(r.catalog, entries),
          problems: r.problems,
        };
      },
    }),
    defineTool({
      name: "read_po_context",
      path: "/po/read_context",
      summary: "Find an entry and its neighbours",
      description:
        "Finds the first entry whose msgid matches and whose msgctxt equals the given one (absent or " +
        "null = no context) and returns up to context_size entries before and after it, in file order. " +
        "No match gives target_entry null.",
      input: ReadPoContextRequest,
      annotations: READS,
      example: ({ catalogue, msgid }) => ({ file_path: catalogue, msgid, context_size: 2 }),
      errors: [403, 404],
      output: ReadPoContextResponse,
      httpResponseHeaders: [REVISION_ETAG],
      handle: async ({ file_path, msgid, msgctxt, context_size }, { catalogues }, call) => {
        const read = await catalogues.read(file_path, { signal: call.signal });
        tagRevision(call, read.revision);
        const window = readContext(read.doc, msgid, msgctxt ?? null, context_size);
        return contextWithPositions(read.doc, msgid, msgctxt ?? null, window);
      },
    }),
    defineTool({
      name: "find_fuzzy",
      path: "/po/find_fuzzy",
      summary: "List the fuzzy entries of a PO file",
      description: 'Returns the entries flagged "fuzzy" (they need review), in file order. In pages with ' +
        "limit, cursor (next_cursor of the previous page) and fields, as read_po.",
      input: FindFuzzyRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: EntriesResponse.meta({ id: "FindFuzzyResponse" }),
      httpResponseHeaders: [REVISION_ETAG],
      handle: async (input, { catalogues, fuzzyAnswers }, call) => {
        const read = await catalogues.read(input.file_path, { signal: call.signal });
        tagRevision(call, read.revision);
        if (!isPaged(input)) return fuzzyAnswers.answer(read.doc, call.maxAnswerBytes);
        return entriesPage(read, input, "find_fuzzy", (m) => m.flags.includes("fuzzy"));
      },
    }),
  ],
});
