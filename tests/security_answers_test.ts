/**
 * No answer far larger than its request: one answer is capped (MAX_RESPONSE_BYTES) with a 4xx that
 * says how to ask for less, MCP results are not pretty-printed, JSON-RPC batches are refused, and
 * large answers being sent hold a shared allowance (MAX_INFLIGHT_BYTES), past which the service
 * answers 503 with Retry-After while small requests go on being served.
 */
import assert from "node:assert/strict";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { postJson, testApp } from "./_helpers.ts";
import { rawRequest } from "./_raw_http.ts";
import { inflightBudget } from "../routes/deps.ts";

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

/** A catalogue of `n` tiny entries: its /po/read answer is many times its size. */
function tinyEntries(n: number): string {
  const parts = [HEADER];
  for (let i = 0; i < n; i++) parts.push(`msgid "${i.toString(36)}"\nmsgstr ""\n\n`);
  return parts.join("");
}

async function fixture(files: Record<string, string>, config: Record<string, unknown> = {}) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-answers-" }));
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${root}/${name}`, text);
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const t = testApp({ catalogues, config: { apiToken: undefined, maxBodyBytes: 1 << 20, ...config } });
  return {
    ...t,
    root,
    path: (name: string) => `${root}/${name}`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

Deno.test("a /po/read answer over MAX_RESPONSE_BYTES is a 422 that says how to ask for less", async () => {
  const text = tinyEntries(20_000);
  await using fx = await fixture({ "tiny.po": text }, { maxResponseBytes: 256 * 1024 });
  for (const path of ["/po/read", "/po/find_fuzzy", "/po/read"]) {
    const res = await postJson(fx.app, path, { file_path: fx.path("tiny.po") });
    if (path === "/po/find_fuzzy") {
      assert.equal(res.status, 200); // nothing is fuzzy: a small answer
      await res.body?.cancel();
      continue;
    }
    assert.equal(res.status, 422);
    const { detail } = await res.json();
    assert.match(detail, /over the limit of 262144 bytes \(MAX_RESPONSE_BYTES\)/);
    assert.match(detail, /read_po_context/);
  }
  // The same file with the default limit is read whole: the limit is what refused it.
  const whole = testApp({
    catalogues: new CatalogueStore({ roots: [fx.root], codec: PO_CODEC }),
  }).app;
  const res = await postJson(whole, "/po/read", { file_path: fx.path("tiny.po") });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).entries.length, 20_000);
  assert.ok(text.length < 256 * 1024 * 2, "the file itself is small");
});

Deno.test("/po/read_context with a huge context_size is capped like any answer", async () => {
  await using fx = await fixture({ "tiny.po": tinyEntries(20_000) }, { maxResponseBytes: 64 * 1024 });
  const res = await postJson(fx.app, "/po/read_context", {
    file_path: fx.path("tiny.po"),
    msgid: "a",
    context_size: 1_000_000_000,
  });
  assert.equal(res.status, 422);
  assert.match((await res.json()).detail, /MAX_RESPONSE_BYTES/);
  const small = await postJson(fx.app, "/po/read_context", { file_path: fx.path("tiny.po"), msgid: "a" });
  assert.equal(small.status, 200);
  assert.equal((await small.json()).target_entry.msgid, "a");
});

function mcp(app: ReturnType<typeof testApp>["app"], message: unknown) {
  return app.request("/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: new TextEncoder().encode(JSON.stringify(message)),
  });
}

function call(id: number, name: string, args: unknown) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

async function rpcResult(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  // A JSON answer, or one SSE event carrying it.
  const json = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
  return JSON.parse(json);
}

Deno.test("MCP: a JSON-RPC batch is refused before any call runs", async () => {
  await using fx = await fixture({ "a.po": tinyEntries(10) });
  const batch = Array.from({ length: 41 }, (_, i) => call(i + 1, "read_po", { file_path: fx.path("a.po") }));
  const res = await mcp(fx.app, batch);
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /batches are not supported/);
  assert.equal(body.id, null);
});

Deno.test("MCP: a large tool result is sent once (a summary as text), and is capped like an HTTP answer", async () => {
  await using fx = await fixture({ "a.po": tinyEntries(2_000) }, { maxResponseBytes: 4 * 1024 * 1024 });
  const read = await rpcResult(await mcp(fx.app, call(1, "read_po", { file_path: fx.path("a.po") })));
  const result = read.result as { content: { text: string }[]; structuredContent: { entries: unknown[] } };
  const text = result.content[0]?.text ?? "";
  const json = JSON.stringify(result.structuredContent);
  assert.equal(result.structuredContent.entries.length, 2_000);
  // Over MIRRORED_RESULT_BYTES: the JSON once, in structured content; the text says what it holds.
  assert.ok(json.length > 4096 && text.length < 1000, `text of ${text.length} characters`);
  assert.match(text, /"entries":"\[2000 items: in structuredContent\]"/);

  // The JSON must fit the limit: a limit under it refuses it with the hint.
  const tight = await fixture({ "a.po": tinyEntries(2_000) }, {
    maxResponseBytes: Math.floor(json.length * 0.9),
  });
  try {
    const refused = await rpcResult(
      await mcp(tight.app, call(2, "read_po", { file_path: tight.path("a.po") })),
    );
    const r = refused.result as { isError: boolean; content: { text: string }[] };
    assert.equal(r.isError, true);
    assert.match(r.content[0]?.text ?? "", /MAX_RESPONSE_BYTES/);
    assert.match(r.content[0]?.text ?? "", /read_po_context/);
  } finally {
    await tight[Symbol.asyncDispose]();
  }
});

Deno.test("MCP: tools/call with a name of Object's prototype is 'not found', never 'disabled'", async () => {
  const { app } = testApp();
  for (const name of ["constructor", "hasOwnProperty", "__proto__", "toString", "valueOf"]) {
    const answer = await rpcResult(await mcp(app, call(1, name, {})));
    const error = answer.error as { code: number; message: string } | undefined;
    const result = answer.result as { isError?: boolean; content?: { text: string }[] } | undefined;
    const message = error?.message ?? result?.content?.[0]?.text ?? "";
    assert.ok(error !== undefined || result?.isError === true, name);
    assert.match(message, new RegExp(`Tool ${name.replace(/_/g, "_")} not found`), name);
    assert.doesNotMatch(message, /disabled/, name);
  }
});

const READ_HEAD = "POST /po/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json";

/** `POST /po/read` of `body` until it is answered 200 (a 503 meanwhile), 30 s at most. */
async function until200(port: number, body: string): Promise<Awaited<ReturnType<typeof rawRequest>>> {
  let r = await rawRequest(port, READ_HEAD, body);
  for (let i = 0; i < 150 && r.status === 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    r = await rawRequest(port, READ_HEAD, body);
  }
  return r;
}

Deno.test("slow readers of large answers hold the shared allowance; past it a large read is 503, small ones go on", async () => {
  // Each answer is ~8 MB, more than the 4 MiB allowance: one held answer is let through alone, and
  // while it is held every other large read is refused.
  const text = tinyEntries(40_000);
  await using fx = await fixture({ "big.po": text, "small.po": tinyEntries(3) }, {
    maxInflightBytes: 4 * 1024 * 1024,
    maxResponseBytes: 32 * 1024 * 1024,
  });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, fx.app.fetch);
  const port = server.addr.port;
  const body = JSON.stringify({ file_path: fx.path("big.po") });
  const request = new TextEncoder().encode(
    `POST /po/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  // Readers that send their request and never read the answer.
  const slow: Deno.Conn[] = [];
  try {
    let refused: Awaited<ReturnType<typeof rawRequest>> | null = null;
    for (let i = 0; i < 6 && refused === null; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      slow.push(conn);
      await conn.write(request);
      // Let the server take the request and start its answer.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const probe = await rawRequest(
        port,
        "POST /po/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json",
        body,
      );
      if (probe.status === 503) refused = probe;
    }
    assert.ok(refused, "a large read was refused while slow readers held the allowance");
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.match(JSON.parse(refused.body).detail, /busy with other large answers/);
    const small = await rawRequest(
      port,
      "POST /po/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json",
      JSON.stringify({ file_path: fx.path("small.po") }),
    );
    assert.equal(small.status, 200);
  } finally {
    for (const conn of slow) conn.close();
  }
  // Once the slow readers are gone, their share is given back (as soon as the server sees them
  // gone: polled, not timed, so a loaded machine only makes this wait longer).
  const again = await until200(port, body);
  assert.equal(again.status, 200);
});

