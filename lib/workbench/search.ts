/**
 * Search across catalogues: a substring (linear: `indexOf`, or a literal case-insensitive
 * expression) or a regular expression run by V8's linear-time engine (see `_pattern.ts`; an
 * expression that is a plain string is searched as one, and one that holds a required plain run of
 * text is run only on the entries holding it, found with `indexOf`) over chosen fields of every entry, with a
 * state and path filter; hits in listing order (root, path, then file order), in pages whose cursor
 * names the file, its revision and the next entry.
 *
 * Cost: an expression's test of one entry reads each character of its fields once per unit of the
 * pattern's weight (`patternWeight`); an entry whose fields × weight exceed
 * {@link MAX_ENTRY_COST} is not tested (the page counts and names it: `unsearched`), so no single
 * test can hold the process. The time budget is looked at before every entry: a page cut by it says
 * so (`truncated`, `reason`) and its cursor continues at the entry not yet searched. The search
 * gives the event loop a turn every few milliseconds, so other requests are answered meanwhile.
 *
 * @module
 */
import type { SearchColumns } from "./_columns.ts";
import { decodeCursor, encodeCursor, staleCursor } from "./_cursor.ts";
import { compileSearchRegex, literalOf, patternWeight, requiredLiteral } from "./_pattern.ts";
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

/** An entry a regular expression was not run on: its fields × the pattern's weight exceed the allowance. */
export interface UnsearchedEntry {
  root: string;
  path: string;
  index: number;
  /** Characters of the searched fields. */
  chars: number;
}

