/**
 * What the history tools ask of git, and how they read its answers. The process itself is an edge
 * (`routes/git_runner.ts` runs it): here are the interface it is injected through, the arguments
 * built for it, and parsers of `git log --raw -z` and `git cat-file --batch` output that take every
 * byte git prints as hostile (commit subjects, author names and file names are the committers').
 *
 * @module
 */
import { DomainError, NotFoundError, TooLargeError } from "../errors.ts";

/** Runs read-only git commands (see `routes/git_runner.ts` for the real one). */
export interface GitRunner {
  /**
   * Runs `git ARGS` in `cwd` (a directory inside a catalogue root) and resolves its standard output.
   *
   * @throws {GitFailedError} when git exits with an error (its first line of stderr is the message).
   * @throws {GitUnavailableError} when git cannot be run at all (absent, or not permitted).
   * @throws {TooLargeError} when the output exceeds `maxBytes`.
   * @throws the signal's reason once it fires (the process is killed).
   */
  run(cwd: string, args: readonly string[], options: GitRunOptions): Promise<Uint8Array>;
}

/** Options of one {@link GitRunner.run}. */
export interface GitRunOptions {
  /** Most bytes of standard output read: past it the process is killed. */
  maxBytes: number;
  /** Standard input (for `cat-file --batch`), else none. */
  stdin?: Uint8Array;
  signal?: AbortSignal;
}

/** git ran and failed: not a repository, an unknown revision… */
export class GitFailedError extends DomainError {
  override name = "GitFailedError";
}

/** git ran in a directory that is in no git checkout. */
export class NotARepositoryError extends GitFailedError {
  override name = "NotARepositoryError";
}

/** git cannot be run here (not installed, or the process may not run it: `--allow-run=git`). */
export class GitUnavailableError extends DomainError {
  override name = "GitUnavailableError";
}

