import assert from "node:assert/strict";
import { InvalidInputError } from "../lib/errors.ts";
import { GpssClient, type SearchOutcome, type SearchRequest } from "../lib/gpss/mod.ts";
import { buildQuery } from "../lib/gpss/query.ts";
import { type GpssClientOptions } from "../lib/gpss/client.ts";
import {
  FAKE_EXPIRED_CODE,
  FAKE_USER_CODE,
  type FakeFault,
  type FakeGpss,
  type FakeGpssOptions,
  startFakeGpss,
} from "./_fake_gpss.ts";

type ClientOverrides = Partial<GpssClientOptions>;

/** Runs `fn` with a fresh fake upstream and a client pointed at it (cache off unless asked). */
async function withGpss(
  fn: (fake: FakeGpss, client: GpssClient, makeClient: (o?: ClientOverrides) => GpssClient) => Promise<void>,
  fakeOptions: FakeGpssOptions = {},
  clientOptions: ClientOverrides = {},
): Promise<void> {
  const fake = await startFakeGpss(fakeOptions);
  const makeClient = (o: ClientOverrides = {}) =>
    new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, cacheTtlMs: 0, ...clientOptions, ...o });
  try {
    await fn(fake, makeClient(), makeClient);
  } finally {
    await fake.close();
  }
}

