import assert from "node:assert/strict";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { buildMcpServer } from "../routes/mcp.ts";
import { LineTransport } from "../routes/mcp_stdio.ts";
import { serveTools, TOOL_GROUPS } from "../routes/mod.ts";
import { NO_CATALOGUES, NO_GPSS } from "./_helpers.ts";

/** Runs `main.ts mcp`'s server in-process on the given input lines; returns what it wrote and logged. */
async function runStdio(lines: string[], maxLineBytes = 1 << 20) {
  const written: string[] = [];
  const logged: string[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(lines.join("\n") + "\n"));
      controller.close();
    },
  });
  let closed!: () => void;
  const done = new Promise<void>((resolve) => closed = resolve);
  const transport = new LineTransport(
    input,
    (bytes) => void written.push(new TextDecoder().decode(bytes)),
    (line) => logged.push(line),
    maxLineBytes,
  );
  const deps = {
    config: { apiToken: undefined, maxBodyBytes: 1 << 20 },
    log: (l: string) => logged.push(l),
    catalogues: NO_CATALOGUES,
    gpss: NO_GPSS,
  };
  const tools = serveTools(TOOL_GROUPS, deps);
  const handle = serveStdio(() => buildMcpServer(tools, deps), { transport, onerror: () => {} });
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    closed();
  };
  await done;
  await handle.close?.();
  return { answers: written.join("").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)), logged };
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

Deno.test("MCP stdio: a line that is not JSON gets -32700 Parse error with id null, and one log line", async () => {
  const { answers, logged } = await runStdio(["this is not json", '{"jsonrpc": ', INIT]);
  assert.deepEqual(answers[0], { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  assert.deepEqual(answers[1], { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  assert.equal(answers[2].id, 1);
  assert.equal(answers[2].result.serverInfo.name, "po-tools");
  assert.equal(logged.length, 2);
  for (const line of logged) assert.ok(!line.includes("\n"));
});

Deno.test("MCP stdio: a batch or a non-JSON-RPC value gets -32600 Invalid Request", async () => {
  const { answers } = await runStdio(['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', '{"id":7,"x":1}', "42"]);
  assert.equal(answers.length, 3);
  assert.equal(answers[0].error.code, -32600);
  assert.equal(answers[1].error.code, -32600);
  assert.equal(answers[1].id, 7);
  assert.equal(answers[2].error.code, -32600);
  assert.equal(answers[2].id, null);
});

Deno.test("MCP stdio: a line over the body limit is answered, not kept", async () => {
  const { answers } = await runStdio([`{"pad":"${"x".repeat(5000)}"}`, INIT], 1024);
  assert.equal(answers[0].error.code, -32600);
  assert.match(answers[0].error.message, /limited to 1024 bytes/);
  assert.equal(answers[1].id, 1);
});

Deno.test("MCP stdio: tool names are looked up as own properties only", async () => {
  const calls = ["constructor", "hasOwnProperty", "__proto__"].map((name, i) =>
    JSON.stringify({ jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name, arguments: {} } })
  );
  const { answers } = await runStdio([
    INIT,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    ...calls,
  ]);
  const byId = new Map(answers.map((a) => [a.id, a]));
  for (const [i, name] of ["constructor", "hasOwnProperty", "__proto__"].entries()) {
    const a = byId.get(10 + i);
    assert.ok(a, name);
    assert.equal(a.error?.code, -32602, name);
    assert.equal(a.error?.message, `Tool ${name} not found`);
  }
});