Deno.test("a reader that does not take a large answer within REQUEST_TIMEOUT_S is cut off and its share given back", async () => {
  // An answer of ~24 MB: far more than loopback's socket buffers take from a reader that reads
  // nothing (a send buffer of at most 4 MiB, tcp_wmem's ceiling, and a small receive window), so
  // the server cannot finish writing it and holds its share until the time limit cuts it off.
  await using fx = await fixture({ "big.po": tinyEntries(120_000) }, {
    maxInflightBytes: 4 * 1024 * 1024,
    maxResponseBytes: 32 * 1024 * 1024,
    requestTimeoutMs: 3000,
  });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, fx.app.fetch);
  const port = server.addr.port;
  const budget = inflightBudget(fx.deps);
  const body = JSON.stringify({ file_path: fx.path("big.po") });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(
      `POST /po/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ));
    // Polled, not timed: waits until the server has started the slow reader's answer (the load
    // alone holds 4 × 1.9 MB at most; the answer holds its ~24 MB).
    for (let i = 0; i < 600 && budget.used < 16 * 1024 * 1024; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(budget.used >= 16 * 1024 * 1024, `the slow reader's answer holds ${budget.used} bytes`);
    const during = await rawRequest(port, READ_HEAD, body);
    assert.equal(during.status, 503, during.body.slice(0, 300));
    assert.match(JSON.parse(during.body).detail, /busy with other large answers/);
    // The slow reader still holds its connection open, but past the time limit its answer is cut
    // and its share given back; without the limit it would hold it for ever and this would fail.
    const after = await until200(port, body);
    assert.equal(after.status, 200);
    assert.equal(budget.used, 0, "the cut-off answer and the probes gave their shares back");
  } finally {
    conn.close();
  }
});

