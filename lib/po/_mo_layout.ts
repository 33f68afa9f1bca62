/**
 * The binary MO layout (GNU gettext manual, "The Format of GNU MO Files"): read the string pairs
 * of an MO file, and lay pairs out again, as gettext-parser does (little-endian, revision 0, no
 * hash table, originals then translations, each NUL-terminated). Used by `compile.ts` to repair
 * gettext-parser's output; not an MO compiler of its own.
 *
 * @module
 */

/** One original string and its translation, as bytes (plural forms joined by NUL). */
export interface MoPair {
  id: Uint8Array;
  str: Uint8Array;
}

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

/** An MO file holding `pairs` in the given order (sort them by {@link compareBytes} first). */
export function layoutMo(pairs: readonly MoPair[]): Uint8Array {
  const n = pairs.length;
  let size = 28 + 16 * n;
  for (const p of pairs) size += p.id.length + 1 + p.str.length + 1;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 0, true);
  view.setUint32(8, n, true);
  view.setUint32(12, 28, true);
  view.setUint32(16, 28 + 8 * n, true);
  view.setUint32(20, 0, true);
  view.setUint32(24, 28 + 16 * n, true);
  let at = 28 + 16 * n;
  const put = (table: number, i: number, s: Uint8Array) => {
    view.setUint32(table + 8 * i, s.length, true);
    view.setUint32(table + 8 * i + 4, at, true);
    out.set(s, at);
    at += s.length + 1;
  };
  pairs.forEach((p, i) => put(28, i, p.id));
  pairs.forEach((p, i) => put(28 + 8 * n, i, p.str));
  return out;
}
