/**
 * JOHAB (KS C 5601-1992 annex 3), which no WHATWG decoder knows: the character of each two-byte
 * sequence, for `_legacy_charset.ts` to build its codec from (glibc's own readings, where they
 * differ, are applied there as for every charset). Hangul syllables and jamo are composed of three
 * 5-bit indices; symbols and Hanja are KS X 1001's, moved by a formula from their EUC-KR rows.
 *
 * @module
 */

/** 5-bit medial (jungseong) codes of the 21 vowels, in Unicode order (2 is the filler). */
const MEDIALS = [3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 26, 27, 28, 29];
/** Compatibility jamo of the 19 initials (5-bit codes 2…20). */
const INITIAL_JAMO = [
  0x3131,
  0x3132,
  0x3134,
  0x3137,
  0x3138,
  0x3139,
  0x3141,
  0x3142,
  0x3143,
  0x3145,
  0x3146,
  0x3147,
  0x3148,
  0x3149,
  0x314a,
  0x314b,
  0x314c,
  0x314d,
  0x314e,
];
/** Compatibility jamo of the 27 finals (5-bit codes 2…17, 19…29). */
const FINAL_JAMO = [
  0x3131,
  0x3132,
  0x3133,
  0x3134,
  0x3135,
  0x3136,
  0x3137,
  0x3139,
  0x313a,
  0x313b,
  0x313c,
  0x313d,
  0x313e,
  0x313f,
  0x3140,
  0x3141,
  0x3142,
  0x3144,
  0x3145,
  0x3146,
  0x3147,
  0x3148,
  0x314a,
  0x314b,
  0x314c,
  0x314d,
  0x314e,
];

/**
 * The character of every JOHAB two-byte sequence (as a number: 0x8861 for 88 61), from the
 * EUC-KR characters `ksc` (KS X 1001, as the EUC-KR codec reads them).
 */
export function johabCharacters(ksc: ReadonlyMap<number, string>): Map<number, string> {
  const out = new Map<number, string>();
  // Hangul: 1 | initial (5 bits) | medial (5 bits) | final (5 bits); 1, 2 and 1 are the fillers.
  for (let l = 1; l <= 20; l++) {
    for (let vi = -1; vi < MEDIALS.length; vi++) {
      const v = vi < 0 ? 2 : MEDIALS[vi]!;
      for (let ti = -1; ti < FINAL_JAMO.length; ti++) {
        const t = ti < 0 ? 1 : ti < 16 ? ti + 2 : ti + 3;
        const seq = 0x8000 | (l << 10) | (v << 5) | t;
        let cp = -1;
        if (l >= 2 && vi >= 0) cp = 0xac00 + ((l - 2) * 21 + vi) * 28 + (ti + 1);
        else if (l >= 2 && ti < 0) cp = INITIAL_JAMO[l - 2]!; // 2 <= l <= 20: 19 initials
        else if (l === 1 && vi >= 0 && ti < 0) cp = 0x314f + vi;
        else if (l === 1 && vi < 0 && ti >= 0) cp = FINAL_JAMO[ti]!; // 0 <= ti < FINAL_JAMO.length
        else if (l === 1 && vi < 0 && ti < 0) cp = 0x3164;
        if (cp >= 0) out.set(seq, String.fromCodePoint(cp));
      }
    }
  }
  // Symbols (KS X 1001 rows 0x21–0x2C) and Hanja (rows 0x4A–0x7D), two rows per JOHAB lead byte.
  for (const [seq, ch] of ksc) {
    const c1 = (seq >> 8) - 0x80;
    const c2 = (seq & 0xff) - 0x80;
    if (seq < 0x100 || c2 < 0x21 || c2 > 0x7e) continue;
    if (!((c1 >= 0x21 && c1 <= 0x2c) || (c1 >= 0x4a && c1 <= 0x7d))) continue;
    const t = c1 < 0x4a ? c1 - 0x21 + 0x1b2 : c1 - 0x21 + 0x197;
    const t2 = ((t & 1) !== 0 ? 0x5e : 0) + (c2 - 0x21);
    out.set(((t >> 1) << 8) | (t2 < 0x4e ? t2 + 0x31 : t2 + 0x43), ch);
  }
  return out;
}
