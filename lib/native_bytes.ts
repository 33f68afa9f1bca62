/**
 * Byte operations the PO reader and the writers need at native speed on large files: bytes as a
 * Latin-1 "byte string" (one char per byte) and back, and byte equality. Node's `Buffer` does both natively,
 * but importing `node:buffer` starts Deno's Node compatibility layer, which costs every process that
 * loads it more than the whole layout of a small catalogue. So it is loaded on demand
 * ({@link loadNativeBytes}): the servers and the CLIs that read many or large files load it at
 * start, `wrap` when it meets a file of {@link NATIVE_BYTES_WORTHWHILE} bytes or more, and until then
 * plain JavaScript gives the same results (tested against `Buffer` byte for byte).
 *
 * @module
 */
import type { Buffer as NodeBuffer } from "node:buffer";

let native: typeof NodeBuffer | null = null;

/** From this many bytes on, a file is worth loading `node:buffer` for (see the module's text). */
export const NATIVE_BYTES_WORTHWHILE = 256 * 1024;

/** Loads `node:buffer` once; every later call of this module's functions uses it. */
export async function loadNativeBytes(): Promise<void> {
  if (native !== null) return;
  const buffer = await import("node:buffer");
  native = buffer.Buffer;
}

/**
 * Bytes `[from, to)` as a byte string (char code = byte). Not the WHATWG "latin1" decoder: that is
 * windows-1252, which maps 0x80–0x9F elsewhere.
 *
 * @example
 * ```ts
 * latin1String(new Uint8Array([0x63, 0xe9, 0x80])); // "c\u00e9\u0080"
 * ```
 */
export function latin1String(bytes: Uint8Array, from = 0, to = bytes.length): string {
  if (native !== null) {
    return native.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1", from, to);
  }
  return jsLatin1String(bytes, from, to);
}

/** Code units per `String.fromCharCode` call: well under any engine's argument limit. */
const FROM_CHAR_CODE_UNITS = 8192;

/** {@link latin1String} in plain JavaScript (one-byte strings, as `Buffer` makes). */
export function jsLatin1String(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let out = "";
  for (let i = from; i < to; i += FROM_CHAR_CODE_UNITS) {
    const piece = bytes.subarray(i, Math.min(to, i + FROM_CHAR_CODE_UNITS));
    out += String.fromCharCode.apply(null, piece as unknown as number[]);
  }
  return out;
}

/**
 * The bytes of a byte string (each char code, which must be below 256, as one byte): the inverse
 * of {@link latin1String}. Plain JavaScript always: `Buffer.from(text, "latin1")` is a JavaScript
 * loop in Deno's Node layer too, and a slower one on the texts of python-docs-fr.
 *
 * @example
 * ```ts
 * latin1Bytes("c\u00e9"); // Uint8Array [0x63, 0xe9]
 * ```
 */
export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * True when both arrays hold the same bytes.
 *
 * @example
 * ```ts
 * equalBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2])); // true
 * ```
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (native !== null) return native.compare(a, b) === 0;
  return jsEqualBytes(a, b);
}

/**
 * {@link equalBytes} in plain JavaScript: four bytes at a time when both views sit at the same
 * offset modulo 4 (the usual case: whole files, fresh buffers), else byte by byte.
 */
export function jsEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  let i = 0;
  if (((a.byteOffset ^ b.byteOffset) & 3) === 0) {
    for (; i < n && ((a.byteOffset + i) & 3) !== 0; i++) if (a[i] !== b[i]) return false;
    if (i === n) return true;
    const words = (n - i) >> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset + i, words);
    const wb = new Int32Array(b.buffer, b.byteOffset + i, words);
    for (let k = 0; k < words; k++) if (wa[k] !== wb[k]) return false;
    i += words * 4;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
