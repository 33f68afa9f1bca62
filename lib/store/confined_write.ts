/**
 * A command-line write confined to the tree it works on: the file `wrap`, `merge` or `compile`
 * writes while walking a directory (or FILE.mo beside FILE.po) must really be a file of the
 * expected kind inside that directory. A symlink committed in a repository (`app.mo ->
 * ../../../home/.ssh/authorized_keys`) is refused, naming the link; one to a file of the right
 * kind inside the tree is followed. The real path's directories are then checked around every
 * open, create and rename as the store checks them (`_verified_path.ts`), and the file itself is
 * opened without following a link, so a link swapped in after the check is refused too.
 *
 * @module
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import { flatBytes } from "../byte_runs.ts";
import { NotFoundError, OutsideRootsError } from "../errors.ts";
import { type AtomicUpdateOptions, updateFileUnderLock } from "./atomic_write.ts";
import { lstatOrNull, PathChangedError, walkDirectories } from "./_verified_path.ts";
import { NotRegularFileError } from "../regular_read.ts";

/** A write refused because its path leads, through a symlink, outside the tree or to another kind of file. */
export class TreeEscapeError extends OutsideRootsError {}

/** Where {@link confinedUpdateFile} may write. */
export interface Confinement {
  /** The directory the command walks (or the catalogue's own): the real file must lie below it. */
  within: string;
  /** Endings the real file's name must have (`[".mo"]`, `[".po"]`). */
  extensions: readonly string[];
}

/**
 * `atomicUpdateFile`'s locked, atomic read-modify-write of `path`, refused unless the real file
 * (every symlink resolved) lies inside `confinement.within` and its name has one of
 * `confinement.extensions`.
 *
 * @returns whether the file was written.
 * @throws {TreeEscapeError} (an OutsideRootsError) the path leads outside the tree or to a file
 *   of another kind; the message names `path` as given.
 * @throws {NotFoundError} the file's directory does not exist.
 * @throws the errors of `updateFileUnderLock` (not a regular file, too large, a directory changed).
 * @example
 * ```ts
 * await confinedUpdateFile("po/fr.mo", () => bytes, { within: "po", extensions: [".mo"] });
 * ```
 */
export async function confinedUpdateFile(
  path: string,
  fn: (bytes: Uint8Array | null) => Uint8Array | null,
  confinement: Confinement,
  options: AtomicUpdateOptions = {},
): Promise<{ written: boolean }> {
  const tree = await Deno.realPath(resolve(confinement.within));
  for (let attempt = 0; attempt < 3; attempt++) {
    const absolute = resolve(path);
    let real: string;
    try {
      real = await Deno.realPath(absolute);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) throw error;
      if (lstatOrNull(absolute) !== null) throw new NotRegularFileError(path, "a symbolic link");
      const dir = await Deno.realPath(dirname(absolute)).catch(() => null);
      if (dir === null) throw new NotFoundError(`Directory not found: ${dirname(path)}`);
      real = join(dir, basename(absolute));
    }
    const below = relative(tree, real);
    const names = below.split("/");
    const inside = below !== "" && !below.startsWith("../") && below !== ".." && !below.startsWith("/");
    const name = names.at(-1)!;
    if (!inside || !confinement.extensions.some((e) => name.endsWith(e) && name.length > e.length)) {
      throw new TreeEscapeError(
        `Refused: ${path} is a symbolic link (or under one) that leads ${
          inside
            ? "to a file whose name does not end in " + confinement.extensions.join(" or ")
            : "outside " +
              confinement.within
        }; it is not followed`,
      );
    }
    const directories = walkDirectories(tree, names.slice(0, -1));
    if (directories === null) continue; // changed meanwhile: resolved again
    const outcome = await updateFileUnderLock(
      {
        openPath: join(tree, ...names),
        key: real,
        displayPath: path,
        followSymlinks: false,
        directories,
      },
      (current) => fn(current === null ? null : flatBytes(current.bytes)),
      options,
    );
    return { written: outcome.written !== null };
  }
  throw new PathChangedError(`Path changed while it was being opened, refused: ${path}`);
}
