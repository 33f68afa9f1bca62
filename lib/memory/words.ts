/**
 * The words side of the translation memory: what a word is, a word's stem, how much two sentences
 * share, and the heaviest candidates of a query.
 *
 * @module
 */

/** Words of a sentence below which {@link sharesWords} lets every candidate through. */
export const WORD_TEST_FROM = 5;
/** Characters of a word's stem: "annotation" and "annotations", "class" and "classes" share one. */
const STEM_CHARS = 5;
/** Words of one stem a query looks up. */
export const MAX_STEM_WORDS = 64;

/** A word's stem (its first {@link STEM_CHARS} characters), or null for a shorter word. */
export function stemOf(word: string): string | null {
  return word.length >= STEM_CHARS ? word.slice(0, STEM_CHARS) : null;
}
/** Least share of words in common (Dice, counted with repeats) between two sentences. */
const MIN_WORD_SHARE = 0.5;

/** How often each word occurs in `text`, and how many words it has. */
export function wordCounts(text: string): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  const words = wordsOf(text);
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return { counts, total: words.length };
}

/**
 * Whether a candidate sentence shares at least {@link MIN_WORD_SHARE} of its words with the query's:
 * characters alone make two unrelated English sentences of one length look 60 % alike (the
 * common letters and little words), which is msgmerge's noise and, for paragraphs, most of the
 * edit count's work. Short strings (a term, a label) are left to the character measure.
 */
export function sharesWords(query: { counts: Map<string, number>; total: number }, text: string): boolean {
  if (query.total < WORD_TEST_FROM) return true;
  const words = wordsOf(text);
  if (words.length < WORD_TEST_FROM) return true;
  const left = new Map(query.counts);
  let common = 0;
  for (const word of words) {
    const n = left.get(word);
    if (n) {
      common++;
      left.set(word, n - 1);
    }
  }
  return (2 * common) / (query.total + words.length) >= MIN_WORD_SHARE;
}

/** The words of a text, lower-cased: runs of letters and digits (any non-ASCII character counts). */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const inWord = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ||
      c >= 128;
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= 64) out.push(text.slice(start, i).toLowerCase());
      start = -1;
    }
  }
  return out;
}

/**
 * The (at most) `k` ids of `touched` with the most weight, heaviest first (ties: the lower id),
 * skipping those `alive` refuses: a min-heap, O(touched · log k).
 */
export function heaviest(
  touched: readonly number[],
  weights: Float64Array,
  k: number,
  alive: (id: number) => boolean,
): number[] {
  const heap: number[] = [];
  const lighter = (a: number, b: number) => weights[a]! < weights[b]! || (weights[a] === weights[b] && a > b);
  for (const id of touched) {
    if (!alive(id)) continue;
    if (heap.length < k) {
      heap.push(id);
      for (let c = heap.length - 1; c > 0;) {
        const p = (c - 1) >> 1;
        if (!lighter(heap[c]!, heap[p]!)) break;
        [heap[c], heap[p]] = [heap[p]!, heap[c]!];
        c = p;
      }
    } else if (lighter(heap[0]!, id)) {
      heap[0] = id;
      for (let p = 0;;) {
        const l = 2 * p + 1, r = l + 1;
        let m = p;
        if (l < heap.length && lighter(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && lighter(heap[r]!, heap[m]!)) m = r;
        if (m === p) break;
        [heap[m], heap[p]] = [heap[p]!, heap[m]!];
        p = m;
      }
    }
  }
  heap.sort((a, b) => weights[b]! - weights[a]! || a - b);
  return heap;
}
