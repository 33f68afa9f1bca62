/**
 * The quota ledger across clock jumps: an entry from a window later than now (written while the
 * clock was ahead) is reported as a `ledger_problem` and never hides the charges of the current
 * window; a clock that jumps forward starts the new window at 0.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { GpssClient, QuotaLedger } from "../lib/gpss/mod.ts";
import { LEDGER_FILE } from "../lib/gpss/quota.ts";
import { DEFAULT_QUOTA_WINDOWS, type QuotaWindows } from "../lib/gpss/quota_window.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import { testApp } from "./_helpers.ts";

const T = (iso: string) => Date.parse(iso);
const SMALL: QuotaWindows = { ...DEFAULT_QUOTA_WINDOWS, peakRecords: 100, offPeakRecords: 100 };
const TODAY = T("2026-11-25T03:00:00Z"); // Wednesday 11:00 Taipei, peak window 00:00Z-10:00Z
const AHEAD = T("2026-11-26T03:00:00Z"); // the next day's peak window: a clock a day ahead

async function withDir(run: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a ledger entry from the future (the clock was ahead, then set right) is a problem and hides nothing", async () => {
  await withDir((dir) => {
    const ahead = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => AHEAD });
    ahead.reserve(10)(7); // charged while the clock said tomorrow
    const file = JSON.parse(Deno.readTextFileSync(join(dir, LEDGER_FILE)));
    assert.equal(Object.values(file.codes).length, 1);

    const ledger = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => TODAY });
    const before = ledger.status();
    assert.equal(before.used, 0, "the future's records are not today's");
    assert.match(
      before.ledger_problem ?? "",
      /later than now .*2026-11-26T00:00:00\.000Z.*clock/,
      "the entry from the future is reported",
    );
    ledger.reserve(5)(3);
    assert.equal(ledger.status().used, 3, "today's charges are counted");
    ledger.reserve(5)(4);
    assert.equal(ledger.status().used, 7);
    assert.match(ledger.status().ledger_problem ?? "", /later than now/, "still said for this window");

    const restarted = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => TODAY });
    assert.equal(restarted.status().used, 7, "the file now holds today's window");
    assert.equal(restarted.status().ledger_problem, null, "the entry from the future was replaced");
  });
});

Deno.test("a clock that jumps back inside one process keeps counting the window it is in", () => {
  let now = AHEAD;
  const ledger = new QuotaLedger({ userCode: "code", windows: SMALL, now: () => now });
  ledger.reserve(10)(9);
  assert.equal(ledger.status().used, 9);
  now = TODAY; // the clock is set right: a day back
  assert.equal(ledger.status().used, 0);
  assert.match(ledger.status().ledger_problem ?? "", /later than now/);
  ledger.reserve(5)(2);
  ledger.reserve(5)(2);
  assert.equal(ledger.status().used, 4, "charges after the jump are counted");
  assert.equal(ledger.status().remaining, 96);
});

Deno.test("a shared ledger: one process's clock ahead does not stop another from counting", async () => {
  await withDir((dir) => {
    const right = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => TODAY });
    const ahead = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => AHEAD });
    right.reserve(5)(5);
    ahead.reserve(5)(1); // writes tomorrow's window over today's
    right.reserve(5)(2);
    assert.equal(right.status().used, 7, "today's charges are counted");
    assert.match(right.status().ledger_problem ?? "", /later than now/);
    right.reserve(5)(3);
    assert.equal(right.status().used, 10);
  });
});

Deno.test("a clock that jumps forward starts the new window at 0, with no problem; the old entry goes", async () => {
  await withDir((dir) => {
    let now = TODAY;
    const ledger = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => now });
    ledger.reserve(10)(6);
    now = AHEAD;
    assert.deepEqual([ledger.status().used, ledger.status().ledger_problem], [0, null]);
    ledger.reserve(10)(2);
    assert.equal(ledger.status().used, 2);
    const file = JSON.parse(Deno.readTextFileSync(join(dir, LEDGER_FILE)));
    assert.deepEqual(Object.values(file.codes).map((e) => (e as { used: number }).used), [2]);
    const fresh = new QuotaLedger({ userCode: "code", windows: SMALL, stateDir: dir, now: () => AHEAD });
    assert.deepEqual([fresh.status().used, fresh.status().ledger_problem], [2, null]);
  });
});

Deno.test("over HTTP: get_quota_status counts today's searches and reports the entry from the future", async () => {
  await withDir(async (dir) => {
    new QuotaLedger({ userCode: FAKE_USER_CODE, windows: SMALL, stateDir: dir, now: () => AHEAD }).reserve(
      30,
    )(20);
    const fake = await startFakeGpss();
    const quota = new QuotaLedger({
      userCode: FAKE_USER_CODE,
      windows: SMALL,
      stateDir: dir,
      now: () => TODAY,
    });
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, quota }) });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const post = async (path: string, body: unknown) =>
      await (await fetch(`http://127.0.0.1:${server.addr.port}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })).json();
    try {
      const first = await post("/tools/search_patents", { keywords: "radar", max_results: 5 });
      assert.equal(first.success, true, first.error);
      const second = await post("/tools/search_patents", { keywords: "charging", max_results: 5 });
      assert.equal(second.success, true, second.error);
      const got = first.data.returned_count + second.data.returned_count;
      assert.ok(got > 0);
      const status = (await post("/tools/get_quota_status", {})).quota;
      assert.equal(status.used, got, "today's charges are counted");
      assert.match(status.ledger_problem ?? "", /later than now \(20 records charged/);
    } finally {
      await server.shutdown();
      await fake.close();
    }
  });
});
