/**
 * The service's file access for a check run over catalogues and directories under the roots (the
 * {@link CheckTreeIo} of `checkTree`): catalogues are read through the store, directories are
 * listed only inside the roots.
 *
 * @module
 */
import { InvalidInputError, TooLargeError } from "../errors.ts";
import { type CheckTreeIo, type EntryKind, entryKind, type PoCatalog } from "../po/mod.ts";
import { outsideRootsError } from "./path_policy.ts";

/** Most entries one directory may have for the service's walk. */
export const MAX_DIRECTORY_ENTRIES = 100_000;

/**
 * The service's {@link CheckTreeIo}: catalogues are read through the store (path policy, cache,
 * size limit, checked at the moment they are opened); a directory may be walked when its real
 * path lies inside a root's, and symbolic links in it are not followed (each file read is still
 * checked by the store, so a directory swapped for a link between the listing and the read
 * gives a `file` problem, never an outside file).
 */
export function catalogueStoreIo(
  store: {
    roots: readonly string[];
    read(path: string, options: { signal?: AbortSignal }): Promise<{ doc: PoCatalog }>;
  },
  signal?: AbortSignal,
): CheckTreeIo {
  let realRoots: Promise<string[]> | undefined;
  const insideRoots = async (path: string): Promise<string | null> => {
    realRoots ??= Promise.all(store.roots.map((r) => Deno.realPath(r).catch(() => "\0")));
    let real: string;
    try {
      real = await Deno.realPath(path);
    } catch {
      return null;
    }
    const roots = await realRoots;
    return roots.some((r) => real === r || real.startsWith(r.endsWith("/") ? r : `${r}/`)) ? real : null;
  };
  return {
    async pathKind(path) {
      if (path.endsWith(".po") || path.endsWith(".pot")) return "file";
      const real = await insideRoots(path);
      if (real === null) throw outsideRootsError(store.roots, path);
      const stat = await Deno.stat(real);
      if (!stat.isDirectory) throw new InvalidInputError(`Not a directory or a .po file: ${path}`);
      return "directory";
    },
    async readDir(path) {
      if ((await insideRoots(path)) === null) throw outsideRootsError(store.roots, path);
      const entries: { name: string; kind: EntryKind }[] = [];
      for await (const e of Deno.readDir(path)) {
        // A directory of millions of entries is not listed whole: the walk's own bound is far lower.
        if (entries.length >= MAX_DIRECTORY_ENTRIES) {
          throw new TooLargeError(`Directory has more than ${MAX_DIRECTORY_ENTRIES} entries: ${path}`);
        }
        entries.push({ name: e.name, kind: entryKind(e) });
      }
      return entries;
    },
    read: async (path) => (await store.read(path, { signal })).doc,
  };
}
