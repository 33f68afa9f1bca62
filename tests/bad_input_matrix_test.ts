/**
 * The bad-input matrix: every endpoint fed missing, extra, mistyped, malformed, oversized, deeply
 * nested, hostile-path and racing input, over HTTP, and the argument-level cases over MCP as well.
 *
 * Each row states the documented status and `detail`. For every answer the matrix also checks that
 * nothing crashed (no 500, no "unexpected error" in the app's log) and that the answer brings
 * nothing the request did not: no stack trace, no absolute path the caller did not send (the
 * repository, Deno's cache, /proc, /dev, the directory beside the root, the temp directory itself),
 * and never the configured GPSS user code. A PO row also checks that the catalogue root and the
 * directory beside it are exactly as before (lock files aside) unless the row is a successful write.
 *
 * @module
 */
import assert from "node:assert/strict";
import { basename, dirname } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { parseConfig } from "../lib/config.ts";
import { GpssClient } from "../lib/gpss/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { allTools } from "../routes/mod.ts";
import { startFakeGpss } from "./_fake_gpss.ts";
import { poFixture, postJson, REPO_ROOT, testApp } from "./_helpers.ts";

/** The GPSS user code the apps are configured with: no answer may ever contain it. */
const SECRET_USER_CODE = "Zq7SecretGpssUserCode4b1dC0ffee";
const SMALL_BODY_LIMIT = 256;
const SMALL_FILE_LIMIT = 1024;
const DEEP = 100_000;

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const SAMPLE = HEADER + '#, fuzzy\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr "B"\n';
const OUTSIDE_CANARY = "OUTSIDE-THE-ROOTS-CANARY";

const utf8 = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// Expected details, in pydantic v2's words
// ---------------------------------------------------------------------------------------------

type Loc = (string | number)[];
const missing = (loc: Loc, input: unknown) => ({
  type: "missing",
  loc: ["body", ...loc],
  msg: "Field required",
  input,
});
const stringType = (loc: Loc, input: unknown) => ({
  type: "string_type",
  loc: ["body", ...loc],
  msg: "Input should be a valid string",
  input,
});
const listType = (loc: Loc, input: unknown) => ({
  type: "list_type",
  loc: ["body", ...loc],
  msg: "Input should be a valid list",
  input,
});
const intType = (loc: Loc, input: unknown) => ({
  type: "int_type",
  loc: ["body", ...loc],
  msg: "Input should be a valid integer",
  input,
});
const intParsing = (loc: Loc, input: unknown) => ({
  type: "int_parsing",
  loc: ["body", ...loc],
  msg: "Input should be a valid integer, unable to parse string as an integer",
  input,
});
const intFromFloat = (loc: Loc, input: unknown) => ({
  type: "int_from_float",
  loc: ["body", ...loc],
  msg: "Input should be a valid integer, got a number with a fractional part",
  input,
});
const notAnObject = (loc: Loc, input: unknown) => ({
  type: "model_attributes_type",
  loc: ["body", ...loc],
  msg: "Input should be a valid dictionary or object to extract fields from",
  input,
});
const jsonInvalid = (position: number, error: string) => [{
  type: "json_invalid",
  loc: ["body", position],
  msg: "JSON decode error",
  input: {},
  ctx: { error },
}];
/** pydantic's `extra_forbidden`, with our suggestion of the field meant when there is one. */
const extraForbidden = (loc: Loc, input: unknown, meant?: string) =>
  meant === undefined
    ? { type: "extra_forbidden", loc: ["body", ...loc], msg: "Extra inputs are not permitted", input }
    : {
      type: "extra_forbidden",
      loc: ["body", ...loc],
      msg: `Extra inputs are not permitted; did you mean '${meant}'?`,
      input,
      ctx: { did_you_mean: meant },
    };
const MISSING_BODY = [{ type: "missing", loc: ["body"], msg: "Field required", input: null }];
const BODY_PARSE_ERROR = "There was an error parsing the body";
const UNSUPPORTED_MEDIA_TYPE = "Unsupported Media Type: expected application/json";
const TOO_DEEP = "Maximum recursion depth exceeded";

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------
// The fixture: a catalogue root full of traps, a directory beside it, three apps, a fake GPSS
// ---------------------------------------------------------------------------------------------

type AppName = "main" | "smallBody" | "smallFile";

/** Bytes that are no PO file (a fixed pseudo-random sequence, so failures reproduce). */
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

async function makeFifo(path: string): Promise<boolean> {
  try {
    return (await new Deno.Command("mkfifo", { args: [path], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

async function matrixFixture() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "bad-input-root-" }));
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "bad-input-outside-" }));
  const fake = await startFakeGpss({ userCodes: [SECRET_USER_CODE] });
  const at = (name: string) => `${root}/${name}`;

  await Deno.writeTextFile(at("ok.po"), SAMPLE);
  await Deno.writeTextFile(at("notes.txt"), "not a catalogue\n");
  await Deno.writeTextFile(at("bad.po"), 'msgid "unterminated\nmsgstr ""\n');
  await Deno.writeFile(at("binary.po"), randomBytes(2048, 7));
  await Deno.writeTextFile(
    at("big.po"),
    HEADER + Array.from({ length: 60 }, (_, i) => `msgid "m${i}"\nmsgstr "${"x".repeat(20)}"\n`).join("\n"),
  );
  await Deno.mkdir(at("dir.po"));
  await Deno.writeTextFile(`${outside}/secret.po`, HEADER + `msgid "s"\nmsgstr "${OUTSIDE_CANARY}"\n`);
  await Deno.symlink(`${outside}/secret.po`, at("out.po"));
  await Deno.symlink(`${outside}/created-through-a-link.po`, at("dangling-out.po"));
  await Deno.symlink("/dev/zero", at("zero.po"));
  await Deno.symlink("/dev/null", at("null.po"));
  await Deno.symlink("/proc/self/environ", at("environ.po"));
  await Deno.symlink("/proc/self/status", at("status.po"));
  await Deno.symlink(at("loop2.po"), at("loop1.po"));
  await Deno.symlink(at("loop1.po"), at("loop2.po"));
  await Deno.symlink(at("loopdir"), at("loopdir"));
  await Deno.symlink(`${outside}/loop.po`, `${outside}/loop.po`);
  const fifo = await makeFifo(at("fifo.po"));

  const gpss = new GpssClient({ baseUrl: fake.url, userCode: SECRET_USER_CODE, cacheTtlMs: 0 });
  const store = (maxFileBytes?: number) =>
    new CatalogueStore({ roots: [root], codec: PO_CODEC, maxFileBytes });
  const apps: Record<AppName, ReturnType<typeof testApp>> = {
    main: testApp({ catalogues: store(), gpss }),
    smallBody: testApp({
      config: { apiToken: undefined, maxBodyBytes: SMALL_BODY_LIMIT },
      catalogues: store(),
      gpss,
    }),
    smallFile: testApp({ catalogues: store(SMALL_FILE_LIMIT), gpss }),
  };
  return {
    root,
    outside,
    fake,
    fifo,
    apps,
    at,
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(root, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    },
  };
}
type Fixture = Awaited<ReturnType<typeof matrixFixture>>;

