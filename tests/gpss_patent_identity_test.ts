/**
 * No silent wrong patent, no two totals (issue 34, point 1), against a fake GPSS that answers any
 * query with unrelated records, over real sockets (the fake's and the app's), and over MCP with the
 * SDK client: `get_patent` answers a record only when its number is the one asked for (in any of
 * the number's spellings), else a 404 naming the numbers that came back; an offset at or past a
 * total (known before, or said by GPSS in its answer) is a 422; one answer has one total.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { GpssClient } from "../lib/gpss/mod.ts";
import { FAKE_USER_CODE, type FakeGpss, startFakeGpss } from "./_fake_gpss.ts";
import { testApp } from "./_helpers.ts";

interface Served {
  fake: FakeGpss;
  base: string;
  // deno-lint-ignore no-explicit-any
  post(path: string, body: unknown): Promise<{ status: number; headers: Headers; body: any }>;
}

/** The fake (answering anything with its corpus, `total` as total-rec) and the app on real sockets. */
async function withServed(total: number | undefined, run: (s: Served) => Promise<void>): Promise<void> {
  const fake = await startFakeGpss({ unrelated: { total } });
  const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await run({
      fake,
      base,
      async post(path, body) {
        const res = await fetch(base + path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, headers: res.headers, body: await res.json() };
      },
    });
  } finally {
    await server.shutdown();
    await fake.close();
  }
}

Deno.test("get_patent: unrelated records are never answered as the patent asked for", async (t) => {
  await withServed(undefined, async (s) => {
    for (const number of ["TWI999999B", "US 9,492,454 B2", "TW I999999"]) {
      await t.step(number, async () => {
        const res = await s.post("/tools/get_patent", { number });
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.match(res.body.detail, new RegExp(`^No patent numbered ${JSON.stringify(number)} in GPSS: `));
        assert.match(
          res.body.detail,
          /GPSS answered only other numbers \(10\): TW202300001A, TWI800001B, TWM640001U, /,
        );
      });
    }
  });
});

Deno.test("get_patent: the record whose number is asked for, in any of its spellings, among unrelated ones", async (t) => {
  await withServed(undefined, async (s) => {
    for (const number of ["TWI800001B", "TW I800001 B", "twi800001b", "TW I800001", "TWI800001"]) {
      await t.step(number, async () => {
        const res = await s.post("/tools/get_patent", { number });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.success, true);
        assert.equal(res.body.patent.patent_number, "TWI800001B", "not the first record, TW202300001A");
        assert.ok(res.body.other_matches.includes("TW202300001A"));
      });
    }
    await t.step("a US grant typed without its zero", async () => {
      const res = await s.post("/tools/get_patent", { number: "US 9,415,051 B1" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.patent.patent_number, "US09415051B1");
    });
    await t.step("another kind code is another document", async () => {
      const res = await s.post("/tools/get_patent", { number: "US 9,415,051 B2" });
      assert.equal(res.status, 404);
      assert.match(res.body.detail, /US09415051B1/);
    });
  });
});

Deno.test("get_patent over MCP: unrelated records are an isError naming the numbers that came back", async () => {
  await withServed(undefined, async (s) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`)));
    try {
      const wrong = await client.callTool({ name: "get_patent", arguments: { number: "TWI999999B" } });
      assert.equal(wrong.isError, true);
      const text = (wrong.content as { text: string }[])[0]?.text ?? "";
      assert.match(text, /^No patent numbered "TWI999999B" in GPSS: .*TW202300001A/);
      const right = await client.callTool({ name: "get_patent", arguments: { number: "TW I800001 B" } });
      assert.equal(right.isError, undefined);
      assert.equal(
        (right.structuredContent as { patent: { patent_number: string } }).patent.patent_number,
        "TWI800001B",
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("search_patents: an offset at or past the total is a 422, known or said by GPSS; one answer, one total", async (t) => {
  await withServed(57, async (s) => {
    await t.step(
      "GPSS's own total: offset 57 of 57 is refused, not answered with records and two totals",
      async () => {
        const res = await s.post("/tools/search_patents", { keywords: "radar", offset: 57, max_results: 2 });
        assert.equal(res.status, 422, JSON.stringify(res.body));
        assert.equal(
          res.body.detail,
          "offset 57 is past the end of the results: the search has 57 results, so offsets run from 0 to 56.",
        );
      },
    );
    await t.step("then known: refused before going upstream", async () => {
      const calls = s.fake.calls;
      const res = await s.post("/tools/search_patents", { keywords: "radar", offset: 60, max_results: 2 });
      assert.equal(res.status, 422);
      assert.match(res.body.detail, /the search has 57 results/);
      assert.equal(s.fake.calls, calls, "nothing was sent upstream");
    });
    await t.step("a last page GPSS overfills: its records past the total are not results", async () => {
      const res = await s.post("/tools/search_patents", {
        keywords: "charging",
        offset: 50,
        max_results: 10,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const data = res.body.data;
      assert.deepEqual(
        [data.total, data.total_count, data.returned_count, data.records.length, data.next_offset],
        [57, 57, 7, 7, null],
      );
      assert.equal(res.headers.get("x-total-count"), null, "JSON answers carry the total in the body");
    });
    await t.step("a page inside the results: one total everywhere", async () => {
      const res = await s.post("/tools/search_patents", {
        keywords: "charging",
        offset: 10,
        max_results: 10,
      });
      const data = res.body.data;
      assert.deepEqual([data.total, data.total_count, data.next_offset], [57, 57, 20]);
    });
  });
});

Deno.test("records GPSS sent past its total are charged to the quota, though not answered", async () => {
  const { QuotaLedger } = await import("../lib/gpss/mod.ts");
  const fake = await startFakeGpss({ unrelated: { total: 57 } });
  try {
    const quota = new QuotaLedger({ userCode: FAKE_USER_CODE });
    const gpss = new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, quota });
    const page = await gpss.search({ keywords: "radar", offset: 50, maxResults: 10 });
    assert.equal(page.success, true);
    assert.equal(page.data?.returned_count, 7);
    assert.equal(quota.status().used, 10, "GPSS sent 10");
    await assert.rejects(gpss.search({ keywords: "radio", offset: 57, maxResults: 3 }), /has 57 results/);
    assert.equal(quota.status().used, 13, "and 3 more past the end");
    assert.equal(fake.served, 13);
  } finally {
    await fake.close();
  }
});

Deno.test("a total learnt from GPSS's expSkip too much is remembered: the next offset past it sends nothing", async () => {
  const fake = await startFakeGpss();
  try {
    const gpss = new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE });
    await assert.rejects(gpss.search({ keywords: "radar", offset: 40 }), /the search has 2 results/);
    assert.equal(fake.calls, 2, "the page, then one record from offset 0 for the total");
    await assert.rejects(gpss.search({ keywords: "radar", offset: 41 }), /the search has 2 results/);
    assert.equal(fake.calls, 2, "nothing more was sent");
  } finally {
    await fake.close();
  }
});
