/**
 * search_patents' export (`format: "csv" | "jsonl"`, or an Accept header): RFC 4180 quoting, cells
 * safe from spreadsheet formulas, the documented columns, JSON Lines, over HTTP (streamed, with its
 * media type) and over MCP (the text), end to end against the fake GPSS on a real socket.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { csvColumns, GpssClient } from "../lib/gpss/mod.ts";
import { CSV_COLUMNS, csvField } from "../lib/gpss/export.ts";
import { FAKE_CORPUS, FAKE_USER_CODE, type FakeGpss, type FakePatent, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

/** A patent whose every text is hostile to a spreadsheet or a CSV reader. */
const HOSTILE: FakePatent = {
  database: "TWA",
  ag: "A",
  ty: "I",
  pn: "TW202399999A",
  pubDate: "20230301",
  an: "TW111199999",
  appDate: "20220301",
  title: '=HYPERLINK("http://attacker.example/","click")',
  englishTitle: '+SUM(1,2), with "quotes"',
  abstract: ["-2+3 first line\r\nsecond line", "@cmd|' /C calc'!A0"],
  applicants: [{ name: "@SUM(1) CO.", country: "TW" }],
  inventors: [{ name: "王, 小明", country: "TW" }],
  ipc: ["G06F 21/00"],
  claims: ["一種裝置。", "如請求項1所述之裝置。"],
};

