/**
 * Request validation with zod, answered the way FastAPI + pydantic v2 answer.
 *
 * The zod schemas at the top of each route file are the HTTP contract: they validate requests,
 * feed `/openapi.json` and the MCP tool list. This module turns zod's issues into pydantic v2's
 * `{type, loc, msg, input, ctx?}` items, so that a 422 body is the one the replaced FastAPI
 * services gave (same type codes, same wording).
 *
 * @module
 */
import { z } from "zod";
import type { Context } from "hono";
import {
  BodyParseError,
  decodeBody,
  exceedsJsonDepth,
  isJsonContentType,
  readBodyBytes,
} from "./json_body.ts";
import { closestName } from "../lib/closest_name.ts";

export { BodyParseError };

/** One pydantic v2 error item. */
export interface PydanticError {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** A request that failed validation; `routes/errors.ts` answers it with 422 `{detail}`. */
export class RequestValidationError extends Error {
  readonly detail: PydanticError[];
  constructor(detail: PydanticError[]) {
    super("Request validation failed");
    this.name = "RequestValidationError";
    this.detail = detail;
  }
}

/**
 * A body whose `Content-Type` is present and not JSON (`application/json` or
 * `application/*+json`, parameters allowed): `routes/errors.ts` answers it with 415
 * `{"detail": "Unsupported Media Type: expected application/json"}`.
 *
 * A deliberate difference from the FastAPI service, which parsed such a body as text and answered
 * 422: `text/plain`, `application/x-www-form-urlencoded` and `multipart/form-data` are the types a
 * web page may POST to another origin without a CORS preflight, so refusing them (before reading
 * the body) keeps pages a user visits from calling the service. Requests without a `Content-Type`
 * (curl, agents, MCP clients) are still read as JSON, as FastAPI reads them; a browser can send
 * those too (a `Blob` body without a type), which the `Origin` check is there to refuse.
 */
export class UnsupportedMediaTypeError extends Error {
  constructor() {
    super("Unsupported Media Type: expected application/json");
    this.name = "UnsupportedMediaTypeError";
  }
}

// ---------------------------------------------------------------------------------------------
// Bounds: a 422 answer stays small whatever the request
// ---------------------------------------------------------------------------------------------

/**
 * Most pydantic items one 422 `detail` lists; past it, one final `too_many_errors` item says how
 * many more there were. pydantic lists every error (one per bad list element): a 100 KB body of
 * bad codes got a 25.7 MB answer. Twenty is more than any hand-written request has.
 */
export const MAX_ERROR_ITEMS = 20;

/** Allowed values a literal error names; the others are counted (see {@link literalExpected}). */
export const MAX_LISTED_VALUES = 10;

/** Longest echoed string (`input`, a `loc` key, a value in a message), in UTF-16 units. */
export const MAX_ECHO_CHARS = 200;

/** Longest `msg` or `ctx` string; ours are at most ~350 characters, so only echoes are cut. */
export const MAX_MESSAGE_CHARS = 1000;

/** An echoed array or object whose JSON exceeds this many characters is replaced by a summary. */
export const MAX_ECHO_JSON_CHARS = 1000;

/** Largest 422 `detail`, in UTF-8 bytes of its JSON (items past it are counted, not listed). */
export const MAX_DETAIL_BYTES = 64 * 1024;

/**
 * Request values (every JSON value, nested ones included) up to which all errors are collected
 * and counted. Past it, validation stops at the first error: zod records every failing element
 * before we could cut, and 4 million bad list elements (a 16 MiB body) cost it 5.7 s and over
 * 2 GB. At this bound, a body made only of errors costs little (bench/complexity_http.ts); a valid
 * body of any size is validated in full as before.
 */
export const MAX_FULLY_VALIDATED_VALUES = 20_000;

/** Cuts a string to `max` UTF-16 units (never inside a surrogate pair), marking what was cut. */
function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}

