/**
 * Search across catalogues: a substring (linear: `indexOf`, or a literal case-insensitive
 * expression) or a checked regular expression (see `_pattern.ts`) over chosen fields of every entry,
 * with a state and path filter; hits in listing order (root, path, then file order), in pages whose
 * cursor names the file, its revision and the next entry. A page also ends when the search has
 * used its time budget: the answer then says so, and its cursor continues where it stopped.
 *
 * @module
 */
import type { SearchColumns } from "./_columns.ts";
import { decodeCursor, encodeCursor, staleCursor } from "./_cursor.ts";
import { compileSearchRegex } from "./_pattern.ts";
import { type PageRequest } from "./entries.ts";
import type { ListedEntry } from "./fields.ts";
import type { EntryState } from "./stats.ts";
import type { CatalogueFile } from "./tree.ts";

/** Fields a search may look in. */
export const SEARCH_FIELDS = ["msgid", "msgstr", "msgctxt", "comments"] as const;

/** One field a search looks in (`msgstr` includes plural forms; `comments` both kinds of comment). */
export type SearchField = typeof SEARCH_FIELDS[number];

/** What to look for. */
export interface SearchQuery {
  query: string;
  regex: boolean;
  caseInsensitive: boolean;
  in: readonly SearchField[];
  /** States to keep (null: all). */
  states: readonly EntryState[] | null;
}

/** One hit: the file, the entry's position and state, and the entry's selected fields. */
export type SearchHit = { root: string; path: string; revision: string } & ListedEntry;

/** A page of hits. */
export interface SearchPage {
  hits: SearchHit[];
  next_cursor: string | null;
  /** True when the page ended because the time budget was spent (more may follow next_cursor). */
  stopped_early: boolean;
  /** Catalogues looked into for this page. */
  searched_files: number;
  /**
   * Files this page passed over because they cannot be read (the first {@link MAX_LISTED_UNREADABLE}),
   * with why: a search never skips a file without a word.
   */
  unreadable: { root: string; path: string; error: string }[];
}

/** Unreadable files one search page names at most. */
export const MAX_LISTED_UNREADABLE = 100;

/** How the search gets a listed file's entries: its kept columns, or the file read again. */
export type ReadCatalogue = (file: CatalogueFile) => Promise<{ columns: SearchColumns; revision: string }>;

/** Time a search page may take before it ends early (ms). */
export const SEARCH_BUDGET_MS = 2000;

/** The predicate of a query: true when a text matches. Checked at once (a refused regex throws here). */
export function textMatcher(query: SearchQuery): (text: string) => boolean {
  if (query.regex) {
    const re = compileSearchRegex(query.query, query.caseInsensitive);
    return (text) => re.test(text);
  }
  if (query.caseInsensitive) {
    // A literal: irregexp scans it in linear time.
    const re = new RegExp(query.query.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "iu");
    return (text) => re.test(text);
  }
  const needle = query.query;
  return (text) => text.includes(needle);
}

/** How the columns find a substring query (null: a regular expression, tested entry by entry). */
function indexFinder(query: SearchQuery): ((text: string, at: number) => number) | null {
  if (query.regex) return null;
  if (!query.caseInsensitive) {
    const needle = query.query;
    return (text, at) => text.indexOf(needle, at);
  }
  const re = new RegExp(query.query.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "giu");
  return (text, at) => {
    re.lastIndex = at;
    return re.exec(text)?.index ?? -1;
  };
}

/**
 * One page of hits over `files` (in their listing order).
 *
 * @throws {InvalidInputError} a refused regular expression, or a cursor of another request.
 * @throws {ConflictError} the cursor's file changed since the page was made.
 */
export async function searchCatalogues(
  files: readonly CatalogueFile[],
  rootIndex: (root: string) => number,
  query: SearchQuery,
  page: PageRequest & { kind: string; digest: string },
  read: ReadCatalogue,
  options: { now?: () => number; budgetMs?: number; signal?: AbortSignal } = {},
): Promise<SearchPage> {
  const test = textMatcher(query);
  const find = indexFinder(query);
  const now = options.now ?? performance.now.bind(performance);
  const deadline = now() + (options.budgetMs ?? SEARCH_BUDGET_MS);
  let start = 0;
  let fromIndex = 0;
  let expectRevision: string | null = null;
  if (page.cursor !== null) {
    const at = decodeCursor(page.cursor, page.kind, page.digest);
    // The first file at or after the cursor's, in listing order (root, then path).
    start = files.length;
    for (let k = 0; k < files.length; k++) {
      const r = rootIndex(files[k]!.summary.root);
      if (r > at.root || (r === at.root && files[k]!.summary.path >= at.path)) {
        start = k;
        break;
      }
    }
    const there = files[start];
    if (there && rootIndex(there.summary.root) === at.root && there.summary.path === at.path) {
      fromIndex = at.index;
      expectRevision = at.revision;
    } else if (at.index > 0) {
      throw staleCursor(at.path, at.revision, null);
    }
  }
  const hits: SearchHit[] = [];
  const unreadable: SearchPage["unreadable"] = [];
  let searched = 0;
  for (let k = start; k < files.length; k++) {
    const file = files[k]!;
    const { summary } = file;
    if (summary.error !== null || summary.revision === null) {
      if (unreadable.length < MAX_LISTED_UNREADABLE) {
        unreadable.push({ root: summary.root, path: summary.path, error: summary.error ?? "not readable" });
      }
      continue;
    }
    const { columns, revision } = await read(file);
    const from = k === start ? fromIndex : 0;
    if (k === start && expectRevision !== null && expectRevision !== "" && expectRevision !== revision) {
      throw staleCursor(summary.path, expectRevision, revision);
    }
    searched++;
    // A substring is found with one indexOf per occurrence over each field's whole text; each
    // candidate is then checked as every entry would be.
    const candidates = find === null ? null : columns.candidates(query.in, from, find, query.query);
    const count = candidates === null ? Math.max(columns.count - from, 0) : candidates.length;
    for (let c = 0; c < count; c++) {
      const i = candidates === null ? from + c : candidates[c]!; // c < count
      if ((c & 1023) === 1023) {
        options.signal?.throwIfAborted();
        if (now() > deadline) return stopAt(file, revision, i, true);
      }
      if (query.states !== null && !query.states.includes(columns.state(i))) continue;
      if (!columns.matches(i, query.in, test)) continue;
      if (hits.length === page.limit) return stopAt(file, revision, i, false);
      hits.push({ root: summary.root, path: summary.path, revision, ...columns.entry(i, page.fields) });
    }
    if (now() > deadline && k + 1 < files.length) {
      const nextFile = files[k + 1]!;
      return {
        hits,
        next_cursor: encodeCursor(page.kind, page.digest, {
          root: rootIndex(nextFile.summary.root),
          path: nextFile.summary.path,
          revision: "",
          index: 0,
        }),
        stopped_early: true,
        searched_files: searched,
        unreadable,
      };
    }
  }
  return { hits, next_cursor: null, stopped_early: false, searched_files: searched, unreadable };

  function stopAt(file: CatalogueFile, revision: string, index: number, early: boolean): SearchPage {
    return {
      hits,
      next_cursor: encodeCursor(page.kind, page.digest, {
        root: rootIndex(file.summary.root),
        path: file.summary.path,
        revision,
        index,
      }),
      stopped_early: early,
      searched_files: searched,
      unreadable,
    };
  }
}