Deno.test("loads of large catalogues take their share of the allowance: past it a load is 503, then served again", async () => {
  const { ByteBudget } = await import("../lib/byte_budget.ts");
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-loads-" }));
  try {
    await Deno.writeTextFile(`${root}/a.po`, tinyEntries(80_000)); // ~1.5 MB: a load takes 4 × that
    const budget = new ByteBudget(8 * 1024 * 1024);
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC, loadAllowance: budget });
    const { app } = testApp({ catalogues, budget, config: { apiToken: undefined, maxBodyBytes: 1 << 20 } });
    const context = () =>
      postJson(app, "/po/read_context", { file_path: `${root}/a.po`, msgid: "a", context_size: 0 });
    // Other large work in progress holds most of the allowance.
    const other = budget.take(4 * 1024 * 1024, "test work");
    const busy = await context();
    assert.equal(busy.status, 503);
    assert.equal(busy.headers.get("retry-after"), "5");
    assert.match((await busy.json()).detail, /busy with other large catalogue loads/);
    assert.equal(budget.used, 4 * 1024 * 1024, "the refused load took nothing");
    other();
    const served = await context();
    assert.equal(served.status, 200);
    await served.body?.cancel();
    assert.equal(budget.used, 0, "the load gave its share back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("MCP: large results are built a few at a time; past that a call is told the server is busy", async () => {
  await using fx = await fixture({ "a.po": tinyEntries(20_000) }); // a ~4 MB result: a large one
  const read = (id: number) => mcp(fx.app, call(id, "read_po", { file_path: fx.path("a.po") }));
  const isBusy = (r: Record<string, unknown>) => {
    const result = r.result as { isError?: boolean; content: { text: string }[] };
    return result.isError === true && /busy/.test(result.content[0]?.text ?? "");
  };
  // Two results whose answers nobody takes yet: they hold their places until taken. Their tools
  // run on their own time (an SSE answer is returned first): each is awaited until it holds its
  // share of the allowance, or on a loaded machine a probe below could take the second's place.
  const budget = inflightBudget(fx.deps);
  const heldBy = async (id: number, bytes: number) => {
    const response = await read(id);
    for (let i = 0; i < 600 && budget.used <= bytes; i++) await new Promise((r) => setTimeout(r, 50));
    return response;
  };
  const first = await heldBy(1, 0);
  const held = [first, await heldBy(2, budget.used)];
  let busy = false;
  for (let id = 3; id < 200 && !busy; id++) {
    busy = isBusy(await rpcResult(await read(id)));
    if (!busy) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(busy, "a third large result was refused while two were held");
  for (const r of await Promise.all(held.map(rpcResult))) assert.equal(isBusy(r), false);
  // Once taken, their places are free again.
  assert.equal(isBusy(await rpcResult(await read(500))), false);
});
