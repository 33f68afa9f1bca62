import assert from "node:assert/strict";
import { VERSION } from "../lib/version.ts";
import { testApp } from "./_helpers.ts";
import { CHROMIUM, CHROMIUM_FLAGS, lacks } from "./_prerequisites.ts";

Deno.test("GET /openapi.json is OpenAPI 3.1 built from the request schemas", async () => {
  const { app } = testApp();
  const res = await app.request("/openapi.json");
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.equal(doc.openapi, "3.1.0");
  const op = doc.paths["/new/endpoint/"].post;
  assert.equal(op.operationId, "new_endpoint");
  assert.deepEqual(op.requestBody.content["application/json"].schema, {
    $ref: "#/components/schemas/NewEndpointRequest",
  });
  const schema = doc.components.schemas.NewEndpointRequest;
  assert.deepEqual(schema.required, ["name"]);
  assert.equal(schema.properties.name.type, "string");
  assert.ok(op.responses["422"]);
});

Deno.test("GET /docs serves Swagger UI with every asset from the app itself", async () => {
  const { app } = testApp();
  const page = await (await app.request("/docs")).text();
  const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(assets, [
    "/docs/assets/swagger-ui.css",
    "/docs/assets/swagger-ui-bundle.js",
    "/docs/assets/init.js",
  ]);
  for (const asset of assets) {
    const res = await app.request(asset);
    assert.equal(res.status, 200, asset);
    assert.ok((await res.arrayBuffer()).byteLength > 50, asset);
  }
  assert.ok(!page.includes("cdn."), "no CDN reference");
});

/** `/docs` of `app` as headless Chromium renders it: the DOM and the console lines. */
async function renderDocs(chromium: string, app: ReturnType<typeof testApp>["app"]) {
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const profile = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(chromium, {
      args: [
        "--headless",
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`,
        // Console messages (a CSP violation among them) go to stderr.
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        "--dump-dom",
        `http://127.0.0.1:${server.addr.port}/docs`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const page = await fetch(`http://127.0.0.1:${server.addr.port}/docs`);
    const csp = page.headers.get("content-security-policy") ?? "";
    await page.body?.cancel();
    return {
      dom: new TextDecoder().decode(out.stdout),
      consoleLines: new TextDecoder().decode(out.stderr).split("\n").filter((l) => l.includes(":CONSOLE")),
      csp,
    };
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

Deno.test({
  name: "/docs renders offline in headless Chromium, under its Content-Security-Policy with no violation",
  ignore: lacks(import.meta.url, "chromium"),
}, async () => {
  const { dom, consoleLines, csp } = await renderDocs(CHROMIUM!, testApp().app);
  const violations = consoleLines.filter((l) => /Content Security Policy|violates/i.test(l));
  assert.deepEqual(violations, [], "the docs page breaks none of its own policy");
  assert.match(csp, /script-src 'self'/);
  // Rendered by Swagger UI's JavaScript, from the fetched /openapi.json: title, version, operations.
  assert.match(dom, /PO catalogue, greeting and patent search tools/);
  assert.match(dom, /OAS 3\.1/);
  assert.match(dom, /\/new\/endpoint\//);
  assert.doesNotMatch(dom, /btn authorize/, "no token, no Authorize button");
});

Deno.test({
  name: "with API_TOKEN set, Swagger UI in headless Chromium shows the Authorize button and the version",
  ignore: lacks(import.meta.url, "chromium"),
}, async () => {
  const { dom } = await renderDocs(
    CHROMIUM!,
    testApp({ config: { apiToken: "docs-token-0123456789abcdef", maxBodyBytes: 1 << 20 } }).app,
  );
  assert.match(dom, /<button class="btn authorize[^"]*"[^>]*>\s*<span>Authorize<\/span>/);
  assert.ok(dom.includes(VERSION), "the version is shown");
});

/** The repository's root, as a directory URL. */
const ROOT = new URL("../", import.meta.url);

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings (code blocks skipped). */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.+)$/.exec(line);
    if (heading) found.add(headingSlug(heading[1]!));
  }
  return found;
}

/** The relative links to Markdown files in a Markdown text: `[text](path.md#anchor)`. */
function markdownLinks(markdown: string): { path: string; anchor: string | undefined }[] {
  return [...markdown.matchAll(/\]\(([^)\s:#]+\.md)(?:#([^)\s]+))?\)/g)].map((m) => ({
    path: m[1]!,
    anchor: m[2],
  }));
}

Deno.test("README.md and bench/README.md stay short: a user's page and a list of benchmarks", () => {
  const lines = (path: string) => Deno.readTextFileSync(new URL(path, ROOT)).split("\n").length;
  assert.ok(lines("README.md") <= 250, `README.md has ${lines("README.md")} lines (at most 250)`);
  assert.ok(
    lines("bench/README.md") <= 200,
    `bench/README.md has ${lines("bench/README.md")} lines (at most 200)`,
  );
});

Deno.test("every docs/*.md link of the README, and every Markdown link between the docs, resolves", async (t) => {
  const readme = Deno.readTextFileSync(new URL("README.md", ROOT));
  const docsLinks = markdownLinks(readme).filter((l) => l.path.startsWith("docs/"));
  assert.ok(docsLinks.length >= 8, "the README links to the docs of each feature");
  const pages = ["README.md", "bench/README.md"];
  for (const entry of Deno.readDirSync(new URL("docs/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
  }
  for (const page of pages.sort()) {
    await t.step(page, () => {
      const from = new URL(page, ROOT);
      for (const link of markdownLinks(Deno.readTextFileSync(from))) {
        const target = new URL(link.path, from);
        // Links out of the repository (../shared) are not this check's business.
        if (!target.href.startsWith(ROOT.href)) continue;
        const text = Deno.readTextFileSync(target); // throws NotFound for a broken link
        if (link.anchor !== undefined) {
          assert.ok(anchors(text).has(link.anchor), `${page}: ${link.path}#${link.anchor} names no heading`);
        }
      }
    });
  }
});
