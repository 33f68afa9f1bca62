/**
 * Patent search under hostile input (issue 14 items 7 and 10): every string and list of a search
 * is bounded, nothing the upstream sends can make an answer, an error or the memory held grow
 * without bound, and the user code never leaks, whatever spelling the upstream echoes it in.
 */
import assert from "node:assert/strict";
import { InvalidInputError } from "../lib/errors.ts";
import { EXCERPT_WINDOW } from "../lib/gpss/_excerpt.ts";
import {
  GpssClient,
  MAX_KEYWORDS_LENGTH,
  MAX_QUERY_LENGTH,
  QueryTooLongError,
  requestParams,
  SEARCH_FIELDS,
  type SearchOutcome,
} from "../lib/gpss/mod.ts";
import { DEFAULT_MAX_BODY_BYTES, type GpssClientOptions } from "../lib/gpss/client.ts";
import { MAX_XML_NODES } from "../lib/gpss/response.ts";
import {
  FAKE_USER_CODE,
  type FakeFault,
  type FakeGpss,
  type FakeGpssOptions,
  startFakeGpss,
} from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

type ClientOverrides = Partial<GpssClientOptions>;

async function withGpss(
  fn: (fake: FakeGpss, makeClient: (o?: ClientOverrides) => GpssClient) => Promise<void>,
  fakeOptions: FakeGpssOptions = {},
): Promise<void> {
  const fake = await startFakeGpss(fakeOptions);
  const makeClient = (o: ClientOverrides = {}) =>
    new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE, cacheTtlMs: 0, ...o });
  try {
    await fn(fake, makeClient);
  } finally {
    await fake.close();
  }
}

function failure(outcome: SearchOutcome): string {
  assert.equal(outcome.success, false, "expected a failure");
  return outcome.success ? "" : outcome.error;
}

/** An app over a fake upstream; `lines` is its request log. */
async function withApp(
  fn: (app: ReturnType<typeof testApp>["app"], fake: FakeGpss, lines: string[]) => Promise<void>,
  fakeOptions: FakeGpssOptions = {},
  userCode = FAKE_USER_CODE,
) {
  const fake = await startFakeGpss(fakeOptions);
  try {
    const gpss = new GpssClient({ baseUrl: fake.url, userCode, cacheTtlMs: 0 });
    const { app, lines } = testApp({ gpss, config: { apiToken: undefined, maxBodyBytes: 16 * 1024 * 1024 } });
    await fn(app, fake, lines);
  } finally {
    await fake.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Item 7: bounded strings and lists
// ---------------------------------------------------------------------------------------------

Deno.test("keywords longer than 2,000 characters get a 422 string_too_long and send nothing", async (t) => {
  await withApp(async (app, fake) => {
    await t.step("2,001 characters", async () => {
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "a".repeat(MAX_KEYWORDS_LENGTH + 1),
      });
      assert.equal(res.status, 422);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const [item] = (await res.json()).detail;
      assert.equal(item.type, "string_too_long");
      assert.deepEqual(item.loc, ["body", "keywords"]);
      assert.equal(item.msg, "String should have at most 2000 characters");
      assert.deepEqual(item.ctx, { max_length: 2000 });
    });
    await t.step("1 MB of keywords over every search field: a small 422, not a 52 MB answer", async () => {
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "a".repeat(1_000_000),
        search_field: SEARCH_FIELDS,
      });
      assert.equal(res.status, 422);
      const text = await res.text();
      assert.ok(text.length < 10_000, `answer of ${text.length} characters`);
      assert.equal(JSON.parse(text).detail[0].type, "string_too_long");
    });
    await t.step("2.5 million CJK characters: a 422, not a 500", async () => {
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "雲".repeat(2_500_000),
        search_field: SEARCH_FIELDS,
      });
      assert.equal(res.status, 422);
      assert.equal((await res.json()).detail[0].type, "string_too_long");
    });
    assert.equal(fake.calls, 0, "nothing was sent upstream");
  });
});

