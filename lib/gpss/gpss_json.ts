/**
 * GPSS's JSON, read strictly first and, only when that fails, by a lenient reader that repairs its
 * two known defects (§3.4: unescaped backslashes, a missing comma between members) and tells a
 * truncated body (it ends inside a value) from a malformed one.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { MAX_NESTING_DEPTH } from "./_shape.ts";
import { GpssResponseError } from "./response_error.ts";

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const VALUE_START = /["{[\-0-9tfn]/;

/** Repairs listed by the lenient reader (the rest are only counted). */
const MAX_LISTED_REPAIRS = 20;

/** Reads JSON that GPSS got slightly wrong (§3.4). The first repairs are listed in `repairs`. */
class LenientJsonReader {
  readonly repairs: string[] = [];
  repairCount = 0;
  #s: string;
  #i = 0;
  #depth = 0;

  constructor(s: string) {
    this.#s = s;
  }

  read(): unknown {
    const value = this.#value();
    this.#ws();
    if (this.#i < this.#s.length) this.#fail("unexpected text after the JSON value");
    return value;
  }

  #repaired(what: string): void {
    if (++this.repairCount <= MAX_LISTED_REPAIRS) this.repairs.push(what);
  }

  #fail(what: string): never {
    if (this.#i >= this.#s.length) throw new GpssResponseError("truncated", "JSON body ends early", this.#i);
    throw new GpssResponseError("malformed", `invalid JSON: ${what}`, this.#i);
  }

  #ws(): void {
    const s = this.#s;
    while (this.#i < s.length) {
      const c = s.charCodeAt(this.#i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) this.#i++;
      else break;
    }
  }

  #value(): unknown {
    this.#ws();
    const c = this.#s[this.#i];
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string();
    if (c === "t") return this.#literal("true", true);
    if (c === "f") return this.#literal("false", false);
    if (c === "n") return this.#literal("null", null);
    NUMBER_RE.lastIndex = this.#i;
    const m = NUMBER_RE.exec(this.#s);
    if (m) {
      this.#i += m[0].length;
      return Number(m[0]);
    }
    return this.#fail("expected a value");
  }

  #literal<T>(word: string, value: T): T {
    const got = this.#s.slice(this.#i, this.#i + word.length);
    if (got === word) {
      this.#i += word.length;
      return value;
    }
    if (word.startsWith(got) && this.#i + got.length >= this.#s.length) {
      this.#i = this.#s.length;
    }
    return this.#fail(`expected ${word}`);
  }

  #enter(): void {
    if (++this.#depth > MAX_NESTING_DEPTH) {
      throw new GpssResponseError(
        "malformed",
        `JSON nested deeper than ${MAX_NESTING_DEPTH} levels`,
        this.#i,
      );
    }
  }

  #object(): Record<string, unknown> {
    this.#enter();
    this.#i++; // {
    const out: Record<string, unknown> = {};
    this.#ws();
    if (this.#s[this.#i] === "}") {
      this.#i++;
      this.#depth--;
      return out;
    }
    for (;;) {
      this.#ws();
      if (this.#s[this.#i] !== '"') this.#fail("expected a member name");
      const key = this.#string();
      this.#ws();
      if (this.#s[this.#i] !== ":") this.#fail("expected ':'");
      this.#i++;
      const value = this.#value();
      // Assign with defineProperty so a "__proto__" key stays plain data.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.#ws();
      const c = this.#s[this.#i];
      if (c === ",") {
        this.#i++;
      } else if (c === "}") {
        this.#i++;
        this.#depth--;
        return out;
      } else if (c === '"') {
        // GPSS sometimes omits the comma between two members (JP records, before "f-term": §3.4).
        this.#repaired(`missing comma inserted at offset ${this.#i}`);
      } else {
        this.#fail("expected ',' or '}'");
      }
    }
  }

  #array(): unknown[] {
    this.#enter();
    this.#i++; // [
    const out: unknown[] = [];
    this.#ws();
    if (this.#s[this.#i] === "]") {
      this.#i++;
      this.#depth--;
      return out;
    }
    for (;;) {
      out.push(this.#value());
      this.#ws();
      const c = this.#s[this.#i];
      if (c === ",") {
        this.#i++;
      } else if (c === "]") {
        this.#i++;
        this.#depth--;
        return out;
      } else if (c !== undefined && VALUE_START.test(c)) {
        this.#repaired(`missing comma inserted at offset ${this.#i}`);
      } else {
        this.#fail("expected ',' or ']'");
      }
    }
  }

  #string(): string {
    const s = this.#s;
    this.#i++; // opening quote
    let out = "";
    for (;;) {
      let j = this.#i;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        j++;
      }
      out += s.slice(this.#i, j);
      if (j >= s.length) {
        this.#i = s.length;
        this.#fail("unterminated string");
      }
      if (s.charCodeAt(j) === 0x22) {
        this.#i = j + 1;
        return out;
      }
      // backslash
      const e = s[j + 1];
      if (e === undefined) {
        this.#i = s.length;
        this.#fail("unterminated string");
      }
      if (e === "u") {
        const hex = s.slice(j + 2, j + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          this.#i = j + 6;
          continue;
        }
        if (j + 2 + hex.length >= s.length && /^[0-9a-fA-F]*$/.test(hex)) {
          this.#i = s.length;
          this.#fail("unterminated string");
        }
      } else if (Object.hasOwn(JSON_ESCAPES, e)) {
        out += JSON_ESCAPES[e];
        this.#i = j + 2;
        continue;
      }
      // A backslash GPSS did not escape (e.g. "毫米波\太赫兹": §3.4) is kept as text.
      this.#repaired(`unescaped backslash kept at offset ${j}`);
      out += "\\";
      this.#i = j + 1;
    }
  }
}

/**
 * Parses JSON as GPSS sends it: strict `JSON.parse` first; on failure a lenient reader that keeps
 * unescaped backslashes as text, accepts raw control characters inside strings and inserts
 * missing commas between members/elements.
 *
 * @throws {GpssResponseError} `truncated` when the text ends inside a value, `malformed` otherwise.
 * @example
 * ```ts
 * parseGpssJson('{"t": "毫米波\\太赫兹"}'); // { t: "毫米波\\太赫兹" } (one backslash kept)
 * ```
 */
export function parseGpssJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return new LenientJsonReader(text).read();
}
