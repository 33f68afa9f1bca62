/**
 * Patterns from requests, checked before use: regular expressions for search (no construct that can
 * backtrack catastrophically) and path globs (matched in time linear in path × pattern).
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";

/** Longest regular expression or glob accepted. */
export const MAX_PATTERN_LENGTH = 256;

/** True when this runtime has V8's linear-time engine (`--enable-experimental-regexp-engine`). */
export const LINEAR_REGEXP: boolean = (() => {
  try {
    new RegExp("a", "l");
    return true;
  } catch {
    return false;
  }
})();

/**
 * Compiles a search pattern after checking it. Refused: patterns over {@link MAX_PATTERN_LENGTH},
 * backreferences and lookarounds, a repeated group that itself holds a repetition or an
 * alternation (`(a+)+`, `(a|aa)*`: exponential backtracking), and more than two unbounded
 * repetitions (`a*a*a*`: polynomial). Where the runtime has V8's linear engine (the service's
 * tasks enable it with `--enable-experimental-regexp-engine`), the expression also runs on it
 * (case-insensitive ones when written in ASCII, see {@link foldAsciiCase}): linear in the text
 * whatever the pattern. JavaScript syntax without the `u` flag.
 *
 * @throws {InvalidInputError} saying which construct was refused, or the syntax error.
 */
