/**
 * The host side of `wrap`'s tree walk and `--modified`: directory listings from the file system and
 * the list of changed catalogues from git. `main.ts` hands these to `runWrap`; tests use fakes.
 *
 * @module
 */
import { type EntryKind, entryKind, pathFunctions } from "../lib/po/mod.ts";

/**
 * "directory" when PATH is a directory (a symbolic link to one counts), else "other". A stat opens
 * nothing (a FIFO cannot block it), so it is synchronous: the read of each file stats it so too, and
 * a run on one file starts without a first asynchronous stat.
 */
export function pathKind(path: string): Promise<"directory" | "other"> {
  try {
    return Promise.resolve(Deno.statSync(path).isDirectory ? "directory" : "other");
  } catch {
    return Promise.resolve("other"); // the reader reports a missing or unreadable FILE
  }
}

/** The entries of a directory with their kinds as `lstat` sees them (symbolic links not followed). */
export async function readDirEntries(path: string): Promise<{ name: string; kind: EntryKind }[]> {
  const entries: { name: string; kind: EntryKind }[] = [];
  for await (const e of Deno.readDir(path)) {
    entries.push({ name: e.name, kind: entryKind(e) });
  }
  return entries;
}

/** Raised when git cannot list the modified files (not a repository, git missing, no permission). */
export class GitStatusError extends Error {
  override name = "GitStatusError";
}

/** Most bytes of `git status` output read (a status of a million files is ~100 MB: far beyond a PO repo). */
const MAX_STATUS_BYTES = 64 * 1024 * 1024;

async function git(args: string[], option = "--modified"): Promise<string> {
  return new TextDecoder().decode(await gitBytes(args, option));
}

/** git's output; `option` names the option that runs it, for the message when git is not allowed. */
async function gitBytes(args: string[], option: string, allowFailure = false): Promise<Uint8Array> {
  let out;
  try {
    out = await new Deno.Command("git", { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new GitStatusError(
        `${option} runs git: allow it with --allow-run=git (` +
          (option === "--modified" ? "`deno task wrap:modified` does)" : "bin/wrap and bin/check do)"),
      );
    }
    throw new GitStatusError(`cannot run git: ${(error as Error).message}`);
  }
  if (!out.success && allowFailure) return new Uint8Array(0);
  if (!out.success) {
    const reason = new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit status ${out.code}`;
    throw new GitStatusError(`git ${args[0]} failed: ${reason}`);
  }
  if (out.stdout.length > MAX_STATUS_BYTES) throw new GitStatusError(`git ${args[0]} printed too much`);
  return out.stdout;
}

/**
 * The `*.po` files git reports as changed in the working tree or the index, untracked ones included,
 * deleted ones left out, as paths relative to the current directory. Like powrap's `--modified`,
 * which reads `git status --porcelain --no-renames`; here with `-z` (names with spaces or quotes
 * come through unquoted), `--untracked-files=all` (a new `.po` in a new directory is listed, where
 * powrap sees only the directory), and resolved from the repository's top level (porcelain paths are
 * relative to it: powrap run from a subdirectory looks for them in the wrong place).
 *
 * @throws {GitStatusError} when git cannot be run or this is not a repository.
 */
export async function gitModifiedFiles(): Promise<string[]> {
  const { join, relative } = await pathFunctions();
  const top = (await git(["rev-parse", "--show-toplevel"])).replace(/\n$/, "");
  const status = await git(["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all"]);
  const files: string[] = [];
  for (const record of status.split("\0")) {
    // "XY PATH": X the index's status, Y the work tree's.
    if (record.length < 4 || !record.endsWith(".po")) continue;
    const xy = record.slice(0, 2);
    if (xy.includes("D")) continue;
    files.push(relative(Deno.cwd(), join(top, record.slice(3))) || ".");
  }
  return files;
}

/**
 * The `*.po` files the index changes against HEAD (the staged change: added, copied, modified,
 * renamed; deleted ones left out), relative to the current directory and under it, as
 * `git diff --cached --name-only --relative` lists them (every staged file of a first commit).
 *
 * @throws {GitStatusError} when git cannot be run or this is not a repository.
 */
export async function gitStagedFiles(): Promise<string[]> {
  await git(["rev-parse", "--show-toplevel"], "--changed");
  const out = await git([
    "diff",
    "--cached",
    "--name-only",
    "-z",
    "--relative",
    "--diff-filter=ACMR",
    "--no-renames",
  ]);
  return out.split("\0").filter((f) => f.endsWith(".po"));
}

/** Whether the repository has a commit (a first commit compares with nothing). */
async function hasHead(): Promise<boolean> {
  return (await gitBytes(["rev-parse", "-q", "--verify", "HEAD^{commit}"], "--changed", true)).length > 0;
}

/**
 * The versions of a catalogue `check --changed` compares: the committed one (`HEAD`) and the
 * staged one (the index), each null when there is none (a new file; a file not added). Paths are
 * taken relative to the current directory, as git takes them after `--`.
 */
export interface GitVersions {
  committed(path: string): Promise<Uint8Array | null>;
  staged(path: string): Promise<Uint8Array | null>;
}

/**
 * {@link GitVersions} from git: `ls-tree`/`ls-files` find the blob, `cat-file` reads it.
 *
 * @throws {GitStatusError} when git cannot be run or this is not a repository.
 */
export async function gitVersions(): Promise<GitVersions> {
  await git(["rev-parse", "--show-toplevel"], "--changed");
  const head = await hasHead();
  const blob = async (listing: string): Promise<Uint8Array | null> => {
    // "MODE TYPE SHA\tPATH" (ls-tree) or "MODE SHA STAGE\tPATH" (ls-files -s): the SHA is hex.
    const sha = /\b([0-9a-f]{40,64})\b/.exec(listing.split("\0")[0] ?? "")?.[1];
    return sha === undefined ? null : await gitBytes(["cat-file", "blob", sha], "--changed");
  };
  return {
    // --literal-pathspecs: a name with `*`, `?` or `[` is that file, not a pattern.
    committed: async (path) => {
      if (!head) return null;
      const listing = await git(["--literal-pathspecs", "ls-tree", "-z", "HEAD", "--", path], "--changed");
      return listing.includes(" blob ") ? await blob(listing) : null;
    },
    staged: async (path) =>
      await blob(await git(["--literal-pathspecs", "ls-files", "-s", "-z", "--", path], "--changed")),
  };
}
