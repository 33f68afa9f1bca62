/**
 * The `Plural-Forms` header field as GNU gettext 0.21 reads it (`gettext-runtime/intl/plural.y`,
 * `plural-exp.c`): `nplurals=N; plural=EXPR;` where EXPR is a C expression over `n` with `?:`,
 * `||`, `&&`, `==`, `!=`, `<`, `>`, `<=`, `>=`, `+`, `-`, `*`, `/`, `%`, `!`, numbers and
 * parentheses, evaluated on unsigned long integers.
 *
 * The parser is a precedence climber over gettext's own token rules (a space or tab separates
 * tokens; `;`, a newline or the end stops the expression; `=` alone, `&` or `|` alone and any
 * other character are errors). Nesting and length are bounded ({@link MAX_DEPTH},
 * {@link MAX_OPERATORS}), so a hostile header of a megabyte of `(` or `n+` costs linear time and
 * little stack.
 *
 * @module
 */

/** A parsed plural expression. */
export type PluralExpression =
  | { op: "n" }
  | { op: "num"; value: bigint }
  | { op: "!"; arg: PluralExpression }
  | { op: BinaryOp; left: PluralExpression; right: PluralExpression }
  | { op: "?"; test: PluralExpression; then: PluralExpression; else: PluralExpression };

type BinaryOp = "||" | "&&" | "==" | "!=" | "<" | ">" | "<=" | ">=" | "+" | "-" | "*" | "/" | "%";

/** Deepest nesting of parentheses, `!` and `?:` accepted (gettext's bison stack allows ~10000). */
const MAX_DEPTH = 200;

/**
 * Most operators accepted: a chain `n+n+…` is a tree as deep as it is long, and evaluating it
 * recurses that deep. The longest real expression (Arabic, Slovenian…) has fewer than 40.
 */
const MAX_OPERATORS = 300;

const PRECEDENCE: Record<BinaryOp, number> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  ">": 4,
  "<=": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "%": 6,
};

type Token = { kind: "num"; value: bigint } | { kind: "op"; op: string } | { kind: "end" } | {
  kind: "error";
};

/** Where parsing stops for good: the message says why, for the caller's error. */
class PluralSyntax extends Error {}

class Lexer {
  #at: number;
  constructor(readonly text: string, start: number) {
    this.#at = start;
  }

