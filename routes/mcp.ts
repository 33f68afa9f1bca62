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
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { AppDeps } from "./deps.ts";
import { INTERNAL_ERROR_DETAIL, toErrorAnswer } from "./errors.ts";
import { JsonAnswer, type Tool } from "./tool.ts";
import { validateJson } from "./validation.ts";

/** Name and version announced in `initialize`. */
export const MCP_SERVER_INFO = { name: "po-tools", version: "1.0.0" };

/**
 * Publishes a zod schema's JSON Schema to MCP clients but lets every argument object through, so
 * that validation (and its error message) is ours rather than the SDK's.
 */
function advertisedSchema(schema: z.ZodType) {
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
  return {
    "~standard": {
      version: 1 as const,
      vendor: "po-tools",
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (o: unknown) => inline(standard.jsonSchema.input(o)),
        output: (o: unknown) => inline(standard.jsonSchema.output(o)),
      },
    },
  };
}

type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

async function callTool(tool: Tool, args: unknown, deps: AppDeps): Promise<ToolResult> {
  try {
    const input = tool.input ? validateJson(tool.input, args ?? {}) : undefined;
    const answer = await tool.handle(input as never, deps);
    const result = (answer instanceof JsonAnswer ? answer.value() : answer) as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(result, null, 2) }], structuredContent: result };
  } catch (error) {
    const answer = toErrorAnswer(error);
    if (!answer) deps.log(`unexpected error in MCP tool ${tool.name}: ${(error as Error)?.stack ?? error}`);
    const detail = answer ? answer.detail : INTERNAL_ERROR_DETAIL;
    return {
      content: [{ type: "text", text: typeof detail === "string" ? detail : JSON.stringify(detail) }],
      structuredContent: { detail },
      isError: true,
    };
  }
}

/** A fresh MCP server exposing every tool. */
export function buildMcpServer(tools: readonly Tool[], deps: AppDeps): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  for (const tool of tools) {
    const config = { title: tool.summary, description: tool.description };
    if (tool.input) {
      server.registerTool(
        tool.name,
        { ...config, inputSchema: advertisedSchema(tool.input) },
        (args: unknown) => callTool(tool, args, deps),
      );
    } else {
      server.registerTool(tool.name, config, () => callTool(tool, undefined, deps));
    }
  }
  return server;
}

/** The Streamable HTTP endpoint (stateless; GET/DELETE answer 405). */
export function mcpHttpHandler(
  tools: readonly Tool[],
  deps: AppDeps,
): (request: Request) => Promise<Response> {
  const handler = createMcpHandler(() => buildMcpServer(tools, deps), {
    responseMode: "auto",
    maxRequestBodySize: deps.config.maxBodyBytes,
    onerror: (error) => deps.log(`MCP: ${error.message}`),
  });
  return (request) => handler.fetch(request);
}
