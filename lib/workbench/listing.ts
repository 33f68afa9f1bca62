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

/**
 * Orders of the listing: by path (root, then path), by percent done (least first), by untranslated
 * entries or words (most first; untranslated here counts fuzzy ones too, what is left to do).
 * Unreadable files come first in every order but path, templates last.
 */
export const CATALOGUE_SORTS = ["path", "percent", "untranslated", "untranslated_words"] as const;

/** One order of {@link CATALOGUE_SORTS}. */
export type CatalogueSort = typeof CATALOGUE_SORTS[number];

/** Totals of the catalogues listed under one directory (its subdirectories included). */
export interface DirectoryTotals {
  root: string;
  /** Relative to the root ("" for the root itself). */
  path: string;
  /** Catalogues (`.po`) under it, unreadable ones included; templates are counted apart. */
  files: number;
  /** Templates (`.pot`) under it: outside the progress totals. */
  templates: number;
  /** Files under it that could not be read: problems, never counted as done. */
  errors: number;
  entries: StateCounts;
  words: StateCounts;
  /** Percent done of the readable catalogues; null when none could be read (all unreadable, or none). */
  percent: number | null;
  percent_words: number | null;
}

/** One page of the listing. */
export interface CatalogueListing {
  catalogues: CatalogueSummary[];
  /** Totals per directory over every catalogue the filters keep (all pages), on the first page only. */
  directories: DirectoryTotals[] | null;
  /** Catalogues the filters keep, in all pages. */
  total: number;
  /** Of those, the files that could not be read (each listed with its `error`). */
  errors: number;
  next_cursor: string | null;
}

/**
 * The filter as one predicate (globs checked and compiled once). A file that could not be read
 * passes every progress filter (its progress is unknown: hiding it would hide a problem); a
 * template has no progress, so a progress filter leaves it out.
 */
export function catalogueFilter(filter: CatalogueFilter): (summary: CatalogueSummary) => boolean {
  const keep = filter.glob === null ? null : globMatcher(filter.glob);
  const drop = filter.exclude.map(globMatcher);
  const progress = filter.minPercent !== null || filter.maxPercent !== null || filter.hasFuzzy !== null;
  return (s) => {
    if (keep && !keep(s.path)) return false;
    for (const d of drop) if (d(s.path)) return false;
    if (s.error !== null) return true;
    if (progress && s.kind === "template") return false;
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
  page: { limit: number; cursor: string | null; kind: string; digest: string; sort?: CatalogueSort },
): CatalogueListing {
  const keep = catalogueFilter(filter);
  const sort = page.sort ?? "path";
  const kept = files.filter((f) => keep(f.summary)).map((f) => f.summary);
  // Pages keyed by position in the order (sort key, root, path): a cursor names the first file of
  // the next page, so a page starts there whatever appeared or vanished meanwhile.
  const keys = new Map(kept.map((s) => [s, sortKey(s, sort)]));
  const compare = (a: CatalogueSummary, b: CatalogueSummary) =>
    keys.get(a)! - keys.get(b)! || rootIndex(a.root) - rootIndex(b.root) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  // Totals in path order, whatever the page's order.
  const directories = page.cursor === null ? directoryTotals(kept) : null;
  if (sort !== "path") kept.sort(compare);
  let from = 0;
  if (page.cursor !== null) {
    const at = decodeCursor(page.cursor, page.kind, page.digest);
    from = kept.length;
    for (let k = 0; k < kept.length; k++) {
      const s = kept[k]!;
      const key = keys.get(s)!;
      const r = rootIndex(s.root);
      if (
        key > at.index || (key === at.index && (r > at.root || (r === at.root && s.path >= at.path)))
      ) {
        from = k;
        break;
      }
    }
  }
  const catalogues = kept.slice(from, from + page.limit);
  const after = kept[from + page.limit];
  return {
    catalogues,
    directories,
    total: kept.length,
    errors: kept.reduce((n, s) => n + (s.error === null ? 0 : 1), 0),
    next_cursor: after === undefined ? null : encodeCursor(page.kind, page.digest, {
      root: rootIndex(after.root),
      path: after.path,
      revision: "",
      index: keys.get(after)!,
    }),
  };
}

/** Past any count of untranslated entries or words a catalogue can have. */
const MOST = 2 ** 52;

/** A file's place in `sort` (ascending, non-negative: a cursor holds it): 0 for every file by path. */
function sortKey(s: CatalogueSummary, sort: CatalogueSort): number {
  if (sort === "path") return 0;
  if (s.error !== null || s.counts === null) return 0;
  if (s.kind === "template") return MOST + 1;
  if (sort === "percent") return 1 + s.counts.percent;
  const left = sort === "untranslated"
    ? s.counts.entries.untranslated + s.counts.entries.fuzzy
    : s.counts.words.untranslated + s.counts.words.fuzzy;
  return MOST - Math.min(left, MOST - 1);
}

/** Totals for every directory that holds a listed catalogue, and each of its ancestors, sorted. */
function directoryTotals(summaries: readonly CatalogueSummary[]): DirectoryTotals[] {
  const byKey = new Map<string, DirectoryTotals>();
  /** Readable catalogues (not templates) under each directory. */
  const readable = new Map<DirectoryTotals, number>();
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
          templates: 0,
          errors: 0,
          entries: emptyCounts(),
          words: emptyCounts(),
          percent: null,
          percent_words: null,
        };
        byKey.set(key, totals);
      }
      if (s.kind === "template") totals.templates++;
      else totals.files++;
      if (s.error !== null) totals.errors++;
      else if (s.counts && s.kind !== "template") {
        readable.set(totals, (readable.get(totals) ?? 0) + 1);
        addCounts(totals.entries, s.counts.entries);
        addCounts(totals.words, s.counts.words);
      }
    }
  }
  const out = [...byKey.values()];
  for (const t of out) {
    // No readable catalogue to count: no percent (an unreadable file is a problem, not 100 % done).
    if ((readable.get(t) ?? 0) === 0) continue;
    t.percent = percentDone(t.entries);
    t.percent_words = percentDone(t.words);
  }
  return out;
}