/** Every entry below `dir` (lock files aside): kind and contents, without opening anything but files. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = `${d}/${entry.name}`;
      if (entry.name.endsWith(".lock")) continue;
      const stat = await Deno.lstat(path);
      if (stat.isSymlink) out.set(path, `link ${await Deno.readLink(path)}`);
      else if (stat.isDirectory) {
        out.set(path, "dir");
        await walk(path);
      } else if (stat.isFile) out.set(path, `file ${[...await Deno.readFile(path)].join(",")}`);
      else out.set(path, "special");
    }
  };
  await walk(dir);
  return out;
}

// ---------------------------------------------------------------------------------------------
// What no answer may contain
// ---------------------------------------------------------------------------------------------

function forbiddenStrings(fx: Fixture): string[] {
  const repo = REPO_ROOT.pathname.replace(/\/$/, "");
  const denoDir = Deno.env.get("DENO_DIR");
  const home = Deno.env.get("HOME");
  return [
    "    at ",
    ".ts:",
    "file://",
    repo,
    Deno.cwd(),
    ...(denoDir ? [denoDir] : []),
    ...(home ? [`${home}/.cache/deno`] : []),
    dirname(Deno.execPath()),
    "/proc",
    "/dev/",
    fx.outside,
    dirname(fx.root),
    OUTSIDE_CANARY,
  ].filter((s) => s.length > 1); // never "/" (a server started from the file system root)
}

/** Fails when `answer` holds a forbidden string that `request` does not, or the user code. */
function assertNoLeak(label: string, fx: Fixture, request: string, answer: string): void {
  assert.ok(
    !answer.includes(SECRET_USER_CODE),
    `${label}: the GPSS user code leaked: ${answer.slice(0, 300)}`,
  );
  // A 403 names the configured roots on purpose (issue 17): only that mention is allowed.
  let shown = answer.replaceAll(`catalogue roots (${fx.root}):`, "catalogue roots (ROOT):");
  // An answer to a path relative to the root names the absolute path it stood for (issue 34.9):
  // a path inside the roots, which the MCP instructions name too.
  if (/ relative path( \[|$)/.test(label)) shown = shown.replaceAll(`${fx.root}/`, "ROOT/");
  for (const s of forbiddenStrings(fx)) {
    if (request.includes(s)) continue;
    assert.ok(
      !shown.includes(s),
      `${label}: the answer holds ${JSON.stringify(s)}: ${answer.slice(0, 300)}`,
    );
  }
}

function assertDetail(label: string, actual: unknown, expected: Expected): void {
  if (expected instanceof RegExp) {
    assert.equal(typeof actual, "string", `${label}: detail ${JSON.stringify(actual)}`);
    assert.match(actual as string, expected, label);
  } else if (typeof expected === "function") {
    expected(actual);
  } else {
    assert.deepEqual(actual, expected, label);
  }
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

/** The exact `detail`, a pattern for a string detail, or a check. */
type Expected = unknown;

interface Case {
  name: string;
  endpoint: string;
  /** A JSON value sent as the body (and, for argument-level rows, as the MCP arguments). */
  body?: unknown;
  /** Bytes or text sent as they are instead of `body`. */
  raw?: string | Uint8Array<ArrayBuffer>;
  /** Request headers; default `content-type: application/json`. `{}` sends no content type. */
  headers?: Record<string, string>;
  app?: AppName;
  status: number;
  /** `detail` of an error answer. */
  detail?: Expected;
  /** Checks a successful answer. */
  check?: (body: Record<string, unknown>) => void;
  /** Largest acceptable answer, in bytes (the deep rows: the value must not be echoed). */
  maxAnswerBytes?: number;
}

const PO_ENDPOINTS = ["/po/read", "/po/find_fuzzy", "/po/read_context", "/po/write"] as const;
const INPUT_ENDPOINTS = [
  ...PO_ENDPOINTS,
  "/new/endpoint/",
  "/tools/search_patents",
  "/tools/get_patent",
  "/po/header",
  "/po/header/update",
  "/po/merge",
  "/po/compile",
  "/po/purge",
  "/po/entries",
  "/po/search",
  "/po/catalogues",
  "/po/check",
  "/po/suggest",
  "/po/history",
  "/po/changes",
  "/po/drafts",
  "/po/review",
  "/po/term_usage",
  "/po/audit",
] as const;
/** What an endpoint whose fields are all optional answers to `{}` (the others: its first field missing). */
const EMPTY_OBJECT_ANSWERS: Record<string, [number, Expected]> = {
  "/po/check": [422, "Give one of: entry (optionally with file_path for its header), file_path, directory"],
  // Every record (the newest 100): a query with no filter.
  "/po/audit": [200, undefined],
};
/** Endpoints that answer `{}` with a listing of the roots (not echoed by the request): no `{}` rows. */
const LISTS_THE_ROOTS = new Set(["/po/catalogues", "/po/next", "/po/drafts", "/po/term_usage"]);
const NO_INPUT_ENDPOINTS = [
  "/po/checks",
  "/tools/get_available_databases",
  "/tools/get_search_examples",
  "/tools/get_quota_status",
] as const;

/** A valid body for each endpoint that reads one. */
function validBody(fx: Fixture, endpoint: string): Record<string, unknown> {
  switch (endpoint) {
    case "/po/write":
      return { file_path: fx.at("ok.po"), entries: [{ msgid: "a", msgstr: "A" }] };
    case "/po/read_context":
      return { file_path: fx.at("ok.po"), msgid: "a" };
    case "/new/endpoint/":
      return { name: "Ada" };
    case "/tools/search_patents":
      return { keywords: "充電" };
    case "/tools/get_patent":
      return { number: "TWI800001B" };
    case "/po/merge":
      return { file_path: fx.at("ok.po"), template_path: fx.at("ok.po") };
    case "/po/entries":
      return { path: fx.at("ok.po") };
    case "/po/search":
      return { query: "file" };
    case "/po/catalogues":
      return { under: fx.root };
    case "/po/suggest":
      return { msgid: "Return the value.", file_path: fx.at("ok.po") };
    case "/po/history":
      return { file_path: fx.at("ok.po"), msgid: "a" };
    case "/po/changes":
      return { ref: "HEAD" };
    case "/po/next":
      return { limit: 5 };
    case "/po/review":
      return { file_path: fx.at("ok.po"), msgid: "a", action: "approve" };
    default:
      return { file_path: fx.at("ok.po") };
  }
}

/** A PO endpoint's body for a path (with the other fields valid). */
function poBody(endpoint: string, file_path: unknown): Record<string, unknown> {
  if (endpoint === "/po/write") return { file_path, entries: [{ msgid: "new", msgstr: "x" }] };
  if (endpoint === "/po/read_context") return { file_path, msgid: "a" };
  return { file_path };
}

/** Rows about the body itself (transport level: HTTP only), for every endpoint that reads one. */
function bodyRows(fx: Fixture): Case[] {
  const rows: Case[] = [];
  for (const endpoint of INPUT_ENDPOINTS) {
    const valid = JSON.stringify(validBody(fx, endpoint));
    const [field = "(none)"] = Object.keys(validBody(fx, endpoint));
    const padded = (n: number, text: string) => text + " ".repeat(n - utf8.encode(text).length);
    const [emptyStatus, emptyDetail] = EMPTY_OBJECT_ANSWERS[endpoint] ??
      [422, (d: unknown) => assert.deepEqual((d as unknown[])[0], missing([field], {}))];
    rows.push(
      {
        name: "malformed JSON",
        endpoint,
        raw: '{"k": }',
        status: 422,
        detail: jsonInvalid(6, "Expecting value"),
      },
      {
        name: "truncated JSON inside a string",
        endpoint,
        raw: valid.slice(0, valid.indexOf(":") + 4),
        status: 422,
        detail: jsonInvalid(valid.indexOf(":") + 1, "Unterminated string starting at"),
      },
      {
        name: "truncated JSON after a value",
        endpoint,
        raw: '{"k": "v"',
        status: 422,
        detail: jsonInvalid(9, "Expecting ',' delimiter"),
      },
      {
        name: "a raw NUL byte inside a JSON string",
        endpoint,
        raw: '{"k": "a\u0000b"}',
        status: 422,
        detail: jsonInvalid(8, "Invalid control character at"),
      },
      {
        name: "single quotes",
        endpoint,
        raw: "{'k': 1}",
        status: 422,
        detail: jsonInvalid(1, "Expecting property name enclosed in double quotes"),
      },
      { name: "empty body", endpoint, raw: "", status: 422, detail: MISSING_BODY },
      { name: "body null", endpoint, raw: "null", status: 422, detail: MISSING_BODY },
      { name: "body an array", endpoint, raw: "[]", status: 422, detail: [notAnObject([], [])] },
      { name: "body a string", endpoint, raw: '"x"', status: 422, detail: [notAnObject([], "x")] },
      { name: "body a number", endpoint, raw: "42", status: 422, detail: [notAnObject([], 42)] },
      { name: "body true", endpoint, raw: "true", status: 422, detail: [notAnObject([], true)] },
      // A deliberate difference from FastAPI (which answered 422 after reading the body as text):
      // the types a web page may POST cross-origin without a preflight are refused with 415.
      {
        name: "content type text/plain (refused: 415)",
        endpoint,
        raw: valid,
        headers: { "content-type": "text/plain" },
        status: 415,
        detail: UNSUPPORTED_MEDIA_TYPE,
      },
      {
        name: "content type form-urlencoded (refused: 415)",
        endpoint,
        raw: "k=v",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        status: 415,
        detail: UNSUPPORTED_MEDIA_TYPE,
      },
      {
        name: "content type application/problem+json with parameters: decoded as JSON",
        endpoint,
        raw: "{}",
        headers: { "content-type": "Application/Problem+JSON; charset=utf-8" },
        status: emptyStatus,
        detail: emptyDetail,
      },
      {
        name: "no content type: decoded as JSON, like FastAPI",
        endpoint,
        raw: "{}",
        headers: {},
        status: emptyStatus,
        detail: emptyDetail,
      },
      {
        name: "invalid UTF-8 bytes",
        endpoint,
        raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
        status: 400,
        detail: BODY_PARSE_ERROR,
      },
      {
        name: "invalid UTF-8 inside a string",
        endpoint,
        raw: new Uint8Array([...utf8.encode(`{"${field}": "`), 0xc3, 0x28, ...utf8.encode('"}')]),
        status: 400,
        detail: BODY_PARSE_ERROR,
      },
      {
        name: `${DEEP} nested arrays`,
        endpoint,
        raw: "[".repeat(DEEP) + "]".repeat(DEEP),
        status: 422,
        detail: jsonInvalid(1001, TOO_DEEP),
        maxAnswerBytes: 500,
      },
      {
        name: `${DEEP} nested objects in a field`,
        endpoint,
        raw: `{"${field}":` + '{"a":'.repeat(DEEP) + "1" + "}".repeat(DEEP) + "}",
        status: 422,
        detail: jsonInvalid(`{"${field}":`.length + 5 * 1000, TOO_DEEP),
        maxAnswerBytes: 500,
      },
      {
        name: `${DEEP} unclosed arrays`,
        endpoint,
        raw: "[".repeat(DEEP),
        status: 422,
        detail: jsonInvalid(1001, TOO_DEEP),
        maxAnswerBytes: 500,
      },
      {
        name: `a body one byte over the configured limit (${SMALL_BODY_LIMIT}) is refused before parsing`,
        endpoint,
        app: "smallBody",
        raw: new Uint8Array(SMALL_BODY_LIMIT + 1).fill(0xff),
        status: 413,
        detail: `Request body too large: the limit is ${SMALL_BODY_LIMIT} bytes`,
      },
      {
        name: "a body exactly at the configured limit is parsed",
        endpoint,
        app: "smallBody",
        raw: padded(SMALL_BODY_LIMIT, "{}"),
        status: emptyStatus,
        detail: emptyDetail,
      },
    );
  }
  // `{}` is a valid request there, answered with the roots: "the whole tree" row covers it.
  return rows.filter((r) =>
    !(LISTS_THE_ROOTS.has(r.endpoint) && typeof r.raw === "string" && r.raw.trim() === "{}")
  );
}

/** Rows about one field or another (argument level: also over MCP). */
function fieldRows(fx: Fixture): Case[] {
  const ok = fx.at("ok.po");
  const rows: Case[] = [];
  for (const endpoint of ["/po/read", "/po/find_fuzzy", "/po/read_context", "/po/write"]) {
    const base = poBody(endpoint, ok);
    const { file_path: _, ...rest } = base;
    rows.push({
      name: "file_path missing",
      endpoint,
      body: rest,
      status: 422,
      detail: [missing(["file_path"], rest)],
    });
    for (
      const [kind, value] of [
        ["an int", 5],
        ["a boolean", true],
        ["null", null],
        ["an object", { path: ok }],
        ["an array", [ok]],
      ] as const
    ) {
      rows.push({
        name: `file_path ${kind}`,
        endpoint,
        body: { ...base, file_path: value },
        status: 422,
        detail: [stringType(["file_path"], value)],
      });
    }
    rows.push({
      name: "an extra field is forbidden (a deliberate difference: the old service ignored it)",
      endpoint,
      body: { ...base, extra: { x: 1 } },
      status: 422,
      detail: [extraForbidden(["extra"], { x: 1 })],
    }, {
      name: "a misspelt field is forbidden, and the field meant is named",
      endpoint,
      body: { ...base, File_Path: ok },
      status: 422,
      detail: [extraForbidden(["File_Path"], ok, "file_path")],
    });
  }

  const ctx = (extra: Record<string, unknown>) => ({ file_path: ok, msgid: "a", ...extra });
  rows.push(
    {
      name: "msgid missing",
      endpoint: "/po/read_context",
      body: { file_path: ok },
      status: 422,
      detail: [missing(["msgid"], { file_path: ok })],
    },
    {
      name: "msgid null",
      endpoint: "/po/read_context",
      body: ctx({ msgid: null }),
      status: 422,
      detail: [stringType(["msgid"], null)],
    },
    {
      name: "msgctxt an int",
      endpoint: "/po/read_context",
      body: ctx({ msgctxt: 5 }),
      status: 422,
      detail: [stringType(["msgctxt"], 5)],
    },
    {
      name: "context_size a word",
      endpoint: "/po/read_context",
      body: ctx({ context_size: "two" }),
      status: 422,
      detail: [intParsing(["context_size"], "two")],
    },
    {
      name: "context_size a fraction",
      endpoint: "/po/read_context",
      body: ctx({ context_size: 1.5 }),
      status: 422,
      detail: [intFromFloat(["context_size"], 1.5)],
    },
    {
      name: "context_size negative",
      endpoint: "/po/read_context",
      body: ctx({ context_size: -1 }),
      status: 422,
      detail: [{
        type: "greater_than_equal",
        loc: ["body", "context_size"],
        msg: "Input should be greater than or equal to 0",
        input: -1,
        ctx: { ge: 0 },
      }],
    },
    {
      name: "context_size null",
      endpoint: "/po/read_context",
      body: ctx({ context_size: null }),
      status: 422,
      detail: [intType(["context_size"], null)],
    },
    {
      name: "context_size an array",
      endpoint: "/po/read_context",
      body: ctx({ context_size: [1] }),
      status: 422,
      detail: [intType(["context_size"], [1])],
    },
    {
      name: "context_size a boolean (lax int, as pydantic: true = 1)",
      endpoint: "/po/read_context",
      body: ctx({ context_size: true, msgid: "b" }),
      status: 200,
      check: (b) => assert.deepEqual((b.context_before as { msgid: string }[]).map((e) => e.msgid), ["a"]),
    },
    {
      name: "msgid with a NUL character: simply not found",
      endpoint: "/po/read_context",
      body: ctx({ msgid: "a\u0000" }),
      status: 200,
      check: (b) => assert.equal(b.target_entry, null),
    },
  );

  const write = (entries: unknown, extra: Record<string, unknown> = {}) => ({
    file_path: ok,
    entries,
    ...extra,
  });
  const entryError = (field: string, what: string) =>
    `Invalid ${field} of the entry with msgid "a": it contains ${what}`;
  rows.push(
    {
      name: "entries missing",
      endpoint: "/po/write",
      body: { file_path: ok },
      status: 422,
      detail: [missing(["entries"], { file_path: ok })],
    },
    {
      name: "entries an object (object for array)",
      endpoint: "/po/write",
      body: write({ msgid: "a", msgstr: "b" }),
      status: 422,
      detail: [listType(["entries"], { msgid: "a", msgstr: "b" })],
    },
    {
      name: "entries null",
      endpoint: "/po/write",
      body: write(null),
      status: 422,
      detail: [listType(["entries"], null)],
    },
    {
      name: "an entry an array (array for object)",
      endpoint: "/po/write",
      body: write([["a", "b"]]),
      status: 422,
      detail: [notAnObject(["entries", 0], ["a", "b"])],
    },
    {
      name: "an entry without msgstr",
      endpoint: "/po/write",
      body: write([{ msgid: "a" }]),
      status: 422,
      detail: [missing(["entries", 0, "msgstr"], { msgid: "a" })],
    },
    {
      name: "an int and a boolean where strings are expected",
      endpoint: "/po/write",
      body: write([{ msgid: 1, msgstr: true }]),
      status: 422,
      detail: [stringType(["entries", 0, "msgid"], 1), stringType(["entries", 0, "msgstr"], true)],
    },
    {
      name: "occurrences a string",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "b", occurrences: "x.c:1" }]),
      status: 422,
      detail: [listType(["entries", 0, "occurrences"], "x.c:1")],
    },
    {
      name: "a flag an int",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "b", flags: [1] }]),
      status: 422,
      detail: [stringType(["entries", 0, "flags", 0], 1)],
    },
    {
      name: "obsolete a string",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "b", obsolete: "yes" }]),
      status: 422,
      detail: [{
        type: "bool_type",
        loc: ["body", "entries", 0, "obsolete"],
        msg: "Input should be a valid boolean",
        input: "yes",
      }],
    },
    {
      name: "msgstr_plural an array (array for object)",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "b", msgstr_plural: ["x"] }]),
      status: 422,
      detail: [{
        type: "dict_type",
        loc: ["body", "entries", 0, "msgstr_plural"],
        msg: "Input should be a valid dictionary",
        input: ["x"],
      }],
    },
    {
      name: "a plural form an int",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "b", msgid_plural: "as", msgstr_plural: { "0": 1 } }]),
      status: 422,
      detail: [stringType(["entries", 0, "msgstr_plural", "0"], 1)],
    },
    {
      name: "msgid with a NUL character",
      endpoint: "/po/write",
      body: write([{ msgid: "a\u0000b", msgstr: "x" }]),
      status: 422,
      detail: 'Invalid msgid of the entry with msgid "a\\u0000b": it contains a NUL character, which a PO ' +
        "file cannot hold",
    },
    {
      name: "msgstr with a NUL character",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x\u0000" }]),
      status: 422,
      detail: entryError("msgstr", "a NUL character, which a PO file cannot hold"),
    },
    {
      name: "msgctxt with U+0004",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x", msgctxt: "c\u0004" }]),
      status: 422,
      detail: entryError("msgctxt", "U+0004 (EOT), which a PO file cannot hold"),
    },
    {
      name: "msgid with a lone surrogate",
      endpoint: "/po/write",
      body: write([{ msgid: "\ud800", msgstr: "x" }]),
      status: 422,
      detail: 'Invalid msgid of the entry with msgid "\\ud800": it contains a lone UTF-16 surrogate, which ' +
        "UTF-8 cannot encode",
    },
    {
      name: "a comment with a lone surrogate",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x", tcomment: "note \udc00" }]),
      status: 422,
      detail: entryError("tcomment", "a lone UTF-16 surrogate, which UTF-8 cannot encode"),
    },
    {
      name: "an occurrence with a lone surrogate",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x", occurrences: ["src/\ud83d.c:1"] }]),
      status: 422,
      detail: entryError("occurrences[0]", "a lone UTF-16 surrogate, which UTF-8 cannot encode"),
    },
    {
      name: "an occurrence with white space",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x", occurrences: ["a b.c:1"] }]),
      status: 422,
      detail: 'Invalid occurrence "a b.c:1" of the entry with msgid "a": a PO reference cannot be empty or ' +
        "contain white space",
    },
    {
      name: 'msgid "" (the header)',
      endpoint: "/po/write",
      body: write([{ msgid: "", msgstr: "x" }]),
      status: 422,
      detail:
        'Invalid entry: msgid "" without msgctxt is the catalogue header, which cannot be written as an ' +
        "entry",
    },
    {
      name: "msgstr_plural without msgid_plural",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "x", msgstr_plural: { "0": "x" } }]),
      status: 422,
      detail: 'Invalid entry with msgid "a": msgstr_plural is given but the entry has no msgid_plural',
    },
    {
      name: "extra fields in the body and in an entry are forbidden",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "A", colour: "red" }], { force: true }),
      status: 422,
      detail: [extraForbidden(["entries", 0, "colour"], "red"), extraForbidden(["force"], true)],
    },
    {
      name: "misspelt entry fields are forbidden with the field meant (msgctx, flag)",
      endpoint: "/po/write",
      body: write([{ msgid: "a", msgstr: "A", msgctx: "menu", flag: ["fuzzy"] }]),
      status: 422,
      detail: [
        extraForbidden(["entries", 0, "msgctx"], "menu", "msgctxt"),
        extraForbidden(["entries", 0, "flag"], ["fuzzy"], "flags"),
      ],
    },
  );

  rows.push(
    {
      name: "name missing",
      endpoint: "/new/endpoint/",
      body: {},
      status: 422,
      detail: [missing(["name"], {})],
    },
    ...([["an int", 5], ["a boolean", false], ["null", null], ["an object", { first: "Ada" }], ["an array", [
      "Ada",
    ]]] as const).map(([kind, value]) => ({
      name: `name ${kind}`,
      endpoint: "/new/endpoint/",
      body: { name: value },
      status: 422,
      detail: [stringType(["name"], value)],
    })),
    {
      name: "extra fields are ignored",
      endpoint: "/new/endpoint/",
      body: { name: "Ada", extra: [1] },
      status: 200,
      check: (b) => assert.deepEqual(b, { message: "Hello, Ada!" }),
    },
    {
      name: "a NUL character is kept (JSON-escaped)",
      endpoint: "/new/endpoint/",
      body: { name: "A\u0000da" },
      status: 200,
      check: (b) => assert.deepEqual(b, { message: "Hello, A\u0000da!" }),
    },
  );

  const search = (extra: Record<string, unknown>) => ({ keywords: "充電", ...extra });
  rows.push(
    {
      name: "a valid search (the user code is in use)",
      endpoint: "/tools/search_patents",
      body: search({}),
      status: 200,
      check: (b) => assert.equal(b.success, true, String(b.error)),
    },
    {
      name: "keywords missing",
      endpoint: "/tools/search_patents",
      body: { max_results: 3 },
      status: 422,
      detail: [missing(["keywords"], { max_results: 3 })],
    },
    {
      name: "an extra field is forbidden",
      endpoint: "/tools/search_patents",
      body: search({ userCode: "steal-me" }),
      status: 422,
      detail: [{
        type: "extra_forbidden",
        loc: ["body", "userCode"],
        msg: "Extra inputs are not permitted",
        input: "steal-me",
      }],
    },
    ...([["an int", 5], ["a boolean", true], ["null", null], ["an object", { q: "x" }], ["an array", [
      "x",
    ]]] as const).map(([kind, value]) => ({
      name: `keywords ${kind}`,
      endpoint: "/tools/search_patents",
      body: { keywords: value },
      status: 422,
      detail: [stringType(["keywords"], value)],
    })),
    {
      name: "keywords empty",
      endpoint: "/tools/search_patents",
      body: { keywords: "" },
      status: 422,
      detail: [{
        type: "string_too_short",
        loc: ["body", "keywords"],
        msg: "String should have at least 1 character",
        input: "",
        ctx: { min_length: 1 },
      }],
    },
    {
      name: "max_results a word",
      endpoint: "/tools/search_patents",
      body: search({ max_results: "ten" }),
      status: 422,
      detail: [intParsing(["max_results"], "ten")],
    },
    {
      name: "max_results a fraction",
      endpoint: "/tools/search_patents",
      body: search({ max_results: 2.5 }),
      status: 422,
      detail: [intFromFloat(["max_results"], 2.5)],
    },
    {
      name: "max_results null",
      endpoint: "/tools/search_patents",
      body: search({ max_results: null }),
      status: 422,
      detail: [intType(["max_results"], null)],
    },
    {
      name: "max_results an object",
      endpoint: "/tools/search_patents",
      body: search({ max_results: { n: 1 } }),
      status: 422,
      detail: [intType(["max_results"], { n: 1 })],
    },
    {
      name: "max_results 0",
      endpoint: "/tools/search_patents",
      body: search({ max_results: 0 }),
      status: 422,
      detail: [{
        type: "greater_than_equal",
        loc: ["body", "max_results"],
        msg: "Input should be greater than or equal to 1",
        input: 0,
        ctx: { ge: 1 },
      }],
    },
    {
      name: "max_results a boolean (lax int, as pydantic: true = 1)",
      endpoint: "/tools/search_patents",
      body: search({ max_results: true }),
      status: 200,
      check: (b) => assert.equal((b.request_params as { expQty: number }).expQty, 1),
    },
    {
      name: "databases a string (string for list)",
      endpoint: "/tools/search_patents",
      body: search({ databases: "TWA" }),
      status: 422,
      detail: [listType(["databases"], "TWA")],
    },
    {
      name: "databases an object (object for array)",
      endpoint: "/tools/search_patents",
      body: search({ databases: { TWA: true } }),
      status: 422,
      detail: [listType(["databases"], { TWA: true })],
    },
    {
      name: "an unknown database",
      endpoint: "/tools/search_patents",
      body: search({ databases: ["NOPE"] }),
      status: 422,
      detail: (d: unknown) => {
        const [item] = d as [{ type: string; loc: Loc; msg: string }];
        assert.equal(item.type, "literal_error");
        assert.deepEqual(item.loc, ["body", "databases", 0]);
        assert.match(item.msg, /^Input should be 'TWA', 'TWB', /);
      },
    },
    {
      name: "search_field an empty list",
      endpoint: "/tools/search_patents",
      body: search({ search_field: [] }),
      status: 422,
      detail: "search_field must contain at least one value.",
    },
    {
      name: "search_field an int",
      endpoint: "/tools/search_patents",
      body: search({ search_field: 5 }),
      status: 422,
      detail: (d: unknown) =>
        assert.deepEqual((d as { type: string }[]).map((e) => e.type), ["literal_error", "list_type"]),
    },
    {
      name: "a date an int (int for string)",
      endpoint: "/tools/search_patents",
      body: search({ publication_date_from: 20200101 }),
      status: 422,
      detail: [stringType(["publication_date_from"], 20200101)],
    },
    {
      name: "a date not written YYYYMMDD",
      endpoint: "/tools/search_patents",
      body: search({ publication_date_to: "2020-01-01" }),
      status: 422,
      detail: [{
        type: "value_error",
        loc: ["body", "publication_date_to"],
        msg: 'Value error, "2020-01-01" is not a real date written YYYYMMDD',
        input: "2020-01-01",
        ctx: { error: {} },
      }],
    },
    {
      name: "keywords with a NUL character: sent upstream percent-encoded",
      endpoint: "/tools/search_patents",
      body: { keywords: "a\u0000b" },
      status: 200,
      check: (b) => assert.equal((b.request_params as { TI: string }).TI, "a\u0000b"),
    },
  );
  return rows;
}

