/**
 * msgmerge's fuzzy search (gettext 0.21 `msgl-fsearch.c`, `message.c`'s
 * `fuzzy_search_goal_function`, gnulib `fstrcmp.c`): for a template msgid with no exact match,
 * the translated catalogue entry whose msgid is most similar, if its similarity is above 0.6.
 *
 * Similarity is fstrcmp's: 2·LCS / (|a| + |b|) over the UTF-8 bytes (1 − edits/(|a| + |b|), edits
 * being insertions and deletions), computed here with a bit-parallel LCS (64 times fewer steps
 * than the diff gnulib runs; gnulib's gives up on a diff over ~4096 edit rounds and may then
 * count a few edits too many, which only strings of tens of kilobytes reach). A
 * candidate without msgctxt, or with the same one, gets a bonus of 0.00001. Candidates are the
 * entries with a non-empty first msgstr (obsolete and fuzzy ones included) that share at least
 * one 4-gram of characters with the msgid, tried in decreasing number of shared 4-grams, then
 * file order; a msgid of fewer than 4 characters is compared with every short msgid of a
 * length that could reach 0.6. The first best one wins.
 *
 * Bounded: msgmerge's search is O(entries × candidates × length²) and takes minutes on large
 * catalogues. A {@link FuzzyBudget} caps the comparisons, the byte·edit work and the time of one
 * merge; once it is spent, the remaining entries are not searched (they are added untranslated,
 * as with `--no-fuzzy-matching`) and counted, so the caller can say so.
 *
 * @module
 */
import type { PoMessage } from "../types.ts";

/** msgmerge's FUZZY_THRESHOLD. */
export const FUZZY_THRESHOLD = 0.6;

/** Limits of one merge's fuzzy matching. */
export interface FuzzyLimits {
  /** Most candidate comparisons in all (default 2,000,000). */
  maxComparisons: number;
  /** Most work in all, in byte × 32-byte-word steps of the comparisons (default 3·10⁹, some 10 s). */
  maxWork: number;
  /** Most wall-clock time spent searching, in ms (default 10,000). */
  maxMs: number;
}

/** Default {@link FuzzyLimits}. */
export const DEFAULT_FUZZY_LIMITS: FuzzyLimits = { maxComparisons: 2_000_000, maxWork: 3e9, maxMs: 10_000 };

/** What is left of the limits during one merge (shared by its domains). */
export interface FuzzyBudget {
  comparisons: number;
  work: number;
  deadline: number;
  spent: boolean;
}

const BONUS = 0.00001;
const SHORT_STRING_MAX_BYTES = 3 * 4;
const RATIO = 2 / FUZZY_THRESHOLD - 1;
const SHORT_MSG_MAX = /* @__PURE__ */ Math.trunc(SHORT_STRING_MAX_BYTES * RATIO);

const utf8 = /* @__PURE__ */ new TextEncoder();

/** An index of one domain's catalogue messages for fuzzy search (message_fuzzy_index_alloc). */
export class FuzzyIndex {
  readonly #messages: PoMessage[] = [];
  readonly #bytes: Uint8Array[] = [];
  /** 4-gram → messages containing it: keyed by its first two code points, then its last two. */
  readonly #grams = new Map<number, Map<number, number[]>>();
  readonly #short: number[][] = Array.from({ length: SHORT_MSG_MAX + 1 }, () => []);
  readonly #budget: FuzzyBudget;
  /** Shared-4-gram counts per message, zeroed after each search. */
  #counts: Int32Array | undefined;

  /** A fresh budget from `limits` (missing ones take {@link DEFAULT_FUZZY_LIMITS}). */
  static budget(limits: Partial<FuzzyLimits> = {}, now = performance.now()): FuzzyBudget {
    const l = { ...DEFAULT_FUZZY_LIMITS, ...limits };
    return { comparisons: l.maxComparisons, work: l.maxWork, deadline: now + l.maxMs, spent: false };
  }

  constructor(messages: readonly PoMessage[], budget: FuzzyBudget) {
    this.#budget = budget;
    for (const m of messages) {
      const first = m.msgidPlural !== null ? (m.msgstrPlural?.[0] ?? "") : m.msgstr;
      if (first === "") continue;
      const j = this.#messages.length;
      this.#messages.push(m);
      const bytes = utf8.encode(m.msgid);
      this.#bytes.push(bytes);
      forEachGram(m.msgid, (hi, lo) => {
        let inner = this.#grams.get(hi);
        if (inner === undefined) this.#grams.set(hi, inner = new Map());
        const list = inner.get(lo);
        if (list === undefined) inner.set(lo, [j]);
        else if (list[list.length - 1] !== j) list.push(j);
      });
      if (bytes.length <= SHORT_MSG_MAX) this.#short[bytes.length]!.push(j);
    }
  }

