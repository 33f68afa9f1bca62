/**
 * The translation memory: every translated (and obsolete) entry of every catalogue under the roots,
 * indexed so that the msgids closest to a query are found without scanning the tree.
 *
 * - **What is kept.** Per catalogue (`.po`; templates have no translations): its language (the
 *   header's `Language:`, else a locale in its path, else one ending the root's name, e.g.
 *   `python-docs-fr`), and per entry that has a translation — not fuzzy, msgstr (or msgstr[0])
 *   not empty, or obsolete with a msgstr — the msgid's number, msgctxt, msgstr and whether it is
 *   obsolete. Each distinct msgid is kept once for the whole tree (30 languages of one
 *   documentation share their msgids), with the entries that carry it, its UTF-8 length, its byte histogram
 *   and its words in an inverted index.
 * - **Finding candidates.** A query's words are looked up rarest first (each weighs log(N/df)),
 *   summing their weights per msgid within {@link MAX_POSTINGS_VISITED} postings, so a common word
 *   costs nothing once the rare ones have been counted; the {@link CANDIDATES} msgids with most
 *   weight in common are scored with msgmerge's measure (lib/po's), cheapest bound first.
 * - **Freshness.** Built once, in the background (`start`) or by the first query, from the
 *   workbench's listing (which stats every file and re-reads only changed ones). After that:
 *   a write through the store updates that one catalogue at once (`CatalogueStore.onWritten`);
 *   a query more than {@link DEFAULT_REFRESH_MS} after the last check checks the tree's stats
 *   again (the workbench's listing) and re-indexes only the catalogues whose revision changed
 *   (a `git pull`, an editor).
 * - **Bounds.** The query's length (the caller's schema), the postings visited, the candidates
 *   scored, the work of the LCS counts ({@link MAX_SCORE_WORK}), the results, and the call's
 *   signal between candidates.
 *
 * @module
 */
import { relative } from "node:path";
import { abortable } from "../abortable.ts";
import { normaliseLanguage, rootLanguage } from "./language.ts";
import { BusyError, DomainError } from "../errors.ts";
import { type FuzzyBudget, fuzzySimilarity, LcsPattern, type PoCatalog, type PoMessage } from "../po/mod.ts";
import { type CatalogueStore, type WrittenCatalogue } from "../store/mod.ts";
import { type CatalogueFile, catalogueLanguage, pathLanguage, type Workbench } from "../workbench/mod.ts";
import { BUCKETS, byteHistogram, scoreOf, similarityCeiling } from "./similarity.ts";
import {
  heaviest,
  MAX_STEM_WORDS,
  sharesWords,
  stemOf,
  WORD_TEST_FROM,
  wordCounts,
  wordsOf,
} from "./words.ts";

/** One suggestion: a translated entry somewhere under the roots. */
export interface Suggestion {
  /** msgmerge's similarity of its msgid to the query × 100 (100: the same msgid). */
  score: number;
  msgid: string;
  msgctxt: string | null;
  msgstr: string;
  file_path: string;
  language: string | null;
  obsolete: boolean;
  same_msgid: boolean;
}

/** A query: a msgid, and the entry it is (to take its language and leave it out), if known. */
export interface SuggestQuery {
  msgid: string;
  /** The catalogue the entry is in (its language comes first); null: every language alike. */
  filePath: string | null;
  msgctxt: string | null;
  /** Most suggestions of each kind (close ones; the same msgid in other languages). */
  limit: number;
  /** Lowest score of a close msgid (default {@link DEFAULT_MIN_SCORE}, msgmerge's fuzzy threshold). */
  minScore?: number;
  signal?: AbortSignal;
}

/** What a query found. */
export interface SuggestAnswer {
  suggestions: Suggestion[];
  /** The language the query's catalogue is in (null: none given or none known). */
  language: string | null;
  /**
   * Candidate msgids that may be close but were not scored (absent when none): the query's work
   * bound was spent, or one was too long to compare with it ({@link MAX_COMPARISON_WORK}).
   */
  unscored?: number;
}

