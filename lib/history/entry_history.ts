/**
 * `entry_history`: the commits that changed one entry of a catalogue, newest first, following the
 * entry by (msgctxt, msgid) and the file through renames.
 *
 * One `git log --follow --raw` lists the commits that touched the file with the blob before and
 * after each (so no commit's parent is ever looked up); the blobs come in batches from
 * `git cat-file --batch`, each parsed once by the store's own reader ({@link VersionCache}); a
 * commit is reported when the entry's msgstr (every form), flags or obsolete mark differ between
 * its two blobs. A re-wrap, a move within the file, a new reference or comment is not a change of
 * the entry. Merge commits are left out (`--no-merges`): their changes are those of the commits
 * merged, which are listed.
 *
 * Bounded: at most `maxCommits` commits are examined, for at most `budgetMs`; `truncated` says when
 * older commits were not.
 *
 * @module
 */
import {
  GitFailedError,
  type GitRunner,
  LOG_FORMAT,
  type LoggedCommit,
  NotARepositoryError,
  parseRawLog,
  readBlobs,
} from "./git.ts";
import {
  entryKey,
  type EntrySnapshot,
  type ParsedVersion,
  sameSnapshot,
  snapshotOf,
  type VersionCache,
} from "./versions.ts";

/** One commit that changed the entry. */
export interface EntryChange {
  commit: string;
  author: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
  /** The file's path in that commit, relative to the repository's top. */
  path: string;
  /** The entry before the commit (null: absent). */
  before: EntrySnapshot | null;
  /** The entry after it (null: absent: removed, or the file deleted). */
  after: EntrySnapshot | null;
}

/** The answer of {@link entryHistory}. */
export interface EntryHistory {
  commits: EntryChange[];
  /** True when older commits were not examined (see reason). */
  truncated: boolean;
  reason: string | null;
  /** Commits of the file examined. */
  examined: number;
  /** Versions that could not be parsed (their commits were compared with nothing). */
  unreadable: number;
}

/** What to follow. */
export interface EntryHistoryRequest {
  /** A directory of the repository holding the file (git runs there). */
  cwd: string;
  /** The file's name in `cwd`. */
  fileName: string;
  msgctxt: string | null;
  msgid: string;
}

/** Bounds of one history. */
export interface EntryHistoryOptions {
  /** Most changes returned (default 20). */
  limit?: number;
  /** Most commits of the file examined (default 500). */
  maxCommits?: number;
  /** Time allowed, in ms (default 15,000). */
  budgetMs?: number;
  /** Largest version read (the store's file limit). */
  maxBlobBytes: number;
  /** Blobs fetched per `cat-file` (default 16). */
  batch?: number;
  now?: () => number;
  signal?: AbortSignal;
}

/** Default and largest `limit`. */
export const DEFAULT_HISTORY_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 200;
/** Default commits examined. */
export const DEFAULT_MAX_COMMITS = 500;

/** Bytes of `git log` output read at most (500 commits of long subjects are far less). */
const MAX_LOG_BYTES = 16 * 1024 * 1024;

