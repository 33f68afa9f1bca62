/**
 * The terminology of a catalogue's root, for the tools that check or count terms: the root's
 * `glossary.po` read through the store (path policy, parse cache) and its `.po-terms.csv` read
 * through the store's byte reader (path policy, size limit), built again only when one changed.
 *
 * @module
 */
import { NotFoundError } from "../lib/errors.ts";
import type { PoCatalog } from "../lib/po/mod.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";
import { type LoadedTerminology, TerminologyCache } from "../lib/terms/mod.ts";

const caches = new WeakMap<object, TerminologyCache>();

type Store = Pick<CatalogueStore<PoCatalog>, "roots" | "read" | "readBytes">;

function cacheOf(store: Store): TerminologyCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    const absent = (error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    };
    cache = new TerminologyCache({
      readCatalogue: (path, signal) => store.read(path, { signal }).then((r) => r.doc, absent),
      readBytes: (path, signal) =>
        store.readBytes(path, { signal, extensions: [".csv"] }).then((r) => r.bytes, absent),
    });
    caches.set(store, cache);
  }
  return cache;
}

/** The configured root `path` (absolute) is in, or null. */
export function rootOf(store: { readonly roots: readonly string[] }, path: string): string | null {
  let best: string | null = null;
  for (const root of store.roots) {
    const r = root.endsWith("/") ? root.slice(0, -1) : root;
    if ((path === r || path.startsWith(`${r}/`)) && (best === null || r.length > best.length)) best = r;
  }
  return best;
}

/** The terminology of the root `path` (absolute) is in; null when it is in none. */
export async function terminologyFor(
  store: Store,
  path: string,
  signal?: AbortSignal,
): Promise<LoadedTerminology | null> {
  const root = rootOf(store, path);
  return root === null ? null : await cacheOf(store).forRoot(root, signal);
}