Deno.test("2,000 characters of keywords still reach GPSS, which answers in-band", async () => {
  await withApp(async (app, fake) => {
    const res = await postJson(app, "/tools/search_patents", { keywords: "a".repeat(MAX_KEYWORDS_LENGTH) });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.success, false);
    assert.match(body.error, /Exceeded search condition length/);
    assert.equal(body.request_params.TI.length, MAX_KEYWORDS_LENGTH);
    assert.equal(fake.calls, 1);
  });
});

Deno.test("a search whose encoded query exceeds 32,000 characters is a 422 naming the limit", async () => {
  await withApp(async (app, fake) => {
    // 2,000 CJK characters are 18,000 once percent-encoded: one field fits, two do not.
    const keywords = "雲".repeat(MAX_KEYWORDS_LENGTH);
    const one = await postJson(app, "/tools/search_patents", { keywords });
    assert.equal(one.status, 200);
    assert.equal(fake.calls, 1);
    const two = await postJson(app, "/tools/search_patents", {
      keywords,
      search_field: ["title", "abstract"],
    });
    assert.equal(two.status, 422);
    const detail = (await two.json()).detail;
    assert.equal(detail.length, 1);
    assert.equal(detail[0].type, "value_error");
    assert.deepEqual(detail[0].loc, ["body"]);
    assert.match(
      detail[0].msg,
      /^Value error, The search needs a query string of 36\d{3} characters .* 32000 /,
    );
    assert.equal(fake.calls, 1, "the refused search sent nothing");
  });
});

Deno.test("list fields hold at most their number of distinct values; duplicates within that are dropped", async (t) => {
  const cases: [string, unknown[], number][] = [
    ["search_field", [...SEARCH_FIELDS, "title"], SEARCH_FIELDS.length],
    ["databases", Array(24).fill("TWA"), 23],
    ["application_types", ["A", "B", "A"], 2],
    ["patent_types", ["I", "M", "D", "I"], 3],
  ];
  await withApp(async (app, fake) => {
    for (const [field, list, max] of cases) {
      await t.step(`${field}: ${list.length} values`, async () => {
        const res = await postJson(app, "/tools/search_patents", { keywords: "x", [field]: list });
        assert.equal(res.status, 422);
        assert.deepEqual((await res.json()).detail, [{
          type: "too_long",
          loc: ["body", field],
          msg: `List should have at most ${max} items after validation, not ${list.length}`,
          input: list,
          ctx: { field_type: "List", max_length: max, actual_length: list.length },
        }]);
      });
    }
    await t.step("a million database codes: a small 422", async () => {
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "x",
        databases: Array(1e6).fill("TWA"),
      });
      assert.equal(res.status, 422);
      assert.ok((await res.text()).length < 10_000);
    });
    assert.equal(fake.calls, 0);
    await t.step("duplicates within the count are accepted and sent once", async () => {
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "充電",
        search_field: ["title", "title", "abstract"],
        databases: ["TWA", "TWA"],
      });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.success, true, body.error);
      assert.equal(body.request_params.patDB, "TWA");
      assert.deepEqual(Object.keys(body.request_params).slice(0, 2), ["TI", "+AB"]);
    });
  });
});

