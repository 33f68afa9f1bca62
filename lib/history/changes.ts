/**
 * `changes_since`: what happened to the entries of each catalogue between a commit (or branch, tag)
 * and the files as they are now on disk (the working tree: uncommitted work counts, as a translator
 * about to open a pull request expects).
 *
 * The catalogues changed are those `git diff --raw REF` lists under the directory asked about (with
 * renames found), plus untracked ones (`git ls-files --others --exclude-standard`); the old version
 * is the blob at REF, the new one the file read through the store (path policy and all). Entries
 * are compared by (msgctxt, msgid) among live ones, so a re-wrap or a move is no change:
 * - added: a live entry now that was not live then; removed: the reverse (made obsolete included);
 * - translated: translated now, untranslated or fuzzy then;
 * - retranslated: translated then and now, another msgstr (any form);
 * - fuzzied: fuzzy now, not fuzzy then.
 *
 * @module
 */
import type { PoCatalog } from "../po/mod.ts";
import { entryState } from "../workbench/mod.ts";
import {
  type GitRunner,
  NotARepositoryError,
  parseRawDiff,
  type RawChange,
  readBlobs,
  resolveCommit,
} from "./git.ts";
import { type EntryIndex, indexEntries, type VersionCache } from "./versions.ts";

/** An entry named by its key. */
export interface EntryName {
  msgctxt: string | null;
  msgid: string;
}

