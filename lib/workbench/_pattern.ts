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
 * tasks enable it with `--enable-experimental-regexp-engine`), a case-sensitive expression also runs
 * on it: linear in the text whatever the pattern. JavaScript syntax without the `u` flag.
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
        if (closedGroup.risky) groups[groups.length - 1].risky = true;
      }
    } else if (c === "|") {
      groups[groups.length - 1].risky = true;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const bounded = c === "?" || (c === "{" && /^\{\d+(,\d+)?\}/.test(pattern.slice(i)));
      const isQuantifier = c !== "{" || /^\{\d+(,\d*)?\}/.test(pattern.slice(i));
      if (isQuantifier) {
        if (lastWasGroup?.risky) {
          throw refuse("a repeated group must not itself hold a repetition or an alternation");
        }
        if (!bounded && ++unbounded > 2) throw refuse("more than two unbounded repetitions (*, +, {n,})");
        groups[groups.length - 1].risky = true;
        if (c === "{") i = pattern.indexOf("}", i);
      }
    }
    lastWasGroup = closedGroup;
  }
  // No "u": V8's linear engine runs neither "u" nor "i", and the syntax must not depend on which
  // engine runs it. A case-sensitive pattern runs on the linear engine where there is one; a
  // case-insensitive one (or one the linear engine declines) runs on the backtracking engine, within
  // the limits checked above and the search's time budget.
  if (LINEAR_REGEXP && !caseInsensitive) {
    try {
      return new RegExp(pattern, "l");
    } catch {
      // not linear-time executable, or invalid: the check below says which
    }
  }
  try {
    return new RegExp(pattern, caseInsensitive ? "i" : "");
  } catch (error) {
    throw refuse(
      error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "invalid",
    );
  }
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
    else tokens.push({ kind: "lit", c: glob[i] });
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
        const t = tokens[k];
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
        const t = tokens[k];
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