/**
 * True when `value` serialises to at most `budget` JSON characters (escapes aside). Stops as
 * soon as the budget is spent, so its cost is bounded by the budget, not by the value.
 */
function jsonFits(value: unknown, budget: number): boolean {
  const stack: unknown[] = [value];
  let left = budget;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") left -= v.length + 2;
    else if (v === null || typeof v !== "object") left -= String(v).length;
    else if (Array.isArray(v)) {
      left -= 2 + v.length;
      if (left < 0) return false;
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      left -= 2;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        left -= key.length + 4;
        if (left < 0) return false;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
    if (left < 0) return false;
  }
  return true;
}

/**
 * A bounded excerpt of a request value, for error answers that echo input: strings longer than
 * {@link MAX_ECHO_CHARS} are cut (with a `… [N more characters]` marker); an array or object
 * whose JSON exceeds {@link MAX_ECHO_JSON_CHARS} becomes a summary such as `"<list of 12345
 * items>"`; smaller values are returned as they are, so small requests are echoed exactly as
 * pydantic echoes them.
 *
 * @example
 * ```ts
 * excerpt("x".repeat(1000)); // "xxx…x… [800 more characters]"
 * excerpt(Array(5000).fill(0)); // "<list of 5000 items>"
 * excerpt({ a: 1 }); // { a: 1 }
 * ```
 */
export function excerpt(value: unknown): unknown {
  if (typeof value === "string") return truncateText(value, MAX_ECHO_CHARS);
  if (value === null || typeof value !== "object") return value;
  if (jsonFits(value, MAX_ECHO_JSON_CHARS)) return value;
  if (Array.isArray(value)) return `<list of ${value.length} item${value.length === 1 ? "" : "s"}>`;
  let keys = 0;
  for (const key in value) if (Object.hasOwn(value, key)) keys++;
  return `<dict of ${keys} key${keys === 1 ? "" : "s"}>`;
}

/** One item with every part bounded, in pydantic's key order (type, loc, msg, input, ctx). */
function boundedItem({ type, loc, msg, input, ctx }: PydanticError): PydanticError {
  const item: PydanticError = {
    type: truncateText(type, MAX_ECHO_CHARS),
    loc: loc.map((key) => typeof key === "string" ? truncateText(key, MAX_MESSAGE_CHARS) : key),
    msg: truncateText(msg, MAX_MESSAGE_CHARS),
    input: excerpt(input),
  };
  if (ctx) {
    const bounded: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(ctx)) {
      bounded[key] = typeof value === "string" ? truncateText(value, MAX_MESSAGE_CHARS) : excerpt(value);
    }
    item.ctx = bounded;
  }
  return item;
}

const utf8 = new TextEncoder();

/** Room kept for the final `too_many_errors` item when filling a detail up to its size cap. */
const FINAL_ITEM_RESERVE = 400;

/**
 * Takes items from `items` while they fit ({@link MAX_ERROR_ITEMS}, {@link MAX_DETAIL_BYTES}),
 * each bounded, then one item counting the others: `total` is how many there were in all, or
 * null when validation stopped early and the others were not counted.
 */
function finishDetail(items: Iterator<PydanticError>, total: number | null): PydanticError[] {
  const out: PydanticError[] = [];
  let size = 2;
  let more = false;
  for (let next = items.next(); !next.done; next = items.next()) {
    if (out.length === MAX_ERROR_ITEMS) {
      more = true;
      break;
    }
    const item = boundedItem(next.value);
    const itemSize = utf8.encode(JSON.stringify(item)).byteLength + 1;
    if (size + itemSize > MAX_DETAIL_BYTES - FINAL_ITEM_RESERVE) {
      more = true;
      break;
    }
    out.push(item);
    size += itemSize;
  }
  if (total === null) {
    out.push({
      type: "too_many_errors",
      loc: ["body"],
      msg: `… and possibly more errors: a body of more than ${MAX_FULLY_VALIDATED_VALUES} values ` +
        "is checked only up to its first error",
      input: null,
    });
  } else if (more || total > out.length) {
    const left = Math.max(total - out.length, 1);
    out.push({
      type: "too_many_errors",
      loc: ["body"],
      msg: `… and ${left} more error${left === 1 ? "" : "s"}`,
      input: null,
    });
  }
  return out;
}

