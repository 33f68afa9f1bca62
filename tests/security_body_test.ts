/**
 * Request bodies from untrusted clients (issue 14 items 2, 5, 6; issue 23 item 1): bodies are
 * read as a stream, refused when their type is not JSON, reported linearly when malformed, and
 * answered with a bounded 422 however many errors they hold.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { TooLargeError } from "../lib/errors.ts";
import { pythonJsonError, readBodyBytes } from "../routes/json_body.ts";
import { SearchPatentsRequest } from "../routes/patents.ts";
import {
  boundedDetail,
  excerpt,
  literalExpected,
  MAX_DETAIL_BYTES,
  MAX_ECHO_CHARS,
  MAX_ERROR_ITEMS,
  MAX_FULLY_VALIDATED_VALUES,
  MAX_MESSAGE_CHARS,
  type PydanticError,
  RequestValidationError,
  validateJson,
} from "../routes/validation.ts";
import { poFixture, postJson, testApp } from "./_helpers.ts";
import { countReads } from "./_work.ts";

const MIB = 1024 * 1024;
const utf8 = new TextEncoder();

/** The largest 422 answer we accept, in bytes: the detail's cap plus `{"detail":}`. */
const MAX_ANSWER_BYTES = MAX_DETAIL_BYTES + 16;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A request whose body arrives as the given chunks. */
function chunkedRequest(chunks: Uint8Array[], headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/new/endpoint/", {
    method: "POST",
    headers,
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  });
}

/** A body stream that sends `first` and then never ends (a client that stalls). */
function stalledBody(first: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Item 5: bodies are read as a stream against the limit
// ---------------------------------------------------------------------------------------------

Deno.test("readBodyBytes returns a one-chunk body as it is and joins several chunks in order", async () => {
  const one = utf8.encode('{"name":"Ada"}');
  assert.equal(await readBodyBytes(chunkedRequest([one]), 100), one, "no copy for one chunk");
  const parts = ["[1,", "2,", "3]"].map((s) => utf8.encode(s));
  const joined = await readBodyBytes(chunkedRequest(parts, { "content-length": "7" }), 100);
  assert.equal(new TextDecoder().decode(joined), "[1,2,3]");
  // Larger than the first buffer, in many chunks, without a declared length.
  const big = Array.from({ length: 300 }, (_, i) => new Uint8Array(1000).fill(i % 256));
  const all = await readBodyBytes(chunkedRequest(big), 1 * MIB);
  assert.equal(all.byteLength, 300_000);
  assert.ok(big.every((chunk, i) => all[i * 1000] === chunk[0] && all[i * 1000 + 999] === chunk[999]));
});

Deno.test("readBodyBytes refuses a declared length over the limit at once, without reading", async () => {
  const request = new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-length": String(16 * MIB + 1) },
    body: stalledBody(utf8.encode("{")),
  });
  await assert.rejects(
    () => readBodyBytes(request, 16 * MIB),
    (e: unknown) =>
      e instanceof TooLargeError && e.message === `Request body too large: the limit is ${16 * MIB} bytes`,
  );
  await request.body?.cancel();
});

Deno.test("readBodyBytes refuses a body longer than its declared length, and one over the limit", async () => {
  const parts = ["0123", "4567", "89"].map((s) => utf8.encode(s));
  await assert.rejects(
    () => readBodyBytes(chunkedRequest(parts, { "content-length": "5" }), 100),
    (e: unknown) =>
      e instanceof TooLargeError &&
      e.message === "Request body too large: longer than its Content-Length of 5 bytes",
  );
  await assert.rejects(
    () => readBodyBytes(chunkedRequest(parts), 9),
    (e: unknown) =>
      e instanceof TooLargeError && e.message === "Request body too large: the limit is 9 bytes",
  );
});

Deno.test("20 connections that declare 16 MiB bodies and send only headers do not raise RSS by their declared size", async () => {
  // Measured in a process of its own: other test files share this one under --parallel.
  const child = new URL("./_pending_bodies_child.ts", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      child.href,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { grownMiB, statuses, lines } = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    grownMiB: number;
    statuses: number[];
    lines: string[];
  };
  // A small request is answered before, during and after the 20 pending bodies.
  assert.deepEqual(statuses, [200, 200, 200]);
  // Reserving the declared lengths would be 20 × 16 = 320 MiB.
  assert.ok(grownMiB < 64, `RSS grew by ${grownMiB.toFixed(0)} MiB with 20 bodies pending`);
  // Each dropped body is a 400, as FastAPI answers a body it could not read, not a logged bug.
  assert.deepEqual(lines.filter((l) => !/^POST \/new\/endpoint\/ (200|400) /.test(l)), []);
  assert.equal(lines.filter((l) => / 400 /.test(l)).length, 20);
});