function numbers(outcome: SearchOutcome): string[] {
  assert.equal(outcome.success, true, `expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome.success ? outcome.data.records.map((r) => r.patent_number ?? "?") : [];
}

function failure(outcome: SearchOutcome): string {
  assert.equal(outcome.success, false, "expected a failure");
  assert.equal(outcome.data, null);
  return outcome.success ? "" : outcome.error;
}

Deno.test("search sends the hand-built query and returns the fake's records", async () => {
  await withGpss(async (fake, client) => {
    const req: SearchRequest = { keywords: "charging", searchFields: ["title", "abstract"] };
    const outcome = await client.search(req);
    assert.deepEqual(fake.requests, [buildQuery(req, FAKE_USER_CODE)]);
    assert.equal(
      fake.requests[0],
      `userCode=${FAKE_USER_CODE}&TI=charging&+AB=charging&expFld=PN,ID,AN,AD,TI,AB,PA,IN,IC,CS&expFmt=json&expQty=30&expSkip=0`,
    );
    assert.deepEqual(numbers(outcome), [
      "TW202300001A",
      "TWM640001U",
      "US20230012345A1",
      "USD0987654S",
      "KR20230001234A",
    ]);
    assert.ok(outcome.success);
    assert.equal(outcome.data.total_count, 5);
    assert.equal(outcome.data.returned_count, 5);
    assert.equal(outcome.error, null);
    assert.deepEqual(outcome.request_params, {
      TI: "charging",
      "+AB": "charging",
      expFld: "PN,ID,AN,AD,TI,AB,PA,IN,IC,CS",
      expFmt: "json",
      expQty: 30,
      expSkip: 0,
    });
    assert.deepEqual(outcome.data.records[0], {
      patent_number: "TW202300001A",
      publication_date: "20230101",
      application_number: "TW111100001",
      application_date: "20220103",
      title: "快速充電方法",
      english_title: "FAST CHARGING METHOD",
      abstract: [
        "一種鋰電池快速充電方法，包含定電流與定電壓階段。",
        "A fast charging method for a lithium battery comprising ...",
      ],
      applicants: [
        { name: "範例電池股份有限公司", english_name: "EXAMPLE BATTERY CO., LTD.", country_code: "TW" },
        { name: "範例大學", english_name: "EXAMPLE UNIVERSITY", country_code: "TW" },
      ],
      inventors: [
        { name: "王小明", english_name: "WANG, HSIAO-MING", country_code: "TW" },
        { name: "林大成", english_name: "LIN, TA-CHENG", country_code: "TW" },
      ],
      ipc: ["H01M 10/44", "H02J 7/00"],
      cpc: ["H01M 10/441"],
      database: "TWA",
    });
  });
});

Deno.test("each search option reaches the upstream and filters the results", async (t) => {
  await withGpss(async (_fake, client) => {
    const cases: [string, SearchRequest, string[], number?][] = [
      ["databases", { keywords: "charging", databases: ["TWA", "USA"] }, ["TW202300001A", "US20230012345A1"]],
      ["application types", { keywords: "charging", applicationTypes: ["B"] }, ["TWM640001U", "USD0987654S"]],
      ["patent types", { keywords: "charging", patentTypes: ["M", "D"] }, ["TWM640001U", "USD0987654S"]],
      [
        "publication date range",
        { keywords: "charging", publicationDateFrom: "20230101", publicationDateTo: "20230131" },
        ["TW202300001A", "US20230012345A1", "KR20230001234A"],
      ],
      ["date from only", { keywords: "radar", publicationDateFrom: "20230101" }, ["TWI800001B"]],
      ["date to only", { keywords: "radar", publicationDateTo: "20221231" }, ["CN115000001A"]],
      [
        "+FIELD is an OR across fields, ID still restricts both",
        { keywords: "fibrosis", searchFields: ["title", "abstract"], publicationDateTo: "20161231" },
        ["US09415051B1"],
      ],
      ["claims", { keywords: "pemirolast", searchFields: ["claims"] }, ["US09415051B1"]],
      [
        "boolean expression inside the field",
        { keywords: "(雷達 or 毫米波) and 跌倒", searchFields: ["title", "abstract"] },
        ["TWI800001B"],
      ],
      ["inventor name", { keywords: "DOE, JANE", searchFields: ["inventor_name"] }, [
        "US20230012345A1",
        "US09415051B1",
      ]],
      ["inventor country", { keywords: "CA", searchFields: ["inventor_country"] }, ["US20230012345A1"]],
      ["applicant country", { keywords: "JP or DE", searchFields: ["applicant_country"] }, [
        "JP2012224629A",
        "EP3900001B1",
      ]],
      ["ipc", { keywords: "G06N", searchFields: ["ipc"] }, ["EP3900001B1", "WO2021190001A1"]],
      ["first cpc", { keywords: "G06N 3/08", searchFields: ["first_cpc"] }, ["WO2021190001A1"]],
      ["patent number", { keywords: "TWD220001S", searchFields: ["patent_number"] }, ["TWD220001S"]],
      [
        "publication date as the search field",
        { keywords: "2016:2016", searchFields: ["publication_date"] },
        [
          "US09415051B1",
        ],
      ],
      ["max results limits the page, not the total", { keywords: "charging", maxResults: 2 }, [
        "TW202300001A",
        "TWM640001U",
      ], 5],
    ];
    for (const [name, req, expected, total] of cases) {
      await t.step(name, async () => {
        const outcome = await client.search(req);
        assert.deepEqual(numbers(outcome), expected);
        assert.ok(outcome.success);
        assert.equal(outcome.data.total_count, total ?? expected.length);
        assert.equal(outcome.data.returned_count, expected.length);
      });
    }
  });
});

Deno.test("an XML answer gives the same outcome as the JSON one", async () => {
  await withGpss(async (fake, client) => {
    const req: SearchRequest = { keywords: "radar", searchFields: ["title", "abstract"] };
    const json = await client.search(req);
    fake.setFault({ kind: "format", format: "xml" });
    const xml = await client.search(req);
    assert.equal(fake.calls, 2);
    assert.deepEqual(numbers(json), ["TWI800001B", "CN115000001A"]);
    assert.deepEqual(xml, json);
  });
});

Deno.test("response shape variants of the fake all parse to the same records", async (t) => {
  const req: SearchRequest = { keywords: "pemirolast", searchFields: ["title"] };
  let reference: SearchOutcome | undefined;
  const variants: [string, FakeGpssOptions][] = [
    ["default (single items collapsed, total-rec string, qty-rec echo)", {}],
    ["lists kept as lists", { collapseSingles: false }],
    ["total-rec as a number, qty-rec counting", { totalRecAsNumber: true, qtyRec: "count" }],
    ["classification items as plain text", { classificationShape: "text" }],
  ];
  for (const [name, options] of variants) {
    await t.step(name, async () => {
      await withGpss(async (fake, client) => {
        for (const format of ["json", "xml"] as const) {
          fake.setFault(format === "xml" ? { kind: "format", format } : null);
          const outcome = await client.search(req);
          assert.deepEqual(numbers(outcome), ["US09415051B1"]);
          reference ??= outcome;
          assert.deepEqual(outcome, reference);
        }
      }, options);
    });
  }
});

Deno.test("GPSS's invalid JSON is repaired through the client", async (t) => {
  await withGpss(async (fake, client) => {
    await t.step("unescaped backslash", async () => {
      fake.setFault({ kind: "backslash" }, 1);
      const outcome = await client.search({ keywords: "terahertz" });
      assert.ok(outcome.success);
      assert.equal(outcome.data.records[0]?.title, "毫米波\\太赫兹雷达");
    });
    await t.step("raw control character", async () => {
      fake.setFault({ kind: "control-char" }, 1);
      const outcome = await client.search({ keywords: "terahertz" });
      assert.ok(outcome.success);
      assert.deepEqual(outcome.data.records[0]?.abstract, [
        "一种毫米波\n太赫兹雷达。",
        "A millimeter wave terahertz radar.",
      ]);
    });
    await t.step("missing comma between members", async () => {
      fake.setFault({ kind: "missing-comma", beforeKey: "patent-title" }, 1);
      const outcome = await client.search({ keywords: "terahertz" });
      assert.ok(outcome.success);
      assert.equal(outcome.data.records[0]?.english_title, "MILLIMETER WAVE TERAHERTZ RADAR");
    });
    assert.equal(fake.calls, 3, "no retries were needed");
  });
});

Deno.test("in-band GPSS messages become outcomes, never retried", async (t) => {
  const cases: {
    name: string;
    req?: SearchRequest;
    userCode?: string;
    fault?: FakeFault;
    fake?: FakeGpssOptions;
    before?: (fake: FakeGpss, client: GpssClient) => Promise<unknown>;
    error: RegExp | null;
  }[] = [
    { name: "No record found → success with zero records", req: { keywords: "nothingmatches" }, error: null },
    {
      name: "no record found in other casing",
      fault: { kind: "message", message: "NO RECORD FOUND", status: "success" },
      error: null,
    },
    {
      name: "userCode not exist",
      userCode: "0000000000000000",
      error: /rejected the API user code.*set USER_CODE/,
    },
    { name: "userCode expired", userCode: FAKE_EXPIRED_CODE, error: /has expired.*365 days.*set USER_CODE/ },
    {
      name: "IP blocked",
      fake: { blockAfterInvalid: 1 },
      before: (fake) => new GpssClient({ baseUrl: fake.url, userCode: "bad" }).search({ keywords: "x" }),
      error: /blocked this server's IP address/,
    },
    {
      name: "Over download quantity",
      fake: { quota: 2 },
      before: (_fake, client) => client.search({ keywords: "charging", maxResults: 2 }),
      req: { keywords: "radar" },
      error: /download quota is used up \(Over download quantity\)/,
    },
    {
      name: "No search command",
      req: { keywords: "  " },
      error: /no usable search condition \(No search command\)/,
    },
    {
      name: "Exceeded search condition length",
      req: { keywords: "x".repeat(600), searchFields: ["title", "abstract"] },
      error: /too long for GPSS \(Exceeded search condition length/,
    },
    {
      name: "Cannot use truncated and kerning",
      req: { keywords: "batt*" },
      error: /truncation \(\*, \?\) or proximity/,
    },
    {
      name: "expSkip too much",
      fault: { kind: "message", message: "expSkip too much" },
      error: /result offset/,
    },
    { name: "Unknow field", fault: { kind: "message", message: "Unknow field" }, error: /Unknow field/ },
    {
      name: "Over search quantity",
      fault: { kind: "message", message: "Over search quantity" },
      error: /quota/,
    },
    {
      name: "an unknown message is quoted",
      fault: { kind: "message", message: "Server busy" },
      error: /GPSS reported: "Server busy"/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await withGpss(async (fake, _client, makeClient) => {
        const client = makeClient(c.userCode ? { userCode: c.userCode } : {});
        if (c.before) await c.before(fake, client);
        const callsBefore = fake.calls;
        if (c.fault) fake.setFault(c.fault);
        const outcome = await client.search(c.req ?? { keywords: "charging" });
        assert.equal(fake.calls - callsBefore, 1, "exactly one upstream call");
        if (c.error === null) {
          assert.deepEqual(outcome.success && outcome.data, {
            total_count: 0,
            returned_count: 0,
            records: [],
            total: 0,
            next_offset: null,
          });
        } else {
          assert.match(failure(outcome), c.error);
        }
      }, c.fake);
    });
  }
});

Deno.test("a slow upstream gives a timeout failure after timeoutMs, without retry", async () => {
  await withGpss(
    async (fake, client) => {
      fake.setFault({ kind: "slow", delayMs: 5000 });
      const started = performance.now();
      const outcome = await client.search({ keywords: "charging" });
      const elapsed = performance.now() - started;
      assert.equal(failure(outcome), "GPSS API did not answer within 150 ms");
      assert.ok(elapsed >= 140 && elapsed < 2000, `took ${elapsed} ms`);
      assert.equal(fake.calls, 1);
    },
    {},
    { timeoutMs: 150 },
  );
});

Deno.test("transport failures: one retry on a fresh connection for 5xx, truncation and drops only", async (t) => {
  const cases: { name: string; fault: FakeFault; times: number; calls: number; error: RegExp | null }[] = [
    { name: "500 then OK", fault: { kind: "status", status: 500 }, times: 1, calls: 2, error: null },
    {
      name: "503 twice",
      fault: { kind: "status", status: 503, body: "Service Unavailable" },
      times: 2,
      calls: 2,
      error: /^GPSS API returned HTTP status 503: Service Unavailable$/,
    },
    {
      name: "404 is not retried",
      fault: { kind: "status", status: 404, body: "Not Found" },
      times: 1,
      calls: 1,
      error: /HTTP status 404: Not Found/,
    },
    { name: "truncated body then OK", fault: { kind: "truncate" }, times: 1, calls: 2, error: null },
    {
      name: "truncated twice",
      fault: { kind: "truncate" },
      times: 2,
      calls: 2,
      error: /response was cut off after \d+ characters \(it ends with: …/,
    },
    {
      name: "empty body then OK",
      fault: { kind: "truncate", keepBytes: 0 },
      times: 1,
      calls: 2,
      error: null,
    },
    { name: "dropped connection then OK", fault: { kind: "drop" }, times: 1, calls: 2, error: null },
    {
      name: "dropped twice",
      fault: { kind: "drop" },
      times: 2,
      calls: 2,
      error: /connection broke while reading the response \(HTTP 200\)|response was cut off after/,
    },
    {
      name: "garbage is not retried",
      fault: { kind: "garbage" },
      times: 1,
      calls: 1,
      error: /neither GPSS JSON nor XML \(HTTP 200\)/,
    },
    {
      name: "usage stub is not retried",
      fault: { kind: "usage" },
      times: 1,
      calls: 1,
      error: /answered with its usage text instead of results \(HTTP 200\): usage: \?userCode=/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      let freshClients = 0;
      await withGpss(async (fake, _client, makeClient) => {
        const client = makeClient({
          createHttpClient: () => {
            freshClients++;
            return Deno.createHttpClient({});
          },
        });
        fake.setFault(c.fault, c.times);
        const outcome = await client.search({ keywords: "charging" });
        assert.equal(fake.calls, c.calls);
        assert.equal(client.upstreamCalls, c.calls);
        assert.equal(freshClients, c.calls - 1, "the retry used a new HTTP client");
        if (c.error === null) assert.equal(numbers(outcome).length, 5);
        else assert.match(failure(outcome), c.error);
      });
    });
  }
  await t.step("connection refused is retried once, then reported", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    let calls = 0;
    const client = new GpssClient({
      baseUrl: `http://127.0.0.1:${port}/gpss_api`,
      userCode: FAKE_USER_CODE,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = failure(await client.search({ keywords: "x" }));
    assert.equal(calls, 2);
    assert.match(error, /^GPSS API request failed: fetch failed: .*Connection refused/);
    assert.ok(error.includes("userCode=***"), "the URL in Deno's message is kept, its code masked");
  });
});

