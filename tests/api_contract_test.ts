/**
 * The HTTP contract a new user meets first: misspelt fields are refused with the field meant,
 * `/health` answers without the token, and `/openapi.json` declares the version, the bearer
 * scheme, every status with its body, and examples that work on the served catalogues.
 *
 * @module
 */
import assert from "node:assert/strict";
import { countReads } from "./_work.ts";
import { VERSION } from "../lib/version.ts";
import { closestName } from "../lib/closest_name.ts";
import { examplesFor } from "../routes/tool_examples.ts";
import { allTools } from "../routes/mod.ts";
import { poFixture, postJson, REPO_ROOT, testApp } from "./_helpers.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const MENU = HEADER +
  'msgctxt "menu"\nmsgid "Quit"\nmsgstr "Quitter"\n\nmsgid "Quit"\nmsgstr "Quitter le jeu"\n';
const TOKEN = "contract-token-0123456789abcdef";

Deno.test("POST /po/write with a misspelt msgctxt and flags is refused, names the fields meant, and writes nothing", async () => {
  await using f = await poFixture({ "fr.po": MENU });
  const before = await Deno.readFile(f.path("fr.po"));
  const res = await f.post("/po/write", {
    file_path: f.path("fr.po"),
    entries: [{ msgid: "Quit", msgctx: "menu", msgstr: "Fermer", flag: ["fuzzy"] }],
  });
  assert.equal(res.status, 422);
  assert.equal(res.type, "application/json");
  assert.deepEqual(res.body, {
    detail: [
      {
        type: "extra_forbidden",
        loc: ["body", "entries", 0, "msgctx"],
        msg: "Extra inputs are not permitted; did you mean 'msgctxt'?",
        input: "menu",
        ctx: { did_you_mean: "msgctxt" },
      },
      {
        type: "extra_forbidden",
        loc: ["body", "entries", 0, "flag"],
        msg: "Extra inputs are not permitted; did you mean 'flags'?",
        input: ["fuzzy"],
        ctx: { did_you_mean: "flags" },
      },
    ],
  });
  assert.deepEqual(await Deno.readFile(f.path("fr.po")), before, "the catalogue is untouched");
});

Deno.test("every PO request refuses unknown fields; a field with no near name gets pydantic's message alone", async (t) => {
  await using f = await poFixture({ "fr.po": MENU });
  const file = f.path("fr.po");
  const cases: [string, Record<string, unknown>, string, string | null][] = [
    ["/po/read", { file_path: file, filepath: file }, "filepath", "file_path"],
    ["/po/find_fuzzy", { file_path: file, FILE_PATH: file }, "FILE_PATH", "file_path"],
    ["/po/read_context", { file_path: file, msgid: "Quit", msgctx: "menu" }, "msgctx", "msgctxt"],
    ["/po/read_context", { file_path: file, msgid: "Quit", contextsize: 2 }, "contextsize", "context_size"],
    ["/po/write", { file_path: file, entries: [], force: true }, "force", null],
    ["/po/write", { file_path: file, entries: [], dryrun: true }, "dryrun", "dry_run"],
  ];
  for (const [path, body, key, meant] of cases) {
    await t.step(`${path} with ${key}`, async () => {
      const res = await f.post(path, body);
      assert.equal(res.status, 422);
      const [item] = res.body.detail;
      assert.equal(item.type, "extra_forbidden");
      assert.deepEqual(item.loc, ["body", key]);
      if (meant === null) {
        assert.equal(item.msg, "Extra inputs are not permitted");
        assert.equal(item.ctx, undefined);
      } else {
        assert.equal(item.msg, `Extra inputs are not permitted; did you mean '${meant}'?`);
        assert.deepEqual(item.ctx, { did_you_mean: meant });
      }
    });
  }
  await t.step("the greeting keeps FastAPI's lax model: extra fields are ignored", async () => {
    const res = await postJson(f.app, "/new/endpoint/", { name: "Ada", nmae: "x" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
  });
});

Deno.test("closestName suggests by edit distance, ignores case, and does bounded work on long keys", async (t) => {
  const names = ["msgid", "msgstr", "msgctxt", "comment", "tcomment", "occurrences", "flags", "msgid_plural"];
  const table: [string, string | null][] = [
    ["msgctx", "msgctxt"],
    ["flag", "flags"],
    ["MSGID", "msgid"],
    ["msgsrt", "msgstr"],
    ["occurences", "occurrences"],
    ["msgid_plurl", "msgid_plural"],
    ["colour", null],
    ["", null],
    ["x".repeat(65), null],
  ];
  for (const [key, meant] of table) {
    await t.step(
      `${JSON.stringify(key.slice(0, 12))} → ${meant}`,
      () => assert.equal(closestName(key, names), meant),
    );
  }
  await t.step("1,000 unknown keys of 900 characters are answered at once", async () => {
    await using f = await poFixture({ "fr.po": MENU });
    const body: Record<string, unknown> = { file_path: f.path("fr.po") };
    for (let i = 0; i < 1000; i++) body[`${i}${"msgctxt".repeat(128)}`] = i;
    const res = await f.post("/po/read", body);
    assert.equal(res.status, 422);
    assert.equal(res.body.detail[0].type, "extra_forbidden");
    // Bounded by length, not timed: a key this long is compared with no name at all.
    assert.equal(countReads(() => closestName(`0${"msgctxt".repeat(128)}`, names)).reads, 0);
  });
});

Deno.test("GET /health answers ok and the version, without the token, and still checks Host", async () => {
  const { app } = testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } });
  const res = await app.request("http://localhost/health");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(await res.json(), { status: "ok", version: VERSION });
  const head = await app.request("http://localhost/health", { method: "HEAD" });
  assert.equal(head.status, 200);
  await head.body?.cancel();
  const rebound = await app.request("http://evil.example/health", { headers: { host: "evil.example" } });
  assert.equal(rebound.status, 403);
  assert.deepEqual(await rebound.json(), { detail: "Host not allowed: evil.example (see ALLOWED_HOSTS)" });
  const protectedRoute = await postJson(app, "/new/endpoint/", { name: "Ada" });
  assert.equal(protectedRoute.status, 401, "the other routes still need the token");
  await protectedRoute.body?.cancel();
});

