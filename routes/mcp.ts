/**
 * The same tools over MCP: Streamable HTTP at `/mcp` (stateless, JSON responses) and stdio
 * (`main.ts mcp`). The tool list is built from the very `Tool` definitions the HTTP routes mount,
 * so names, descriptions and input schemas cannot drift apart.
 *
 * Arguments are validated by the tool's zod schema through the same pydantic-style converter as
 * HTTP bodies, so an invalid call returns `isError: true` with exactly the `detail` a 422 would
 * carry, and a domain failure carries the message the HTTP API gives.
 *
 * @module
 */
import { CATALOGUE_PATH_DESCRIPTION } from "./_catalogue_path.ts";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { type AppDeps, callAudit, inflightBudget } from "./deps.ts";
import { INTERNAL_ERROR_DETAIL, toErrorAnswer } from "./errors.ts";
import { BusyError, TooLargeError } from "../lib/errors.ts";
import { BodyParseError, readBodyBytes } from "./json_body.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "./timeout.ts";
import { answerTooLarge, GENERIC_HINT, JsonAnswer, jsonWithin } from "../lib/json_answer.ts";
import { TextAnswer } from "./text_answer.ts";
import { checkRole, maxAnswerBytes, type ServedTool, type ToolAnnotations, type ToolCall } from "./tool.ts";
import { type Identity, LOCAL_IDENTITY } from "../lib/auth/mod.ts";
import { validateJson } from "./validation.ts";
import { withoutMachineLimits } from "./openapi.ts";
import { type ToolExamples, toolExamples } from "./tool_examples.ts";
import { VERSION } from "../lib/version.ts";

/** Name and version announced in `initialize`. */
export const MCP_SERVER_INFO = { name: "po-tools", version: VERSION };

/** The server's `instructions`: the workflow, what the tools are for, and where catalogues may be. */
export function serverInstructions(examples: ToolExamples): string {
  const roots = examples.roots.length > 0
    ? `Catalogues (file_path, path) are given absolute or relative to a root; the roots are ${
      examples.roots.map((r) => JSON.stringify(r)).join(", ")
    } (any other path is refused). For example ${JSON.stringify(examples.catalogue)}.`
    : "This server serves no catalogues.";
  return "Tools to read, write, check and merge gettext PO catalogues (written back laid out as the " +
    "catalogues' GNU msgcat, 0.21 or 0.23, lays them out), a greeting, and TIPO GPSS patent search. " +
    "Workflow: list_catalogues (progress, which files are unfinished) -> list_entries (one catalogue's " +
    "untranslated or fuzzy entries, in pages) -> search_entries (how a term was translated elsewhere) -> " +
    'write_po (mode "update" by default here: a mistyped msgid is refused with the closest ones; ' +
    "expected_msgstr guards against concurrent edits) -> check_po (placeholders, reST markup, plural " +
    `forms; list_checks names every check). ${roots} An unknown field is refused with the name ` +
    "probably meant. A result larger than 4 KB is sent whole in structuredContent, with a summary as " +
    "text. Patent searches report upstream failures in-band (success: false, error). A tool whose _meta " +
    "has no role needs the reader role; a call the caller's role lacks is refused.";
}

/**
 * Publishes a zod schema's JSON Schema to MCP clients but lets every value through, so that
 * validation (and its error message) is ours rather than the SDK's, and a large answer is not
 * walked a second time. The published schema has no machine-limit bounds and, when given, the
 * example at its root (`examples`).
 */
function advertisedSchema(schema: z.ZodType, example?: Record<string, unknown>) {
  const standard = schema["~standard"] as unknown as {
    jsonSchema: {
      input: (o: unknown) => Record<string, unknown>;
      output: (o: unknown) => Record<string, unknown>;
    };
  };
  // A schema with a `.meta({id})` converts to {$ref, $defs}; MCP clients expect the object at the root.
  const inline = (json: Record<string, unknown>) => {
    const ref = json.$ref;
    const defs = json.$defs as Record<string, Record<string, unknown>> | undefined;
    if (typeof ref !== "string" || !defs || !ref.startsWith("#/$defs/")) return json;
    const name = ref.slice("#/$defs/".length);
    const { [name]: root, ...others } = defs;
    return { $schema: json.$schema, ...root, ...(Object.keys(others).length ? { $defs: others } : {}) };
  };
  const publish = (json: Record<string, unknown>) => {
    const clean = sharedEnums(compactSchema(withoutMachineLimits(inline(json))) as Record<string, unknown>);
    return example ? { ...clean, examples: [example] } : clean;
  };
  return {
    "~standard": {
      version: 1 as const,
      vendor: "po-tools",
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (o: unknown) => publish(standard.jsonSchema.input(o)),
        output: (o: unknown) => publish(standard.jsonSchema.output(o)),
      },
    },
  };
}

