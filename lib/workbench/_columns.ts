/**
 * A searched catalogue as the workbench keeps it: its entries in columns, not as parsed messages.
 * Per field, every entry's parts are one string (parts separated by NUL) with where each part and
 * each entry starts; per entry, one byte of state, one of shape and its line. A substring search is
 * then one native `indexOf` per occurrence over a whole field, a regular expression is tested part
 * by part, and a hit is built from the columns: the parsed catalogue is dropped once they are made.
 *
 * Why: a parsed catalogue costs more than its file on the heap (an object, arrays and strings per
 * message), and the search texts more again; the columns are the texts and a few bytes per entry,
 * and the first search of a tree no longer keeps every catalogue alive while it goes (bench/README.md,
 * "Workbench"). What a hit holds is exactly what `listedEntry` makes of the parsed message:
 * `tests/workbench_columns_test.ts` compares them on every corpus catalogue.
 *
 * @module
 */
import { type ApiEntry, isHeader, messageLines, type PoCatalog, type PoMessage } from "../po/mod.ts";
import { ENTRY_FIELDS, type EntryField, type ListedEntry } from "./fields.ts";
import { ENTRY_STATES, entryState } from "./stats.ts";

/** The fields of a search (see `search.ts`). */
export type IndexedField = "msgid" | "msgstr" | "msgctxt" | "comments";

const SEPARATOR = "\u0000";

/** Shape bits of an entry. */
const PLURAL_ID = 1; // msgid_plural is set: the msgid column holds [msgid, msgid_plural]
const PLURAL_FORMS = 2; // …and msgstr[n] forms: the msgstr column holds them, not [msgstr]
const OBSOLETE = 4;

/**
 * Some entries' parts of one field: part k is `text[partStarts[k] .. partStarts[k + 1] - 1)` and
 * belongs to entry `partEntry[k]`; entry i's parts are `entryParts[i] .. entryParts[i + 1]`.
 */
class Strand {
  /** The parts, each followed by NUL. */
  readonly text: string;
  readonly partStarts: Int32Array;
  readonly partEntry: Int32Array;
  readonly entryParts: Int32Array;

  constructor(text: string, partStarts: Int32Array, partEntry: Int32Array, entryParts: Int32Array) {
    this.text = text;
    this.partStarts = partStarts;
    this.partEntry = partEntry;
    this.entryParts = entryParts;
  }

  part(k: number): string {
    return this.text.slice(this.partStarts[k]!, this.partStarts[k + 1]! - 1);
  }

  /** Where entry i's parts begin in `text` (the text's end for i = the entry count). */
  entryStart(i: number): number {
    return this.partStarts[this.entryParts[i]!]!;
  }
}

/**
 * One field of every entry, in two strands: the entries whose parts are all Latin-1 in a one-byte
 * string, the others in a two-byte one (V8 makes a string two-byte as a whole when one character
 * needs it, and the parser's slices of a file holding any such character are two-byte already:
 * one curly quote in a msgid would double the whole column).
 */
class Column {
  readonly #strands: readonly [Strand, Strand];

  constructor(narrow: Strand, wide: Strand) {
    this.#strands = [narrow, wide];
  }

  get strands(): readonly Strand[] {
    return this.#strands;
  }

  /** The strand that holds entry i's parts (either, when it has none). */
  #strandOf(i: number): Strand {
    const narrow = this.#strands[0];
    return narrow.entryParts[i + 1]! > narrow.entryParts[i]! ? narrow : this.#strands[1];
  }

  /** Entry i's parts, in order. */
  parts(i: number): string[] {
    const strand = this.#strandOf(i);
    const first = strand.entryParts[i]!;
    const end = strand.entryParts[i + 1]!;
    const out: string[] = new Array(end - first);
    for (let k = first; k < end; k++) out[k - first] = strand.part(k);
    return out;
  }

  /** The length of entry i's parts, together. */
  length(i: number): number {
    const strand = this.#strandOf(i);
    const first = strand.entryParts[i]!;
    const end = strand.entryParts[i + 1]!;
    return strand.partStarts[end]! - strand.partStarts[first]! - (end - first);
  }

  /** True when one of entry i's parts passes `test`. */
  some(i: number, test: (text: string) => boolean): boolean {
    const strand = this.#strandOf(i);
    const end = strand.entryParts[i + 1]!;
    for (let k = strand.entryParts[i]!; k < end; k++) if (test(strand.part(k))) return true;
    return false;
  }
}

