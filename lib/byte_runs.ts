/**
 * Text kept as UTF-8 pieces that share buffers, and output assembled from runs of those bytes.
 * Made for large outputs rebuilt after small changes: a catalogue's 10,000 entries are encoded
 * once, and a version with one entry changed is three runs of existing bytes.
 *
 * @module
 */
import { equalBytes } from "./native_bytes.ts";

/** A text kept as UTF-8: bytes `[start, end)` of `buffer`, which many pieces share. */
export interface BytePiece {
  buffer: Uint8Array;
  start: number;
  end: number;
}

/** What an output is assembled from: kept pieces, and literal bytes (separators and the like). */
export type ByteItem = BytePiece | Uint8Array;

const encoder = new TextEncoder();
const NON_ASCII = /[^\0-\x7f]/;

/** Bytes of `s` in UTF-8 as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Encodes texts in one TextEncoder call, `separator` between them (so that pieces encoded
 * together form one run with their separators), and returns a piece per text.
 *
 * @example
 * ```ts
 * const [a, b] = encodePieces(["é", "x"], ",");
 * // a.buffer === b.buffer; a: [0, 2), b: [3, 4)
 * ```
 */
export function encodePieces(texts: readonly string[], separator = ""): BytePiece[] {
  const buffer = encoder.encode(texts.join(separator));
  const gap = utf8Length(separator);
  const pieces: BytePiece[] = new Array(texts.length);
  let at = 0;
  let i = 0;
  for (const text of texts) {
    const end = at + utf8Length(text);
    pieces[i++] = { buffer, start: at, end };
    at = end + gap;
  }
  if (texts.length > 0 && at - gap !== buffer.length) {
    throw new Error(`internal error: UTF-8 length ${at - gap} ≠ ${buffer.length}`);
  }
  return pieces;
}

/**
 * Views covering `items` in order. Pieces that lie next to each other in one buffer become one
 * view, and literal bytes that the current run's buffer already holds right after it join it (a
 * "," or "\n" separator found in place).
 */
export function joinRuns(items: readonly ByteItem[]): Uint8Array[] {
  const runs: Uint8Array[] = [];
  let whole: Uint8Array | null = null;
  let start = 0;
  let end = 0;
  for (const item of items) {
    let buffer: Uint8Array;
    let from: number;
    let to: number;
    if (item instanceof Uint8Array) {
      if (whole !== null && inPlace(whole, end, item)) {
        end += item.length;
        continue;
      }
      buffer = item;
      from = 0;
      to = item.length;
    } else {
      if (item.buffer === whole && item.start === end) {
        end = item.end;
        continue;
      }
      buffer = item.buffer;
      from = item.start;
      to = item.end;
    }
    if (whole !== null && end > start) runs.push(whole.subarray(start, end));
    whole = buffer;
    start = from;
    end = to;
  }
  if (whole !== null && end > start) runs.push(whole.subarray(start, end));
  return runs;
}

function inPlace(buffer: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at + bytes.length > buffer.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buffer[at + i] !== bytes[i]) return false;
  return true;
}

/** The runs copied into one new buffer. */
export function concatRuns(runs: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const r of runs) length += r.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const r of runs) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

/**
 * {@link joinRuns}, but when that gives more than `maxRuns` views (pieces scattered over many
 * buffers), the bytes are copied once into one buffer: `runs` is then that buffer alone and
 * `moved[i]` says where the piece `items[i]` now lies in it (null for literal bytes), so a caller
 * that keeps them gets few runs next time. Otherwise `moved` is null.
 */
export function compactRuns(
  items: readonly ByteItem[],
  maxRuns: number,
): { runs: Uint8Array[]; moved: (BytePiece | null)[] | null } {
  const runs = joinRuns(items);
  if (runs.length <= maxRuns) return { runs, moved: null };
  const buffer = concatRuns(runs);
  let at = 0;
  const moved = items.map((item) => {
    const length = item instanceof Uint8Array ? item.length : item.end - item.start;
    at += length;
    return item instanceof Uint8Array ? null : { buffer, start: at - length, end: at };
  });
  return { runs: [buffer], moved };
}

/**
 * File contents as one array, or as runs to be read one after the other (what an encoder that
 * reuses kept bytes gives: writing the runs spares a copy of the whole file).
 */
export type Bytes = Uint8Array | readonly Uint8Array[];

/** The number of bytes in `bytes`. */
export function bytesLength(bytes: Bytes): number {
  if (bytes instanceof Uint8Array) return bytes.length;
  let n = 0;
  for (const run of bytes) n += run.length;
  return n;
}

/** `bytes` as one array: itself, its only run, or its runs copied into a new array. */
export function flatBytes(bytes: Bytes): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  const [only] = bytes;
  return bytes.length === 1 && only !== undefined ? only : concatRuns(bytes);
}

/**
 * Whether `bytes[offset, offset + part.length)` equals `part`.
 *
 * @example
 * ```ts
 * equalAt([new Uint8Array([1, 2]), new Uint8Array([3])], 1, new Uint8Array([2, 3])); // true
 * ```
 */
export function equalAt(bytes: Bytes, offset: number, part: Uint8Array): boolean {
  if (bytes instanceof Uint8Array) {
    return offset + part.length <= bytes.length &&
      sameArrays(bytes.subarray(offset, offset + part.length), part);
  }
  let at = 0; // offset of the current run
  let done = 0; // bytes of `part` compared
  for (const run of bytes) {
    const end = at + run.length;
    if (end > offset + done && done < part.length) {
      const from = offset + done - at;
      const n = Math.min(run.length - from, part.length - done);
      if (!sameArrays(run.subarray(from, from + n), part.subarray(done, done + n))) return false;
      done += n;
    }
    at = end;
    if (done === part.length) return true;
  }
  return done === part.length;
}

/** Whether two contents are the same bytes, however they are cut into runs. */
export function sameBytes(a: Bytes, b: Bytes): boolean {
  if (a === b) return true;
  if (bytesLength(a) !== bytesLength(b)) return false;
  if (a instanceof Uint8Array) return equalAt(b, 0, a);
  let at = 0;
  for (const run of a) {
    if (!equalAt(b, at, run)) return false;
    at += run.length;
  }
  return true;
}

/** Copies the first `n` bytes of `bytes` to the start of `target`. */
export function copyPrefix(bytes: Bytes, n: number, target: Uint8Array): void {
  if (bytes instanceof Uint8Array) {
    target.set(bytes.subarray(0, n));
    return;
  }
  let at = 0;
  for (const run of bytes) {
    if (at >= n) return;
    const take = Math.min(run.length, n - at);
    target.set(run.subarray(0, take), at);
    at += take;
  }
}

/**
 * True when two arrays are equal: Node's `Buffer.compare` (a native memcmp) once the servers have
 * loaded it (`native_bytes.ts`). The views of laid-out runs start at any offset, and a JavaScript
 * loop over unaligned bytes, comparing a large file with the bytes a write expected, was most of a
 * one-entry write's time.
 */
function sameArrays(a: Uint8Array, b: Uint8Array): boolean {
  return equalBytes(a, b);
}