// ---------------------------------------------------------------------------------------------
// Item 6: reporting a JSON syntax error is linear in the body
// ---------------------------------------------------------------------------------------------

/** `[1,1,…,1,x]` of about `bytes` characters: valid JSON up to its very end. */
function manyNumbers(bytes: number, last = "x"): string {
  return "[" + "1,".repeat(Math.floor(bytes / 2)) + last + "]";
}

Deno.test("pythonJsonError keeps Python's messages and code point positions", () => {
  // Each expectation is what CPython 3.12's json.loads says.
  const cases: [string, string, number][] = [
    ['["😀", x]', "Expecting value", 6],
    ['{"😀😀": 1, "a" 2}', "Expecting ':' delimiter", 14],
    ['"😀\\q"', "Invalid \\escape", 2],
    ["[1,1,1,x]", "Expecting value", 7],
    ["[1.5e3, 0x1]", "Expecting ',' delimiter", 9],
    ['"ab\\u12"', "Invalid \\uXXXX escape", 4],
    ["[-Infinity, -]", "Expecting value", 12],
    ["[1] 😀", "Extra data", 4],
  ];
  for (const [text, error, position] of cases) {
    assert.deepEqual(pythonJsonError(text), { error, position }, text);
  }
});

Deno.test("pythonJsonError reads each character of 4 MiB of numbers a few times at most, at any size", () => {
  // Characters read, not milliseconds: the count is the same on any machine at any load (the
  // timings are in bench/). The old scanner copied a 400-character window per number: about 200
  // characters read per character of the body.
  const perCharacter: number[] = [];
  for (const bytes of [256 * 1024, 4 * MIB]) {
    const text = manyNumbers(bytes);
    const { result, reads } = countReads(() => pythonJsonError(text));
    assert.deepEqual(result, { error: "Expecting value", position: text.length - 2 });
    perCharacter.push(reads / text.length);
  }
  const [small, big] = perCharacter as [number, number];
  assert.ok(big <= 4, `${big.toFixed(2)} characters read per character of a 4 MiB body`);
  // Linear: 16× the body, 16× the reads (quadratic would be 256×).
  assert.ok(
    big <= small * 1.05,
    `${small.toFixed(3)} reads per character at 256 KiB, ${big.toFixed(3)} at 4 MiB`,
  );
});

Deno.test("a 4 MiB body of numbers ending in garbage gets Python's 422 while a small request is answered", async () => {
  const { app } = testApp({ config: { apiToken: undefined, maxBodyBytes: 16 * MIB } });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const text = manyNumbers(4 * MIB);
  const big = fetch(`${base}/new/endpoint/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: text,
  });
  await delay(20);
  const small = await fetch(`${base}/new/endpoint/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"name":"Ada"}',
  });
  assert.equal(small.status, 200);
  assert.deepEqual(await small.json(), { message: "Hello, Ada!" });
  const res = await big;
  assert.equal(res.status, 422);
  assert.deepEqual(await res.json(), {
    detail: [{
      type: "json_invalid",
      loc: ["body", text.length - 2],
      msg: "JSON decode error",
      input: {},
      ctx: { error: "Expecting value" },
    }],
  });
  // How long the small request waits is measured in bench/, not asserted here: the test above
  // bounds the scanner's work (the old one held the whole server ~40 s on this body).
});

// ---------------------------------------------------------------------------------------------
// Item 2 (bodies): a Content-Type that is present and not JSON is refused with 415
// ---------------------------------------------------------------------------------------------

Deno.test("a body whose Content-Type is present and not JSON is refused with 415, before it is read", async (t) => {
  const { app } = testApp();
  const refused = [
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonp",
    "text/json",
    "application/json, text/plain",
  ];
  for (const type of refused) {
    await t.step(type, async () => {
      const res = await postJson(app, "/new/endpoint/", { name: "Ada" }, { "content-type": type });
      assert.equal(res.status, 415);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(await res.json(), { detail: "Unsupported Media Type: expected application/json" });
    });
  }
  await t.step("a body that never ends is not waited for", async () => {
    const body = stalledBody(utf8.encode('{"name":'));
    const res = await app.request("/new/endpoint/", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body,
    });
    assert.equal(res.status, 415);
    await res.body?.cancel();
    await body.cancel();
  });
});

