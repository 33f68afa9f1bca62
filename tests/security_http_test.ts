/**
 * Untrusted clients over a real socket: the token cannot be bypassed through `Host` or the request
 * target, `Host` and `Origin` are checked, odd headers get a JSON 4xx, the log cannot be forged,
 * and every answer carries the browser security headers.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { allTools } from "../routes/mod.ts";
import { defineTool, type Tool } from "../routes/tool.ts";
import { API_CSP, DOCS_CSP } from "../routes/security_headers.ts";
import { poFixture, testApp } from "./_helpers.ts";
import { rawRequest } from "./_raw_http.ts";

const TOKEN = "security-token-0123456789";

function serve(app: { fetch: (r: Request) => Response | Promise<Response> }) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
}

/** Every POST route the service has, and the MCP endpoint. */
const PROTECTED = [...allTools().map((t) => t.path), "/mcp"];

Deno.test("with API_TOKEN, no Host value or request target reaches a protected route without the token", async (t) => {
  const fx = await poFixture({ "a.po": 'msgid "x"\nmsgstr "y"\n' });
  // The default store has no roots: a request that got past the guard would be a 403, not a 401.
  const { app, lines } = testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } });
  await using server = serve(app);
  const port = server.addr.port;
  const hosts = [
    "x\\docs",
    "x/docs",
    "x/docs/assets",
    "x?docs",
    "x#docs",
    "u@x",
    "a b",
    "x%2fdocs",
    "%78",
    "localhost:8000",
    "127.0.0.1",
  ];
  const body = JSON.stringify({ file_path: fx.path("a.po") });
  await t.step("every protected route × every Host value: 401", async () => {
    for (const path of PROTECTED) {
      for (const host of hosts) {
        const res = await rawRequest(
          port,
          `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json`,
          body,
        );
        assert.equal(res.status, 401, `${path} with Host ${JSON.stringify(host)}: ${res.body}`);
        assert.deepEqual(JSON.parse(res.body), { detail: "Not authenticated" });
      }
    }
  });
  await t.step("odd request targets: 401, never the route behind them", async () => {
    const targets = [
      "http://x/docs/../po/read",
      "http://x\\docs/po/read",
      "http://localhost/po/read",
      "/docs/../po/read",
      "//docs/..%2fpo/read",
      "/DOCS",
      "/docs/",
      "/Docs",
      "/docs/assets",
      "/docs/assets/",
      "/docs/x",
      "/openapi.json/../po/read",
      "/openapi.json/",
      "/docs%2f../po/read",
      "/po/read#/docs",
      "/po/read?/docs",
      "/%64ocs/../po/read",
    ];
    for (const target of targets) {
      const res = await rawRequest(
        port,
        `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json`,
        body,
      );
      assert.equal(res.status, 401, `${target}: ${res.body}`);
    }
  });
  await t.step("/docs, its assets and /openapi.json stay public", async () => {
    for (const path of ["/docs", "/openapi.json", "/docs/assets/init.js"]) {
      const res = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1`);
      assert.equal(res.status, 200, path);
    }
  });
  await t.step(
    "with the token, a Host that is not host[:port] is 400 in the JSON error contract",
    async () => {
      for (
        const host of [
          "x\\docs",
          "x/docs",
          "x?docs",
          "x#docs",
          "u@x",
          "a b",
          "x%2fdocs",
          "a:b:c",
          "[::1",
          "x:99999999",
        ]
      ) {
        const res = await rawRequest(
          port,
          `POST /new/endpoint/ HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json`,
          '{"name":"x"}',
        );
        assert.equal(res.status, 400, `Host ${JSON.stringify(host)}`);
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
        assert.deepEqual(JSON.parse(res.body), { detail: "Invalid Host header" });
      }
    },
  );
  await t.step("with the token, a valid request is served", async () => {
    const res = await rawRequest(
      port,
      `POST /new/endpoint/ HTTP/1.1\r\nHost: localhost:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json`,
      '{"name":"Ada"}',
    );
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { message: "Hello, Ada!" });
  });
  assert.ok(lines.length > 0);
  await Deno.remove(fx.root, { recursive: true });
});

Deno.test("Host must name the service: loopback names by default, ALLOWED_HOSTS for others", async () => {
  const { app } = testApp();
  await using server = serve(app);
  const port = server.addr.port;
  const ask = (host: string) =>
    rawRequest(
      port,
      `POST /new/endpoint/ HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json`,
      '{"name":"x"}',
    );
  for (
    const host of ["localhost", `localhost:${port}`, "127.0.0.1", `127.0.0.1:${port}`, "[::1]", "LOCALHOST"]
  ) {
    assert.equal((await ask(host)).status, 200, host);
  }
  // A DNS-rebinding page reaches 127.0.0.1 under its own name.
  for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.evil.example", "localhost.evil"]) {
    const res = await ask(host);
    assert.equal(res.status, 403, host);
    assert.match(JSON.parse(res.body).detail, /^Host not allowed/);
  }
  const listed = testApp({
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, allowedHosts: ["localhost", "po.example.org"] },
  }).app;
  await using second = serve(listed);
  const res = await rawRequest(
    second.addr.port,
    `POST /new/endpoint/ HTTP/1.1\r\nHost: po.example.org:8443\r\nContent-Type: application/json`,
    '{"name":"x"}',
  );
  assert.equal(res.status, 200);
  const any = testApp({ config: { apiToken: undefined, maxBodyBytes: 1 << 20, allowedHosts: "*" } }).app;
  assert.equal(
    (await any.request("http://anything.example/new/endpoint/", {
      method: "POST",
      body: new TextEncoder().encode('{"name":"x"}'),
    })).status,
    200,
  );
});

Deno.test("a cross-origin browser request is refused with 403; same-origin, listed and Origin-less ones pass", async (t) => {
  const post = (app: ReturnType<typeof testApp>["app"], path: string, headers: Record<string, string>) =>
    app.request(`http://127.0.0.1:8000${path}`, {
      method: "POST",
      headers: { host: "127.0.0.1:8000", "content-type": "application/json", ...headers },
      body: path === "/mcp"
        ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
        : JSON.stringify({ name: "x" }),
    });
  const { app } = testApp();
  await t.step("a foreign page", async () => {
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1:9999", "http://localhost:8000"]) {
      const res = await post(app, "/new/endpoint/", { origin });
      assert.equal(res.status, 403, origin);
      assert.deepEqual(await res.json(), { detail: "Origin not allowed (see ALLOWED_ORIGINS)" });
    }
  });
  await t.step(
    "the MCP endpoint answers 403 with a JSON-RPC error and no id, as the MCP transport says",
    async () => {
      const res = await post(app, "/mcp", {
        origin: "https://evil.example",
        accept: "application/json, text/event-stream",
      });
      assert.equal(res.status, 403);
      const body = await res.json();
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32000);
    },
  );
  await t.step("the service's own pages, and clients that send no Origin", async () => {
    assert.equal((await post(app, "/new/endpoint/", { origin: "http://127.0.0.1:8000" })).status, 200);
    assert.equal((await post(app, "/new/endpoint/", {})).status, 200);
  });
  await t.step("ALLOWED_ORIGINS: listed origins pass, get CORS headers and their preflight", async () => {
    const listed = testApp({
      config: { apiToken: TOKEN, maxBodyBytes: 1 << 20, allowedOrigins: ["https://app.example"] },
    }).app;
    const res = await post(listed, "/new/endpoint/", {
      origin: "https://app.example",
      authorization: `Bearer ${TOKEN}`,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    const preflight = await listed.request("http://127.0.0.1:8000/new/endpoint/", {
      method: "OPTIONS",
      headers: {
        host: "127.0.0.1:8000",
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Authorization/);
    const other = await post(listed, "/new/endpoint/", {
      origin: "https://evil.example",
      authorization: `Bearer ${TOKEN}`,
    });
    assert.equal(other.status, 403);
  });
});

Deno.test("non-ASCII bytes in Host get a JSON 400, are logged as one escaped line, and nothing goes to stderr", async () => {
  const { app, lines } = testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } });
  await using server = serve(app);
  const enc = new TextEncoder();
  for (
    const host of [[0x61, 0xc2, 0x85, 0x62], [0x61, 0xe2, 0x80, 0xa8, 0x62], [0xff, 0xfe], [
      0x61,
      0xc2,
      0x9b,
      0x33,
      0x31,
      0x6d,
    ]]
  ) {
    const head = new Uint8Array([
      ...enc.encode("POST /new/endpoint/ HTTP/1.1\r\nHost: "),
      ...host,
      ...enc.encode(`\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json`),
    ]);
    const res = await rawRequest(server.addr.port, head, '{"name":"x"}');
    assert.equal(res.status, 400, String(host));
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(JSON.parse(res.body), { detail: "Invalid Host header" });
  }
  assert.equal(lines.length, 4);
  for (const line of lines) assert.match(line, /^POST \/new\/endpoint\/ 400 \d+\.\dms$/);
});

