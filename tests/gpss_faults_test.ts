/**
 * The patent search under upstream faults and load, through a real server socket: other requests
 * keep being answered, every search ends in-band within its timeout, identical concurrent searches
 * share one upstream call.
 */
import assert from "node:assert/strict";
import { GpssClient } from "../lib/gpss/mod.ts";
import { FAKE_USER_CODE, type FakeFault, startFakeGpss } from "./_fake_gpss.ts";
import { testApp } from "./_helpers.ts";

async function withServer(
  fn: (url: string, fake: Awaited<ReturnType<typeof startFakeGpss>>) => Promise<void>,
) {
  const fake = await startFakeGpss();
  const gpss = new GpssClient({
    baseUrl: fake.url,
    userCode: FAKE_USER_CODE,
    timeoutMs: 300,
    cacheTtlMs: 60_000,
  });
  const { app } = testApp({ gpss });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, fake);
  } finally {
    await server.shutdown();
    await fake.close();
  }
}

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("a slow, failing or garbled upstream never stalls the other routes, and every search ends in-band", async (t) => {
  const faults: [string, FakeFault][] = [
    ["slow beyond the timeout", { kind: "slow", delayMs: 2000 }],
    ["500s", { kind: "status", status: 500 }],
    ["garbage", { kind: "garbage" }],
    ["dropped connections", { kind: "drop" }],
  ];
  for (const [label, fault] of faults) {
    await t.step(label, async () => {
      await withServer(async (url, fake) => {
        fake.setFault(fault);
        const searches = Array.from(
          { length: 12 },
          (_, i) => post(url, "/tools/search_patents", { keywords: `k${i}` }),
        );
        // While the searches are stuck upstream, the rest of the service answers at once.
        const greetings = await Promise.all(
          Array.from({ length: 20 }, (_, i) => post(url, "/new/endpoint/", { name: `n${i}` })),
        );
        for (const g of greetings) assert.equal(g.status, 200);
        for (const s of await Promise.all(searches)) {
          assert.equal(s.status, 200);
          assert.equal(s.body.success, false);
          assert.equal(typeof s.body.error, "string");
          assert.ok(!JSON.stringify(s.body).includes(FAKE_USER_CODE));
        }
      });
    });
  }
});

Deno.test("concurrent identical searches are coalesced into one upstream call", async () => {
  await withServer(async (url, fake) => {
    fake.setFault({ kind: "slow", delayMs: 100 });
    const results = await Promise.all(
      Array.from(
        { length: 16 },
        () => post(url, "/tools/search_patents", { keywords: "充電", max_results: 3 }),
      ),
    );
    for (const r of results) assert.equal(r.body.success, true);
    assert.equal(fake.calls, 1);
  });
});
