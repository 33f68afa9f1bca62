/**
 * `createApp(deps)`: the whole HTTP service as a pure factory (no env, no sockets), used by
 * `main.ts` and by every test.
 *
 * Request lifecycle: request log → security headers → guard (bearer token, Host, Origin: all
 * decided on the path the router dispatches on) → time limit → the matching tool route (validate,
 * call `lib/`, shape JSON) → `onError` (the one error table in `errors.ts`) or `notFound`
 * (FastAPI's 405 / 307 trailing-slash redirect / 404).
 *
 * @module
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { identityOf, LOOPBACK_HOST_NAMES, requestGuard } from "./guard.ts";
import { type AppDeps, identities, tokenConfigured } from "./deps.ts";
import { mountDocs } from "./docs.ts";
import { handleError, internalErrorResponse } from "./errors.ts";
import { greetingTools } from "./greeting.ts";
import { historyTools } from "./history.ts";
import { mcpHttpHandler } from "./mcp.ts";
import { memoryTools } from "./memory.ts";
import { HEALTH_ANSWER, mountOpenApi } from "./openapi.ts";
import { patentResearchTools } from "./patent_research.ts";
import { patentTools } from "./patents.ts";
import { poTools } from "./po.ts";
import { poMaintainTools } from "./po_maintain.ts";
import { poCheckTools } from "./po_checks.ts";
import { poPurgeTools } from "./po_purge.ts";
import { termTools } from "./terms.ts";
import { auditTools } from "./audit.ts";
import { requestLog } from "./request_log.ts";
import { reviewTools } from "./review.ts";
import { securityHeaders } from "./security_headers.ts";
import { mountUi } from "./ui.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, requestSignal, requestTimeout } from "./timeout.ts";
import { mountTools, serveTools, type Tool, type ToolGroup } from "./tool.ts";
import { workbenchTools } from "./workbench.ts";

export type { AppDeps } from "./deps.ts";
export { MissingDependencyError, serveTools } from "./tool.ts";

/** Every tool group the service offers, over HTTP and MCP. */
export const TOOL_GROUPS: readonly ToolGroup[] = [
  poTools,
  poMaintainTools,
  poPurgeTools,
  workbenchTools,
  historyTools,
  poCheckTools,
  memoryTools,
  reviewTools,
  greetingTools,
  patentTools,
  patentResearchTools,
  termTools,
  auditTools,
] as ToolGroup[];

/** Every tool the service offers (as defined: for listing; {@link serveTools} binds them). */
export function allTools(): Tool[] {
  return TOOL_GROUPS.flatMap((group) => group.tools);
}

/** FastAPI's answer when no route matched: 405 for a known path, 307 for the other slash form, else 404. */
function notFound(app: OpenAPIHono) {
  return function notFoundHandler(c: Context): Response {
    // The path the router tried: a URL rebuilt from the request may say something else.
    const path = c.req.path;
    const routes = app.routes.filter((r) => r.method !== "ALL");
    const methods = (path: string) => {
      const found = new Set(routes.filter((r) => r.path === path).map((r) => r.method));
      if (found.has("GET")) found.add("HEAD");
      return [...found];
    };
    const allowed = methods(path);
    if (allowed.length > 0) {
      return c.json({ detail: "Method Not Allowed" }, 405, { Allow: allowed.join(", ") });
    }
    const other = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
    if (other !== "" && methods(other).length > 0) {
      let location = other;
      try {
        const url = new URL(c.req.url);
        url.pathname = other;
        location = url.toString();
      } catch {
        // no absolute URL to be had: a relative reference is as good to a client
      }
      return c.body(null, 307, { Location: location });
    }
    return c.json({ detail: "Not Found" }, 404);
  };
}

/**
 * Builds the HTTP app serving `groups` (by default every tool group).
 *
 * @throws {MissingDependencyError} when a group's dependency is absent from `deps` (an app without
 *   `catalogues` cannot serve the PO tools): at start-up, not at the first request.
 *
 * @example
 * ```ts
 * const app = createApp({ config: { apiToken: undefined, maxBodyBytes: 1 << 20 }, log: () => {} }, [greetingTools]);
 * const res = await app.request("/new/endpoint/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ name: "Ada" }),
 * });
 * await res.json(); // { message: "Hello, Ada!" }
 * ```
 */
export function createApp(deps: AppDeps, groups: readonly ToolGroup[] = TOOL_GROUPS): OpenAPIHono {
  const tools = serveTools(groups, deps);
  const app = new OpenAPIHono();
  app.use("*", requestLog(deps.log));
  app.use("*", securityHeaders());
  app.use(
    "*",
    requestGuard({
      identities: identities(deps),
      allowedHosts: deps.config.allowedHosts ?? LOOPBACK_HOST_NAMES,
      allowedOrigins: deps.config.allowedOrigins ?? [],
    }),
  );
  app.use("*", requestTimeout(deps.config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));

  mountTools(app, tools, deps);
  const mcp = mcpHttpHandler(tools, deps);
  app.on(["GET", "POST", "DELETE"], "/mcp", (c) => mcp(c.req.raw, requestSignal(c), identityOf(c)));

  app.get("/health", (c) => c.json(HEALTH_ANSWER));
  mountOpenApi(app, tokenConfigured(deps));
  mountDocs(app);
  mountUi(app);

  app.notFound(notFound(app));
  app.onError((error, c) => handleError(error, c, deps.log));
  return app;
}

/**
 * The app's `fetch` for a server: whatever escapes the app (it should be nothing), the client gets
 * the fixed JSON 500, never the runtime's bare text one.
 */
export function serverFetch(
  app: OpenAPIHono,
  log: (line: string) => void,
): (request: Request) => Promise<Response> {
  return async function fetchSafely(request) {
    try {
      return await app.fetch(request);
    } catch (error) {
      try {
        log(
          `unexpected error outside the app: ${
            String((error as Error)?.message ?? error).slice(0, 200).replace(/[^\x20-\x7e]/g, "?")
          }`,
        );
      } catch {
        // nothing more to do
      }
      return internalErrorResponse();
    }
  };
}
