/**
 * MCP tools an agent can use without help: annotations, output schemas that the results match,
 * examples inside the configured roots that work as sent, the roots in the server instructions,
 * the version in the server info, and the README's client configurations driven by the SDK client.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { GpssClient } from "../lib/gpss/mod.ts";
import { VERSION } from "../lib/version.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import { allTools } from "../routes/mod.ts";
import { childEnv, poFixture, REPO_ROOT, testApp } from "./_helpers.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const SAMPLE = HEADER + '#, fuzzy\nmsgid "Open"\nmsgstr "Ouvrir"\n\nmsgid "Quit"\nmsgstr "Quitter"\n';

type App = { request: (input: string | Request, init?: RequestInit) => Response | Promise<Response> };

async function connect(app: App): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

Deno.test("every MCP tool states its annotations: PO reads read-only, write_po destructive, GPSS search open-world", async () => {
  const client = await connect(testApp().app);
  try {
    const { tools } = await client.listTools();
    // Sent without the hints that say what MCP's defaults say (tools/list's bytes): read them with
    // the defaults, as a client does.
    const defaults = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    };
    const hints = Object.fromEntries(tools.map((t) => [t.name, { ...defaults, ...t.annotations }]));
    const read = { readOnlyHint: true, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    for (const name of ["read_po", "read_po_context", "find_fuzzy", "new_endpoint"]) {
      assert.deepEqual({ ...hints[name], title: undefined }, { ...read, title: undefined }, name);
    }
    assert.deepEqual(
      { ...hints.write_po, title: undefined },
      {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
        title: undefined,
      },
    );
    assert.equal(hints.search_patents?.openWorldHint, true);
    assert.equal(hints.search_patents?.readOnlyHint, true);
    assert.equal(hints.get_available_databases?.openWorldHint, false);
    assert.equal(hints.get_search_examples?.openWorldHint, false);
    for (const t of tools) {
      // No output schema in tools/list (it was 26 of its 67 KB: /openapi.json has them).
      assert.equal(t.outputSchema, undefined, t.name);
      // No title either: clients show the name, and the summary is in /openapi.json (tools/list's bytes).
      assert.equal(t.title, undefined, t.name);
    }
  } finally {
    await client.close();
  }
});

Deno.test("MCP schemas carry no machine-limit numbers, and the server info carries the version", async () => {
  const client = await connect(testApp().app);
  try {
    const listed = JSON.stringify(await client.listTools());
    assert.ok(!listed.includes(String(Number.MAX_SAFE_INTEGER)), "no 9007199254740991");
    assert.ok(!listed.includes(String(-Number.MAX_SAFE_INTEGER)));
    assert.deepEqual(client.getServerVersion(), { name: "po-tools", version: VERSION });
  } finally {
    await client.close();
  }
});

Deno.test("the MCP instructions name the allowed roots, and each tool's example is inside them and works as sent", async () => {
  await using f = await poFixture({ "fr/app.po": SAMPLE });
  const fake = await startFakeGpss();
  const { CatalogueStore } = await import("../lib/store/mod.ts");
  const { PO_CODEC } = await import("../lib/po/operations/po_codec.ts");
  const { app } = testApp({
    catalogues: new CatalogueStore({ roots: [f.root], codec: PO_CODEC }),
    gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }),
  });
  const client = await connect(app);
  try {
    const instructions = client.getInstructions() ?? "";
    assert.ok(instructions.includes(JSON.stringify(f.root)), instructions);
    const { tools } = await client.listTools();
    const before = await client.callTool({ name: "read_po", arguments: { file_path: f.path("fr/app.po") } });
    for (const tool of tools) {
      const examples = (tool.inputSchema as { examples?: Record<string, unknown>[] }).examples;
      const args = examples?.[0] ?? {};
      if (tool.name.endsWith("_po") || tool.name.includes("po_") || tool.name === "find_fuzzy") {
        assert.equal(args.file_path, f.path("fr/app.po"), tool.name);
        // One example per tool: the input schema's, not repeated in the description.
        assert.ok(!tool.description?.includes(JSON.stringify(args)), `${tool.name} shows its example once`);
      }
      const result = await client.callTool({ name: tool.name, arguments: args });
      assert.notEqual(result.isError, true, `${tool.name}: ${JSON.stringify(result.content)}`);
      assert.equal(typeof result.structuredContent, "object", tool.name);
    }
    const after = await client.callTool({ name: "read_po", arguments: { file_path: f.path("fr/app.po") } });
    // The entries without their lines: the write lays the file out as msgcat does, which may move them.
    const entries = (answer: unknown) =>
      (answer as { entries: { line: number }[] }).entries.map((e) => ({ ...e, line: undefined }));
    assert.deepEqual(
      entries(after.structuredContent),
      entries(before.structuredContent),
      "the write example changed no entry",
    );
  } finally {
    await client.close();
    await fake.close();
  }
});

Deno.test("an MCP failure is an isError result whose text is the detail, with no structured content to break the output schema", async () => {
  await using f = await poFixture({ "fr.po": SAMPLE });
  const client = await connect(f.app);
  try {
    const typo = await client.callTool({
      name: "write_po",
      arguments: {
        file_path: f.path("fr.po"),
        entries: [{ msgid: "Quit", msgstr: "Fermer", msgctx: "menu" }],
      },
    });
    assert.equal(typo.isError, true);
    // No structured content: it would have to match the output schema (the Inspector checks it
    // even on errors); the text is the 422 detail as JSON.
    assert.equal(typo.structuredContent, undefined);
    assert.deepEqual(JSON.parse((typo.content as { text: string }[])[0]?.text ?? ""), [{
      type: "extra_forbidden",
      loc: ["body", "entries", 0, "msgctx"],
      msg: "Extra inputs are not permitted; did you mean 'msgctxt'?",
      input: "menu",
      ctx: { did_you_mean: "msgctxt" },
    }]);
    const missing = await client.callTool({ name: "read_po", arguments: { file_path: f.path("nope.po") } });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent, undefined);
    assert.equal((missing.content as { text: string }[])[0]?.text, `File not found: ${f.path("nope.po")}`);
  } finally {
    await client.close();
  }
});

/** The JSON code blocks of the README's "MCP set-up" section. */
async function readmeMcpConfigs(): Promise<Record<string, Record<string, unknown>>[]> {
  const readme = await Deno.readTextFile(new URL("README.md", REPO_ROOT));
  const start = readme.indexOf("## MCP set-up");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? "").mcpServers);
}