/**
 * A JSON Schema without what says nothing to a client, in its shortest equivalent form: no
 * `$schema` URI (MCP fixes the dialect), no `propertyNames: {type: "string"}` (every JSON key is a
 * string), no per-field `example` (the root's `examples` has one request), no `additionalProperties:
 * false` (an unknown field is refused all the same, with the name meant), no `maxLength` of 4096
 * or more (it still holds), no `type` beside an
 * enumeration of strings, and `anyOf: [X, {type: "null"}]` written as X with `"null"` among its types. tools/list is read by the model before its
 * first useful call: every byte of it costs every session.
 */
/** Most names an advertised enumeration lists (longer ones are named by a tool instead). */
const MAX_ADVERTISED_ENUM = 10;

function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // additionalProperties false: every tool refuses an unknown field anyway, naming the one meant.
    if (key === "$schema" || key === "example" || (key === "additionalProperties" && value === false)) {
      continue;
    }
    // A bound no honest request meets (a cursor of 8 KiB, a path of 4 KiB): it still holds.
    if (key === "maxLength" && typeof value === "number" && value >= 4096) continue;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') continue;
    // What file_path means is in the instructions, once.
    if (key === "description" && value === CATALOGUE_PATH_DESCRIPTION) continue;
    // A boolean left out is false; a list's item bound is a machine limit no honest request meets.
    if ((key === "default" && value === false) || key === "maxItems") continue;
    out[key] = compactSchema(value);
  }
  // An enumeration of strings says the type already.
  if (out.type === "string" && Array.isArray(out.enum) && out.enum.every((v) => typeof v === "string")) {
    delete out.type;
  }
  // A long list of names (check_po's checks) is a tool's answer (list_checks), not schema text: a
  // name outside it is still refused, with the names meant.
  if (Array.isArray(out.enum) && out.enum.length > MAX_ADVERTISED_ENUM) {
    delete out.enum;
    out.type = "string";
  }
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const [a, b] = anyOf as Record<string, unknown>[];
    if (
      JSON.stringify(b) === '{"type":"null"}' && a !== undefined && typeof a.type === "string" &&
      a.enum === undefined && a.const === undefined && a.anyOf === undefined && !("type" in out)
    ) {
      delete out.anyOf;
      return { ...out, ...a, type: [a.type, "null"] };
    }
  }
  return out;
}

/**
 * A schema whose long enumerations (8 values or more) that appear more than once are written once,
 * in `$defs`, and referred to (search_patents' 27 field names were listed twice).
 */
function sharedEnums(schema: Record<string, unknown>): Record<string, unknown> {
  const isLongEnum = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v) &&
    Array.isArray((v as Record<string, unknown>).enum) && ((v as { enum: unknown[] }).enum.length >= 8);
  const seen = new Map<string, number>();
  const count = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(count);
    if (v === null || typeof v !== "object") return;
    if (isLongEnum(v)) {
      const key = JSON.stringify(v);
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    Object.values(v).forEach(count);
  };
  count(schema);
  const names = new Map<string, string>();
  for (const [key, n] of seen) if (n > 1) names.set(key, `enum${names.size}`);
  if (names.size === 0) return schema;
  const replace = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(replace);
    if (v === null || typeof v !== "object") return v;
    if (isLongEnum(v)) {
      const name = names.get(JSON.stringify(v));
      if (name !== undefined) return { $ref: `#/$defs/${name}` };
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
  };
  const out = replace(schema) as Record<string, unknown>;
  const defs = { ...(out.$defs as Record<string, unknown> | undefined) };
  for (const [key, name] of names) defs[name] = JSON.parse(key);
  return { ...out, $defs: defs };
}

/**
 * A tool's annotations without the hints that say what MCP's defaults say (not read-only,
 * destructive, not idempotent, open world): the same meaning in fewer bytes. destructiveHint and
 * idempotentHint mean something only for a tool that is not read-only.
 */