Deno.test("JSON bodies with no Content-Type, application/json or application/*+json are still read", async () => {
  const { app } = testApp();
  for (
    const headers of [
      {},
      { "content-type": "" },
      { "content-type": "application/json" },
      { "content-type": "Application/JSON; charset=utf-8" },
      { "content-type": "application/vnd.api+json" },
    ] as Record<string, string>[]
  ) {
    const res = await postJson(app, "/new/endpoint/", { name: "Ada" }, headers);
    assert.equal(res.status, 200, JSON.stringify(headers));
    assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
  }
});

// ---------------------------------------------------------------------------------------------
// Issue 23 item 1: a 422 stays small whatever the request
// ---------------------------------------------------------------------------------------------

const FIELD_TAG = "literal['title','abstract','claims','patent_number','publication_date'," +
  "'application_number','application_date','applicant_name','first_applicant_name','applicant_country'," +
  "'first_applicant_country','inventor_name','inventor_country','agent_name','examiner','priority'," +
  "'priority_date','ipc','first_ipc','cpc','first_cpc','loc','fi','f_term','d_term','uspc','cited_patents']";
const FIELDS_EXPECTED = "'title', 'abstract', 'claims', 'patent_number', 'publication_date', " +
  "'application_number', 'application_date', 'applicant_name', 'first_applicant_name', " +
  "'applicant_country', … (16 more) or 'cited_patents'";

/** POSTs a body and returns status, answer size and detail, checking the answer is JSON. */
async function post422(app: ReturnType<typeof testApp>["app"], path: string, body: string) {
  const res = await postJson(app, path, body);
  const bytes = await res.bytes();
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const detail = JSON.parse(new TextDecoder().decode(bytes)).detail as PydanticError[];
  return { status: res.status, size: bytes.byteLength, detail };
}

Deno.test("bad search_field values: the first 20 items as before, then how many more", async () => {
  const { app } = testApp();
  const n = 15_000;
  const body = JSON.stringify({ keywords: "a", search_field: Array(n).fill("x") });
  const { status, size, detail } = await post422(app, "/tools/search_patents", body);
  assert.equal(status, 422);
  assert.ok(size <= MAX_ANSWER_BYTES, `a ${size}-character answer`);
  assert.equal(detail.length, MAX_ERROR_ITEMS + 1);
  assert.deepEqual(detail[0], {
    type: "literal_error",
    loc: ["body", "search_field", FIELD_TAG],
    msg: `Input should be ${FIELDS_EXPECTED}`,
    input: `<list of ${n} items>`,
    ctx: { expected: FIELDS_EXPECTED },
  });
  for (let i = 1; i < MAX_ERROR_ITEMS; i++) {
    assert.deepEqual(detail[i], {
      type: "literal_error",
      loc: ["body", "search_field", `list[${FIELD_TAG}]`, i - 1],
      msg: `Input should be ${FIELDS_EXPECTED}`,
      input: "x",
      ctx: { expected: FIELDS_EXPECTED },
    });
  }
  // One error for the single-value branch, one per element for the list branch.
  assert.deepEqual(detail[MAX_ERROR_ITEMS], {
    type: "too_many_errors",
    loc: ["body"],
    msg: `… and ${n + 1 - MAX_ERROR_ITEMS} more errors`,
    input: null,
  });
});

Deno.test("100 KB of bad search_field values (25.7 MB answered before) get a small 422", async () => {
  const { app } = testApp();
  const body = JSON.stringify({ keywords: "a", search_field: Array(25_000).fill("x") });
  assert.ok(body.length > 100_000);
  const { status, size, detail } = await post422(app, "/tools/search_patents", body);
  assert.equal(status, 422);
  assert.ok(size <= MAX_ANSWER_BYTES, `a ${size}-character answer`);
  assert.deepEqual(detail.map((d) => [d.type, d.loc]), [
    ["literal_error", ["body", "search_field", FIELD_TAG]],
    ["literal_error", ["body", "search_field", `list[${FIELD_TAG}]`, 0]],
    ["too_many_errors", ["body"]],
  ]);
});