Deno.test("the request log writes the dispatched path with controls and separators escaped: no forged lines", async () => {
  const { app, lines } = testApp();
  await using server = serve(app);
  const port = server.addr.port;
  const targets = [
    "/a%0AGET%20/forged%20200%200.1ms",
    "/a%C2%9B31mred",
    "/a%C2%85b",
    "/a%E2%80%A8b%E2%80%A9c",
    "/a%1B[2Jb",
    "/a%E2%80%AEevil",
    "/a%0Db",
  ];
  for (const target of targets) {
    await rawRequest(port, `POST ${target} HTTP/1.1\r\nHost: localhost`, "{}");
  }
  // A Host that tries to smuggle a line in is refused before anything else is done with it.
  await rawRequest(port, "POST /x HTTP/1.1\r\nHost: a/FORGED 200 0.1ms", "{}");
  assert.equal(lines.length, targets.length + 1);
  for (const line of lines) {
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(line, /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202e]/, JSON.stringify(line));
    assert.match(line, /^POST \S+ \d{3} \d+\.\dms$/, JSON.stringify(line));
  }
  assert.equal(lines[0]?.split(" ").length, 4);
  assert.match(lines[1] ?? "", /\\x9b31mred/);
});

Deno.test("every answer says nosniff and cannot be framed; /docs gets a policy Swagger UI works under", async () => {
  const { app } = testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } });
  const answers = [
    ["/docs", await app.request("/docs")],
    ["/openapi.json", await app.request("/openapi.json")],
    ["401", await app.request("/po/read", { method: "POST", body: "{}" })],
    ["404", await app.request("/nope", { headers: { authorization: `Bearer ${TOKEN}` } })],
    [
      "200",
      await app.request("/new/endpoint/", {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: '{"name":"x"}',
      }),
    ],
  ] as const;
  for (const [label, res] of answers) {
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", label);
    assert.equal(res.headers.get("x-frame-options"), "DENY", label);
    assert.match(res.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/, label);
    await res.body?.cancel();
  }
  assert.equal(answers[0][1].headers.get("content-security-policy"), DOCS_CSP);
  assert.equal(answers[2][1].headers.get("content-security-policy"), API_CSP);
});