function compactAnnotations(a: ToolAnnotations): Partial<ToolAnnotations> {
  const out: Partial<ToolAnnotations> = {};
  if (a.readOnlyHint) out.readOnlyHint = true;
  else {
    if (!a.destructiveHint) out.destructiveHint = false;
    if (a.idempotentHint) out.idempotentHint = true;
  }
  if (!a.openWorldHint) out.openWorldHint = false;
  return out;
}

type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const SMALLER_READ_HINT = "Read a part: read_po_context gives one entry and its neighbours.";

/**
 * Results up to this many bytes of JSON carry it twice, as MCP's spec advises (structured content,
 * and the same JSON as text for clients that show text only); larger ones carry it once, in
 * structured content, with a summary as text (see {@link resultSummary}). 4 KB holds a write's
 * answer, a check of a few entries, a page of 10–20 short entries.
 */
export const MIRRORED_RESULT_BYTES = 4096;

/** Longest string a summary repeats (longer ones are cut, with the length said). */
const SUMMARY_STRING_CHARS = 200;

/**
 * The text of a result too large to be mirrored: what it holds (its top-level fields, lists as
 * their lengths, long strings cut) and where the rest is, so a model that reads text only still
 * knows what came back and how to ask for a part.
 */
export function resultSummary(value: unknown, bytes: number): string {
  const brief = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return `[${v.length} items: in structuredContent]`;
    if (typeof v === "string") {
      // A message says what was done: kept whole unless it is very long.
      const max = key === "message" ? 5 * SUMMARY_STRING_CHARS : SUMMARY_STRING_CHARS;
      return v.length > max ? `${v.slice(0, max)}… (${v.length} characters: in structuredContent)` : v;
    }
    if (v !== null && typeof v === "object") {
      const json = JSON.stringify(v);
      return json.length <= 2 * SUMMARY_STRING_CHARS
        ? v
        : `{${Object.keys(v).length} fields: in structuredContent}`;
    }
    return v;
  };
  const top = value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, brief(v, k)]))
    : brief(value);
  return `Result of ${bytes} bytes of JSON, sent whole in structuredContent (not repeated here). ` +
    `Its top-level fields: ${JSON.stringify(top)}. For it as text, ask for a smaller page ` +
    "(limit, fields) or a part.";
}

/**
 * A tool's result as MCP carries it: the JSON as structured content, and as text too when it is at
 * most {@link MIRRORED_RESULT_BYTES} (else a summary). The whole is held to the answer limit,
 * checked before anything large is built.
 */
function toolResult(answer: unknown, call: ToolCall, hold: Hold | undefined): ToolResult {
  const max = call.maxAnswerBytes;
  const result = (text: () => string, length: number, value: () => unknown): ToolResult => {
    const structured = value() as Record<string, unknown>;
    return {
      content: [{
        type: "text",
        text: length <= MIRRORED_RESULT_BYTES ? text() : resultSummary(structured, length),
      }],
      structuredContent: structured,
    };
  };
  if (answer instanceof JsonAnswer) {
    if (answer.length > max) throw answerTooLarge(answer.length, max, SMALLER_READ_HINT);
    // Structured content and the SDK's serialisation of it: about twice the JSON.
    hold?.(2 * answer.length);
    return result(() => answer.text(), answer.length, () => answer.value());
  }
  if (answer instanceof TextAnswer) {
    // An export: its text is the content (what was asked for); its JSON form the structured content.
    if (3 * answer.length > max) throw answerTooLarge(3 * answer.length, max, GENERIC_HINT);
    hold?.(4 * answer.length);
    return { content: [{ type: "text", text: answer.text() }], structuredContent: answer.value() };
  }
  const text = jsonWithin(answer, max, GENERIC_HINT);
  hold?.(2 * text.length);
  return result(() => text, new TextEncoder().encode(text).length, () => answer);
}

/**
 * Takes a large result's size from the shared allowance (MAX_INFLIGHT_BYTES) until the HTTP answer
 * carrying it has been sent; throws BusyError when it does not fit.
 */
type Hold = (bytes: number) => void;