  /**
   * The most similar message to (msgctxt, msgid) with similarity above the threshold, null when
   * there is none, or "skipped" when the budget was spent before the search could be made.
   */
  search(msgctxt: string | null, msgid: string): PoMessage | null | "skipped" {
    const b = this.#budget;
    if (b.spent || performance.now() > b.deadline) {
      b.spent = true;
      return "skipped";
    }
    const target = new LcsPattern(utf8.encode(msgid));
    const order = this.#candidates(msgid, target.length);
    let best = FUZZY_THRESHOLD;
    let bestIndex = -1;
    for (const j of order) {
      if (
        --b.comparisons < 0 || b.work < 0 || ((b.comparisons & 0xff) === 0 && performance.now() > b.deadline)
      ) {
        b.spent = true;
        return "skipped";
      }
      const m = this.#messages[j]!;
      const bonus = m.msgctxt === null || (msgctxt !== null && msgctxt === m.msgctxt) ? BONUS : 0;
      const lowerBound = bonus > 0 ? best - bonus * 1.01 : best;
      const weight = similarity(target, this.#bytes[j]!, lowerBound, b) + bonus;
      if (weight > best) {
        best = weight;
        bestIndex = j;
      }
    }
    return this.#messages[bestIndex] ?? null;
  }

  /** Indices to try, in msgmerge's order. */
  #candidates(msgid: string, byteLength: number): number[] {
    const counts = this.#counts ??= new Int32Array(this.#messages.length);
    const touched: number[] = [];
    const grams = forEachGram(msgid, (hi, lo) => {
      const list = this.#grams.get(hi)?.get(lo);
      if (list === undefined) return;
      for (const j of list) if (counts[j]!++ === 0) touched.push(j);
    });
    if (grams > 0) {
      touched.sort((a, b) => counts[b]! - counts[a]! || a - b);
      for (const j of touched) counts[j] = 0;
      return touched;
    }
    // Fewer than 4 characters: every short msgid of a length that could reach the threshold.
    const out: number[] = [];
    const lmin = Math.ceil(byteLength / RATIO);
    const lmax = Math.trunc(byteLength * RATIO);
    for (let l = lmin; l <= Math.min(lmax, SHORT_MSG_MAX); l++) for (const j of this.#short[l]!) out.push(j);
    return out;
  }
}

const CP = 2 ** 21;

/**
 * Calls `fn` for each 4-gram of characters (code points) of `s`, repeats included, in order, as
 * two exact numbers (its first two code points, its last two); returns how many there were (0
 * under 4 characters). Numbers, not strings: building a catalogue's index made millions of
 * small strings (1.8 s for the 2 MB Spanish changelog).
 */
function forEachGram(s: string, fn: (hi: number, lo: number) => void): number {
  let c0 = 0, c1 = 0, c2 = 0;
  let seen = 0;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (++seen >= 4) {
      fn(c0 * CP + c1, c2 * CP + c);
      count++;
    }
    c0 = c1;
    c1 = c2;
    c2 = c;
  }
  return count;
}

/** A string prepared for bit-parallel LCS: per byte value, the bit set of its positions. */
export class LcsPattern {
  readonly length: number;
  readonly #words: number;
  readonly #masks = new Map<number, Uint32Array>();
  readonly #v: Uint32Array;

  constructor(readonly bytes: Uint8Array) {
    this.length = bytes.length;
    this.#words = Math.max(1, Math.ceil(bytes.length / 32));
    this.#v = new Uint32Array(this.#words);
    for (let i = 0; i < bytes.length; i++) {
      let mask = this.#masks.get(bytes[i]!);
      if (mask === undefined) this.#masks.set(bytes[i]!, mask = new Uint32Array(this.#words));
      mask[i >>> 5]! |= 1 << (i & 31);
    }
  }

  /**
   * The length of the longest common subsequence of this string and `other` (Allison–Dix /
   * Hyyrö's bit-parallel algorithm: O(|other| · ⌈|this| / 32⌉)).
   */
  lcs(other: Uint8Array): number {
    const words = this.#words;
    const v = this.#v;
    v.fill(0xffffffff);
    for (let i = 0; i < other.length; i++) {
      const mask = this.#masks.get(other[i]!);
      if (mask === undefined) continue;
      // V' = (V + U) | (V - U) with U = V & M; U is a subset of V, so V - U = V & ~U.
      let carry = 0;
      for (let w = 0; w < words; w++) {
        const vw = v[w]!;
        const u = vw & mask[w]!;
        const sum = vw + (u >>> 0) + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        v[w] = (sum >>> 0) | (vw & ~u);
      }
    }
    let zeros = 0;
    for (let i = 0; i < this.length; i++) if ((v[i >>> 5]! & (1 << (i & 31))) === 0) zeros++;
    return zeros;
  }
}

/**
 * fstrcmp_bounded: the similarity of `a` and `b` (2·LCS / (|a| + |b|) over bytes), or 0 when it
 * is certainly below `lowerBound`, as gnulib's returns then.
 */
export function similarity(
  a: Uint8Array | LcsPattern,
  b: Uint8Array,
  lowerBound: number,
  budget?: FuzzyBudget,
): number {
  const pattern = a instanceof LcsPattern ? a : new LcsPattern(a);
  const n = pattern.length;
  const m = b.length;
  const sum = n + m;
  if (sum === 0) return 1;
  if (lowerBound > 0) {
    if (1 - Math.abs(n - m) / sum < lowerBound) return 0;
    if (sum >= 20) {
      const occ = new Int32Array(256);
      const bytes = pattern.bytes;
      for (let i = 0; i < n; i++) occ[bytes[i]!]!++;
      for (let i = 0; i < m; i++) occ[b[i]!]!--;
      let diff = 0;
      for (let c = 0; c < 256; c++) diff += Math.abs(occ[c]!);
      if (1 - diff / sum < lowerBound) return 0;
    }
  }
  if (budget) budget.work -= m * Math.ceil(n / 32) + 1;
  // fstrcmp gives up past this many edits (insertions + deletions) and answers 0.
  const limit = lowerBound < 1 ? Math.trunc(sum * (1 - lowerBound + 0.000001)) : 0;
  const edits = sum - 2 * pattern.lcs(b);
  return edits > limit ? 0 : (sum - edits) / sum;
}