/**
 * Bounds a 422 `detail` for answering: at most {@link MAX_ERROR_ITEMS} items (then one
 * `too_many_errors` item counting the rest), every echoed value cut by {@link excerpt}, and the
 * whole under {@link MAX_DETAIL_BYTES}. Items of a small detail come back unchanged.
 *
 * @example
 * ```ts
 * boundedDetail(items).length <= MAX_ERROR_ITEMS + 1; // true
 * ```
 */
export function boundedDetail(detail: readonly PydanticError[]): PydanticError[] {
  return finishDetail(detail.values(), detail.length);
}

// ---------------------------------------------------------------------------------------------
// Schema helpers with pydantic's semantics
// ---------------------------------------------------------------------------------------------

/**
 * pydantic v2's lax `int`: integers, floats without a fractional part, integer strings and
 * booleans are accepted (as JSON-mode pydantic does); anything else fails with pydantic's codes.
 */
export function pyInt(bounds: { ge?: number; le?: number } = {}) {
  let int = z.int();
  if (bounds.ge !== undefined) int = int.min(bounds.ge);
  if (bounds.le !== undefined) int = int.max(bounds.le);
  return z.preprocess((v) => {
    if (typeof v === "number" && Number.isInteger(v)) return v;
    if (typeof v === "boolean") return v ? 1 : 0;
    if (typeof v === "string" && /^\s*[-+]?\d+(_\d+)*\s*$/.test(v)) return Number(v.replaceAll("_", ""));
    return v;
  }, int);
}

/**
 * Quotes values the way pydantic's literal errors do: `'a', 'b' or 'c'`. Past
 * {@link MAX_LISTED_VALUES} values, the first ones, a count of the others and the last are named
 * (`'a', 'b', …, 'j', … (12 more) or 'w'`): a message never grows with the schema, and never
 * more than once per error item.
 */
export function literalExpected(values: readonly string[]): string {
  const quote = (v: string) => `'${truncateText(v, MAX_ECHO_CHARS)}'`;
  const [only] = values;
  if (values.length === 1 && only !== undefined) return quote(only);
  const last = quote(values.at(-1) ?? "");
  if (values.length <= MAX_LISTED_VALUES + 1) {
    return `${values.slice(0, -1).map(quote).join(", ")} or ${last}`;
  }
  const hidden = values.length - MAX_LISTED_VALUES - 1;
  return `${values.slice(0, MAX_LISTED_VALUES).map(quote).join(", ")}, … (${hidden} more) or ${last}`;
}

// ---------------------------------------------------------------------------------------------
// zod issue → pydantic error
// ---------------------------------------------------------------------------------------------

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

function valueAt(root: unknown, path: Path): { found: boolean; value: unknown } {
  let cur: unknown = root;
  for (const key of path) {
    if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, key as string)) {
      cur = (cur as Record<PropertyKey, unknown>)[key];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: cur };
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (;;) {
    const def = s._zod.def as unknown as Record<string, unknown>;
    if (def.type === "optional" || def.type === "nullable" || def.type === "default") {
      s = def.innerType as z.core.$ZodType;
    } else if (def.type === "pipe") {
      s = def.out as z.core.$ZodType;
    } else {
      return s;
    }
  }
}

function schemaAt(root: z.core.$ZodType, path: Path): z.core.$ZodType | undefined {
  let s: z.core.$ZodType | undefined = unwrap(root);
  for (const key of path) {
    if (!s) return undefined;
    const def = s._zod.def as unknown as Record<string, unknown>;
    if (def.type === "object") s = (def.shape as Record<string, z.core.$ZodType>)[key as string];
    else if (def.type === "array") s = def.element as z.core.$ZodType;
    else return undefined;
    if (s) s = unwrap(s);
  }
  return s;
}