/** The kinds of change, in answer order. */
export const CHANGE_KINDS = ["added", "removed", "translated", "retranslated", "fuzzied"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One catalogue's changes: at most `maxListed` entries per kind, every one counted. */
export type CatalogueChanges =
  & { file_path: string; counts: Record<ChangeKind, number>; error: string | null }
  & Record<ChangeKind, EntryName[]>;

/** A directory to look at: git runs in `cwd` over `pathspec` (`.` for all of it). */
export interface ChangeScope {
  cwd: string;
  pathspec: string;
  /** The store path of a file git names relative to `cwd`. */
  filePath(relative: string): string;
}

/** The answer of {@link changesSince}. */
export interface ChangesSince {
  /** The commit the ref named (in the first scope's repository). */
  commit: string;
  catalogues: CatalogueChanges[];
  truncated: boolean;
  reason: string | null;
}

/** Bounds of one answer. */
export interface ChangesOptions {
  /** Entries listed per kind and catalogue (default 100; all are counted). */
  maxListed?: number;
  /** Catalogues compared at most (default 1,000). */
  maxFiles?: number;
  budgetMs?: number;
  maxBlobBytes: number;
  now?: () => number;
  signal?: AbortSignal;
}

/** Bytes of `git diff --raw` / `ls-files` output read at most. */
const MAX_LIST_BYTES = 32 * 1024 * 1024;

/**
 * The changes to the catalogues of `scopes` since `ref`, compared with what `readCurrent` reads now.
 *
 * @throws {InvalidRefError} a refused ref; `NotFoundError` when a scope's repository has no such
 *   commit or the scope is not in a git repository.
 */
export async function changesSince(
  git: GitRunner,
  versions: VersionCache,
  scopes: readonly ChangeScope[],
  ref: string,
  readCurrent: (filePath: string) => Promise<PoCatalog>,
  options: ChangesOptions,
): Promise<ChangesSince> {
  const maxListed = options.maxListed ?? 100;
  const maxFiles = options.maxFiles ?? 1000;
  const budgetMs = options.budgetMs ?? 15_000;
  const now = options.now ?? Date.now;
  const started = now();
  const { signal } = options;
  const catalogues: CatalogueChanges[] = [];
  let truncated = false;
  let reason: string | null = null;
  let firstCommit: string | null = null;
  let compared = 0;
  const outside: string[] = [];

  for (const scope of scopes) {
    let commit: string;
    try {
      commit = await resolveCommit(git, scope.cwd, ref, signal);
    } catch (error) {
      if (!(error instanceof NotARepositoryError)) throw error;
      outside.push(scope.cwd);
      continue;
    }
    firstCommit ??= commit;
    const diff = parseRawDiff(
      new TextDecoder().decode(
        await git.run(scope.cwd, [
          "diff",
          "--raw",
          "--no-abbrev",
          "-z",
          "--find-renames",
          "--relative",
          "--no-color",
          "--no-ext-diff",
          commit,
          "--",
          scope.pathspec,
        ], { maxBytes: MAX_LIST_BYTES, signal }),
      ),
    );
    const untracked = new TextDecoder().decode(
      await git.run(scope.cwd, ["ls-files", "--others", "--exclude-standard", "-z", "--", scope.pathspec], {
        maxBytes: MAX_LIST_BYTES,
        signal,
      }),
    ).split("\0").filter((p) => p !== "");
    const changes: RawChange[] = [
      ...diff,
      ...untracked.map((path) => ({ status: "A", oldBlob: null, newBlob: null, oldPath: path, path })),
    ].filter((c) => c.path.endsWith(".po") || c.oldPath.endsWith(".po"));
    changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    for (let at = 0; at < changes.length; at += 16) {
      signal?.throwIfAborted();
      if (compared >= maxFiles || now() - started > budgetMs) {
        truncated = true;
        reason = compared >= maxFiles
          ? `only the first ${maxFiles} changed catalogues were compared`
          : `stopped after ${compared} catalogues on the time budget (${budgetMs} ms)`;
        break;
      }
      const group = changes.slice(at, at + 16);
      const blobs = await readBlobs(
        git,
        scope.cwd,
        group.flatMap((
          c,
        ) => (c.oldBlob !== null && versions.get(c.oldBlob) === undefined ? [c.oldBlob] : [])),
        { maxBlobBytes: options.maxBlobBytes, batch: 16, signal },
      );
      for (const change of group) {
        compared++;
        const deleted = change.status === "D";
        const filePath = scope.filePath(deleted ? change.oldPath : change.path);
        let before: EntryIndex = new Map();
        let after: EntryIndex = new Map();
        let error: string | null = null;
        if (change.oldBlob !== null) {
          const bytes = blobs.get(change.oldBlob);
          const old = bytes === undefined
            ? versions.get(change.oldBlob)
            : versions.parse(change.oldBlob, bytes, change.oldPath);
          if (old === undefined) error = "the version at the ref could not be read";
          else if ("error" in old) error = `the version at the ref: ${old.error}`;
          else before = old.index;
        }
        if (!deleted && error === null) {
          try {
            after = indexEntries(await readCurrent(filePath));
          } catch (e) {
            if (signal?.aborted) throw e;
            error = String((e as Error)?.message ?? e).slice(0, 200);
          }
        }
        const found = compareEntries(before, after, maxListed);
        if (error !== null || CHANGE_KINDS.some((k) => found.counts[k] > 0)) {
          catalogues.push({ file_path: filePath, ...found, error });
        }
      }
    }
    if (truncated) break;
  }
  if (reason === null && outside.length > 0) reason = `in no git checkout: ${outside.join(", ")}`;
  return { commit: firstCommit ?? "", catalogues, truncated, reason };
}

/** The changes from `before` to `after` (see the module doc). */
export function compareEntries(
  before: EntryIndex,
  after: EntryIndex,
  maxListed: number,
): Record<ChangeKind, EntryName[]> & { counts: Record<ChangeKind, number> } {
  const lists: Record<ChangeKind, EntryName[]> = {
    added: [],
    removed: [],
    translated: [],
    retranslated: [],
    fuzzied: [],
  };
  const counts: Record<ChangeKind, number> = {
    added: 0,
    removed: 0,
    translated: 0,
    retranslated: 0,
    fuzzied: 0,
  };
  const note = (kind: ChangeKind, m: { msgctxt: string | null; msgid: string }) => {
    counts[kind]++;
    if (lists[kind].length < maxListed) lists[kind].push({ msgctxt: m.msgctxt, msgid: m.msgid });
  };
  for (const [key, now] of after) {
    if (now.obsolete) continue;
    const then = before.get(key);
    if (then === undefined || then.obsolete) {
      note("added", now);
      continue;
    }
    const was = entryState(then);
    const is = entryState(now);
    if (is === "translated" && was !== "translated") note("translated", now);
    else if (is === "translated" && !sameForms(then, now)) note("retranslated", now);
    else if (is === "fuzzy" && was !== "fuzzy") note("fuzzied", now);
  }
  for (const [key, then] of before) {
    if (then.obsolete) continue;
    const now = after.get(key);
    if (now === undefined || now.obsolete) note("removed", then);
  }
  return { ...lists, counts };
}

function sameForms(
  a: { msgstr: string; msgstrPlural: readonly string[] | null },
  b: { msgstr: string; msgstrPlural: readonly string[] | null },
): boolean {
  if (a.msgstr !== b.msgstr) return false;
  const pa = a.msgstrPlural ?? [];
  const pb = b.msgstrPlural ?? [];
  return pa.length === pb.length && pa.every((s, i) => s === pb[i]);
}