async function callTool(
  tool: ServedTool,
  args: unknown,
  deps: AppDeps,
  signal: AbortSignal,
  hold: Hold | undefined,
  identity: Identity,
): Promise<ToolResult> {
  try {
    checkRole(tool, identity);
    const schema = tool.mcpInput ?? tool.input;
    const input = schema ? validateJson(schema, args ?? {}) : undefined;
    const call: ToolCall = {
      signal,
      maxAnswerBytes: maxAnswerBytes(deps),
      via: "mcp",
      identity,
      audit: callAudit(deps),
    };
    return toolResult(await tool.run(input, call), call, hold);
  } catch (error) {
    const answer = toErrorAnswer(error);
    if (!answer) deps.log(`unexpected error in MCP tool ${tool.name}: ${(error as Error)?.stack ?? error}`);
    const detail = answer ? answer.detail : INTERNAL_ERROR_DETAIL;
    // The detail as text only: structured content must match the tool's output schema, and
    // clients such as the MCP Inspector check it even on isError results ({detail} failed there).
    return {
      content: [{ type: "text", text: typeof detail === "string" ? detail : JSON.stringify(detail) }],
      isError: true,
    };
  }
}

/**
 * A fresh MCP server exposing `tools` (bound to their dependencies by `serveTools`); `signal` is
 * the request's (HTTP) or never fires (stdio); `identity` is the caller's (over stdio, the local
 * user who started the process: admin).
 */
export function buildMcpServer(
  tools: readonly ServedTool[],
  deps: AppDeps,
  signal: AbortSignal = new AbortController().signal,
  hold?: Hold,
  identity: Identity = LOCAL_IDENTITY,
): McpServer {
  const examples = toolExamples(deps);
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: serverInstructions(examples),
  });
  // The SDK looks tools up by name in a plain object, so `tools/call` with the name "constructor"
  // found Object's own constructor ("Tool constructor disabled"). Without a prototype, only the
  // tools registered below are found; any other name is "not found". (tests/mcp_test.ts checks it.)
  const registry = (server as unknown as { _registeredTools?: object })._registeredTools;
  if (registry !== undefined) Object.setPrototypeOf(registry, null);
  for (const tool of tools) {
    // Failures are `isError` results carrying `{detail}`: the SDK (server and client) checks
    // structured content against the output schema only for results that are not errors.
    // No outputSchema: the output schemas were 26 of tools/list's 67 KB, read by the model before
    // its first call; they are in /openapi.json, and structured content is sent all the same.
    // The example is the input schema's (`examples`), not repeated in the description.
    // No title: clients show the name, and tools/list is read by the model before its first call
    // (the summaries are in /openapi.json).
    const config = {
      description: tool.description,
      ...(tool.annotations ? { annotations: compactAnnotations(tool.annotations) } : {}),
      // The role it needs when more than reader's (the instructions say so): tools/list is read by
      // the model before its first call, and most tools are read tools.
      ...(tool.role === "reader" ? {} : { _meta: { role: tool.role } }),
    };
    const input = tool.mcpInput ?? tool.input;
    if (input) {
      server.registerTool(
        tool.name,
        { ...config, inputSchema: advertisedSchema(input, tool.example?.(examples)) },
        (args: unknown) => callTool(tool, args, deps, signal, hold, identity),
      );
    } else {
      server.registerTool(tool.name, config, () => callTool(tool, undefined, deps, signal, hold, identity));
    }
  }
  return server;
}

/** A result at least this large (three times its JSON) counts against {@link MAX_LARGE_RESULTS}. */
const LARGE_RESULT_BYTES = 3 * 1024 * 1024;

/** Large MCP results being built or sent at once over HTTP; past it a call is busy (isError, 503's text). */
export const MAX_LARGE_RESULTS = 2;

const LARGE_RESULTS = new WeakMap<AppDeps, { count: number }>();

/** The caller of a server built for no known call: may use the reader tools only. */
const NO_CALLER: Identity = Object.freeze({ name: "unknown", role: "reader" });

/** The header that ties the SDK's copy of a request to its call (see {@link mcpHttpHandler}). */
const CALL_ID_HEADER = "x-po-tools-call-id";

/** A JSON-RPC error as an HTTP answer (no id: it concerns the whole request). */
function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

/** The first byte of `bytes` that is not JSON white space, or -1. */
function firstSignificantByte(bytes: Uint8Array): number {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  return -1;
}

