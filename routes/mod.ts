/**
 * `createApp(deps)`: the whole HTTP service as a pure factory (no env, no sockets), used by
 * `main.ts` and by every test.
 *
 * Request lifecycle: request log → bearer-token check → the matching tool route (validate, call
 * `lib/`, shape JSON) → `onError` (the one error table in `errors.ts`) or `notFound` (FastAPI's
 * 405 / 307 trailing-slash redirect / 404).
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppDeps } from "./deps.ts";
import { mountDocs } from "./docs.ts";
import { handleError } from "./errors.ts";
import { greetingTools } from "./greeting.ts";
import { mcpHttpHandler } from "./mcp.ts";
import { patentTools } from "./patents.ts";
import { poTools } from "./po.ts";
import { mountTools, type Tool } from "./tool.ts";

export type { AppDeps } from "./deps.ts";

/** Every tool the service offers, over HTTP and MCP. */
export function allTools(): Tool[] {
  return [...poTools, ...greetingTools, ...patentTools] as Tool[];
}

/** Paths reachable without the bearer token (the API description only). */
const PUBLIC_PATHS = /^\/(docs(\/.*)?|openapi\.json)$/;

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * The path of an absolute URL as the request sent it (percent-encoded, without the query): what
 * `new URL(url).pathname` gives for a request's URL, without parsing one per request.
 */
function rawPath(url: string): string {
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return "/";
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 63 || c === 35) break; // '?' '#'
    end++;
  }
  return url.slice(start, end);
}

function requestLog(log: AppDeps["log"]): MiddlewareHandler {
  return async function logRequest(c, next) {
    const started = performance.now();
    await next();
    const ms = (performance.now() - started).toFixed(1);
    // Method, path and status only: never bodies, query strings, tokens or USER_CODE.
    log(`${c.req.method} ${rawPath(c.req.url)} ${c.res.status} ${ms}ms`);
  };
}

function bearerAuth(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async function checkBearer(c, next) {
    if (PUBLIC_PATHS.test(new URL(c.req.url).pathname)) return await next();
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    // Comparing fixed-length digests keeps the comparison constant-time whatever the input length.
    if (!match || !timingSafeEqual(digest(match[1].trim()), expected)) {
      return c.json({ detail: "Not authenticated" }, 401, { "WWW-Authenticate": "Bearer" });
    }
    await next();
  };
}

/** FastAPI's answer when no route matched: 405 for a known path, 307 for the other slash form, else 404. */
function notFound(app: OpenAPIHono) {
  return function notFoundHandler(c: Context): Response {
    const url = new URL(c.req.url);
    const routes = app.routes.filter((r) => r.method !== "ALL");
    const methods = (path: string) => {
      const found = new Set(routes.filter((r) => r.path === path).map((r) => r.method));
      if (found.has("GET")) found.add("HEAD");
      return [...found];
    };
    const allowed = methods(url.pathname);
    if (allowed.length > 0) {
      return c.json({ detail: "Method Not Allowed" }, 405, { Allow: allowed.join(", ") });
    }
    const other = url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : `${url.pathname}/`;
    if (other !== "" && methods(other).length > 0) {
      url.pathname = other;
      return c.body(null, 307, { Location: url.toString() });
    }
    return c.json({ detail: "Not Found" }, 404);
  };
}

/**
 * Builds the HTTP app.
 *
 * @example
 * ```ts
 * const app = createApp({ config: { apiToken: undefined, maxBodyBytes: 1 << 20 }, log: () => {} });
 * const res = await app.request("/new/endpoint/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ name: "Ada" }),
 * });
 * await res.json(); // { message: "Hello, Ada!" }
 * ```
 */
export function createApp(deps: AppDeps, tools: readonly Tool[] = allTools()): OpenAPIHono {
  const app = new OpenAPIHono();
  app.use("*", requestLog(deps.log));
  if (deps.config.apiToken !== undefined) app.use("*", bearerAuth(deps.config.apiToken));

  mountTools(app, tools, deps);
  const mcp = mcpHttpHandler(tools, deps);
  app.on(["GET", "POST", "DELETE"], "/mcp", (c) => mcp(c.req.raw));

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
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "PO catalogue, greeting and patent search tools",
      version: "1.0.0",
      description:
        "Read, write and search gettext PO catalogues (msgcat layout), a greeting template tool, " +
        "and TIPO GPSS patent search. The same tools are served over MCP at /mcp.",
    },
  });
  mountDocs(app);

  app.notFound(notFound(app));
  app.onError((error, c) => handleError(error, c, deps.log));
  return app;
}