Deno.test("a body larger than maxBodyBytes is refused without retry", async () => {
  await withGpss(
    async (fake, client) => {
      const outcome = await client.search({ keywords: "charging" });
      assert.equal(
        failure(outcome),
        "GPSS API response is larger than 1000 bytes (HTTP 200); ask for fewer results",
      );
      assert.equal(fake.calls, 1);
      const small = await client.search({ keywords: "nothingmatches" });
      assert.equal(small.success, true);
    },
    {},
    { maxBodyBytes: 1000 },
  );
});

Deno.test("identical searches are cached for the TTL; failures are not", async (t) => {
  await t.step("second identical search makes no upstream call; a different one does", async () => {
    await withGpss(
      async (fake, client) => {
        const first = await client.search({ keywords: "charging" });
        const second = await client.search({ keywords: "charging", searchFields: ["title"], maxResults: 30 });
        assert.equal(fake.calls, 1);
        assert.deepEqual(second, first);
        await client.search({ keywords: "charging", maxResults: 2 });
        assert.equal(fake.calls, 2);
      },
      {},
      { cacheTtlMs: 300_000 },
    );
  });
  await t.step("expires after the TTL on the injected clock", async () => {
    let now = 1_000;
    await withGpss(
      async (fake, client) => {
        await client.search({ keywords: "charging" });
        now += 299_999;
        await client.search({ keywords: "charging" });
        assert.equal(fake.calls, 1);
        now += 1;
        await client.search({ keywords: "charging" });
        assert.equal(fake.calls, 2);
      },
      {},
      { cacheTtlMs: 300_000, now: () => now },
    );
  });
  await t.step("TTL 0 disables the cache", async () => {
    await withGpss(
      async (fake, client) => {
        await client.search({ keywords: "charging" });
        await client.search({ keywords: "charging" });
        assert.equal(fake.calls, 2);
        assert.equal(client.cacheSize, 0);
      },
      {},
      { cacheTtlMs: 0 },
    );
  });
  await t.step("the default TTL is 5 minutes", async () => {
    let now = 0;
    await withGpss(async (fake) => {
      const client = new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, now: () => now });
      await client.search({ keywords: "charging" });
      now = 299_999;
      await client.search({ keywords: "charging" });
      now = 300_000;
      await client.search({ keywords: "charging" });
      assert.equal(fake.calls, 2);
    });
  });
  await t.step("zero-hit answers are cached, failures are not", async () => {
    await withGpss(
      async (fake, client) => {
        await client.search({ keywords: "nothingmatches" });
        await client.search({ keywords: "nothingmatches" });
        assert.equal(fake.calls, 1);
        fake.setFault({ kind: "status", status: 404 });
        await client.search({ keywords: "charging" });
        await client.search({ keywords: "charging" });
        assert.equal(fake.calls, 3);
      },
      {},
      { cacheTtlMs: 60_000 },
    );
  });
  await t.step("the cache is bounded and drops the least recently used", async () => {
    await withGpss(
      async (fake, client) => {
        const a = { keywords: "charging" };
        const b = { keywords: "radar" };
        const c = { keywords: "quantum" };
        await client.search(a);
        await client.search(b);
        await client.search(a); // hit: a becomes the most recent
        await client.search(c); // evicts b
        assert.equal(client.cacheSize, 2);
        await client.search(a); // hit
        assert.equal(fake.calls, 3);
        await client.search(b); // miss
        assert.equal(fake.calls, 4);
      },
      {},
      { cacheTtlMs: 60_000, cacheMaxEntries: 2 },
    );
  });
  await t.step("callers get copies: changing one outcome does not change the next", async () => {
    await withGpss(
      async (_fake, client) => {
        const first = await client.search({ keywords: "charging" });
        assert.ok(first.success);
        first.data.records.length = 0;
        const second = await client.search({ keywords: "charging" });
        assert.ok(second.success);
        assert.equal(second.data.records.length, 5);
      },
      {},
      { cacheTtlMs: 60_000 },
    );
  });
});