/** Counts of what the index holds (for the bench and the docs). */
export interface MemoryStats {
  catalogues: number;
  entries: number;
  msgids: number;
  words: number;
  /** Wall time of the last full build, ms (null before). */
  buildMs: number | null;
}

/** Options of a {@link TranslationMemory}. */
export interface MemoryOptions {
  /** How long after a check of the tree's stats a query checks them again (default 30 s). */
  refreshMs?: number;
  now?: () => number;
}

/** msgmerge's fuzzy threshold (0.6), as a score. */
export const DEFAULT_MIN_SCORE = 60;
/** See {@link MemoryOptions.refreshMs}. */
export const DEFAULT_REFRESH_MS = 30_000;
/** Postings a query visits, rarest words first. */
export const MAX_POSTINGS_VISITED = 400_000;
/** Candidate msgids scored with the edit count, most words in common first. */
export const CANDIDATES = 200;
/**
 * Most work one comparison may take (byte × 32-byte-word steps, ~40 ms unloaded): two ASCII msgids
 * of ~14,000 characters. A longer pair is not scored, and the answer counts it (`unscored`).
 */
export const MAX_COMPARISON_WORK = 6_000_000;

/**
 * Work of the LCS counts one query may take, in byte × 32-byte-word steps (each a few ns: ~10 ms
 * unloaded at worst).
 */
export const MAX_SCORE_WORK = 4_000_000;

const utf8 = new TextEncoder();
/** Words of a query looked up. */
const MAX_QUERY_WORDS = 512;
/** Reads of one file tried while the service is busy (BusyError) before it waits for the next check. */
const BUSY_ATTEMPTS = 10;
/** Entries of one catalogue indexed (the position is packed with the catalogue's number). */
const MAX_ENTRIES_PER_FILE = 1 << 21;

/** One catalogue as indexed. */
interface FileSlot {
  filePath: string;
  revision: string;
  language: string | null;
  /** Normalised language for comparisons. */
  languageKey: string | null;
  ids: Uint32Array;
  /** The msgctxts that are not null, by entry. */
  msgctxts: Map<number, string> | null;
  /** The msgstrs in UTF-8, one after the other: entry i's from `offsets[i]` to `offsets[i + 1]`. */
  text: Uint8Array;
  offsets: Uint32Array;
  obsolete: Uint8Array;
  /** The write sequence number when indexed from a write (a build's older read must not replace it). */
  writtenAt: number;
}

/**
 * The index over one store's roots.
 *
 * @example
 * ```ts
 * const memory = new TranslationMemory(store, workbench);
 * memory.start(); // in the background
 * const { suggestions } = await memory.suggest({ msgid: "Return the value.", filePath: null, msgctxt: null, limit: 5 });
 * ```
 */
