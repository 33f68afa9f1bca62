/**
 * Reading a JSON request body the way FastAPI does, so existing clients see the same answers.
 *
 * FastAPI (`fastapi/routing.py`): an empty body counts as absent; a body with no `Content-Type` or
 * with `application/json` / `application/*+json` is decoded as JSON; any other content type is
 * passed on as raw text (and then fails model validation). A JSON syntax error becomes a 422
 * `json_invalid` item whose `loc` holds the character offset and whose `ctx.error` is Python's
 * `json` message ("Expecting value", …), reproduced here by {@link pythonJsonError}.
 *
 * @module
 */
import { TooLargeError } from "../lib/errors.ts";

/** What the body turned into before model validation. */
export type RawBody =
  | { kind: "absent" }
  | { kind: "json"; value: unknown }
  | { kind: "text"; value: string }
  | { kind: "json_invalid"; position: number; error: string }
  | { kind: "undecodable" };

function isJsonContentType(header: string | null): boolean {
  if (header === null) return true;
  const mime = header.split(";")[0].trim().toLowerCase();
  const [type, subtype = ""] = mime.split("/");
  return type === "application" && (subtype === "json" || subtype.endsWith("+json"));
}

/**
 * Reads at most `limit` bytes of a request body.
 *
 * @throws {TooLargeError} when `Content-Length` or the bytes received exceed `limit` (checked
 * before anything is parsed, and while streaming, so a lying or absent length cannot bypass it).
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array();
  // With a length declared (and within the limit), the HTTP layer delivers exactly that many bytes:
  // read them in one go, without the stream machinery a reader costs per request.
  if (declared !== null && /^\d+$/.test(declared)) return await request.bytes();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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
 * Decodes a request body into a {@link RawBody} following FastAPI's rules.
 *
 * @example
 * ```ts
 * decodeBody(new TextEncoder().encode("{"), "application/json");
 * // { kind: "json_invalid", position: 1, error: "Expecting property name enclosed in double quotes" }
 * ```
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): RawBody {
  if (bytes.byteLength === 0) return { kind: "absent" };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: "undecodable" };
  }
  if (!isJsonContentType(contentType)) return { kind: "text", value: text };
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

const WS = new Set([" ", "\t", "\n", "\r"]);

/**
 * Finds where and why CPython's `json.loads` (C scanner, Python 3.12 wording) rejects `text`.
 * Only called after `JSON.parse` failed; it re-scans the text to produce Python's message and
 * the position counted in code points, as Python strings count.
 */
export function pythonJsonError(text: string): PythonJsonError {
  const chars = Array.from(text);
  let i = 0;
  const fail = (error: string, at: number): never => {
    throw { error, position: at } satisfies PythonJsonError;
  };
  const skipWs = () => {
    while (i < chars.length && WS.has(chars[i])) i++;
  };
  const parseString = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= chars.length) fail("Unterminated string starting at", start);
      const ch = chars[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === "\\") {
        const esc = chars[i + 1];
        if (esc === undefined) fail("Unterminated string starting at", start);
        if (esc === "u") {
          const hex = chars.slice(i + 2, i + 6).join("");
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape", i + 1);
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(esc)) fail("Invalid \\escape", i);
        i += 2;
        continue;
      }
      if (ch.codePointAt(0)! < 0x20) fail("Invalid control character at", i);
      i++;
    }
  };
  const parseNumber = (): boolean => {
    const rest = chars.slice(i, i + 400).join("");
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(rest);
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  const parseValue = (depth: number): void => {
    if (depth > MAX_JSON_DEPTH) fail("Maximum recursion depth exceeded", i);
    const ch = chars[i];
    if (ch === '"') return parseString();
    if (ch === "{") return parseObject(depth);
    if (ch === "[") return parseArray(depth);
    for (const word of ["null", "true", "false", "NaN", "Infinity", "-Infinity"]) {
      if (chars.slice(i, i + word.length).join("") === word) {
        i += word.length;
        return;
      }
    }
    if (ch !== undefined && (ch === "-" || (ch >= "0" && ch <= "9")) && parseNumber()) return;
    fail("Expecting value", i);
  };
  const parseObject = (depth: number) => {
    i++;
    skipWs();
    if (chars[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      if (chars[i] !== '"') fail("Expecting property name enclosed in double quotes", i);
      parseString();
      skipWs();
      if (chars[i] !== ":") fail("Expecting ':' delimiter", i);
      i++;
      skipWs();
      parseValue(depth + 1);
      skipWs();
      if (chars[i] === "}") {
        i++;
        return;
      }
      if (chars[i] !== ",") fail("Expecting ',' delimiter", i);
      i++;
      skipWs();
    }
  };
  const parseArray = (depth: number) => {
    i++;
    skipWs();
    if (chars[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      skipWs();
      parseValue(depth + 1);
      skipWs();
      if (chars[i] === "]") {
        i++;
        return;
      }
      if (chars[i] !== ",") fail("Expecting ',' delimiter", i);
      i++;
    }
  };
  try {
    skipWs();
    parseValue(0);
    skipWs();
    if (i < chars.length) fail("Extra data", i);
  } catch (e) {
    if (e && typeof e === "object" && "error" in e) return e as PythonJsonError;
    throw e;
  }
  // JSON.parse rejected something Python accepts (NaN/Infinity, a lone surrogate escape, …).
  return { error: "Expecting value", position: 0 };
}
