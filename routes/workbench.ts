/**
 * The workbench tools (issue 18, the read side): `list_catalogues` (POST /po/catalogues),
 * `list_entries` (POST /po/entries) and `search_entries` (POST /po/search). Request schemas first,
 * then the tools: validate, call `lib/workbench`, shape the JSON.
 *
 * @module
 */
import { z } from "zod";
import { fileInLayout, layoutGenerationOf, type PoCatalog } from "../lib/po/mod.ts";
import type { CatalogueRead, CatalogueStore } from "../lib/store/mod.ts";
import {
  CATALOGUE_SORTS,
  type CatalogueSummary as CatalogueSummaryValue,
  countCatalogue,
  ENTRY_FIELDS,
  ENTRY_STATES,
  type EntryField,
  type EntryState,
  globMatcher,
  listCatalogues,
  MAX_PAGE_LIMIT,
  MAX_PATTERN_LENGTH,
  pageEntries,
  requestDigest,
  SEARCH_FIELDS,
  searchCatalogues,
  textMatcher,
  Workbench,
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
import { pyInt } from "./validation.ts";
import { cataloguePath } from "./_catalogue_path.ts";

/** Catalogue fields a listing may be limited to (root and path always come). */
const CATALOGUE_FIELDS = ["language", "counts", "size", "modified", "revision", "error"] as const;

const State = z.enum(ENTRY_STATES as [EntryState, ...EntryState[]]);
const Field = z.enum(ENTRY_FIELDS);

const Limit = (fallback: number, max: number) =>
  pyInt({ ge: 1, le: max }).default(fallback).meta({
    description: "Page size.",
  });
const Cursor = z.string().max(8192).nullable().optional().meta({
  description: "next_cursor of the previous page.",
});
const Fields = z.array(Field).max(ENTRY_FIELDS.length).nullable().optional().meta({
  description: "Entry fields, as read_po names them (default all; index, line, state always).",
});
const Glob = z.string().max(MAX_PATTERN_LENGTH).meta({
  description: 'Glob (*, **, ?) on the name ("*.po"), or with / on the path ("library/**").',
});
const Under = z.string().max(4096).nullable().optional().meta({
  description: "Only under this directory.",
});

export const ListCataloguesRequest = z.strictObject({
  under: Under,
  glob: Glob.nullable().optional(),
  exclude: z.array(Glob).max(32).optional().meta({
    description: "Leave out paths matching any of these globs.",
  }),
  min_percent: z.number().min(0).max(100).nullable().optional().meta({
    description: "Only catalogues at least this percent translated.",
  }),
  max_percent: z.number().min(0).max(100).nullable().optional().meta({
    description: "Only catalogues at most this percent translated: 99 lists the unfinished.",
  }),
  has_fuzzy: z.boolean().nullable().optional().meta({
    description: "Only catalogues with (true) or without (false) fuzzy entries.",
  }),
  sort: z.enum(CATALOGUE_SORTS).default("path").meta({
    description: "percent: least done first; untranslated(_words): most left first.",
  }),
  limit: Limit(1000, 5000),
  cursor: Cursor,
  fields: z.array(z.enum(CATALOGUE_FIELDS)).max(CATALOGUE_FIELDS.length).nullable().optional().meta({
    description: 'Catalogue fields (default all; root, path, kind always), e.g. ["counts"].',
  }),
}).meta({ id: "ListCataloguesRequest" });

export const ListEntriesRequest = z.strictObject({
  path: z.string().max(4096).meta({
    description: "The catalogue (as list_catalogues gives it).",
  }),
  states: z.array(State).min(1).max(4).optional().meta({
    description: "Entry states to list (default all).",
  }),
  limit: Limit(100, MAX_PAGE_LIMIT),
  cursor: Cursor,
  fields: Fields,
}).meta({ id: "ListEntriesRequest" });

export const SearchEntriesRequest = z.strictObject({
  query: z.string().min(1).max(1000).meta({
    description: "A substring, or (regex: true) a JS regex for a linear engine: no backreferences, " +
      "lookarounds, counts over 16.",
  }),
  regex: z.boolean().default(false),
  case_insensitive: z.boolean().default(false),
  in: z.array(z.enum(SEARCH_FIELDS)).min(1).max(4).default(["msgid", "msgstr"]).meta({
    description: "Where to look (msgid: plural too; msgstr: every form; comments: both kinds).",
  }),
  states: z.array(State).min(1).max(4).nullable().optional().meta({
    description: "Only entries in these states (default all).",
  }),
  under: Under,
  glob: Glob.nullable().optional(),
  limit: Limit(50, MAX_PAGE_LIMIT),
  cursor: Cursor,
  fields: Fields,
}).meta({ id: "SearchEntriesRequest" });

/** Only `fields` of a summary, besides its root and path. */
function selectCatalogueFields(
  summary: CatalogueSummaryValue,
  fields: readonly (typeof CATALOGUE_FIELDS)[number][],
): Partial<CatalogueSummaryValue> {
  const out: Partial<CatalogueSummaryValue> = { root: summary.root, path: summary.path, kind: summary.kind };
  for (const field of CATALOGUE_FIELDS) {
    if (fields.includes(field)) (out as Record<string, unknown>)[field] = summary[field];
  }
  return out;
}

const Counts = z.object({
  translated: z.int(),
  fuzzy: z.int(),
  untranslated: z.int(),
  obsolete: z.int(),
});
const CatalogueCounts = z.object({
  entries: Counts,
  words: Counts.meta({ description: "Words of the msgids (whitespace-separated), by state." }),
  percent: z.int().meta({
    description: "translated × 100 / (translated + fuzzy + untranslated), rounded down.",
  }),
  percent_words: z.int(),
}).meta({ id: "CatalogueCounts" });
const CatalogueSummary = z.object({
  root: z.string(),
  path: z.string().meta({ description: "Relative to root." }),
  kind: z.enum(["catalogue", "template"]).meta({
    description: "template: a .pot file (no translations: outside progress totals and progress filters).",
  }),
  language: z.string().nullable().optional(),
  counts: CatalogueCounts.nullable().optional(),
  size: z.int().optional(),
  modified: z.string().nullable().optional(),
  revision: z.string().nullable().optional().meta({
    description: "Revision of the bytes counted (if_revision of writes).",
  }),
  error: z.string().nullable().optional().meta({
    description: "Why the file has no counts (e.g. a syntax error). Such a file stays in every filtered " +
      "listing (its progress is unknown) and is counted in errors.",
  }),
}).meta({ id: "CatalogueSummary", description: "Every field comes unless `fields` leaves it out." });
const ListedEntry = z.object({
  index: z.int().meta({ description: "Position among the entries of /po/read (header excluded)." }),
  line: z.int().nullable().meta({ description: "Line of the msgid keyword (null if not known)." }),
  state: State,
}).catchall(z.unknown()).meta({
  id: "ListedEntry",
  description: "Position, state and the selected fields of a POEntry.",
});

const ListCataloguesResponse = z.object({
  catalogues: z.array(CatalogueSummary),
  directories: z.array(z.object({
    root: z.string(),
    path: z.string(),
    files: z.int().meta({ description: "Catalogues (.po) under it, unreadable ones included." }),
    templates: z.int().meta({ description: "Templates (.pot) under it, outside the progress totals." }),
    errors: z.int().meta({ description: "Files under it that could not be read: problems, not done." }),
    entries: Counts,
    words: Counts,
    percent: z.int().nullable().meta({
      description: "Percent done of its readable catalogues; null when none could be read.",
    }),
    percent_words: z.int().nullable(),
  })).nullable().meta({ description: "Totals per directory over all pages (first page only)." }),
  total: z.int(),
  errors: z.int().meta({ description: "Listed files (all pages) that could not be read (each has error)." }),
  next_cursor: z.string().nullable(),
  truncated: z.boolean().meta({
    description: "True when the tree holds more catalogues than a listing walks (PO_MAX_LISTED_FILES): " +
      "the pages hold the first ones met; see reason.",
  }),
  reason: z.string().nullable().meta({ description: "Why the listing is truncated, and how to narrow it." }),
}).meta({ id: "ListCataloguesResponse" });
const ListEntriesResponse = z.object({
  root: z.string(),
  path: z.string(),
  revision: z.string(),
  counts: CatalogueCounts,
  entries: z.array(ListedEntry),
  total: z.int().meta({ description: "Entries in these states in the whole catalogue." }),
  next_cursor: z.string().nullable(),
  in_layout: z.boolean().optional().meta({
    description: "First page: the file is in msgcat's layout (else a save keeps its other bytes).",
  }),
}).meta({ id: "ListEntriesResponse" });
const SearchEntriesResponse = z.object({
  hits: z.array(ListedEntry.extend({ root: z.string(), path: z.string(), revision: z.string() })),
  next_cursor: z.string().nullable(),
  stopped_early: z.boolean().meta({
    description: "True when the page ended on the time budget: more hits may follow next_cursor.",
  }),
  truncated: z.boolean().meta({
    description: "True when the page ended on the time budget or left entries unsearched (see reason).",
  }),
  reason: z.string().nullable().meta({ description: "Why the page is truncated, and how to narrow." }),
  searched_files: z.int(),
  unsearched: z.object({
    count: z.int(),
    entries: z.array(z.object({ root: z.string(), path: z.string(), index: z.int(), chars: z.int() })),
  }).meta({
    description: "Entries a regular expression was not run on (their text × the expression's weight " +
      "exceeds the per-entry allowance): how many, and the first 20.",
  }),
  unreadable: z.array(z.object({ root: z.string(), path: z.string(), error: z.string() })).meta({
    description: "Files this page passed over because they cannot be read, with why (at most 100).",
  }),
}).meta({ id: "SearchEntriesResponse" });

const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The workbench tools' dependencies: the catalogue store and the workbench over its roots. */
export interface WorkbenchDeps {
  catalogues: CatalogueStore<PoCatalog>;
  workbench: Workbench;
}

/** One workbench per store (apps and MCP sessions over one store share its records). */
const WORKBENCHES = new WeakMap<CatalogueStore<PoCatalog>, Workbench>();

/** The workbench tools' dependencies (one workbench per store; the history tools share it). */
export function workbenchDeps(app: AppDeps): WorkbenchDeps {
  const catalogues = requireDep(app.catalogues, "catalogues", "the workbench tools");
  let workbench = WORKBENCHES.get(catalogues);
  if (workbench === undefined) {
    workbench = new Workbench(catalogues, { maxFiles: app.config.poMaxListedFiles });
    WORKBENCHES.set(catalogues, workbench);
  }
  return { catalogues, workbench };
}

/**
 * `in_layout` of list_entries' first page: whether the file, as read, is in msgcat's layout (the
 * dashboard says so before a first save). Left out when the file changed between the two reads.
 */
async function inLayoutField(
  catalogues: CatalogueStore<PoCatalog>,
  filePath: string,
  read: CatalogueRead<PoCatalog>,
  signal: AbortSignal | undefined,
): Promise<{ in_layout?: boolean }> {
  const raw = await catalogues.readBytes(filePath, signal ? { signal } : {});
  return raw.revision === read.revision
    ? { in_layout: fileInLayout(raw.bytes, read.doc, layoutGenerationOf(filePath)) }
    : {};
}

/** `/po/catalogues`, `/po/entries`, `/po/search`: they need the catalogue store (`deps.catalogues`). */
export const workbenchTools = defineToolGroup<WorkbenchDeps>({
  name: "the workbench tools",
  deps: workbenchDeps,
  tools: [
    defineTool({
      name: "list_catalogues",
      role: "reader",
      path: "/po/catalogues",
      summary: "List catalogues with their progress",
      description: "Start here: catalogues under the roots with language, counts by state (as msgfmt " +
        "--statistics), percent and per-directory totals; unreadable files listed with their error. " +
        "Then list_entries.",
      input: ListCataloguesRequest,
      annotations: READS,
      example: () => ({ max_percent: 99, limit: 20 }),
      errors: [403, 404],
      output: ListCataloguesResponse,
      handle: async (input, { workbench: bench }, call) => {
        const { files, truncated } = await bench.listing({ under: input.under ?? null, signal: call.signal });
        const filter = {
          glob: input.glob ?? null,
          exclude: input.exclude ?? [],
          minPercent: input.min_percent ?? null,
          maxPercent: input.max_percent ?? null,
          hasFuzzy: input.has_fuzzy ?? null,
        };
        const digest = requestDigest("catalogues", {
          under: input.under ?? null,
          ...filter,
          sort: input.sort,
        });
        const listing = {
          ...listCatalogues(files, rootIndexOf(bench.roots), filter, {
            sort: input.sort,
            limit: input.limit,
            cursor: input.cursor ?? null,
            kind: "catalogues",
            digest,
          }),
          truncated: truncated !== null,
          reason: truncated,
        };
        const fields = input.fields ?? null;
        if (fields === null) return listing;
        return { ...listing, catalogues: listing.catalogues.map((c) => selectCatalogueFields(c, fields)) };
      },
    }),
    defineTool({
      name: "list_entries",
      role: "reader",
      path: "/po/entries",
      summary: "List one catalogue's entries by state, in pages",
      description:
        "One catalogue's entries in some states, in pages (next_cursor), with line, state, revision and " +
        'counts. To translate: states ["untranslated"], then write_po with expected_msgstr.',
      input: ListEntriesRequest,
      annotations: READS,
      example: ({ catalogue }) => ({
        path: catalogue,
        states: ["untranslated", "fuzzy"],
        limit: 20,
        fields: ["msgid", "msgstr", "msgctxt", "flags"],
      }),
      errors: [403, 404],
      output: ListEntriesResponse,
      httpResponseHeaders: [REVISION_ETAG],
      handle: async (input, { catalogues }, call) => {
        // Relative: under the one root that has it, else refused naming the candidates (issue 34.9).
        const filePath = cataloguePath(catalogues, input.path);
        const read = await catalogues.read(filePath, { signal: call.signal });
        tagRevision(call, read.revision);
        const states = input.states ?? null;
        const digest = requestDigest("entries", { path: read.path.realPath, states });
        const page = pageEntries(read.doc, read.revision, input.path, {
          kind: "entries",
          digest,
          select: (_m, state) => states === null || states.includes(state),
        }, { limit: input.limit, cursor: input.cursor ?? null, fields: input.fields ?? null });
        return {
          root: read.path.root,
          path: relativeTo(read.path.root, read.path.lexicalPath),
          revision: read.revision,
          counts: countCatalogue(read.doc),
          entries: page.entries,
          total: page.total,
          next_cursor: page.next_cursor,
          ...(input.cursor ? {} : await inLayoutField(catalogues, filePath, read, call.signal)),
        };
      },
    }),
    defineTool({
      name: "search_entries",
      role: "reader",
      path: "/po/search",
      summary: "Search entries across catalogues",
      description: "Entries across catalogues whose msgid, msgstr, msgctxt or comments contain query " +
        "(substring or regex), in pages; truncated: part was not searched. Similar msgids: suggest; " +
        "one catalogue's work: list_entries.",
      input: SearchEntriesRequest,
      annotations: READS,
      example: ({ msgid }) => ({
        query: msgid.split(/\s+/).slice(0, 2).join(" ") || "file",
        in: ["msgid"],
        states: ["translated"],
        limit: 10,
        fields: ["msgid", "msgstr"],
      }),
      errors: [403, 404],
      output: SearchEntriesResponse,
      handle: async (input, { workbench: bench }, call) => {
        const query = {
          query: input.query,
          regex: input.regex,
          caseInsensitive: input.case_insensitive,
          in: input.in,
          states: input.states ?? null,
        };
        const filter = { under: input.under ?? null, glob: input.glob ?? null };
        const digest = requestDigest("search", { ...query, ...filter });
        // The query is checked before any file is read: a refused expression costs nothing.
        textMatcher(query);
        const keep = filter.glob === null ? null : globMatcher(filter.glob);
        const listed = await bench.listing({ under: filter.under, signal: call.signal });
        const files = listed.files.filter((f) => keep === null || keep(f.summary.path));
        const page = await searchCatalogues(
          files,
          rootIndexOf(bench.roots),
          query,
          {
            limit: input.limit,
            cursor: input.cursor ?? null,
            fields: (input.fields ?? null) as EntryField[] | null,
            kind: "search",
            digest,
          },
          (file) => bench.columns(file, call.signal),
          { signal: call.signal },
        );
        if (listed.truncated === null) return page;
        const reason = `only part of the tree was searched: ${listed.truncated}`;
        return {
          ...page,
          truncated: true,
          reason: page.reason === null ? reason : `${reason}; ${page.reason}`,
        };
      },
    }),
  ],
});

function relativeTo(root: string, path: string): string {
  const base = root.endsWith("/") ? root : `${root}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function rootIndexOf(roots: readonly string[]): (root: string) => number {
  return (root) => roots.indexOf(root);
}
