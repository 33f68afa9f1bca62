/**
 * `/docs`: Swagger UI for `/openapi.json`, served entirely by the app (no CDN), so it works
 * offline. The assets are embedded at build time as modules (also inside `deno compile` binaries).
 *
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import css from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import bundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "bytes" };

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PO catalogue, greeting and patent search tools - Swagger UI</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const INIT =
  `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });\n`;

/** Adds `GET /docs` and its assets to an app. */
export function mountDocs(app: OpenAPIHono): void {
  app.get("/docs", (c) => c.html(PAGE));
  app.get("/docs/assets/swagger-ui.css", (c) => {
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(css, 200, { "Content-Type": "text/css; charset=utf-8" });
  });
  app.get("/docs/assets/swagger-ui-bundle.js", (c) => {
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(bundle as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
    });
  });
  app.get(
    "/docs/assets/init.js",
    (c) => c.body(INIT, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
  );
}
