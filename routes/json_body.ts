/**
 * Reading a JSON request body the way FastAPI does, so existing clients see the same answers.
 *
 * FastAPI (`fastapi/routing.py`): an empty body counts as absent; a body with no `Content-Type` or
 * with `application/json` / `application/*+json` is decoded as JSON. A JSON syntax error becomes a
 * 422 `json_invalid` item whose `loc` holds the character offset and whose `ctx.error` is Python's
 * `json` message ("Expecting value", …), reproduced here by {@link pythonJsonError}.
 *
 * One deliberate difference: FastAPI passes a body of any other content type on as raw text (which
 * then fails model validation with a 422); this service refuses it before reading it (415, see
 * `UnsupportedMediaTypeError` in `validation.ts`), because `text/plain` and form bodies are what a
 * web page may POST cross-origin without a CORS preflight.
 *
 * @module
 */
import { TooLargeError } from "../lib/errors.ts";

/** What the body turned into before model validation. */
export type RawBody =
  | { kind: "absent" }
  | { kind: "json"; value: unknown }
  | { kind: "json_invalid"; position: number; error: string }
  | { kind: "undecodable" };

/**
 * True when a `Content-Type` header announces JSON (`application/json` or `application/*+json`,
 * parameters allowed) or is absent (or empty, as FastAPI treats it).
 */
export function isJsonContentType(header: string | null): boolean {
  if (header === null || header.trim() === "") return true;
  const [first = ""] = header.split(";");
  const mime = first.trim().toLowerCase();
  const [type, subtype = ""] = mime.split("/");
  return type === "application" && (subtype === "json" || subtype.endsWith("+json"));
}

/**
 * A body that cannot be read (the connection failed under it) or is not valid UTF-8: FastAPI
 * answers any such failure with 400 "There was an error parsing the body".
 */
export class BodyParseError extends Error {
  constructor() {
    super("There was an error parsing the body");
    this.name = "BodyParseError";
  }
}

/** What reading a request body throws when the connection fails under it. */
const BODY_READ_FAILURES = [
  Deno.errors.BadResource,
  Deno.errors.ConnectionReset,
  Deno.errors.ConnectionAborted,
  Deno.errors.UnexpectedEof,
  Deno.errors.Interrupted,
  Deno.errors.Http,
];

/** One chunk of the body; a failing connection is a {@link BodyParseError}, not a bug to log. */
async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (error) {
    // A client that goes away mid-body would otherwise be a 500 with a stack trace in the log.
    if (BODY_READ_FAILURES.some((cls) => error instanceof cls)) throw new BodyParseError();
    throw error;
  }
}

/** First buffer reserved for a body that arrives in several chunks; it doubles as bytes come. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * Reads at most `limit` bytes of a request body, as a stream: memory follows the bytes actually
 * received (a buffer that doubles as they arrive, never past the declared length), not the
 * `Content-Length` a client announces: 50 connections that declared 16 MiB and sent only headers
 * took the process from 82 to 886 MiB when the declared length was reserved up front. A body that
 * arrives in one chunk is returned as it is, without a copy.
 *
 * @throws {TooLargeError} when `Content-Length` exceeds `limit` (at once, before reading), when
 * the bytes received exceed `limit`, or when they exceed the declared `Content-Length`.
 * @throws {BodyParseError} when the connection fails while the body is read.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const header = request.headers.get("content-length");
  const declared = header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : null;
  if (header !== null && Number(header) > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array();
  const max = declared ?? limit;
  const reader = request.body.getReader();
  let first: Uint8Array | null = null;
  let buffer: Uint8Array | null = null;
  let size = 0;
  for (;;) {
    const { done, value } = await readChunk(reader);
    if (done) break;
    if (size + value.byteLength > max) {
      await reader.cancel();
      throw declared !== null && declared < limit ? longerThanDeclared(declared) : tooLarge(limit);
    }
    if (first === null && buffer === null) {
      first = value;
    } else {
      if (buffer === null || size + value.byteLength > buffer.byteLength) {
        let capacity = Math.max(buffer?.byteLength ?? FIRST_BUFFER_BYTES, FIRST_BUFFER_BYTES);
        while (capacity < size + value.byteLength) capacity *= 2;
        const grown = new Uint8Array(Math.min(capacity, max));
        grown.set(buffer === null ? first! : buffer.subarray(0, size));
        buffer = grown;
        first = null;
      }
      buffer.set(value, size);
    }
    size += value.byteLength;
  }
  if (buffer !== null) return buffer.byteLength === size ? buffer : buffer.subarray(0, size);
  return first ?? new Uint8Array();
}

function longerThanDeclared(declared: number): TooLargeError {
  return new TooLargeError(`Request body too large: longer than its Content-Length of ${declared} bytes`);
}

function tooLarge(limit: number): TooLargeError {
  return new TooLargeError(`Request body too large: the limit is ${limit} bytes`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Deepest nesting of a JSON body: CPython's `json` gives up past its recursion limit (about 1000
 * levels), and so does this service. Deeper values are refused as soon as they are parsed: a 422
 * echoes the invalid value (`input`), and `JSON.stringify` takes time quadratic in the depth (a
 * 16 MiB body of nested arrays kept the server busy for 45 s).
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * True when a parsed JSON value holds a value nested in more than `max` arrays or objects (the
 * top-level value is at depth 0), i.e. when CPython's `json` would have refused it. Iterative, so
 * any depth is safe to check.
 */
