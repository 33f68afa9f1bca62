/**
 * The catalogue listing: filters (path glob, exclude globs, percent bounds, has fuzzy), totals per
 * directory, and pages keyed by position (root, path): a page starts after the last file of the
 * one before, so files that appear or vanish meanwhile never make a page repeat or skip another.
 *
 * @module
 */
import { decodeCursor, encodeCursor } from "./_cursor.ts";
import { globMatcher } from "./_pattern.ts";
import { addCounts, emptyCounts, percentDone, type StateCounts } from "./stats.ts";
import type { CatalogueFile, CatalogueSummary } from "./tree.ts";

/** Which catalogues to list. */
export interface CatalogueFilter {
  /** Keep paths matching this glob (see `globMatcher`), or all when null. */
  glob: string | null;
  /** Drop paths matching any of these globs. */
  exclude: readonly string[];
  /** Keep catalogues at least this percent done (by entries). */
  minPercent: number | null;
  /** Keep catalogues at most this percent done (by entries). */
  maxPercent: number | null;
  /** True: only catalogues with fuzzy entries; false: only those without; null: both. */
  hasFuzzy: boolean | null;
}

/** Totals of the catalogues listed under one directory (its subdirectories included). */
export interface DirectoryTotals {
  root: string;
  /** Relative to the root ("" for the root itself). */
  path: string;
  files: number;
  entries: StateCounts;
  words: StateCounts;
  percent: number;
  percent_words: number;
}

/** One page of the listing. */
export interface CatalogueListing {
  catalogues: CatalogueSummary[];
  /** Totals per directory over every catalogue the filters keep (all pages), on the first page only. */
  directories: DirectoryTotals[] | null;
  /** Catalogues the filters keep, in all pages. */
  total: number;
  next_cursor: string | null;
}

/** The filter as one predicate (globs checked and compiled once). */
export function catalogueFilter(filter: CatalogueFilter): (summary: CatalogueSummary) => boolean {
  const keep = filter.glob === null ? null : globMatcher(filter.glob);
  const drop = filter.exclude.map(globMatcher);
  return (s) => {
    if (keep && !keep(s.path)) return false;
    for (const d of drop) if (d(s.path)) return false;
    const counts = s.counts;
    if (filter.minPercent !== null && (counts === null || counts.percent < filter.minPercent)) return false;
    if (filter.maxPercent !== null && (counts === null || counts.percent > filter.maxPercent)) return false;
    if (filter.hasFuzzy !== null && (counts === null || (counts.entries.fuzzy > 0) !== filter.hasFuzzy)) {
      return false;
    }
    return true;
  };
}

/**
 * A page of `files` (in listing order) that `filter` keeps.
 *
 * @throws {InvalidInputError} a refused glob, or a cursor of another list or request.
 */
export function listCatalogues(
  files: readonly CatalogueFile[],
  rootIndex: (root: string) => number,
  filter: CatalogueFilter,
  page: { limit: number; cursor: string | null; kind: string; digest: string },
): CatalogueListing {
  const keep = catalogueFilter(filter);
  const kept = files.filter((f) => keep(f.summary)).map((f) => f.summary);
  let from = 0;
  if (page.cursor !== null) {
    const at = decodeCursor(page.cursor, page.kind, page.digest);
    from = kept.length;
    for (let k = 0; k < kept.length; k++) {
      const r = rootIndex(kept[k]!.root);
      if (r > at.root || (r === at.root && kept[k]!.path >= at.path)) {
        from = k;
        break;
      }
    }
  }
  const catalogues = kept.slice(from, from + page.limit);
  const after = kept[from + page.limit];
  return {
    catalogues,
    directories: page.cursor === null ? directoryTotals(kept) : null,
    total: kept.length,
    next_cursor: after === undefined ? null : encodeCursor(page.kind, page.digest, {
      root: rootIndex(after.root),
      path: after.path,
      revision: "",
      index: 0,
    }),
  };
}

/** Totals for every directory that holds a listed catalogue, and each of its ancestors, sorted. */
function directoryTotals(summaries: readonly CatalogueSummary[]): DirectoryTotals[] {
  const byKey = new Map<string, DirectoryTotals>();
  for (const s of summaries) {
    const parts = s.path.split("/");
    parts.pop();
    for (let depth = 0; depth <= parts.length; depth++) {
      const path = parts.slice(0, depth).join("/");
      const key = `${s.root}\0${path}`;
      let totals = byKey.get(key);
      if (totals === undefined) {
        totals = {
          root: s.root,
          path,
          files: 0,
          entries: emptyCounts(),
          words: emptyCounts(),
          percent: 100,
          percent_words: 100,
        };
        byKey.set(key, totals);
      }
      totals.files++;
      if (s.counts) {
        addCounts(totals.entries, s.counts.entries);
        addCounts(totals.words, s.counts.words);
      }
    }
  }
  const out = [...byKey.values()];
  for (const t of out) {
    t.percent = percentDone(t.entries);
    t.percent_words = percentDone(t.words);
  }
  return out;
}