async function openapi(app: { request: (path: string) => Response | Promise<Response> }) {
  const res = await app.request("/openapi.json");
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("/openapi.json carries the version and no machine-limit numbers", async () => {
  const doc = await openapi(testApp().app);
  assert.equal(doc.info.version, VERSION);
  assert.ok(!JSON.stringify(doc).includes(String(Number.MAX_SAFE_INTEGER)));
  assert.ok(doc.paths["/health"].get, "/health is described");
});

Deno.test("with a token, /openapi.json declares the bearer scheme on every tool and not on /health", async () => {
  const open = await openapi(testApp().app);
  assert.equal(open.components.securitySchemes, undefined, "no token, no scheme");
  for (const tool of allTools()) {
    const op = open.paths[tool.path].post;
    assert.equal(op.security, undefined, tool.path);
    assert.equal(op.responses["401"], undefined, `${tool.path}: no 401 without a token`);
  }
  const doc = await openapi(testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } }).app);
  assert.deepEqual(doc.components.securitySchemes.HTTPBearer.type, "http");
  assert.deepEqual(doc.components.securitySchemes.HTTPBearer.scheme, "bearer");
  for (const tool of allTools()) {
    const op = doc.paths[tool.path].post;
    assert.deepEqual(op.security, [{ HTTPBearer: [] }], tool.path);
    assert.ok(op.responses["401"], `${tool.path} declares 401`);
  }
  assert.equal(doc.paths["/health"].get.security, undefined);
});