/** The object id git prints for "no such file on this side" (sha1 or sha256). */
function isNullOid(oid: string): boolean {
  return /^0+$/.test(oid);
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** One file change of a commit, from a `--raw` line. */
export interface RawChange {
  /** A, M, D, R, C, T… (the letter, without a rename score). */
  status: string;
  /** Blob before (null: the file did not exist). */
  oldBlob: string | null;
  /** Blob after (null: deleted, or in the working tree: not hashed). */
  newBlob: string | null;
  /** Path before (the same as `path` unless renamed or copied). */
  oldPath: string;
  /** Path after. */
  path: string;
}

/** A commit of `git log`, with its raw changes. */
export interface LoggedCommit {
  commit: string;
  author: string;
  date: string;
  subject: string;
  changes: RawChange[];
}

/** Separators of {@link LOG_FORMAT}: record, field. */
const RS = "\x1e";
const FS = "\x1f";

/** `--format` of {@link parseRawLog}: the commit, the author date, the author, the subject. */
export const LOG_FORMAT = "--format=%x1e%H%x1f%aI%x1f%an%x1f%s";

/**
 * Parses `git log LOG_FORMAT --raw --no-abbrev -z` output. Read token by token (NUL-separated):
 * a header token starts with the record separator; a raw token (`:mode mode oid oid STATUS`) is
 * followed by one path, or two for a rename or copy, taken by count, so a file name holding any
 * byte at all cannot pass for a header. An author name holding the field separator shifts text into
 * the subject, nothing more.
 */
export function parseRawLog(text: string): LoggedCommit[] {
  const tokens = text.split("\0");
  const commits: LoggedCommit[] = [];
  let current: LoggedCommit | null = null;
  for (let i = 0; i < tokens.length; i++) {
    let token = tokens[i]!;
    if (token.startsWith("\n")) token = token.slice(1);
    if (token === "") continue;
    if (token.startsWith(RS)) {
      const fields = token.slice(1).split(FS);
      const commit = fields[0] ?? "";
      if (!OID.test(commit)) throw new GitFailedError("git log printed an unexpected record");
      current = {
        commit,
        date: fields[1] ?? "",
        author: fields[2] ?? "",
        subject: fields.slice(3).join(" "),
        changes: [],
      };
      commits.push(current);
      continue;
    }
    if (token.startsWith(":") && current !== null) {
      i = readRawChange(tokens, i, token, current.changes);
      continue;
    }
    throw new GitFailedError("git log printed an unexpected token");
  }
  return commits;
}

/**
 * Reads the raw change whose `:…` token is `tokens[i]` (already stripped of a leading newline) into
 * `into`, and returns the index of its last path token.
 */
function readRawChange(tokens: readonly string[], i: number, token: string, into: RawChange[]): number {
  const parts = token.slice(1).split(" ");
  if (parts.length < 5) throw new GitFailedError("git printed an unexpected raw line");
  const status = parts[4]!.charAt(0);
  const oldBlob = parts[2]!;
  const newBlob = parts[3]!;
  const twoPaths = status === "R" || status === "C";
  const first = tokens[++i] ?? "";
  const second = twoPaths ? (tokens[++i] ?? "") : first;
  into.push({
    status,
    oldBlob: isNullOid(oldBlob) ? null : oldBlob,
    newBlob: isNullOid(newBlob) ? null : newBlob,
    oldPath: first,
    path: second,
  });
  return i;
}

/** Parses `git diff --raw --no-abbrev -z` output (no commit headers). */
export function parseRawDiff(text: string): RawChange[] {
  const tokens = text.split("\0");
  const changes: RawChange[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.startsWith("\n") ? tokens[i]!.slice(1) : tokens[i]!;
    if (token === "") continue;
    if (!token.startsWith(":")) throw new GitFailedError("git diff printed an unexpected token");
    i = readRawChange(tokens, i, token, changes);
  }
  return changes;
}

/**
 * Parses `git cat-file --batch` output: for each object `OID TYPE SIZE\n` + SIZE bytes + `\n`, or
 * `NAME missing\n`. Returns the blobs by object id (views into `bytes`).
 */
export function parseCatFileBatch(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const decoder = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    const eol = bytes.indexOf(0x0a, at);
    if (eol < 0) throw new GitFailedError("git cat-file printed an unexpected header");
    const header = decoder.decode(bytes.subarray(at, eol)).split(" ");
    at = eol + 1;
    if (header.length === 2 && header[1] === "missing") continue;
    const size = Number(header[2]);
    if (header.length !== 3 || !OID.test(header[0]!) || !Number.isSafeInteger(size) || size < 0) {
      throw new GitFailedError("git cat-file printed an unexpected header");
    }
    if (at + size > bytes.length) throw new GitFailedError("git cat-file output ended early");
    if (header[1] === "blob") out.set(header[0]!, bytes.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

/** Longest revision name taken (branch names are far shorter). */
export const MAX_REF_CHARS = 256;

/**
 * Checks a revision a caller named (a branch, tag, commit, `HEAD~3`) before it reaches git: no
 * option (a leading `-`), no control characters, no pathspec or range syntax that would make it
 * something other than one commit.
 *
 * @throws {InvalidRefError} when it is not acceptable.
 */
export function checkRef(ref: string): string {
  if (ref.length === 0 || ref.length > MAX_REF_CHARS) {
    throw new InvalidRefError(`ref must be 1 to ${MAX_REF_CHARS} characters`);
  }
  // deno-lint-ignore no-control-regex -- refusing control characters is the point
  if (ref.startsWith("-") || /[\x00-\x20\x7f:]|\.\.|@\{-|^\^|\\/.test(ref)) {
    throw new InvalidRefError(`not a revision name: ${JSON.stringify(ref)}`);
  }
  return ref;
}

/** A revision name refused before git saw it. */
export class InvalidRefError extends DomainError {
  override name = "InvalidRefError";
}

/**
 * The commit `ref` names in the repository of `cwd`.
 *
 * @throws {InvalidRefError} a refused name; {@link NotFoundError} when it names no commit.
 */
export async function resolveCommit(
  git: GitRunner,
  cwd: string,
  ref: string,
  signal?: AbortSignal,
): Promise<string> {
  checkRef(ref);
  let out: Uint8Array;
  try {
    out = await git.run(cwd, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], {
      maxBytes: 1024,
      signal,
    });
  } catch (error) {
    if (error instanceof GitFailedError && !(error instanceof NotARepositoryError)) {
      throw new NotFoundError(`Unknown revision: ${ref}`);
    }
    throw error;
  }
  const oid = new TextDecoder().decode(out).trim();
  if (!OID.test(oid)) throw new NotFoundError(`Unknown revision: ${ref}`);
  return oid;
}

/** Most bytes one `cat-file --batch` of several blobs may print (one blob alone: its own limit). */
const MAX_BATCH_BYTES = 64 * 1024 * 1024;

/**
 * The blobs of `oids` (object ids), fetched with one `git cat-file --batch` per `batch` of them; a
 * batch printing more than 64 MiB is fetched again one blob at a time, each up to `maxBlobBytes`.
 * Blobs over `maxBlobBytes` are left out (the caller counts them unreadable).
 */
export async function readBlobs(
  git: GitRunner,
  cwd: string,
  oids: readonly string[],
  options: { maxBlobBytes: number; batch: number; signal?: AbortSignal },
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const unique = [...new Set(oids)].filter((oid) => OID.test(oid));
  const fetch = async (group: string[], maxBytes: number) => {
    const stdin = new TextEncoder().encode(group.map((oid) => `${oid}\n`).join(""));
    const bytes = await git.run(cwd, ["cat-file", "--batch"], { stdin, maxBytes, signal: options.signal });
    for (const [oid, blob] of parseCatFileBatch(bytes)) {
      if (blob.length <= options.maxBlobBytes) out.set(oid, blob);
    }
  };
  for (let i = 0; i < unique.length; i += options.batch) {
    options.signal?.throwIfAborted();
    const group = unique.slice(i, i + options.batch);
    try {
      await fetch(group, Math.min(MAX_BATCH_BYTES, group.length * (options.maxBlobBytes + 128)));
    } catch (error) {
      if (!(error instanceof TooLargeError)) throw error;
      for (const oid of group) {
        try {
          await fetch([oid], options.maxBlobBytes + 128);
        } catch (single) {
          if (!(single instanceof TooLargeError)) throw single;
        }
      }
    }
  }
  return out;
}
