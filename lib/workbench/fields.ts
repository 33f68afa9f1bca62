/**
 * Entries as the workbench lists them (an entry of `/po/read` with its position and state), and
 * `fields` selection: a caller names the entry fields it needs, and gets only those (the position,
 * `index` and `line`, and `state` always come).
 *
 * @module
 */
import {
  type ApiEntry,
  isHeader,
  messageLines,
  type PoCatalog,
  type PoMessage,
  toApiEntry,
} from "../po/mod.ts";
import { type EntryState, entryState } from "./stats.ts";

/** Entry fields a caller may select (those of `/po/read`). */
export const ENTRY_FIELDS = [
  "msgid",
  "msgstr",
  "msgctxt",
  "comment",
  "tcomment",
  "occurrences",
  "flags",
  "msgid_plural",
  "msgstr_plural",
  "previous_msgid",
  "previous_msgctxt",
  "obsolete",
] as const satisfies readonly (keyof ApiEntry)[];

/** One selectable entry field. */
export type EntryField = typeof ENTRY_FIELDS[number];

/** An entry with where it is: `index` among the entries of `/po/read` (header excluded), `line` of its msgid. */
export type ListedEntry = { index: number; line: number | null; state: EntryState } & Partial<ApiEntry>;

/** The `msgid` line of each entry (parallel to the entries of `/po/read`), or nulls when not known. */
const entryLines = new WeakMap<PoCatalog, (number | null)[]>();

function linesOf(catalog: PoCatalog): (number | null)[] {
  let lines = entryLines.get(catalog);
  if (lines === undefined) {
    const all = messageLines(catalog);
    const out: (number | null)[] = [];
    catalog.messages.forEach((m, i) => {
      if (!isHeader(m)) out.push(all?.[i] ?? null);
    });
    lines = out;
    entryLines.set(catalog, lines);
  }
  return lines;
}

/**
 * The listed form of `message`, the `index`-th entry of `catalog`, with only `fields` (all when
 * null). Its `line` is known for a catalogue as read from its file, null for one this process wrote
 * since (the written bytes were not read back).
 */
export function listedEntry(
  catalog: PoCatalog,
  message: PoMessage,
  index: number,
  fields: readonly EntryField[] | null,
): ListedEntry {
  const entry = toApiEntry(message);
  const out: ListedEntry = { index, line: linesOf(catalog)[index] ?? null, state: entryState(message) };
  for (const field of fields ?? ENTRY_FIELDS) (out as Record<string, unknown>)[field] = entry[field];
  return out;
}

/** Only `fields` of an `/po/read` entry (all of them, in their order, when null). */
export function selectFields(entry: ApiEntry, fields: readonly EntryField[] | null): Partial<ApiEntry> {
  if (fields === null) return entry;
  const out: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) if (fields.includes(field)) out[field] = entry[field];
  return out as Partial<ApiEntry>;
}
