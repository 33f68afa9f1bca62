import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CONFIG_ENV_NAMES } from "../lib/config.ts";
import { allTools } from "../routes/mod.ts";
import { childEnv, testApp } from "./_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

function inProcessClient(
  app: { request: (input: string | Request, init?: RequestInit) => Response | Promise<Response> },
) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
  });
  return { client: new Client({ name: "test", version: "1.0.0" }), transport };
}

Deno.test("MCP over Streamable HTTP: initialize, list and call the greeting tool", async () => {
  const { app } = testApp();
  const { client, transport } = inProcessClient(app);
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const greet = tools.find((t) => t.name === "new_endpoint");
    assert.ok(greet);
    assert.equal(greet.inputSchema.type, "object");
    assert.deepEqual(greet.inputSchema.required, ["name"]);
    const ok = await client.callTool({ name: "new_endpoint", arguments: { name: "Ada" } });
    assert.deepEqual(ok.structuredContent, { message: "Hello, Ada!" });
    assert.equal(ok.isError, undefined);
    const bad = await client.callTool({ name: "new_endpoint", arguments: { name: 5 } });
    assert.equal(bad.isError, true);
    const detail = [{
      type: "string_type",
      loc: ["body", "name"],
      msg: "Input should be a valid string",
      input: 5,
    }];
    assert.equal(bad.structuredContent, undefined, "an error has no structured content");
    assert.deepEqual(JSON.parse((bad.content as { text: string }[])[0]?.text ?? ""), detail);
  } finally {
    await client.close();
  }
});

Deno.test("MCP over HTTP answers GET and DELETE with 405 and needs the bearer token when set", async () => {
  const { app } = testApp();
  for (const method of ["GET", "DELETE"]) {
    const res = await app.request("/mcp", { method });
    assert.equal(res.status, 405, method);
    await res.body?.cancel();
  }
  const token = "mcp-token-0123456789abcdef";
  const secured = testApp({ config: { apiToken: token, maxBodyBytes: 1 << 20 } }).app;
  const { client, transport } = inProcessClient(secured);
  await assert.rejects(client.connect(transport));
  const authed = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(secured.request(url instanceof Request ? url : String(url), init)),
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const c2 = new Client({ name: "test", version: "1.0.0" });
  await c2.connect(authed);
  assert.ok((await c2.listTools()).tools.length > 0);
  await c2.close();
});

Deno.test("MCP over stdio: the SDK client drives a spawned `main.ts mcp`", async () => {
  const roots = await Deno.makeTempDir();
  // The cross-process lock files go to a directory of their own (PO_LOCK_DIR), outside the roots.
  const locks = await Deno.makeTempDir();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--allow-read=${roots},${locks}`,
      `--allow-write=${roots},${locks}`,
      "--allow-sys=uid",
      "--allow-net=127.0.0.1",
      `--allow-env=${CONFIG_ENV_NAMES.join(",")}`,
      MAIN,
      "mcp",
    ],
    env: childEnv({ PO_ROOTS: roots, PO_LOCK_DIR: locks }),
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, allTools().length);
    const r = await client.callTool({ name: "new_endpoint", arguments: { name: "stdio" } });
    assert.deepEqual(r.structuredContent, { message: "Hello, stdio!" });
    const file = `${await Deno.realPath(roots)}/t.po`;
    const w = await client.callTool({
      name: "write_po",
      // Over MCP write_po defaults to mode "update": creating a catalogue takes "upsert" (or "create").
      arguments: { file_path: file, mode: "upsert", entries: [{ msgid: "x", msgstr: "y" }] },
    });
    assert.equal((w.structuredContent as { created: number }).created, 1);
    const read = await client.callTool({ name: "read_po", arguments: { file_path: file } });
    assert.equal((read.structuredContent as { entries: { msgstr: string }[] }).entries[0]?.msgstr, "y");
    const dbs = await client.callTool({ name: "get_available_databases", arguments: {} });
    assert.equal((dbs.structuredContent as { success: boolean }).success, true);
    const search = await client.callTool({ name: "search_patents", arguments: { keywords: "x" } });
    assert.equal((search.structuredContent as { success: boolean; error: string }).success, false);
    assert.match((search.structuredContent as { error: string }).error, /USER_CODE/);
  } finally {
    await client.close();
    await Deno.remove(roots, { recursive: true });
    await Deno.remove(locks, { recursive: true });
  }
});

Deno.test("`main.ts mcp` writes only protocol messages on stdout and exits 0 when stdin closes", async () => {
  const roots = await Deno.makeTempDir();
  // The cross-process lock files go to a directory of their own (PO_LOCK_DIR), outside the roots.
  const locks = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--allow-read=${roots},${locks}`,
      `--allow-write=${roots},${locks}`,
      "--allow-sys=uid",
      "--allow-env",
      MAIN,
      "mcp",
    ],
    env: childEnv({ PO_ROOTS: roots, PO_LOCK_DIR: locks }),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  await writer.write(new TextEncoder().encode(JSON.stringify(init) + "\n"));
  await writer.close();
  const out = await child.output();
  await Deno.remove(roots, { recursive: true });
  await Deno.remove(locks, { recursive: true });
  assert.equal(out.code, 0);
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
  assert.ok(lines.length >= 1);
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0");
  assert.equal(JSON.parse(lines[0] ?? "").result.serverInfo.name, "po-tools");
});

