/**
 * The history tools (issue 37.3–4): `entry_history` (POST /po/history), `changes_since`
 * (POST /po/changes) and `next_to_translate` (POST /po/next). Validate, call `lib/history`, shape
 * the JSON; git runs through `deps.git` (`routes/git_runner.ts`).
 *
 * @module
 */
import { z } from "zod";
import {
  changesSince,
  DEFAULT_HISTORY_LIMIT,
  entryHistory,
  type GitRunner,
  GitUnavailableError,
  MAX_HISTORY_LIMIT,
  MAX_REF_CHARS,
  type PriorityList,
  rankCatalogues,
  readPriorityList,
  VersionCache,
} from "../lib/history/mod.ts";
import type { PoCatalog } from "../lib/po/mod.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, type ToolAnnotations } from "./tool.ts";
import { pyInt } from "./validation.ts";
import { cataloguePath, FilePath } from "./_catalogue_path.ts";
import { gitRunner } from "./git_runner.ts";
import { type WorkbenchDeps, workbenchDeps } from "./workbench.ts";

const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Largest version of a catalogue read out of git (the store's default file limit). */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

export const EntryHistoryRequest = z.strictObject({
  file_path: FilePath,
  msgctxt: z.string().max(65536).nullable().optional(),
  msgid: z.string().max(1 << 20),
  limit: pyInt({ ge: 1, le: MAX_HISTORY_LIMIT }).default(DEFAULT_HISTORY_LIMIT),
}).meta({ id: "EntryHistoryRequest" });

export const ChangesSinceRequest = z.strictObject({
  ref: z.string().min(1).max(MAX_REF_CHARS),
  file_path: FilePath.nullable().optional(),
}).meta({ id: "ChangesSinceRequest" });

export const NextToTranslateRequest = z.strictObject({
  limit: pyInt({ ge: 1, le: 1000 }).default(20),
  under: z.string().max(4096).nullable().optional(),
}).meta({ id: "NextToTranslateRequest" });

const Snapshot = z.object({
  msgstr: z.string(),
  msgstr_plural: z.record(z.string(), z.string()),
  flags: z.array(z.string()),
  obsolete: z.boolean(),
}).nullable();

const EntryHistoryResponse = z.object({
  commits: z.array(z.object({
    commit: z.string(),
    author: z.string(),
    date: z.string(),
    subject: z.string(),
    path: z.string(),
    before: Snapshot,
    after: Snapshot,
  })),
  truncated: z.boolean(),
  reason: z.string().nullable(),
  examined: z.int(),
  unreadable: z.int(),
}).meta({ id: "EntryHistoryResponse" });

const Names = z.array(z.object({ msgctxt: z.string().nullable(), msgid: z.string() }));
const ChangesSinceResponse = z.object({
  commit: z.string(),
  catalogues: z.array(z.object({
    file_path: z.string(),
    added: Names,
    removed: Names,
    translated: Names,
    retranslated: Names,
    fuzzied: Names,
    counts: z.record(z.string(), z.int()),
    error: z.string().nullable(),
  })),
  truncated: z.boolean(),
  reason: z.string().nullable(),
}).meta({ id: "ChangesSinceResponse" });

const NextToTranslateResponse = z.object({
  catalogues: z.array(z.object({
    file_path: z.string(),
    root: z.string(),
    path: z.string(),
    words_left: z.int(),
    entries_left: z.int(),
    priority: z.int().nullable(),
  })),
  total: z.int(),
  truncated: z.boolean(),
}).meta({ id: "NextToTranslateResponse" });

interface HistoryDeps extends WorkbenchDeps {
  git: GitRunner | null;
  versions: VersionCache;
}

/** One cache of parsed versions per store. */
const VERSIONS = new WeakMap<CatalogueStore<PoCatalog>, VersionCache>();

function historyDeps(app: AppDeps): HistoryDeps {
  const bench = workbenchDeps(app);
  let versions = VERSIONS.get(bench.catalogues);
  if (versions === undefined) {
    versions = new VersionCache();
    VERSIONS.set(bench.catalogues, versions);
  }
  // Absent: the real runner (the process's permissions decide); null: none (git unavailable).
  return { ...bench, git: app.git === undefined ? gitRunner() : app.git, versions };
}

function needGit(git: GitRunner | null): GitRunner {
  if (git === null) throw new GitUnavailableError("git is not available to this service");
  return git;
}

function splitPath(path: string): { dir: string; name: string } {
  const at = path.lastIndexOf("/");
  return { dir: path.slice(0, at) || "/", name: path.slice(at + 1) };
}

/** `/po/history`, `/po/changes`, `/po/next`: the catalogue store, and git for the first two. */
export const historyTools = defineToolGroup<HistoryDeps>({
  name: "the history tools",
  deps: historyDeps,
  tools: [
    defineTool({
      name: "entry_history",
      path: "/po/history",
      role: "reader",
      summary: "Commits that changed one entry",
      description:
        "Commits that changed one entry's msgstr/flags (author, date, before/after), through re-wraps, moves, renames. A tree's: changes_since.",
      input: EntryHistoryRequest,
      annotations: READS,
      example: ({ catalogue, msgid }) => ({ file_path: catalogue, msgid, limit: 5 }),
      errors: [403, 404],
      output: EntryHistoryResponse,
      handle: async (input, { catalogues, git, versions }, call) => {
        const runner = needGit(git);
        const resolved = await catalogues.resolve(cataloguePath(catalogues, input.file_path), {
          mustExist: true,
        });
        const { dir, name } = splitPath(resolved.realPath);
        return await entryHistory(runner, versions, {
          cwd: dir,
          fileName: name,
          msgctxt: input.msgctxt ?? null,
          msgid: input.msgid,
        }, { limit: input.limit, maxBlobBytes: MAX_BLOB_BYTES, signal: call.signal });
      },
    }),
    defineTool({
      name: "changes_since",
      path: "/po/changes",
      role: "reader",
      summary: "Entries changed since a commit",
      description:
        "Entries added, removed, translated, retranslated, fuzzied per catalogue since ref (git). One entry's commits: entry_history.",
      input: ChangesSinceRequest,
      annotations: READS,
      example: () => ({ ref: "HEAD" }),
      errors: [403, 404],
      output: ChangesSinceResponse,
      handle: async (input, { catalogues, git, versions }, call) => {
        const runner = needGit(git);
        const scopes = [];
        if (typeof input.file_path === "string") {
          const resolved = await catalogues.resolve(cataloguePath(catalogues, input.file_path), {
            mustExist: false,
          });
          const real = splitPath(resolved.realPath);
          const lexical = splitPath(resolved.lexicalPath);
          scopes.push({
            cwd: real.dir,
            pathspec: real.name,
            filePath: (rel: string) => `${lexical.dir}/${rel}`,
          });
        } else {
          for (const root of catalogues.roots) {
            const base = root.replace(/\/+$/, "") || "";
            scopes.push({ cwd: root, pathspec: ".", filePath: (rel: string) => `${base}/${rel}` });
          }
        }
        return await changesSince(
          runner,
          versions,
          scopes,
          input.ref,
          async (filePath) => (await catalogues.read(filePath, { signal: call.signal })).doc,
          { maxBlobBytes: MAX_BLOB_BYTES, signal: call.signal },
        );
      },
    }),
    defineTool({
      name: "next_to_translate",
      path: "/po/next",
      role: "reader",
      summary: "Catalogues to translate next",
      description:
        "Catalogues with work left, ranked by the root's .po-priority.txt, then words left. Then list_entries.",
      input: NextToTranslateRequest,
      annotations: READS,
      example: () => ({ limit: 10 }),
      errors: [403, 404],
      output: NextToTranslateResponse,
      handle: async (input, { workbench }, call) => {
        const listed = await workbench.listing({ under: input.under ?? null, signal: call.signal });
        const priorities = new Map<string, PriorityList>();
        for (const root of workbench.roots) {
          const list = await readPriorityList(root);
          if (list !== null) priorities.set(root, list);
        }
        const ranked = rankCatalogues(listed.files, priorities, input.limit);
        return { ...ranked, truncated: listed.truncated !== null };
      },
    }),
  ],
});
