/**
 * `/openapi.json`: the API description, built from the tools' zod schemas, with every status an
 * operation can answer and its body, the bearer scheme when a token is configured (so that
 * Swagger UI at `/docs` offers "Authorize"), and the service's version.
 *
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { VERSION } from "../lib/version.ts";
import { RETRY_AFTER_S } from "./errors.ts";
import type { ToolInfo } from "./tool.ts";

const JSON_ERROR = { $ref: "#/components/schemas/HTTPError" };
const VALIDATION_ERROR = { $ref: "#/components/schemas/HTTPValidationError" };

function answer(description: string, schema: object = JSON_ERROR, headers?: object) {
  return { description, content: { "application/json": { schema } }, ...(headers ? { headers } : {}) };
}

/**
 * The error answers of one tool's operation (200 is the caller's), each with its body schema:
 * FastAPI's `{"detail": "message"}`, or pydantic's items for a 422 on validation.
 */
export function toolOperationResponses(tool: ToolInfo, tokenConfigured: boolean): Record<string, object> {
  const catalogue = (tool.errors?.includes(404) ?? false) && tool.path.startsWith("/po/");
  const outside = tool.errors?.includes(403) ?? false;
  const responses: Record<string, object> = {};
  responses[400] = answer(
    tool.input
      ? "Bad Request: the body is not UTF-8 text, or the Host header is malformed"
      : "Bad Request: the Host header is malformed",
  );
  if (tokenConfigured) {
    responses[401] = {
      ...answer('Not authenticated: the "Authorization: Bearer <API_TOKEN>" header is missing or wrong'),
      headers: { "WWW-Authenticate": { schema: { type: "string" }, description: "Bearer" } },
    };
  }
  responses[403] = answer(
    `Forbidden: a Host or Origin not allowed (ALLOWED_HOSTS, ALLOWED_ORIGINS)${
      tokenConfigured ? `, a caller whose role is weaker than ${tool.role}` : ""
    }${outside ? ", or a path outside the catalogue roots (PO_ROOTS)" : ""}`,
  );
  if (catalogue) responses[404] = answer("File not found (or, for a write, its directory)");
  if (!catalogue && tool.errors?.includes(404)) {
    responses[404] = answer("Not found: the detail says what was looked up");
  }
  if (tool.errors?.includes(409)) {
    responses[409] = answer(
      "Conflict: nothing was written; detail is the message, or {message, revision, …} with what to retry with",
      { $ref: "#/components/schemas/HTTPConflict" },
    );
  }
  if (tool.input) {
    responses[413] = answer(
      `Payload Too Large: the body is over MAX_BODY_BYTES${
        catalogue ? ", or the catalogue over the file size limit" : ""
      }`,
    );
    responses[415] = answer("Unsupported Media Type: a Content-Type that is not JSON");
    responses[422] = answer(
      "Validation Error: pydantic-style items for an invalid request; " +
        `{"detail": "message"} for an answer over MAX_RESPONSE_BYTES${
          catalogue ? " or an invalid catalogue" : ""
        }`,
      { anyOf: [VALIDATION_ERROR, JSON_ERROR] },
    );
  }
  if (tool.errors?.includes(429)) {
    responses[429] = answer(
      "Too Many Requests: the GPSS download quota of this window would be exceeded; nothing was sent",
      JSON_ERROR,
      {
        "Retry-After": { schema: { type: "integer" }, description: "Seconds until the quota window resets" },
      },
    );
  }
  responses[500] = answer('A bug: the fixed message "Internal Server Error" (details are logged)');
  responses[503] = answer(
    "Busy, or past REQUEST_TIMEOUT_S: try again later",
    JSON_ERROR,
    { "Retry-After": { schema: { type: "integer" }, description: `Seconds to wait (${RETRY_AFTER_S})` } },
  );
  return responses;
}

/** The largest integer zod writes as a bound of `z.int()`: a machine limit, not a rule of ours. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A JSON Schema without the safe-integer bounds zod adds to every `z.int()` (`minimum:
 * -9007199254740991`, `maximum: 9007199254740991`): they say nothing to a reader, and agents copy
 * them. Returns a cleaned copy; bounds that are ours are kept.
 */
export function withoutMachineLimits<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutMachineLimits) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const limit = (key === "minimum" || key === "exclusiveMinimum") && value === -SAFE ||
      (key === "maximum" || key === "exclusiveMaximum") && value === SAFE;
    if (!limit) out[key] = withoutMachineLimits(value);
  }
  return out as T;
}

/** `GET /health`'s answer. */
export const HEALTH_ANSWER = { status: "ok", version: VERSION } as const;

/**
 * Adds `GET /openapi.json` (and the components it refers to) to an app whose routes are mounted.
 */
export function mountOpenApi(app: OpenAPIHono, tokenConfigured: boolean): void {
  app.openAPIRegistry.registerComponent("schemas", "HTTPValidationError", {
    type: "object",
    properties: {
      detail: {
        type: "array",
        items: {
          type: "object",
          required: ["type", "loc", "msg"],
          properties: {
            type: { type: "string" },
            loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
            msg: { type: "string" },
            input: {},
            ctx: { type: "object" },
          },
        },
      },
    },
  });
  app.openAPIRegistry.registerComponent("schemas", "HTTPConflict", {
    type: "object",
    required: ["detail"],
    properties: {
      detail: {
        anyOf: [
          { type: "string" },
          {
            type: "object",
            required: ["message"],
            properties: { message: { type: "string" }, revision: { type: ["string", "null"] } },
            additionalProperties: true,
          },
        ],
      },
    },
  });
  app.openAPIRegistry.registerComponent("schemas", "HTTPError", {
    type: "object",
    required: ["detail"],
    properties: { detail: { type: "string" } },
  });
  if (tokenConfigured) {
    app.openAPIRegistry.registerComponent("securitySchemes", "HTTPBearer", {
      type: "http",
      scheme: "bearer",
      description: "The API_TOKEN the service was started with.",
    });
  }
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/health",
    operationId: "health",
    summary: "Liveness probe",
    description: "Answers 200 while the service runs; public (no token), no catalogue data.",
    responses: {
      200: {
        description: "The service is up",
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["status", "version"],
              properties: { status: { type: "string", enum: ["ok"] }, version: { type: "string" } },
            },
            example: HEALTH_ANSWER,
          },
        },
      },
    },
  });
  let document: unknown;
  app.get("/openapi.json", (c) => {
    document ??= withoutMachineLimits(app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "PO catalogue, greeting and patent search tools",
        version: VERSION,
        description:
          "Read, write and search gettext PO catalogues (msgcat layout), a greeting template tool, " +
          "and TIPO GPSS patent search. The same tools are served over MCP at /mcp." +
          (tokenConfigured ? " Every operation but /health needs the bearer token: use Authorize." : ""),
      },
    }));
    return c.json(document);
  });
}
