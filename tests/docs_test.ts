import assert from "node:assert/strict";
import { testApp } from "./_helpers.ts";

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

function findChromium(): string | null {
  for (const path of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not there */ }
  }
  return null;
}

Deno.test("/docs renders offline in headless Chromium, under its Content-Security-Policy with no violation", async () => {
  const chromium = findChromium();
  if (!chromium) {
    console.log("not run: no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run installs it)");
    return;
  }
  const { app } = testApp();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const profile = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(chromium, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
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
    const dom = new TextDecoder().decode(out.stdout);
    const consoleLines = new TextDecoder().decode(out.stderr).split("\n").filter((l) =>
      l.includes(":CONSOLE")
    );
    const violations = consoleLines.filter((l) => /Content Security Policy|violates/i.test(l));
    assert.deepEqual(violations, [], "the docs page breaks none of its own policy");
    const page = await fetch(`http://127.0.0.1:${server.addr.port}/docs`);
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    await page.body?.cancel();
    // Rendered by Swagger UI's JavaScript, from the fetched /openapi.json: title, version, operations.
    assert.match(dom, /PO catalogue, greeting and patent search tools/);
    assert.match(dom, /OAS 3\.1/);
    assert.match(dom, /\/new\/endpoint\//);
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
});
