import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type Tool } from "../routes/tool.ts";
import { pyInt } from "../routes/validation.ts";
import { postJson, testApp } from "./_helpers.ts";

/** A tool whose schema has every field kind the FastAPI contract speaks of. */
const Probe = z.strictObject({
  name: z.string(),
  count: pyInt({ ge: 1, le: 500 }).default(30),
  tags: z.array(z.string()).optional(),
  flag: z.boolean().optional(),
  mode: z.enum(["fast", "slow"]).optional(),
  note: z.string().nullable().optional(),
});
const probeTools = [defineTool({
  name: "probe",
  role: "reader",
  path: "/probe",
  summary: "probe",
  description: "probe",
  input: Probe,
  output: z.object({}),
  handle: (input) => input,
})] as Tool[];

Deno.test("POST /new/endpoint/ greets by name", async () => {
  const { app } = testApp();
  const res = await postJson(app, "/new/endpoint/", { name: "Ada" });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
});

Deno.test("POST /new/endpoint/ answers 422 like FastAPI", async (t) => {
  const cases: [string, unknown, unknown][] = [
    ["missing name", {}, [{ type: "missing", loc: ["body", "name"], msg: "Field required", input: {} }]],
    ["name not a string", { name: 5 }, [{
      type: "string_type",
      loc: ["body", "name"],
      msg: "Input should be a valid string",
      input: 5,
    }]],
    ["name null", { name: null }, [{
      type: "string_type",
      loc: ["body", "name"],
      msg: "Input should be a valid string",
      input: null,
    }]],
  ];
  for (const [label, body, detail] of cases) {
    await t.step(label, async () => {
      const { app } = testApp();
      const res = await postJson(app, "/new/endpoint/", body);
      assert.equal(res.status, 422);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(await res.json(), { detail });
    });
  }
});

Deno.test("request validation follows pydantic v2 codes and wording", async (t) => {
  const cases: [string, string, Record<string, string> | undefined, unknown][] = [
    ["wrong type int_parsing", '{"name":"a","count":"ten"}', undefined, [{
      type: "int_parsing",
      loc: ["body", "count"],
      msg: "Input should be a valid integer, unable to parse string as an integer",
      input: "ten",
    }]],
    ["float with fraction", '{"name":"a","count":2.5}', undefined, [{
      type: "int_from_float",
      loc: ["body", "count"],
      msg: "Input should be a valid integer, got a number with a fractional part",
      input: 2.5,
    }]],
    ["list_type", '{"name":"a","tags":"x"}', undefined, [{
      type: "list_type",
      loc: ["body", "tags"],
      msg: "Input should be a valid list",
      input: "x",
    }]],
    ["string_type inside a list", '{"name":"a","tags":["x",3]}', undefined, [{
      type: "string_type",
      loc: ["body", "tags", 1],
      msg: "Input should be a valid string",
      input: 3,
    }]],
    ["bool_type", '{"name":"a","flag":[]}', undefined, [{
      type: "bool_type",
      loc: ["body", "flag"],
      msg: "Input should be a valid boolean",
      input: [],
    }]],
    ["literal_error", '{"name":"a","mode":"warp"}', undefined, [{
      type: "literal_error",
      loc: ["body", "mode"],
      msg: "Input should be 'fast' or 'slow'",
      input: "warp",
      ctx: { expected: "'fast' or 'slow'" },
    }]],
    ["greater_than_equal", '{"name":"a","count":0}', undefined, [{
      type: "greater_than_equal",
      loc: ["body", "count"],
      msg: "Input should be greater than or equal to 1",
      input: 0,
      ctx: { ge: 1 },
    }]],
    ["less_than_equal", '{"name":"a","count":501}', undefined, [{
      type: "less_than_equal",
      loc: ["body", "count"],
      msg: "Input should be less than or equal to 500",
      input: 501,
      ctx: { le: 500 },
    }]],
    ["extra_forbidden", '{"name":"a","colour":"red"}', undefined, [{
      type: "extra_forbidden",
      loc: ["body", "colour"],
      msg: "Extra inputs are not permitted",
      input: "red",
    }]],
    ["non-object body", "[1,2]", undefined, [{
      type: "model_attributes_type",
      loc: ["body"],
      msg: "Input should be a valid dictionary or object to extract fields from",
      input: [1, 2],
    }]],
    ["malformed JSON", '{"name": }', undefined, [{
      type: "json_invalid",
      loc: ["body", 9],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Expecting value" },
    }]],
    ["truncated JSON", '{"name": "a"', undefined, [{
      type: "json_invalid",
      loc: ["body", 12],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Expecting ',' delimiter" },
    }]],
    ["unquoted key", "{name: 1}", undefined, [{
      type: "json_invalid",
      loc: ["body", 1],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Expecting property name enclosed in double quotes" },
    }]],
    ["positions count code points, not UTF-16 units", '{"name": "😀", x}', undefined, [{
      type: "json_invalid",
      loc: ["body", 14],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Expecting property name enclosed in double quotes" },
    }]],
    ["absent body", "", undefined, [{ type: "missing", loc: ["body"], msg: "Field required", input: null }]],
    ["JSON null body", "null", undefined, [{
      type: "missing",
      loc: ["body"],
      msg: "Field required",
      input: null,
    }]],
    ["no content-type is parsed as JSON", '{"name":5}', {}, [{
      type: "string_type",
      loc: ["body", "name"],
      msg: "Input should be a valid string",
      input: 5,
    }]],
    ["a JSON string body is not an object", '"{\\"name\\":\\"a\\"}"', undefined, [{
      type: "model_attributes_type",
      loc: ["body"],
      msg: "Input should be a valid dictionary or object to extract fields from",
      input: '{"name":"a"}',
    }]],
    ["several errors in field order", '{"count":"x","tags":1}', undefined, [
      { type: "missing", loc: ["body", "name"], msg: "Field required", input: { count: "x", tags: 1 } },
      {
        type: "int_parsing",
        loc: ["body", "count"],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: "x",
      },
      { type: "list_type", loc: ["body", "tags"], msg: "Input should be a valid list", input: 1 },
    ]],
  ];
  for (const [label, body, headers, detail] of cases) {
    await t.step(label, async () => {
      const { app } = testApp({}, probeTools);
      const res = await postJson(app, "/probe", body, headers ?? { "content-type": "application/json" });
      assert.equal(res.status, 422);
      assert.deepEqual(await res.json(), { detail });
    });
  }
});

