/**
 * Catalogue operations behind the `/po/*` read tools: the JSON shape of an entry, listing, fuzzy
 * search and a context window around one entry (writes are `apply_write.ts`). No HTTP here.
 *
 * @module
 */
import { entryIndexes } from "../_identity_caches.ts";
import { isHeader, type PoCatalog, type PoMessage, type PoReference } from "../types.ts";

/** An entry as the JSON API returns it (snake_case, as the Python service did). */
export interface ApiEntry {
  msgid: string;
  /** The translation; "" for a plural entry (see `msgstr_plural`). */
  msgstr: string;
  msgctxt: string | null;
  /** Extracted comments (`#.`), one per line, joined with "\n". */
  comment: string;
  /** Translator comments (`#`), one per line, joined with "\n". */
  tcomment: string;
  /** References as `file:line`, or `file` when there is no line number (`./` prefixes kept). */
  occurrences: string[];
  flags: string[];
  msgid_plural: string | null;
  /** Plural forms by index ("0", "1", …); {} for a non-plural entry. */
  msgstr_plural: Record<string, string>;
  previous_msgid: string | null;
  previous_msgctxt: string | null;
  obsolete: boolean;
}

function occurrence(r: PoReference): string {
  return r.line === null ? r.file : `${r.file}:${r.line}`;
}

/**
 * The JSON shape of a message.
 *
 * @example
 * ```ts
 * toApiEntry(message).occurrences; // ["src/app.py:12", "README"]
 * ```
 */
export function toApiEntry(m: PoMessage): ApiEntry {
  const plural: Record<string, string> = {};
  if (m.msgidPlural !== null && m.msgstrPlural) m.msgstrPlural.forEach((s, i) => plural[String(i)] = s);
  return {
    msgid: m.msgid,
    msgstr: m.msgidPlural !== null ? "" : m.msgstr,
    msgctxt: m.msgctxt,
    comment: m.extractedComments.join("\n"),
    tcomment: m.translatorComments.join("\n"),
    occurrences: m.references.map(occurrence),
    flags: [...m.flags],
    msgid_plural: m.msgidPlural,
    msgstr_plural: plural,
    previous_msgid: m.previousMsgid,
    previous_msgctxt: m.previousMsgctxt,
    obsolete: m.obsolete,
  };
}

/** Every entry's message in file order: the header excluded, obsolete (`#~`) entries included. */
export function entryMessages(cat: PoCatalog): readonly PoMessage[] {
  return entryIndex(cat).list;
}

/** The messages of the entries flagged `fuzzy`, in file order (as {@link findFuzzy}). */
export function fuzzyMessages(cat: PoCatalog): readonly PoMessage[] {
  return entryIndex(cat).list.filter((m) => m.flags.includes("fuzzy"));
}

/** Entries without the header, and the first position of each (msgctxt, msgid), per catalogue. */
export interface EntryIndex {
  list: PoMessage[];
  /**
   * msgid → position of its first entry, or, when several share the msgid, the first position of
   * each distinct msgctxt by msgctxt (keyed by the msgid string alone: no key string built per
   * entry, and no list of contexts scanned: N entries sharing one msgid cost O(N)).
   */
  first: Map<string, number | Map<string | null, number>>;
}

// Catalogues are immutable values (a write makes a new one), so the index is built once per
// catalogue (`entryIndexes`) and a read of a cached catalogue costs a map look-up, not a scan.

function entryIndex(cat: PoCatalog): EntryIndex {
  let index = entryIndexes.get(cat);
  if (!index) {
    const list = cat.messages.filter((m) => !isHeader(m));
    const first = new Map<string, number | Map<string | null, number>>();
    for (let i = 0; i < list.length; i++) {
      const m = list[i]!;
      const prior = first.get(m.msgid);
      if (prior === undefined) first.set(m.msgid, i);
      else if (typeof prior === "number") {
        const ctxt = list[prior]!.msgctxt;
        if (ctxt !== m.msgctxt) first.set(m.msgid, new Map([[ctxt, prior], [m.msgctxt, i]]));
      } else if (!prior.has(m.msgctxt)) prior.set(m.msgctxt, i);
    }
    index = { list, first };
    entryIndexes.set(cat, index);
  }
  return index;
}

function findEntry(index: EntryIndex, msgctxt: string | null, msgid: string): number {
  const at = index.first.get(msgid);
  if (at === undefined) return -1;
  if (typeof at === "number") return index.list[at]!.msgctxt === msgctxt ? at : -1;
  return at.get(msgctxt) ?? -1;
}

/** Every entry in file order: the header excluded, obsolete (`#~`) entries included. */
export function listEntries(cat: PoCatalog): ApiEntry[] {
  return entryMessages(cat).map(toApiEntry);
}

/** The entries flagged `fuzzy`, in file order (header excluded, obsolete entries included). */
export function findFuzzy(cat: PoCatalog): ApiEntry[] {
  return fuzzyMessages(cat).map(toApiEntry);
}

/** The answer of {@link readContext}. */
export interface ContextWindow {
  target_entry: ApiEntry | null;
  context_before: ApiEntry[];
  context_after: ApiEntry[];
}

/**
 * Finds the first entry (file order, header excluded, obsolete included) with this msgid and
 * msgctxt — `null` matches only entries without context, `""` only `msgctxt ""` — and returns up
 * to `size` entries on each side. No match: `target_entry` null and two empty lists.
 *
 * @example
 * ```ts
 * readContext(cat, "Glossary", null, 1).context_before.length; // 0 or 1
 * ```
 */
export function readContext(
  cat: PoCatalog,
  msgid: string,
  msgctxt: string | null,
  size: number,
): ContextWindow {
  const entries = entryIndex(cat);
  const list = entries.list;
  const index = findEntry(entries, msgctxt, msgid);
  if (index < 0) return { target_entry: null, context_before: [], context_after: [] };
  const n = Math.max(0, Math.floor(size));
  return {
    target_entry: toApiEntry(list[index]!),
    context_before: list.slice(Math.max(0, index - n), index).map(toApiEntry),
    context_after: list.slice(index + 1, index + 1 + n).map(toApiEntry),
  };
}
