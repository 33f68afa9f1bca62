/**
 * Work counted, not timed: how many characters a function reads through the string and regular
 * expression built-ins. A scanner that re-reads its input (a window copied per item, a rescan from
 * each position) reads more characters per input character as the input grows, and this count
 * shows it on any machine, at any load; timings belong in bench/.
 *
 * @module
 */

/**
 * Runs `fn` and returns what it returned with the characters it read: one per `charCodeAt`,
 * `codePointAt` or `charAt`; the length of each `slice`/`substring` result; one plus the length of
 * each regular-expression match (`test`, `replace` and the others go through `exec`). The
 * built-ins are restored afterwards, even when `fn` throws.
 */
export function countReads<T>(fn: () => T): { result: T; reads: number } {
  const string = String.prototype;
  const regexp = RegExp.prototype;
  const saved = {
    charCodeAt: string.charCodeAt,
    codePointAt: string.codePointAt,
    charAt: string.charAt,
    slice: string.slice,
    substring: string.substring,
    exec: regexp.exec,
  };
  let reads = 0;
  string.charCodeAt = function (this: string, i: number) {
    reads++;
    return saved.charCodeAt.call(this, i);
  };
  string.codePointAt = function (this: string, i: number) {
    reads++;
    return saved.codePointAt.call(this, i);
  };
  string.charAt = function (this: string, i: number) {
    reads++;
    return saved.charAt.call(this, i);
  };
  string.slice = function (this: string, start?: number, end?: number) {
    const part = saved.slice.call(this, start, end);
    reads += part.length;
    return part;
  };
  string.substring = function (this: string, start: number, end?: number) {
    const part = saved.substring.call(this, start, end);
    reads += part.length;
    return part;
  };
  regexp.exec = function (this: RegExp, s: string) {
    const m = saved.exec.call(this, s);
    reads += 1 + (m?.[0].length ?? 0);
    return m;
  };
  try {
    const result = fn();
    return { result, reads };
  } finally {
    Object.assign(string, {
      charCodeAt: saved.charCodeAt,
      codePointAt: saved.codePointAt,
      charAt: saved.charAt,
      slice: saved.slice,
      substring: saved.substring,
    });
    regexp.exec = saved.exec;
  }
}
