/**
 * Masking the GPSS user code in texts that leave the client (error messages, rethrown bugs).
 *
 * An upstream echo of the request (an error page quoting the URL, a JSON or HTML body) may spell
 * the code in many ways: as sent, upper- or lower-cased, percent-encoded (`%41`, `%2541` once
 * more, each character either way), with `+` for a space, HTML-escaped (`&amp;`, `&#65;`,
 * `&#x41;`), JSON- or JS-escaped (`\u0041`, `\x41`, `\"`), or cut short by the upstream or by our
 * own excerpt. The text is therefore read as a sequence of *units* — one literal character or one
 * escape, each decoded and lower-cased — and every run of units that spells a part of the code is
 * replaced by `***`:
 *
 * - the whole code, and any run of at least {@link MIN_MASKED_RUN} consecutive characters of it,
 *   anywhere in the text (an echo the upstream cut in the middle of the code);
 * - at the text's start or end (where an excerpt is cut), any run of at least
 *   {@link MIN_MASKED_EDGE} characters of it.
 *
 * At most one character of the code can thus show at each end of an excerpt, and at most
 * `MIN_MASKED_RUN - 1` inside a text whose upstream itself cut the code that short.
 *
 * The work is linear: O(text length × code length), with the code's length fixed per client.
 *
 * @module
 */

/** What replaces a masked run. */
export const SECRET_MASK = "***";

/** Shortest run of the code's characters masked anywhere in a text. */
export const MIN_MASKED_RUN = 4;

/** Shortest run of the code's characters masked where it touches the start or the end of a text. */
export const MIN_MASKED_EDGE = 2;