Deno.test("concurrent identical searches share one upstream call", async () => {
  await withGpss(
    async (fake, client) => {
      fake.setFault({ kind: "slow", delayMs: 100 }, 3);
      const outcomes = await Promise.all([
        ...Array.from({ length: 8 }, () => client.search({ keywords: "charging" })),
        client.search({ keywords: "radar" }),
      ]);
      assert.equal(fake.calls, 2, "8 identical + 1 different → 2 calls");
      for (const o of outcomes.slice(1, 8)) assert.deepEqual(o, outcomes[0]);
      assert.notStrictEqual(outcomes[1], outcomes[0], "each caller gets its own copy");
      assert.deepEqual(numbers(outcomes[8]!), ["TWI800001B", "CN115000001A"]);
      // With the cache off, the next identical search goes upstream again.
      await client.search({ keywords: "charging" });
      assert.equal(fake.calls, 3);
    },
    {},
    { cacheTtlMs: 0 },
  );
});

Deno.test("without a user code the search fails at once and nothing is sent", async (t) => {
  for (const userCode of [undefined, ""]) {
    await t.step(String(userCode) || "empty string", async () => {
      await withGpss(async (fake, _client, makeClient) => {
        const outcome = await makeClient({ userCode }).search({ keywords: "charging", databases: ["TWA"] });
        assert.match(failure(outcome), /set USER_CODE/);
        assert.equal(outcome.request_params.patDB, "TWA");
        assert.equal(fake.calls, 0);
      });
    });
  }
});

