/**
 * `/po/*`: read, write and search gettext catalogues. Request schemas first (the HTTP contract,
 * also the MCP tool schemas), then the tools: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { applyWrite } from "../lib/po/apply_write.ts";
import { entryMessages, fuzzyMessages, readContext, toApiEntry } from "../lib/po/catalog.ts";
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";
import { type ByteItem, type BytePiece, compactRuns, encodePieces } from "../lib/byte_runs.ts";
import type { AppDeps } from "./deps.ts";
import { answerTooLarge, defineTool, JsonAnswer, type ToolAnnotations } from "./tool.ts";
import { pyInt } from "./validation.ts";

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
    description: "Replaces the flags when given ([] clears fuzzy).",
  }),
  msgid_plural: z.string().nullable().optional(),
  msgstr_plural: z.record(z.string(), z.string()).optional(),
  previous_msgid: z.string().nullable().optional(),
  previous_msgctxt: z.string().nullable().optional(),
  obsolete: z.boolean().optional(),
}).meta({ id: "POEntryInput" });

export const ReadPoRequest = z.strictObject({ file_path: FilePath }).meta({ id: "ReadPORequest" });
export const FindFuzzyRequest = z.strictObject({ file_path: FilePath }).meta({ id: "FindFuzzyRequest" });
export const WritePoRequest = z.strictObject({
  file_path: FilePath,
  entries: z.array(PoEntryInput),
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

const EntriesResponse = z.object({ entries: z.array(PoEntry) });
const WritePoResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  created: z.int(),
  updated: z.int(),
  revived: z.int().meta({
    description:
      "Entries that matched only an obsolete (#~) entry, which was revived (without its fuzzy flag " +
      'unless the request gives flags: ["fuzzy"]).',
  }),
}).meta({ id: "WritePOResponse" });
const ReadPoContextResponse = z.object({
  target_entry: PoEntry.nullable(),
  context_before: z.array(PoEntry),
  context_after: z.array(PoEntry),
}).meta({ id: "ReadPOContextResponse" });

const utf8 = new TextEncoder();

/** Each message's JSON entry as UTF-8, made once per message (messages are immutable, shared by versions). */
const entryJson = new WeakMap<PoMessage, BytePiece>();

const ENTRIES_OPEN = utf8.encode('{"entries":[');
const ENTRIES_CLOSE = utf8.encode("]}");
const COMMA = utf8.encode(",");

/**
 * The JSON answer `{"entries": [...]}` listing `select(catalog)`, assembled once per catalogue
 * document from each message's kept JSON bytes: after a write changed a few messages, only
 * those are serialised, and the answer is a few runs of existing bytes, not a new 5 MB buffer.
 */
function entriesAnswer(
  cache: WeakMap<PoCatalog, Uint8Array[] | TooLarge>,
  catalog: PoCatalog,
  select: (catalog: PoCatalog) => readonly PoMessage[],
  keepCompacted: boolean,
  maxBytes: number,
): JsonAnswer {
  let chunks = cache.get(catalog);
  if (chunks instanceof TooLarge) {
    if (maxBytes <= chunks.limit) throw answerTooLarge(null, maxBytes, SMALLER_READ_HINT);
    chunks = undefined;
  }
  if (chunks === undefined) {
    const messages = select(catalog);
    // A lower bound first, in one cheap pass: every entry's JSON has its twelve keys and at least
    // its msgid and msgstr. A catalogue of many tiny entries is refused without serialising any.
    let bound = 0;
    for (const m of messages) bound += MIN_ENTRY_JSON + m.msgid.length + m.msgstr.length;
    if (bound > maxBytes) {
      cache.set(catalog, new TooLarge(maxBytes));
      throw answerTooLarge(null, maxBytes, SMALLER_READ_HINT);
    }
    const fresh = messages.filter((m) => !entryJson.has(m));
    // Counted while serialising, so a catalogue of many tiny entries is refused before its whole
    // answer exists (a string of n UTF-16 units is at least n bytes of UTF-8).
    let size = 0;
    for (const m of messages) {
      const kept = entryJson.get(m);
      if (kept !== undefined) size += kept.end - kept.start + 1;
    }
    const texts: string[] = new Array(fresh.length);
    for (let i = 0; i < fresh.length; i++) {
      texts[i] = JSON.stringify(toApiEntry(fresh[i]));
      size += texts[i].length + 1;
      if (size > maxBytes) {
        cache.set(catalog, new TooLarge(maxBytes));
        throw answerTooLarge(null, maxBytes, SMALLER_READ_HINT);
      }
    }
    const pieces = encodePieces(texts, ",");
    fresh.forEach((m, i) => entryJson.set(m, pieces[i]));
    const items: ByteItem[] = [ENTRIES_OPEN];
    for (let i = 0; i < messages.length; i++) {
      if (i > 0) items.push(COMMA);
      items.push(entryJson.get(messages[i])!);
    }
    items.push(ENTRIES_CLOSE);
    // Pieces made at different times lie in different buffers: when they make too many runs,
    // they are copied together once (and, for the full list, kept there for later versions).
    const { runs, moved } = compactRuns(items, 64);
    if (moved && keepCompacted) messages.forEach((m, i) => entryJson.set(m, moved[2 * i + 1]!));
    chunks = runs;
    cache.set(catalog, chunks);
  }
  return new JsonAnswer(chunks, () => ({ entries: select(catalog).map(toApiEntry) }));
}

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

