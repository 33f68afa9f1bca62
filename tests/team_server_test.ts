/**
 * Issue 39 proof with a real PostgreSQL and a real proxy: three `main.ts serve` instances behind
 * nginx on loopback, sharing one catalogue root and one database (DATABASE_URL). Each instance has
 * a lock directory of its own, so only the database's write leases keep them from writing one
 * catalogue at once. Needs TEST_DATABASE_URL and nginx (.ci/run provides both); ignored, saying so,
 * without them. The PostgreSQL restart test restarts that server with `pg_ctl restart` (found from
 * the database: a local cluster and a superuser, as .ci/run's), or with the command TEST_PG_RESTART.
 * Also the GPSS quota ledger, answer cache and coalescing shared in PostgreSQL (at the end).
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { tokenHash } from "../lib/auth/mod.ts";
import { QuotaExceededError } from "../lib/errors.ts";
import { GpssClient, type QuotaWindows } from "../lib/gpss/mod.ts";
import { DEFAULT_QUOTA_WINDOWS } from "../lib/gpss/quota_window.ts";
import { ConnectionWatch, ensureSchema, PgQuotaLedger, PgSharedSearches, type Sql } from "../lib/pg/mod.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import {
  freshDatabase,
  haproxyMissing,
  type Instance,
  pgRestartCommand,
  startHaproxy,
  startInstance,
  startNginx,
  stopInstance,
  teamServerMissing,
} from "./_team_server.ts";

const missing = teamServerMissing();
if (missing !== null) console.log(`team server tests not run: ${missing}`);
const restartCommand = missing === null ? await pgRestartCommand() : { missing };
if (missing === null && "missing" in restartCommand) {
  console.log(`team server: the PostgreSQL restart test not run: ${restartCommand.missing}`);
}

const TOKEN = "translator-token-0123456789";
const N = 300;

function catalogue(n: number): string {
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < n; i++) out += `msgid "message ${i}"\nmsgstr ""\n\n`;
  return out;
}

/** How long one write may take, retries included: the tests end by themselves. */
const WRITE_DEADLINE_MS = 180_000;

/**
 * POSTs a write until it is answered 200 (a 502/503 from a dead instance or a database away is
 * retried), for at most {@link WRITE_DEADLINE_MS}.
 */
async function writeUntilDone(
  base: string,
  i: number,
  msgstr: string,
): Promise<{ tries: number; revision: string }> {
  const deadline = Date.now() + WRITE_DEADLINE_MS;
  for (let tries = 1; tries <= 60 && Date.now() < deadline; tries++) {
    let status = 0;
    let body: { revision?: string; detail?: unknown } = {};
    try {
      const res = await fetch(`${base}/po/write`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ file_path: "fr.po", entries: [{ msgid: `message ${i}`, msgstr }] }),
        // Bounded: an instance that never answers is a failure, not a test that never ends.
        signal: AbortSignal.timeout(Math.max(1, Math.min(60_000, deadline - Date.now()))),
      });
      status = res.status;
      body = await res.json().catch(() => ({}));
    } catch {
      status = 0;
    }
    if (status === 200) return { tries, revision: body.revision! };
    if (![0, 502, 503, 504].includes(status)) {
      throw new Error(`write ${i}: ${status} ${JSON.stringify(body)}`);
    }
    await new Promise((r) => setTimeout(r, 100 * Math.min(tries, 10)));
  }
  throw new Error(`write ${i}: never done`);
}

async function setUp(dbUrl: string, env: Record<string, string> = {}) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-team-root-" }));
  const state = await Deno.makeTempDir({ prefix: "po-team-state-" });
  await Deno.writeTextFile(`${root}/fr.po`, catalogue(N));
  await Deno.writeTextFile(`${state}/tokens`, `tr translator ${tokenHash(TOKEN)}\n`, { mode: 0o600 });
  await Deno.chmod(`${state}/tokens`, 0o600);
  const instances: Instance[] = [];
  for (let k = 0; k < 3; k++) {
    const locks = `${state}/locks-${k}`;
    instances.push(
      await startInstance({
        PO_ROOTS: root,
        PO_LOCK_DIR: locks,
        PO_TOKENS_FILE: `${state}/tokens`,
        DATABASE_URL: dbUrl,
        ...env,
      }, [root, state]),
    );
  }
  return {
    root,
    instances,
    async [Symbol.asyncDispose]() {
      for (const instance of instances) await stopInstance(instance);
      await Deno.remove(root, { recursive: true });
      await Deno.remove(state, { recursive: true });
    },
  };
}

