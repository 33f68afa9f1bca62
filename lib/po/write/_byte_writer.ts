/**
 * A growable UTF-8 output buffer for the PO writer: text is encoded straight into it (msgcat's
 * escapes applied on the way), so laying out a catalogue builds no JS string per line and no
 * joined text to encode afterwards.
 *
 * @module
 */

/** For ASCII code units: the letter of msgcat's escape (`n` for newline, `"` for `"`…), or 0. */
export const ESCAPE_LETTER: Uint8Array = new Uint8Array(128);
const ESCAPES: Record<string, string> = {
  "\n": "n",
  "\t": "t",
  "\r": "r",
  "\x07": "a",
  "\b": "b",
  "\f": "f",
  "\v": "v",
  '"': '"',
  "\\": "\\",
};
for (const [c, letter] of Object.entries(ESCAPES)) ESCAPE_LETTER[c.charCodeAt(0)] = letter.charCodeAt(0);

/** {@link ByteWriter.seen} bit: a character outside ASCII was written by `text` or `escapedBytes`. */
export const SEEN_NON_ASCII = 1;
/** {@link ByteWriter.seen} bit: a NUL or U+0004 was written by `text` or `escapedBytes` (no PO string holds them). */
export const SEEN_UNHOLDABLE = 2;

/**
 * Bytes written so far in `buf[0, pos)`. `text` encodes UTF-16 as TextEncoder does
 * (a lone surrogate becomes U+FFFD) and record what they met in {@link seen}.
 *
 * @example
 * ```ts
 * const w = new ByteWriter();
 * w.ascii('msgid "');
 * w.escapedBytes(new TextEncoder().encode('say "hé"'), 0, 10);
 * w.ascii('"\n');
 * new TextDecoder().decode(w.bytes()); // 'msgid "say \\"hé\\""\n'
 * ```
 */
export class ByteWriter {
  buf: Uint8Array;
  pos = 0;
  /** Bits {@link SEEN_NON_ASCII} and {@link SEEN_UNHOLDABLE}, for the caller to reset and read. */
  seen = 0;

  constructor(capacity = 4096) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.pos + n > this.buf.length) this.#grow(n);
  }

  #grow(n: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** Writes one byte. */
  byte(b: number): void {
    if (this.pos >= this.buf.length) this.#grow(1);
    this.buf[this.pos++] = b;
  }

  /** Writes a string known to be ASCII (keywords, prefixes, flags), one byte per code unit. */
  ascii(s: string): void {
    const n = s.length;
    if (this.pos + n > this.buf.length) this.#grow(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Writes a number as `String(v)` spells it, without making that string for small integers. */
  decimal(v: number): void {
    if (!(v >= 0 && v <= 0x7fffffff && v === Math.floor(v))) {
      this.ascii(String(v));
      return;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    if (this.pos + digits > this.buf.length) this.#grow(digits);
    const buf = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    do {
      buf[--p] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  /** Writes `s[from, to)` in UTF-8 as it is; `check` records what it meets in {@link seen}. */
  text(s: string, from: number, to: number, check: boolean): void {
    if (this.pos + (to - from) * 3 > this.buf.length) this.#grow((to - from) * 3);
    const buf = this.buf;
    let p = this.pos;
    let seen = 0;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        buf[p++] = c;
        if (c <= 4 && (c === 0 || c === 4)) seen |= SEEN_UNHOLDABLE;
        continue;
      }
      seen |= SEEN_NON_ASCII;
      if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6);
        buf[p++] = 0x80 | (c & 63);
      } else if ((c & 0xf800) !== 0xd800) {
        buf[p++] = 0xe0 | (c >> 12);
        buf[p++] = 0x80 | ((c >> 6) & 63);
        buf[p++] = 0x80 | (c & 63);
      } else {
        p = surrogate(s, i, to, buf, p);
        if (p < 0) {
          p = -p;
          i++;
        }
      }
    }
    this.pos = p;
    if (check) this.seen |= seen;
  }

  /**
   * Writes the UTF-8 bytes `src[from, to)` with msgcat's escapes (4.1), recording what they hold
   * in {@link seen}.
   */
  escapedBytes(src: Uint8Array, from: number, to: number): void {
    if (this.pos + (to - from) * 2 > this.buf.length) this.#grow((to - from) * 2);
    const buf = this.buf;
    let p = this.pos;
    let seen = this.seen;
    for (let i = from; i < to; i++) {
      const b = src[i]!;
      if (b >= 0x80) {
        buf[p++] = b;
        seen |= SEEN_NON_ASCII;
        continue;
      }
      const letter = ESCAPE_LETTER[b]!;
      if (letter === 0) {
        buf[p++] = b;
        if (b <= 4 && (b === 0 || b === 4)) seen |= SEEN_UNHOLDABLE;
      } else {
        buf[p++] = 92;
        buf[p++] = letter;
      }
    }
    this.pos = p;
    this.seen = seen;
  }

  /** Copies the bytes `src[from, to)` as they are. */
  copy(src: Uint8Array, from: number, to: number): void {
    if (this.pos + (to - from) > this.buf.length) this.#grow(to - from);
    const buf = this.buf;
    let p = this.pos;
    // A long run natively (a start runs this cold, interpreted); a short one without the subarray.
    if (to - from > 48) {
      buf.set(src.subarray(from, to), p);
      p += to - from;
    } else for (let i = from; i < to; i++) buf[p++] = src[i]!;
    this.pos = p;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * Writes the surrogate at `s[i]`: a pair as 4 bytes (returns the new position negated: the
 * caller skips the low half), a lone one as U+FFFD (returns the new position).
 */
function surrogate(s: string, i: number, to: number, buf: Uint8Array, p: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xdc00 && i + 1 < to) {
    const d = s.charCodeAt(i + 1);
    if ((d & 0xfc00) === 0xdc00) {
      const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      buf[p++] = 0xf0 | (cp >> 18);
      buf[p++] = 0x80 | ((cp >> 12) & 63);
      buf[p++] = 0x80 | ((cp >> 6) & 63);
      buf[p++] = 0x80 | (cp & 63);
      return -p;
    }
  }
  buf[p++] = 0xef;
  buf[p++] = 0xbf;
  buf[p++] = 0xbd;
  return p;
}
