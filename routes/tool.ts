/**
 * A tool is one operation offered over HTTP (`POST path`) and over MCP (tool `name`), defined once:
 * its zod input schema validates HTTP bodies and MCP arguments and documents both, and `handle`
 * calls the domain (`lib/`) and shapes the JSON answer.
 *
 * @module
 */
import type { z } from "zod";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ByteBudget } from "../lib/byte_budget.ts";
import { AnswerTooLargeError, TimeoutError } from "../lib/errors.ts";
import type { AppDeps } from "./deps.ts";
import { toolOperationResponses } from "./openapi.ts";
import { PLACEHOLDER_EXAMPLES, type ToolExamples, toolExamples } from "./tool_examples.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, requestSignal } from "./timeout.ts";
import { readJsonBody } from "./validation.ts";

/** One tool. `input` is null for tools that take no body (FastAPI ignores any body sent). */
export interface Tool<I extends z.ZodType | null = z.ZodType | null> {
  /** MCP tool name and OpenAPI operationId. */
  name: string;
  /** HTTP path (always POST). */
  path: string;
  summary: string;
  /** What it does, what each field means, an example: written for people and for agents. */
  description: string;
  input: I;
  output: z.ZodType;
  /**
   * What calling it does, for MCP clients (and people): see {@link ToolAnnotations}. Every tool
   * the service offers states them; absent, MCP's defaults apply (may write, destroy, reach out).
   */
  annotations?: ToolAnnotations;
  /** A request body that works on this service (built from the configured roots). */
  example?: (examples: ToolExamples) => Record<string, unknown>;
  /** Statuses this tool answers besides those every tool may (e.g. 404 for a missing catalogue). */
  errors?: readonly ToolErrorStatus[];
  handle(
    input: I extends z.ZodType ? z.output<I> : undefined,
    deps: AppDeps,
    call: ToolCall,
  ): Promise<unknown> | unknown;
}

/** MCP's tool annotations (hints a client may show or act on; they are not enforced). */
export interface ToolAnnotations {
  /** True when the tool changes nothing. */
  readOnlyHint: boolean;
  /** True when an update may overwrite or remove what was there (meaningful when not read-only). */
  destructiveHint: boolean;
  /** True when calling it twice with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** True when it reaches outside this service (the GPSS upstream). */
  openWorldHint: boolean;
}

/** Statuses a tool may declare in {@link Tool.errors}. */
export type ToolErrorStatus = 403 | 404;

/** A tool's description, ending with a request example that works on this service. */
export function describeTool(tool: Tool, examples: ToolExamples): string {
  if (!tool.example) return tool.description;
  return `${tool.description} Example: ${JSON.stringify(tool.example(examples))}.`;
}

/** What a tool knows of the call it serves. */
export interface ToolCall {
  /** Fires when the request's time is up: work not yet done should be abandoned. */
  signal: AbortSignal;
  /** Largest answer the caller may get, in bytes of JSON. */
  maxAnswerBytes: number;
}

/** Default of {@link ToolCall.maxAnswerBytes} (MAX_RESPONSE_BYTES). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Default of the shared allowance for large answers and loads (MAX_INFLIGHT_BYTES). */
export const DEFAULT_MAX_INFLIGHT_BYTES = 128 * 1024 * 1024;

/** The message of an answer over the limit: what it would have been, and how to ask for less. */
export function answerTooLarge(bytes: number | null, limit: number, hint: string): AnswerTooLargeError {
  const size = bytes === null ? "more than" : `${bytes} bytes,`;
  return new AnswerTooLargeError(
    `The answer would be ${size} over the limit of ${limit} bytes (MAX_RESPONSE_BYTES). ${hint}`,
  );
}

/**
 * A JSON answer's text, refused with {@link AnswerTooLargeError} when it is over `limit` bytes
 * (a string of n UTF-16 units is at least n bytes of UTF-8, so the check needs no encoding).
 */
export function jsonWithin(value: unknown, limit: number, hint: string): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // V8's "Invalid string length": past half a gigabyte, far over any limit.
    if (error instanceof RangeError) throw answerTooLarge(null, limit, hint);
    throw error;
  }
  if (text.length > limit) throw answerTooLarge(text.length, limit, hint);
  return text;
}

/** The shared allowance of an app's deps, made once per deps object. */
const BUDGETS = new WeakMap<AppDeps, ByteBudget>();

/** The allowance that large loads and large answers of these deps share. */
export function inflightBudget(deps: AppDeps): ByteBudget {
  let budget = deps.budget ?? BUDGETS.get(deps);
  if (budget === undefined) {
    budget = new ByteBudget(deps.config.maxInflightBytes ?? DEFAULT_MAX_INFLIGHT_BYTES);
    BUDGETS.set(deps, budget);
  }
  return budget;
}