  next(): Token {
    const s = this.text;
    while (this.#at < s.length && (s[this.#at] === " " || s[this.#at] === "\t")) this.#at++;
    if (this.#at >= s.length) return { kind: "end" };
    const c = s[this.#at++]!;
    if (c >= "0" && c <= "9") {
      const start = this.#at - 1;
      while (this.#at < s.length && s[this.#at]! >= "0" && s[this.#at]! <= "9") this.#at++;
      // unsigned long: gettext's value wraps modulo 2^64.
      return { kind: "num", value: BigInt.asUintN(64, BigInt(s.slice(start, this.#at))) };
    }
    const two = s[this.#at];
    switch (c) {
      case "=":
        if (two === "=") return this.#op("==");
        return { kind: "error" };
      case "!":
        if (two === "=") return this.#op("!=");
        return { kind: "op", op: "!" };
      case "&":
      case "|":
        if (two === c) return this.#op(c + c);
        return { kind: "error" };
      case "<":
      case ">":
        if (two === "=") return this.#op(c + "=");
        return { kind: "op", op: c };
      case "*":
      case "/":
      case "%":
      case "+":
      case "-":
      case "n":
      case "?":
      case ":":
      case "(":
      case ")":
        return { kind: "op", op: c };
      case ";":
      case "\n":
        this.#at--;
        return { kind: "end" };
      default:
        return { kind: "error" };
    }
  }

  #op(op: string): Token {
    this.#at++;
    return { kind: "op", op };
  }
}

class Parser {
  #token: Token;
  #depth = 0;
  #operators = 0;
  constructor(readonly lexer: Lexer) {
    this.#token = lexer.next();
  }

  parse(): PluralExpression {
    const e = this.#expression();
    if (this.#token.kind !== "end") throw new PluralSyntax("unexpected text after the expression");
    return e;
  }

  #advance(): void {
    if (this.#token.kind === "op" && ++this.#operators > MAX_OPERATORS) {
      throw new PluralSyntax(`more than ${MAX_OPERATORS} operators`);
    }
    this.#token = this.lexer.next();
  }

  #is(op: string): boolean {
    return this.#token.kind === "op" && this.#token.op === op;
  }

  #enter(): void {
    if (++this.#depth > MAX_DEPTH) throw new PluralSyntax(`nested deeper than ${MAX_DEPTH} levels`);
  }

  /** `?:` is right-associative and binds loosest. */
  #expression(): PluralExpression {
    this.#enter();
    const test = this.#binary(1);
    let result = test;
    if (this.#is("?")) {
      this.#advance();
      const then = this.#expression();
      if (!this.#is(":")) throw new PluralSyntax('"?" without ":"');
      this.#advance();
      result = { op: "?", test, then, else: this.#expression() };
    }
    this.#depth--;
    return result;
  }

  #binary(minPrecedence: number): PluralExpression {
    let left = this.#unary();
    for (;;) {
      const t = this.#token;
      if (t.kind !== "op" || !(t.op in PRECEDENCE)) return left;
      const op = t.op as BinaryOp;
      const p = PRECEDENCE[op];
      if (p < minPrecedence) return left;
      this.#advance();
      const right = this.#binary(p + 1);
      left = { op, left, right };
    }
  }

  #unary(): PluralExpression {
    const t = this.#token;
    if (t.kind === "num") {
      this.#advance();
      return { op: "num", value: t.value };
    }
    if (t.kind !== "op") {
      throw new PluralSyntax(t.kind === "end" ? "expression ends early" : "invalid character");
    }
    switch (t.op) {
      case "n":
        this.#advance();
        return { op: "n" };
      case "!": {
        this.#enter();
        this.#advance();
        const arg = this.#unary();
        this.#depth--;
        return { op: "!", arg };
      }
      case "(": {
        this.#advance();
        const inner = this.#expression();
        if (!this.#is(")")) throw new PluralSyntax('"(" without ")"');
        this.#advance();
        return inner;
      }
      default:
        throw new PluralSyntax(`unexpected "${t.op}"`);
    }
  }
}

/**
 * Parses the plural expression at `text[start…]` (up to `;`, a newline or the end) as gettext's
 * plural.y does.
 *
 * @returns the expression, or a string saying why it is not one.
 */
export function parsePluralExpression(text: string, start = 0): PluralExpression | string {
  try {
    return new Parser(new Lexer(text, start)).parse();
  } catch (error) {
    if (error instanceof PluralSyntax) return error.message;
    throw error;
  }
}

const MASK = (1n << 64n) - 1n;

/**
 * The expression's value for `n` (unsigned 64-bit arithmetic as in plural-eval.c), or null on a
 * division by zero (gettext raises SIGFPE there; msgfmt reports it).
 */
export function evaluatePlural(e: PluralExpression, n: bigint): bigint | null {
  switch (e.op) {
    case "n":
      return n;
    case "num":
      return e.value;
    case "!": {
      const v = evaluatePlural(e.arg, n);
      return v === null ? null : v === 0n ? 1n : 0n;
    }
    case "?": {
      const t = evaluatePlural(e.test, n);
      if (t === null) return null;
      return evaluatePlural(t !== 0n ? e.then : e.else, n);
    }
    default: {
      const l = evaluatePlural(e.left, n);
      if (l === null) return null;
      // Short-circuit like C.
      if (e.op === "||" && l !== 0n) return 1n;
      if (e.op === "&&" && l === 0n) return 0n;
      const r = evaluatePlural(e.right, n);
      if (r === null) return null;
      switch (e.op) {
        case "||":
        case "&&":
          return r !== 0n ? 1n : 0n;
        case "==":
          return l === r ? 1n : 0n;
        case "!=":
          return l !== r ? 1n : 0n;
        case "<":
          return l < r ? 1n : 0n;
        case ">":
          return l > r ? 1n : 0n;
        case "<=":
          return l <= r ? 1n : 0n;
        case ">=":
          return l >= r ? 1n : 0n;
        case "+":
          return (l + r) & MASK;
        case "-":
          return (l - r) & MASK;
        case "*":
          return (l * r) & MASK;
        case "/":
          return r === 0n ? null : l / r;
        case "%":
          return r === 0n ? null : l % r;
      }
    }
  }
}