Deno.test("invalid requests throw InvalidInputError and send nothing", async () => {
  await withGpss(async (fake, client) => {
    await assert.rejects(() => client.search({ keywords: "x", databases: ["ZZZ"] }), InvalidInputError);
    assert.equal(fake.calls, 0);
  });
});

Deno.test("the user code never appears in an outcome or an error, whatever happens", async (t) => {
  // Characters that get percent-encoded, so both spellings must be masked.
  const SECRET = "S3cret+C0de/xyz";
  const ENCODED = "S3cret%2BC0de%2Fxyz";
  const scenarios: {
    name: string;
    fault?: FakeFault;
    times?: number;
    req?: SearchRequest;
    timeoutMs?: number;
  }[] = [
    { name: "success" },
    { name: "no record", req: { keywords: "nothingmatches" } },
    { name: "500 echoing the query", fault: { kind: "status", status: 500, body: "bad request: {query}" } },
    { name: "404 echoing the query", fault: { kind: "status", status: 404, body: "no such page ?{query}" } },
    { name: "garbage echoing the query", fault: { kind: "garbage", body: "oops {query}" } },
    { name: "message echoing nothing", fault: { kind: "message", message: "Server busy" } },
    { name: "truncated", fault: { kind: "truncate" } },
    { name: "dropped", fault: { kind: "drop" } },
    { name: "usage", fault: { kind: "usage" } },
    { name: "timeout", fault: { kind: "slow", delayMs: 2000 }, timeoutMs: 100 },
    { name: "no search command", req: { keywords: "" } },
  ];
  for (const s of scenarios) {
    await t.step(s.name, async () => {
      await withGpss(async (fake, _client, makeClient) => {
        const client = makeClient({ userCode: SECRET, timeoutMs: s.timeoutMs ?? 30_000 });
        if (s.fault) fake.setFault(s.fault, s.times);
        const text = JSON.stringify(await client.search(s.req ?? { keywords: "charging" }));
        assert.ok(fake.requests[0]?.includes(`userCode=${ENCODED}&`), "the code was sent");
        assert.ok(!text.includes(SECRET) && !text.includes(ENCODED), text);
      }, { userCodes: [SECRET] });
    });
  }
  await t.step("an auth failure", async () => {
    await withGpss(async (_fake, _client, makeClient) => {
      const text = JSON.stringify(await makeClient({ userCode: SECRET }).search({ keywords: "x" }));
      assert.match(text, /userCode not exist/);
      assert.ok(!text.includes(SECRET) && !text.includes(ENCODED));
    });
  });
  await t.step("connection refused (Deno's message holds the URL)", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const client = new GpssClient({ baseUrl: `http://127.0.0.1:${port}/gpss_api`, userCode: SECRET });
    const text = JSON.stringify(await client.search({ keywords: "x" }));
    assert.ok(!text.includes(SECRET) && !text.includes(ENCODED), text);
  });
  await t.step("a bug thrown by fetch propagates, with the code masked in message and stack", async () => {
    const client = new GpssClient({
      baseUrl: "http://127.0.0.1:9/gpss_api",
      userCode: SECRET,
      fetch: (input) =>
        Promise.reject(new RangeError(`bad url ${input}`, { cause: new Error(`inner ${input}`) })),
    });
    await assert.rejects(() => client.search({ keywords: "x" }), (err) => {
      assert.ok(err instanceof RangeError);
      assert.match(err.message, /^bad url http:\/\/127\.0\.0\.1:9\/gpss_api\?userCode=\*\*\*&TI=x/);
      assert.ok(!String(err.stack).includes(SECRET) && !String(err.stack).includes(ENCODED));
      assert.match(
        (err.cause as Error).message,
        /^inner http:\/\/127\.0\.0\.1:9\/gpss_api\?userCode=\*\*\*&/,
      );
      return true;
    });
  });
});