/** The path rows: every PO endpoint, each with the status reads and writes get. */
function pathRows(fx: Fixture): Case[] {
  const { at, root, outside } = fx;
  const rows: Case[] = [];
  const outsideRoots = (p: string) => `Path is outside the catalogue roots (${root}): ${p}`;
  const notRegular = (p: string) => `Not a regular file: ${p}`;
  const mustEnd = (p: string) => `Invalid file path: must end in .po or .pot: ${p}`;
  const notFound = (p: string) => `File not found: ${p}`;
  const invalidPo = /^Invalid PO file: .+ at line \d+, column \d+$/;
  const longName = `${"y".repeat(250)}.po`; // fits the file system, its lock file does not
  type Row = [
    name: string,
    path: string,
    read: [number, Expected],
    write?: [number, Expected],
    app?: AppName,
  ];
  const table: Row[] = [
    ["NUL byte", `${root}/a\u0000.po`, [
      422,
      `Invalid file path: contains a NUL byte: "${root}/a\\u0000.po"`,
    ]],
    [
      "lone surrogate",
      `${root}/\udc00.po`,
      [422, `Invalid file path: contains a lone UTF-16 surrogate: "${root}/\\udc00.po"`],
    ],
    // Relative to the root (issue 34.9), then answered as the absolute path it names.
    ["relative path", "fr/ok.po", [404, notFound(at("fr/ok.po"))], [404, `Directory not found: ${at("fr")}`]],
    ["empty path", "", [422, "Invalid file path: must not be empty"]],
    ["a non-.po file", at("notes.txt"), [422, mustEnd(at("notes.txt"))]],
    ["no name before .po", at(".po"), [422, mustEnd(at(".po"))]],
    ["trailing slash", `${at("ok.po")}/`, [422, mustEnd(`${at("ok.po")}/`)]],
    ["/dev/null itself", "/dev/null", [422, mustEnd("/dev/null")]],
    ["/proc/self/status itself (never read)", "/proc/self/status", [422, mustEnd("/proc/self/status")]],
    ["/proc/self/environ itself (never read)", "/proc/self/environ", [422, mustEnd("/proc/self/environ")]],
    ["a /proc path ending in .po", "/proc/self/environ.po", [403, outsideRoots("/proc/self/environ.po")]],
    ["/proc/self/cwd (the server's directory)", "/proc/self/cwd/x.po", [
      403,
      outsideRoots("/proc/self/cwd/x.po"),
    ]],
    ["a /dev path ending in .po", "/dev/null.po", [403, outsideRoots("/dev/null.po")]],
    [
      "`..` escaping the root",
      `${root}/../${basename(outside)}/secret.po`,
      [403, outsideRoots(`${root}/../${basename(outside)}/secret.po`)],
    ],
    [
      "many `..` up to /",
      `${root}/${"../".repeat(20)}etc/passwd.po`,
      [403, outsideRoots(`${root}/${"../".repeat(20)}etc/passwd.po`)],
    ],
    ["a file outside the roots", `${outside}/secret.po`, [403, outsideRoots(`${outside}/secret.po`)]],
    ["a symlink inside pointing outside", at("out.po"), [403, outsideRoots(at("out.po"))]],
    ["a symlink to /dev/zero", at("zero.po"), [403, outsideRoots(at("zero.po"))]],
    ["a symlink to /dev/null", at("null.po"), [403, outsideRoots(at("null.po"))]],
    ["a symlink to /proc/self/environ", at("environ.po"), [403, outsideRoots(at("environ.po"))]],
    ["a symlink to /proc/self/status", at("status.po"), [403, outsideRoots(at("status.po"))]],
    ["a directory named x.po", at("dir.po"), [422, notRegular(at("dir.po"))]],
    ["a binary file named .po", at("binary.po"), [422, invalidPo]],
    ["an invalid PO file (a write leaves it byte-identical)", at("bad.po"), [422, invalidPo]],
    ["a missing file", at("missing.po"), [404, notFound(at("missing.po"))], [200, undefined]],
    [
      "a missing directory",
      at("nodir/x.po"),
      [404, notFound(at("nodir/x.po"))],
      [404, `Directory not found: ${at("nodir")}`],
    ],
    [
      "a file used as a directory",
      at("ok.po/x.po"),
      [404, notFound(at("ok.po/x.po"))],
      [422, `Not a directory: ${at("ok.po")}`],
    ],
    [
      "a dangling symlink pointing outside",
      at("dangling-out.po"),
      [404, notFound(at("dangling-out.po"))],
      [422, notRegular(at("dangling-out.po"))],
    ],
    ["a symlink loop", at("loop1.po"), [404, notFound(at("loop1.po"))], [422, notRegular(at("loop1.po"))]],
    [
      "a directory symlink loop",
      at("loopdir/x.po"),
      [404, notFound(at("loopdir/x.po"))],
      [404, `Directory not found: ${at("loopdir")}`],
    ],
    ["a symlink loop outside the roots", `${outside}/loop.po`, [403, outsideRoots(`${outside}/loop.po`)]],
    [
      "a name longer than the file system allows",
      at(`${"x".repeat(300)}.po`),
      [422, `Invalid file path: a name in it is too long: ${at(`${"x".repeat(300)}.po`)}`],
    ],
    [
      "a name whose lock and temp files would be too long",
      at(longName),
      [404, notFound(at(longName))],
      [422, `Invalid file path: a name in it is too long: ${at(longName)}`],
    ],
    [
      `a file larger than the store's maxFileBytes (${SMALL_FILE_LIMIT})`,
      at("big.po"),
      [
        413,
        new RegExp(
          `^File too large: ${
            escapeRegExp(at("big.po"))
          } is \\d+ bytes, the limit is ${SMALL_FILE_LIMIT} bytes$`,
        ),
      ],
      undefined,
      "smallFile",
    ],
  ];
  if (fx.fifo) {
    table.push(["a FIFO named .po (never opened)", at("fifo.po"), [422, notRegular(at("fifo.po"))]]);
  }
  for (const [name, path, read, write = read, app] of table) {
    for (const endpoint of PO_ENDPOINTS) {
      const [status, detail] = endpoint === "/po/write" ? write : read;
      rows.push({ name, endpoint, body: poBody(endpoint, path), status, detail, app });
    }
  }
  rows.push(
    {
      name: `a write whose result exceeds maxFileBytes (${SMALL_FILE_LIMIT}) leaves the file as it was`,
      endpoint: "/po/write",
      app: "smallFile",
      body: { file_path: at("ok.po"), entries: [{ msgid: "long", msgstr: "z".repeat(SMALL_FILE_LIMIT) }] },
      status: 413,
      detail: new RegExp(
        `^Cannot write ${escapeRegExp(at("ok.po"))}: the new contents are \\d+ bytes, the limit is ` +
          `${SMALL_FILE_LIMIT} bytes$`,
      ),
    },
  );
  return rows;
}

