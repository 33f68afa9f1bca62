/**
 * get_patent: numbers in the forms users type, read into what GPSS stores; the look-up end to end
 * against the fake GPSS over a real socket; `max_chars`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { InvalidInputError } from "../lib/errors.ts";
import { GpssClient } from "../lib/gpss/mod.ts";
import { capText } from "../lib/gpss/patent.ts";
import { parsePatentNumber } from "../lib/gpss/number.ts";
import { type PatentRecord } from "../lib/gpss/response.ts";
import { FAKE_USER_CODE, type FakeGpss, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

Deno.test("parsePatentNumber reads the forms users type into GPSS's, and picks the database", async (t) => {
  const cases: [string, string[], string[]][] = [
    ["TWI123456B", ["TWI123456B"], ["TWB"]],
    ["TW I123456", ["TWI123456"], ["TWB"]],
    ["tw i123456 b", ["TWI123456B"], ["TWB"]],
    ["TW201644272A", ["TW201644272A"], ["TWA"]],
    ["TWM640001U", ["TWM640001U"], ["TWB"]],
    ["TWD220001S", ["TWD220001S"], ["TWD"]],
    ["TW105131793", ["TW105131793"], []],
    ["US20230081319A1", ["US20230081319A1"], ["USA"]],
    ["US 2023/0081319 A1", ["US20230081319A1"], ["USA"]],
    ["US9492454B2", ["US09492454B2", "US9492454B2"], ["USB"]],
    ["US 9,415,051 B1", ["US09415051B1", "US9415051B1"], ["USB"]],
    ["USD987654S", ["USD0987654S", "USD987654S"], ["USD"]],
    ["JP2003055224A", ["JP2003-55224A", "JP2003055224A"], ["JPA"]],
    ["JP2003-55224A", ["JP2003-55224A", "JP2003055224A"], ["JPA"]],
    ["EP 1 818 058 A3", ["EP1818058A3"], ["EPA"]],
    ["EP3900001B1", ["EP3900001B1"], ["EPB"]],
    ["CN101587106A", ["CN101587106A"], ["CNA"]],
    ["KR20230001234A", ["KR20230001234A"], ["KPA"]],
    ["WO2016/190847 A1", ["WO2016190847A1"], ["WO"]],
    ["DE102019000001A1", ["DE102019000001A1"], []],
  ];
  for (const [typed, variants, databases] of cases) {
    await t.step(typed, () => {
      const n = parsePatentNumber(typed);
      assert.deepEqual(n.variants, variants);
      assert.deepEqual(n.databases, databases);
    });
  }
  for (
    const bad of ["", "   ", "123456", "TW", "T1234", "TWI12X456B", "US" + "1".repeat(60), "TW I123456 B; rm"]
  ) {
    await t.step(`refused: ${JSON.stringify(bad.slice(0, 20))}`, () => {
      assert.throws(() => parsePatentNumber(bad), InvalidInputError);
    });
  }
});

async function withApp(fn: (app: ReturnType<typeof testApp>["app"], fake: FakeGpss) => Promise<void>) {
  const fake = await startFakeGpss();
  try {
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
    await fn(app, fake);
  } finally {
    await fake.close();
  }
}

Deno.test("POST /tools/get_patent finds a patent by the number as typed, with its sections", async (t) => {
  await withApp(async (app, fake) => {
    await t.step("a Taiwanese grant typed with spaces, in its database only", async () => {
      const res = await postJson(app, "/tools/get_patent", { number: "TW I800001 B" });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const body = await res.json();
      assert.equal(body.success, true, body.error);
      assert.equal(body.patent.patent_number, "TWI800001B");
      assert.equal(body.matched_as, "publication");
      assert.deepEqual(body.normalized, { variants: ["TWI800001B"], databases: ["TWB"] });
      assert.equal(body.request_params.PN, "TWI800001B");
      assert.equal(body.request_params.patDB, "TWB");
      for (
        const key of ["claims", "citations", "classifications", "priority_claims", "agents", "examiners"]
      ) {
        assert.ok(key in body.patent, `every section by default: ${key}`);
      }
      assert.equal(body.truncated, null);
    });
    await t.step("a US grant typed without its zero, with claims only", async () => {
      const body = await (await postJson(app, "/tools/get_patent", {
        number: "us 9,415,051 b1",
        fields: ["claims"],
      })).json();
      assert.equal(body.patent.patent_number, "US09415051B1");
      assert.equal(body.patent.claims_preamble, "What is claimed is:");
      assert.deepEqual(body.patent.claims.map((c: { number: number }) => c.number), [1, 2, 3]);
      assert.ok(!("citations" in body.patent));
      assert.match(fake.requests.at(-1)!, /&PN=US09415051B1%20or%20US9415051B1&patDB=USB&/);
    });
    await t.step("a JP publication typed without GPSS's hyphen", async () => {
      const body = await (await postJson(app, "/tools/get_patent", { number: "JP2012224629A" })).json();
      assert.equal(body.patent.patent_number, "JP2012224629A");
      assert.deepEqual(body.patent.classifications.f_term, ["5G503AA01", "5G503BA01"]);
    });
    await t.step("an application number (no kind code) matches the application", async () => {
      const body = await (await postJson(app, "/tools/get_patent", { number: "TW 110140001" })).json();
      assert.equal(body.success, true, body.error);
      assert.equal(body.patent.patent_number, "TWI800001B");
      assert.equal(body.matched_as, "application");
      assert.match(fake.requests.at(-1)!, /&PN=TW110140001&\+AN=TW110140001&/);
    });
    await t.step("a number GPSS does not have is a 404 that says what was looked up", async () => {
      const res = await postJson(app, "/tools/get_patent", { number: "TWI999999B" });
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), {
        detail:
          'No patent numbered "TWI999999B" in GPSS: looked up TWI999999B as a publication number in TWB.',
      });
    });
    await t.step("a number that is not one is a 422 before any call", async () => {
      const calls = fake.calls;
      const res = await postJson(app, "/tools/get_patent", { number: "not a number" });
      assert.equal(res.status, 422);
      assert.match((await res.json()).detail, /is not a patent number/);
      assert.equal(fake.calls, calls);
    });
  });
});

Deno.test("get_patent's max_chars cuts the abstract, then the claims, and counts what it left out", async () => {
  await withApp(async (app) => {
    const full =
      await (await postJson(app, "/tools/get_patent", { number: "US09415051B1", fields: ["claims"] }))
        .json();
    const abstract = full.patent.abstract.join("").length;
    const res = await postJson(app, "/tools/get_patent", {
      number: "US09415051B1",
      fields: ["claims"],
      max_chars: 100,
    });
    const body = await res.json();
    const kept = body.patent.abstract.join("").length + body.patent.claims.reduce(
      (n: number, c: { text: string }) => n + c.text.length,
      0,
    );
    assert.ok(kept <= 100 + body.patent.claims.length + 1, `at most max_chars (plus the … marks): ${kept}`);
    const claimsChars = full.patent.claims.reduce((n: number, c: { text: string }) => n + c.text.length, 0);
    assert.equal(body.truncated.omitted_chars, abstract + claimsChars - 100);
    assert.equal(body.truncated.omitted_claims, full.patent.claims.length - body.patent.claims.length);
    const tooSmall = await postJson(app, "/tools/get_patent", { number: "US09415051B1", max_chars: 99 });
    assert.equal(tooSmall.status, 422);
  });
});

Deno.test("capText leaves a record within the limit untouched and cuts at the limit", () => {
  const record: PatentRecord = {
    patent_number: "X1",
    publication_date: null,
    application_number: null,
    application_date: null,
    title: null,
    english_title: null,
    abstract: ["abcdef", "ghij"],
    applicants: [],
    inventors: [],
    ipc: [],
    cpc: [],
    database: null,
    claims: [
      { number: 1, text: "12345", independent: true, depends_on: [], canceled: false },
      { number: 2, text: "67890", independent: false, depends_on: [1], canceled: false },
    ],
  };
  assert.deepEqual(capText(record, 20), { patent: record, truncated: null });
  const cut = capText(record, 13);
  assert.deepEqual(cut.patent.abstract, ["abcdef", "ghij"]);
  assert.deepEqual(cut.patent.claims!.map((c) => c.text), ["123…"]);
  assert.deepEqual(cut.truncated, { omitted_chars: 7, omitted_claims: 1 });
});

Deno.test("over MCP: get_patent answers the record, a missing number is isError with the 404's detail, and get_quota_status reads the ledger", async () => {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const { QuotaLedger } = await import("../lib/gpss/mod.ts");
  const fake = await startFakeGpss();
  try {
    const quota = new QuotaLedger({ userCode: FAKE_USER_CODE });
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, quota }) });
    const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
      fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const found = await client.callTool({ name: "get_patent", arguments: { number: "EP 3900001 B1" } });
      const patent =
        (found.structuredContent as { patent: { patent_number: string; claims: unknown[] } }).patent;
      assert.equal(patent.patent_number, "EP3900001B1");
      assert.equal(patent.claims.length, 3);
      const missing = await client.callTool({ name: "get_patent", arguments: { number: "EP9999999B1" } });
      assert.equal(missing.isError, true);
      assert.match(
        (missing.content as { text: string }[])[0]?.text ?? "",
        /^No patent numbered "EP9999999B1" in GPSS/,
      );
      const status = await client.callTool({ name: "get_quota_status", arguments: {} });
      const q = (status.structuredContent as { quota: { used: number; persisted: boolean } }).quota;
      assert.equal(q.used, 1, "one record came back; the miss cost nothing");
      assert.equal(q.persisted, false);
    } finally {
      await client.close();
    }
  } finally {
    await fake.close();
  }
});