/** The field names of an object schema (none for anything else). */
function objectKeys(schema: z.core.$ZodType | undefined): string[] {
  if (!schema) return [];
  const def = schema._zod.def as unknown as Record<string, unknown>;
  return def.type === "object" ? Object.keys(def.shape as Record<string, unknown>) : [];
}

/** pydantic's name of a type, as used in union error locations (`literal['a','b']`, `list[str]`). */
function pydanticTypeTag(schema: z.core.$ZodType): string {
  const s = unwrap(schema);
  const def = s._zod.def as unknown as Record<string, unknown>;
  switch (def.type) {
    case "enum":
      return `literal[${
        Object.values(def.entries as Record<string, string>).map((v) => `'${v}'`).join(",")
      }]`;
    case "array":
      return `list[${pydanticTypeTag(def.element as z.core.$ZodType)}]`;
    case "string":
      return "str";
    case "number":
      return "int";
    case "boolean":
      return "bool";
    default:
      return String(def.type);
  }
}

function typeError(expected: string, input: unknown): Pick<PydanticError, "type" | "msg"> {
  switch (expected) {
    case "string":
      return { type: "string_type", msg: "Input should be a valid string" };
    case "int":
    case "number":
      if (typeof input === "string") {
        return {
          type: "int_parsing",
          msg: "Input should be a valid integer, unable to parse string as an integer",
        };
      }
      if (typeof input === "number" && Number.isFinite(input) && !Number.isInteger(input)) {
        return {
          type: "int_from_float",
          msg: "Input should be a valid integer, got a number with a fractional part",
        };
      }
      return { type: "int_type", msg: "Input should be a valid integer" };
    case "array":
      return { type: "list_type", msg: "Input should be a valid list" };
    case "boolean":
      return { type: "bool_type", msg: "Input should be a valid boolean" };
    case "record":
      return { type: "dict_type", msg: "Input should be a valid dictionary" };
    case "object":
      return {
        type: "model_attributes_type",
        msg: "Input should be a valid dictionary or object to extract fields from",
      };
    default:
      return { type: `${expected}_type`, msg: `Input should be a valid ${expected}` };
  }
}

/** pydantic's words for a value under its minimum (`too_small`) and over its maximum (`too_big`). */
const BOUND_WORDS = {
  too_small: {
    string: "string_too_short",
    list: "too_short",
    side: "at least",
    length: "min_length",
    inclusive: ["greater_than_equal", "greater than or equal to", "ge"],
    exclusive: ["greater_than", "greater than", "gt"],
  },
  too_big: {
    string: "string_too_long",
    list: "too_long",
    side: "at most",
    length: "max_length",
    inclusive: ["less_than_equal", "less than or equal to", "le"],
    exclusive: ["less_than", "less than", "lt"],
  },
} as const;

/** The pydantic item of a value outside a bound: a string's length, a list's length, or a number. */
function boundItem(
  issue: Extract<Issue, { code: "too_small" | "too_big" }>,
  loc: (string | number)[],
  input: unknown,
): PydanticError {
  const words = BOUND_WORDS[issue.code];
  const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  const s = bound === 1 ? "" : "s";
  if (issue.origin === "string") {
    return {
      type: words.string,
      loc,
      msg: `String should have ${words.side} ${bound} character${s}`,
      input,
      ctx: { [words.length]: bound },
    };
  }
  if (issue.origin === "array" && Array.isArray(input)) {
    return {
      type: words.list,
      loc,
      msg: `List should have ${words.side} ${bound} item${s} after validation, not ${input.length}`,
      input,
      ctx: { field_type: "List", [words.length]: bound, actual_length: input.length },
    };
  }
  const [type, relation, key] = issue.inclusive ? words.inclusive : words.exclusive;
  return { type, loc, msg: `Input should be ${relation} ${bound}`, input, ctx: { [key]: bound } };
}