Deno.test("lax pydantic coercions are accepted: integer strings, whole floats, +json types", async () => {
  const { app } = testApp({}, probeTools);
  for (
    const [body, ct] of [['{"name":"a","count":"7"}', "application/json"], [
      '{"name":"a","count":7.0}',
      "application/vnd.api+json",
    ]] as const
  ) {
    const res = await postJson(app, "/probe", body, { "content-type": ct });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).count, 7);
  }
});

Deno.test("invalid UTF-8 in the body is a 400 like FastAPI's", async () => {
  const { app } = testApp({}, probeTools);
  const res = await app.request("/probe", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Uint8Array([0x7b, 0xff, 0x7d]),
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { detail: "There was an error parsing the body" });
});

Deno.test("a body over the limit is refused with 413 before parsing", async () => {
  const { app } = testApp({ config: { apiToken: undefined, maxBodyBytes: 64 } }, probeTools);
  const res = await postJson(app, "/probe", JSON.stringify({ name: "x".repeat(100) }));
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), { detail: "Request body too large: the limit is 64 bytes" });
  // A chunked body without Content-Length is counted while it streams.
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("xxxxxxxxxx"));
      c.close();
    },
  });
  const res2 = await app.request("/probe", {
    method: "POST",
    body: stream,
    headers: { "content-type": "application/json" },
  });
  assert.equal(res2.status, 413);
});

Deno.test("unknown route, wrong method and trailing slashes behave like FastAPI", async (t) => {
  const { app } = testApp();
  await t.step("404", async () => {
    const res = await app.request("/nope", { method: "POST" });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { detail: "Not Found" });
  });
  await t.step("405 with Allow", async () => {
    const res = await app.request("/new/endpoint/");
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST");
    assert.deepEqual(await res.json(), { detail: "Method Not Allowed" });
  });
  await t.step("307 to the slashed form", async () => {
    const res = await app.request("http://localhost/new/endpoint?x=1", { method: "POST" });
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), "http://localhost/new/endpoint/?x=1");
  });
  await t.step("307 to the unslashed form", async () => {
    const res = await app.request("http://localhost/openapi.json/");
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), "http://localhost/openapi.json");
  });
});

