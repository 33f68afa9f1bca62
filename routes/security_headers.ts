/**
 * Headers on every answer that tell a browser what it may do with it: never guess a type
 * (`nosniff`), never show it inside another site's frame, run nothing but our own scripts, and send
 * no referrer. JSON answers get a policy that allows nothing at all; the docs page (Swagger UI,
 * served from our own assets) gets the least it needs to work offline.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { UI_CSP, UI_PAGES } from "./ui.ts";

/** The policy of every answer but the docs page: load nothing, run nothing, be framed by no one. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The docs page's policy. Swagger UI sets inline `style` attributes and draws its icons from
 * `data:` SVGs; everything else comes from this service.
 */
export const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; " +
  "base-uri 'none'; form-action 'self'";

/** Sets the security headers on whatever answer the rest of the app produced. */
export function securityHeaders(): MiddlewareHandler {
  return async function setSecurityHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("X-Frame-Options", "DENY");
    headers.set("Referrer-Policy", "no-referrer");
    const path = c.req.path;
    headers.set(
      "Content-Security-Policy",
      path === "/docs" ? DOCS_CSP : UI_PAGES.includes(path) && c.req.method !== "POST" ? UI_CSP : API_CSP,
    );
  };
}