function* convertIssue(
  issue: Issue,
  schema: z.core.$ZodType,
  data: unknown,
  base: Path,
): Generator<PydanticError> {
  const path = [...base, ...issue.path];
  const loc = ["body", ...path] as (string | number)[];
  const at = valueAt(data, path);
  const input = at.value;
  switch (issue.code) {
    case "invalid_type": {
      if (!at.found && path.length > 0) {
        const parent = valueAt(data, path.slice(0, -1));
        return yield { type: "missing", loc, msg: "Field required", input: parent.value };
      }
      return yield { ...typeError(issue.expected, input), loc, input: at.found ? input : null };
    }
    case "too_small":
    case "too_big":
      return yield boundItem(issue, loc, input);
    case "invalid_value": {
      const expected = literalExpected(issue.values.map(String));
      return yield* [{
        type: "literal_error",
        loc,
        msg: `Input should be ${expected}`,
        input,
        ctx: { expected },
      }];
    }
    case "unrecognized_keys": {
      const names = objectKeys(schemaAt(schema, path));
      for (const key of issue.keys) {
        const item: PydanticError = {
          type: "extra_forbidden",
          loc: [...loc, key],
          msg: "Extra inputs are not permitted",
          input: valueAt(data, [...path, key]).value,
        };
        // Ours, not pydantic's: the known field a misspelt one was probably meant to be.
        const near = closestName(key, names);
        if (near !== null) {
          item.msg = `Extra inputs are not permitted; did you mean '${near}'?`;
          item.ctx = { did_you_mean: near };
        }
        yield item;
      }
      return;
    }
    case "invalid_union": {
      const union = schemaAt(schema, issue.path);
      const options = union
        ? ((union._zod.def as unknown as { options?: z.core.$ZodType[] }).options ?? [])
        : [];
      for (const [n, branch] of issue.errors.entries()) {
        const tag = options[n] ? pydanticTypeTag(options[n]) : `branch${n}`;
        for (const sub of branch) {
          for (const err of convertIssue(sub, schema, data, path)) {
            // pydantic names the union member right after the field: loc = field, tag, rest.
            yield { ...err, loc: [...loc, tag, ...err.loc.slice(loc.length)] };
          }
        }
      }
      return;
    }
    case "custom": {
      const params = (issue.params ?? {}) as Partial<PydanticError>;
      return yield* [{
        type: params.type ?? "value_error",
        loc,
        msg: params.msg ?? issue.message,
        input,
        ...(params.ctx ? { ctx: params.ctx } : {}),
      }];
    }
    default:
      return yield* [{ type: "value_error", loc, msg: `Value error, ${issue.message}`, input }];
  }
}

/** How many items {@link convertIssue} makes of an issue, without making them. */
function countItems(issue: Issue): number {
  if (issue.code === "unrecognized_keys") return issue.keys.length;
  if (issue.code !== "invalid_union") return 1;
  let n = 0;
  for (const branch of issue.errors) for (const sub of branch) n += countItems(sub);
  return n;
}

/** Issue codes whose zod message {@link convertIssue} never reads. */
const MESSAGE_UNUSED = new Set<string>([
  "invalid_type",
  "too_small",
  "too_big",
  "invalid_value",
  "unrecognized_keys",
  "invalid_union",
]);

/**
 * zod builds a message for every issue (`Invalid option: expected one of "a"|"b"|…` per bad list
 * element, the whole list each time); the ones pydantic's wording replaces are left empty.
 */
const PARSE_OPTIONS = {
  error: (issue: { code?: string }) => MESSAGE_UNUSED.has(issue.code ?? "") ? "" : undefined,
};

/**
 * zod's `abortEarly` (read from the parse context by arrays and objects; not in its public
 * type): stop at the first failing element or property instead of recording them all.
 */
const FIRST_ERROR_OPTIONS = { ...PARSE_OPTIONS, abortEarly: true };

