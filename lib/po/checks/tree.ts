/**
 * Checks of whole files and trees, bounded: at most `maxFiles` catalogues, until `deadline`, at
 * most `maxProblems` problems kept (the totals count them all). File access arrives as a
 * {@link CheckTreeIo}: the service's goes through the catalogue store (every file checked against
 * the roots when it is opened), the CLI's reads the paths it is given.
 *
 * The walk is `wrap`'s (`walkTree`, `../tree_walk.ts`): names in code-unit order, `*.po` files only,
 * names starting with `.` skipped, symbolic links met inside the walk not followed.
 *
 * @module
 */
import { PoSyntaxError, TimeoutError } from "../../errors.ts";
import { type EntryKind, walkTree } from "../operations/tree_walk.ts";
import type { PoCatalog } from "../types.ts";
import {
  addTotals,
  checkCatalogInTurns,
  type CheckOptions,
  type CheckProblem,
  type CheckTotals,
} from "./mod.ts";

/** The kind of one directory entry, as `lstat` sees it. */
export type CheckEntryKind = EntryKind;

/** What a check run may ask of the host. */
export interface CheckTreeIo {
  /** "directory" when PATH is a directory the run may walk, else "file" (a missing path too). */
  pathKind(path: string): Promise<"directory" | "file">;
  /** The entries of a directory, in any order. */
  readDir(path: string): Promise<{ name: string; kind: CheckEntryKind }[]>;
  /** Reads and parses one catalogue (throws PoSyntaxError for a file gettext cannot read). */
  read(path: string): Promise<PoCatalog>;
}

/** Bounds of one run. */
export interface CheckTreeLimits {
  /** Most catalogues checked; the walk stops at the next one. */
  maxFiles: number;
  /** Most problems kept in the answer (all are counted). */
  maxProblems: number;
  /** Time (ms since the epoch, by `now`) after which no further file is started. */
  deadline?: number;
  /** Stops the run at the next file. */
  signal?: AbortSignal;
  now?: () => number;
  /** Told after each catalogue is checked (a command's progress bar). */
  onFile?: () => void;
}

/** What a run found. */
export interface CheckTreeResult {
  /** The first `maxProblems` problems, in walk order. */
  problems: CheckProblem[];
  totals: CheckTotals & { files: number; filesWithProblems: number };
  /** True when problems were left out of `problems` (the totals still count them). */
  truncated: boolean;
  /** False when the run stopped early: why (the file limit, the time limit). */
  complete: boolean;
  stoppedBecause: string | null;
}

/** A syntax error as a problem: msgfmt stops there, so does the check. */
function syntaxProblem(path: string, error: PoSyntaxError): CheckProblem {
  return {
    path,
    line: error.line,
    msgctxt: null,
    msgid: "",
    check: "syntax",
    severity: "error",
    message: `gettext cannot read the file: ${error.reason} (column ${error.column})`,
  };
}

/**
 * Checks the catalogues named by `paths`: a file is checked as it is, a directory is walked for
 * `*.po` files. A file that cannot be parsed gives one `syntax` problem; other errors (missing
 * file, outside the roots) are thrown, except inside a walk, where they become a `file` problem
 * and the run goes on.
 *
 * @throws {InvalidInputError} an unknown check name; the io's errors for a PATH given directly.
 * @throws {TimeoutError} when `signal` is aborted before anything was checked.
 */
export async function checkTree(
  paths: readonly string[],
  io: CheckTreeIo,
  options: CheckOptions,
  limits: CheckTreeLimits,
): Promise<CheckTreeResult> {
  const now = limits.now ?? Date.now;
  const problems: CheckProblem[] = [];
  let totals = addTotals([]);
  let files = 0;
  let filesWithProblems = 0;
  let stoppedBecause: string | null = null;
  const keep = (found: CheckProblem[]) => {
    totals = addTotals(found, totals);
    if (found.length > 0) filesWithProblems++;
    for (const p of found) {
      if (problems.length < limits.maxProblems) problems.push(p);
    }
  };
  /** Checks one file; false when the run must stop before it. */
  const checkFile = async (path: string, direct: boolean): Promise<boolean> => {
    if (limits.signal?.aborted) {
      stoppedBecause = "the request's time ran out";
      return false;
    }
    if (limits.deadline !== undefined && now() > limits.deadline) {
      stoppedBecause = "the time limit of the run was reached";
      return false;
    }
    if (files >= limits.maxFiles) {
      stoppedBecause = `the limit of ${limits.maxFiles} files was reached`;
      return false;
    }
    files++;
    let catalog: PoCatalog;
    try {
      catalog = await io.read(path);
    } catch (error) {
      if (error instanceof PoSyntaxError) {
        keep([syntaxProblem(path, error)]);
        return true;
      }
      if (direct || error instanceof TimeoutError) throw error;
      keep([{
        path,
        line: null,
        msgctxt: null,
        msgid: "",
        check: "file",
        severity: "error",
        message: `the file could not be read: ${(error as Error).message}`,
      }]);
      return true;
    }
    keep(await checkCatalogInTurns(catalog, { ...options, path }, limits.signal));
    limits.onFile?.();
    return true;
  };
  walk: for (const path of paths) {
    if ((await io.pathKind(path)) !== "directory") {
      if (!(await checkFile(path, true))) break;
      continue;
    }
    let listed = 0;
    for await (const step of walkTree(path, io)) {
      if ("unlisted" in step) {
        // The directory named by the caller is theirs to fix; one met in the walk is reported.
        if (step.unlisted === path || step.error instanceof TimeoutError) throw step.error;
        keep([{
          path: step.unlisted,
          line: null,
          msgctxt: null,
          msgid: "",
          check: "file",
          severity: "error",
          message: `the directory could not be listed: ${(step.error as Error).message}`,
        }]);
      } else if ("listed" in step) {
        // Directories count toward the bound too: a tree of empty directories is not walked forever.
        listed += step.entries;
        if (listed > limits.maxFiles * 64) {
          stoppedBecause = `more than ${limits.maxFiles * 64} directory entries were listed`;
          break walk;
        }
      } else if (!(await checkFile(step.file, false))) break walk;
    }
  }
  return {
    problems,
    totals: { ...totals, files, filesWithProblems },
    truncated: totals.problems > problems.length,
    complete: stoppedBecause === null,
    stoppedBecause,
  };
}
