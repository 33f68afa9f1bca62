/**
 * Every cache of the PO engine that is keyed by object identity, in one place, under one rule.
 *
 * **The rule.** A key is a message, a message list or a catalogue that has been handed out (by
 * {@link parsePo}, a write, {@link canonicalCatalog}), and such a value is never changed: the types
 * say so (`readonly` fields and `ReadonlyArray`s in `types.ts`, so the compiler rejects a
 * mutation), and code that means to change one builds a new object (a `Draft` until it is handed
 * out). So an entry, computed from its key's contents when it was made (plus the parameters stored
 * beside it and checked on use), stays right for as long as the key lives; the maps are weak, and
 * an entry goes with its key. Nothing else may key a cache by identity: a cache here is read and
 * written only by the module named on it.
 *
 * The same rule keeps right the per-message JSON bytes of `lib/json_answer.ts`, which the routes
 * key by the messages and catalogues of this engine.
 *
 * {@link freezeHandedOut} turns the rule into a run-time check for tests: what the reader and
 * `canonicalCatalog` hand out is then frozen, so a mutation that slipped past the types (through a
 * cast) throws.
 *
 * @module
 */
import type { EntryIndex } from "./operations/catalog.ts";
import type { ClosestIndex } from "./operations/_closest.ts";
import type { LaidOutList } from "./write/_layout_cache.ts";
import type { OutputCharset } from "./charsets/_output_charset.ts";
import type { PoCatalog, PoMessage } from "./types.ts";
import type { GettextGeneration } from "./layout/string_layout.ts";

/**
 * `parse.ts`: the 1-based line of a message's `msgid` keyword in the file it was read from, kept
 * for the messages of a duplicate only (for the writer's error message).
 */
export const lineOfMessage: WeakMap<PoMessage, number> = new WeakMap();

/** `parse.ts`: the line of each message's `msgid` keyword, for the lists {@link parsePo} made. */
export const linesOfList: WeakMap<readonly PoMessage[], readonly number[]> = new WeakMap();

/**
 * `written_lines.ts`: the lines of each message of a catalogue as the writer printed it (found on
 * first use, from the bytes written). Keyed by the catalogue, not its list: the same list, laid out
 * anew, may sit at other lines than those of the file it was read from.
 */
export const linesOfCatalog: WeakMap<PoCatalog, () => readonly number[]> = new WeakMap();

/**
 * What {@link parsePo} knew of a message list it returned, for the writer to lay it out without
 * walking all of its messages for each (a walk of 12k messages fresh from the reader costs a cache
 * miss or more per message).
 */
export interface ReadList {
  /** Indices of the messages that may be headers, ascending: every header is among them. */
  readonly headers: readonly number[];
  /** Whether some message belongs to a domain other than the default one. */
  readonly domains: boolean;
  /** Size of the file it was read from, in bytes. */
  readonly bytes: number;
}

/** `parse.ts`: the {@link ReadList} of each message list {@link parsePo} made. */
export const readLists: WeakMap<readonly PoMessage[], ReadList> = new WeakMap();

/** `_duplicates.ts`: message lists known to hold no two messages with the same identity. */
export const uniqueLists: WeakSet<readonly PoMessage[]> = new WeakSet();

/**
 * `_layout_cache.ts`: from an anchor message (one of the first and last few of a list) to the list
 * last laid out with it, and its layouts.
 */
export const layoutAnchors: WeakMap<PoMessage, LaidOutList> = new WeakMap();

/**
 * `_output_charset.ts`: the output charset of a message list's headers, and the catalogue file name
 * it was found for (a `.pot` name changes the answer).
 */
export const outputCharsets: WeakMap<
  readonly PoMessage[],
  {
    readonly fileName: string | undefined;
    readonly placeholder: string | undefined;
    readonly charset: OutputCharset;
  }
> = new WeakMap();

/**
 * `canonical.ts`: a message as reading its printed form back gives it (itself when nothing
 * differs), for the charset kind it was found for.
 */
export const canonicalMessages: WeakMap<
  PoMessage,
  { readonly singleByte: boolean; readonly message: PoMessage }
> = new WeakMap();

/** `canonical.ts`: the message lists `canonicalCatalog` made, and whether they have several domains. */
export const canonicalLists: WeakMap<readonly PoMessage[], boolean> = new WeakMap();

/** `catalog.ts`: the entries of a catalogue (header excluded) and where each key first appears. */
export const entryIndexes: WeakMap<PoCatalog, EntryIndex> = new WeakMap();

/**
 * `keep_layout.ts`: catalogues known to have been read from (or written as) bytes in msgcat's
 * layout: the store's document after a full write, or one a keep write found laid out. A later
 * keep write to the same document takes the full layout without scanning the file again.
 */
export const laidOutCatalogs: WeakSet<PoCatalog> = new WeakSet();

/**
 * `keep_layout.ts`: catalogues known to have been read from (or written as) bytes that are not in
 * the layout of this gettext generation: one a keep write found otherwise, or wrote with lines a full
 * re-layout would change. A later keep write to the same document skips the scan.
 */
export const notLaidOutCatalogs: WeakMap<PoCatalog, GettextGeneration> = new WeakMap();

/** `_write_conflicts.ts`: the active entries of a catalogue sorted for the closest-key search. */
export const closestIndexes: WeakMap<PoCatalog, ClosestIndex> = new WeakMap();

let freezing = false;

/**
 * For tests: when on, every catalogue handed out afterwards (see the rule) is frozen with its
 * messages, their lists and references, so that changing one throws a TypeError. Off by default:
 * freezing every message of a catalogue costs a sizeable part of parsing it.
 *
 * @example
 * ```ts
 * freezeHandedOut(true);
 * const cat = parsePo(bytes);
 * Object.isFrozen(cat.messages[0]); // true
 * ```
 */
export function freezeHandedOut(on: boolean): void {
  freezing = on;
}

/**
 * Freezes `catalog` and what it holds when {@link freezeHandedOut} is on; returns it. With `shell`
 * false the catalogue object itself is left writable, for a caller that finishes it (a write sets
 * its charset) before handing it out: its messages and their list are frozen all the same.
 */
export function handOut<C extends PoCatalog>(catalog: C, shell = true): C {
  if (!freezing) return catalog;
  for (const m of catalog.messages) {
    if (Object.isFrozen(m)) continue;
    Object.freeze(m.translatorComments);
    Object.freeze(m.extractedComments);
    Object.freeze(m.flags);
    for (const r of m.references) Object.freeze(r);
    Object.freeze(m.references);
    if (m.msgstrPlural !== null) Object.freeze(m.msgstrPlural);
    Object.freeze(m);
  }
  Object.freeze(catalog.messages);
  return shell ? Object.freeze(catalog) : catalog;
}