Deno.test("the README's HTTP configuration, with its token header, drives the SDK client over a real socket", async () => {
  const configs = await readmeMcpConfigs();
  const http = configs.map((c) => c["po-tools"]).find((c) => c?.type === "http");
  assert.ok(http, "an HTTP configuration");
  const token = "readme-token-0123456789abcdef";
  const { app } = testApp({ config: { apiToken: token, maxBodyBytes: 1 << 20 } });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const url = new URL(String(http.url));
  assert.equal(url.pathname, "/mcp");
  url.port = String(server.addr.port);
  const headers = Object.fromEntries(
    Object.entries((http.headers ?? {}) as Record<string, string>).map((
      [k, v],
    ) => [k, v.replace("<API_TOKEN>", token)]),
  );
  assert.equal(headers.Authorization, `Bearer ${token}`, "the snippet shows the token header");
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  try {
    assert.equal((await client.listTools()).tools.length, allTools().length);
    const hi = await client.callTool({ name: "new_endpoint", arguments: { name: "README" } });
    assert.deepEqual(hi.structuredContent, { message: "Hello, README!" });
  } finally {
    await client.close();
  }
});

Deno.test("the README's stdio configuration (deno task mcp) drives the SDK client", async () => {
  const configs = await readmeMcpConfigs();
  const stdio = configs.map((c) => c["po-tools"]).find((c) => c?.command !== undefined);
  assert.ok(stdio, "a stdio configuration");
  const args = stdio.args as string[];
  // `npx -y deno@2.9.6` is the Deno running this test; the rest is the snippet's, with this checkout.
  assert.equal(stdio.command, "npx");
  assert.deepEqual(args.slice(0, 2), ["-y", "deno@2.9.6"]);
  const repo = new URL(".", REPO_ROOT).pathname.replace(/\/$/, "");
  await using f = await poFixture({ "fr.po": SAMPLE });
  const env = { ...(stdio.env as Record<string, string>), PO_ROOTS: f.root };
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: args.slice(2).map((a) => a === "/path/to/po-tools" ? repo : a),
    env: childEnv(env),
    stderr: "pipe",
  });
  const client = new Client({ name: "readme", version: "1.0.0" });
  await client.connect(transport);
  try {
    assert.ok((client.getInstructions() ?? "").includes(JSON.stringify(f.root)));
    const read = await client.callTool({ name: "read_po", arguments: { file_path: f.path("fr.po") } });
    assert.deepEqual(
      (read.structuredContent as { entries: { msgid: string }[] }).entries.map((e) => e.msgid),
      ["Open", "Quit"],
    );
  } finally {
    await client.close();
  }
});