/**
 * The Streamable HTTP endpoint (stateless; GET/DELETE answer 405).
 *
 * JSON-RPC batches are refused (400, -32600): MCP revisions since 2025-06-18 have none, and a batch
 * let one small request ask for as many large answers as it listed. The body is read here, against
 * the body limit, to see that; the SDK then gets the same bytes.
 */
export function mcpHttpHandler(
  tools: readonly ServedTool[],
  deps: AppDeps,
): (request: Request, signal: AbortSignal, identity: Identity) => Promise<Response> {
  // The SDK hands the server factory a copy of the request for 2025-era clients, so a call's
  // signal, allowance and caller are found by an id header this handler sets (and strips from clients).
  const calls = new Map<string, { signal: AbortSignal; hold: Hold; identity: Identity }>();
  const handler = createMcpHandler(
    (context: { requestInfo?: Request }) => {
      const id = context.requestInfo?.headers.get(CALL_ID_HEADER);
      const call = id ? calls.get(id) : undefined;
      // No call found (a header the handler did not set): the weakest role, never more.
      return buildMcpServer(tools, deps, call?.signal, call?.hold, call?.identity ?? NO_CALLER);
    },
    {
      responseMode: "auto",
      maxRequestBodySize: deps.config.maxBodyBytes,
      onerror: (error) => deps.log(`MCP: ${logLine(error)}`),
    },
  );
  return async function serveMcp(request, signal, identity) {
    if (request.method === "POST") {
      let bytes: Uint8Array;
      try {
        bytes = await readBodyBytes(request, deps.config.maxBodyBytes);
      } catch (error) {
        // The transport's own shape for a refused body (the SDK answered these the same way).
        if (error instanceof TooLargeError) return jsonRpcError(413, -32000, error.message);
        if (error instanceof BodyParseError) return jsonRpcError(400, -32700, "Parse error");
        throw error;
      }
      if (firstSignificantByte(bytes) === 0x5b) {
        return jsonRpcError(
          400,
          -32600,
          "Invalid Request: JSON-RPC batches are not supported; send one message per request",
        );
      }
      request = new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: bytes as Uint8Array<ArrayBuffer>,
      });
    } else {
      request = new Request(request.url, { method: request.method, headers: request.headers });
    }
    const id = crypto.randomUUID();
    request.headers.set(CALL_ID_HEADER, id);
    const held: (() => void)[] = [];
    const hold: Hold = (bytes) => {
      const give = inflightBudget(deps).take(bytes, "answers");
      held.push(give);
      if (bytes < LARGE_RESULT_BYTES) return;
      // Building and serialising a result of megabytes holds the event loop for a while each time:
      // a few at once, so a flood of them cannot keep small requests waiting.
      const large = LARGE_RESULTS.get(deps) ?? { count: 0 };
      LARGE_RESULTS.set(deps, large);
      if (large.count >= MAX_LARGE_RESULTS) {
        throw new BusyError(
          `The server is busy sending ${large.count} other large MCP results; try again in a few seconds`,
        );
      }
      large.count++;
      let counted = true;
      held.push(() => {
        if (counted) large.count--;
        counted = false;
      });
    };
    calls.set(id, { signal, hold, identity });
    let response: Response;
    try {
      response = await handler.fetch(request);
    } finally {
      calls.delete(id);
    }
    // Always wrapped: with a streamed (SSE) answer the tool runs after this returns.
    return request.method === "POST" ? releasedWhenSent(response, held, deps) : response;
  };
}

/**
 * The answer, giving back what its results held once its body has been sent or abandoned (or, for
 * a reader that never takes it, once REQUEST_TIMEOUT_S has passed).
 */
function releasedWhenSent(response: Response, held: (() => void)[], deps: AppDeps): Response {
  const release = () => {
    clearTimeout(timer);
    for (const give of held.splice(0)) give();
  };
  const timer = setTimeout(release, deps.config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  if (response.body === null) {
    release();
    return response;
  }
  // Pulled only as the client takes it (no read-ahead), so "sent" means taken, not buffered here.
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        release();
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** An error as one short log line (the SDK's validation messages span many lines and echo input). */
export function logLine(error: unknown): string {
  const text = String((error as Error)?.message ?? error);
  const [first = ""] = text.split("\n", 1);
  return (first.length > 300 ? `${first.slice(0, 300)}…` : first).replace(
    /[^\x20-\x7e\u00a0-\u2027\u202a-\uffff]/g,
    "?",
  );
}
