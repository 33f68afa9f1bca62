/**
 * A catalogue's search index: per field, every entry's text in one string (entries and their parts
 * separated by NUL), with where each entry starts, and one byte per entry of its state and which
 * fields it has. A substring search over a catalogue is then one native `indexOf` per occurrence,
 * not a call per entry, and a regular expression is tested on the same parts an entry has. This is
 * all the workbench keeps of a searched catalogue (about 0.9× its file size): the parsed catalogue
 * is re-read through the store only for a file with hits, to build them.
 *
 * A text is stored one byte per character when every character of it is Latin-1 (V8 keeps slices
 * of a decoded file in the file's own width, two bytes per character once the file has one CJK
 * character): the English msgids of a CJK catalogue then take half the memory.
 *
 * @module
 */
import { entryMessages } from "../po/catalog.ts";
import type { PoCatalog, PoMessage } from "../po/types.ts";
import { ENTRY_STATES, type EntryState, entryState } from "./stats.ts";

/** The fields of a search (see `search.ts`). */
export type IndexedField = "msgid" | "msgstr" | "msgctxt" | "comments";

const FIELDS: readonly IndexedField[] = ["msgid", "msgstr", "msgctxt", "comments"];

/** One field of every entry: `text`, and `starts[i]` where entry i's part begins (`starts[n]` the end). */
interface FieldText {
  text: string;
  starts: Int32Array;
}

/** What a search keeps of one catalogue (build it with {@link searchIndex}). */
export interface SearchIndex {
  /** Entries (those of `/po/read`: header excluded, obsolete included). */
  readonly count: number;
  readonly fields: Readonly<Record<IndexedField, FieldText>>;
  /** Per entry: its state's index in ENTRY_STATES (bits 0–2), and the HAS_* bits. */
  readonly marks: Uint8Array;
  /** Bytes it holds (about: one or two per character, four per offset). */
  readonly bytes: number;
}

const SEPARATOR = "\u0000";
/** The entry has a msgctxt (an empty one included). */
const HAS_CTXT = 8;
/** Its msgstr field has at least one part (a plural entry may have no msgstr[n]). */
const HAS_MSGSTR = 16;
/** It has at least one comment. */
const HAS_COMMENTS = 32;

function partsOf(m: PoMessage, field: IndexedField): readonly string[] {
  switch (field) {
    case "msgid":
      return m.msgidPlural === null ? [m.msgid] : [m.msgid, m.msgidPlural];
    case "msgstr":
      return m.msgidPlural !== null && m.msgstrPlural !== null ? m.msgstrPlural : [m.msgstr];
    case "msgctxt":
      return m.msgctxt === null ? [] : [m.msgctxt];
    case "comments":
      return [...m.translatorComments, ...m.extractedComments];
  }
}

/** True when every character of `text` is Latin-1. */
function isLatin1(text: string): boolean {
  // deno-lint-ignore no-control-regex -- the Latin-1 range
  return !/[^\u0000-\u00ff]/.test(text);
}

/** `text`, one byte per character when it is all Latin-1 (else as it is: join made it flat). */
function compact(text: string): string {
  if (!isLatin1(text)) return text;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return LATIN1.decode(bytes);
}

/** ISO-8859-1 proper: TextDecoder's "latin1" is windows-1252, which maps 0x80–0x9f elsewhere. */
const LATIN1 = {
  decode(bytes: Uint8Array): string {
    let out = "";
    for (let at = 0; at < bytes.length; at += 8192) {
      out += String.fromCharCode(...bytes.subarray(at, at + 8192));
    }
    return out;
  },
};

/**
 * The search index of `catalog`, or null when one of its texts holds a NUL (its parts could not be
 * told apart: the search then tests the parsed entries).
 */
export function searchIndex(catalog: PoCatalog): SearchIndex | null {
  const messages = entryMessages(catalog);
  const n = messages.length;
  const marks = new Uint8Array(n);
  const fields = {} as Record<IndexedField, FieldText>;
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    marks[i] = ENTRY_STATES.indexOf(entryState(m)) | (m.msgctxt !== null ? HAS_CTXT : 0) |
      (partsOf(m, "msgstr").length > 0 ? HAS_MSGSTR : 0) |
      (m.translatorComments.length + m.extractedComments.length > 0 ? HAS_COMMENTS : 0);
  }
  for (const field of FIELDS) {
    const starts = new Int32Array(n + 1);
    const parts: string[] = new Array(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      starts[i] = at;
      const own = partsOf(messages[i]!, field);
      for (const p of own) if (p.includes(SEPARATOR)) return null;
      parts[i] = own.join(SEPARATOR);
      at += parts[i]!.length + 1;
    }
    starts[n] = at;
    const text = compact(parts.join(SEPARATOR) + SEPARATOR);
    fields[field] = { text, starts };
    bytes += starts.byteLength + text.length * (isLatin1(text) ? 1 : 2);
  }
  return { count: n, fields, marks, bytes };
}

/** The state of entry `i`. */
export function indexedState(index: SearchIndex, i: number): EntryState {
  return ENTRY_STATES[index.marks[i]! & 7]!;
}

/** True when entry `i` matches `test` in one of `fields` (as the parsed entry would). */
export function indexedMatch(
  index: SearchIndex,
  i: number,
  fields: readonly IndexedField[],
  test: (text: string) => boolean,
): boolean {
  const mark = index.marks[i]!;
  for (const field of fields) {
    if (field === "msgctxt" && (mark & HAS_CTXT) === 0) continue;
    if (field === "msgstr" && (mark & HAS_MSGSTR) === 0) continue;
    if (field === "comments" && (mark & HAS_COMMENTS) === 0) continue;
    const { text, starts } = index.fields[field];
    const part = text.slice(starts[i]!, starts[i + 1]! - 1);
    if (part.includes(SEPARATOR)) {
      for (const p of part.split(SEPARATOR)) if (test(p)) return true;
    } else if (test(part)) return true;
  }
  return false;
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
 * The indices (ascending, from `from` on) of the entries whose `fields` contain `needle`
 * (case-sensitive), or null when this index cannot answer (a needle holding NUL, or empty).
 * `find(text, needle, at)` is `indexOf`, or a case-insensitive equivalent.
 */
export function candidateEntries(
  index: SearchIndex,
  fields: readonly IndexedField[],
  from: number,
  find: (text: string, at: number) => number,
  needle: string,
): number[] | null {
  if (needle.includes(SEPARATOR) || needle === "") return null;
  const n = index.count;
  let marks: Uint8Array | null = null;
  let count = 0;
  for (const field of fields) {
    const { text, starts } = index.fields[field];
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