Deno.test("5 MB of bad databases codes or search_field values: a small 422, quickly, not a 500", async (t) => {
  const { app } = testApp({ config: { apiToken: undefined, maxBodyBytes: 16 * MIB } });
  for (const field of ["databases", "search_field"]) {
    await t.step(field, async () => {
      const body = JSON.stringify({ keywords: "a", [field]: Array(1_250_000).fill("x") });
      const started = performance.now();
      const { status, size, detail } = await post422(app, "/tools/search_patents", body);
      const ms = performance.now() - started;
      assert.equal(status, 422);
      assert.ok(size <= MAX_ANSWER_BYTES, `a ${size}-character answer`);
      assert.equal(detail[0]?.type, "literal_error");
      assert.equal(detail.at(-1)!.type, "too_many_errors");
      assert.match(detail.at(-1)!.msg, /possibly more errors/);
      console.log(`5 MB of bad ${field}: ${size}-character 422 in ${ms.toFixed(0)} ms`);
    });
  }
});

Deno.test("/po/write with entries [0, 0, …] answers a bounded 422 and writes nothing", async () => {
  await using fx = await poFixture();
  for (const n of [1000, MAX_FULLY_VALIDATED_VALUES * 4]) {
    const body = { file_path: fx.path("new.po"), entries: Array(n).fill(0) };
    const res = await fx.post("/po/write", body);
    assert.equal(res.status, 422);
    const size = JSON.stringify(res.body).length;
    assert.ok(size < 8 * 1024, `${n} entries: a ${size}-character answer`);
    assert.deepEqual(res.body.detail[0].loc, ["body", "entries", 0]);
    assert.equal(res.body.detail[0].input, 0);
    assert.equal(res.body.detail.at(-1).type, "too_many_errors");
  }
  assert.deepEqual([...Deno.readDirSync(fx.root)], []);
});

function validationDetail(schema: Parameters<typeof validateJson>[0], data: unknown): PydanticError[] {
  try {
    validateJson(schema, data);
  } catch (e) {
    if (e instanceof RequestValidationError) return e.detail;
    throw e;
  }
  assert.fail("the data was valid");
}

Deno.test("validateJson (HTTP and MCP) bounds every echo: keys, long strings, big objects, messages", async (t) => {
  await t.step("5000 unknown keys with 2000-character names: counted, names cut", () => {
    const data: Record<string, unknown> = { keywords: "a" };
    for (let i = 0; i < 5000; i++) data[`${i}${"k".repeat(2000)}`] = i;
    const detail = validationDetail(SearchPatentsRequest, data);
    assert.equal(detail.length, MAX_ERROR_ITEMS + 1);
    assert.deepEqual(detail[0], {
      type: "extra_forbidden",
      loc: ["body", `0${"k".repeat(999)}… [1001 more characters]`],
      msg: "Extra inputs are not permitted",
      input: 0,
    });
    assert.ok(utf8.encode(JSON.stringify(detail)).byteLength <= MAX_DETAIL_BYTES);
    assert.equal(detail.at(-1)!.msg, `… and ${5000 - MAX_ERROR_ITEMS} more errors`);
  });
  await t.step("100 unknown keys of 2000 CJK characters: the byte cap holds", () => {
    const data: Record<string, unknown> = { keywords: "a" };
    for (let i = 0; i < 100; i++) data[`${i}${"鍵".repeat(2000)}`] = "値".repeat(300);
    const detail = validationDetail(SearchPatentsRequest, data);
    const bytes = utf8.encode(JSON.stringify(detail)).byteLength;
    assert.ok(bytes <= MAX_DETAIL_BYTES, `${bytes} bytes`);
    assert.ok(detail.length < MAX_ERROR_ITEMS, `${detail.length} items`);
    assert.equal(detail.at(-1)!.msg, `… and ${100 - detail.length + 1} more errors`);
  });
  await t.step("100k unknown keys: more values than are fully validated", () => {
    const data: Record<string, unknown> = { keywords: "a" };
    for (let i = 0; i < 100_000; i++) data[`k${i}`] = i;
    const detail = validationDetail(SearchPatentsRequest, data);
    assert.equal(detail.length, MAX_ERROR_ITEMS + 1);
    assert.equal(detail[0]?.type, "extra_forbidden");
    assert.equal(
      detail.at(-1)!.msg,
      `… and possibly more errors: a body of more than ${MAX_FULLY_VALIDATED_VALUES} values ` +
        "is checked only up to its first error",
    );
  });
  // A schema of our own: a validator whose message quotes the input, as custom ones may.
  const Probe = z.strictObject({
    name: z.string(),
    tags: z.array(z.string()).optional(),
    note: z.string().optional().superRefine((value, ctx) => {
      if (value) ctx.addIssue({ code: "custom", message: `not a note: ${value}` });
    }),
  });
  await t.step("a 1 MB string in a validated field: input and message cut", () => {
    const detail = validationDetail(Probe, { name: "a", note: "9".repeat(MIB) });
    assert.deepEqual(detail, [{
      type: "value_error",
      loc: ["body", "note"],
      msg: `not a note: ${"9".repeat(MAX_MESSAGE_CHARS - 12)}… [${
        MIB - MAX_MESSAGE_CHARS + 12
      } more characters]`,
      input: `${"9".repeat(MAX_ECHO_CHARS)}… [${MIB - MAX_ECHO_CHARS} more characters]`,
    }]);
  });
  await t.step("a missing field in a large body: the parent is summarised", () => {
    const detail = validationDetail(Probe, { tags: Array(5000).fill("t") });
    assert.deepEqual(detail, [{
      type: "missing",
      loc: ["body", "name"],
      msg: "Field required",
      input: "<dict of 1 key>",
    }]);
  });
  await t.step("exactly 20 errors are all listed; 21 are 20 and one more", () => {
    for (const [n, last] of [[20, "literal_error"], [21, "too_many_errors"]] as const) {
      const detail = validationDetail(SearchPatentsRequest, { keywords: "a", databases: Array(n).fill("x") });
      assert.equal(detail.length, n === 20 ? 20 : 21);
      assert.equal(detail.at(-1)!.type, last);
      if (n === 21) assert.equal(detail.at(-1)!.msg, "… and 1 more error");
    }
  });
  await t.step("small inputs are echoed exactly as before", () => {
    const detail = validationDetail(SearchPatentsRequest, { keywords: "a", databases: ["TWA", "NOPE"] });
    assert.deepEqual(detail, [{
      type: "literal_error",
      loc: ["body", "databases", 1],
      msg:
        "Input should be 'TWA', 'TWB', 'TWD', 'USA', 'USB', 'USD', 'JPA', 'JPB', 'JPD', 'EPA', … (12 more) or 'OTB'",
      input: "NOPE",
      ctx: {
        expected:
          "'TWA', 'TWB', 'TWD', 'USA', 'USB', 'USD', 'JPA', 'JPB', 'JPD', 'EPA', … (12 more) or 'OTB'",
      },
    }]);
  });
});

