/**
 * The dashboard: `GET /` (every catalogue under the roots, with its progress) and `GET /ui/catalogue`
 * (one catalogue's entries, with an editor), a small page embedded in the service (works offline and
 * inside `deno compile`; no CDN). The page shell and its assets hold no data, so they are public
 * like `/docs`; every number and entry comes from the JSON tools, behind the same token, Host and
 * Origin rules as any client (the page asks for the token once and keeps it for the tab only).
 *
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import page from "./ui/index.html" with { type: "text" };
import appScript from "./ui/app.js" with { type: "text" };
import api from "./ui/api.js" with { type: "text" };
import dom from "./ui/dom.js" with { type: "text" };
import overview from "./ui/overview.js" with { type: "text" };
import entry from "./ui/entry.js" with { type: "text" };
import catalogue from "./ui/catalogue.js" with { type: "text" };
import panels from "./ui/panels.js" with { type: "text" };
import review from "./ui/review.js" with { type: "text" };
import style from "./ui/app.css" with { type: "text" };

/** The page's script, as ES modules (app.js imports the others), by path. Embedded at build time. */
const SCRIPTS: Readonly<Record<string, string>> = {
  "/ui/app.js": appScript,
  "/ui/api.js": api,
  "/ui/dom.js": dom,
  "/ui/overview.js": overview,
  "/ui/entry.js": entry,
  "/ui/catalogue.js": catalogue,
  "/ui/panels.js": panels,
  "/ui/review.js": review,
};

/** The pages: each serves the same shell, whose script draws what the address asks for. */
export const UI_PAGES: readonly string[] = ["/", "/ui/catalogue", "/ui/review"];

/** Every path the dashboard serves (public: they hold no data). */
export const UI_PATHS: readonly string[] = [...UI_PAGES, ...Object.keys(SCRIPTS), "/ui/app.css"];

/**
 * The pages' Content-Security-Policy: our own script and style only (no inline script, no inline
 * style attribute), data from this service only, never framed.
 */
export const UI_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Adds the dashboard's pages and assets to an app. */
export function mountUi(app: OpenAPIHono): void {
  for (const path of UI_PAGES) {
    app.get(path, (c) => {
      c.header("Cache-Control", "no-cache");
      return c.html(page);
    });
  }
  for (const [path, script] of Object.entries(SCRIPTS)) {
    app.get(path, (c) => {
      c.header("Cache-Control", "no-cache");
      return c.body(script, 200, { "Content-Type": "text/javascript; charset=utf-8" });
    });
  }
  app.get("/ui/app.css", (c) => {
    c.header("Cache-Control", "no-cache");
    return c.body(style, 200, { "Content-Type": "text/css; charset=utf-8" });
  });
}