Deno.test("an unexpected bug is a 500 with a fixed message, logged server-side only", async () => {
  const boom = [defineTool({
    name: "boom",
    role: "reader",
    path: "/boom",
    summary: "",
    description: "",
    input: null,
    output: z.object({}),
    handle: () => {
      throw new Error("secret /etc/shadow detail");
    },
  })] as Tool[];
  const { app, lines } = testApp({}, boom);
  const res = await app.request("/boom", { method: "POST" });
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.deepEqual(JSON.parse(text), { detail: "Internal Server Error" });
  assert.ok(!text.includes("shadow"));
  assert.ok(lines.some((l) => l.includes("secret /etc/shadow detail")));
});

Deno.test("the request log has method, path, status and duration, never bodies or tokens", async () => {
  const token = "s3cret-token-0123456789";
  const { app, lines } = testApp({ config: { apiToken: token, maxBodyBytes: 1 << 20 } });
  await postJson(app, "/new/endpoint/?q=hidden", { name: "Confidential" }, {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
  });
  assert.equal(lines.length, 1);
  assert.match(lines[0] ?? "", /^POST \/new\/endpoint\/ 200 \d+\.\dms$/);
  // The path the router dispatched on (decoded), with controls escaped, without the query.
  await postJson(app, "/new/%0Aendpoint?q=%0Ahidden", { name: "x" }, {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
  });
  assert.equal(lines.length, 2);
  assert.match(lines[1] ?? "", /^POST \/new\/\\x0aendpoint 404 \d+\.\dms$/);
});

Deno.test("API_TOKEN switches bearer authentication on for everything but the docs", async (t) => {
  const token = "correct-horse-battery-staple";
  const { app } = testApp({ config: { apiToken: token, maxBodyBytes: 1 << 20 } });
  const cases: [string, Record<string, string>, number][] = [
    ["no header", {}, 401],
    ["wrong token", { authorization: "Bearer wrong-horse-battery-staple" }, 401],
    ["wrong scheme", { authorization: `Basic ${token}` }, 401],
    ["right token", { authorization: `Bearer ${token}` }, 200],
  ];
  for (const [label, headers, status] of cases) {
    await t.step(label, async () => {
      const res = await postJson(app, "/new/endpoint/", { name: "Ada" }, {
        "content-type": "application/json",
        ...headers,
      });
      assert.equal(res.status, status);
      if (status === 401) {
        assert.equal(res.headers.get("www-authenticate"), "Bearer");
        assert.deepEqual(await res.json(), { detail: "Not authenticated" });
      } else {
        await res.body?.cancel();
      }
    });
  }
  await t.step("docs and openapi.json stay public", async () => {
    for (const path of ["/docs", "/openapi.json", "/docs/assets/swagger-ui.css"]) {
      const res = await app.request(path);
      assert.equal(res.status, 200, path);
      await res.body?.cancel();
    }
  });
  await t.step("without API_TOKEN no header is needed", async () => {
    const res = await postJson(testApp().app, "/new/endpoint/", { name: "Ada" });
    assert.equal(res.status, 200);
  });
});

Deno.test("the app answers over a real socket", async () => {
  const { app } = testApp();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const res = await fetch(`http://127.0.0.1:${server.addr.port}/new/endpoint/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"name":"Ada"}',
  });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), '{"message":"Hello, Ada!"}');
});

Deno.test("a list over its maximum length is pydantic's too_long, not a number comparison", async () => {
  const tools = [defineTool({
    name: "short",
    role: "reader",
    path: "/short",
    summary: "",
    description: "",
    input: z.object({ tags: z.array(z.string()).max(2) }),
    output: z.object({}),
    handle: () => ({}),
  })] as Tool[];
  const { app } = testApp({}, tools);
  const res = await postJson(app, "/short", { tags: ["a", "b", "c"] });
  assert.equal(res.status, 422);
  assert.deepEqual((await res.json()).detail, [{
    type: "too_long",
    loc: ["body", "tags"],
    msg: "List should have at most 2 items after validation, not 3",
    input: ["a", "b", "c"],
    ctx: { field_type: "List", max_length: 2, actual_length: 3 },
  }]);
});
