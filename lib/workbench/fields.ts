/**
 * Entries as the workbench lists them (an entry of `/po/read` with its position and state), and
 * `fields` selection: a caller names the entry fields it needs, and gets only those (the position,
 * `index` and `line`, and `state` always come).
 *
 * @module
 */
import {
  type ApiEntry,
  entryMessages,
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

/**
 * The position fields of the entries `select` keeps, in file order (the `i`-th kept entry's
 * `index`, `line` and `state`, as {@link listedEntry} gives them): for a whole-list answer whose
 * entries' other fields are kept per message.
 */
export function entryPositions(
  catalog: PoCatalog,
  select: ((m: PoMessage) => boolean) | null,
): (i: number) => { index: number; line: number | null; state: EntryState } {
  const messages = entryMessages(catalog);
  const lines = linesOf(catalog);
  let indices: number[] | null = null;
  if (select !== null) {
    indices = [];
    for (let i = 0; i < messages.length; i++) if (select(messages[i]!)) indices.push(i);
  }
  return (i) => {
    const index = indices === null ? i : indices[i]!;
    return { index, line: lines[index] ?? null, state: entryState(messages[index]!) };
  };
}

/** {@link entryPositions} as JSON without braces (`"index":3,"line":40,"state":"fuzzy"`), made faster. */
export function entryPositionsJson(
  catalog: PoCatalog,
  select: ((m: PoMessage) => boolean) | null,
): (i: number) => string {
  const at = entryPositions(catalog, select);
  return (i) => {
    const { index, line, state } = at(i);
    return `"index":${index},"line":${line === null ? "null" : line},"state":"${state}"`;
  };
}

/** Where an entry is and its state: what a write answers for each entry it was sent. */
export interface EntryPlace {
  msgid: string;
  msgctxt: string | null;
  /** Its position among the entries (as `index` of a listed entry), or null when it is not there. */
  index: number | null;
  /** The line of its first keyword in the file, or null when it is not there. */
  line: number | null;
  /** Its state now (see `stats.ts`), or null when it is not there (e.g. an obsolete entry msgcat drops). */
  state: EntryState | null;
}

/**
 * Each of `keys` as it is in `catalog`: the first live entry with its msgctxt and msgid, else the
 * first obsolete one (a request's `""` context is none, as writes read it).
 */
export function entryPlaces(
  catalog: PoCatalog,
  keys: readonly { msgid: string; msgctxt?: string | null }[],
): EntryPlace[] {
  const messages = entryMessages(catalog);
  const wanted = new Map<string, number>();
  const keyOf = (msgctxt: string | null | undefined, msgid: string) =>
    `${msgctxt ? "\u0004" + msgctxt : ""}\u0000${msgid}`;
  // Only messages whose msgid was asked for get a key (a write names few entries of many).
  const msgids = new Set<string>();
  for (const k of keys) {
    wanted.set(keyOf(k.msgctxt, k.msgid), -1);
    msgids.add(k.msgid);
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (!msgids.has(m.msgid)) continue;
    const key = keyOf(m.msgctxt, m.msgid);
    const at = wanted.get(key);
    if (at === undefined) continue;
    if (at < 0 || (messages[at]!.obsolete && !m.obsolete)) wanted.set(key, i);
  }
  const lines = linesOf(catalog);
  return keys.map((k) => {
    const i = wanted.get(keyOf(k.msgctxt, k.msgid))!;
    const msgctxt = k.msgctxt ? k.msgctxt : null;
    if (i < 0) return { msgid: k.msgid, msgctxt, index: null, line: null, state: null };
    return { msgid: k.msgid, msgctxt, index: i, line: lines[i] ?? null, state: entryState(messages[i]!) };
  });
}

/**
 * A context window (`readContext`) with each entry's `index`, `line` and `state` put first: the
 * target is the first entry with exactly this msgid and msgctxt, its neighbours the entries around it.
 */
export function contextWithPositions<E extends object>(
  catalog: PoCatalog,
  msgid: string,
  msgctxt: string | null,
  window: { target_entry: E | null; context_before: E[]; context_after: E[] },
) {
  if (window.target_entry === null) return window;
  const messages = entryMessages(catalog);
  const target = messages.findIndex((m) => m.msgid === msgid && m.msgctxt === msgctxt);
  if (target < 0) return window;
  const at = entryPositions(catalog, null);
  const place = <T extends object>(entry: T, i: number) => ({ ...at(i), ...entry });
  const first = target - window.context_before.length;
  return {
    target_entry: place(window.target_entry, target),
    context_before: window.context_before.map((e, k) => place(e, first + k)),
    context_after: window.context_after.map((e, k) => place(e, target + 1 + k)),
  };
}
