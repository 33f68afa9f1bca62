/**
 * `/po/*`: read, write and search gettext catalogues. Request schemas first (the HTTP contract,
 * also the MCP tool schemas), then the tools: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { ANONYMOUS, API_TOKEN_IDENTITY, type Identity, LOCAL_IDENTITY } from "../lib/auth/mod.ts";
import { z } from "zod";
import {
  closestExisting,
  editCatalogue,
  entryMessages,
  fuzzyMessages,
  type LayoutReport,
  type PoCatalog,
  type PoMessage,
  readContext,
  toApiEntry,
} from "../lib/po/mod.ts";
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
import { terminologyFor } from "./_terminology.ts";
import { cataloguePath, FilePath } from "./_catalogue_path.ts";
import { auditedWrite } from "./audit.ts";

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
    description: "Replaces all flags ([] clears fuzzy too); fuzzy alone: use fuzzy.",
  }),
  fuzzy: z.boolean().optional().meta({
    description: "true sets, false clears the fuzzy flag; other flags kept.",
  }),
  msgid_plural: z.string().nullable().optional(),
  msgstr_plural: z.record(z.string(), z.string()).optional(),
  previous_msgid: z.string().nullable().optional(),
  previous_msgctxt: z.string().nullable().optional(),
  obsolete: z.boolean().optional(),
  expected_msgstr: z.string().optional().meta({
    description: "The msgstr you read (else 409); plural entries: expected_msgstr_plural.",
  }),
  expected_msgstr_plural: z.record(z.string(), z.string()).optional().meta({
    description: "As expected_msgstr, for msgstr_plural as read (every form).",
  }),
  draft: z.boolean().optional().meta({
    description: "true: a draft to review (list_drafts); false: unmark.",
  }),
  draft_author: z.string().max(200).optional().meta({ description: "The draft's author." }),
  delete: z.boolean().optional().meta({
    description: "true: remove the entry (obsolete: true: the #~ one). Not the header (422); missing: 409.",
  }),
}).meta({ id: "POEntryInput" });

/**
 * Optional paging of `/po/read` and `/po/find_fuzzy` (issue 18.4). Without any of these fields the
 * answer is exactly the old one; with one, it is a page: `entries` (only `fields`), `next_cursor`,
 * `revision` and `total`.
 */
const PagingFields = {
  limit: pyInt({ ge: 1, le: MAX_PAGE_LIMIT }).optional().meta({
    description: `Page size (1–${MAX_PAGE_LIMIT}): the answer is a page.`,
  }),
  cursor: z.string().max(8192).nullable().optional().meta({
    description: "next_cursor of the previous page.",
  }),
  fields: z.array(z.enum(ENTRY_FIELDS)).max(ENTRY_FIELDS.length).nullable().optional().meta({
    description: "Entry fields to return (default all).",
  }),
};
export const ReadPoRequest = z.strictObject({ file_path: FilePath, ...PagingFields }).meta({
  id: "ReadPORequest",
});
export const FindFuzzyRequest = z.strictObject({ file_path: FilePath, ...PagingFields }).meta({
  id: "FindFuzzyRequest",
});
/** `layout` of a write (write_po, update_header): issue 35.2. */
export const LayoutRequestField = z.enum(["keep", "full"]).default("keep").meta({
  description: "keep: lay out only what changed; full: all.",
});
/** What a write's answer says of the layout. */
export const LayoutAnswer = z.object({
  mode: z.enum(["keep", "full"]),
  file_in_layout: z.boolean(),
  full_relayout_changed_lines: z.int(),
  reason: z.string().optional(),
  gettext: z.enum(["0.21", "0.23"]),
});

const WRITE_MODE_DESCRIPTION = "update: existing entries (else 409, closest named); create: new ones; " +
  "upsert: either (a near-typo msgid: similar_existing";
export const WritePoRequest = z.strictObject({
  file_path: FilePath,
  entries: z.array(PoEntryInput),
  mode: z.enum(["upsert", "update", "create"]).default("upsert").meta({
    description: `${WRITE_MODE_DESCRIPTION}). Default upsert over HTTP, update over MCP.`,
  }),
  refuse_similar: z.boolean().default(false).meta({
    description: "With upsert: refuse the write (409, nothing written) when an entry it would create has " +
      "an existing msgid a few edits away (similar_existing): a typo. The dashboard sends true; MCP " +
      'always refuses. Send mode "create" when the new entries are meant.',
  }),
  if_revision: z.string().optional().meta({
    description: "Write only if the file's revision is still this one (else 409). HTTP: or If-Match.",
  }),
  dry_run: z.boolean().default(false).meta({
    description: "Write nothing; answer the counts and the diff.",
  }),
  checks: z.enum(["off", "warn", "strict"]).default("warn").meta({
    description: "warn: list the problems the write introduces; strict: refuse (422) one that adds an error.",
  }),
  stamp_revision_date: z.boolean().default(false).meta({
    description: "When an entry changes, PO-Revision-Date := now (UTC).",
  }),
  layout: LayoutRequestField,
}).meta({ id: "WritePORequest" });