Deno.test({
  name:
    "3 instances behind nginx: 300 concurrent writes to one catalogue lose nothing, each in the audit log; kill -9 of one mid-run loses nothing",
  ignore: missing !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using db = await freshDatabase();
    await using team = await setUp(db.url);
    await using proxy = await startNginx(team.instances.map((i) => i.port));

    // 1. 300 writes at once, spread over the three by nginx.
    const first = await Promise.all(
      Array.from({ length: N }, (_, i) => writeUntilDone(proxy.base, i, `un ${i}`)),
    );
    const text = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < N; i++) {
      assert.ok(text.includes(`msgid "message ${i}"\nmsgstr "un ${i}"\n`), `message ${i}`);
    }
    const rows = await db.sql<
      {
        id: string;
        entries: { msgid: string }[];
        revision_before: string;
        revision_after: string;
        who: string;
      }[]
    >`
      select id, entries, revision_before, revision_after, who from po_audit where action = 'write_po' order by id`;
    assert.equal(rows.length, N);
    assert.deepEqual(new Set(rows.map((r) => r.entries[0]!.msgid)).size, N);
    assert.ok(rows.every((r) => r.who === "tr"));
    // One after the other: each write starts from the revision the one before it left.
    for (let k = 1; k < rows.length; k++) {
      assert.equal(rows[k]!.revision_before, rows[k - 1]!.revision_after, `row ${k}`);
    }
    // Every answered revision is one the log holds.
    const after = new Set(rows.map((r) => r.revision_after));
    assert.ok(first.every((w) => after.has(w.revision)));
    // nginx spread them: every instance served writes.
    for (const [k, instance] of team.instances.entries()) {
      assert.match(instance.stderr(), /POST \/po\/write 200/, `instance ${k} served writes`);
    }

    // 2. Another 300, and one instance killed (SIGKILL) in the middle of them.
    let answered = 0;
    const killer = (async () => {
      while (answered < N / 3) await new Promise((r) => setTimeout(r, 10));
      team.instances[2]!.child.kill("SIGKILL");
    })();
    const second = await Promise.all(Array.from({ length: N }, async (_, i) => {
      const w = await writeUntilDone(proxy.base, i, `deux ${i}`);
      answered++;
      return w;
    }));
    await killer;
    assert.equal((await team.instances[2]!.child.status).signal, "SIGKILL");
    const text2 = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < N; i++) {
      assert.ok(text2.includes(`msgid "message ${i}"\nmsgstr "deux ${i}"\n`), `message ${i}`);
    }
    const rows2 = await db.sql<
      { revision_before: string; revision_after: string; entries: { msgid: string }[] }[]
    >`
      select revision_before, revision_after, entries from po_audit where action = 'write_po' and id > ${
      rows.at(-1)!.id
    } order by id`;
    // Every write answered 200 is in the log (an instance answers after recording).
    const logged = new Set(rows2.map((r) => r.revision_after));
    assert.ok(second.every((w) => logged.has(w.revision)), "every answered write is in the audit log");
    // Exactly one record per write, the killed instance's last one included (a write renamed and not
    // yet recorded is recorded by the next writer of the catalogue, from its intent), chained.
    assert.equal(rows2.length, N, `${rows2.length} records for ${N} writes`);
    assert.equal(new Set(rows2.map((r) => r.entries[0]!.msgid)).size, N);
    assert.equal(rows2[0]!.revision_before, rows.at(-1)!.revision_after);
    for (let k = 1; k < rows2.length; k++) {
      assert.equal(rows2[k]!.revision_before, rows2[k - 1]!.revision_after, `row ${k}`);
    }
    assert.equal(await db.sql`select 1 from po_write_intent`.then((r) => r.length), 0, "no intent left");
  },
});

Deno.test({
  name: "a PostgreSQL restart mid-run: writes answer 503 while it is away, and none is lost once it is back",
  ignore: "missing" in restartCommand,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The server alone: no other test file sees it restart (tests/write_fencing_test.ts, say).
    await using db = await freshDatabase({ exclusive: true });
    await using team = await setUp(db.url);
    await using proxy = await startNginx(team.instances.map((i) => i.port));
    let answered = 0;
    let restarted = false;
    const restart = (async () => {
      while (answered < 50) await new Promise((r) => setTimeout(r, 10));
      const out = await new Deno.Command("sh", {
        args: ["-c", (restartCommand as { command: string }).command],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
        signal: AbortSignal.timeout(90_000),
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      restarted = true;
    })();
    const writes = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const w = await writeUntilDone(proxy.base, i, `trois ${i}`);
      answered++;
      return w;
    }));
    await restart;
    assert.ok(restarted);
    console.log(`restart: ${writes.filter((w) => w.tries > 1).length} of 200 writes were retried`);
    const text = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < 200; i++) assert.ok(text.includes(`msgstr "trois ${i}"\n`), `message ${i}`);
    const rows = await db.sql<
      { revision_before: string; revision_after: string }[]
    >`select revision_before, revision_after from po_audit where action = 'write_po' order by id`;
    const logged = new Set(rows.map((r) => r.revision_after));
    assert.ok(writes.every((w) => logged.has(w.revision)), "every answered write is in the audit log");
    // Each write recorded once (a retried append is not recorded twice), the revisions chained.
    assert.equal(rows.length, 200);
    for (let k = 1; k < rows.length; k++) {
      assert.equal(rows[k]!.revision_before, rows[k - 1]!.revision_after, `row ${k}`);
    }
    // The instances lived through it (none was restarted by anyone).
    for (const instance of team.instances) {
      assert.doesNotMatch(instance.stderr(), /Uncaught/);
    }
  },
});

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

