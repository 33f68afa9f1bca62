/**
 * Which files one `wrap` run formats: the PATHs given (a directory is walked for `*.po` files) and,
 * with `--modified`, only the catalogues git reports as changed. File access arrives as a
 * {@link WrapTreeIo}, so the walk is tested without a disk.
 *
 * The walk's rules, chosen so a run over a translation repository formats what powrap would and
 * never leaves it:
 *
 * - A directory is walked depth-first in code-unit order of names, so reports come in a stable order.
 * - Only regular files named `*.po` are taken. `*.pot` templates are left to the tool that
 *   generates them (xgettext, Sphinx); a `.pot` named as a PATH is formatted like any FILE.
 * - Entries whose name starts with `.` (`.git`, `.tox`, `.venv`, editor files) are skipped inside a
 *   walk; a hidden directory or file named as a PATH is still taken.
 * - Symbolic links met inside a walk are not followed, to a directory or to a file (no cycles, no
 *   files outside the tree); a link named as a PATH is followed, as any command follows its
 *   arguments. FIFOs, sockets and devices are skipped in a walk and refused as a PATH.
 * - A file reached twice (named and also inside a walked directory) is formatted once.
 *
 * @module
 */

import { pathFunctions } from "../_paths.ts";

/** The kind of one directory entry, as `lstat` sees it (links are not followed). */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** What the walk may ask of the host. */
export interface WrapTreeIo {
  /** "directory" when PATH is a directory (following a symbolic link), else "other" (even when missing). */
  pathKind(path: string): Promise<"directory" | "other">;
  /** The entries of a directory, in any order. */
  readDir(path: string): Promise<{ name: string; kind: EntryKind }[]>;
}

/** The files of a run, and the PATHs that could not be walked (with the error met). */
export interface WrapTargets {
  files: string[];
  failures: { path: string; error: unknown }[];
  /** For each file found by walking a directory PATH, that PATH (a write must stay inside it). */
  trees: Map<string, string>;
}

/** The kind of a directory entry as `Deno.readDir` reports it (symbolic links not followed). */
export function entryKind(e: { isSymlink: boolean; isDirectory: boolean; isFile: boolean }): EntryKind {
  return e.isSymlink ? "symlink" : e.isDirectory ? "directory" : e.isFile ? "file" : "other";
}

/** What a walk may ask of the host: the entries of a directory, in any order. */
export interface TreeWalkIo {
  readDir(path: string): Promise<{ name: string; kind: EntryKind }[]>;
}

/** Which files a walk takes, and how deep it goes. */
export interface TreeWalkRules {
  /** Whether a regular file of this name is taken (default: `*.po`). */
  take?: (name: string) => boolean;
  /** Subdirectories deeper than this (the directory walked is depth 0) are not entered (default: no limit). */
  maxDepth?: number;
}

/**
 * One step of {@link walkTree}: a file taken, a directory listed (with its number of entries, for
 * the caller's bound on a tree of empty directories), or a directory that could not be listed.
 */
export type TreeWalkStep =
  | { file: string }
  | { listed: string; entries: number }
  | { unlisted: string; error: unknown };

/**
 * Walks the directory `dir` by the module's rules: depth-first, names in code-unit order, hidden
 * entries and symbolic links skipped, files taken by `rules.take`. The one walk of wrap, check,
 * merge, compile, the service's checks and the workbench; each decides what a step means to it
 * (a bound, an error to report or to throw), and stops it by leaving the loop.
 *
 * @example
 * ```ts
 * for await (const step of walkTree("locales", io)) if ("file" in step) console.log(step.file);
 * ```
 */
export async function* walkTree(
  dir: string,
  io: TreeWalkIo,
  rules: TreeWalkRules = {},
): AsyncGenerator<TreeWalkStep> {
  const take = rules.take ?? ((name: string) => name.endsWith(".po"));
  const maxDepth = rules.maxDepth ?? Infinity;
  const { join } = await pathFunctions();
  // An explicit stack: a deep tree cannot exhaust the call stack.
  const stack: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop()!;
    let entries;
    try {
      entries = await io.readDir(path);
    } catch (error) {
      yield { unlisted: path, error };
      continue;
    }
    yield { listed: path, entries: entries.length };
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const { name, kind } of entries) {
      if (name.startsWith(".")) continue;
      const child = join(path, name);
      if (kind === "directory") {
        if (depth < maxDepth) subdirs.push(child);
      } else if (kind === "file" && take(name)) yield { file: child };
    }
    // Reversed onto the stack, so the first subdirectory is walked next.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ path: subdirs[i]!, depth: depth + 1 });
  }
}

/** Most files one run takes (a walk beyond it stops with an error): bounds memory and time. */
export const MAX_WRAP_FILES = 200_000;

/**
 * Expands PATHs into the files to format, in order: a PATH that is a directory becomes the `*.po`
 * files under it (see the module's rules), any other PATH is kept as is (the reader then reports a
 * missing or non-regular file).
 *
 * @example
 * ```ts
 * const { files } = await collectWrapTargets(["locales", "extra/fr.po"], io);
 * ```
 */
export async function collectWrapTargets(paths: readonly string[], io: WrapTreeIo): Promise<WrapTargets> {
  const files: string[] = [];
  const failures: { path: string; error: unknown }[] = [];
  const { normalize } = await pathFunctions();
  const trees = new Map<string, string>();
  const seen = new Set<string>();
  const take = (path: string, tree?: string) => {
    const key = normalize(path);
    if (seen.has(key)) return;
    if (files.length >= MAX_WRAP_FILES) throw new RangeError(`more than ${MAX_WRAP_FILES} files in one run`);
    seen.add(key);
    files.push(path);
    if (tree !== undefined) trees.set(path, tree);
  };
  for (const path of paths) {
    if ((await io.pathKind(path)) !== "directory") {
      take(path);
      continue;
    }
    for await (const step of walkTree(path, io)) {
      if ("file" in step) take(step.file, path);
      else if ("unlisted" in step) failures.push({ path: step.unlisted, error: step.error });
    }
  }
  return { files, failures, trees };
}

/**
 * Keeps the files that lie in one of `paths` (a file itself or anything under a directory); all of
 * them when `paths` is empty. Used by `--modified PATH…`: paths are compared after normalisation,
 * relative to the same working directory.
 */
export async function filesUnder(files: readonly string[], paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [...files];
  const { isAbsolute, normalize, relative } = await pathFunctions();
  const roots = paths.map((p) => normalize(p));
  return files.filter((file) => {
    const f = normalize(file);
    return roots.some((root) => {
      const rel = relative(root, f);
      return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
    });
  });
}