/**
 * write_po over MCP: an agent's write defaults to mode "update" (a mistyped msgid is refused
 * instead of added), and an upsert that would create an entry a few edits from an existing msgid
 * is always refused (no refuse_similar to turn off).
 */
const WritePoMcpRequest = WritePoRequest.omit({ refuse_similar: true }).extend({
  mode: z.enum(["upsert", "update", "create"]).default("update").meta({
    description: `${WRITE_MODE_DESCRIPTION}, refused: 409).`,
  }),
});
export const ReadPoContextRequest = z.strictObject({
  file_path: FilePath,
  msgid: z.string().meta({ description: "The msgid to find (the first entry with it and msgctxt)." }),
  msgctxt: z.string().nullable().optional().meta({
    description: "The context; absent or null = no context.",
  }),
  context_size: pyInt({ ge: 0 }).default(1).meta({
    description: "Neighbours to return on each side (default 1).",
  }),
}).meta({ id: "ReadPOContextRequest" });

const ClosestMsgid = z.object({
  msgctxt: z.string().nullable(),
  msgid: z.string(),
  distance: z.int().meta({ description: "Edit distance from the msgid asked for." }),
});

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
  layout: LayoutAnswer,
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
  similar_existing: z.array(z.object({
    index: z.int().meta({ description: "The entry's position in the request." }),
    msgctxt: z.string().nullable(),
    msgid: z.string(),
    similar: z.array(ClosestMsgid),
  })).meta({
    description: "Entries the write created (or, dry run, would create) while an existing msgid is a few " +
      "edits away (distance 0: the same msgid in another context): likely typos. Empty for mode update " +
      "and create.",
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
  closest: z.array(ClosestMsgid).optional().meta({
    description: "Only when no entry matched: the existing msgids closest to the one asked for (a typo " +
      "shows), nearest first; [] when none is near.",
  }),
  message: z.string().optional().meta({ description: "Only when no entry matched: what was looked for." }),
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
export function expectedRevision(fromBody: string | undefined, ifMatch: string | null): string | undefined {
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

/** How a write laid the file out, for its message (in the layout of the root's gettext). */
export function laidOutHow(layout: LayoutReport): string {
  const msgcat = `GNU msgcat ${layout.gettext}`;
  if (layout.mode === "keep" && !layout.file_in_layout) {
    return `the changed entries laid out as ${msgcat} lays them out and every other byte kept ` +
      `(the file is not in msgcat's layout: a full re-layout would change ${layout.full_relayout_changed_lines} lines)`;
  }
  return `laid out as ${msgcat} lays it out`;
}

/** `/po/*`: they need the catalogue store (`deps.catalogues`). */
export const poTools = defineToolGroup<PoToolDeps>({
  name: "the PO tools",
  deps: poToolDeps,
  tools: [
    defineTool({
      name: "read_po",
      role: "reader",
      path: "/po/read",
      summary: "Read every entry of a PO file",
      description:
        "Every entry of one catalogue (obsolete included), or a page. By state: list_entries; one entry: read_po_context; across files: search_entries.",
      input: ReadPoRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: EntriesResponse.meta({ id: "ReadPOResponse" }),
      httpResponseHeaders: [REVISION_ETAG],
      handle: async (given, { catalogues, readAnswers }, call) => {
        const input = { ...given, file_path: cataloguePath(catalogues, given.file_path) };
        const read = await catalogues.read(input.file_path, { signal: call.signal });
        tagRevision(call, read.revision);
        if (!isPaged(input)) return readAnswers.answer(read.doc, call.maxAnswerBytes);
        return entriesPage(read, input, "read", () => true);
      },
    }),
    defineTool({
      name: "write_po",
      role: "translator",
      path: "/po/write",
      summary: "Write entries of a PO file",
      description:
        "Changes, adds or deletes entries (by msgctxt and msgid; fields left out kept) in one atomic write. Header: update_header; template: merge_po.",
      input: WritePoRequest,
      mcpInput: WritePoMcpRequest,
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
        const { entries, mode, if_revision, dry_run, checks, stamp_revision_date, layout } = input;
        const file_path = cataloguePath(catalogues, input.file_path);
        // Over MCP an upsert never creates an entry a few edits from an existing msgid (an agent's typo).
        const refuseSimilar = call.via === "mcp" ||
          (input as { refuse_similar?: boolean }).refuse_similar === true;
        // The root's terminology, for the glossary, forbidden and term-target checks of the write.
        const terms = checks === "off" ? null : await terminologyFor(catalogues, file_path, call.signal);
        const r = await editCatalogue(catalogues, file_path, {
          entries,
          mode,
          terminology: terms?.rules ?? null,
          ifRevision: expectedRevision(if_revision, call.headers?.get("if-match") ?? null),
          dryRun: dry_run,
          checks,
          refuseSimilar,
          layout,
          // A draft whose entry names no author is the caller's, when the tokens file names one.
          draftAuthor: namedCaller(call.identity),
          ...(stamp_revision_date ? { stampRevisionDate: new Date() } : {}),
        }, auditedWrite(call, "write_po", entries));
        const merged = r.duplicatesDropped > 0
          ? `; ${r.duplicatesDropped} duplicate (msgctxt, msgid) entries in the request were merged, the last one wins`
          : "";
        const similar = r.similarExisting.length > 0
          ? `; ${r.similarExisting.length} created entries have an existing msgid a few edits away ` +
            "(similar_existing): check they are not typos"
          : "";
        const message = dry_run
          ? `Dry run: nothing was written to ${file_path}${merged}${similar}`
          // "Successfully wrote to FILE" begins the message as the replaced service's did: clients match it.
          : r.written
          ? `Successfully wrote to ${file_path}, ${laidOutHow(r.layout)}${merged}${similar}`
          : `Nothing to write: ${file_path} already holds what the write would make${merged}${similar}`;
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
          layout: r.layout,
          entries: entryPlaces(r.catalog, entries),
          problems: r.problems,
          similar_existing: r.similarExisting,
        };
      },
    }),
    defineTool({
      name: "read_po_context",
      role: "reader",
      path: "/po/read_context",
      summary: "Find an entry and its neighbours",
      description: "One entry (by msgid, msgctxt) and its neighbours. No match: target_entry null and " +
        "closest (the nearest msgids). By text: search_entries.",
      input: ReadPoContextRequest,
      annotations: READS,
      example: ({ catalogue, msgid }) => ({ file_path: catalogue, msgid, context_size: 2 }),
      errors: [403, 404],
      output: ReadPoContextResponse,
      httpResponseHeaders: [REVISION_ETAG],
      handle: async ({ file_path, msgid, msgctxt, context_size }, { catalogues }, call) => {
        const read = await catalogues.read(cataloguePath(catalogues, file_path), { signal: call.signal });
        tagRevision(call, read.revision);
        const window = readContext(read.doc, msgid, msgctxt ?? null, context_size);
        const placed = contextWithPositions(read.doc, msgid, msgctxt ?? null, window);
        if (placed.target_entry !== null) return placed;
        // 200 as the old service answered, with what was near: a typo shows (no silent null).
        const closest = closestExisting(read.doc, msgid);
        const where = msgctxt == null ? "without context" : `with msgctxt ${JSON.stringify(msgctxt)}`;
        const near = closest.entries.length > 0
          ? `; closest: ${closest.entries.map((c) => JSON.stringify(c.msgid)).join(", ")}`
          : "; no msgid is near it";
        return {
          ...placed,
          closest: closest.entries,
          message: `No entry has msgid ${
            JSON.stringify(msgid.length > 80 ? msgid.slice(0, 80) + "…" : msgid)
          } ${where}${near}`,
        };
      },
    }),
    defineTool({
      name: "find_fuzzy",
      role: "reader",
      path: "/po/find_fuzzy",
      summary: "List the fuzzy entries of a PO file",
      description: "The fuzzy entries of one catalogue, in file order; pages as read_po. list_entries " +
        'with states ["fuzzy"] adds lines and counts.',
      input: FindFuzzyRequest,
      annotations: READS,
      example: ({ catalogue }) => ({ file_path: catalogue }),
      errors: [403, 404],
      output: EntriesResponse.meta({ id: "FindFuzzyResponse" }),
      httpResponseHeaders: [REVISION_ETAG],
      handle: async (given, { catalogues, fuzzyAnswers }, call) => {
        const input = { ...given, file_path: cataloguePath(catalogues, given.file_path) };
        const read = await catalogues.read(input.file_path, { signal: call.signal });
        tagRevision(call, read.revision);
        if (!isPaged(input)) return fuzzyAnswers.answer(read.doc, call.maxAnswerBytes);
        return entriesPage(read, input, "find_fuzzy", (m) => m.flags.includes("fuzzy"));
      },
    }),
  ],
});

/** The caller's name from the tokens file; null for the service-wide identities (no token, API_TOKEN, stdio). */
function namedCaller(identity: Identity | undefined): string | null {
  if (identity === undefined) return null;
  return [ANONYMOUS, API_TOKEN_IDENTITY, LOCAL_IDENTITY].some((i) =>
      i.name === identity.name && i === identity
    )
    ? null
    : identity.name;
}