export function compileSearchRegex(pattern: string, caseInsensitive: boolean): RegExp {
  const refuse = (why: string) => new InvalidInputError(`Regular expression refused: ${why}: ${pattern}`);
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw refuse(`longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  // Per open group: whether it holds a repetition or an alternation.
  const groups: { risky: boolean }[] = [{ risky: false }];
  let unbounded = 0;
  let lastWasGroup: { risky: boolean } | null = null;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    let closedGroup: { risky: boolean } | null = null;
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(d) || d === "k")) throw refuse("backreferences are not supported");
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if (c === "(") {
      if (
        pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i) || pattern.startsWith("(?<=", i) ||
        pattern.startsWith("(?<!", i)
      ) {
        throw refuse("lookahead and lookbehind are not supported");
      }
      groups.push({ risky: false });
    } else if (c === ")") {
      if (groups.length > 1) {
        closedGroup = groups.pop()!;
        if (closedGroup.risky) groups[groups.length - 1]!.risky = true;
      }
    } else if (c === "|") {
      groups[groups.length - 1]!.risky = true;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const bounded = c === "?" || (c === "{" && /^\{\d+(,\d+)?\}/.test(pattern.slice(i)));
      const isQuantifier = c !== "{" || /^\{\d+(,\d*)?\}/.test(pattern.slice(i));
      if (isQuantifier) {
        if (lastWasGroup?.risky) {
          throw refuse("a repeated group must not itself hold a repetition or an alternation");
        }
        if (!bounded && ++unbounded > 2) throw refuse("more than two unbounded repetitions (*, +, {n,})");
        groups[groups.length - 1]!.risky = true;
        if (c === "{") i = pattern.indexOf("}", i);
      }
    }
    lastWasGroup = closedGroup;
  }
  // No "u": V8's linear engine runs neither "u" nor "i", and the syntax must not depend on which
  // engine runs it. Where there is a linear engine, a case-sensitive pattern runs on it, and so does
  // a case-insensitive one written in ASCII, with each letter spelt in both cases (for ASCII, what
  // "i" without "u" does). Anything else (or a pattern the linear engine declines) runs on the
  // backtracking engine, within the limits checked above and the search's time budget.
  let checked: RegExp;
  try {
    checked = new RegExp(pattern, caseInsensitive ? "i" : "");
  } catch (error) {
    throw refuse(
      error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "invalid",
    );
  }
  if (LINEAR_REGEXP) {
    const linear = caseInsensitive ? foldAsciiCase(pattern) : pattern;
    if (linear !== null) {
      try {
        return new RegExp(linear, "l");
      } catch {
        // not linear-time executable: the backtracking engine, within the checks
      }
    }
  }
  return checked;
}

/** Escapes kept as they are when folding case: classes, assertions and control characters. */
const KEPT_ESCAPES = new Set("dDwWsSbBnrtfv0".split(""));

/**
 * `pattern` (ASCII, no "u" syntax) with every letter matching both cases, as the "i" flag without
 * "u" matches ASCII: `a` → `[aA]`, `[a-c]` → `[a-cA-C]`. Null when the pattern is not ASCII, or
 * holds an escape whose case the rewrite would not fold (`\x41`, `\u…`, `\cJ`, an escaped letter).
 */
export function foldAsciiCase(pattern: string): string | null {
  if (!/^[\x20-\x7e]*$/.test(pattern)) return null;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (/[A-Za-z]/.test(d) && !KEPT_ESCAPES.has(d)) return null;
      out += c + d;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") {
        inClass = false;
        out += c;
      } else if (
        pattern[i + 1] === "-" && i + 2 < pattern.length && pattern[i + 2] !== "]" && pattern[i + 2] !== "\\"
      ) {
        out += pattern.slice(i, i + 3) + otherCaseRanges(c.charCodeAt(0), pattern.charCodeAt(i + 2));
        i += 2;
      } else out += c + otherCase(c);
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (pattern[i + 1] === "^") {
        out += "^";
        i++;
      }
    } else if (pattern.startsWith("(?<", i)) {
      const close = pattern.indexOf(">", i);
      if (close < 0) return null;
      out += pattern.slice(i, close + 1); // a group's name is not text to match
      i = close;
    } else {
      const other = otherCase(c);
      out += other === "" ? c : `[${c}${other}]`;
    }
  }
  return out;
}

/** The other case of an ASCII letter, else "". */
function otherCase(c: string): string {
  if (c >= "a" && c <= "z") return c.toUpperCase();
  if (c >= "A" && c <= "Z") return c.toLowerCase();
  return "";
}

/** Class ranges holding the other case of the letters in `lo`..`hi`. */
function otherCaseRanges(lo: number, hi: number): string {
  let out = "";
  const span = (from: number, to: number, shift: number) => {
    const a = Math.max(lo, from);
    const b = Math.min(hi, to);
    if (a <= b) out += `${String.fromCharCode(a + shift)}-${String.fromCharCode(b + shift)}`;
  };
  span(65, 90, 32);
  span(97, 122, -32);
  return out;
}

/**
 * A path glob's matcher: `*` any run of characters but `/`, `**` any run including `/`, `?` one
 * character but `/`; everything else literal. A pattern without `/` is matched against the file
 * name alone (`*.po`), one with `/` against the whole relative path. Matching simulates the
 * pattern's automaton: time linear in path × pattern, whatever both are.
 *
 * @throws {InvalidInputError} longer than {@link MAX_PATTERN_LENGTH}.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  if (glob.length > MAX_PATTERN_LENGTH) {
    throw new InvalidInputError(`Glob refused: longer than ${MAX_PATTERN_LENGTH} characters: ${glob}`);
  }
  type Token = { kind: "lit"; c: string } | { kind: "any" } | { kind: "star" } | { kind: "globstar" };
  const tokens: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith("**", i)) {
      tokens.push({ kind: "globstar" });
      i++;
      // `**/` also matches no directory at all.
      if (glob[i + 1] === "/") {
        tokens.push({ kind: "lit", c: "/" });
        i++;
        tokens[tokens.length - 2] = { kind: "globstar" };
        (tokens[tokens.length - 1] as { optionalSlash?: boolean }).optionalSlash = true;
      }
    } else if (glob[i] === "*") tokens.push({ kind: "star" });
    else if (glob[i] === "?") tokens.push({ kind: "any" });
    else tokens.push({ kind: "lit", c: glob.charAt(i) });
  }
  const wholePath = glob.includes("/");
  const n = tokens.length;
  return function matches(path: string): boolean {
    const text = wholePath ? path : path.slice(path.lastIndexOf("/") + 1);
    let states = new Uint8Array(n + 1);
    let next = new Uint8Array(n + 1);
    const close = (s: Uint8Array) => {
      // ε-moves: a star or globstar may match nothing; `**/` may match nothing at all.
      for (let k = 0; k < n; k++) {
        if (!s[k]) continue;
        const t = tokens[k]!;
        if (t.kind === "star" || t.kind === "globstar") s[k + 1] = 1;
        else if (t.kind === "lit" && (t as { optionalSlash?: boolean }).optionalSlash) s[k + 1] = 1;
      }
    };
    states[0] = 1;
    close(states);
    for (let p = 0; p < text.length; p++) {
      const ch = text[p];
      next.fill(0);
      let any = false;
      for (let k = 0; k < n; k++) {
        if (!states[k]) continue;
        const t = tokens[k]!;
        if (t.kind === "lit") {
          if (t.c === ch) next[k + 1] = 1;
        } else if (t.kind === "any") {
          if (ch !== "/") next[k + 1] = 1;
        } else if (t.kind === "star") {
          if (ch !== "/") next[k] = 1;
        } else next[k] = 1;
        any = true;
      }
      if (!any) return false;
      close(next);
      [states, next] = [next, states];
    }
    return states[n] === 1;
  };
}