/** A hint for answers of tools that have no smaller form to offer. */
const GENERIC_HINT = "Ask for fewer results.";

/**
 * A tool's answer already serialised, for large answers that many requests share (a catalogue's
 * `/po/read`): HTTP streams `chunks` (views of kept bytes, in order) as they are; MCP, which needs
 * the object, calls `value()`.
 */
export class JsonAnswer {
  /** Bytes in all. */
  readonly length: number;
  constructor(readonly chunks: readonly Uint8Array[], readonly value: () => unknown) {
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    this.length = length;
  }
}

/**
 * A kept answer as a body: views of the kept bytes (a Uint8Array body would be copied whole per
 * response), at most 64 KiB each, since megabyte-sized buffers in the server's write path are what
 * fragments the allocator and keeps resident memory high under load. A large answer holds its
 * size of the shared allowance until it is sent, so slow readers of many large answers cannot hold
 * more than that between them; and a reader too slow to take it within the request's time limit
 * is cut off.
 */
function streamAnswer(answer: JsonAnswer, deps: AppDeps, limit: number): ReadableStream<Uint8Array> {
  if (answer.length > limit) {
    throw answerTooLarge(
      answer.length,
      limit,
      "Read a part: /po/read_context gives one entry and its neighbours.",
    );
  }
  const release = inflightBudget(deps).take(answer.length, "answers");
  const chunks = answer.chunks;
  let k = 0;
  let at = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => {
    clearTimeout(timer);
    release();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (answer.length < 1024 * 1024) return;
      const ms = deps.config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      timer = setTimeout(() => {
        done();
        // The runtime logs why a body failed: one line, no stack (this is not a bug).
        const reason = new TimeoutError(`an answer was not taken within ${ms / 1000} s (REQUEST_TIMEOUT_S)`);
        reason.stack = `${reason.name}: ${reason.message}`;
        try {
          controller.error(reason);
        } catch {
          // already closed
        }
      }, ms);
    },
    pull(controller) {
      while (k < chunks.length && at >= chunks[k].length) {
        k++;
        at = 0;
      }
      if (k >= chunks.length) {
        done();
        return controller.close();
      }
      controller.enqueue(chunks[k].subarray(at, at + RESPONSE_CHUNK_BYTES));
      at += RESPONSE_CHUNK_BYTES;
    },
    cancel: done,
  });
}

const RESPONSE_CHUNK_BYTES = 64 * 1024;

/** Declares a tool (an identity function that keeps the input type tied to `handle`). */
export function defineTool<I extends z.ZodType | null>(tool: Tool<I>): Tool<I> {
  return tool;
}

/**
 * Mounts tools on the app: one POST route each, documented in `/openapi.json` from the same schemas.
 */
export function mountTools(app: OpenAPIHono, tools: readonly Tool[], deps: AppDeps): void {
  // `/openapi.json` is public: with a token, its examples name neither the roots nor catalogue
  // data (an authorised MCP client gets the real ones).
  const examples = deps.config.apiToken === undefined ? toolExamples(deps) : PLACEHOLDER_EXAMPLES;
  for (const tool of tools) {
    const example = tool.example?.(examples);
    app.openAPIRegistry.registerPath(createRoute({
      method: "post",
      path: tool.path,
      operationId: tool.name,
      summary: tool.summary,
      description: describeTool(tool, examples),
      ...(tool.input
        ? {
          request: {
            body: {
              required: true,
              content: { "application/json": { schema: tool.input, ...(example ? { example } : {}) } },
            },
          },
        }
        : {}),
      ...(deps.config.apiToken !== undefined ? { security: [{ HTTPBearer: [] }] } : {}),
      responses: {
        200: { description: "Successful Response", content: { "application/json": { schema: tool.output } } },
        ...toolOperationResponses(tool, deps.config.apiToken !== undefined),
      },
    }));
    app.post(tool.path, async function toolHandler(c) {
      const input = tool.input ? await readJsonBody(c, tool.input, deps.config.maxBodyBytes) : undefined;
      const signal = requestSignal(c);
      const maxAnswerBytes = deps.config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      const answer = await tool.handle(input as never, deps, { signal, maxAnswerBytes });
      if (answer instanceof JsonAnswer) {
        return c.body(streamAnswer(answer, deps, maxAnswerBytes), 200, {
          "Content-Type": "application/json",
          "Content-Length": String(answer.length),
        });
      }
      return c.body(jsonWithin(answer, maxAnswerBytes, GENERIC_HINT), 200, {
        "Content-Type": "application/json",
      });
    });
  }
}