export function exceedsJsonDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const v = stack.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== "object") continue;
    const members = Array.isArray(v) ? v : Object.values(v);
    if (members.length > 0 && depth >= max) return true;
    for (const m of members) {
      if (m !== null && typeof m === "object") {
        stack.push(m);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Decodes the bytes of a JSON request body into a {@link RawBody} following FastAPI's rules (the
 * content type is checked before, by {@link isJsonContentType}).
 *
 * @example
 * ```ts
 * decodeBody(new TextEncoder().encode("{"));
 * // { kind: "json_invalid", position: 1, error: "Expecting property name enclosed in double quotes" }
 * ```
 */
export function decodeBody(bytes: Uint8Array): RawBody {
  if (bytes.byteLength === 0) return { kind: "absent" };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: "undecodable" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { position, error } = pythonJsonError(text);
    return { kind: "json_invalid", position, error };
  }
  // Nesting deeper than MAX_JSON_DEPTH needs at least two characters per level.
  if (text.length > 2 * MAX_JSON_DEPTH && exceedsJsonDepth(value)) {
    // Python stops at the same place: "Maximum recursion depth exceeded" at that value's offset.
    const { position, error } = pythonJsonError(text);
    return { kind: "json_invalid", position, error };
  }
  return { kind: "json", value };
}

/** A Python `json.JSONDecodeError`: message and character (code point) offset. */
export interface PythonJsonError {
  error: string;
  position: number;
}

/** True for the four characters Python's JSON scanner skips as whitespace. */
function isWs(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const HEX4 = /[0-9a-fA-F]{4}/y;

/**
 * Up to 4096 complete, valid scalar items of an array (`value ,`) or members of an object
 * (`"key" : value ,`), each followed by its comma: numbers in Python's grammar, strings without
 * escapes or controls, and the three words. The scanner skips such runs in one regular-expression
 * call instead of a function call per character (much faster on a body of many small values); it
 * stops before anything else, which the character-level scanner then reads as before. Bounded
 * repetition keeps the engine's backtracking state small, and every item is matched in one way
 * only, so the match is linear.
 */
const SCALAR =
  '(?:-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|"[^"\\\\\\x00-\\x1f]*"|true|false|null)';
const WS = "[ \\t\\n\\r]*";
const ARRAY_ITEMS = new RegExp(`(?:${WS}${SCALAR}${WS},){0,4096}`, "y");
const OBJECT_MEMBERS = new RegExp(
  `(?:${WS}"[^"\\\\\\x00-\\x1f]*"${WS}:${WS}${SCALAR}${WS},){0,4096}`,
  "y",
);

/** The end of the longest run of `pattern` (a sticky, bounded-repetition pattern) from `at`. */
function skipRuns(pattern: RegExp, text: string, at: number): number {
  for (;;) {
    pattern.lastIndex = at;
    pattern.test(text);
    if (pattern.lastIndex <= at) return at;
    at = pattern.lastIndex;
  }
}

const WORDS = ["null", "true", "false", "NaN", "Infinity", "-Infinity"];

/** The code point offset of UTF-16 offset `unit` in `text` (Python counts code points). */
function codePointOffset(text: string, unit: number): number {
  let pairs = 0;
  for (let k = 0; k + 1 < unit; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        k++;
      }
    }
  }
  return unit - pairs;
}

