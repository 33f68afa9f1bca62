/**
 * Quota budgeting: the windows, the ledger (reserve, charge, refuse with the reset time), its file
 * (atomic, kept across restarts, hostile contents ignored), the configuration, and the whole
 * behaviour over HTTP against the fake GPSS on a real socket.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError, parseConfig, permissionFlags } from "../lib/config.ts";
import { QuotaExceededError } from "../lib/errors.ts";
import { GpssClient, QuotaLedger } from "../lib/gpss/mod.ts";
import {
  DEFAULT_QUOTA_WINDOWS,
  parsePeakWindow,
  quotaWindowAt,
  type QuotaWindows,
} from "../lib/gpss/quota_window.ts";
import { LEDGER_FILE, MAX_LEDGER_BYTES } from "../lib/gpss/quota.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

const T = (iso: string) => Date.parse(iso);

Deno.test("the quota windows: weekdays 08:00-18:00 Taipei time, and the hours between as one window", async (t) => {
  const cases: [string, string, "peak" | "off_peak", string, string][] = [
    [
      "Wednesday 11:00 Taipei",
      "2026-11-25T03:00:00Z",
      "peak",
      "2026-11-25T00:00:00Z",
      "2026-11-25T10:00:00Z",
    ],
    ["Wednesday 08:00 sharp", "2026-11-25T00:00:00Z", "peak", "2026-11-25T00:00:00Z", "2026-11-25T10:00:00Z"],
    [
      "Wednesday 18:00 sharp",
      "2026-11-25T10:00:00Z",
      "off_peak",
      "2026-11-25T10:00:00Z",
      "2026-11-26T00:00:00Z",
    ],
    ["Thursday 07:59", "2026-11-25T23:59:00Z", "off_peak", "2026-11-25T10:00:00Z", "2026-11-26T00:00:00Z"],
    [
      "Friday 20:00: the weekend is one window",
      "2026-11-27T12:00:00Z",
      "off_peak",
      "2026-11-27T10:00:00Z",
      "2026-11-30T00:00:00Z",
    ],
    ["Sunday noon", "2026-11-29T04:00:00Z", "off_peak", "2026-11-27T10:00:00Z", "2026-11-30T00:00:00Z"],
  ];
  for (const [name, at, kind, start, end] of cases) {
    await t.step(name, () => {
      const w = quotaWindowAt(T(at));
      assert.deepEqual([w.kind, new Date(w.start).toISOString(), new Date(w.end).toISOString()], [
        kind,
        new Date(T(start)).toISOString(),
        new Date(T(end)).toISOString(),
      ]);
      assert.equal(w.budget, kind === "peak" ? 10_000 : 30_000);
    });
  }
  await t.step("configured: Saturday only, 10:00-12:00 UTC", () => {
    const windows: QuotaWindows = { ...DEFAULT_QUOTA_WINDOWS, ...parsePeakWindow("sat 10:00-12:00 +00:00") };
    const w = quotaWindowAt(T("2026-11-25T03:00:00Z"), windows);
    assert.deepEqual([w.kind, new Date(w.start).toISOString(), new Date(w.end).toISOString()], [
      "off_peak",
      "2026-11-21T12:00:00.000Z",
      "2026-11-28T10:00:00.000Z",
    ]);
  });
  await t.step("no peak window: every local day is one window", () => {
    const windows: QuotaWindows = { ...DEFAULT_QUOTA_WINDOWS, ...parsePeakWindow("none") };
    const w = quotaWindowAt(T("2026-11-25T03:00:00Z"), windows);
    assert.deepEqual([new Date(w.start).toISOString(), new Date(w.end).toISOString()], [
      "2026-11-25T00:00:00.000Z",
      "2026-11-26T00:00:00.000Z",
    ]);
  });
  await t.step("settings that are not windows are refused", () => {
    for (
      const bad of [
        "mon-fri",
        "mon-fri 18:00-08:00 +08:00",
        "xyz 08:00-18:00 +08:00",
        "mon 08:00-25:00 +08:00",
      ]
    ) {
      assert.throws(() => parsePeakWindow(bad), /not a peak window/, bad);
    }
    assert.deepEqual(parsePeakWindow("mon,wed,fri 09:30-17:00 -05:00"), {
      peakDays: [1, 3, 5],
      peakStart: 570,
      peakEnd: 1020,
      utcOffsetMinutes: -300,
    });
  });
});

const SMALL: QuotaWindows = { ...DEFAULT_QUOTA_WINDOWS, peakRecords: 10, offPeakRecords: 10 };

Deno.test("the ledger reserves before, charges after, and refuses with the reset time", () => {
  let now = T("2026-11-25T03:00:00Z");
  const ledger = new QuotaLedger({ userCode: "code", windows: SMALL, now: () => now });
  const settle = ledger.reserve(6);
  assert.equal(ledger.status().remaining, 4, "a reservation holds its records");
  assert.throws(() => ledger.reserve(5), (error) => {
    assert.ok(error instanceof QuotaExceededError);
    assert.equal(
      error.message,
      "The GPSS download quota would be exceeded: this search may fetch 5 records, and 4 of the 10 allowed in " +
        "this peak window are left. The window resets at 2026-11-25T10:00:00.000Z; ask for at most 4 results, or wait.",
    );
    assert.equal(error.retryAfterS, 7 * 3600);
    return true;
  });
  settle(2);
  settle(2); // settled once only
  assert.deepEqual([ledger.status().used, ledger.status().reserved, ledger.status().remaining], [2, 0, 8]);
  ledger.markExhausted();
  assert.equal(ledger.status().remaining, 0);
  assert.throws(() => ledger.reserve(1), /\(GPSS said Over download quantity\).*wait until then\./);
  now = T("2026-11-25T10:00:00Z");
  assert.deepEqual(
    [ledger.status().window.kind, ledger.status().used],
    ["off_peak", 0],
    "a new window starts at 0",
  );
});

Deno.test("the ledger file: written atomically (0600, no user code), kept across restarts, shared", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const now = () => T("2026-11-25T03:00:00Z");
    const first = new QuotaLedger({ userCode: FAKE_USER_CODE, windows: SMALL, stateDir: dir, now });
    first.reserve(5)(3);
    const text = await Deno.readTextFile(join(dir, LEDGER_FILE));
    assert.ok(!text.includes(FAKE_USER_CODE), "the user code is not written");
    assert.equal((await Deno.stat(join(dir, LEDGER_FILE))).mode! & 0o777, 0o600);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [LEDGER_FILE], "no temporary file left");
    const restarted = new QuotaLedger({ userCode: FAKE_USER_CODE, windows: SMALL, stateDir: dir, now });
    assert.equal(restarted.status().used, 3);
    assert.equal(restarted.status().persisted, true);
    first.reserve(2)(2); // another process sharing the directory
    assert.equal(restarted.status().used, 5, "each reads the other's charges");
    const other = new QuotaLedger({ userCode: "another code", windows: SMALL, stateDir: dir, now });
    assert.equal(other.status().used, 0, "per user code");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a hostile ledger file is ignored, said so, and never followed", async (t) => {
  const now = () => T("2026-11-25T03:00:00Z");
  const cases: [string, (path: string, dir: string) => void, RegExp][] = [
    ["not JSON", (p) => Deno.writeTextFileSync(p, "{"), /not JSON/],
    ["another version", (p) => Deno.writeTextFileSync(p, '{"version":2,"codes":{}}'), /not a version 1/],
    [
      "over the size limit",
      (p) => Deno.writeTextFileSync(p, " ".repeat(MAX_LEDGER_BYTES + 1)),
      /over 65536 bytes/,
    ],
    ["not UTF-8", (p) => Deno.writeFileSync(p, new Uint8Array([0xff, 0xfe])), /UTF-8/],
    [
      "entries with impossible values",
      (p) =>
        Deno.writeTextFileSync(
          p,
          JSON.stringify({
            version: 1,
            codes: {
              "0123456789abcdef": { window: 0, end: 1, used: -5 },
              "../../etc/passwd": { window: 0, end: 1, used: 1 },
              "fedcba9876543210": { window: 5, end: 1, used: 1 },
            },
          }),
        ),
      /3 ledger entries were not valid/,
    ],
    [
      "a symlink to another file",
      (p, dir) => {
        Deno.writeTextFileSync(join(dir, "target"), '{"version":1,"codes":{}}');
        Deno.symlinkSync(join(dir, "target"), p);
      },
      /is a symbolic link/,
    ],
    ["a FIFO", (p) => new Deno.Command("mkfifo", { args: [p] }).outputSync(), /not a regular file/],
  ];
  for (const [name, make, problem] of cases) {
    await t.step(name, async () => {
      const dir = await Deno.makeTempDir();
      try {
        make(join(dir, LEDGER_FILE), dir);
        const ledger = new QuotaLedger({ userCode: "c", windows: SMALL, stateDir: dir, now });
        const status = ledger.status();
        assert.equal(status.used, 0);
        assert.match(status.ledger_problem ?? "", problem);
        ledger.reserve(1)(1); // and the next write replaces it with a good ledger
        const again = new QuotaLedger({ userCode: "c", windows: SMALL, stateDir: dir, now });
        assert.equal(again.status().used, 1);
        assert.equal(again.status().ledger_problem, null);
        assert.ok(!Deno.lstatSync(join(dir, LEDGER_FILE)).isSymlink);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("quota over HTTP: searches are charged, cache hits are free, an over-budget search is a 429 before any call", async () => {
  const fake = await startFakeGpss({ quota: 100 });
  const dir = await Deno.makeTempDir();
  try {
    const quota = new QuotaLedger({ userCode: FAKE_USER_CODE, windows: SMALL, stateDir: dir });
    const gpss = new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, quota });
    const { app } = testApp({ gpss });
    const status = async () => (await (await postJson(app, "/tools/get_quota_status", {})).json()).quota;
    const first = await (await postJson(app, "/tools/search_patents", { keywords: "radar", max_results: 5 }))
      .json();
    assert.equal(first.success, true, first.error);
    const got = first.data.returned_count;
    assert.equal((await status()).used, got, "charged the records that came back, not max_results");
    await postJson(app, "/tools/search_patents", { keywords: "radar", max_results: 5 });
    assert.equal((await status()).used, got, "a cache hit is free");
    const calls = fake.calls;
    const res = await postJson(app, "/tools/search_patents", { keywords: "charging", max_results: 9 });
    assert.equal(res.status, 429);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.match(
      (await res.json()).detail,
      /may fetch 9 records, and 8 of the 10 allowed .* are left\. The window resets at /,
    );
    assert.equal(fake.calls, calls, "nothing was sent");
    const patent = await postJson(app, "/tools/get_patent", { number: "TWI800001B" });
    assert.equal(patent.status, 429, "a look-up reserves its 10 records too");
    const s = await status();
    assert.equal(s.remaining, 10 - got);
    assert.equal(s.persisted, true);
    assert.ok(Date.parse(s.resets_at) > Date.now());
  } finally {
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GPSS's Over download quantity marks the window used up: the next search is refused before any call", async () => {
  const fake = await startFakeGpss({ quota: 0 });
  try {
    const quota = new QuotaLedger({ userCode: FAKE_USER_CODE });
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, quota }) });
    const first = await (await postJson(app, "/tools/search_patents", { keywords: "radar" })).json();
    assert.equal(first.success, false);
    assert.match(first.error, /Over download quantity/);
    const res = await postJson(app, "/tools/search_patents", { keywords: "charging" });
    assert.equal(res.status, 429);
    assert.match((await res.json()).detail, /\(GPSS said Over download quantity\)/);
    assert.equal(fake.calls, 1);
    const status = await (await postJson(app, "/tools/get_quota_status", {})).json();
    assert.equal(status.quota.exhausted_upstream, true);
  } finally {
    await fake.close();
  }
});

Deno.test("get_quota_status without a ledger says why nothing is counted", async () => {
  const { app } = testApp({ gpss: new GpssClient({ baseUrl: "http://127.0.0.1:9/", userCode: undefined }) });
  const res = await postJson(app, "/tools/get_quota_status", {});
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    success: true,
    quota: null,
    note: "No quota ledger is kept: USER_CODE is not set, so nothing is sent to GPSS.",
  });
});

Deno.test("configuration: the state directory is in the permissions, the windows and budgets are settings", () => {
  const options = { defaultPoRoots: ["/srv/po"], cwd: "/", uid: () => 1000 };
  const config = parseConfig({ GPSS_STATE_DIR: "/var/lib/po-tools", PO_LOCK_DIR: "beside" }, options);
  assert.equal(config.gpssStateDir, "/var/lib/po-tools");
  const flags = permissionFlags(config, "mcp");
  assert.ok(flags.includes("--allow-read=/srv/po,/var/lib/po-tools"), flags.join(" "));
  assert.ok(flags.includes("--allow-write=/srv/po,/var/lib/po-tools"), flags.join(" "));
  assert.ok(flags.includes("--allow-sys=uid"), "the directory's owner is checked");
  assert.equal(parseConfig({}, options).gpssStateDir, null, "unset: the ledger is kept in memory");
  assert.ok(!permissionFlags(parseConfig({}, options), "serve").join(" ").includes("state"));
  const windows = parseConfig({
    GPSS_QUOTA_PEAK: "mon-sat 09:00-17:00 +09:00",
    GPSS_QUOTA_PEAK_RECORDS: "500",
    GPSS_QUOTA_OFFPEAK_RECORDS: "1500",
  }, options).gpssQuotaWindows;
  assert.deepEqual(windows, {
    peakDays: [1, 2, 3, 4, 5, 6],
    peakStart: 540,
    peakEnd: 1020,
    utcOffsetMinutes: 540,
    peakRecords: 500,
    offPeakRecords: 1500,
  });
  assert.throws(() => parseConfig({ GPSS_STATE_DIR: "relative/dir" }, options), ConfigError);
  assert.throws(
    () => parseConfig({ GPSS_QUOTA_PEAK: "weekdays" }, options),
    /GPSS_QUOTA_PEAK: not a peak window/,
  );
});
