/**
 * Per catalogue and field, every entry's text in one string (entries and their parts separated by
 * NUL), with where each entry starts: a substring search over a catalogue is then one native
 * `indexOf` per occurrence, not a call per entry. Built on a catalogue's first substring search and
 * kept as long as the (immutable) catalogue is: about half the catalogue's file size more on the heap.
 *
 * @module
 */
import { entryMessages } from "../po/catalog.ts";
import type { PoCatalog, PoMessage } from "../po/types.ts";

/** The fields of a search (see `search.ts`). */
export type IndexedField = "msgid" | "msgstr" | "msgctxt" | "comments";

/** One field of every entry: `text`, and `starts[i]` where entry i's part begins (`starts[n]` the end). */
interface FieldText {
  text: string;
  starts: Int32Array;
}

const SEPARATOR = "\u0000";

const indexes = new WeakMap<PoCatalog, Map<IndexedField, FieldText>>();

function partsOf(m: PoMessage, field: IndexedField): string {
  switch (field) {
    case "msgid":
      return m.msgidPlural === null ? m.msgid : `${m.msgid}${SEPARATOR}${m.msgidPlural}`;
    case "msgstr":
      return m.msgidPlural !== null && m.msgstrPlural !== null ? m.msgstrPlural.join(SEPARATOR) : m.msgstr;
    case "msgctxt":
      return m.msgctxt ?? "";
    case "comments":
      return [...m.translatorComments, ...m.extractedComments].join(SEPARATOR);
  }
}

function fieldText(catalog: PoCatalog, field: IndexedField): FieldText {
  let byField = indexes.get(catalog);
  if (byField === undefined) {
    byField = new Map();
    indexes.set(catalog, byField);
  }
  let found = byField.get(field);
  if (found === undefined) {
    const messages = entryMessages(catalog);
    const starts = new Int32Array(messages.length + 1);
    const parts: string[] = new Array(messages.length);
    let at = 0;
    for (let i = 0; i < messages.length; i++) {
      starts[i] = at;
      parts[i] = partsOf(messages[i]!, field);
      at += parts[i]!.length + 1;
    }
    starts[messages.length] = at;
    found = { text: parts.join(SEPARATOR) + SEPARATOR, starts };
    byField.set(field, found);
  }
  return found;
}

/** The entry whose part holds offset `p`: the last i with starts[i] <= p. */
function entryAt(starts: Int32Array, p: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The indices (ascending, from `from` on) of the entries of `catalog` whose `fields` contain
 * `needle` (case-sensitive), or null when this index cannot answer (a needle holding NUL).
 * `find(text, needle, at)` is `indexOf`, or a case-insensitive equivalent.
 */
export function candidateEntries(
  catalog: PoCatalog,
  fields: readonly IndexedField[],
  from: number,
  find: (text: string, at: number) => number,
  needle: string,
): number[] | null {
  if (needle.includes(SEPARATOR) || needle === "") return null;
  const n = entryMessages(catalog).length;
  let marks: Uint8Array | null = null;
  let count = 0;
  for (const field of fields) {
    const { text, starts } = fieldText(catalog, field);
    let at = from < n ? starts[from]! : text.length; // a start per entry
    for (;;) {
      const p = find(text, at);
      if (p < 0) break;
      const i = entryAt(starts, p);
      marks ??= new Uint8Array(n);
      if (marks[i] === 0) {
        marks[i] = 1;
        count++;
      }
      at = starts[i + 1]!; // entryAt gives i < starts.length - 1
    }
  }
  const out: number[] = new Array(count);
  if (marks === null) return out;
  let k = 0;
  for (let i = from; i < n && k < count; i++) if (marks[i] === 1) out[k++] = i;
  return out;
}