/** The last index i with `sorted[i] <= value` (sorted ascending, sorted[0] <= value). */
function lastAtMost(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A character above U+00FF. */
const WIDE = /[\u0100-\uffff]/;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * `text` (every character Latin-1) as a one-byte string: decoded afresh from its UTF-8, which V8
 * makes one-byte when every character fits (a join of slices would stay two-byte).
 */
function oneByte(text: string): string {
  return utf8Decoder.decode(utf8Encoder.encode(text));
}

/** Collects one strand's parts entry by entry. */
class StrandBuilder {
  readonly #parts: string[] = [];
  readonly #partEntry: number[] = [];
  readonly #entryParts: Int32Array;

  constructor(count: number) {
    this.#entryParts = new Int32Array(count + 1);
  }

  add(entry: number, parts: readonly string[]): void {
    for (const part of parts) {
      this.#parts.push(part);
      this.#partEntry.push(entry);
    }
  }

  /** Ends entry i (its parts are the ones added since the last call). */
  end(i: number): void {
    this.#entryParts[i + 1] = this.#parts.length;
  }

  build(narrow: boolean): Strand {
    const parts = this.#parts;
    const partStarts = new Int32Array(parts.length + 1);
    let at = 0;
    for (let k = 0; k < parts.length; k++) {
      partStarts[k] = at;
      at += parts[k]!.length + 1;
    }
    partStarts[parts.length] = at;
    const joined = parts.length === 0 ? "" : parts.join(SEPARATOR) + SEPARATOR;
    return new Strand(
      narrow ? oneByte(joined) : joined,
      partStarts,
      Int32Array.from(this.#partEntry),
      this.#entryParts,
    );
  }
}

/** Collects one column's parts entry by entry, each entry into the strand its characters need. */
class ColumnBuilder {
  readonly #narrow: StrandBuilder;
  readonly #wide: StrandBuilder;

  constructor(count: number) {
    this.#narrow = new StrandBuilder(count);
    this.#wide = new StrandBuilder(count);
  }

  /** Entry i's parts (entries are added in order, each once). */
  add(i: number, parts: readonly string[]): void {
    (parts.some((part) => WIDE.test(part)) ? this.#wide : this.#narrow).add(i, parts);
    this.#narrow.end(i);
    this.#wide.end(i);
  }

  build(): Column {
    return new Column(this.#narrow.build(true), this.#wide.build(false));
  }
}

/** The entry fields that are not searched, kept as one JSON text per entry ("" when all empty). */
type Rest = [
  occurrences: string[],
  flags: string[],
  previousMsgid: string | null,
  previousMsgctxt: string | null,
];

function restOf(m: PoMessage): string {
  if (
    m.references.length === 0 && m.flags.length === 0 && m.previousMsgid === null &&
    m.previousMsgctxt === null
  ) {
    return "";
  }
  const occurrences = m.references.map((r) => (r.line === null ? r.file : `${r.file}:${r.line}`));
  if (m.previousMsgid === null && m.previousMsgctxt === null) {
    // The common case, without JSON: occurrences and flags joined with U+0001, the two lists
    // separated by U+0002, after a U+0003 mark (JSON starts with "["). Not when a text holds one
    // of those marks or is empty (an empty list and a list of one "" would read back the same).
    const plain = (t: string) => t !== "" && !MARKS.test(t);
    if (occurrences.every(plain) && m.flags.every(plain)) {
      return COMPACT + occurrences.join(ITEM) + LISTS + m.flags.join(ITEM);
    }
  }
  return JSON.stringify([occurrences, [...m.flags], m.previousMsgid, m.previousMsgctxt] satisfies Rest);
}

const COMPACT = "\u0003";
const ITEM = "\u0001";
const LISTS = "\u0002";
/** Any of the three marks. */
const MARKS = new RegExp(`[${ITEM}${LISTS}${COMPACT}]`);

/** What {@link restOf} wrote, read back. */
function readRest(text: string): Rest {
  if (text === "") return [[], [], null, null];
  if (text[0] !== COMPACT) return JSON.parse(text);
  const at = text.indexOf(LISTS);
  const occurrences = text.slice(1, at);
  const flags = text.slice(at + 1);
  return [
    occurrences === "" ? [] : occurrences.split(ITEM),
    flags === "" ? [] : flags.split(ITEM),
    null,
    null,
  ];
}

/**
 * A catalogue's entries (the header excluded, obsolete entries included, in file order) in columns.
 *
 * @example
 * ```ts
 * const columns = SearchColumns.of(parsePo(bytes));
 * columns.candidates(["msgid"], 0, (text, at) => text.indexOf("file", at), "file"); // [3, 17]
 * columns.entry(3, ["msgid", "msgstr"]); // { index: 3, line: 40, state: "translated", msgid: …, msgstr: … }
 * ```
 */
export class SearchColumns {
  /** Number of entries. */
  readonly count: number;
  readonly #msgid: Column;
  readonly #msgstr: Column;
  readonly #msgctxt: Column;
  /** Translator comment lines, then extracted comment lines. */
  readonly #comments: Column;
  readonly #translatorComments: Int32Array;
  readonly #rest: Column;
  readonly #states: Uint8Array;
  readonly #shapes: Uint8Array;
  /** The msgid line of each entry, -1 when not known (a catalogue this process wrote). */
  readonly #lines: Int32Array;

  private constructor(catalog: PoCatalog) {
    // The entries as `entryMessages` gives them (without building its look-up index).
    const messages = catalog.messages.filter((m) => !isHeader(m));
    const n = messages.length;
    this.count = n;
    const msgid = new ColumnBuilder(n);
    const msgstr = new ColumnBuilder(n);
    const msgctxt = new ColumnBuilder(n);
    const comments = new ColumnBuilder(n);
    const rest = new ColumnBuilder(n);
    this.#translatorComments = new Int32Array(n);
    this.#states = new Uint8Array(n);
    this.#shapes = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const m = messages[i]!;
      let shape = m.obsolete ? OBSOLETE : 0;
      if (m.msgidPlural !== null) shape |= PLURAL_ID;
      if (m.msgidPlural !== null && m.msgstrPlural !== null) shape |= PLURAL_FORMS;
      msgid.add(i, m.msgidPlural === null ? [m.msgid] : [m.msgid, m.msgidPlural]);
      msgstr.add(i, (shape & PLURAL_FORMS) !== 0 ? m.msgstrPlural! : [m.msgstr]);
      msgctxt.add(i, m.msgctxt === null ? [] : [m.msgctxt]);
      comments.add(i, [...m.translatorComments, ...m.extractedComments]);
      this.#translatorComments[i] = m.translatorComments.length;
      rest.add(i, [restOf(m)]);
      this.#states[i] = ENTRY_STATES.indexOf(entryState(m));
      this.#shapes[i] = shape;
    }
    this.#msgid = msgid.build();
    this.#msgstr = msgstr.build();
    this.#msgctxt = msgctxt.build();
    this.#comments = comments.build();
    this.#rest = rest.build();
    this.#lines = new Int32Array(n).fill(-1);
    const all = messageLines(catalog);
    if (all !== undefined) {
      let k = 0;
      catalog.messages.forEach((m, j) => {
        if (!isHeader(m)) this.#lines[k++] = all[j] ?? -1;
      });
    }
  }

  /** The columns of `catalog` (which may then be dropped). */
  static of(catalog: PoCatalog): SearchColumns {
    return new SearchColumns(catalog);
  }

  #column(field: IndexedField): Column {
    switch (field) {
      case "msgid":
        return this.#msgid;
      case "msgstr":
        return this.#msgstr;
      case "msgctxt":
        return this.#msgctxt;
      case "comments":
        return this.#comments;
    }
  }

  /** Entry i's state, as `entryState` gives it for the parsed message. */
  state(i: number): typeof ENTRY_STATES[number] {
    return ENTRY_STATES[this.#states[i]!]!;
  }

  /**
   * True when entry i matches in one of `fields`, as the parsed message would: each part on its own
   * (the msgid and msgid_plural; the msgstr, or each plural form; the msgctxt when there is one;
   * each comment line).
   */
  matches(i: number, fields: readonly IndexedField[], test: (text: string) => boolean): boolean {
    for (const field of fields) if (this.#column(field).some(i, test)) return true;
    return false;
  }

  /** The characters of entry i's `fields` (what a test of each of its parts reads in all). */
  textLength(i: number, fields: readonly IndexedField[]): number {
    let n = 0;
    for (const field of fields) n += this.#column(field).length(i);
    return n;
  }

  /**
   * The indices (ascending, from `from` on) of the entries whose `fields` contain `needle`, or null
   * when this index cannot answer (an empty needle, or one holding NUL). `find(text, at)` is
   * `indexOf` of the needle, or a case-insensitive equivalent.
   */
  candidates(
    fields: readonly IndexedField[],
    from: number,
    find: (text: string, at: number) => number,
    needle: string,
  ): number[] | null {
    if (needle.includes(SEPARATOR) || needle === "") return null;
    const n = this.count;
    let marks: Uint8Array | null = null;
    let count = 0;
    for (const field of fields) {
      for (const strand of this.#column(field).strands) {
        const { text, partStarts, partEntry, entryParts } = strand;
        if (entryParts[n] === 0) continue; // no parts at all
        let at = strand.entryStart(Math.min(from, n));
        for (;;) {
          const p = find(text, at);
          if (p < 0) break;
          const i = partEntry[lastAtMost(partStarts, p)]!;
          marks ??= new Uint8Array(n);
          if (marks[i] === 0) {
            marks[i] = 1;
            count++;
          }
          at = strand.entryStart(i + 1);
        }
      }
    }
    const out: number[] = new Array(count);
    if (marks === null) return out;
    let k = 0;
    for (let i = from; i < n && k < count; i++) if (marks[i] === 1) out[k++] = i;
    return out;
  }

  /** Entry i as `listedEntry` lists it, with only `fields` (all when null). */
  entry(i: number, fields: readonly EntryField[] | null): ListedEntry {
    const shape = this.#shapes[i]!;
    const ids = this.#msgid.parts(i);
    const strs = this.#msgstr.parts(i);
    const context = this.#msgctxt.parts(i);
    const comments = this.#comments.parts(i);
    const translator = this.#translatorComments[i]!;
    const restText = this.#rest.parts(i)[0]!;
    const [occurrences, flags, previousMsgid, previousMsgctxt] = readRest(restText);
    const plural: Record<string, string> = {};
    if ((shape & PLURAL_FORMS) !== 0) strs.forEach((s, k) => plural[String(k)] = s);
    const full: ApiEntry = {
      msgid: ids[0]!,
      msgstr: (shape & PLURAL_ID) !== 0 ? "" : strs[0]!,
      msgctxt: context[0] ?? null,
      comment: comments.slice(translator).join("\n"),
      tcomment: comments.slice(0, translator).join("\n"),
      occurrences,
      flags,
      msgid_plural: (shape & PLURAL_ID) !== 0 ? ids[1]! : null,
      msgstr_plural: plural,
      previous_msgid: previousMsgid,
      previous_msgctxt: previousMsgctxt,
      obsolete: (shape & OBSOLETE) !== 0,
    };
    const line = this.#lines[i]!;
    const out: ListedEntry = { index: i, line: line < 0 ? null : line, state: this.state(i) };
    for (const field of fields ?? ENTRY_FIELDS) (out as Record<string, unknown>)[field] = full[field];
    return out;
  }
}