Deno.test("MCP patent tools: search against the fake upstream, static tools, and an isError case", async () => {
  const { GpssClient } = await import("../lib/gpss/mod.ts");
  const { FAKE_USER_CODE, startFakeGpss } = await import("./_fake_gpss.ts");
  const fake = await startFakeGpss();
  const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
  const { client, transport } = inProcessClient(app);
  await client.connect(transport);
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ["search_patents", "get_available_databases", "get_search_examples", "new_endpoint"]) {
      assert.ok(names.includes(name), name);
    }
    const found = await client.callTool({
      name: "search_patents",
      arguments: { keywords: "充電", max_results: 3 },
    });
    const out = found.structuredContent as { success: boolean; data: { records: unknown[] } };
    assert.equal(out.success, true);
    assert.ok(out.data.records.length > 0);
    const dbs = await client.callTool({ name: "get_available_databases", arguments: {} });
    assert.equal((dbs.structuredContent as { success: boolean }).success, true);
    const ex = await client.callTool({ name: "get_search_examples", arguments: {} });
    assert.ok(Object.keys((ex.structuredContent as { examples: object }).examples).length >= 4);
    const bad = await client.callTool({
      name: "search_patents",
      arguments: { keywords: "x", databases: ["NOPE"] },
    });
    assert.equal(bad.isError, true);
    const detail = JSON.parse((bad.content as { text: string }[])[0]?.text ?? "") as {
      type: string;
      loc: unknown[];
    }[];
    assert.equal(detail[0]?.type, "literal_error");
    assert.deepEqual(detail[0]?.loc, ["body", "databases", 0]);
  } finally {
    await client.close();
    await fake.close();
  }
});

Deno.test("MCP PO tools: every tool is listed, PO tools work on a temp catalogue, failures are isError", async () => {
  const { poFixture } = await import("./_helpers.ts");
  await using f = await poFixture({
    "fr.po":
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#, fuzzy\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr "B"\n',
  });
  const { client, transport } = inProcessClient(f.app);
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, allTools().map((t) => t.name).sort());
    for (
      const name of [
        "find_fuzzy",
        "get_available_databases",
        "get_search_examples",
        "new_endpoint",
        "read_po",
        "read_po_context",
        "search_patents",
        "write_po",
      ]
    ) assert.ok(names.includes(name), name);
    for (const t of tools) {
      assert.ok((t.description ?? "").length > 40, `${t.name} has a usable description`);
      assert.equal(t.inputSchema.type, "object", t.name);
    }
    const file = f.path("fr.po");
    const read = await client.callTool({ name: "read_po", arguments: { file_path: file } });
    assert.deepEqual(
      (read.structuredContent as { entries: { msgid: string }[] }).entries.map((e) => e.msgid),
      ["a", "b"],
    );
    const fuzzy = await client.callTool({ name: "find_fuzzy", arguments: { file_path: file } });
    assert.equal((fuzzy.structuredContent as { entries: unknown[] }).entries.length, 1);
    const write = await client.callTool({
      name: "write_po",
      arguments: { file_path: file, entries: [{ msgid: "a", msgstr: "AA", flags: [] }] },
    });
    assert.deepEqual(
      { ...(write.structuredContent as object), message: undefined, revision: undefined },
      {
        success: true,
        message: undefined,
        created: 0,
        updated: 1,
        unchanged: 0,
        revived: 0,
        deleted: 0,
        outcomes: ["updated"],
        revision: undefined,
        written: true,
        layout: { mode: "keep", file_in_layout: true, full_relayout_changed_lines: 0, gettext: "0.21" },
        entries: [{ index: 0, line: 4, msgctxt: null, msgid: "a", state: "translated" }],
        problems: [],
        similar_existing: [],
      },
    );
    const ctx = await client.callTool({
      name: "read_po_context",
      arguments: { file_path: file, msgid: "b" },
    });
    const window = ctx.structuredContent as {
      target_entry: { msgstr: string };
      context_before: { msgstr: string }[];
    };
    assert.equal(window.target_entry.msgstr, "B");
    assert.equal(window.context_before[0]?.msgstr, "AA");

    const missing = await client.callTool({
      name: "read_po",
      arguments: { file_path: f.path("missing.po") },
    });
    assert.equal(missing.isError, true);
    assert.equal((missing.content as { text: string }[])[0]?.text, `File not found: ${f.path("missing.po")}`);
    const outside = await client.callTool({ name: "read_po", arguments: { file_path: "/etc/passwd.po" } });
    assert.equal(outside.isError, true);
    assert.match(
      (outside.content as { text: string }[])[0]?.text ?? "",
      /^Path is outside the catalogue roots/,
    );
    const invalid = await client.callTool({ name: "read_po_context", arguments: { file_path: file } });
    assert.equal(invalid.isError, true);
    assert.deepEqual(
      JSON.parse((invalid.content as { text: string }[])[0]?.text ?? "")[0]?.loc,
      [
        "body",
        "msgid",
      ],
    );
  } finally {
    await client.close();
  }
});