Deno.test("a programming error propagates to every coalesced caller and is not cached", async () => {
  let calls = 0;
  const client = new GpssClient({
    baseUrl: "http://127.0.0.1:9/gpss_api",
    userCode: FAKE_USER_CODE,
    fetch: async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 20));
      throw new Error("bug in a fetch wrapper");
    },
  });
  const results = await Promise.allSettled([
    client.search({ keywords: "x" }),
    client.search({ keywords: "x" }),
  ]);
  assert.equal(calls, 1);
  for (const r of results) {
    assert.equal(r.status, "rejected");
    assert.equal((r as PromiseRejectedResult).reason.message, "bug in a fetch wrapper");
  }
  await assert.rejects(() => client.search({ keywords: "x" }), /bug in a fetch wrapper/);
  assert.equal(calls, 2);
});

Deno.test("the fake reads the raw query like GPSS", async (t) => {
  await withGpss(async (fake) => {
    const get = async (query: string, init?: RequestInit) => {
      const res = await fetch(`${fake.url}${query}`, init);
      return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
    };
    await t.step("no parameters → 38-byte usage stub", async () => {
      const r = await get("");
      assert.equal(r.status, 200);
      assert.match(r.type!, /^text\/plain/);
      assert.ok(r.body.startsWith("usage:"));
      assert.equal(new TextEncoder().encode(r.body).length, 38);
    });
    await t.step("bad code → the 96-byte XML message (XML is the default format)", async () => {
      const r = await get("?userCode=nope&TI=x");
      assert.equal(
        r.body,
        '<?xml version="1.0" encoding="UTF-8"?><gpss-API><message>userCode not exist</message></gpss-API>',
      );
      assert.equal(r.body.length, 96);
    });
    const base = `?userCode=${FAKE_USER_CODE}&expFmt=json&expFld=PN`;
    const pns = (body: string) => JSON.stringify(JSON.parse(body)["gpss-API"].patent ?? null);
    await t.step("+AB is a cross-field OR; %2BAB is an unknown key and is dropped", async () => {
      const or = await get(`${base}&TI=pemirolast&+AB=terahertz`);
      assert.equal(JSON.parse(or.body)["gpss-API"]["total-rec"], "2");
      const encoded = await get(`${base}&TI=pemirolast&%2BAB=terahertz`);
      assert.equal(JSON.parse(encoded.body)["gpss-API"]["total-rec"], "1");
      const not = await get(`${base}&TI=radar&-AB=terahertz`);
      assert.match(pns(not.body), /TWI800001B/);
      assert.doesNotMatch(pns(not.body), /CN115000001A/);
    });
    await t.step("TI/AB keys are recognised literally", async () => {
      const r = await get(`${base}&TI/AB=fibrosis`);
      assert.match(pns(r.body), /US09415051B1/);
    });
    await t.step("POST: the body is ignored, the URL query answers", async () => {
      const r = await get(`${base}&TI=pemirolast`, { method: "POST", body: "userCode=zzz&TI=radar" });
      assert.match(pns(r.body), /US09415051B1/);
    });
    await t.step("expSkip beyond the hits and unknown output codes", async () => {
      assert.match((await get(`${base}&TI=charging&expSkip=5`)).body, /expSkip too much/);
      assert.match((await get(`?userCode=${FAKE_USER_CODE}&TI=x&expFld=PN,XX`)).body, /Unknow field/);
    });
    await t.step("a one-record answer is collapsed to an object", async () => {
      const r = JSON.parse((await get(`${base}&PN=TWD220001S`)).body)["gpss-API"];
      assert.deepEqual(r.patent.patentcontent, {
        "@database": "TWD",
        "publication-reference": { "doc-number": "TWD220001S" },
      });
      assert.equal(r["qty-rec"], "30");
    });
  });
});