Deno.test("the library refuses what the schema refuses, before building any URL", async (t) => {
  await withGpss(async (fake, makeClient) => {
    const client = makeClient();
    const cases: [string, Parameters<GpssClient["search"]>[0], RegExp][] = [
      [
        "2,001 characters",
        { keywords: "a".repeat(2001) },
        /^keywords has 2001 characters, more than the 2000/,
      ],
      [
        "2.5 million CJK characters over every field (a RangeError before)",
        { keywords: "雲".repeat(2_500_000), searchFields: [...SEARCH_FIELDS] },
        /^keywords has 2500000 characters/,
      ],
      [
        "a query over 32,000 characters",
        { keywords: "a".repeat(2000), searchFields: [...SEARCH_FIELDS] },
        /^The search needs a query string of \d+ characters/,
      ],
      [
        "28 search fields",
        { keywords: "x", searchFields: [...SEARCH_FIELDS, "title"] },
        /^Too many search field/,
      ],
      [
        "a million databases",
        { keywords: "x", databases: Array(1e6).fill("TWA") },
        /^Too many database values/,
      ],
      [
        "a megabyte-long database code",
        { keywords: "x", databases: ["Z".repeat(1e6)] },
        /^Invalid database: "Z{60}…"/,
      ],
      [
        "a megabyte-long date",
        { keywords: "x", publicationDateFrom: "9".repeat(1e6) },
        /^Invalid publication_date_from: "9{60}…"/,
      ],
    ];
    for (const [label, req, message] of cases) {
      await t.step(label, async () => {
        await assert.rejects(() => client.search(req), (err: Error) => {
          assert.ok(err instanceof InvalidInputError, `${err.name}: ${err.message.slice(0, 200)}`);
          assert.match(err.message, message);
          assert.ok(err.message.length < 500, `message of ${err.message.length} characters`);
          return true;
        });
      });
    }
    assert.equal(fake.calls, 0);
  });
  await t.step("the query-length refusal is its own class, with the length", () => {
    assert.throws(
      () => requestParams({ keywords: "雲".repeat(2000), searchFields: ["title", "abstract"] }),
      (err) => {
        assert.ok(err instanceof QueryTooLongError);
        assert.ok(err.length > MAX_QUERY_LENGTH);
        return true;
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Item 7: bounded echoes, bodies and answers
// ---------------------------------------------------------------------------------------------

Deno.test("no error echoes more than a bounded excerpt of what the upstream sent", async (t) => {
  const big = "x".repeat(1_000_000);
  const cases: [string, FakeFault][] = [
    ["a huge status of an empty answer", {
      kind: "echo",
      contentType: "application/json",
      render: () => JSON.stringify({ "gpss-API": { status: big } }),
    }],
    ["a huge tag name in broken XML", {
      kind: "echo",
      contentType: "text/xml",
      render: () => `<gpss-API><${big}></b></gpss-API>`,
    }],
    ["a huge unknown message", { kind: "message", message: big }],
    ["a huge error page", { kind: "status", status: 502, body: big }],
  ];
  for (const [label, fault] of cases) {
    await t.step(label, async () => {
      await withGpss(async (fake, makeClient) => {
        fake.setFault(fault);
        const error = failure(await makeClient().search({ keywords: "battery" }));
        assert.ok(error.length < 1000, `error of ${error.length} characters: ${error.slice(0, 300)}`);
        assert.match(error, /x…/);
      });
    });
  }
  await t.step("a transport error keeps both ends of Deno's message, not the whole URL", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const client = new GpssClient({ baseUrl: `http://127.0.0.1:${port}/gpss_api`, userCode: FAKE_USER_CODE });
    const outcome = await client.search({
      keywords: "k".repeat(2000),
      searchFields: [...SEARCH_FIELDS].slice(0, 15),
    });
    const error = failure(outcome);
    assert.ok(error.length < 600, `error of ${error.length} characters`);
    assert.match(
      error,
      /^GPSS API request failed: fetch failed: .*userCode=\*\*\*&TI=k+….*Connection refused/,
    );
  });
});

Deno.test("a huge or endless upstream body is cut at 16 MiB or by the timeout, never held whole", async (t) => {
  assert.equal(DEFAULT_MAX_BODY_BYTES, 16 * 1024 * 1024);
  await t.step("40 MiB answer", async () => {
    await withGpss(async (fake, makeClient) => {
      fake.setFault({ kind: "huge", bytes: 40 * 1024 * 1024, prefix: '{"gpss-API":{"patent":[' });
      const error = failure(await makeClient().search({ keywords: "battery" }));
      assert.equal(
        error,
        "GPSS API response is larger than 16777216 bytes (HTTP 200); ask for fewer results",
      );
      assert.equal(fake.calls, 1, "not retried");
    });
  });
  await t.step("an endless fast stream", async () => {
    await withGpss(async (fake, makeClient) => {
      fake.setFault({ kind: "endless" });
      const error = failure(await makeClient({ timeoutMs: 20_000 }).search({ keywords: "battery" }));
      assert.match(error, /^GPSS API response is larger than 16777216 bytes/);
    });
  });
  await t.step("an endless slow stream ends at the timeout", async () => {
    await withGpss(async (fake, makeClient) => {
      fake.setFault({ kind: "endless", chunk: " ", intervalMs: 20 });
      const started = performance.now();
      const error = failure(await makeClient({ timeoutMs: 400 }).search({ keywords: "battery" }));
      assert.equal(error, "GPSS API did not answer within 400 ms");
      assert.ok(performance.now() - started < 3000);
    });
  });
});

Deno.test("an upstream answer with far more records than asked gives only the records asked for", async (t) => {
  const prefix = '{"gpss-API":{"status":"success","patent":{"patentcontent":[';
  const records = (n: number): FakeFault => ({
    kind: "huge",
    bytes: prefix.length + 3 * (n - 1),
    prefix,
    fill: "{},",
    suffix: "{}]}}}",
  });
  await t.step(
    "200,000 records: the 7 asked for (spreading them into push() overflowed the stack)",
    async () => {
      await withGpss(async (fake, makeClient) => {
        fake.setFault(records(200_000));
        const outcome = await makeClient().search({ keywords: "battery", maxResults: 7 });
        assert.equal(outcome.success, true, outcome.error ?? "");
        assert.equal(outcome.data?.records.length, 7);
        assert.equal(outcome.data?.returned_count, 7);
        assert.equal(outcome.data?.total_count, 200_000);
      });
    },
  );
  await t.step(
    "two million records in 6 MB: refused in-band before parsing (4 s and 600 MB before)",
    async () => {
      await withGpss(async (fake, makeClient) => {
        fake.setFault(records(2_000_000));
        const started = performance.now();
        const error = failure(await makeClient().search({ keywords: "battery" }));
        assert.match(
          error,
          /^GPSS API response could not be parsed \(JSON has more than 250000 objects and arrays\)/,
        );
        assert.ok(performance.now() - started < 2000);
      });
    },
  );
});

Deno.test("a record nested deeper than the parser's limit is read without overflowing the stack", async () => {
  await withGpss(async (fake, makeClient) => {
    const deep = "[".repeat(100_000) + '"T"' + "]".repeat(100_000);
    fake.setFault({
      kind: "echo",
      contentType: "application/json",
      render: () =>
        `{"gpss-API":{"status":"success","patent":{"patentcontent":{"patent-title":${deep},` +
        `"abstract":{"p":${deep}},"publication-reference":{"doc-number":"TW1"}}}}}`,
    });
    const outcome = await makeClient().search({ keywords: "battery" });
    assert.equal(outcome.success, true, outcome.error ?? "");
    assert.equal(outcome.data?.records[0]?.patent_number, "TW1");
    assert.equal(outcome.data?.records[0].title, null);
    assert.deepEqual(outcome.data?.records[0].abstract, []);
  });
});

Deno.test("an XML answer of more than 250,000 elements is refused in-band", async () => {
  await withGpss(async (fake, makeClient) => {
    fake.setFault({
      kind: "echo",
      contentType: "text/xml",
      render: () => `<gpss-API><status>success</status>${"<a/>".repeat(MAX_XML_NODES)}</gpss-API>`,
    });
    const error = failure(await makeClient().search({ keywords: "battery" }));
    assert.match(
      error,
      /^GPSS API response could not be parsed \(XML has more than 250000 elements and texts/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Item 10: the user code, in every spelling
// ---------------------------------------------------------------------------------------------

const SECRET = "S3cret C0de&x+y/Z9";
const HEX = FAKE_USER_CODE;

function pct(code: string, hex: (b: number) => string): string {
  return [...new TextEncoder().encode(code)].map((b) => `%${hex(b)}`).join("");
}
const upperHex = (b: number) => b.toString(16).toUpperCase().padStart(2, "0");
const lowerHex = (b: number) => b.toString(16).padStart(2, "0");

/** Every spelling an upstream echo may use, by name. */
const FORMS: [string, (code: string) => string][] = [
  ["verbatim", (c) => c],
  ["upper-cased", (c) => c.toUpperCase()],
  ["lower-cased", (c) => c.toLowerCase()],
  ["percent-encoded, upper-case hex", (c) => pct(c, upperHex)],
  ["percent-encoded, lower-case hex", (c) => pct(c, lowerHex)],
  ["percent-encoded twice", (c) => pct(c, upperHex).replaceAll("%", "%25")],
  ["percent-encoded as our query sends it", (c) => encodeURIComponent(c)],
  ["form-encoded (space as +)", (c) => encodeURIComponent(c).replaceAll("%20", "+")],
  ["form-encoded and upper-cased", (c) => encodeURIComponent(c).replaceAll("%20", "+").toUpperCase()],
  ["HTML-escaped", (c) => c.replaceAll("&", "&amp;").replaceAll("<", "&lt;")],
  ["HTML decimal entities", (c) => [...c].map((ch) => `&#${ch.codePointAt(0)};`).join("")],
  [
    "HTML hex entities",
    (c) => [...c].map((ch) => `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`).join(""),
  ],
  [
    "JSON \\u escapes",
    (c) => [...c].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ],
  [
    "mixed: every other character percent-encoded",
    (c) => [...c].map((ch, i) => (i % 2 ? pct(ch, upperHex) : ch)).join(""),
  ],
];

/** True when `text` shows the code, or a run of 4 of its characters, in any of {@link FORMS}. */
function leaks(text: string, code: string): string | null {
  const lower = text.toLowerCase();
  for (const [name, form] of FORMS) {
    for (let i = 0; i + 4 <= code.length; i++) {
      const run = form(code.slice(i, i + 4)).toLowerCase();
      if (lower.includes(run)) return `${name} run ${JSON.stringify(run)}`;
    }
  }
  return null;
}

Deno.test("the user code never leaks through an upstream echo, whatever its spelling", async (t) => {
  for (const code of [SECRET, HEX]) {
    for (const [name, form] of FORMS) {
      await t.step(`${code === HEX ? "hex code" : "code with & + / and a space"}, ${name}`, async () => {
        await withGpss(async (fake, makeClient) => {
          const client = makeClient({ userCode: code });
          const echoes: FakeFault[] = [
            { kind: "echo", status: 500, render: () => `Bad request userCode=${form(code)}&TI=battery` },
            { kind: "echo", render: () => `<html><body>userCode=${form(code)}</body></html>` },
            { kind: "message", message: `userCode ${form(code)} is unknown to this server` },
            { kind: "echo", status: 400, render: () => `${"z".repeat(150)} cut: ${form(code).slice(0, -2)}` },
          ];
          for (const echo of echoes) {
            fake.setFault(echo);
            const text = JSON.stringify(await client.search({ keywords: "battery" }));
            assert.equal(leaks(text, code), null, text);
            assert.match(text, /\*\*\*/, "the code was there and was masked");
          }
        }, { userCodes: [code] });
      });
    }
  }
});

/** The longest part of `code` (at least 2 characters) that `text` ends with (`from` "end": starts with). */
function cutPart(text: string, code: string, at: "end" | "start"): string | null {
  for (let k = code.length; k >= 2; k--) {
    if (at === "end" && text.toLowerCase().endsWith(code.slice(0, k).toLowerCase())) return code.slice(0, k);
    if (at === "start" && text.toLowerCase().startsWith(code.slice(-k).toLowerCase())) return code.slice(-k);
  }
  return null;
}

Deno.test("a code where an excerpt is cut is masked whole, not cut to a visible part", async (t) => {
  await withGpss(async (fake, makeClient) => {
    const client = makeClient();
    const paths: [string, (before: number) => FakeFault, RegExp][] = [
      [
        "an error page",
        (n) => ({ kind: "echo", status: 500, render: () => `${"z".repeat(n)}${HEX}${"y".repeat(300)}` }),
        /HTTP status 500: (.*)…$/,
      ],
      [
        "an in-band message",
        (n) => ({ kind: "message", message: `${"z".repeat(n)}${HEX}${"y".repeat(300)}` }),
        /^GPSS reported: "(.*)…"$/,
      ],
    ];
    for (const [label, fault, shownRe] of paths) {
      await t.step(`${label}, cut in the first 200 characters`, async () => {
        for (let before = 200 - HEX.length; before <= 200; before++) {
          fake.setFault(fault(before));
          const error = failure(await client.search({ keywords: "battery" }));
          const shown = shownRe.exec(error)?.[1] ?? "";
          assert.ok(shown.startsWith("z".repeat(before - 8)), error);
          assert.equal(cutPart(shown, HEX, "end"), null, `${before}: ${error.slice(-40)}`);
          assert.equal(leaks(error, HEX), null, error);
        }
      });
    }
    await t.step("a truncated body, whose last 80 characters are shown", async () => {
      for (let after = 80 - HEX.length; after <= 80; after++) {
        const body = `{"gpss-API":{"status":"success","message":"${"z".repeat(100)}${HEX}${
          "y".repeat(after)
        }`;
        fake.setFault({ kind: "echo", contentType: "application/json", render: () => body });
        const error = failure(await client.search({ keywords: "battery" }));
        const shown = /\(it ends with: …(.*)\)$/.exec(error)?.[1] ?? "";
        assert.ok(shown.endsWith("y".repeat(after)), error);
        assert.equal(cutPart(shown, HEX, "start"), null, `${after}: ${error.slice(-100)}`);
        assert.equal(leaks(error, HEX), null, error);
      }
    });
    await t.step("a code cut by the 64 KiB window read from a body", async () => {
      for (let visible = 2; visible <= 5; visible++) {
        fake.setFault({
          kind: "echo",
          status: 500,
          render: () => `${" ".repeat(EXCERPT_WINDOW - visible)}${HEX}${"y".repeat(10)}`,
        });
        const error = failure(await client.search({ keywords: "battery" }));
        assert.equal(error, "GPSS API returned HTTP status 500: ***…");
      }
    });
  });
});

Deno.test("the user code is in no answer, request_params or log line of the route, even echoed", async () => {
  await withApp(async (app, fake, lines) => {
    const texts: string[] = [];
    const forms = FORMS.map(([, form]) => form(HEX)).join(" ");
    for (
      const fault of [
        null,
        { kind: "echo", status: 500, render: (q: string) => `${q} ${forms}` },
        { kind: "echo", render: (q: string) => `<<${q.toUpperCase()}>> ${forms}` },
        { kind: "message", message: `bad ${forms}` },
      ] as const
    ) {
      fake.setFault(fault);
      const res = await postJson(app, "/tools/search_patents", {
        keywords: "battery",
        search_field: ["title", "abstract"],
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(!JSON.stringify(JSON.parse(text).request_params).includes("userCode"));
      texts.push(text);
    }
    const all = texts.join("\n") + lines.join("\n");
    assert.equal(leaks(all, HEX), null, all);
    assert.ok(fake.requests.every((q) => q.startsWith(`userCode=${HEX}&`)), "the code was sent");
  });
});

// ---------------------------------------------------------------------------------------------
// Item 7: what all searches together may hold
// ---------------------------------------------------------------------------------------------

Deno.test("at most maxConcurrent searches reach GPSS at once; the others wait their turn", async (t) => {
  await t.step("six different searches, two at a time, all answered", async () => {
    await withGpss(async (fake, makeClient) => {
      fake.setFault({ kind: "slow", delayMs: 150 });
      const client = makeClient({ maxConcurrent: 2 });
      const words = ["battery", "charging", "radar", "wireless", "lithium", "pemirolast"];
      const outcomes = await Promise.all(words.map((keywords) => client.search({ keywords })));
      assert.ok(outcomes.every((o) => o.success), JSON.stringify(outcomes.map((o) => o.error)));
      assert.equal(fake.calls, 6);
      assert.equal(fake.maxInFlight, 2);
    });
  });
  await t.step("a search that waits longer than queueTimeoutMs fails in-band", async () => {
    await withGpss(async (fake, makeClient) => {
      fake.setFault({ kind: "slow", delayMs: 600 });
      const client = makeClient({ maxConcurrent: 1, queueTimeoutMs: 100 });
      const [first, second] = await Promise.all([
        client.search({ keywords: "battery" }),
        client.search({ keywords: "charging" }),
      ]);
      assert.equal(first.success, true, first.error ?? "");
      assert.equal(
        failure(second),
        "GPSS API is busy: this service sends it at most 1 searches at a time, and this one waited 100 ms " +
          "for its turn. Try again shortly.",
      );
      assert.equal(fake.calls, 1);
      assert.equal((await client.search({ keywords: "radar" })).success, true, "the turn was given back");
    });
  });
});

Deno.test("the cache holds at most cacheMaxChars of answers, least recently used dropped first", async () => {
  await withGpss(async (fake, makeClient) => {
    // Answers of 1,000 to 3,000 characters each (title and abstract searches of the fake corpus).
    const client = makeClient({ cacheTtlMs: 60_000, cacheMaxChars: 12_000 });
    const search = (keywords: string) => client.search({ keywords, searchFields: ["title", "abstract"] });
    const words = [
      "battery",
      "charging",
      "radar",
      "wireless",
      "lithium",
      "method",
      "充電",
      "pemirolast",
      "system",
    ];
    for (const keywords of words) {
      assert.equal((await search(keywords)).success, true);
      assert.ok(client.cacheChars <= 12_000, `${client.cacheChars} characters cached`);
    }
    assert.ok(client.cacheSize < words.length, `${client.cacheSize} answers cached`);
    const calls = fake.calls;
    await search("system");
    assert.equal(fake.calls, calls, "the most recent answer is still cached");
    await search("battery");
    assert.equal(fake.calls, calls + 1, "the oldest answer was dropped");
    await search("a"); // 12 records, over 3,000 characters
    assert.equal(fake.calls, calls + 2);
    await search("a");
    assert.equal(fake.calls, calls + 3, "an answer over a quarter of the budget is not kept");
  });
});

Deno.test("an answer may not outgrow the body limit, even when JSON escapes inflate its text", async () => {
  await withGpss(async (fake, makeClient) => {
    // 2,800 raw control characters (GPSS's lenient JSON) become 16,800 characters of "\u0001".
    const title = "\u0001".repeat(2800);
    fake.setFault({
      kind: "echo",
      contentType: "application/json",
      render: () =>
        `{"gpss-API":{"status":"success","patent":{"patentcontent":{"patent-title":"${title}"}}}}`,
    });
    const error = failure(await makeClient({ maxBodyBytes: 3000 }).search({ keywords: "battery" }));
    assert.match(error, /^GPSS API answer would be 1\d{4} characters of JSON, more than the 3000 allowed/);
  });
});