export class TranslationMemory {
  readonly #store: CatalogueStore<PoCatalog>;
  readonly #workbench: Workbench;
  readonly #refreshMs: number;
  readonly #now: () => number;
  // Distinct msgids, by number (null once no entry carries it).
  readonly #msgids: (string | null)[] = [];
  readonly #idOf = new Map<string, number>();
  /** Per msgid: the entries carrying it, `slot * 2^21 + index`. */
  readonly #occurrences: number[][] = [];
  #histograms = new Uint16Array(BUCKETS * 1024);
  /** The UTF-8 length of each msgid. */
  #byteLengths = new Int32Array(1024);
  /** A candidate's UTF-8 bytes, reused. */
  #candidateBytes = new Uint8Array(1024);
  readonly #postings = new Map<string, number[]>();
  /** The words of {@link TranslationMemory.#postings} by their stem (see {@link stemOf}). */
  readonly #stems = new Map<string, string[]>();
  /** Scratch of {@link TranslationMemory.#candidates}: a weight per msgid, zero between queries. */
  #weights = new Float64Array(0);
  #deadIds = 0;
  readonly #slots: (FileSlot | null)[] = [];
  readonly #freeSlots: number[] = [];
  readonly #slotOf = new Map<string, number>();
  #entries = 0;
  #writeSeq = 0;
  #built: Promise<void> | null = null;
  #refreshing: Promise<void> | null = null;
  #checkedAt = 0;
  #buildMs: number | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(store: CatalogueStore<PoCatalog>, workbench: Workbench, options: MemoryOptions = {}) {
    this.#store = store;
    this.#workbench = workbench;
    this.#refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Starts the first build (once) and follows the store's writes; resolves when built. */
  start(): Promise<void> {
    if (this.#built === null) {
      this.#unsubscribe = this.#store.onWritten((written) => this.#onWritten(written));
      const started = this.#now();
      this.#built = this.#sync().then(() => {
        this.#buildMs = this.#now() - started;
      });
      // A failed build is retried by the next query.
      this.#built.catch(() => {
        this.#built = null;
        this.#unsubscribe?.();
      });
    }
    return this.#built;
  }

  /** Stops following the store's writes. */
  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  stats(): MemoryStats {
    return {
      catalogues: this.#slotOf.size,
      entries: this.#entries,
      msgids: this.#idOf.size,
      words: this.#postings.size,
      buildMs: this.#buildMs,
    };
  }

  /**
   * The entries whose msgids are closest to `query.msgid`, best first: with a catalogue given,
   * those of its language first (up to `limit`), then the same msgid in each other language (up to
   * `limit`); without, every language alike (up to `limit`). The queried entry itself is left out.
   *
   * @throws {OutsideRootsError} / NotFoundError `filePath` is refused by the path policy.
   * @throws the signal's reason once aborted (the build or refresh it waited for goes on).
   */
  async suggest(query: SuggestQuery): Promise<SuggestAnswer> {
    const { signal } = query;
    signal?.throwIfAborted();
    let self: { filePath: string; msgctxt: string | null } | null = null;
    let language: string | null = null;
    if (query.filePath !== null) {
      const path = await this.#store.resolve(query.filePath, { mustExist: true });
      self = { filePath: path.lexicalPath, msgctxt: query.msgctxt };
      language = pathLanguage(relative(path.root, path.lexicalPath)) ?? rootLanguage(path.root);
      const known = this.#slotOf.get(path.lexicalPath);
      if (known !== undefined) language = this.#slots[known]!.language;
    }
    await abortable(this.#fresh(), signal);
    if (self !== null) {
      const known = this.#slotOf.get(self.filePath);
      if (known !== undefined) language = this.#slots[known]!.language;
    }
    const languageKey = language === null ? null : normaliseLanguage(language);
    const minScore = query.minScore ?? DEFAULT_MIN_SCORE;
    const { suggestions, unscored } = this.#closest(
      query.msgid,
      languageKey,
      query.limit,
      minScore,
      self,
      signal,
    );
    if (languageKey !== null) {
      suggestions.push(...this.#otherLanguages(query.msgid, languageKey, query.limit));
    }
    return unscored > 0 ? { suggestions, language, unscored } : { suggestions, language };
  }

  /**
   * The build once (waited for); later, when the last check of the tree's stats is old, a new one
   * in the background: this query answers from the index as it is (writes through the store are
   * in it already), the next ones see what the check found.
   */
  async #fresh(): Promise<void> {
    await this.start();
    if (this.#now() - this.#checkedAt < this.#refreshMs || this.#refreshing !== null) return;
    const refreshing = this.#sync().catch(() => {}).finally(() => {
      if (this.#refreshing === refreshing) this.#refreshing = null;
    });
    this.#refreshing = refreshing;
  }

  /** Settles when the background check started by a query (if any) is done. */
  async settled(): Promise<void> {
    await this.#built;
    await this.#refreshing;
  }

  /** Indexes every catalogue whose revision differs from the one indexed; forgets the vanished. */
  async #sync(): Promise<void> {
    const checkStarted = this.#now();
    const { files, truncated } = await this.#workbench.listing({});
    const listed = new Set<string>();
    for (const file of files) {
      if (file.summary.kind !== "catalogue") continue;
      listed.add(file.filePath);
      const known = this.#slotOf.get(file.filePath);
      if (known !== undefined && this.#slots[known]!.revision === file.summary.revision) continue;
      await this.#indexFile(file);
    }
    if (truncated === null) {
      for (const filePath of [...this.#slotOf.keys()]) if (!listed.has(filePath)) this.#drop(filePath);
    }
    this.#checkedAt = checkStarted;
  }

  async #indexFile(file: CatalogueFile): Promise<void> {
    const seq = this.#writeSeq;
    let doc: PoCatalog;
    let revision: string;
    for (let attempt = 1;; attempt++) {
      try {
        const read = await this.#store.readBytes(file.filePath);
        revision = read.revision;
        doc = await this.#store.parseBytes(read.bytes, file.filePath);
        break;
      } catch (error) {
        // The service is busy with large work: the file waits its turn rather than being dropped.
        if (error instanceof BusyError && attempt < BUSY_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
          continue;
        }
        if (error instanceof BusyError) return; // kept as indexed before; the next check retries
        // Unreadable now (refused, gone, a syntax error): not in the memory until it reads again.
        if (error instanceof DomainError) {
          this.#drop(file.filePath);
          return;
        }
        throw error;
      }
    }
    const known = this.#slotOf.get(file.filePath);
    // A write indexed while this read was under way knows better.
    if (known !== undefined && this.#slots[known]!.writtenAt > seq) return;
    const root = this.#store.roots.find((r) => file.filePath.startsWith(r)) ?? "";
    const language = file.summary.language ?? rootLanguage(root);
    this.#put(file.filePath, doc, revision, language, 0);
  }

  #onWritten({ path, doc, revision }: WrittenCatalogue<PoCatalog>): void {
    if (!path.lexicalPath.endsWith(".po")) return;
    const language = catalogueLanguage(doc, relative(path.root, path.lexicalPath)) ?? rootLanguage(path.root);
    this.#put(path.lexicalPath, doc, revision, language, ++this.#writeSeq);
  }

  /**
   * Replaces the catalogue's entries in the index with `doc`'s. The new entries are indexed before
   * the old ones are dropped: a msgid both carry stays interned (a write that changes one entry of a
   * 10,000-entry catalogue re-interned all its msgids, their words and histograms: 0.1 s a write).
   */
  #put(filePath: string, doc: PoCatalog, revision: string, language: string | null, writtenAt: number): void {
    const previous = this.#slotOf.get(filePath);
    const kept: PoMessage[] = [];
    for (const message of doc.messages) {
      if (kept.length >= MAX_ENTRIES_PER_FILE) break;
      if (message.msgid === "" && message.msgctxt === null) continue; // the header
      const msgstr = translationOf(message);
      if (msgstr === "") continue;
      if (!message.obsolete && message.flags.includes("fuzzy")) continue;
      kept.push(message);
    }
    const slot = this.#freeSlots.pop() ?? this.#slots.length;
    const ids = new Uint32Array(kept.length);
    let msgctxts: Map<number, string> | null = null;
    const offsets = new Uint32Array(kept.length + 1);
    const obsolete = new Uint8Array(kept.length);
    let text = new Uint8Array(1024);
    let used = 0;
    for (let i = 0; i < kept.length; i++) {
      const message = kept[i]!;
      const id = this.#intern(message.msgid);
      ids[i] = id;
      if (message.msgctxt !== null) (msgctxts ??= new Map()).set(i, message.msgctxt);
      const msgstr = translationOf(message);
      // At most 3 bytes of UTF-8 per UTF-16 code unit.
      if (used + 3 * msgstr.length > text.length) {
        const grown = new Uint8Array(Math.max(2 * text.length, used + 3 * msgstr.length));
        grown.set(text.subarray(0, used));
        text = grown;
      }
      used += UTF8.encodeInto(msgstr, text.subarray(used)).written;
      offsets[i + 1] = used;
      obsolete[i] = message.obsolete ? 1 : 0;
      this.#occurrences[id]!.push(slot * MAX_ENTRIES_PER_FILE + i);
    }
    this.#slots[slot] = {
      filePath,
      revision,
      language,
      languageKey: language === null ? null : normaliseLanguage(language),
      ids,
      msgctxts,
      // Kept at its size: a copy, so the grown buffer is freed.
      text: text.slice(0, used),
      offsets,
      obsolete,
      writtenAt,
    };
    if (previous !== undefined) this.#dropSlot(previous);
    this.#slotOf.set(filePath, slot);
    this.#entries += kept.length;
  }

  /** Removes a catalogue's entries; a msgid no entry carries any more is forgotten. */
  #drop(filePath: string): void {
    const slot = this.#slotOf.get(filePath);
    if (slot !== undefined) this.#dropSlot(slot);
  }

  #dropSlot(slot: number): void {
    const record = this.#slots[slot]!;
    const low = slot * MAX_ENTRIES_PER_FILE, high = low + MAX_ENTRIES_PER_FILE;
    for (const id of new Set(record.ids)) {
      const list = this.#occurrences[id]!;
      let w = 0;
      for (let r = 0; r < list.length; r++) {
        const at = list[r]!;
        if (at < low || at >= high) list[w++] = at;
      }
      list.length = w;
      if (w === 0) this.#forget(id);
    }
    this.#entries -= record.ids.length;
    this.#slots[slot] = null;
    this.#freeSlots.push(slot);
    if (this.#slotOf.get(record.filePath) === slot) this.#slotOf.delete(record.filePath);
  }

  #intern(msgid: string): number {
    const known = this.#idOf.get(msgid);
    if (known !== undefined) return known;
    const id = this.#msgids.length;
    this.#msgids.push(msgid);
    this.#occurrences.push([]);
    this.#idOf.set(msgid, id);
    if ((id + 1) * BUCKETS > this.#histograms.length) {
      const grown = new Uint16Array(this.#histograms.length * 2);
      grown.set(this.#histograms);
      this.#histograms = grown;
      const lengths = new Int32Array(this.#byteLengths.length * 2);
      lengths.set(this.#byteLengths);
      this.#byteLengths = lengths;
    }
    const bytes = utf8.encode(msgid);
    this.#byteLengths[id] = bytes.length;
    byteHistogram(bytes, this.#histograms.subarray(id * BUCKETS, (id + 1) * BUCKETS));
    for (const word of wordsOf(msgid)) {
      const list = this.#postings.get(word);
      if (list !== undefined) {
        list.push(id);
        continue;
      }
      this.#postings.set(word, [id]);
      const stem = stemOf(word);
      if (stem === null) continue;
      const words = this.#stems.get(stem);
      if (words === undefined) this.#stems.set(stem, [word]);
      else words.push(word);
    }
    return id;
  }

  /** A msgid no entry carries: its postings stay (skipped) until there are as many as live ones. */
  #forget(id: number): void {
    this.#idOf.delete(this.#msgids[id]!);
    this.#msgids[id] = null;
    this.#deadIds++;
    if (this.#deadIds > 1024 && this.#deadIds > this.#idOf.size) this.#compactPostings();
  }

  #compactPostings(): void {
    for (const [word, list] of this.#postings) {
      let w = 0;
      for (const id of list) if (this.#msgids[id] !== null) list[w++] = id;
      list.length = w;
      if (w > 0) continue;
      this.#postings.delete(word);
      const stem = stemOf(word);
      const words = stem === null ? undefined : this.#stems.get(stem);
      if (words === undefined) continue;
      const at = words.indexOf(word);
      if (at >= 0) words.splice(at, 1);
      if (words.length === 0) this.#stems.delete(stem!);
    }
    this.#deadIds = 0;
    // Numbers of forgotten msgids are not reused: postings stay in ascending order.
  }

  /** The UTF-8 bytes of msgid `id`, in a buffer the next call reuses. */
  #bytesOf(id: number): Uint8Array {
    const length = this.#byteLengths[id]!;
    if (this.#candidateBytes.length < length) this.#candidateBytes = new Uint8Array(length * 2);
    utf8.encodeInto(this.#msgids[id]!, this.#candidateBytes);
    return this.#candidateBytes.subarray(0, length);
  }

  /** The close msgids of `msgid` carried by entries of `languageKey` (null: any), best first. */
  #closest(
    msgid: string,
    languageKey: string | null,
    limit: number,
    minScore: number,
    self: { filePath: string; msgctxt: string | null } | null,
    signal: AbortSignal | undefined,
  ): { suggestions: Suggestion[]; unscored: number } {
    const candidates = this.#candidates(msgid);
    const exact = this.#idOf.get(msgid);
    if (exact !== undefined && !candidates.includes(exact)) candidates.unshift(exact);
    const queryBytes = utf8.encode(msgid);
    const queryHistogram = byteHistogram(queryBytes);
    let pattern: LcsPattern | undefined;
    const queryWords = wordCounts(msgid);
    const budget: FuzzyBudget = {
      comparisons: Infinity,
      work: MAX_SCORE_WORK,
      deadline: Infinity,
      spent: false,
    };
    // The best `limit` msgids found so far that have an entry to suggest, lowest first.
    const best: { id: number; value: number }[] = [];
    let floor = minScore / 100;
    // Candidates that passed the cheap bounds but were not scored: the query's work was spent, or
    // one comparison alone would cost more than MAX_COMPARISON_WORK (two long msgids).
    let unscored = 0;
    for (let c = 0; c < candidates.length; c++) {
      if ((c & 15) === 15) signal?.throwIfAborted();
      const id = candidates[c]!;
      const text = this.#msgids[id]!;
      const ceiling = similarityCeiling(
        queryHistogram,
        queryBytes.length,
        this.#histograms.subarray(id * BUCKETS, (id + 1) * BUCKETS),
        this.#byteLengths[id]!,
      );
      if (ceiling < floor) continue;
      if (id !== exact && !sharesWords(queryWords, text)) continue;
      if (!this.#hasEntry(id, languageKey, self, msgid)) continue;
      const cost = this.#byteLengths[id]! * Math.ceil(queryBytes.length / 32);
      if (id !== exact && (budget.work <= 0 || cost > MAX_COMPARISON_WORK)) {
        unscored++;
        continue;
      }
      const value = id === exact
        ? 1
        : fuzzySimilarity(pattern ??= new LcsPattern(queryBytes), this.#bytesOf(id), floor, budget);
      if (value < floor) continue;
      best.push({ id, value });
      best.sort((a, b) => a.value - b.value || b.id - a.id);
      if (best.length > limit) best.shift();
      if (best.length === limit) floor = Math.max(floor, best[0]!.value);
    }
    best.reverse();
    const out: Suggestion[] = [];
    for (const { id, value } of best) {
      const text = this.#msgids[id]!;
      const seen = new Set<string>();
      for (const at of this.#occurrences[id]!) {
        if (out.length >= limit) break;
        const slot = this.#slots[Math.floor(at / MAX_ENTRIES_PER_FILE)]!;
        const i = at % MAX_ENTRIES_PER_FILE;
        if (languageKey !== null && slot.languageKey !== languageKey) continue;
        if (isSelf(slot, i, self, text, msgid)) continue;
        const suggestion = this.#suggestion(slot, i, text, scoreOf(value, id === exact), id === exact);
        // The same translation in several catalogues (or branches) is one suggestion.
        const key =
          `${suggestion.language}\0${suggestion.msgctxt}\0${suggestion.msgstr}\0${suggestion.obsolete}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(suggestion);
      }
    }
    // Best first; among equals, live entries before obsolete ones.
    out.sort((a, b) => b.score - a.score || Number(a.obsolete) - Number(b.obsolete));
    return { suggestions: out, unscored };
  }

  /** The same msgid's translations in languages other than `languageKey`: one per language. */
  #otherLanguages(msgid: string, languageKey: string, limit: number): Suggestion[] {
    const id = this.#idOf.get(msgid);
    if (id === undefined) return [];
    const byLanguage = new Map<string, Suggestion>();
    for (const at of this.#occurrences[id]!) {
      const slot = this.#slots[Math.floor(at / MAX_ENTRIES_PER_FILE)]!;
      if (slot.languageKey === languageKey) continue;
      const key = slot.languageKey ?? "";
      const i = at % MAX_ENTRIES_PER_FILE;
      const held = byLanguage.get(key);
      if (held && !(held.obsolete && slot.obsolete[i] === 0)) continue;
      byLanguage.set(key, this.#suggestion(slot, i, msgid, 100, true));
    }
    return [...byLanguage.values()]
      .sort((a, b) => (a.language ?? "\uffff").localeCompare(b.language ?? "\uffff"))
      .slice(0, limit);
  }

  #suggestion(slot: FileSlot, i: number, msgid: string, score: number, same: boolean): Suggestion {
    return {
      score,
      msgid,
      msgctxt: msgctxtOf(slot, i),
      msgstr: msgstrOf(slot, i),
      file_path: slot.filePath,
      language: slot.language,
      obsolete: slot.obsolete[i] === 1,
      same_msgid: same,
    };
  }

  /** Whether some entry with msgid `id` may be suggested (in the language, not the query itself). */
  #hasEntry(
    id: number,
    languageKey: string | null,
    self: { filePath: string; msgctxt: string | null } | null,
    msgid: string,
  ): boolean {
    const text = this.#msgids[id]!;
    for (const at of this.#occurrences[id]!) {
      const slot = this.#slots[Math.floor(at / MAX_ENTRIES_PER_FILE)]!;
      if (languageKey !== null && slot.languageKey !== languageKey) continue;
      if (isSelf(slot, at % MAX_ENTRIES_PER_FILE, self, text, msgid)) continue;
      return true;
    }
    return false;
  }

  /**
   * Msgids sharing the most (rarity-weighted) words with `msgid`, at most {@link CANDIDATES}. A
   * short query (a term, a label: fewer than {@link WORD_TEST_FROM} words) also looks up the words
   * that share a word's stem, at half weight: "annotations" finds "annotation".
   */
  #candidates(msgid: string): number[] {
    const live = Math.max(1, this.#idOf.size);
    const queryWords = [...new Set(wordsOf(msgid))].slice(0, MAX_QUERY_WORDS);
    const looked: { list: number[]; factor: number }[] = [];
    for (const word of queryWords) {
      const list = this.#postings.get(word);
      if (list !== undefined) looked.push({ list, factor: 1 });
      const stem = queryWords.length < WORD_TEST_FROM ? stemOf(word) : null;
      for (
        const other of (stem === null ? undefined : this.#stems.get(stem))?.slice(0, MAX_STEM_WORDS) ?? []
      ) {
        if (other !== word) looked.push({ list: this.#postings.get(other)!, factor: 0.5 });
      }
    }
    looked.sort((a, b) => a.list.length - b.list.length);
    if (this.#weights.length < this.#msgids.length) this.#weights = new Float64Array(this.#msgids.length * 2);
    const weights = this.#weights;
    const touched: number[] = [];
    let visited = 0;
    for (const { list, factor } of looked) {
      if (visited + list.length > MAX_POSTINGS_VISITED && visited > 0) break;
      visited += list.length;
      const weight = factor * Math.log(1 + live / list.length);
      for (let i = 0; i < list.length; i++) {
        const id = list[i]!;
        if (weights[id] === 0) touched.push(id);
        weights[id] = weights[id]! + weight;
      }
    }
    const heap = heaviest(touched, weights, CANDIDATES, (id) => this.#msgids[id] !== null);
    for (const id of touched) weights[id] = 0;
    return heap;
  }
}

function isSelf(
  slot: FileSlot,
  i: number,
  self: { filePath: string; msgctxt: string | null } | null,
  text: string,
  msgid: string,
): boolean {
  return self !== null && slot.filePath === self.filePath && text === msgid &&
    msgctxtOf(slot, i) === self.msgctxt;
}

const UTF8 = new TextEncoder();
const FROM_UTF8 = new TextDecoder();

function msgctxtOf(slot: FileSlot, i: number): string | null {
  return slot.msgctxts?.get(i) ?? null;
}

function msgstrOf(slot: FileSlot, i: number): string {
  return FROM_UTF8.decode(slot.text.subarray(slot.offsets[i]!, slot.offsets[i + 1]!));
}

/** A message's translation: msgstr, or msgstr[0] of a plural one. */
function translationOf(message: PoMessage): string {
  return message.msgstrPlural === null ? message.msgstr : message.msgstrPlural[0] ?? "";
}
