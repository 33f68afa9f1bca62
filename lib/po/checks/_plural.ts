/**
 * The header's `Plural-Forms`, read as gettext 0.21 reads it (`plural-exp.c`, `plural.y`,
 * `msgl-check.c`): `nplurals=INTEGER; plural=EXPRESSION;`, the C-like expression over `n` with
 * unsigned long arithmetic, and the distribution msgfmt derives from evaluating it for n = 0..1000
 * (which plural forms apply to "often" to many numbers: there placeholders must all be kept).
 *
 * The parser is recursive descent with a nesting bound, so a hostile header cannot exhaust the
 * stack; every step is linear in the expression's length.
 *
 * @module
 */

/** A parsed plural expression: evaluates it for one `n` (null on division by zero). */
export type PluralFunction = (n: bigint) => bigint | null;

/** What `Plural-Forms` says, or why it cannot be used. */
export type PluralForms =
  | { ok: true; nplurals: number; plural: PluralFunction; expression: string }
  | { ok: false; reason: string };

/** Deepest nesting of parentheses and operators accepted (gettext's bison stack is similar). */
const MAX_DEPTH = 200;

/** Values are C `unsigned long` on a 64-bit machine. */
const MASK = (1n << 64n) - 1n;

/**
 * Reads a `Plural-Forms` header value. Absent (`null`) is reported as such, so the caller decides
 * whether it matters (it does only when the catalogue has plural entries).
 *
 * @example
 * ```ts
 * const p = parsePluralForms("nplurals=2; plural=(n != 1);");
 * p.ok && p.plural(1n); // 0n
 * ```
 */
export function parsePluralForms(value: string | null): PluralForms {
  if (value === null) return { ok: false, reason: "the header has no Plural-Forms field" };
  const np = value.indexOf("nplurals=");
  if (np < 0) return { ok: false, reason: 'Plural-Forms lacks "nplurals=INTEGER"' };
  let i = np + 9;
  while (value[i] === " " || value[i] === "\t") i++;
  const digitsStart = i;
  while (i < value.length && value[i] >= "0" && value[i] <= "9") i++;
  if (i === digitsStart) return { ok: false, reason: 'Plural-Forms has "nplurals=" without a number' };
  const nplurals = Number(value.slice(digitsStart, Math.min(i, digitsStart + 9)));
  if (nplurals < 1) {
    return { ok: false, reason: "Plural-Forms says nplurals=0: there must be at least one form" };
  }
  // "nplurals=" itself contains "plural=": look for one not preceded by "n".
  let at = -1;
  for (let k = value.indexOf("plural="); k >= 0; k = value.indexOf("plural=", k + 1)) {
    if (k === 0 || value[k - 1] !== "n") {
      at = k;
      break;
    }
  }
  if (at < 0) return { ok: false, reason: 'Plural-Forms lacks "plural=EXPRESSION"' };
  const text = value.slice(at + 7);
  const parsed = parseExpression(text);
  if (typeof parsed === "string") {
    return { ok: false, reason: `Plural-Forms has an invalid plural expression: ${parsed}` };
  }
  return { ok: true, nplurals, plural: parsed.fn, expression: text.slice(0, parsed.end).trim() };
}

/**
 * What msgfmt checks of a valid `Plural-Forms`: for n = 0..1000 the expression must not divide by
 * zero and must stay below nplurals. Returns the problem, or null; and which forms apply "often"
 * (to at least 5 of those numbers).
 */
export function pluralDistribution(forms: { nplurals: number; plural: PluralFunction }): {
  problem: string | null;
  often: boolean[];
  /** How many of n = min..max (at most 1001 of them) select each form. */
  histogram: (min: number, max: number, form: number) => number;
} {
  const counts = new Array<number>(forms.nplurals).fill(0);
  let problem: string | null = null;
  let largest = -1n;
  for (let n = 0n; n <= 1000n; n++) {
    const v = forms.plural(n);
    if (v === null) {
      problem ??= `the plural expression divides by zero (for n = ${n})`;
      continue;
    }
    if (v >= BigInt(forms.nplurals)) {
      if (v > largest) largest = v;
      continue;
    }
    if (counts[Number(v)] < 5) counts[Number(v)]++;
  }
  if (largest >= 0n && problem === null) {
    problem = `the plural expression can give ${largest}, but nplurals = ${forms.nplurals}: ` +
      `forms are numbered 0 to ${forms.nplurals - 1}`;
  }
  return {
    problem,
    often: counts.map((c) => c === 5),
    histogram(min, max, form) {
      let count = 0;
      const top = Math.min(max, min + 1000);
      for (let n = min; n <= top; n++) if (forms.plural(BigInt(n)) === BigInt(form)) count++;
      return count;
    },
  };
}

