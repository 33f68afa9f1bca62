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

function codePointText(cp: number): string {
  return cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? "\uFFFD" : String.fromCodePoint(cp);
}

/** One unit at `i`: its decoded, lower-cased character and its length in the text. */
function unitAt(s: string, i: number): { key: string; length: number; plus: boolean } {
  const c = s.charCodeAt(i);
  if (c === 0x25) {
    const first = percentByteAt(s, i);
    if (first !== null) {
      const b = first.byte;
      const more = b >= 0xf0 && b <= 0xf7 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
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
      if (ok) return { key: codePointText(cp).toLowerCase(), length: at - i, plus: false };
      return { key: String.fromCharCode(b).toLowerCase(), length: first.length, plus: false };
    }
  } else if (c === 0x26) {
    ENTITY_RE.lastIndex = i;
    const m = ENTITY_RE.exec(s);
    if (m) {
      const ch = m[3] !== undefined
        ? HTML_NAMED[m[3].toLowerCase()]
        : codePointText(m[1] !== undefined ? Number(m[1]) : parseInt(m[2], 16));
      return { key: ch.toLowerCase(), length: m[0].length, plus: false };
    }
  } else if (c === 0x5c) {
    BACKSLASH_RE.lastIndex = i;
    const m = BACKSLASH_RE.exec(s);
    if (m) {
      if (m[3] !== undefined) return { key: m[3], length: 2, plus: false };
      let cp = parseInt(m[1] ?? m[2], 16);
      let length = m[0].length;
      if (m[1] !== undefined && cp >= 0xd800 && cp <= 0xdbff) {
        BACKSLASH_RE.lastIndex = i + 6;
        const low = BACKSLASH_RE.exec(s);
        const lo = low?.[1] !== undefined ? parseInt(low[1], 16) : -1;
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          length = 12;
        }
      }
      return { key: codePointText(cp).toLowerCase(), length, plus: false };
    }
  } else if (c === 0x2b) {
    return { key: "+", length: 1, plus: true };
  }
  const cp = s.codePointAt(i)!;
  const length = cp > 0xffff ? 2 : 1;
  return { key: s.slice(i, i + length).toLowerCase(), length, plus: false };
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
  const code: string[] = [];
  for (let i = 0; i < secret.length;) {
    const cp = secret.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    code.push(ch.toLowerCase());
    i += ch.length;
  }
  const n = code.length;
  if (n === 0) return (text) => text;
  const minRun = Math.min(n, MIN_MASKED_RUN);
  const minEdge = Math.min(n, MIN_MASKED_EDGE);

  return function maskSecret(text: string): string {
    const starts: number[] = [];
    const ends: number[] = [];
    // maskFrom[u] = first unit of the longest masked run that ends at unit u (or -1).
    const maskFrom: number[] = [];
    let prev = new Int32Array(n);
    let cur = new Int32Array(n);
    const units: { key: string; plus: boolean }[] = [];
    for (let i = 0; i < text.length;) {
      const u = unitAt(text, i);
      starts.push(i);
      ends.push(i + u.length);
      units.push(u);
      i += u.length;
    }
    const last = units.length - 1;
    for (let u = 0; u <= last; u++) {
      const { key, plus } = units[u];
      let best = 0;
      for (let j = 0; j < n; j++) {
        const matches = key === code[j] || (plus && code[j] === " ");
        const len = matches ? (j > 0 ? prev[j - 1] : 0) + 1 : 0;
        cur[j] = len;
        if (len > best) {
          const atEdge = u === last || len === u + 1;
          if (len >= minRun || (atEdge && len >= minEdge)) best = len;
        }
      }
      maskFrom.push(best > 0 ? u - best + 1 : -1);
      [prev, cur] = [cur, prev];
    }
    const masked = new Uint8Array(units.length);
    let anyMasked = false;
    for (let u = last, reach = Infinity; u >= 0; u--) {
      if (maskFrom[u] >= 0) reach = Math.min(reach, maskFrom[u]);
      if (reach <= u) {
        masked[u] = 1;
        anyMasked = true;
      }
    }
    if (!anyMasked) return text;
    let out = "";
    for (let u = 0; u <= last; u++) {
      if (!masked[u]) out += text.slice(starts[u], ends[u]);
      else if (u === 0 || !masked[u - 1]) out += SECRET_MASK;
    }
    return out;
  };
}