/** A catalogue whose answer was found larger than `limit` bytes. */
class TooLarge {
  constructor(readonly limit: number) {}
}

const SMALLER_READ_HINT = "Read a part: read_po_context (POST /po/read_context) gives one entry and its " +
  "neighbours, find_fuzzy (POST /po/find_fuzzy) the entries that need review.";

const readAnswers = new WeakMap<PoCatalog, Uint8Array[] | TooLarge>();
const fuzzyAnswers = new WeakMap<PoCatalog, Uint8Array[] | TooLarge>();

function catalogues(deps: AppDeps) {
  if (!deps.catalogues) throw new Error("the PO tools need a catalogue store");
  return deps.catalogues;
}

/** Reading a catalogue changes nothing. */
const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export const poTools = [
  defineTool({
    name: "read_po",
    path: "/po/read",
    summary: "Read every entry of a PO file",
    description: "Returns every entry of the catalogue in file order (header excluded, obsolete #~ entries " +
      "included). file_path must be absolute and inside one of the catalogue roots (PO_ROOTS).",
    input: ReadPoRequest,
    annotations: READS,
    example: ({ catalogue }) => ({ file_path: catalogue }),
    errors: [403, 404],
    output: EntriesResponse.meta({ id: "ReadPOResponse" }),
    handle: async ({ file_path }, deps, call) =>
      entriesAnswer(
        readAnswers,
        (await catalogues(deps).read(file_path, { signal: call.signal })).doc,
        entryMessages,
        true,
        call.maxAnswerBytes,
      ),
  }),
  defineTool({
    name: "write_po",
    path: "/po/write",
    summary: "Create or update entries, then lay the file out exactly as msgcat/powrap would",
    description:
      "Each entry updates the non-obsolete entry with the same msgid and msgctxt, or is appended " +
      "(or, when only an obsolete #~ entry has that key, revives it: counted in `revived`, its comments and " +
      "references kept, its fuzzy flag dropped unless the request sets flags). " +
      "Fields left out are kept (references, flags, comments); a field given replaces the old value " +
      "(flags: [] clears fuzzy). A missing file is created with a UTF-8 header. An unknown field is " +
      'refused with a suggestion (e.g. "msgctx": did you mean "msgctxt"?).',
    input: WritePoRequest,
    // Replaces translations in place; the same write twice leaves the file as the first left it.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    // The catalogue's own first translation: sent as it is, it changes no translation.
    example: ({ catalogue, msgid, msgstr }) => ({ file_path: catalogue, entries: [{ msgid, msgstr }] }),
    errors: [403, 404],
    output: WritePoResponse,
    handle: async ({ file_path, entries }, deps, call) => {
      const r = await catalogues(deps).update(file_path, (catalog) => {
        const result = applyWrite(catalog, entries);
        return { doc: result.catalog, result };
      }, { signal: call.signal });
      const merged = r.duplicatesDropped > 0
        ? `; ${r.duplicatesDropped} duplicate (msgctxt, msgid) entries in the request were merged, the last one wins`
        : "";
      return {
        success: true,
        message: `Successfully wrote to ${file_path} and formatted with powrap${merged}`,
        created: r.created,
        updated: r.updated,
        revived: r.revived,
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
    handle: async ({ file_path, msgid, msgctxt, context_size }, deps, call) =>
      readContext(
        (await catalogues(deps).read(file_path, { signal: call.signal })).doc,
        msgid,
        msgctxt ?? null,
        context_size,
      ),
  }),
  defineTool({
    name: "find_fuzzy",
    path: "/po/find_fuzzy",
    summary: "List the fuzzy entries of a PO file",
    description: 'Returns the entries flagged "fuzzy" (they need review), in file order.',
    input: FindFuzzyRequest,
    annotations: READS,
    example: ({ catalogue }) => ({ file_path: catalogue }),
    errors: [403, 404],
    output: EntriesResponse.meta({ id: "FindFuzzyResponse" }),
    handle: async ({ file_path }, deps, call) =>
      entriesAnswer(
        fuzzyAnswers,
        (await catalogues(deps).read(file_path, { signal: call.signal })).doc,
        fuzzyMessages,
        false,
        call.maxAnswerBytes,
      ),
  }),
];