type Node = (n: bigint) => bigint | null;

/** Parses gettext's plural expression grammar; returns the function and where it ended, or a reason. */
function parseExpression(text: string): { fn: PluralFunction; end: number } | string {
  let i = 0;
  let depth = 0;
  const skip = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at character ${i + 1} of "${text.slice(0, 80)}"`);
  };
  let nodes = 0;
  /** Counts operators: a long chain would make the evaluation's closures nest as deep. */
  const node = () => {
    if (++nodes > MAX_DEPTH) fail("too many operators");
  };
  const enter = () => {
    if (++depth > MAX_DEPTH) fail("nested too deeply");
  };
  const ternary = (): Node => {
    enter();
    const cond = binary(0);
    skip();
    if (text[i] === "?") {
      i++;
      node();
      const yes = ternary();
      skip();
      if (text[i] !== ":") fail('expected ":"');
      i++;
      const no = ternary();
      depth--;
      return (n) => {
        const c = cond(n);
        if (c === null) return null;
        return c !== 0n ? yes(n) : no(n);
      };
    }
    depth--;
    return cond;
  };
  // Precedence levels, lowest first.
  const LEVELS: string[][] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], [
    "*",
    "/",
    "%",
  ]];
  const binary = (level: number): Node => {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    for (;;) {
      skip();
      // Two-character operators come first in their list, so "<" never takes the start of "<=".
      const op = LEVELS[level].find((o) => text.startsWith(o, i));
      if (op === undefined) return left;
      i += op.length;
      node();
      const right = binary(level + 1);
      left = combine(op, left, right);
    }
  };
  const unary = (): Node => {
    skip();
    if (text[i] === "!") {
      i++;
      node();
      enter();
      const inner = unary();
      depth--;
      return (n) => {
        const v = inner(n);
        return v === null ? null : v === 0n ? 1n : 0n;
      };
    }
    return primary();
  };
  const primary = (): Node => {
    skip();
    const c = text[i];
    if (c === "n") {
      i++;
      return (n) => n & MASK;
    }
    if (c !== undefined && c >= "0" && c <= "9") {
      const start = i;
      while (i < text.length && text[i] >= "0" && text[i] <= "9") i++;
      const value = BigInt(text.slice(start, Math.min(i, start + 20))) & MASK;
      return () => value;
    }
    if (c === "(") {
      i++;
      const inner = ternary();
      skip();
      if (text[i] !== ")") fail('expected ")"');
      i++;
      return inner;
    }
    return fail(c === undefined || c === ";" ? "the expression ends early" : `unexpected "${c}"`);
  };
  try {
    const fn = ternary();
    skip();
    if (i < text.length && text[i] !== ";" && text[i] !== "\n") fail(`unexpected "${text[i]}"`);
    return { fn, end: i };
  } catch (error) {
    if (error instanceof SyntaxError) return error.message;
    throw error;
  }
}

function combine(op: string, a: Node, b: Node): Node {
  const both = (f: (x: bigint, y: bigint) => bigint | null): Node => (n) => {
    const x = a(n);
    if (x === null) return null;
    const y = b(n);
    if (y === null) return null;
    return f(x, y);
  };
  switch (op) {
    case "||":
      return (n) => {
        const x = a(n);
        if (x === null) return null;
        if (x !== 0n) return 1n;
        const y = b(n);
        return y === null ? null : y !== 0n ? 1n : 0n;
      };
    case "&&":
      return (n) => {
        const x = a(n);
        if (x === null) return null;
        if (x === 0n) return 0n;
        const y = b(n);
        return y === null ? null : y !== 0n ? 1n : 0n;
      };
    case "==":
      return both((x, y) => (x === y ? 1n : 0n));
    case "!=":
      return both((x, y) => (x !== y ? 1n : 0n));
    case "<=":
      return both((x, y) => (x <= y ? 1n : 0n));
    case ">=":
      return both((x, y) => (x >= y ? 1n : 0n));
    case "<":
      return both((x, y) => (x < y ? 1n : 0n));
    case ">":
      return both((x, y) => (x > y ? 1n : 0n));
    case "+":
      return both((x, y) => (x + y) & MASK);
    case "-":
      return both((x, y) => (x - y) & MASK);
    case "*":
      return both((x, y) => (x * y) & MASK);
    case "/":
      return both((x, y) => (y === 0n ? null : x / y));
    default:
      return both((x, y) => (y === 0n ? null : x % y));
  }
}
