/**
 * How the memory scores a candidate: msgmerge's similarity (gettext's `fstrcmp`, the one in
 * `lib/po`'s fuzzy matching: 2·LCS / (|a| + |b|) over the UTF-8 bytes), after a bound that costs
 * O(64) per candidate ({@link similarityCeiling}): the lengths (a string cannot keep more bytes than
 * the shorter one has) and byte histograms (a common subsequence keeps at most min(count) of each).
 *
 * @module
 */

/** Buckets of the byte histogram of {@link similarityCeiling}. */
export const BUCKETS = 64;

/**
 * A byte histogram of `bytes` (folded into 64 buckets), for {@link similarityCeiling}: 64 small
 * counts, kept per msgid.
 */
export function byteHistogram(bytes: Uint8Array, out = new Uint16Array(BUCKETS)): Uint16Array {
  out.fill(0);
  for (let i = 0; i < bytes.length; i++) {
    const bucket = bytes[i]! & (BUCKETS - 1);
    if (out[bucket]! < 0xffff) out[bucket]!++;
  }
  return out;
}

/**
 * An upper bound of msgmerge's similarity of two strings of `queryLength` and `otherLength`
 * UTF-8 bytes: no common subsequence keeps more of a bucket's bytes than the string with fewer of
 * them has (folding bytes into buckets only raises the bound), nor more than the shorter string.
 * O(64).
 */
export function similarityCeiling(
  queryHistogram: Uint16Array,
  queryLength: number,
  other: Uint16Array,
  otherLength: number,
): number {
  const total = queryLength + otherLength;
  if (total === 0) return 1;
  let common = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const q = queryHistogram[i]!, o = other[i]!;
    common += q < o ? q : o;
  }
  // Counts saturate at 65535: then the lengths bound it.
  common = Math.min(common, queryLength, otherLength);
  if (queryLength >= 0xffff || otherLength >= 0xffff) common = Math.min(queryLength, otherLength);
  return (2 * common) / total;
}

/** A score (0..100) from a similarity: 100 only for identical strings. */
export function scoreOf(value: number, identical: boolean): number {
  if (identical) return 100;
  return Math.min(99, Math.floor(value * 100 + 1e-9));
}