/** True when `data` holds more than `max` JSON values (counting nested ones); stops at `max`. */
function hasMoreValues(data: unknown, max: number): boolean {
  const stack: unknown[] = [data];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen > max) return true;
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      if (seen + stack.length + v.length > max) return true;
      for (const m of v) stack.push(m);
    } else {
      for (const key in v) if (Object.hasOwn(v, key)) stack.push((v as Record<string, unknown>)[key]);
      if (seen + stack.length > max) return true;
    }
  }
  return false;
}

/**
 * Validates already-decoded JSON against a schema, pydantic-style. The answer is bounded
 * whatever the input (see {@link boundedDetail}): the first {@link MAX_ERROR_ITEMS} errors, then
 * how many more; a body of more than {@link MAX_FULLY_VALIDATED_VALUES} values is checked only up
 * to its first error. Used for HTTP bodies and MCP arguments alike.
 *
 * @throws {RequestValidationError} with the failures, in pydantic's shape.
 */
export function validateJson<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const large = hasMoreValues(data, MAX_FULLY_VALIDATED_VALUES);
  const options = (large ? FIRST_ERROR_OPTIONS : PARSE_OPTIONS) as z.core.ParseContext<z.core.$ZodIssue>;
  const result = schema.safeParse(data, options);
  if (result.success) return result.data;
  if (exceedsJsonDepth(data)) {
    // Already-parsed input (MCP arguments) nested deeper than an HTTP body may be: refused as
    // `decodeBody` refuses such a body, and not echoed (serialising it is quadratic in the depth).
    throw new RequestValidationError([{
      type: "json_invalid",
      loc: ["body"],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Maximum recursion depth exceeded" },
    }]);
  }
  const issues = result.error.issues;
  let total = 0;
  for (const issue of issues) total += countItems(issue);
  const items = (function* () {
    for (const issue of issues) yield* convertIssue(issue, schema, data, []);
  })();
  throw new RequestValidationError(finishDetail(items, large ? null : total));
}

/** Bodies larger than this wait one turn of the event loop before they are decoded. */
const YIELD_BEFORE_DECODE_BYTES = 1024 * 1024;

/**
 * Reads, decodes and validates the JSON body of a request exactly as FastAPI would.
 *
 * @throws {RequestValidationError} (422), {@link BodyParseError} (400, also when the connection
 * fails while the body is read), TooLargeError (413),
 * {@link UnsupportedMediaTypeError} (415: a `Content-Type` that is present and not JSON).
 * @example
 * ```ts
 * app.post("/new/endpoint/", async (c) => {
 *   const { name } = await readJsonBody(c, NewEndpointRequest, 1 << 20);
 *   return c.json({ message: greet(name) });
 * });
 * ```
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limit: number,
): Promise<z.output<S>> {
  if (!isJsonContentType(c.req.header("content-type") ?? null)) throw new UnsupportedMediaTypeError();
  const bytes = await readBodyBytes(c.req.raw, limit);
  // Decoding a large body holds the event loop for a while (JSON.parse, then the error scan): let
  // what is waiting run first, so one large body never adds to another's stall.
  if (bytes.length > YIELD_BEFORE_DECODE_BYTES) await new Promise((resolve) => setTimeout(resolve, 0));
  const body = decodeBody(bytes);
  switch (body.kind) {
    case "absent":
      throw new RequestValidationError([{
        type: "missing",
        loc: ["body"],
        msg: "Field required",
        input: null,
      }]);
    case "undecodable":
      throw new BodyParseError();
    case "json_invalid":
      throw new RequestValidationError([{
        type: "json_invalid",
        loc: ["body", body.position],
        msg: "JSON decode error",
        input: {},
        ctx: { error: body.error },
      }]);
    case "json":
      // FastAPI treats a JSON `null` body like an absent one.
      if (body.value === null) {
        throw new RequestValidationError([{
          type: "missing",
          loc: ["body"],
          msg: "Field required",
          input: null,
        }]);
      }
      return validateJson(schema, body.value);
  }
}
