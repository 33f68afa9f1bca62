/**
 * Path policy for catalogue files: which user-supplied paths the service may open, and under which
 * spelling.
 *
 * A path is accepted when it is an absolute `.po`/`.pot` path whose real location (every symlink
 * resolved with `Deno.realPath`) lies inside the real location of one of the configured roots. The
 * file is then opened under the root's *configured* spelling (`lexicalPath`), because Deno's
 * `--allow-read`/`--allow-write` lists are matched lexically: a root configured as `/srv/po` (a
 * symlink to `/data/po`) is only readable as `/srv/po/...`.
 *
 * Symlinks inside the roots that point inside the roots are followed, but only once verified: the
 * real path below the root is walked component by component with `lstat` (each must be a real
 * directory, the last a regular file), and the identity (device, inode) of every directory is kept
 * in {@link ResolvedCataloguePath.directories}. The store checks those identities again right before
 * and after every open, create and rename (see `_verified_path.ts`), so a directory swapped for a
 * symlink after the check is noticed instead of followed. A symlink anywhere below the root whose
 * target is outside every root is refused, whatever it points to.
 *
 * Error messages echo the path the caller gave, never a resolved path; a path outside the roots is
 * answered with the configured roots, as configured (`Path is outside the catalogue roots (/srv/po,
 * /srv/other): PATH`), so a caller learns where catalogues may be, and nothing else about the file
 * system. Only authorised callers reach the store (the API token is checked before).
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, normalize, relative } from "node:path";
import { InvalidInputError, NotFoundError, OutsideRootsError, TooLargeError } from "../errors.ts";
import {
  directoriesUnchanged,
  lstatOrNull,
  PathChangedError,
  type VerifiedDirectory,
  walkDirectories,
} from "./_verified_path.ts";
import { StoreSetupError } from "./lock_dir.ts";
import { DEFAULT_MAX_FILE_BYTES, fileKind, NotRegularFileError } from "../regular_read.ts";

export { PathChangedError, type VerifiedDirectory };

// Both live with the store's Deno-only read, which the `wrap` command loads without the rest.
export { DEFAULT_MAX_FILE_BYTES, NotRegularFileError };

/** File name endings a catalogue path must have. */
export const CATALOGUE_EXTENSIONS = [".po", ".pot"] as const;

/** Options of {@link resolveCataloguePath}. */
export interface PathPolicyOptions {
  /** True for reads: a missing file is a {@link NotFoundError}. False for writes: a missing file is fine
   * when its directory exists inside a root. */
  mustExist: boolean;
  /** Largest accepted file size in bytes (default {@link DEFAULT_MAX_FILE_BYTES}). */
  maxBytes?: number;
  /** Endings the file name must have (default {@link CATALOGUE_EXTENSIONS}; `[".mo"]` for compiled catalogues). */
  extensions?: readonly string[];
}

/** A user path that passed the policy. */
export interface ResolvedCataloguePath {
  /** The path exactly as the caller gave it (the only spelling used in messages). */
  userPath: string;
  /** The path to open: the configured root's spelling joined with the real path below the real root.
   * It contains no symlink below the root, and the sandbox's lexical allow-list accepts it. */
  lexicalPath: string;
  /** The real path (symlinks resolved). For a file that does not exist yet: the real path of its
   * directory joined with its name. The key for caches and locks. */
  realPath: string;
  /** The configured root (as configured) that contains the file. */
  root: string;
  /** `Deno.realPath` of that root. */
  realRoot: string;
  /** `Deno.lstat` of the file, or null when it does not exist (only possible with `mustExist: false`). */
  stat: Deno.FileInfo | null;
  /** The configured root, then every directory below it down to the file's own, each with the
   * identity it had when checked: the store re-checks them around every use of `lexicalPath`. */
  directories: readonly VerifiedDirectory[];
}

