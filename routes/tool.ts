/**
 * A tool is one operation offered over HTTP (`POST path`) and over MCP (tool `name`), defined once:
 * its zod input schema validates HTTP bodies and MCP arguments and documents both, and `handle`
 * calls the domain (`lib/`) and shapes the JSON answer.
 *
 * @module
 */
import type { z } from "zod";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppDeps } from "./deps.ts";
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
  handle(input: I extends z.ZodType ? z.output<I> : undefined, deps: AppDeps): Promise<unknown> | unknown;
}

/**
 * A tool's answer already serialised, for large answers that many requests share (a catalogue's
 * `/po/read`): HTTP streams `chunks` (views of kept bytes, in order) as they are; MCP, which needs
 * the object, calls `value()`.
 */
export class JsonAnswer {
  constructor(readonly chunks: readonly Uint8Array[], readonly value: () => unknown) {}
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
  for (const tool of tools) {
    app.openAPIRegistry.registerPath(createRoute({
      method: "post",
      path: tool.path,
      operationId: tool.name,
      summary: tool.summary,
      description: tool.description,
      ...(tool.input
        ? { request: { body: { required: true, content: { "application/json": { schema: tool.input } } } } }
        : {}),
      responses: {
        200: { description: "Successful Response", content: { "application/json": { schema: tool.output } } },
        422: {
          description: "Validation Error",
          content: { "application/json": { schema: { $ref: "#/components/schemas/HTTPValidationError" } } },
        },
      },
    }));
    app.post(tool.path, async function toolHandler(c) {
      const input = tool.input ? await readJsonBody(c, tool.input, deps.config.maxBodyBytes) : undefined;
      const answer = await tool.handle(input as never, deps);
      if (answer instanceof JsonAnswer) {
        // Streamed as views of the kept bytes (a Uint8Array body would be copied whole per
        // response), at most 64 KiB each: megabyte-sized buffers in the server's write path are
        // what fragments the allocator and keeps resident memory high under load.
        const chunks = answer.chunks;
        let length = 0;
        for (const chunk of chunks) length += chunk.length;
        let k = 0;
        let at = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            while (k < chunks.length && at >= chunks[k].length) {
              k++;
              at = 0;
            }
            if (k >= chunks.length) return controller.close();
            controller.enqueue(chunks[k].subarray(at, at + RESPONSE_CHUNK_BYTES));
            at += RESPONSE_CHUNK_BYTES;
          },
        });
        return c.body(body, 200, {
          "Content-Type": "application/json",
          "Content-Length": String(length),
        });
      }
      return c.json(answer);
    });
  }
}
