/**
 * Pages of one catalogue's entries: the workbench's `list_entries`, and `/po/read` and
 * `/po/find_fuzzy` when a caller asks for pages. An entry's `index` is its position among the
 * entries `/po/read` returns (header excluded, obsolete entries included); a cursor holds the
 * catalogue's revision and the next index, so a walk in pages neither misses nor repeats an entry,
 * and a cursor into a catalogue that changed since is refused (409).
 *
 * @module
 */
import { entryMessages, type PoCatalog, type PoMessage } from "../po/mod.ts";
import { decodeCursor, encodeCursor, staleCursor } from "./_cursor.ts";
import { type EntryField, type ListedEntry, listedEntry } from "./fields.ts";
import { ENTRY_STATES, type EntryState, entryStates } from "./stats.ts";

/** Largest page of entries (and of search hits). */
export const MAX_PAGE_LIMIT = 1000;

/** What a caller asks of one page. */
export interface PageRequest {
  /** Most entries in the page (1 to {@link MAX_PAGE_LIMIT}). */
  limit: number;
  /** `next_cursor` of the previous page, or null for the first page. */
  cursor: string | null;
  /** Entry fields to return (null: all). */
  fields: readonly EntryField[] | null;
}

/** One page of entries. */
export interface EntryPage {
  entries: ListedEntry[];
  /** The cursor of the next page, or null when this is the last. */
  next_cursor: string | null;
  /** The revision of the catalogue the page was read from. */
  revision: string;
  /** Entries that match, in the whole catalogue. */
  total: number;
}

/** How one list of a catalogue's entries is chosen: its name (for cursors), a digest of the request, which entries. */
export interface EntrySelection {
  kind: string;
  digest: string;
  select: (message: PoMessage, state: EntryState) => boolean;
}

/**
 * One page of the entries of `catalog` (at `revision`) that `selection` keeps, in file order.
 *
 * @throws {InvalidInputError} a cursor of another list or request.
 * @throws {ConflictError} a cursor made on another revision of the catalogue.
 */
export function pageEntries(
  catalog: PoCatalog,
  revision: string,
  displayPath: string,
  selection: EntrySelection,
  page: PageRequest,
): EntryPage {
  let from = 0;
  if (page.cursor !== null) {
    const at = decodeCursor(page.cursor, selection.kind, selection.digest);
    if (at.revision !== revision) throw staleCursor(displayPath, at.revision, revision);
    from = at.index;
  }
  const messages = entryMessages(catalog);
  const states = entryStates(catalog, messages);
  const entries: ListedEntry[] = [];
  let total = 0;
  let next: number | null = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (!selection.select(m, ENTRY_STATES[states[i]!]!)) continue;
    total++;
    if (i < from) continue;
    if (entries.length < page.limit) {
      entries.push(listedEntry(catalog, m, i, page.fields));
    } else if (next === null) next = i;
  }
  return {
    entries,
    next_cursor: next === null
      ? null
      : encodeCursor(selection.kind, selection.digest, { root: 0, path: "", revision, index: next }),
    revision,
    total,
  };
}
