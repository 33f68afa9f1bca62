/**
 * Who may talk to the service: the bearer token, the `Host` a request names and the `Origin` a
 * browser sends. Every decision here is made on `c.req.path`, the very path the router dispatches
 * on (Hono's own reading of the request target), never on a URL rebuilt from headers: Deno builds
 * `request.url` from the `Host` header, and `new URL()` turns a `\` in it into `/`, so a request for
 * `/po/read` with `Host: x\docs` looked like `/docs/po/read` to the old check.
 *
 * Order, per request: token (401) → Host syntax (400) → Host allowed (403) → Origin allowed (403).
 * The token comes first so that nothing about a protected route is told without it. The token names
 * an identity (a name and a role, `lib/auth/`): {@link identityOf} tells it to the tool routes and
 * `/mcp`, which refuse a tool the role lacks (403).
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { ANONYMOUS, type Identities, type Identity } from "../lib/auth/mod.ts";
import { UI_PATHS } from "./ui.ts";

/**
 * Paths reachable without the token: the API description, the docs page with its assets, and the
 * liveness probe (no catalogue data). The Host and Origin checks still apply to them.
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  ...UI_PATHS,
  "/health",
  "/docs",
  "/docs/assets/swagger-ui.css",
  "/docs/assets/swagger-ui-bundle.js",
  "/docs/assets/init.js",
  "/openapi.json",
]);

/** Host names a service listening on loopback is reached by, accepted unless `ALLOWED_HOSTS` says otherwise. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** What {@link requestGuard} enforces. */
export interface GuardOptions {
  /** Who the accepted tokens are (API_TOKEN, the tokens file), or null when no token is asked. */
  identities: Identities | null;
  /** Host names (lower case, no port; IPv6 in brackets) accepted in `Host`, or `"*"` for any. */
  allowedHosts: readonly string[] | "*";
  /** Origins (`scheme://host[:port]`, lower case) allowed besides the service's own, or `"*"`. */
  allowedOrigins: readonly string[] | "*";
}

/**
 * `host[:port]` as RFC 3986 allows it in `Host`: a registered name of unreserved characters (no
 * percent-escapes, no `@`, `\`, `/`, `?`, `#`, spaces or non-ASCII), an IPv4 address, or an IPv6
 * literal in brackets, and an optional port of at most five digits.
 */
const HOST_SYNTAX = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.\-_~]{0,252})?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** The host name of a valid `host[:port]`, lower-cased, without the port. */
export function hostName(hostPort: string): string {
  const lower = hostPort.toLowerCase();
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1);
  const colon = lower.lastIndexOf(":");
  return colon < 0 ? lower : lower.slice(0, colon);
}

/** True when `value` is a syntactically valid `host[:port]`. */
export function isValidHost(value: string): boolean {
  return HOST_SYNTAX.test(value);
}

/**
 * The authority of a request's URL (what Deno took from `Host` or from an absolute-form target), or
 * null when it has none.
 */
function urlAuthority(url: string): string | null {
  const scheme = url.indexOf("://");
  if (scheme < 0) return null;
  let end = scheme + 3;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break; // '/' '?' '#'
    end++;
  }
  return url.slice(scheme + 3, end);
}

/** The identity of each request the guard let through (absent: no token asked, {@link ANONYMOUS}). */
const IDENTITIES = new WeakMap<Request, Identity>();

/** Who made this request: the identity its token names, or {@link ANONYMOUS} when no token is asked. */
export function identityOf(c: Context): Identity {
  return IDENTITIES.get(c.req.raw) ?? ANONYMOUS;
}

/** The answer for a refused request: JSON-RPC's error shape on `/mcp`, FastAPI's elsewhere. */
function refuse(c: Context, status: 400 | 403, detail: string): Response {
  if (c.req.path === "/mcp") {
    // The MCP transport: "If the Origin header is present and invalid, servers MUST respond with
    // HTTP 403 Forbidden. The HTTP response body MAY comprise a JSON-RPC error response that has no id."
    return c.json({ jsonrpc: "2.0", error: { code: -32000, message: detail }, id: null }, status);
  }
  return c.json({ detail }, status);
}

/**
 * The token, Host and Origin checks as one middleware.
 *
 * A browser page can send a POST to any address without asking (no preflight for a body without a
 * JSON content type, which `readJsonBody` refuses with 415), and a DNS-rebinding page reaches
 * `127.0.0.1` under its own host name. So: `Host` must name this service, and an `Origin`, when a
 * browser sends one, must be the service's own (`http://` + the request's `Host`) or listed.
 *
 * @example
 * ```ts
 * app.use("*", requestGuard({ identities: null, allowedHosts: LOOPBACK_HOST_NAMES, allowedOrigins: [] }));
 * ```
 */
export function requestGuard(options: GuardOptions): MiddlewareHandler {
  const identities = options.identities;
  const hosts = options.allowedHosts === "*" ? null : new Set(options.allowedHosts);
  const origins = options.allowedOrigins === "*" ? null : new Set(options.allowedOrigins);
  return async function guardRequest(c, next) {
    const origin = c.req.header("origin");
    const preflight = c.req.method === "OPTIONS" && origin !== undefined &&
      c.req.header("access-control-request-method") !== undefined;
    // A CORS preflight carries no credentials by design; it is answered below, with no work done.
    if (identities !== null && !preflight && !PUBLIC_PATHS.has(c.req.path)) {
      const header = c.req.header("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      // Looked up by the token's sha256: the time taken tells nothing of the token.
      // `(.+)` takes part in every match.
      const identity = match ? identities.identify(match[1]!.trim()) : null;
      if (identity === null) {
        return c.json({ detail: "Not authenticated" }, 401, { "WWW-Authenticate": "Bearer" });
      }
      IDENTITIES.set(c.req.raw, identity);
    }
    const host = c.req.header("host");
    for (const value of [host, urlAuthority(c.req.url)]) {
      // An empty Host is what HTTP/1.1 sends for a target without authority; Deno then uses its own.
      if (value === undefined || value === null || value === "") continue;
      if (!isValidHost(value)) return refuse(c, 400, "Invalid Host header");
      if (hosts !== null && !hosts.has(hostName(value))) {
        return refuse(c, 403, `Host not allowed: ${hostName(value)} (see ALLOWED_HOSTS)`);
      }
    }
    if (origin === undefined) return await next();
    const given = origin.toLowerCase();
    // The service's own pages (the docs, behind a TLS proxy or not) send its own origin.
    const own = host !== undefined && host !== "" &&
      (given === `http://${host.toLowerCase()}` || given === `https://${host.toLowerCase()}`);
    if (!own && origins !== null && !origins.has(given)) {
      return refuse(c, 403, "Origin not allowed (see ALLOWED_ORIGINS)");
    }
    if (!own) {
      // A listed origin: answer the browser's preflight, and let it read the answers.
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Vary", "Origin");
    }
    if (preflight) {
      return c.body(null, 204, {
        "Access-Control-Allow-Methods": "GET, POST, DELETE",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version",
        "Access-Control-Max-Age": "600",
      });
    }
    await next();
  };
}