/** A page of hits. */
export interface SearchPage {
  hits: SearchHit[];
  next_cursor: string | null;
  /** True when the page ended because the time budget was spent (more may follow next_cursor). */
  stopped_early: boolean;
  /** True when the page is not all there is for the files it covered, or ended early: see `reason`. */
  truncated: boolean;
  /** Why the page ended early or left entries unsearched, and what to do; null otherwise. */
  reason: string | null;
  /** Catalogues looked into for this page. */
  searched_files: number;
  /** Entries too long for this expression, not tested: how many, and the first few. */
  unsearched: { count: number; entries: UnsearchedEntry[] };
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

/**
 * Most characters × pattern weight one entry's test may read (2^21). V8's linear engine takes up
 * to ~0.1 µs per unit on this kind of machine (bench/complexity.ts), so one test stays under
 * ~0.25 s: a 512-character entry for the heaviest accepted pattern (weight ~4,000), 40 KB for
 * `\bfoo.*bar\b`, 2 MB for a single atom.
 */
export const MAX_ENTRY_COST = 1 << 21;

/** The event loop gets a turn at least this often during a search (ms). */
const TURN_MS = 25;

/** Unsearched entries a page names (it counts them all). */
const MAX_UNSEARCHED_LISTED = 20;

/** A query made ready: its test of one text, its substring finder (null: tested entry by entry), its weight. */
interface Matcher {
  test: (text: string) => boolean;
  find: ((text: string, at: number) => number) | null;
  /** The regular expression's weight (0: a substring search, linear in the text). */
  weight: number;
  /** The substring the columns' index looks for. */
  needle: string;
}

const escapeLiteral = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

function matcherOf(query: SearchQuery): Matcher {
  let needle = query.query;
  // `u`: a substring query folds case as Unicode does; an expression folds it as "i" without "u".
  let flags = "giu";
  if (query.regex) {
    const literal = literalOf(query.query);
    if (literal === null || literal === "") {
      const re = compileSearchRegex(query.query, query.caseInsensitive);
      const test = (text: string) => re.test(text);
      const weight = patternWeight(query.query);
      // Only the entries holding the text every match holds are tested (found with indexOf).
      const required = requiredLiteral(query.query);
      if (required === null) return { test, find: null, weight, needle };
      return { test, find: literalFinder(required, query.caseInsensitive, "gi"), weight, needle: required };
    }
    compileSearchRegex(query.query, query.caseInsensitive); // the same checks and refusals
    needle = literal;
    flags = "gi";
  }
  if (!query.caseInsensitive) {
    return {
      test: (text) => text.includes(needle),
      find: literalFinder(needle, false, flags),
      weight: 0,
      needle,
    };
  }
  // A literal: the engine compares it at each position, nothing to backtrack into.
  const re = new RegExp(escapeLiteral(needle), flags);
  return {
    test: (text) => {
      re.lastIndex = 0;
      return re.test(text);
    },
    find: literalFinder(needle, true, flags),
    weight: 0,
    needle,
  };
}

/** Where `needle` next occurs in a text from `at` on (-1: nowhere), ignoring case as `flags` say. */
function literalFinder(
  needle: string,
  caseInsensitive: boolean,
  flags: string,
): (text: string, at: number) => number {
  if (!caseInsensitive) return (text, at) => text.indexOf(needle, at);
  const re = new RegExp(escapeLiteral(needle), flags);
  return (text, at) => {
    re.lastIndex = at;
    return re.exec(text)?.index ?? -1;
  };
}

/** The predicate of a query: true when a text matches. Checked at once (a refused regex throws here). */
export function textMatcher(query: SearchQuery): (text: string) => boolean {
  return matcherOf(query).test;
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
  options: { now?: () => number; budgetMs?: number; signal?: AbortSignal; maxEntryCost?: number } = {},
): Promise<SearchPage> {
  const { test, find, weight, needle } = matcherOf(query);
  const now = options.now ?? performance.now.bind(performance);
  const budgetMs = options.budgetMs ?? SEARCH_BUDGET_MS;
  const deadline = now() + budgetMs;
  const maxEntryCost = options.maxEntryCost ?? MAX_ENTRY_COST;
  const unsearched: SearchPage["unsearched"] = { count: 0, entries: [] };
  let turn = now();
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
    const candidates = find === null ? null : columns.candidates(query.in, from, find, needle);
    const count = candidates === null ? Math.max(columns.count - from, 0) : candidates.length;
    for (let c = 0; c < count; c++) {
      const i = candidates === null ? from + c : candidates[c]!; // c < count
      // The budget before every entry (no entry's test costs more than maxEntryCost), and a turn
      // of the event loop now and then.
      const t = now();
      if (t > deadline && (k > start || c > 0)) return stopAt(file, revision, i, true);
      if (t - turn > TURN_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        options.signal?.throwIfAborted();
        turn = now();
      }
      if (query.states !== null && !query.states.includes(columns.state(i))) continue;
      if (weight > 0) {
        const chars = columns.textLength(i, query.in);
        if (chars * weight > maxEntryCost) {
          if (unsearched.count++ < MAX_UNSEARCHED_LISTED) {
            unsearched.entries.push({ root: summary.root, path: summary.path, index: i, chars });
          }
          continue;
        }
      }
      if (!columns.matches(i, query.in, test)) continue;
      if (hits.length === page.limit) return stopAt(file, revision, i, false);
      hits.push({ root: summary.root, path: summary.path, revision, ...columns.entry(i, page.fields) });
    }
    if (now() > deadline && k + 1 < files.length) {
      const nextFile = files[k + 1]!;
      return answer(
        encodeCursor(page.kind, page.digest, {
          root: rootIndex(nextFile.summary.root),
          path: nextFile.summary.path,
          revision: "",
          index: 0,
        }),
        true,
      );
    }
  }
  return answer(null, false);

  function stopAt(file: CatalogueFile, revision: string, index: number, early: boolean): SearchPage {
    return answer(
      encodeCursor(page.kind, page.digest, {
        root: rootIndex(file.summary.root),
        path: file.summary.path,
        revision,
        index,
      }),
      early,
    );
  }

  function answer(next: string | null, early: boolean): SearchPage {
    const reasons: string[] = [];
    if (early) {
      reasons.push(
        `the page used its time budget (${budgetMs} ms) after ${searched} catalogue${
          searched === 1 ? "" : "s"
        }: ` +
          "pass next_cursor to go on, or narrow the search (under, glob, states, in)",
      );
    }
    if (unsearched.count > 0) {
      reasons.push(
        `${unsearched.count} entr${unsearched.count === 1 ? "y was" : "ies were"} not searched: their ` +
          `text × the expression's weight (${weight}) exceeds ${maxEntryCost} (listed in unsearched); ` +
          "search them with a substring (regex: false) or a simpler expression",
      );
    }
    return {
      hits,
      next_cursor: next,
      stopped_early: early,
      truncated: reasons.length > 0,
      reason: reasons.length > 0 ? reasons.join("; ") : null,
      searched_files: searched,
      unsearched,
      unreadable,
    };
  }
}