Deno.test("a request that runs past REQUEST_TIMEOUT_S is answered 503 and its work is told to stop", async () => {
  let aborted = false;
  let finished = false;
  const slow = [defineTool({
    name: "slow",
    role: "reader",
    path: "/slow",
    summary: "",
    description: "",
    input: null,
    output: z.object({}),
    handle: async (_input, _deps, call) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      aborted = call.signal.aborted;
      finished = true;
      return {};
    },
  })] as Tool[];
  const { app } = testApp(
    { config: { apiToken: undefined, maxBodyBytes: 1024, requestTimeoutMs: 200 } },
    slow,
  );
  await using server = serve(app);
  const res = await rawRequest(server.addr.port, "POST /slow HTTP/1.1\r\nHost: localhost");
  assert.equal(finished, false, "answered before the work ended");
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "5");
  assert.match(JSON.parse(res.body).detail, /longer than 0\.2 s \(REQUEST_TIMEOUT_S\) and was abandoned/);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(aborted, true);
});

Deno.test("a write abandoned at REQUEST_TIMEOUT_S leaves the catalogue as it was and nothing beside it", async () => {
  const { CatalogueStore } = await import("../lib/store/mod.ts");
  const { PO_CODEC } = await import("../lib/po/operations/po_codec.ts");
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-timeout-" }));
  try {
    const original =
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';
    await Deno.writeTextFile(`${root}/a.po`, original);
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    const { app } = testApp({
      catalogues,
      config: { apiToken: undefined, maxBodyBytes: 64 << 20, requestTimeoutMs: 5 },
    });
    // Enough work that the time limit passes before the file could be replaced.
    const entries = Array.from({ length: 60_000 }, (_, i) => ({ msgid: `m${i}`, msgstr: `t${i}` }));
    for (const name of ["a.po", "new.po"]) {
      const res = await app.request("/po/write", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new TextEncoder().encode(JSON.stringify({ file_path: `${root}/${name}`, entries })),
      });
      assert.equal(res.status, 503, name);
      await res.body?.cancel();
    }
    // Let the abandoned work run to its end.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(await Deno.readTextFile(`${root}/a.po`), original);
    const names = [...Deno.readDirSync(root)].map((e) => e.name).sort();
    assert.deepEqual(names.filter((n) => !n.endsWith(".lock")), ["a.po"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
