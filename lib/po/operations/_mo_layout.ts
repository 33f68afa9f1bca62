/**
 * The binary MO layout (GNU gettext manual, "The Format of GNU MO Files"): read the string pairs
 * of an MO file, and lay pairs out again as msgfmt 0.21 does (little-endian, alignment 1, with its
 * hash table, and system-dependent strings in minor revision 1). Used by `compile.ts` to repair
 * gettext-parser's output and add what it cannot write.
 *
 * @module
 */

/** One original string and its translation, as bytes (plural forms joined by NUL). */
export interface MoPair {
  id: Uint8Array;
  str: Uint8Array;
}

import { InvalidInputError } from "../../errors.ts";
import type { SysdepInterval } from "./_mo_sysdep.ts";

const MAGIC = 0x950412de;

/**
 * The pairs of an MO file, in table order.
 *
 * @throws {RangeError} not an MO file, or a table that points outside it.
 */
export function readMoPairs(bytes: Uint8Array): MoPair[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 28) throw new RangeError("not an MO file: too short");
  let little = true;
  if (view.getUint32(0, true) !== MAGIC) {
    if (view.getUint32(0, false) !== MAGIC) throw new RangeError("not an MO file: bad magic number");
    little = false;
  }
  const n = view.getUint32(8, little);
  const originals = view.getUint32(12, little);
  const translations = view.getUint32(16, little);
  const string = (table: number, i: number) => {
    const length = view.getUint32(table + 8 * i, little);
    const offset = view.getUint32(table + 8 * i + 4, little);
    if (offset + length > bytes.length) throw new RangeError("not an MO file: a string lies outside it");
    return bytes.subarray(offset, offset + length);
  };
  const pairs: MoPair[] = [];
  for (let i = 0; i < n; i++) pairs.push({ id: string(originals, i), str: string(translations, i) });
  return pairs;
}

/** Byte order of two strings (strcmp's, which libintl's binary search uses). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * A pair with system-dependent strings (MO minor revision 1): the bytes as in {@link MoPair}, and
 * where the `<inttypes.h>` directives (and `I` flags) lie in each, as byte intervals.
 */
export interface MoSysdepPair extends MoPair {
  idDirectives: readonly SysdepInterval[];
  strDirectives: readonly SysdepInterval[];
}

/** One string of a sysdep pair cut at its directives: static pieces and the segment between each. */
interface Cut {
  pieces: Uint8Array[];
  refs: number[];
}

/**
 * An MO file as msgfmt 0.21 lays it out (write-mo.c, alignment 1, little-endian): `pairs` (sort
 * them by {@link compareBytes} first) in the string tables, its hash table over them, and `sysdep`
 * pairs, in the catalogue's order, as system-dependent strings: each string cut at its directives,
 * the directive names (`PRIu32`, `I`) shared in one segment table. With any sysdep pair the file
 * is minor revision 1 (major revision 1 too if one uses `I`, as msgfmt marks it).
 *
 * @throws {InvalidInputError} the file would pass 4 GiB, which 32-bit offsets cannot address.
 */