/**
 * Checks a user-supplied catalogue path against the configured roots and returns where to open it.
 *
 * Order of checks: syntax (a string, absolute, no NUL, ends in `.po`/`.pot`), then `..` segments are
 * normalised lexically, then the real location must lie inside a root (for a missing file, its
 * nearest existing ancestor decides, so probing paths outside the roots always gives
 * {@link OutsideRootsError}, never "not found"), then existence, file type and size.
 *
 * @param roots configured catalogue roots, absolute, as configured (symlinks allowed).
 * @param userPath the path from the request.
 * @throws {InvalidInputError} a malformed path (not a string, relative, NUL byte, lone surrogate, wrong
 *   extension), or not a regular file ({@link NotRegularFileError}: directory, FIFO, socket, device;
 *   for a write, also a dangling symlink or a loop at the file's own name). A symlink loop counts as a
 *   missing file for a read.
 * @throws {OutsideRootsError} the real location is outside every root, or the sandbox refused the path
 *   (`Deno.errors.NotCapable`).
 * @throws {NotFoundError} `File not found: PATH` (with `mustExist`), or `Directory not found: DIR` when
 *   the directory of a file to create does not exist.
 * @throws {TooLargeError} the file is larger than `maxBytes`.
 * @throws {PathChangedError} (an {@link OutsideRootsError}) the path kept changing while it was
 *   checked (a component replaced, e.g. a directory swapped for a symlink), three times in a row.
 * @example
 * ```ts
 * const p = await resolveCataloguePath(["/srv/po"], "/srv/po/fr/app.po", { mustExist: true });
 * const bytes = await Deno.readFile(p.lexicalPath);
 * ```
 */