Deno.test("boundedDetail, excerpt and literalExpected keep small values as pydantic has them", () => {
  assert.equal(literalExpected(["a"]), "'a'");
  assert.equal(literalExpected(["a", "b", "c"]), "'a', 'b' or 'c'");
  const eleven = Array.from({ length: 11 }, (_, i) => `v${i}`);
  assert.equal(literalExpected(eleven), eleven.slice(0, 10).map((v) => `'${v}'`).join(", ") + " or 'v10'");
  assert.equal(
    literalExpected([...eleven, "v11"]),
    eleven.slice(0, 10).map((v) => `'${v}'`).join(", ") + ", … (1 more) or 'v11'",
  );
  assert.deepEqual(excerpt({ a: [1, "b"] }), { a: [1, "b"] });
  assert.equal(excerpt(Array(5000).fill(0)), "<list of 5000 items>");
  assert.equal(excerpt("😀".repeat(150)), `${"😀".repeat(100)}… [100 more characters]`);
  assert.equal(excerpt(`x${"😀".repeat(150)}`), `x${"😀".repeat(99)}… [102 more characters]`);
  const item = { type: "t", loc: ["body"], msg: "m", input: 1 };
  assert.deepEqual(boundedDetail([item]), [item]);
  const many = boundedDetail(Array(1000).fill({ ...item, input: "y".repeat(900) }));
  assert.equal(many.length, MAX_ERROR_ITEMS + 1);
  assert.equal(many.at(-1)!.msg, "… and 980 more errors");
  assert.ok(utf8.encode(JSON.stringify(many)).byteLength <= MAX_DETAIL_BYTES);
});

Deno.test("zod stops at the first failing element when asked (what large bodies rely on)", () => {
  // validateJson passes zod's `abortEarly` for bodies of more than MAX_FULLY_VALIDATED_VALUES
  // values; it is not in zod's public types, so a zod upgrade that drops it must fail here.
  const result = z.array(z.enum(["a", "b"])).safeParse(
    Array(100_000).fill("x"),
    { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>,
  );
  assert.equal(result.success, false);
  assert.equal(result.error?.issues.length, 1);
});