export function layoutMo(pairs: readonly MoPair[], sysdep: readonly MoSysdepPair[] = []): Uint8Array {
  const n = pairs.length;
  const ns = sysdep.length;
  // The segment names, shared, in the order msgfmt meets them (each pair's id, then its str).
  const names = new Map<string, number>();
  const nameBytes: Uint8Array[] = [];
  let outdigits = false;
  const cut = (bytes: Uint8Array, directives: readonly SysdepInterval[]): Cut => {
    const whole = new Uint8Array(bytes.length + 1); // with the NUL, which the last piece keeps
    whole.set(bytes);
    const pieces: Uint8Array[] = [];
    const refs: number[] = [];
    let last = 0;
    for (const { start, end } of directives) {
      pieces.push(whole.subarray(last, start));
      let name = whole.subarray(start, end);
      if (name.length >= 2 && name[0] === 0x3c && name[name.length - 1] === 0x3e) name = name.subarray(1, -1);
      const key = String.fromCharCode(...name);
      let ref = names.get(key);
      if (ref === undefined) {
        ref = nameBytes.length;
        names.set(key, ref);
        nameBytes.push(name);
      }
      if (key === "I") outdigits = true;
      refs.push(ref);
      last = end;
    }
    pieces.push(whole.subarray(last));
    return { pieces, refs };
  };
  const cuts = sysdep.map((p) => [cut(p.id, p.idDirectives), cut(p.str, p.strDirectives)] as const);
  const minor = ns > 0 ? 1 : 0;
  const hashSize = Math.max(nextPrime(Math.floor(((n + ns) * 4) / 3)), 3);

  let offset = minor ? 48 : 28;
  const origTab = offset;
  offset += 8 * n;
  const transTab = offset;
  offset += 8 * n;
  const hashTab = offset;
  offset += 4 * hashSize;
  const segmentTab = offset;
  offset += 8 * nameBytes.length;
  const origSysdepTab = offset;
  offset += 4 * ns;
  const transSysdepTab = offset;
  offset += 4 * ns;
  const descriptors = offset;
  for (let m = 0; m < 2; m++) for (const c of cuts) offset += 4 + 8 * c[m]!.pieces.length;
  let size = offset;
  for (const p of pairs) size += p.id.length + 1 + p.str.length + 1;
  for (const name of nameBytes) size += name.length + 1;
  for (const c of cuts) for (const piece of [...c[0].pieces, ...c[1].pieces]) size += piece.length;
  if (size > 0xffffffff) {
    throw new InvalidInputError(`Cannot compile: the MO file would take ${size} bytes, over its 4 GiB limit`);
  }

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const u32 = (where: number, value: number) => view.setUint32(where, value, true);
  u32(0, MAGIC);
  u32(4, ((outdigits ? 1 : 0) << 16) + minor);
  u32(8, n);
  u32(12, origTab);
  u32(16, transTab);
  u32(20, hashSize);
  u32(24, hashTab);
  if (minor) {
    u32(28, nameBytes.length);
    u32(32, segmentTab);
    u32(36, ns);
    u32(40, origSysdepTab);
    u32(44, transSysdepTab);
  }
  let at = offset;
  const put = (table: number, i: number, s: Uint8Array) => {
    u32(table + 8 * i, s.length);
    u32(table + 8 * i + 4, at);
    out.set(s, at);
    at += s.length + 1;
  };
  pairs.forEach((p, i) => put(origTab, i, p.id));
  pairs.forEach((p, i) => put(transTab, i, p.str));
  // The hash table (write-mo.c): open addressing with double hashing on the msgctxt+msgid string.
  pairs.forEach((p, i) => {
    const hash = hashString(p.id);
    let idx = hash % hashSize;
    if (view.getUint32(hashTab + 4 * idx, true) !== 0) {
      const incr = 1 + (hash % (hashSize - 2));
      do idx = idx >= hashSize - incr ? idx - (hashSize - incr) : idx + incr; while (
        view.getUint32(hashTab + 4 * idx, true) !== 0
      );
    }
    u32(hashTab + 4 * idx, i + 1);
  });
  if (minor) {
    nameBytes.forEach((name, i) => {
      u32(segmentTab + 8 * i, name.length + 1);
      u32(segmentTab + 8 * i + 4, at);
      out.set(name, at);
      at += name.length + 1;
    });
    let descriptor = descriptors;
    for (let m = 0; m < 2; m++) {
      cuts.forEach((c, j) => {
        const { pieces, refs } = c[m]!;
        u32((m === 0 ? origSysdepTab : transSysdepTab) + 4 * j, descriptor);
        u32(descriptor, at);
        descriptor += 4;
        pieces.forEach((piece, k) => {
          u32(descriptor, piece.length);
          u32(descriptor + 4, k < refs.length ? refs[k]! : SEGMENTS_END);
          descriptor += 8;
          out.set(piece, at);
          at += piece.length;
        });
      });
    }
  }
  return out;
}

const SEGMENTS_END = 0xffffffff;

/** gettext's hash_string (hashpjw) over `s` up to its first NUL, in 32 bits. */
export function hashString(s: Uint8Array): number {
  let hval = 0;
  for (const c of s) {
    if (c === 0) break;
    hval = ((hval << 4) + c) >>> 0;
    const g = hval & 0xf0000000;
    if (g !== 0) hval = (hval ^ (g >>> 24) ^ g) >>> 0;
  }
  return hval;
}

/** gnulib's next_prime: the smallest odd number >= seed that its trial division calls prime. */
function nextPrime(seed: number): number {
  seed |= 1;
  const isPrime = (candidate: number) => {
    let divn = 3;
    let sq = divn * divn;
    while (sq < candidate && candidate % divn !== 0) {
      ++divn;
      sq += 4 * divn;
      ++divn;
    }
    return candidate % divn !== 0;
  };
  while (!isPrime(seed)) seed += 2;
  return seed;
}