export async function resolveCataloguePath(
  roots: readonly string[],
  userPath: string,
  options: PathPolicyOptions,
): Promise<ResolvedCataloguePath> {
  const extensions = options.extensions ?? CATALOGUE_EXTENSIONS;
  const normalised = checkCataloguePathSyntax(userPath, extensions);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  try {
    // A walk that finds something other than what realPath saw means a component changed in
    // between: resolved again, a few times, then refused.
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await resolveOnce(roots, normalised, userPath, options.mustExist, maxBytes, extensions);
      if (found !== null) return found;
    }
    throw new PathChangedError(`Path changed while it was being opened, refused: ${userPath}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw outside(roots, userPath, error);
    throw error;
  }
}

/** One resolution; null when the file system changed under it (the caller tries again). */
async function resolveOnce(
  roots: readonly string[],
  normalised: string,
  userPath: string,
  mustExist: boolean,
  maxBytes: number,
  extensions: readonly string[],
): Promise<ResolvedCataloguePath | null> {
  // Asked at once (each file-system call is a trip to a worker thread): the roots and the real path.
  const [realRoots, real] = await Promise.all([resolveRoots(roots), realPathOrNull(normalised)]);
  if (real !== null) {
    const inside = findRoot(realRoots, real);
    if (!inside) throw outside(roots, userPath);
    // A symlink is followed only to a file the caller could have named: one of the expected kind
    // (a `.mo` link to `.git/hooks/pre-commit` is refused, not replaced).
    if (!hasExtension(basename(real), extensions)) throw new SymlinkRefusedError(userPath, extensions);
    const names = relative(inside.realRoot, real).split("/");
    const lexicalPath = join(inside.root, ...names);
    // The real path has no symlink below the root: every component is lstat'ed to make sure it
    // still has none, and the directories' identities are kept for the checks around each use.
    const directories = walkDirectories(inside.root, names.slice(0, -1));
    const stat = directories && lstatOrNull(lexicalPath);
    if (!stat || stat.isSymlink || !directoriesUnchanged(directories!)) return null;
    checkRegularFile(stat, userPath, maxBytes);
    return { userPath, lexicalPath, realPath: real, ...inside, stat, directories: directories! };
  }
  // The file does not exist (or is a dangling symlink or a loop, refused below for a write).
  // The nearest existing ancestor decides containment, so a probe outside the roots learns nothing.
  const parent = dirname(normalised);
  const anchor = await nearestExistingAncestor(normalised);
  const inside = anchor && (findRoot(realRoots, anchor.real) ?? exactRoot(realRoots, anchor.real));
  if (!anchor || !inside) throw outside(roots, userPath);
  if (mustExist) throw new NotFoundError(`File not found: ${userPath}`);
  const dirNames = anchor.real === inside.realRoot ? [] : relative(inside.realRoot, anchor.real).split("/");
  const anchorLexical = join(inside.root, ...dirNames);
  // The root's own spelling may be a symlink; below it, a symlink now means it changed since realPath.
  const anchorStat = dirNames.length === 0 ? Deno.statSync(anchorLexical) : lstatOrNull(anchorLexical);
  if (anchorStat === null || anchorStat.isSymlink) return null;
  if (!anchorStat.isDirectory) throw new InvalidInputError(`Not a directory: ${anchor.path}`);
  if (anchor.path !== parent) throw new NotFoundError(`Directory not found: ${parent}`);
  const directories = walkDirectories(inside.root, dirNames);
  if (directories === null) return null;
  const lexicalPath = join(anchorLexical, basename(normalised));
  const leaf = lstatOrNull(lexicalPath);
  if (leaf !== null && !leaf.isSymlink) return null; // created meanwhile: resolved again as a file
  if (leaf !== null) throw new NotRegularFileError(userPath, "a symbolic link");
  const realPath = join(anchor.real, basename(normalised));
  return { userPath, lexicalPath, realPath, ...inside, stat: null, directories };
}

/**
 * A path whose real file (symlinks resolved) is not of the kind asked for: a symlink named `x.mo`
 * or `x.po` that leads to a file of another name (a hook, a key file) inside the roots. The
 * message names the link as the caller gave it, never where it leads.
 */
export class SymlinkRefusedError extends OutsideRootsError {
  constructor(userPath: string, extensions: readonly string[]) {
    super(
      `Refused: ${userPath} is a symbolic link to a file whose name does not end in ${
        extensions.join(" or ")
      }; a link is followed only to a file that could be named itself`,
    );
  }
}

function hasExtension(name: string, extensions: readonly string[]): boolean {
  return extensions.some((e) => name.endsWith(e) && name.length > e.length);
}

/**
 * Checks the syntax of a catalogue path and returns it normalised (`.`, `..` and `//` resolved
 * lexically). Does not touch the file system.
 *
 * @throws {InvalidInputError} not a string, empty, contains NUL or a lone surrogate, relative, or not
 *   ending in `.po`/`.pot`.
 * @example
 * ```ts
 * checkCataloguePathSyntax("/srv/po/../po/fr.po"); // "/srv/po/fr.po"
 * ```
 */
export function checkCataloguePathSyntax(
  userPath: unknown,
  extensions: readonly string[] = CATALOGUE_EXTENSIONS,
): string {
  if (typeof userPath !== "string") throw new InvalidInputError("Invalid file path: expected a string");
  if (userPath === "") throw new InvalidInputError("Invalid file path: must not be empty");
  if (userPath.includes("\0")) {
    throw new InvalidInputError(`Invalid file path: contains a NUL byte: ${JSON.stringify(userPath)}`);
  }
  if (!userPath.isWellFormed()) {
    // The file system would get U+FFFD in its place: a different name than the one asked for.
    throw new InvalidInputError(
      `Invalid file path: contains a lone UTF-16 surrogate: ${JSON.stringify(userPath)}`,
    );
  }
  if (!isAbsolute(userPath)) {
    throw new InvalidInputError(`Invalid file path: must be absolute: ${userPath}`);
  }
  const normalised = normalize(userPath);
  const name = basename(normalised);
  if (normalised.endsWith("/") || !hasExtension(name, extensions)) {
    const endings = extensions.length === 1
      ? extensions[0]
      : `${extensions.slice(0, -1).join(", ")} or ${extensions.at(-1)}`;
    throw new InvalidInputError(`Invalid file path: must end in ${endings}: ${userPath}`);
  }
  return normalised;
}

/**
 * Throws unless `stat` describes a regular file of at most `maxBytes` bytes.
 *
 * @throws {NotRegularFileError} `Not a regular file: PATH` (directory, FIFO, socket, device, symlink).
 * @throws {TooLargeError} larger than `maxBytes`.
 */
export function checkRegularFile(stat: Deno.FileInfo, displayPath: string, maxBytes: number): void {
  if (!stat.isFile) throw new NotRegularFileError(displayPath, fileKind(stat));
  if (stat.size > maxBytes) {
    throw new TooLargeError(
      `File too large: ${displayPath} is ${stat.size} bytes, the limit is ${maxBytes} bytes`,
    );
  }
}

/**
 * Checks, at start-up, that every catalogue root is a directory this process can list: a root that
 * does not exist (a typo in `PO_ROOTS`) would otherwise turn every path inside it into "outside the
 * catalogue roots". Symlinks are followed (a root may be one). Nothing is created.
 *
 * @throws {StoreSetupError} one line naming the first unusable root and why (`PO_ROOTS: …`).
 * @example
 * ```ts
 * checkRoots(["/srv/po"]); // throws "PO_ROOTS: /srv/po does not exist" when it does not
 * ```
 */
export function checkRoots(roots: readonly string[]): void {
  for (const root of roots) {
    const fail = (why: string, cause?: unknown) =>
      new StoreSetupError(`catalogue root ${root} ${why}`, "PO_ROOTS", { cause });
    try {
      if (!Deno.statSync(root).isDirectory) throw fail("is not a directory");
      for (const _ of Deno.readDirSync(root)) break;
    } catch (error) {
      if (error instanceof StoreSetupError) throw error;
      if (isMissing(error)) throw fail("does not exist", error);
      if (error instanceof Deno.errors.NotCapable) {
        throw fail(`may not be read by this process (run it with --allow-read=${root})`, error);
      }
      if (error instanceof Deno.errors.PermissionDenied) {
        throw fail("cannot be read (permission denied)", error);
      }
      if (error instanceof Deno.errors.FilesystemLoop) throw fail("is a symlink loop", error);
      throw fail(`cannot be read: ${(error as Error).message.split("\n")[0]}`, error);
    }
  }
}

interface RealRoot {
  root: string;
  realRoot: string;
}

/**
 * The refusal of a path outside every root: `Path is outside the catalogue roots (ROOT, …): PATH`,
 * the roots as configured.
 *
 * @example
 * ```ts
 * outsideRootsError(["/srv/po"], "/etc/x.po").message;
 * // "Path is outside the catalogue roots (/srv/po): /etc/x.po"
 * ```
 */
export function outsideRootsError(
  roots: readonly string[],
  userPath: string,
  cause?: unknown,
): OutsideRootsError {
  const shown = roots.map((r) => stripTrailingSlash(normalize(r))).join(", ");
  return new OutsideRootsError(`Path is outside the catalogue roots (${shown}): ${userPath}`, { cause });
}

const outside = outsideRootsError;

/** Real paths of the roots that exist now (a missing root contains nothing). Resolved on every call,
 * so retargeting a root symlink takes effect at once. */
async function resolveRoots(roots: readonly string[]): Promise<RealRoot[]> {
  const found = await Promise.all(roots.map(async (configured): Promise<RealRoot | null> => {
    if (!isAbsolute(configured)) throw new TypeError(`catalogue root must be absolute: ${configured}`);
    const root = stripTrailingSlash(normalize(configured));
    try {
      return { root, realRoot: await Deno.realPath(root) };
    } catch (error) {
      if (!isMissing(error) && !(error instanceof Deno.errors.NotCapable)) throw error;
      return null;
    }
  }));
  return found.filter((r) => r !== null);
}

function stripTrailingSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

/** The first root strictly containing `real`. */
function findRoot(realRoots: RealRoot[], real: string): RealRoot | undefined {
  return realRoots.find(({ realRoot }) =>
    real.startsWith(realRoot.endsWith("/") ? realRoot : `${realRoot}/`)
  );
}

/** The root whose real path is `real` itself (a new file directly in a root). */
function exactRoot(realRoots: RealRoot[], real: string): RealRoot | undefined {
  return realRoots.find(({ realRoot }) => realRoot === real);
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

/** The real path, or null when `p` leads to no file: missing, or a symlink loop (which, like a
 * dangling symlink, is then judged by its nearest existing ancestor). */
async function realPathOrNull(p: string): Promise<string | null> {
  try {
    return await Deno.realPath(p);
  } catch (error) {
    if (isMissing(error) || error instanceof Deno.errors.FilesystemLoop) return null;
    throw error;
  }
}

/** Walks up from a missing path to the first ancestor that exists (its spelling and real path). */
async function nearestExistingAncestor(missing: string): Promise<{ path: string; real: string } | null> {
  let p = missing;
  while (p !== dirname(p)) {
    p = dirname(p);
    const real = await realPathOrNull(p);
    if (real !== null) return { path: p, real };
  }
  return null;
}