/** RFC 4180 reader for the test (quoted fields, doubled quotes, CRLF records). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 2;
    } else {
      assert.notEqual(c, "\n", `a bare LF outside quotes at ${i}`);
      field += c;
      i++;
    }
  }
  assert.equal(field, "", "the text ends with CRLF");
  return rows;
}

async function withApp(fn: (app: ReturnType<typeof testApp>["app"], fake: FakeGpss) => Promise<void>) {
  const fake = await startFakeGpss({ corpus: [...FAKE_CORPUS, HOSTILE] });
  try {
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
    await fn(app, fake);
  } finally {
    await fake.close();
  }
}

Deno.test("csvField quotes as RFC 4180 asks and defuses what a spreadsheet would run", async (t) => {
  const cases: [string | null, string][] = [
    [null, ""],
    ["", ""],
    ["plain", "plain"],
    ["a, b", '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["=1+1", "'=1+1"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", '"\'\rx"'],
    ['=HYPERLINK("u","v")', '"\'=HYPERLINK(""u"",""v"")"'],
    ["a=b", "a=b"],
  ];
  for (const [value, expected] of cases) {
    await t.step(JSON.stringify(value), () => assert.equal(csvField(value), expected));
  }
});

Deno.test("format csv: the documented columns, one row per record, every cell read back as text", async () => {
  await withApp(async (app) => {
    const json = await (await postJson(app, "/tools/search_patents", {
      keywords: "TW202399999A or TW202300001A",
      search_field: "patent_number",
      fields: ["claims", "agents"],
    })).json();
    const res = await postJson(app, "/tools/search_patents", {
      keywords: "TW202399999A or TW202300001A",
      search_field: "patent_number",
      fields: ["claims", "agents"],
      format: "csv",
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
    assert.equal(res.headers.get("x-total-count"), "2");
    assert.equal(res.headers.get("x-next-offset"), null);
    const text = await res.text();
    assert.equal(res.headers.get("content-length"), String(new TextEncoder().encode(text).length));
    const [header, ...rows] = readCsv(text);
    assert.deepEqual(header, [...CSV_COLUMNS, "claims", "independent_claims", "agents"]);
    assert.deepEqual(header, csvColumns(["agents", "claims"]));
    assert.equal(rows.length, json.data.records.length);
    const hostile = Object.fromEntries(
      header.map((h, k) => [h, rows.find((r) => r[0] === "TW202399999A")![k]]),
    );
    assert.equal(hostile.title, `'=HYPERLINK("http://attacker.example/","click")`);
    assert.equal(hostile.english_title, `'+SUM(1,2), with "quotes"`);
    assert.equal(hostile.abstract, "'-2+3 first line\r\nsecond line\n@cmd|' /C calc'!A0");
    assert.equal(hostile.applicants, "'@SUM(1) CO.");
    assert.equal(hostile.inventors, "王, 小明");
    assert.equal(hostile.claims, "一種裝置。\n如請求項1所述之裝置。");
    assert.equal(hostile.independent_claims, "1");
    const tw = Object.fromEntries(header.map((h, k) => [h, rows.find((r) => r[0] === "TW202300001A")![k]]));
    assert.equal(tw.applicants, "範例電池股份有限公司; 範例大學");
    assert.equal(tw.agents, "陳代理");
    for (const row of rows) assert.equal(row.length, header.length);
  });
});

Deno.test("format jsonl, or an Accept header, gives one record per line, the records of the JSON answer", async () => {
  await withApp(async (app) => {
    const body = { keywords: "charging", search_field: ["title", "abstract"], max_results: 3 };
    const json = await (await postJson(app, "/tools/search_patents", body)).json();
    for (
      const [extra, headers] of [
        [{ format: "jsonl" }, undefined],
        [{}, { "content-type": "application/json", accept: "application/x-ndjson" }],
      ] as const
    ) {
      const res = await postJson(app, "/tools/search_patents", { ...body, ...extra }, headers);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/jsonl; charset=utf-8");
      assert.equal(res.headers.get("x-next-offset"), "3");
      const lines = (await res.text()).split("\n");
      assert.equal(lines.pop(), "", "each line ends with LF");
      assert.deepEqual(lines.map((l) => JSON.parse(l)), json.data.records);
    }
    const csv = await postJson(app, "/tools/search_patents", body, {
      "content-type": "application/json",
      accept: "text/csv",
    });
    assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
    await csv.body?.cancel();
  });
});

Deno.test("an export that fails stays a JSON answer, and one over MAX_RESPONSE_BYTES is refused", async () => {
  const { app } = testApp({ gpss: new GpssClient({ baseUrl: "http://127.0.0.1:9/", userCode: undefined }) });
  const res = await postJson(app, "/tools/search_patents", { keywords: "x", format: "csv" });
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal((await res.json()).success, false);
  const fake = await startFakeGpss();
  try {
    const { app } = testApp({
      config: { apiToken: undefined, maxBodyBytes: 1 << 20, maxResponseBytes: 1024 },
      gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }),
    });
    const big = await postJson(app, "/tools/search_patents", { keywords: "charging", format: "jsonl" });
    assert.equal(big.status, 422);
    assert.match((await big.json()).detail, /over the limit of 1024 bytes \(MAX_RESPONSE_BYTES\)/);
  } finally {
    await fake.close();
  }
});

Deno.test("over MCP, an export is the result's text, and the structured content carries it", async () => {
  await withApp(async (app) => {
    const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
      fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: "search_patents",
        arguments: { keywords: "radar", format: "csv" },
      });
      assert.equal(result.isError, undefined);
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      assert.ok(text.startsWith(CSV_COLUMNS.join(",") + "\r\n"), text.slice(0, 80));
      const structured = result.structuredContent as {
        export: { text: string; format: string };
        data: { total: number };
      };
      assert.equal(structured.export.text, text);
      assert.equal(structured.export.format, "csv");
      assert.equal(readCsv(text).length - 1, structured.data.total);
    } finally {
      await client.close();
    }
  });
});

Deno.test("/openapi.json documents the export's media types on search_patents", async () => {
  const { app } = testApp();
  const doc = await (await app.request("/openapi.json")).json();
  const ok = doc.paths["/tools/search_patents"].post.responses["200"].content;
  assert.deepEqual(Object.keys(ok), ["application/json", "text/csv", "application/jsonl"]);
  assert.equal(ok["text/csv"].schema.type, "string");
  const accept = doc.paths["/tools/search_patents"].post.parameters.find((p: { name: string }) =>
    p.name === "Accept"
  );
  assert.equal(accept.in, "header");
});
