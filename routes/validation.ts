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
import { decodeBody, exceedsJsonDepth, readBodyBytes } from "./json_body.ts";

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

/** A body that is not valid UTF-8: FastAPI answers 400 "There was an error parsing the body". */
export class BodyParseError extends Error {
  constructor() {
    super("There was an error parsing the body");
    this.name = "BodyParseError";
  }
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

/** Quotes values the way pydantic's literal errors do: `'a', 'b' or 'c'`. */
export function literalExpected(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
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

function convertIssue(issue: Issue, schema: z.core.$ZodType, data: unknown, base: Path): PydanticError[] {
  const path = [...base, ...issue.path];
  const loc = ["body", ...path] as (string | number)[];
  const at = valueAt(data, path);
  const input = at.value;
  switch (issue.code) {
    case "invalid_type": {
      if (!at.found && path.length > 0) {
        const parent = valueAt(data, path.slice(0, -1));
        return [{ type: "missing", loc, msg: "Field required", input: parent.value }];
      }
      return [{ ...typeError(issue.expected, input), loc, input: at.found ? input : null }];
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") {
        const s = min === 1 ? "" : "s";
        return [{
          type: "string_too_short",
          loc,
          msg: `String should have at least ${min} character${s}`,
          input,
          ctx: { min_length: min },
        }];
      }
      if (issue.origin === "array") {
        const s = min === 1 ? "" : "s";
        return [{
          type: "too_short",
          loc,
          msg: `List should have at least ${min} item${s} after validation, not ${
            (input as unknown[]).length
          }`,
          input,
          ctx: { field_type: "List", min_length: min, actual_length: (input as unknown[]).length },
        }];
      }
      return issue.inclusive
        ? [{
          type: "greater_than_equal",
          loc,
          msg: `Input should be greater than or equal to ${min}`,
          input,
          ctx: { ge: min },
        }]
        : [{
          type: "greater_than",
          loc,
          msg: `Input should be greater than ${min}`,
          input,
          ctx: { gt: min },
        }];
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") {
        const s = max === 1 ? "" : "s";
        return [{
          type: "string_too_long",
          loc,
          msg: `String should have at most ${max} character${s}`,
          input,
          ctx: { max_length: max },
        }];
      }
      return issue.inclusive
        ? [{
          type: "less_than_equal",
          loc,
          msg: `Input should be less than or equal to ${max}`,
          input,
          ctx: { le: max },
        }]
        : [{ type: "less_than", loc, msg: `Input should be less than ${max}`, input, ctx: { lt: max } }];
    }
    case "invalid_value": {
      const expected = literalExpected(issue.values.map(String));
      return [{ type: "literal_error", loc, msg: `Input should be ${expected}`, input, ctx: { expected } }];
    }
    case "unrecognized_keys":
      return issue.keys.map((key) => ({
        type: "extra_forbidden",
        loc: [...loc, key],
        msg: "Extra inputs are not permitted",
        input: valueAt(data, [...path, key]).value,
      }));
    case "invalid_union": {
      const union = schemaAt(schema, issue.path);
      const options = union
        ? ((union._zod.def as unknown as { options?: z.core.$ZodType[] }).options ?? [])
        : [];
      const out: PydanticError[] = [];
      issue.errors.forEach((branch, n) => {
        const tag = options[n] ? pydanticTypeTag(options[n]) : `branch${n}`;
        for (const sub of branch) {
          for (const err of convertIssue(sub, schema, data, path)) {
            // pydantic names the union member right after the field: loc = field, tag, rest.
            out.push({ ...err, loc: [...loc, tag, ...err.loc.slice(loc.length)] });
          }
        }
      });
      return out;
    }
    case "custom": {
      const params = (issue.params ?? {}) as Partial<PydanticError>;
      return [{
        type: params.type ?? "value_error",
        loc,
        msg: params.msg ?? issue.message,
        input,
        ...(params.ctx ? { ctx: params.ctx } : {}),
      }];
    }
    default:
      return [{ type: "value_error", loc, msg: `Value error, ${issue.message}`, input }];
  }
}

/**
 * Validates already-decoded JSON against a schema, pydantic-style.
 *
 * @throws {RequestValidationError} with every failure, in pydantic's shape.
 */
export function validateJson<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
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
  const detail = result.error.issues.flatMap((issue) => convertIssue(issue, schema, data, []));
  // pydantic's key order: type, loc, msg, input, ctx.
  throw new RequestValidationError(detail.map(({ type, loc, msg, input, ctx }) => ({
    type,
    loc,
    msg,
    input,
    ...(ctx ? { ctx } : {}),
  })));
}

/**
 * Reads, decodes and validates the JSON body of a request exactly as FastAPI would.
 *
 * @throws {RequestValidationError} (422), {@link BodyParseError} (400), TooLargeError (413).
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
  const bytes = await readBodyBytes(c.req.raw, limit);
  const body = decodeBody(bytes, c.req.header("content-type") ?? null);
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
    case "text":
      return validateJson(schema, body.value);
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