const HTML_NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const ENTITY_RE = /&(?:#([0-9]{1,10})|#x([0-9a-f]{1,8})|(amp|lt|gt|quot|apos));/iy;
const BACKSLASH_RE = /\\(?:u([0-9a-f]{4})|x([0-9a-f]{2})|(["\\/]))/iy;

function hexAt(s: string, i: number): number {
  if (i + 2 > s.length) return -1;
  const h = s.slice(i, i + 2);
  return /^[0-9a-f]{2}$/i.test(h) ? parseInt(h, 16) : -1;
}

/** A percent-escaped byte at `i` (`%41`, or `%2541` encoded twice): its value and length. */
function percentByteAt(s: string, i: number): { byte: number; length: number } | null {
  if (s.charCodeAt(i) !== 0x25) return null;
  const b = hexAt(s, i + 1);
  if (b === 0x25) {
    const twice = hexAt(s, i + 3);
    if (twice >= 0) return { byte: twice, length: 5 };
  }
  return b >= 0 ? { byte: b, length: 3 } : null;
}

/** A code point lower-cased (the first code point of its lower-case form); invalid ones → U+FFFD. */
function lowerCodePoint(cp: number): number {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0xfffd;
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp;
  return String.fromCodePoint(cp).toLowerCase().codePointAt(0)!;
}

/** The unit read by {@link readUnit}: its lower-cased code point and its length in the text. */
let unitKey = 0;
let unitLength = 0;

/** Reads the unit at `i` into `unitKey` / `unitLength` (no allocation on the common path). */
function readUnit(s: string, i: number): void {
  const c = s.charCodeAt(i);
  if (c === 0x25) {
    const first = percentByteAt(s, i);
    if (first !== null) {
      const b = first.byte;
      const more = b >= 0xf0 && b <= 0xf7 ? 3 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xc0 && b < 0xe0 ? 1 : 0;
      let cp = more === 3 ? b & 0x07 : more === 2 ? b & 0x0f : more === 1 ? b & 0x1f : b;
      let at = i + first.length;
      let ok = b < 0x80 || more > 0;
      for (let k = 0; ok && k < more; k++) {
        const next = percentByteAt(s, at);
        if (next === null || next.length !== first.length || (next.byte & 0xc0) !== 0x80) ok = false;
        else {
          cp = (cp << 6) | (next.byte & 0x3f);
          at += next.length;
        }
      }
      unitKey = lowerCodePoint(ok ? cp : b);
      unitLength = ok ? at - i : first.length;
      return;
    }
  } else if (c === 0x26) {
    ENTITY_RE.lastIndex = i;
    const m = ENTITY_RE.exec(s);
    if (m) {
      unitKey = lowerCodePoint(
        m[3] !== undefined
          ? HTML_NAMED[m[3].toLowerCase()]!.charCodeAt(0)
          : m[1] !== undefined
          ? Number(m[1])
          : parseInt(m[2]!, 16),
      );
      unitLength = m[0].length;
      return;
    }
  } else if (c === 0x5c) {
    BACKSLASH_RE.lastIndex = i;
    const m = BACKSLASH_RE.exec(s);
    if (m) {
      unitLength = m[0].length;
      if (m[3] !== undefined) {
        unitKey = m[3].charCodeAt(0);
        return;
      }
      let cp = parseInt(m[1] ?? m[2]!, 16);
      if (m[1] !== undefined && cp >= 0xd800 && cp <= 0xdbff) {
        BACKSLASH_RE.lastIndex = i + 6;
        const low = BACKSLASH_RE.exec(s);
        const lo = low?.[1] !== undefined ? parseInt(low[1], 16) : -1;
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          unitLength = 12;
        }
      }
      unitKey = lowerCodePoint(cp);
      return;
    }
  }
  if (c >= 0xd800 && c <= 0xdbff) {
    const cp = s.codePointAt(i)!;
    unitKey = lowerCodePoint(cp);
    unitLength = cp > 0xffff ? 2 : 1;
    return;
  }
  unitKey = lowerCodePoint(c);
  unitLength = 1;
}

/**
 * A function that masks `secret` in every spelling listed in the module comment. An empty secret
 * gives the identity.
 *
 * @example
 * ```ts
 * const mask = secretMasker("9fA3c27BdE41b6C0");
 * mask("code=9FA3C27BDE41B6C0"); // "code=***"
 * mask("code=%39%66%41%33c27BdE41b6C0"); // "code=***"
 * mask("echo: userCode=9fA3c2"); // "echo: userCode=***" (a cut-off prefix)
 * ```
 */
export function secretMasker(secret: string): (text: string) => string {
  const code: number[] = [];
  for (let i = 0; i < secret.length;) {
    const cp = secret.codePointAt(i)!;
    code.push(lowerCodePoint(cp));
    i += cp > 0xffff ? 2 : 1;
  }
  const n = code.length;
  if (n === 0) return (text) => text;
  const minRun = Math.min(n, MIN_MASKED_RUN);
  const minEdge = Math.min(n, MIN_MASKED_EDGE);
  const SPACE = 0x20;
  const PLUS = 0x2b;

  return function maskSecret(text: string): string {
    // Units: starts[u] .. starts[u + 1] in the text, keys[u] the lower-cased code point.
    const starts = new Int32Array(text.length + 1);
    const keys = new Int32Array(text.length);
    let count = 0;
    for (let i = 0; i < text.length; count++) {
      readUnit(text, i);
      starts[count] = i;
      keys[count] = unitKey;
      i += unitLength;
    }
    starts[count] = text.length;
    // maskFrom[u] = first unit of the longest masked run that ends at unit u, or -1.
    const maskFrom = new Int32Array(count).fill(-1);
    let prev = new Int32Array(n);
    let cur = new Int32Array(n);
    let anyRun = false;
    const last = count - 1;
    for (let u = 0; u < count; u++) {
      const key = keys[u];
      // A literal "+" may stand for a space (form encoding).
      const plus = key === PLUS && text.charCodeAt(starts[u]!) === PLUS;
      let best = 0;
      for (let j = 0; j < n; j++) {
        const matches = key === code[j] || (plus && code[j] === SPACE);
        const len = matches ? (j > 0 ? prev[j - 1]! : 0) + 1 : 0;
        cur[j] = len;
        if (len > best && (len >= minRun || (len >= minEdge && (u === last || len === u + 1)))) best = len;
      }
      if (best > 0) {
        maskFrom[u] = u - best + 1;
        anyRun = true;
      }
      const swap = prev;
      prev = cur;
      cur = swap;
    }
    if (!anyRun) return text;
    // A unit is masked when a run ending at or after it starts at or before it.
    const masked = new Uint8Array(count);
    for (let u = last, reach = Infinity; u >= 0; u--) {
      if (maskFrom[u]! >= 0) reach = Math.min(reach, maskFrom[u]!);
      if (reach <= u) masked[u] = 1;
    }
    const parts: string[] = [];
    for (let u = 0; u < count;) {
      let v = u;
      while (v < count && masked[v] === masked[u]) v++;
      parts.push(masked[u] ? SECRET_MASK : text.slice(starts[u], starts[v]));
      u = v;
    }
    return parts.join("");
  };
}
