import assert from "node:assert/strict";
import { GpssClient } from "../lib/gpss/mod.ts";
import { SEARCH_EXAMPLES } from "../routes/patent_examples.ts";
import { FAKE_USER_CODE, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

async function withApp(
  fn: (
    app: ReturnType<typeof testApp>["app"],
    fake: Awaited<ReturnType<typeof startFakeGpss>>,
    lines: string[],
  ) => Promise<void>,
  userCode: string | null = FAKE_USER_CODE,
) {
  const fake = await startFakeGpss();
  try {
    const gpss = new GpssClient({ baseUrl: fake.url, userCode: userCode ?? undefined, cacheTtlMs: 300_000 });
    const { app, lines } = testApp({ gpss });
    await fn(app, fake, lines);
  } finally {
    await fake.close();
  }
}

Deno.test("POST /tools/search_patents returns parsed records and the exact upstream parameters", async () => {
  await withApp(async (app, fake) => {
    const res = await postJson(app, "/tools/search_patents", {
      keywords: "充電",
      search_field: ["title", "abstract"],
      databases: ["TWA", "TWB"],
      publication_date_from: "20200101",
      publication_date_to: "20231231",
      max_results: 5,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["success", "data", "request_params", "error"]);
    assert.equal(body.success, true, body.error);
    assert.equal(body.error, null);
    assert.ok(body.data.records.length > 0);
    const rec = body.data.records[0];
    for (
      const key of [
        "patent_number",
        "publication_date",
        "application_number",
        "application_date",
        "title",
        "english_title",
        "abstract",
        "applicants",
        "inventors",
        "ipc",
        "cpc",
        "database",
      ]
    ) {
      assert.ok(key in rec, key);
    }
    assert.equal(body.request_params.TI, "充電");
    assert.equal(body.request_params["+AB"], "充電");
    assert.equal(body.request_params.ID, "20200101:20231231");
    assert.equal(body.request_params.patDB, "TWA,TWB");
    assert.equal(body.request_params.expQty, 5);
    assert.ok(!("userCode" in body.request_params));
    assert.equal(fake.requests.length, 1);
    assert.match(fake.requests[0] ?? "", /&\+AB=%E5%85%85%E9%9B%BB&/);
  });
});

Deno.test("a repeated identical search is answered from the cache", async () => {
  await withApp(async (app, fake) => {
    for (let i = 0; i < 3; i++) {
      const res = await postJson(app, "/tools/search_patents", { keywords: "充電" });
      assert.equal((await res.json()).success, true);
    }
    assert.equal(fake.calls, 1);
  });
});

Deno.test("search_patents validates like the FastAPI original", async (t) => {
  const fieldTag =
    "literal['title','abstract','claims','patent_number','publication_date','application_number'," +
    "'application_date','applicant_name','first_applicant_name','applicant_country','first_applicant_country'," +
    "'inventor_name','inventor_country','agent_name','examiner','priority','priority_date','ipc','first_ipc','cpc'," +
    "'first_cpc','loc','fi','f_term','d_term','uspc','cited_patents']";
  const cases: [string, unknown, (detail: Record<string, unknown>[]) => void][] = [
    ["unknown field is extra_forbidden", { keywords: "x", userCode: "steal" }, (d) => {
      assert.deepEqual(d, [{
        type: "extra_forbidden",
        loc: ["body", "userCode"],
        msg: "Extra inputs are not permitted",
        input: "steal",
      }]);
    }],
    ["empty keywords", { keywords: "" }, (d) => {
      assert.deepEqual(d, [{
        type: "string_too_short",
        loc: ["body", "keywords"],
        msg: "String should have at least 1 character",
        input: "",
        ctx: { min_length: 1 },
      }]);
    }],
    ["unknown database lists the valid codes", { keywords: "x", databases: ["TWA", "ZZZ"] }, (d) => {
      assert.equal(d.length, 1);
      assert.equal(d[0]?.type, "literal_error");
      assert.deepEqual(d[0]?.loc, ["body", "databases", 1]);
      assert.match(String(d[0]?.msg), /^Input should be 'TWA', 'TWB', .* or '[A-Z]+'$/);
    }],
    ["unknown search field: union errors as pydantic", { keywords: "x", search_field: "colour" }, (d) => {
      assert.deepEqual(d.map((e) => [e.type, e.loc]), [
        ["literal_error", ["body", "search_field", fieldTag]],
        ["list_type", ["body", "search_field", `list[${fieldTag}]`]],
      ]);
    }],
    ["max_results above 500", { keywords: "x", max_results: 501 }, (d) => {
      assert.deepEqual(d, [{
        type: "less_than_equal",
        loc: ["body", "max_results"],
        msg: "Input should be less than or equal to 500",
        input: 501,
        ctx: { le: 500 },
      }]);
    }],
    ["not a real date", { keywords: "x", publication_date_from: "20230230" }, (d) => {
      assert.equal(d[0]?.type, "value_error");
      assert.deepEqual(d[0]?.loc, ["body", "publication_date_from"]);
      assert.match(String(d[0]?.msg), /^Value error, "20230230" is not a real date written YYYYMMDD$/);
    }],
    [
      "from after to",
      { keywords: "x", publication_date_from: "20240101", publication_date_to: "20230101" },
      (d) => {
        assert.equal(d[0]?.type, "value_error");
        assert.deepEqual(d[0]?.loc, ["body"]);
        assert.match(String(d[0]?.msg), /is after publication_date_to/);
      },
    ],
  ];
  for (const [label, body, check] of cases) {
    await t.step(label, async () => {
      await withApp(async (app, fake) => {
        const res = await postJson(app, "/tools/search_patents", body);
        assert.equal(res.status, 422);
        check((await res.json()).detail);
        assert.equal(fake.calls, 0, "nothing is sent upstream");
      });
    });
  }
});

Deno.test("without USER_CODE the search fails in-band, says what to set, and calls nothing", async () => {
  await withApp(async (app, fake) => {
    const res = await postJson(app, "/tools/search_patents", { keywords: "x" });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.success, false);
    assert.match(body.error, /USER_CODE/);
    assert.equal(fake.calls, 0);
  }, null);
});

Deno.test("USER_CODE never appears in responses or log lines, even on upstream failures", async () => {
  await withApp(async (app, fake, lines) => {
    const texts: string[] = [];
    for (
      const fault of [null, { kind: "status", status: 500, body: "error for {query}" }, {
        kind: "garbage",
        body: "<<{query}>>",
      }] as const
    ) {
      fake.setFault(fault);
      const res = await postJson(app, "/tools/search_patents", { keywords: `k${texts.length}` });
      texts.push(await res.text());
    }
    const all = texts.join("\n") + lines.join("\n");
    assert.ok(!all.includes(FAKE_USER_CODE), all);
    assert.ok(texts.some((t) => t.includes('"success":false')));
  });
});

Deno.test("get_available_databases lists the 23 codes by region", async () => {
  const { app } = testApp();
  const res = await app.request("/tools/get_available_databases", { method: "POST" });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.success, true);
  assert.deepEqual(Object.keys(body.databases), ["TW", "US", "JP", "EP", "KR", "CN", "International"]);
  assert.equal(Object.values(body.databases).flatMap((r) => Object.keys(r as object)).length, 23);
});

Deno.test("every search example is itself a valid search body", async () => {
  await withApp(async (app) => {
    const res = await app.request("/tools/get_search_examples", { method: "POST" });
    const { success, examples } = await res.json();
    assert.equal(success, true);
    assert.deepEqual(examples, SEARCH_EXAMPLES);
    for (const [name, body] of Object.entries(examples)) {
      const r = await postJson(app, "/tools/search_patents", body);
      assert.equal(r.status, 200, name);
      const out = await r.json();
      assert.equal(out.success, true, `${name}: ${out.error}`);
    }
  });
});
