/**
 * Patterns from requests, checked before use: regular expressions for search (run by V8's linear-time
 * engine only, with a cost bound known before each test) and path globs (matched in time linear in
 * path × pattern).
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
 * Compiles a search pattern for V8's linear-time engine (the `l` flag, which the service's tasks
 * enable with `--enable-experimental-regexp-engine`): matching costs at most text × pattern, whatever
 * both are. There is no fallback to the backtracking engine: a pattern the linear engine cannot run
 * is refused, saying why. Refused: patterns over {@link MAX_PATTERN_LENGTH}; backreferences,
 * lookahead and lookbehind; counted repetitions above 16 (`a{17}`, or `(a{4}){5}`: nested counts
 * multiply), which the linear engine would have to copy; every pattern when the runtime has no
 * linear engine. Case-insensitive patterns are rewritten with each letter spelt in all its cases
 * (see {@link foldCase}): the linear engine runs no `i` flag. JavaScript syntax without the `u` flag.
 *
 * @throws {InvalidInputError} saying which construct was refused, or the syntax error.
 */
export function compileSearchRegex(pattern: string, caseInsensitive: boolean): RegExp {
  const refuse = (why: string) => new InvalidInputError(`Regular expression refused: ${why}: ${pattern}`);
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw refuse(`longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(d) || d === "k")) throw refuse("backreferences are not supported");
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if (
      pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i) || pattern.startsWith("(?<=", i) ||
      pattern.startsWith("(?<!", i)
    ) {
      throw refuse("lookahead and lookbehind are not supported");
    }
  }
  // The syntax must be valid as the backtracking engine reads it (its messages are the clearest).
  try {
    new RegExp(pattern, caseInsensitive ? "i" : "");
  } catch (error) {
    throw refuse(
      error instanceof Error ? error.message.replace(/^Invalid regular expression: /, "") : "invalid",
    );
  }
  if (!LINEAR_REGEXP) {
    throw refuse(
      "this server runs without V8's linear-time engine (--v8-flags=--enable-experimental-regexp-engine, " +
        "as `deno task start` and `deno task mcp` set it), and runs no regular expression without it; " +
        "search a substring instead (regex: false)",
    );
  }
  const linear = caseInsensitive ? foldCase(pattern) : pattern;
  if (typeof linear !== "string") throw refuse(linear.refused);
  try {
    return new RegExp(linear, "l");
  } catch {
    throw refuse(
      "it cannot run in linear time: a counted repetition above 16 ({17}, {0,17}, {17,}; nested " +
        "counts multiply: (a{4}){5} is 20)",
    );
  }
}

/**
 * The text a pattern matches when it is a plain string (every character literal, or a punctuation
 * character escaped), else null: such a search is a substring search (`indexOf`), linear and fast,
 * not an automaton over every position.
 */
export function literalOf(pattern: string): string | null {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (!/^[\^$\\.*+?()[\]{}|/\-]$/.test(d)) return null;
      out += d;
      i++;
    } else if ("^$.*+?()[]{}|".includes(c)) return null;
    else out += c;
  }
  return out;
}

/**
 * The longest run of plain characters every match of `pattern` contains (its top-level sequence:
 * none when the pattern has a top-level `|`), or null. A text without it cannot match: a search
 * finds the entries holding it with `indexOf` first, and runs the expression on those alone. A
 * character made optional (`?`, `*`, `{0,…}`) is not in a run; one repeated (`+`, `{2}`) ends it.
 */
export function requiredLiteral(pattern: string): string | null {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let literal: string | null = null;
    let next = i + 1;
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (/^[\^$\\.*+?()[\]{}|\/\-]$/.test(d)) literal = d;
      next = i + 2;
    } else if (c === "|") {
      return null;
    } else if (c === "[") {
      for (next = i + 1; next < pattern.length && pattern[next] !== "]"; next++) {
        if (pattern[next] === "\\") next++;
      }
      next++;
    } else if (c === "(") {
      let depth = 1;
      for (next = i + 1; next < pattern.length && depth > 0; next++) {
        const d = pattern[next];
        if (d === "\\") next++;
        else if (d === "[") {
          for (next++; next < pattern.length && pattern[next] !== "]"; next++) {
            if (pattern[next] === "\\") next++;
          }
        } else if (d === "(") depth++;
        else if (d === ")") depth--;
      }
    } else if (c === "{") {
      const count = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i, i + 24));
      if (count !== null) next = i + count[0].length; // a count: its digits are not text
    } else if (!"^$.*+?}".includes(c)) {
      literal = c;
    }
    const q = pattern[next];
    const optional = q === "?" || q === "*" || (q === "{" && /^\{0[,}]/.test(pattern.slice(next, next + 3)));
    const repeated = q === "+" || (q === "{" && !optional);
    if (literal === null || optional) end();
    else {
      run += literal;
      if (repeated) end();
    }
    i = next - 1;
  }
  end();
  return best === "" ? null : best;
}

/**
 * An upper bound of the work the linear engine does per character of text, in units of one atom
 * (a character, a class, `.`): each atom counts once, each repetition, alternative or assertion
 * once more, and a counted repetition `{n,m}` copies its body m times (n + 1 for `{n,}`), as the
 * engine compiles it. A search tests a text of length L only when L × weight is within its
 * per-text allowance (`search.ts`): the cost of one test is bounded before it starts.
 */
export function patternWeight(pattern: string): number {
  const frames: { total: number }[] = [{ total: 0 }];
  let last = 0; // weight of the atom or group a quantifier would repeat
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const frame = frames[frames.length - 1]!;
    if (c === "\\") {
      i += 1;
      last = 1;
      frame.total += 1;
    } else if (c === "[") {
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
      last = 1;
      frame.total += 1;
    } else if (c === "(") {
      frames.push({ total: 0 });
      if (pattern[i + 1] === "?") {
        const close = pattern[i + 2] === "<" ? pattern.indexOf(">", i) : i + 2;
        i = close < 0 ? i : close;
      }
    } else if (c === ")") {
      if (frames.length > 1) {
        const group = frames.pop()!;
        last = group.total + 1;
        frames[frames.length - 1]!.total += last;
      }
    } else if (c === "*" || c === "+" || c === "?" || c === "|" || c === "^" || c === "$") {
      frame.total += 1;
      if (c === "|" || c === "^" || c === "$") last = 0;
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i, i + 24))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24))!;
      const n = Number(m[1]);
      const copies = m[2] === undefined ? n : m[3] === "" ? n + 1 : Math.max(n, Number(m[3]));
      const extra = last * (Math.min(copies, 1 << 16) - 1) + 1;
      frame.total += extra;
      last += extra;
      i += m[0].length - 1;
    } else {
      last = 1;
      frame.total += 1;
    }
  }
  while (frames.length > 1) {
    const group = frames.pop()!;
    frames[frames.length - 1]!.total += group.total + 1;
  }
  return Math.max(1, frames[0]!.total);
}

/** Escapes kept as they are when folding case: classes, assertions and control characters. */
const KEPT_ESCAPES = new Set("dDwWsSbBnrtfv0".split(""));

/** Per code unit, its canonical case as the `i` flag without `u` compares characters (ECMA-262 Canonicalize). */
let canonicalTable: Uint16Array | null = null;
/** Per canonical code unit with more than one member: its members. */
let caseClasses: Map<number, number[]> | null = null;
/** The code units that have another case, ascending. */
let casedUnits: number[] = [];

function caseTables(): { canon: Uint16Array; classes: Map<number, number[]> } {
  if (canonicalTable === null || caseClasses === null) {
    const canon = new Uint16Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      const upper = String.fromCharCode(c).toUpperCase();
      const u = upper.length === 1 ? upper.charCodeAt(0) : c;
      canon[c] = c >= 128 && u < 128 ? c : u;
    }
    const members = new Map<number, number[]>();
    for (let c = 0; c < 0x10000; c++) {
      const k = canon[c]!;
      let list = members.get(k);
      if (list === undefined) members.set(k, list = []);
      list.push(c);
    }
    const classes = new Map<number, number[]>();
    const cased: number[] = [];
    for (const [k, list] of members) {
      if (list.length > 1) {
        classes.set(k, list);
        cased.push(...list);
      }
    }
    casedUnits = cased.sort((a, b) => a - b);
    canonicalTable = canon;
    caseClasses = classes;
  }
  return { canon: canonicalTable, classes: caseClasses };
}

/** The code units equal to `c` under the `i` flag (without `u`), `c` included. */
function caseMembers(c: number): number[] {
  const { canon, classes } = caseTables();
  return classes.get(canon[c]!) ?? [c];
}

function unitEscape(c: number): string {
  return `\\u${c.toString(16).padStart(4, "0")}`;
}

/** A class body (without brackets) matching exactly `ranges` (code units, merged here). */
function rangesText(ranges: [number, number][]): string {
  ranges.sort((a, b) => a[0] - b[0]);
  let out = "";
  let lo = -1;
  let hi = -2;
  const flush = () => {
    if (lo < 0) return;
    out += hi === lo ? unitEscape(lo) : `${unitEscape(lo)}-${unitEscape(hi)}`;
  };
  for (const [a, b] of ranges) {
    if (a <= hi + 1) hi = Math.max(hi, b);
    else {
      flush();
      lo = a;
      hi = b;
    }
  }
  flush();
  return out;
}

/** `[lo, hi]` and every code unit equal to one in it under `i`, as ranges. */
function foldedRange(lo: number, hi: number): [number, number][] {
  caseTables();
  const out: [number, number][] = [[lo, hi]];
  for (const c of casedUnits) {
    if (c < lo) continue;
    if (c > hi) break;
    for (const m of caseMembers(c)) if (m < lo || m > hi) out.push([m, m]);
  }
  return out;
}

/** The code unit an escape inside or outside a class stands for, with its length; null if not one. */
function escapedUnit(pattern: string, i: number): { unit: number; length: number } | null {
  const d = pattern[i + 1] ?? "";
  const hex = (n: number) => {
    const digits = pattern.slice(i + 2, i + 2 + n);
    return digits.length === n && /^[0-9a-fA-F]+$/.test(digits)
      ? { unit: parseInt(digits, 16), length: 2 + n }
      : null;
  };
  if (d === "x") return hex(2);
  if (d === "u") return hex(4);
  if (d === "c" && /^[A-Za-z]$/.test(pattern[i + 2] ?? "")) {
    return { unit: pattern.charCodeAt(i + 2) % 32, length: 3 };
  }
  if (/[A-Za-z]/.test(d)) return null;
  return { unit: d.charCodeAt(0), length: 2 };
}

/**
 * `pattern` (no "u" syntax) with every character matching all its cases, as the `i` flag without
 * `u` compares them (ECMA-262 Canonicalize: `a` → `[aA]`, `é` → `[éÉ]`, `[a-c]` → the class with
 * `A-C`, `K` → `[kK]` but not the Kelvin sign), so that the linear engine, which has no `i`, can run
 * it. Escapes of a character (`\x41`, `\u00e9`, `\cJ`, `\.`) are folded as the character; an escaped
 * letter that names nothing (`\p` without `u`) is refused, with why.
 */
export function foldCase(pattern: string): string | { refused: string } {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const d = pattern[i + 1] ?? "";
      if (KEPT_ESCAPES.has(d) || /[0-9]/.test(d)) {
        out += c + d;
        i++;
        continue;
      }
      const unit = escapedUnit(pattern, i);
      if (unit === null) {
        return { refused: `case-insensitive matching cannot fold the escape \\${d}: write the character` };
      }
      out += foldedUnit(unit.unit);
      i += unit.length - 1;
    } else if (c === "[") {
      const folded = foldClass(pattern, i);
      if ("refused" in folded) return folded;
      out += folded.text;
      i = folded.end;
    } else if (pattern.startsWith("(?<", i)) {
      const close = pattern.indexOf(">", i);
      if (close < 0) return { refused: "an unterminated group name" };
      out += pattern.slice(i, close + 1); // a group's name is not text to match
      i = close;
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i, i + 24))) {
      const close = pattern.indexOf("}", i);
      out += pattern.slice(i, close + 1); // a count is not text to match
      i = close;
    } else if ("^$.*+?()|{}:=!".includes(c)) {
      out += c;
    } else {
      out += foldedUnit(c.charCodeAt(0));
    }
  }
  return out;
}

/** One code unit as a pattern atom matching each of its cases. */
function foldedUnit(unit: number): string {
  const members = caseMembers(unit);
  if (members.length === 1) {
    const c = String.fromCharCode(unit);
    return /[\x20-\x7e]/.test(c) && !/[\\^$.*+?()[\]{}|/]/.test(c) ? c : unitEscape(unit);
  }
  return `[${members.map(unitEscape).join("")}]`;
}

/** The class starting at `pattern[at]` ("["), folded; `end` is the index of its "]". */
function foldClass(pattern: string, at: number): { text: string; end: number } | { refused: string } {
  let i = at + 1;
  let head = "[";
  if (pattern[i] === "^") {
    head += "^";
    i++;
  }
  const ranges: [number, number][] = [];
  let kept = "";
  // One class atom: a code unit, or a kept class escape (\d, \w, …: no case under "i" without "u").
  const atom = (): { unit: number } | { kept: string } | { refused: string } => {
    const c = pattern[i]!;
    if (c !== "\\") {
      i++;
      return { unit: c.charCodeAt(0) };
    }
    const d = pattern[i + 1] ?? "";
    if ("dDwWsS".includes(d) && d !== "") {
      i += 2;
      return { kept: `\\${d}` };
    }
    if (d === "b") {
      i += 2;
      return { unit: 8 };
    }
    const controls: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0 };
    if (d in controls) {
      i += 2;
      return { unit: controls[d]! };
    }
    const unit = escapedUnit(pattern, i);
    if (unit === null) {
      return { refused: `case-insensitive matching cannot fold the escape \\${d}: write the character` };
    }
    i += unit.length;
    return { unit: unit.unit };
  };
  while (i < pattern.length && pattern[i] !== "]") {
    const a = atom();
    if ("refused" in a) return a;
    if ("kept" in a) {
      kept += a.kept;
      continue;
    }
    if (pattern[i] === "-" && i + 1 < pattern.length && pattern[i + 1] !== "]") {
      i++;
      const b = atom();
      if ("refused" in b) return b;
      if ("kept" in b) {
        // `[a-\d]`: the "-" is a literal without "u".
        ranges.push([a.unit, a.unit], [45, 45]);
        kept += b.kept;
        continue;
      }
      ranges.push(...foldedRange(a.unit, b.unit));
    } else {
      ranges.push(...foldedRange(a.unit, a.unit));
    }
  }
  return { text: `${head}${kept}${rangesText(ranges)}]`, end: i };
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