/**
 * Finds where and why CPython's `json.loads` (C scanner, Python 3.12 wording) rejects `text`.
 * Only called after `JSON.parse` failed; it re-scans the text to produce Python's message and
 * the position counted in code points, as Python strings count. Linear in the text: it walks the
 * string's UTF-16 units in place (every character the grammar cares about is ASCII), never copies
 * a slice of it, and converts the one offset it reports to code points at the end.
 */
export function pythonJsonError(text: string): PythonJsonError {
  const n = text.length;
  let i = 0;
  const fail = (error: string, at: number): never => {
    throw { error, position: at } satisfies PythonJsonError;
  };
  const skipWs = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const parseString = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= n) fail("Unterminated string starting at", start);
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return;
      }
      if (code === 0x5c) {
        if (i + 1 >= n) fail("Unterminated string starting at", start);
        const esc = text.charAt(i + 1);
        if (esc === "u") {
          // CPython refuses an escape whose four digits end the text (`end >= len`), even when valid.
          if (i + 6 >= n) fail("Invalid \\uXXXX escape", i + 1);
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) fail("Invalid \\uXXXX escape", i + 1);
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(esc)) fail("Invalid \\escape", i);
        i += 2;
        continue;
      }
      if (code < 0x20) fail("Invalid control character at", i);
      i++;
    }
  };
  // Python's number grammar, `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, matched in place.
  const parseNumber = (): boolean => {
    let k = i;
    if (text.charCodeAt(k) === 0x2d) k++;
    const lead = text.charCodeAt(k);
    if (lead === 0x30) k++;
    else if (isDigit(lead)) { while (isDigit(text.charCodeAt(k))) k++; }
    else return false;
    if (text.charCodeAt(k) === 0x2e && isDigit(text.charCodeAt(k + 1))) {
      k += 2;
      while (isDigit(text.charCodeAt(k))) k++;
    }
    const e = text.charCodeAt(k);
    if (e === 0x65 || e === 0x45) {
      let m = k + 1;
      const sign = text.charCodeAt(m);
      if (sign === 0x2b || sign === 0x2d) m++;
      if (isDigit(text.charCodeAt(m))) {
        while (isDigit(text.charCodeAt(m))) m++;
        k = m;
      }
    }
    i = k;
    return true;
  };
  const parseValue = (depth: number): void => {
    if (depth > MAX_JSON_DEPTH) fail("Maximum recursion depth exceeded", i);
    const code = text.charCodeAt(i);
    if (code === 0x22) return parseString();
    if (code === 0x7b) return parseObject(depth);
    if (code === 0x5b) return parseArray(depth);
    // Numbers and the words never start alike (`-Infinity` is not a number), so either order
    // gives Python's answer; numbers first, as they are the common case.
    if ((code === 0x2d || isDigit(code)) && parseNumber()) return;
    for (const word of WORDS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    fail("Expecting value", i);
  };
  const parseObject = (depth: number) => {
    i++;
    skipWs();
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      // (Values one level too deep are Python's recursion error: not skipped.)
      const skipped = depth < MAX_JSON_DEPTH ? skipRuns(OBJECT_MEMBERS, text, i) : i;
      if (skipped > i) {
        i = skipped;
        skipWs();
      }
      if (text[i] !== '"') fail("Expecting property name enclosed in double quotes", i);
      parseString();
      skipWs();
      if (text[i] !== ":") fail("Expecting ':' delimiter", i);
      i++;
      skipWs();
      parseValue(depth + 1);
      skipWs();
      if (text[i] === "}") {
        i++;
        return;
      }
      if (text[i] !== ",") fail("Expecting ',' delimiter", i);
      i++;
      skipWs();
    }
  };
  const parseArray = (depth: number) => {
    i++;
    skipWs();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      if (depth < MAX_JSON_DEPTH) i = skipRuns(ARRAY_ITEMS, text, i);
      skipWs();
      parseValue(depth + 1);
      skipWs();
      if (text[i] === "]") {
        i++;
        return;
      }
      if (text[i] !== ",") fail("Expecting ',' delimiter", i);
      i++;
    }
  };
  try {
    skipWs();
    parseValue(0);
    skipWs();
    if (i < n) fail("Extra data", i);
  } catch (e) {
    if (e && typeof e === "object" && "error" in e) {
      const { error, position } = e as PythonJsonError;
      return { error, position: codePointOffset(text, position) };
    }
    throw e;
  }
  // JSON.parse rejected something Python accepts (NaN/Infinity, a lone surrogate escape, …).
  return { error: "Expecting value", position: 0 };
}