Deno.test({
  name:
    "3 server processes behind nginx share the GPSS quota and answers: one upstream call per search, never over budget",
  ignore: missing !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using db = await freshDatabase();
    const fake = await startFakeGpss({ unrelated: { total: 1000 } });
    try {
      await using team = await setUp(db.url, {
        USER_CODE: FAKE_USER_CODE,
        GPSS_API_URL: fake.url,
        GPSS_QUOTA_PEAK_RECORDS: String(BUDGET),
        GPSS_QUOTA_OFFPEAK_RECORDS: String(BUDGET),
      });
      await using proxy = await startNginx(team.instances.map((i) => i.port));
      const search = async (keywords: string) => {
        const res = await fetch(`${proxy.base}/tools/search_patents`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ keywords, max_results: 5 }),
        });
        return { status: res.status, body: await res.json() };
      };
      // 9 identical searches at once, spread over the three by nginx (the first answer slowed).
      fake.setFault({ kind: "slow", delayMs: 800 }, 1);
      const same = await Promise.all(Array.from({ length: 9 }, () => search("charging")));
      assert.ok(same.every((r) => r.status === 200 && r.body.success), JSON.stringify(same[0]));
      assert.equal(fake.calls, 1, "one upstream call for nine identical searches over three processes");
      for (const r of same) assert.deepEqual(r.body.data, same[0]!.body.data);
      // 36 different searches of 5 records at once: 45 of the 50 are left, so 9 go upstream.
      const many = await Promise.all(Array.from({ length: 36 }, (_, i) => search(`radar ${i}`)));
      const ok = many.filter((r) => r.status === 200 && r.body.success).length;
      const refused = many.filter((r) => r.status === 429).length;
      assert.deepEqual([ok, refused], [9, 27], JSON.stringify(many.find((r) => r.status !== 200)));
      assert.equal(fake.calls, 10);
      assert.equal(fake.served, BUDGET);
      for (const [k, instance] of team.instances.entries()) {
        assert.match(instance.stderr(), /POST \/tools\/search_patents 200/, `instance ${k} served searches`);
      }
    } finally {
      await fake.close();
    }
  },
});

Deno.test({
  name:
    "3 instances behind HAProxy: 150 concurrent writes to one catalogue lose nothing, each in the audit log",
  ignore: missing !== null || haproxyMissing() !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using db = await freshDatabase();
    await using team = await setUp(db.url);
    await using proxy = await startHaproxy(team.instances.map((i) => i.port));
    const n = 150;
    const writes = await Promise.all(
      Array.from({ length: n }, (_, i) => writeUntilDone(proxy.base, i, `ha ${i}`)),
    );
    const text = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < n; i++) {
      assert.ok(text.includes(`msgid "message ${i}"\nmsgstr "ha ${i}"\n`), `message ${i}`);
    }
    const rows = await db.sql<{ revision_before: string; revision_after: string }[]>`
      select revision_before, revision_after from po_audit where action = 'write_po' order by id`;
    assert.equal(rows.length, n);
    for (let k = 1; k < rows.length; k++) assert.equal(rows[k]!.revision_before, rows[k - 1]!.revision_after);
    const logged = new Set(rows.map((r) => r.revision_after));
    assert.ok(writes.every((w) => logged.has(w.revision)));
    for (const [k, instance] of team.instances.entries()) {
      assert.match(instance.stderr(), /POST \/po\/write 200/, `instance ${k} served writes`);
    }
  },
});

Deno.test({
  name: "a long search (a key over PostgreSQL's index limit) is shared too",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using db = await freshDatabase();
    await ensureSchema(db.sql as unknown as Sql);
    const fake = await startFakeGpss({ maxConditionLength: 10_000, unrelated: { total: 100 } });
    const pools = [pool(db.url), pool(db.url)];
    const problems: string[] = [];
    try {
      const [a, b] = pools.map((sql) =>
        new GpssClient({
          baseUrl: fake.url,
          userCode: FAKE_USER_CODE,
          createHttpClient: null,
          shared: new PgSharedSearches(sql, {
            watch: watches.get(sql)!,
            onProblem: (line) => problems.push(line),
          }),
        })
      );
      // 1,500 CJK characters: 4,500 bytes in the request's key, over a btree entry's 2,704 (varied, so
      // that PostgreSQL's compression of the entry does not bring it under).
      let x = 7;
      const keywords = Array.from({ length: 1500 }, () => {
        x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
        return String.fromCharCode(0x4e00 + x % 20_000);
      }).join("");
      const first = await a!.search({ keywords, maxResults: 5 });
      const second = await b!.search({ keywords, maxResults: 5 });
      assert.deepEqual(problems, []);
      assert.deepEqual(second, first);
      assert.equal(fake.calls, 1);
    } finally {
      await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
      await fake.close();
    }
  },
});
