/**
 * Issue 39: the GPSS quota ledger, answer cache and in-flight coalescing shared in PostgreSQL. Three
 * "instances" are three GpssClient objects, each with a connection pool of its own, over one
 * database, searching the fake GPSS in parallel. Needs TEST_DATABASE_URL (.ci/run starts a
 * PostgreSQL); ignored, saying so, without it.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { QuotaExceededError } from "../lib/errors.ts";
import { GpssClient, type QuotaWindows } from "../lib/gpss/mod.ts";
import { DEFAULT_QUOTA_WINDOWS } from "../lib/gpss/quota_window.ts";
import { ConnectionWatch, ensureSchema, PgQuotaLedger, PgSharedSearches, type Sql } from "../lib/pg/mod.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import { freshDatabase } from "./_team_server.ts";

const ignore = !Deno.env.get("TEST_DATABASE_URL");
if (ignore) {
  console.log("GPSS in PostgreSQL tests not run: TEST_DATABASE_URL is not set (.ci/run starts one)");
}

const BUDGET = 50;
const SMALL: QuotaWindows = { ...DEFAULT_QUOTA_WINDOWS, peakRecords: BUDGET, offPeakRecords: BUDGET };

const watches = new WeakMap<Sql, ConnectionWatch>();

/** An instance's own pool over the database at `url`. */
function pool(url: string): Sql {
  const watch = new ConnectionWatch();
  const sql = postgres(url, { ...watch.options, max: 6, onnotice: () => {} }) as unknown as Sql;
  watches.set(sql, watch);
  return sql;
}

/** The shared searches of an instance's pool. */
function searches(sql: Sql): PgSharedSearches {
  return new PgSharedSearches(sql, { watch: watches.get(sql)! });
}

Deno.test({
  name: "3 instances searching in parallel never reserve more GPSS quota than the budget",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using db = await freshDatabase();
    await ensureSchema(db.sql as unknown as Sql);
    // Every search gets as many records as it asks for (5), so each one sent spends its reservation.
    const fake = await startFakeGpss({ unrelated: { total: 1000 } });
    const pools = [pool(db.url), pool(db.url), pool(db.url)];
    try {
      const clients = pools.map((sql) =>
        new GpssClient({
          baseUrl: fake.url,
          userCode: FAKE_USER_CODE,
          cacheTtlMs: 0,
          createHttpClient: null,
          quota: new PgQuotaLedger(sql, { userCode: FAKE_USER_CODE, windows: SMALL }),
        })
      );
      // 3 x 12 distinct searches of 5 records: 180 asked, 50 allowed.
      const results = await Promise.allSettled(
        clients.flatMap((client, c) =>
          Array.from({ length: 12 }, (_, i) => client.search({ keywords: `radar ${c} ${i}`, maxResults: 5 }))
        ),
      );
      const refused = results.filter((r) => r.status === "rejected");
      for (const r of refused) assert.ok(r.reason instanceof QuotaExceededError, String(r.reason));
      const answered = results.filter((r) => r.status === "fulfilled" && r.value.success).length;
      assert.equal(answered, BUDGET / 5, "exactly the budget's worth of searches went out");
      assert.equal(fake.calls, BUDGET / 5, "no search beyond the budget reached GPSS");
      assert.equal(fake.served, BUDGET);
      // The settlements are written after the answers: wait for them, then read the shared row.
      let status = await clients[0]!.quotaStatus();
      for (let i = 0; i < 50 && status!.reserved > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = await clients[0]!.quotaStatus();
      }
      assert.deepEqual([status!.used, status!.reserved, status!.remaining], [BUDGET, 0, 0]);
      // Each instance sees the others' use.
      for (const client of clients) assert.equal((await client.quotaStatus())!.used, BUDGET);
    } finally {
      await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
      await fake.close();
    }
  },
});

Deno.test({
  name: "a reservation of an instance that dies before settling stays counted as spent",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using db = await freshDatabase();
    await ensureSchema(db.sql as unknown as Sql);
    const [a, b] = [pool(db.url), pool(db.url)];
    try {
      const dying = new PgQuotaLedger(a, { userCode: FAKE_USER_CODE, windows: SMALL });
      await dying.reserve(30); // never settled: the instance "dies"
      await a.end({ timeout: 1 });
      const other = new PgQuotaLedger(b, { userCode: FAKE_USER_CODE, windows: SMALL });
      assert.equal((await other.status()).remaining, 20);
      await assert.rejects(() => other.reserve(21), QuotaExceededError);
      const settle = await other.reserve(20);
      settle(3);
      settle(3); // settled once only
      let status = await other.status();
      for (let i = 0; i < 50 && status.reserved > 30; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = await other.status();
      }
      assert.deepEqual([status.used, status.reserved, status.remaining], [3, 30, 17]);
      await other.markExhausted();
      assert.equal((await other.status()).remaining, 0);
      await assert.rejects(() => other.reserve(1), /GPSS said Over download quantity/);
      // Another user code has a row of its own.
      assert.equal(
        (await new PgQuotaLedger(b, { userCode: "another", windows: SMALL }).status()).remaining,
        BUDGET,
      );
    } finally {
      await b.end({ timeout: 1 });
    }
  },
});

Deno.test({
  name: "an identical search from two instances goes upstream once; the answer is then shared",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using db = await freshDatabase();
    await ensureSchema(db.sql as unknown as Sql);
    const fake = await startFakeGpss();
    const pools = [pool(db.url), pool(db.url), pool(db.url)];
    try {
      const clients = pools.map((sql) =>
        new GpssClient({
          baseUrl: fake.url,
          userCode: FAKE_USER_CODE,
          createHttpClient: null,
          quota: new PgQuotaLedger(sql, { userCode: FAKE_USER_CODE, windows: SMALL }),
          shared: searches(sql),
        })
      );
      // The first answer is slow, so the others arrive while it is in flight.
      fake.setFault({ kind: "slow", delayMs: 800 }, 1);
      const outcomes = await Promise.all(
        clients.flatMap((client) => [0, 1].map(() => client.search({ keywords: "radar", maxResults: 5 }))),
      );
      assert.equal(fake.calls, 1, "six identical searches over three instances: one upstream call");
      for (const o of outcomes) assert.deepEqual(o, outcomes[0]);
      assert.ok(outcomes[0]!.success);
      // Later, from an instance that never asked: the shared cache answers.
      const late = new GpssClient({
        baseUrl: fake.url,
        userCode: FAKE_USER_CODE,
        createHttpClient: null,
        shared: searches(pools[2]!),
      });
      assert.deepEqual(await late.search({ keywords: "radar", maxResults: 5 }), outcomes[0]);
      assert.equal(fake.calls, 1);
      // A different search goes upstream; the quota was charged once per upstream call only.
      await clients[1]!.search({ keywords: "charging", maxResults: 5 });
      assert.equal(fake.calls, 2);
      let status = await clients[0]!.quotaStatus();
      for (let i = 0; i < 50 && status!.reserved > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = await clients[0]!.quotaStatus();
      }
      assert.equal(status!.used, fake.served);
      // Another user code does not read this one's answers.
      const other = new GpssClient({
        baseUrl: fake.url,
        userCode: "another-code-0000",
        createHttpClient: null,
        shared: searches(pools[0]!),
      });
      await other.search({ keywords: "radar", maxResults: 5 });
      assert.equal(fake.calls, 3);
    } finally {
      await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
      await fake.close();
    }
  },
});
