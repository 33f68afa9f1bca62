/**
 * Text kept as UTF-8 pieces that share buffers, and output assembled from runs of those bytes.
 * Made for large answers rebuilt after small changes: a catalogue's 10,000 entries are encoded
 * once, and a version with one entry changed is sent as three runs of existing bytes.
 *
 * @module
 */

/** A text kept as UTF-8: bytes `[start, end)` of `buffer`, which many pieces share. */
export interface BytePiece {
  buffer: Uint8Array;
  start: number;
  end: number;
}

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
  for (let i = 0; i < texts.length; i++) {
    const end = at + utf8Length(texts[i]);
    pieces[i] = { buffer, start: at, end };
    at = end + gap;
  }
  if (texts.length > 0 && at - gap !== buffer.length) {
    throw new Error(`internal error: UTF-8 length ${at - gap} ≠ ${buffer.length}`);
  }
  return pieces;
}

/**
 * Views covering `pieces` in order with the one-byte `separator` between consecutive ones: runs
 * of bytes that lie next to each other in one buffer become one view (a separator found in place
 * after a run joins it).
 */
export function joinRuns(pieces: readonly BytePiece[], separator: number): Uint8Array[] {
  const runs: Uint8Array[] = [];
  const sep = new Uint8Array([separator]);
  let whole: Uint8Array | null = null;
  let start = 0;
  let end = 0;
  const close = () => {
    if (whole !== null) runs.push(whole.subarray(start, end));
  };
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (i > 0) {
      if (whole !== null && end < whole.length && whole[end] === separator) end++;
      else {
        close();
        whole = sep;
        start = 0;
        end = 1;
      }
    }
    if (p.buffer === whole && p.start === end) {
      end = p.end;
      continue;
    }
    close();
    whole = p.buffer;
    start = p.start;
    end = p.end;
  }
  close();
  return runs;
}

/**
 * {@link joinRuns}, but when that gives more than `maxRuns` views (pieces scattered over many
 * buffers), the bytes are copied once into one buffer: `runs` is then that buffer alone and
 * `pieces` says where each piece now lies in it (with the separators between them), so a caller
 * that keeps them gets few runs next time. Otherwise `pieces` is null.
 */
export function compactRuns(
  pieces: readonly BytePiece[],
  separator: number,
  maxRuns: number,
): { runs: Uint8Array[]; pieces: BytePiece[] | null } {
  const runs = joinRuns(pieces, separator);
  if (runs.length <= maxRuns) return { runs, pieces: null };
  let length = 0;
  for (const r of runs) length += r.length;
  const buffer = new Uint8Array(length);
  let at = 0;
  for (const r of runs) {
    buffer.set(r, at);
    at += r.length;
  }
  at = 0;
  const moved = pieces.map((p) => {
    const start = at;
    at += p.end - p.start + 1;
    return { buffer, start, end: start + p.end - p.start };
  });
  return { runs: [buffer], pieces: moved };
}
