/**
 * Versions of catalogues out of git, parsed once each: a catalogue's blob id names its bytes, so a
 * parsed version is kept by blob id (least recently used out first, bounded by the bytes parsed)
 * and shared by every question about any of its entries.
 *
 * @module
 */
import { isHeader, PO_CODEC, type PoCatalog, type PoMessage } from "../po/mod.ts";

/** What the history says of one entry at one version. */
export interface EntrySnapshot {
  /** The msgstr ("" for a plural entry: see msgstr_plural). */
  msgstr: string;
  /** Plural forms by index ({} for a non-plural entry), as read_po gives them. */
  msgstr_plural: Record<string, string>;
  flags: string[];
  /** True when the entry is a `#~` one in this version. */
  obsolete: boolean;
}

/** A version's entries by key; live entries win over obsolete ones of the same key. */
export type EntryIndex = Map<string, PoMessage>;

/** The key of an entry: (msgctxt, msgid). */
export function entryKey(msgctxt: string | null, msgid: string): string {
  return `${msgctxt === null ? "\u0001" : `\u0002${msgctxt}`}\u0000${msgid}`;
}

/** The entries of `catalog` by key (header left out; a live entry wins over an obsolete one). */
export function indexEntries(catalog: PoCatalog): EntryIndex {
  const index: EntryIndex = new Map();
  for (const m of catalog.messages) {
    if (isHeader(m)) continue;
    const key = entryKey(m.msgctxt, m.msgid);
    const had = index.get(key);
    if (had === undefined || (had.obsolete && !m.obsolete)) index.set(key, m);
  }
  return index;
}

/** The snapshot of a message. */
export function snapshotOf(m: PoMessage): EntrySnapshot {
  const plural: Record<string, string> = {};
  if (m.msgidPlural !== null && m.msgstrPlural) m.msgstrPlural.forEach((s, i) => plural[String(i)] = s);
  return {
    msgstr: m.msgidPlural !== null ? "" : m.msgstr,
    msgstr_plural: plural,
    flags: [...m.flags],
    obsolete: m.obsolete,
  };
}

/** True when two snapshots say the same (flags compared as a set: their order is layout). */
export function sameSnapshot(a: EntrySnapshot | null, b: EntrySnapshot | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.msgstr !== b.msgstr || a.obsolete !== b.obsolete) return false;
  const pa = Object.entries(a.msgstr_plural);
  const pb = Object.entries(b.msgstr_plural);
  if (pa.length !== pb.length || pa.some(([k, v]) => b.msgstr_plural[k] !== v)) return false;
  const fa = [...new Set(a.flags)].sort();
  const fb = [...new Set(b.flags)].sort();
  return fa.length === fb.length && fa.every((f, i) => f === fb[i]);
}

/** A parsed version, or why it could not be read. */
export type ParsedVersion = { index: EntryIndex } | { error: string };

/** Parsed versions by blob id, the least recently used dropped past `maxBytes` of source bytes. */
export class VersionCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, { version: ParsedVersion; size: number }>();
  #bytes = 0;
  /** Parses done (for tests and the bench: a version is parsed once). */
  parses = 0;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** The cached version of `oid`, marked as used. */
  get(oid: string): ParsedVersion | undefined {
    const hit = this.#entries.get(oid);
    if (hit === undefined) return undefined;
    this.#entries.delete(oid);
    this.#entries.set(oid, hit);
    return hit.version;
  }

  /** Parses `bytes` (the blob `oid` of a file called `fileName`) with the store's codec, and keeps it. */
  parse(oid: string, bytes: Uint8Array, fileName: string): ParsedVersion {
    const cached = this.get(oid);
    if (cached !== undefined) return cached;
    let version: ParsedVersion;
    try {
      this.parses++;
      version = { index: indexEntries(PO_CODEC.parse(bytes, fileName)) };
    } catch (error) {
      version = { error: String((error as Error)?.message ?? error).slice(0, 200) };
    }
    this.#entries.set(oid, { version, size: bytes.length });
    this.#bytes += bytes.length;
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes || this.#entries.size <= 1) break;
      this.#entries.delete(key);
      this.#bytes -= entry.size;
    }
    return version;
  }
}