Deno.test("/openapi.json declares every status a tool answers, each with its body schema", async () => {
  const doc = await openapi(testApp({ config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 } }).app);
  const error = { $ref: "#/components/schemas/HTTPError" };
  assert.deepEqual(doc.components.schemas.HTTPError.properties, { detail: { type: "string" } });
  for (const tool of allTools()) {
    const responses = doc.paths[tool.path].post.responses;
    const expected = ["200", "400", "401", "403", "500", "503"];
    if (tool.input) expected.push("413", "415", "422");
    // (Every /po/ tool that reads a catalogue declares 404; list_checks reads none.)
    if (tool.errors?.includes(404)) expected.push("404");
    if (tool.path === "/po/write" || tool.errors?.includes(409)) expected.push("409");
    if (tool.errors?.includes(429)) expected.push("429");
    assert.deepEqual(Object.keys(responses).sort(), expected.sort(), tool.path);
    if (tool.path === "/po/write") {
      assert.deepEqual(responses["409"].content["application/json"].schema, {
        $ref: "#/components/schemas/HTTPConflict",
      });
    }
    for (const status of expected.filter((s) => s !== "200" && s !== "422" && s !== "409")) {
      assert.deepEqual(responses[status].content["application/json"].schema, error, `${tool.path} ${status}`);
    }
    if (tool.input) {
      assert.deepEqual(responses["422"].content["application/json"].schema, {
        anyOf: [{ $ref: "#/components/schemas/HTTPValidationError" }, error],
      });
    }
    assert.ok(responses["503"].headers["Retry-After"], `${tool.path} 503 names Retry-After`);
  }
});

Deno.test("the request examples in /openapi.json name a catalogue in the roots, and work as sent", async () => {
  await using f = await poFixture({ "a/fr.po": MENU, "notes.txt": "not a catalogue" });
  const doc = await openapi(f.app);
  assert.ok(!JSON.stringify(doc).includes("/srv/po/"), "no made-up path");
  // The entries without their lines: the write lays the file out as msgcat does, which may move them.
  const read = async () =>
    (await f.post("/po/read", { file_path: f.path("a/fr.po") })).body.entries.map((e: { line: number }) => ({
      ...e,
      line: undefined,
    }));
  const before = await read();
  for (const tool of allTools().filter((t) => t.input)) {
    const op = doc.paths[tool.path].post;
    const example = op.requestBody.content["application/json"].example;
    assert.ok(example, `${tool.path} has an example`);
    assert.ok(op.description.includes(`Example: ${JSON.stringify(example)}`), tool.path);
    // The tools that ask GPSS need the upstream: tests/mcp_tools_test.ts, tests/gpss_patent_test.ts.
    if (tool.annotations?.openWorldHint) continue;
    if (tool.path.startsWith("/po/") && "file_path" in example) {
      assert.equal(example.file_path, f.path("a/fr.po"));
    }
    if ("path" in example) assert.equal(example.path, f.path("a/fr.po"));
    const res = await f.post(tool.path, example);
    assert.equal(res.status, 200, `${tool.path}: ${JSON.stringify(res.body)}`);
  }
  // The write example is the catalogue's own translation of an entry without context.
  assert.deepEqual(await read(), before, "the write example changed no entry");
});

Deno.test("examples of the shipped sample catalogues name examples/fr/glossary.po and its first entry", () => {
  const examples = new URL("examples/", REPO_ROOT).pathname.replace(/\/$/, "");
  const sample = examplesFor([examples]);
  assert.equal(sample.catalogue, `${examples}/fr/glossary.po`);
  assert.deepEqual([sample.msgid, sample.msgstr], ["Glossary", "Glossaire"]);
  const none = examplesFor(["/nonexistent-root-for-examples"]);
  assert.equal(none.catalogue, "/nonexistent-root-for-examples/fr.po");
});

Deno.test("with a token, the public /openapi.json names neither the roots nor catalogue data; MCP clients get both", async () => {
  await using f = await poFixture({ "a/fr.po": MENU });
  const { CatalogueStore } = await import("../lib/store/mod.ts");
  const { PO_CODEC } = await import("../lib/po/operations/po_codec.ts");
  const { app } = testApp({
    config: { apiToken: TOKEN, maxBodyBytes: 1 << 20 },
    catalogues: new CatalogueStore({ roots: [f.root], codec: PO_CODEC }),
  });
  const text = JSON.stringify(await openapi(app));
  assert.ok(!text.includes(f.root), "no root in the public document");
  assert.ok(!text.includes("Quitter le jeu"), "no catalogue data in the public document");
  const example = JSON.parse(text).paths["/po/read"].post.requestBody.content["application/json"].example;
  assert.deepEqual(example, { file_path: "/path/inside/PO_ROOTS/fr.po" });
  const list = await app.request("/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  assert.equal(list.status, 200);
  assert.ok(
    (await list.text()).includes(`${f.root}/a/fr.po`),
    "the authorised MCP client gets the real example",
  );
});