/** Endpoints without input ignore any body, as FastAPI does (it is never read). */
function noInputRows(): Case[] {
  const rows: Case[] = [];
  for (const endpoint of NO_INPUT_ENDPOINTS) {
    const ok = (b: Record<string, unknown>) => assert.equal(b.success, true);
    rows.push(
      { name: "malformed JSON is ignored", endpoint, raw: '{"k": ', status: 200, check: ok },
      {
        name: "invalid UTF-8 is ignored",
        endpoint,
        raw: new Uint8Array([0xff, 0xfe]),
        status: 200,
        check: ok,
      },
      { name: "arguments are ignored", endpoint, body: { keywords: 5, extra: true }, status: 200, check: ok },
      {
        name: "deep nesting is ignored",
        endpoint,
        raw: "[".repeat(DEEP) + "]".repeat(DEEP),
        status: 200,
        check: ok,
      },
      {
        name: "a body over the limit is ignored (never read)",
        endpoint,
        app: "smallBody",
        raw: new Uint8Array(SMALL_BODY_LIMIT * 4).fill(0x5b),
        status: 200,
        check: ok,
      },
    );
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Running a row
// ---------------------------------------------------------------------------------------------

function isArgumentRow(c: Case): boolean {
  return c.raw === undefined && c.headers === undefined && (c.app ?? "main") === "main" &&
    c.body !== null && typeof c.body === "object" && !Array.isArray(c.body) &&
    !(NO_INPUT_ENDPOINTS as readonly string[]).includes(c.endpoint);
}

function requestText(c: Case): string {
  if (c.raw === undefined) return JSON.stringify(c.body);
  return typeof c.raw === "string" ? c.raw : new TextDecoder().decode(c.raw);
}

function newLogLines(lines: string[], from: number): string[] {
  return lines.slice(from).filter((l) => !/^[A-Z]+ \S+ \d{3} [\d.]+ms$/.test(l));
}

async function runHttp(fx: Fixture, c: Case): Promise<void> {
  const label = `${c.endpoint} ${c.name} [${c.app ?? "main"}]`;
  const { app, lines } = fx.apps[c.app ?? "main"];
  const isPo = c.endpoint.startsWith("/po/");
  const before = isPo ? [await snapshot(fx.root), await snapshot(fx.outside)] : null;
  const logFrom = lines.length;
  const res = c.raw === undefined
    ? await postJson(app, c.endpoint, c.body, c.headers)
    : await app.request(c.endpoint, {
      method: "POST",
      headers: c.headers ?? { "content-type": "application/json" },
      body: typeof c.raw === "string" ? utf8.encode(c.raw) : c.raw,
    });
  const text = await res.text();
  assert.notEqual(res.status, 500, `${label}: ${text.slice(0, 300)}`);
  assert.equal(res.status, c.status, `${label}: ${text.slice(0, 300)}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, label);
  if (c.maxAnswerBytes !== undefined) {
    assert.ok(text.length <= c.maxAnswerBytes, `${label}: a ${text.length}-byte answer`);
  }
  const body = JSON.parse(text);
  if (c.status >= 400) {
    assert.deepEqual(Object.keys(body), ["detail"], label);
    assertDetail(label, body.detail, c.detail);
  } else {
    c.check?.(body);
  }
  assertNoLeak(label, fx, requestText(c), text);
  assert.deepEqual(newLogLines(lines, logFrom), [], `${label}: the app logged an unexpected error`);
  if (before && !(c.endpoint === "/po/write" && c.status === 200)) {
    assert.deepEqual(await snapshot(fx.root), before[0], `${label}: the catalogue root changed`);
    assert.deepEqual(
      await snapshot(fx.outside),
      before[1],
      `${label}: the directory beside the root changed`,
    );
  }
}

function inProcessMcp(
  app: { request: (input: string | Request, init?: RequestInit) => Response | Promise<Response> },
) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
  });
  return { client: new Client({ name: "bad-input-matrix", version: "1.0.0" }), transport };
}

const TOOL_NAMES = new Map(allTools().map((t) => [t.path, t.name]));

async function runMcp(fx: Fixture, client: Client, c: Case): Promise<void> {
  const name = TOOL_NAMES.get(c.endpoint)!;
  const label = `MCP ${name} ${c.name}`;
  const { lines } = fx.apps.main;
  const logFrom = lines.length;
  const isPo = c.endpoint.startsWith("/po/");
  const before = isPo ? [await snapshot(fx.root), await snapshot(fx.outside)] : null;
  // Over MCP write_po defaults to mode "update" (issue 34.2); the rows were written for HTTP's
  // create-or-update, which an agent asks for by name.
  // (Not on a validation row: its detail echoes the input as sent.)
  const args =
    c.endpoint === "/po/write" && !Array.isArray(c.detail) && c.body !== null && typeof c.body === "object" &&
      !Array.isArray(c.body) && !("mode" in c.body)
      ? { ...(c.body as Record<string, unknown>), mode: "upsert" }
      : c.body as Record<string, unknown>;
  const result = await client.callTool({ name, arguments: args });
  const text = JSON.stringify(result);
  if (c.status >= 400) {
    assert.equal(result.isError, true, `${label}: ${text.slice(0, 300)}`);
    assert.equal(result.structuredContent, undefined, `${label}: an error has no structured content`);
    const shown = (result.content as { text: string }[])[0]?.text ?? "";
    // The text is the message, or the 422 items as JSON.
    const detail = shown.startsWith("[") ? JSON.parse(shown) : shown;
    assertDetail(label, detail, c.detail);
  } else {
    assert.equal(result.isError, undefined, `${label}: ${text.slice(0, 300)}`);
    c.check?.(result.structuredContent as Record<string, unknown>);
  }
  assert.ok(!text.includes("Internal Server Error"), label);
  assertNoLeak(label, fx, JSON.stringify(c.body), text);
  assert.deepEqual(newLogLines(lines, logFrom), [], `${label}: the app logged an unexpected error`);
  if (before && !(c.endpoint === "/po/write" && c.status === 200)) {
    assert.deepEqual(await snapshot(fx.root), before[0], `${label}: the catalogue root changed`);
    assert.deepEqual(
      await snapshot(fx.outside),
      before[1],
      `${label}: the directory beside the root changed`,
    );
  }
}

/** Rows of the history tools (entry_history, changes_since, next_to_translate). */
function historyRows(fx: Fixture): Case[] {
  const ok = fx.at("ok.po");
  return [
    {
      name: "a catalogue in no git checkout has no history",
      endpoint: "/po/history",
      body: { file_path: ok, msgid: "a" },
      status: 200,
      check: (b) => assert.deepEqual([b.commits, b.reason], [[], "the catalogue is in no git checkout"]),
    },
    {
      name: "a catalogue outside the roots",
      endpoint: "/po/history",
      body: { file_path: "/etc/fr.po", msgid: "a" },
      status: 403,
      detail: /^Path is outside the catalogue roots \(.*\): \/etc\/fr\.po$/,
    },
    {
      name: "limit 0",
      endpoint: "/po/history",
      body: { file_path: ok, msgid: "a", limit: 0 },
      status: 422,
      detail: (d: unknown) => assert.equal((d as { type: string }[])[0]!.type, "greater_than_equal"),
    },
    {
      name: "a ref that is an option",
      endpoint: "/po/changes",
      body: { ref: "--output=/tmp/x" },
      status: 400,
      detail: 'not a revision name: "--output=/tmp/x"',
    },
    {
      name: "a ref that is a range",
      endpoint: "/po/changes",
      body: { ref: "HEAD..main", file_path: ok },
      status: 400,
      detail: 'not a revision name: "HEAD..main"',
    },
    {
      name: "a ref too long",
      endpoint: "/po/changes",
      body: { ref: "x".repeat(300) },
      status: 422,
      detail: (d: unknown) => assert.equal((d as { type: string }[])[0]!.type, "string_too_long"),
    },
    {
      name: "ranked catalogues",
      endpoint: "/po/next",
      body: { limit: 5, under: fx.root },
      status: 200,
      check: (b) => assert.ok(Array.isArray(b.catalogues)),
    },
    {
      name: "a directory outside the roots",
      endpoint: "/po/next",
      body: { under: "/etc" },
      status: 403,
      detail: "Directory is outside the catalogue roots: /etc",
    },
  ];
}

/** Rows of the workbench tools (list_catalogues, list_entries, search_entries). */
function workbenchRows(fx: Fixture): Case[] {
  const ok = fx.at("ok.po");
  const invalidCursor =
    "Invalid cursor: not a cursor. Pass next_cursor exactly as returned, with the same request.";
  return [
    {
      // Answers name the root (as configured: MCP clients are told the roots); here the request names it.
      name: "the whole tree",
      endpoint: "/po/catalogues",
      body: { under: fx.root },
      status: 200,
      check: (b) => assert.ok(Array.isArray(b.catalogues)),
    },
    {
      name: "a directory outside the roots",
      endpoint: "/po/catalogues",
      body: { under: "/etc" },
      status: 403,
      detail: "Directory is outside the catalogue roots: /etc",
    },
    {
      name: "a directory climbing out of the root",
      endpoint: "/po/catalogues",
      body: { under: "../x" },
      status: 422,
      detail: "Invalid directory: it leaves the catalogue root: ../x",
    },
    {
      name: "a forged cursor",
      endpoint: "/po/catalogues",
      body: { cursor: "e30" },
      status: 422,
      detail: invalidCursor,
    },
    {
      name: "an extra field is forbidden",
      endpoint: "/po/catalogues",
      body: { extra: 1 },
      status: 422,
      detail: [extraForbidden(["extra"], 1)],
    },
    {
      name: "a page of one entry",
      endpoint: "/po/entries",
      body: { path: ok, limit: 1 },
      status: 200,
      check: (b) => assert.equal((b.entries as unknown[]).length, 1),
    },
    { name: "path missing", endpoint: "/po/entries", body: {}, status: 422, detail: [missing(["path"], {})] },
    {
      name: "a relative path climbing out of the root",
      endpoint: "/po/entries",
      body: { path: "../x.po" },
      status: 422,
      detail: "Invalid file path: it leaves the catalogue root: ../x.po",
    },
    {
      name: "a cursor that is not one",
      endpoint: "/po/entries",
      body: { path: ok, cursor: "!" },
      status: 422,
      detail: invalidCursor,
    },
    {
      name: "a substring",
      endpoint: "/po/search",
      body: { query: "a", under: fx.root },
      status: 200,
      check: (b) => assert.ok(Array.isArray(b.hits)),
    },
    {
      name: "query missing",
      endpoint: "/po/search",
      body: {},
      status: 422,
      detail: [missing(["query"], {})],
    },
    {
      name: "a regular expression the linear engine cannot run",
      endpoint: "/po/search",
      body: { query: "a{17}", regex: true },
      status: 422,
      detail: "Regular expression refused: it cannot run in linear time: a counted repetition above 16 " +
        "({17}, {0,17}, {17,}; nested counts multiply: (a{4}){5} is 20): a{17}",
    },
  ];
}

/** `/po/header`, `/po/header/update`, `/po/merge`, `/po/compile`: the maintenance tools. */
function maintainRows(fx: Fixture): Case[] {
  const outside = (p: string) => `Path is outside the catalogue roots (${fx.root}): ${p}`;
  return [
    {
      name: "the header of a file",
      endpoint: "/po/header",
      body: { file_path: fx.at("ok.po") },
      status: 200,
      check: (b) => assert.equal(b.present, true),
    },
    {
      name: "a link out of the roots",
      endpoint: "/po/header",
      body: { file_path: fx.at("out.po") },
      status: 403,
      detail: outside(fx.at("out.po")),
    },
    {
      name: "a Plural-Forms gettext cannot parse",
      endpoint: "/po/header/update",
      body: { file_path: fx.at("ok.po"), set: { "Plural-Forms": "nplurals=2; plural=n = 1;" } },
      status: 422,
      detail: "Plural-Forms: invalid plural expression (unexpected text after the expression)",
    },
    {
      name: "a value with a newline (a second field smuggled in)",
      endpoint: "/po/header/update",
      body: { file_path: fx.at("ok.po"), set: { Language: "fr\nX-Evil: 1" } },
      status: 422,
      detail: "Header field Language must be one line: its value holds a newline, CR or NUL",
    },
    {
      name: "too many fields",
      endpoint: "/po/header/update",
      body: {
        file_path: fx.at("ok.po"),
        set: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`X-F${i}`, "1"])),
      },
      status: 422,
      detail: (d: unknown) => assert.deepEqual((d as { loc: Loc }[])[0]!.loc, ["body", "set"]),
    },
    {
      name: "a link out of the roots",
      endpoint: "/po/header/update",
      body: { file_path: fx.at("out.po"), set: { Language: "fr" } },
      status: 403,
      detail: outside(fx.at("out.po")),
    },
    {
      name: "a dry run of a catalogue with itself as template",
      endpoint: "/po/merge",
      body: { file_path: fx.at("ok.po"), template_path: fx.at("ok.po"), dry_run: true },
      status: 200,
      check: (b) => assert.equal(b.written, false),
    },
    {
      name: "a template outside the roots",
      endpoint: "/po/merge",
      body: { file_path: fx.at("ok.po"), template_path: "/etc/app.pot" },
      status: 403,
      detail: outside("/etc/app.pot"),
    },
    {
      name: "an output that is not a catalogue",
      endpoint: "/po/merge",
      body: { file_path: fx.at("ok.po"), template_path: fx.at("ok.po"), output_path: fx.at("ok.txt") },
      status: 422,
      detail: `Invalid file path: must end in .po or .pot: ${fx.at("ok.txt")}`,
    },
    {
      name: "term usage of a term longer than a term may be",
      endpoint: "/po/term_usage",
      body: { term: "x".repeat(201) },
      status: 422,
      detail: [{
        type: "string_too_long",
        loc: ["body", "term"],
        msg: "String should have at most 200 characters",
        input: `${"x".repeat(200)}… [1 more characters]`,
        ctx: { max_length: 200 },
      }],
    },
    {
      name: "term usage of a word no root has as a term: counted, nothing agreed",
      endpoint: "/po/term_usage",
      body: { term: "zzyzx", file_path_prefix: "/etc/" },
      status: 200,
      check: (b) => {
        const [term] = b.terms as { agreed: string | null; entries: number }[];
        assert.deepEqual([term!.agreed, term!.entries, b.files], [null, 0, 0]);
      },
    },
    {
      name: "a purge of a catalogue outside the roots",
      endpoint: "/po/purge",
      body: { file_path: "/etc/app.po" },
      status: 403,
      detail: outside("/etc/app.po"),
    },
    {
      name: "a purge against a before_path outside the roots",
      endpoint: "/po/purge",
      body: { file_path: fx.at("ok.po"), which: "before", before_path: "/etc/app.po" },
      status: 403,
      detail: outside("/etc/app.po"),
    },
    {
      name: "a purge of the obsolete entries before a merge, without before_path",
      endpoint: "/po/purge",
      body: { file_path: fx.at("ok.po"), which: "before" },
      status: 422,
      detail: 'Invalid request: which "before" needs before_path',
    },
    {
      name: "a dry-run purge",
      endpoint: "/po/purge",
      body: { file_path: fx.at("ok.po"), dry_run: true },
      status: 200,
      check: (b) => assert.equal(b.written, false),
    },
    {
      name: "an output outside the roots",
      endpoint: "/po/compile",
      body: { file_path: fx.at("ok.po"), output_path: "/tmp/evil.mo" },
      status: 403,
      detail: outside("/tmp/evil.mo"),
    },
    {
      name: "an output that is not an MO file",
      endpoint: "/po/compile",
      body: { file_path: fx.at("ok.po"), output_path: fx.at("ok.po") },
      status: 422,
      detail: `Invalid file path: must end in .mo: ${fx.at("ok.po")}`,
    },
    {
      name: "a link out of the roots",
      endpoint: "/po/compile",
      body: { file_path: fx.at("out.po") },
      status: 403,
      detail: outside(fx.at("out.po")),
    },
  ];
}

/** `/po/check` (check_po): one entry, a file or a tree; it never writes. */
function checkRows(fx: Fixture): Case[] {
  const outside = (p: string) => `Path is outside the catalogue roots (${fx.root}): ${p}`;
  const problems = (checks: string[]) => (b: Record<string, unknown>) =>
    assert.deepEqual((b.problems as { check: string }[]).map((p) => p.check), checks);
  return [
    {
      name: "a file",
      endpoint: "/po/check",
      body: { file_path: fx.at("ok.po") },
      status: 200,
      check: problems([]),
    },
    {
      name: "the tree: a file gettext cannot read is a syntax problem, not an error",
      endpoint: "/po/check",
      body: { directory: fx.root, checks: ["syntax"] },
      status: 200,
      check: (b) => assert.ok((b.problems as { check: string }[]).some((p) => p.check === "syntax")),
    },
    {
      name: "nothing to check",
      endpoint: "/po/check",
      body: {},
      status: 422,
      detail: "Give one of: entry (optionally with file_path for its header), file_path, directory",
    },
    {
      name: "a directory outside the roots",
      endpoint: "/po/check",
      body: { directory: "/etc" },
      status: 403,
      detail: outside("/etc"),
    },
    {
      name: "a link out of the roots",
      endpoint: "/po/check",
      body: { file_path: fx.at("out.po") },
      status: 403,
      detail: outside(fx.at("out.po")),
    },
    {
      name: "an unknown check",
      endpoint: "/po/check",
      body: { file_path: fx.at("ok.po"), checks: ["python-fromat"] },
      status: 422,
      detail: (d: unknown) => assert.deepEqual((d as { loc: Loc }[])[0]!.loc, ["body", "checks", 0]),
    },
    {
      name: "an entry with too many plural forms",
      endpoint: "/po/check",
      body: {
        entry: {
          msgid: "a",
          msgid_plural: "b",
          msgstr_plural: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i), "x"])),
        },
      },
      status: 422,
      detail: "An entry has at most 100 plural forms",
    },
  ];
}

/** Field rows for get_patent, /po/entries and /po/search (wrong types, unknown fields, bounds, paths). */
function lookupRows(fx: Fixture): Case[] {
  const ok = fx.at("ok.po");
  const outsideRoots = (p: string) => `Path is outside the catalogue roots (${fx.root}): ${p}`;
  const tooLong = (loc: Loc, input: string, max: number) => ({
    type: "string_too_long",
    loc: ["body", ...loc],
    msg: `String should have at most ${max} characters`,
    input: `${input.slice(0, 200)}… [${input.length - 200} more characters]`,
    ctx: { max_length: max },
  });
  const tooShort = (loc: Loc) => ({
    type: "string_too_short",
    loc: ["body", ...loc],
    msg: "String should have at least 1 character",
    input: "",
    ctx: { min_length: 1 },
  });
  const longNumber = "9".repeat(5000);
  const longQuery = "a".repeat(100_000);
  return [
    {
      name: "number not a string",
      endpoint: "/tools/get_patent",
      body: { number: 5 },
      status: 422,
      detail: [stringType(["number"], 5)],
    },
    {
      name: "number empty",
      endpoint: "/tools/get_patent",
      body: { number: "" },
      status: 422,
      detail: [tooShort(["number"])],
    },
    {
      name: "a 5000-character number (echoed cut)",
      endpoint: "/tools/get_patent",
      body: { number: longNumber },
      status: 422,
      detail: [tooLong(["number"], longNumber, 40)],
      maxAnswerBytes: 1000,
    },
    {
      name: "a path for a number",
      endpoint: "/tools/get_patent",
      body: { number: "../../etc/passwd" },
      status: 422,
      detail:
        '"../../etc/passwd" is not a patent number: expected a country code and digits with an optional ' +
        "kind code, like TWI123456B, US20230081319A1 or JP2003-055224A",
    },
    {
      name: "max_chars far too large",
      endpoint: "/tools/get_patent",
      body: { number: "TWI800001B", max_chars: 1e12 },
      status: 422,
      detail: [{
        type: "less_than_equal",
        loc: ["body", "max_chars"],
        msg: "Input should be less than or equal to 500000",
        input: 1e12,
        ctx: { le: 500000 },
      }],
    },
    {
      name: "fields a string",
      endpoint: "/tools/get_patent",
      body: { number: "TWI800001B", fields: "title" },
      status: 422,
      detail: [listType(["fields"], "title")],
    },
    {
      name: "an extra field is forbidden",
      endpoint: "/tools/get_patent",
      body: { number: "TWI800001B", extra: 1 },
      status: 422,
      detail: [extraForbidden(["extra"], 1)],
    },
    {
      name: "path not a string",
      endpoint: "/po/entries",
      body: { path: 5 },
      status: 422,
      detail: [stringType(["path"], 5)],
    },
    {
      name: "a file outside the roots",
      endpoint: "/po/entries",
      body: { path: `${fx.outside}/secret.po` },
      status: 403,
      detail: outsideRoots(`${fx.outside}/secret.po`),
    },
    {
      name: "a symlink inside pointing outside",
      endpoint: "/po/entries",
      body: { path: fx.at("out.po") },
      status: 403,
      detail: outsideRoots(fx.at("out.po")),
    },
    {
      name: "limit far too large",
      endpoint: "/po/entries",
      body: { path: ok, limit: 1e9 },
      status: 422,
      detail: [{
        type: "less_than_equal",
        loc: ["body", "limit"],
        msg: "Input should be less than or equal to 1000",
        input: 1e9,
        ctx: { le: 1000 },
      }],
    },
    {
      name: "an extra field is forbidden",
      endpoint: "/po/entries",
      body: { path: ok, extra: 1 },
      status: 422,
      detail: [extraForbidden(["extra"], 1)],
    },
    {
      name: "query not a string",
      endpoint: "/po/search",
      body: { query: 5 },
      status: 422,
      detail: [stringType(["query"], 5)],
    },
    {
      name: "a 100,000-character query (echoed cut)",
      endpoint: "/po/search",
      body: { query: longQuery },
      status: 422,
      detail: [tooLong(["query"], longQuery, 1000)],
      maxAnswerBytes: 1000,
    },
    {
      name: "a directory outside the roots",
      endpoint: "/po/search",
      body: { query: "a", under: "/etc" },
      status: 403,
      detail: "Directory is outside the catalogue roots: /etc",
    },
    {
      name: "a regular expression that does not parse",
      endpoint: "/po/search",
      body: { query: "(", regex: true },
      status: 422,
      detail: "Regular expression refused: /(/: Unterminated group: (",
    },
    {
      name: "an extra field is forbidden",
      endpoint: "/po/search",
      body: { query: "a", extra: 1 },
      status: 422,
      detail: [extraForbidden(["extra"], 1)],
    },
  ];
}

/** The audit log's query (issue 39.2): bounded strings, real times, msgctxt only with msgid. */
function auditRows(fx: Fixture): Case[] {
  return [
    {
      name: "an audit query with msgctxt and no msgid",
      endpoint: "/po/audit",
      body: { msgctxt: "menu" },
      status: 422,
      detail: "Invalid request: msgctxt needs msgid",
    },
    {
      name: "an audit query with a time that is not one",
      endpoint: "/po/audit",
      body: { since: "yesterday" },
      status: 422,
      detail: [{
        type: "value_error",
        loc: ["body", "since"],
        msg: "an ISO 8601 time, e.g. 2026-01-31T12:00:00Z",
        input: "yesterday",
      }],
    },
    {
      name: "an audit query with a time of 100 KB: refused, not echoed whole",
      endpoint: "/po/audit",
      body: { until: "2".repeat(100_000) },
      status: 422,
      maxAnswerBytes: 4096,
      detail: [{
        type: "value_error",
        loc: ["body", "until"],
        msg: "an ISO 8601 time, e.g. 2026-01-31T12:00:00Z",
        input: `${"2".repeat(200)}… [99800 more characters]`,
      }],
    },
    {
      name: "an audit query over a limit of 1000",
      endpoint: "/po/audit",
      body: { limit: 1001 },
      status: 422,
      detail: [{
        type: "less_than_equal",
        loc: ["body", "limit"],
        msg: "Input should be less than or equal to 1000",
        input: 1001,
        ctx: { le: 1000 },
      }],
    },
    {
      name: "an audit query of a catalogue outside the roots finds nothing",
      endpoint: "/po/audit",
      body: { file_path: "/etc/app.po" },
      status: 200,
      check: (b) => assert.deepEqual(b, { records: [], truncated: false }),
    },
    {
      name: "an audit query of a catalogue",
      endpoint: "/po/audit",
      body: { file_path: fx.at("ok.po"), msgid: "a", msgctxt: null, who: "ada" },
      status: 200,
      check: (b) => assert.deepEqual(b, { records: [], truncated: false }),
    },
  ];
}

function allRows(fx: Fixture): Case[] {
  return [
    ...auditRows(fx),
    ...bodyRows(fx),
    ...fieldRows(fx),
    ...pathRows(fx),
    ...noInputRows(),
    ...workbenchRows(fx),
    ...historyRows(fx),
    ...checkRows(fx),
    ...maintainRows(fx),
    ...lookupRows(fx),
    ...reviewRows(fx),
  ];
}

/** `/po/drafts`, `/po/review`: the review lane (docs/review.md). */
function reviewRows(fx: Fixture): Case[] {
  const ok = fx.at("ok.po");
  const outside = (p: string) => `Path is outside the catalogue roots (${fx.root}): ${p}`;
  const review = (extra: Record<string, unknown>) => ({
    file_path: ok,
    msgid: "a",
    action: "approve",
    ...extra,
  });
  return [
    { name: "the whole tree, no draft", endpoint: "/po/drafts", body: {}, status: 200 },
    {
      name: "drafts of a catalogue outside the roots",
      endpoint: "/po/drafts",
      body: { file_path: "/etc/app.po" },
      status: 403,
      detail: outside("/etc/app.po"),
    },
    {
      name: "drafts of a missing catalogue",
      endpoint: "/po/drafts",
      body: { file_path: fx.at("never-written.po") },
      status: 404,
      detail: `File not found: ${fx.at("never-written.po")}`,
    },
    {
      name: "an author past 200 characters",
      endpoint: "/po/drafts",
      body: { author: "a".repeat(201) },
      status: 422,
      detail: (d: unknown) => assert.equal((d as { type: string }[])[0]!.type, "string_too_long"),
    },
    {
      name: "a cursor that is not one",
      endpoint: "/po/drafts",
      body: { cursor: "not-a-cursor" },
      status: 422,
      detail: "Invalid cursor: not a cursor. Pass next_cursor exactly as returned, with the same request.",
    },
    {
      name: "an action that is neither approve nor reject",
      endpoint: "/po/review",
      body: review({ action: "delete" }),
      status: 422,
      detail: (d: unknown) => assert.equal((d as { type: string }[])[0]!.type, "literal_error"),
    },
    {
      name: "msgid missing",
      endpoint: "/po/review",
      body: { file_path: ok, action: "approve" },
      status: 422,
      detail: [missing(["msgid"], { file_path: ok, action: "approve" })],
    },
    {
      name: "a review outside the roots",
      endpoint: "/po/review",
      body: review({ file_path: "/etc/app.po" }),
      status: 403,
      detail: outside("/etc/app.po"),
    },
    {
      name: "a reject of an entry that is no draft",
      endpoint: "/po/review",
      body: review({ action: "reject" }),
      status: 409,
      detail:
        'Nothing was written: the entry with msgid "a" is not a draft (any more): someone reviewed it, ' +
        "or it was never marked. Read it again.",
    },
    {
      name: "an approve of an entry that is no draft changes nothing",
      endpoint: "/po/review",
      body: review({}),
      status: 200,
      check: (b) => assert.equal(b.written, false),
    },
    {
      name: "a reject with an edit",
      endpoint: "/po/review",
      body: review({ action: "reject", msgstr: "x" }),
      status: 422,
      detail: "Invalid review: msgstr edits an approved draft; a reject restores the previous translation",
    },
    {
      name: "an If-Match that is no entity tag",
      endpoint: "/po/review",
      body: review({}),
      headers: { "content-type": "application/json", "if-match": 'W/"x"' },
      status: 422,
      detail: [{
        type: "value_error",
        loc: ["header", "if-match"],
        msg:
          'Value error, expected one strong entity tag, "REVISION" (a weak W/ tag, * or a list cannot be ' +
          "compared with a revision)",
        input: 'W/"x"',
      }],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

Deno.test("bad-input matrix over HTTP: every endpoint, its status and detail, no 500, no leak", async (t) => {
  await using fx = await matrixFixture();
  const rows = allRows(fx);
  const endpoints = [...new Set(rows.map((r) => r.endpoint))];
  assert.deepEqual(
    endpoints.toSorted(),
    allTools().map((tool) => tool.path).toSorted(),
    "the matrix covers every endpoint",
  );
  for (const endpoint of endpoints) {
    await t.step(endpoint, async () => {
      for (const row of rows.filter((r) => r.endpoint === endpoint)) await runHttp(fx, row);
    });
  }
  assert.ok(
    fx.fake.requests.length > 0 &&
      fx.fake.requests.every((q) => q.startsWith(`userCode=${SECRET_USER_CODE}&`)),
    "the searches did go upstream with the secret user code, which no answer showed",
  );
});

Deno.test("bad-input matrix over MCP: the argument-level rows give the same detail as isError", async () => {
  await using fx = await matrixFixture();
  const rows = allRows(fx).filter(isArgumentRow);
  assert.ok(rows.length > 100, `${rows.length} argument-level rows`);
  const { client, transport } = inProcessMcp(fx.apps.main.app);
  await client.connect(transport);
  try {
    for (const row of rows) await runMcp(fx, client, row);
  } finally {
    await client.close();
  }
});

Deno.test("MCP transport: bad JSON-RPC bodies and deeply nested arguments get clean 4xx / isError", async () => {
  await using fx = await matrixFixture();
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const call = (args: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"new_endpoint","arguments":${args}}}`;
  const cases: [
    string,
    AppName,
    string | Uint8Array<ArrayBuffer>,
    Record<string, string>,
    number,
    number | null,
  ][] = [
    ["malformed JSON", "main", '{"jsonrpc": ', headers, 400, -32700],
    ["invalid UTF-8", "main", new Uint8Array([0x7b, 0xff, 0x7d]), headers, 400, -32700],
    ["empty body", "main", "", headers, 400, -32700],
    ["body null", "main", "null", headers, 400, -32600],
    ["text/plain", "main", call('{"name":"x"}'), { ...headers, "content-type": "text/plain" }, 415, -32000],
    ["arguments an array", "main", call("[1]"), headers, 200, -32602],
    [`${DEEP} nested arrays as the body`, "main", "[".repeat(DEEP) + "]".repeat(DEEP), headers, 400, -32600],
    [
      "over the body limit",
      "smallBody",
      call(`{"name":"${"x".repeat(SMALL_BODY_LIMIT)}"}`),
      headers,
      413,
      -32000,
    ],
  ];
  for (const [label, appName, body, h, status, code] of cases) {
    const { app, lines } = fx.apps[appName];
    const from = lines.length;
    const res = await app.request("/mcp", {
      method: "POST",
      headers: h,
      body: typeof body === "string" ? utf8.encode(body) : body,
    });
    const text = await res.text();
    assert.equal(res.status, status, `${label}: ${text.slice(0, 200)}`);
    const data = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
    assert.equal(JSON.parse(data).error?.code ?? null, code, `${label}: ${text.slice(0, 200)}`);
    assertNoLeak(label, fx, typeof body === "string" ? body : "", text);
    assert.ok(!lines.slice(from).some((l) => l.startsWith("unexpected error")), label);
  }

  // Arguments nested 100000 deep: refused without being echoed (serialising them is quadratic).
  const res = await fx.apps.main.app.request("/mcp", {
    method: "POST",
    headers,
    body: utf8.encode(call(`{"name":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`)),
  });
  const text = await res.text();
  assert.equal(res.status, 200);
  assert.ok(text.length < 1000, `a ${text.length}-byte answer`);
  const result = JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))!.slice(6)).result;
  assert.equal(result.isError, true);
  assert.deepEqual(JSON.parse(result.content[0].text), [{
    type: "json_invalid",
    loc: ["body"],
    msg: "JSON decode error",
    input: {},
    ctx: { error: TOO_DEEP },
  }]);

  const get = await fx.apps.main.app.request("/mcp");
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

Deno.test("nesting depth: 1000 levels are validated as usual, 1001 are refused at that value", async () => {
  const { app } = testApp();
  const nested = (n: number) => `{"name":${"[".repeat(n)}${"]".repeat(n)}}`;
  const atLimit = await postJson(app, "/new/endpoint/", nested(1000));
  assert.equal(atLimit.status, 422);
  const detail = (await atLimit.json()).detail;
  assert.equal(detail[0].type, "string_type");
  // Echoed as a summary: a value whose JSON is over MAX_ECHO_JSON_CHARS is not repeated.
  assert.equal(detail[0].input, "<list of 1 item>");
  const over = await postJson(app, "/new/endpoint/", nested(1001));
  assert.equal(over.status, 422);
  assert.deepEqual((await over.json()).detail, jsonInvalid('{"name":'.length + 1000, TOO_DEEP));
});

Deno.test("the default body limit (16 MiB): one byte more is a 413 before parsing, over a real socket", async () => {
  const limit = parseConfig({}, { defaultPoRoots: ["/srv/po"], cwd: "/" }).maxBodyBytes;
  assert.equal(limit, 16 * 1024 * 1024, "the documented default MAX_BODY_BYTES");
  const { app, lines } = testApp({ config: { apiToken: undefined, maxBodyBytes: limit } });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  // Invalid UTF-8 throughout: parsed, it would be a 400, so a 413 shows nothing was parsed.
  const over = new Uint8Array(limit + 1).fill(0xff);
  for (const endpoint of INPUT_ENDPOINTS) {
    const res = await fetch(`${base}${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: over,
    });
    assert.equal(res.status, 413, endpoint);
    assert.deepEqual(await res.json(), { detail: `Request body too large: the limit is ${limit} bytes` });
  }
  const mcp = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: over,
  });
  assert.equal(mcp.status, 413);
  await mcp.body?.cancel();
  const exact = new Uint8Array(limit).fill(0x20);
  exact.set(utf8.encode('{"name":"Ada"}'));
  const res = await fetch(`${base}/new/endpoint/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: exact,
  });
  assert.equal(res.status, 200, "a body of exactly the limit is accepted");
  assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
  assert.ok(!lines.some((l) => l.startsWith("unexpected error")), lines.join("\n"));
});

Deno.test("a PO file written concurrently while read: every request 200, every read parses, no lost update", async () => {
  await using f = await poFixture({ "c.po": SAMPLE });
  const file = f.path("c.po");
  const written: string[] = [];
  for (let round = 0; round < 3; round++) {
    const requests: Promise<{ status: number; body: Record<string, unknown> }>[] = [];
    for (let i = 0; i < 6; i++) {
      const msgid = `w${round}-${i}`;
      written.push(msgid);
      requests.push(f.post("/po/write", {
        file_path: file,
        entries: [{ msgid, msgstr: `x${i}`, flags: i % 2 ? ["fuzzy"] : [] }, { msgid: "a", msgstr: `A${i}` }],
      }));
      requests.push(f.post("/po/read", { file_path: file }));
      requests.push(f.post("/po/find_fuzzy", { file_path: file }));
      requests.push(f.post("/po/read_context", { file_path: file, msgid: "b", context_size: 2 }));
    }
    const answers = await Promise.all(requests);
    for (const [i, a] of answers.entries()) {
      assert.equal(a.status, 200, `request ${i}: ${JSON.stringify(a.body)}`);
      if ("entries" in a.body) {
        const entries = a.body.entries as { msgid: string; flags: string[] }[];
        assert.ok(Array.isArray(entries) && entries.every((e) => typeof e.msgid === "string"));
        assert.ok(entries.every((e) => e.msgid !== ""), "the header is never an entry");
      } else if ("target_entry" in a.body) {
        assert.equal((a.body.target_entry as { msgstr: string }).msgstr, "B");
      } else {
        assert.equal(a.body.success, true);
      }
    }
  }
  const final = await f.post("/po/read", { file_path: file });
  const ids = (final.body.entries as { msgid: string }[]).map((e) => e.msgid);
  assert.deepEqual(ids.filter((id) => id.startsWith("w")).toSorted(), written.toSorted(), "no lost update");
  assert.deepEqual(ids.filter((id) => !id.startsWith("w")), ["a", "b"]);
  // What another process would read: the file itself parses and holds the same entries.
  const fresh = new CatalogueStore({ roots: [f.root], codec: PO_CODEC });
  assert.equal((await fresh.read(file)).doc.messages.length, ids.length + 1);
  assert.deepEqual(f.lines.filter((l) => !l.startsWith("POST ")), []);
});