/** The commits of the file that changed the entry, newest first (see the module doc). */
export async function entryHistory(
  git: GitRunner,
  versions: VersionCache,
  request: EntryHistoryRequest,
  options: EntryHistoryOptions,
): Promise<EntryHistory> {
  const limit = options.limit ?? DEFAULT_HISTORY_LIMIT;
  const maxCommits = options.maxCommits ?? DEFAULT_MAX_COMMITS;
  const budgetMs = options.budgetMs ?? 15_000;
  const batch = options.batch ?? 16;
  const now = options.now ?? Date.now;
  const started = now();
  const { signal } = options;

  const logArgs = (follow: boolean) => [
    "log",
    ...(follow ? ["--follow"] : []),
    "--no-merges",
    "--raw",
    "--no-abbrev",
    "-z",
    "--no-color",
    "--encoding=UTF-8",
    LOG_FORMAT,
    `--max-count=${maxCommits + 1}`,
    "HEAD",
    "--",
    request.fileName,
  ];
  let log: Uint8Array;
  let notFollowed: string | null = null;
  try {
    try {
      log = await git.run(request.cwd, logArgs(true), { maxBytes: MAX_LOG_BYTES, signal });
    } catch (error) {
      // Following renames reads other files' blobs too: in a clone missing some (a partial or
      // damaged one) it fails where the file's own history is whole. The history without renames
      // followed is better than none, said so.
      if (!(error instanceof GitFailedError) || error instanceof NotARepositoryError) throw error;
      log = await git.run(request.cwd, logArgs(false), { maxBytes: MAX_LOG_BYTES, signal });
      notFollowed = `renames not followed (${error.message})`;
    }
  } catch (error) {
    if (!(error instanceof NotARepositoryError)) throw error;
    return {
      commits: [],
      truncated: false,
      reason: "the catalogue is in no git checkout",
      examined: 0,
      unreadable: 0,
    };
  }
  const logged = parseRawLog(new TextDecoder().decode(log));
  let truncated = logged.length > maxCommits;
  let reason = truncated ? `only the newest ${maxCommits} commits of the file were examined` : null;
  const commits = logged.slice(0, maxCommits);

  const key = entryKey(request.msgctxt, request.msgid);
  const out: EntryChange[] = [];
  let examined = 0;
  let unreadable = 0;
  const counted = new Set<string>();
  let tracked: string | null = null;

  const snapshotAt = (
    oid: string | null,
    version: ParsedVersion | undefined,
  ): EntrySnapshot | null | undefined => {
    if (oid === null) return null;
    if (version === undefined || "error" in version) {
      if (!counted.has(oid)) {
        counted.add(oid);
        unreadable++;
      }
      return undefined;
    }
    const m = version.index.get(key);
    return m === undefined ? null : snapshotOf(m);
  };

  for (let at = 0; at < commits.length; at += batch) {
    signal?.throwIfAborted();
    if (now() - started > budgetMs) {
      truncated = true;
      reason = `stopped after ${examined} commits on the time budget (${budgetMs} ms)`;
      break;
    }
    const group = commits.slice(at, at + batch);
    const picked = group.map((c) => {
      const change = pickChange(c, tracked);
      if (change !== null) tracked = change.oldPath;
      return change;
    });
    const wanted: string[] = [];
    for (const change of picked) {
      for (const oid of [change?.oldBlob, change?.newBlob]) {
        if (oid && versions.get(oid) === undefined) wanted.push(oid);
      }
    }
    const blobs = await readBlobs(git, request.cwd, wanted, {
      maxBlobBytes: options.maxBlobBytes,
      batch,
      signal,
    });
    for (let i = 0; i < group.length; i++) {
      const commit = group[i]!;
      const change = picked[i];
      examined++;
      if (change === null || change === undefined) continue;
      const version = (oid: string | null) => {
        if (oid === null) return undefined;
        const bytes = blobs.get(oid);
        return bytes === undefined ? versions.get(oid) : versions.parse(oid, bytes, change.path);
      };
      const before = snapshotAt(change.oldBlob, version(change.oldBlob));
      const after = snapshotAt(change.newBlob, version(change.newBlob));
      if (before === undefined || after === undefined || sameSnapshot(before, after)) continue;
      out.push({
        commit: commit.commit,
        author: commit.author,
        date: commit.date,
        subject: commit.subject,
        path: change.path,
        before,
        after,
      });
      if (out.length >= limit) {
        const more = at + i + 1 < commits.length || logged.length > maxCommits;
        if (more) {
          truncated = true;
          reason = `limit reached (${limit}): older changes were not looked for`;
        }
        return { commits: out, truncated, reason: joinReasons(notFollowed, reason), examined, unreadable };
      }
    }
  }
  return { commits: out, truncated, reason: joinReasons(notFollowed, reason), examined, unreadable };
}

function joinReasons(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null ? a : `${a}; ${b}`;
}

/** The change of `commit` to the file followed (by its path after, when a commit has several). */
function pickChange(commit: LoggedCommit, tracked: string | null) {
  if (commit.changes.length === 0) return null;
  if (tracked !== null) {
    const same = commit.changes.find((c) => c.path === tracked);
    if (same !== undefined) return same;
  }
  return commit.changes[0]!;
}
