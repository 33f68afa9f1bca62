/**
 * search_patents' pages (`offset` → `expSkip`, `total`, `next_offset`) and extra sections
 * (`fields`), end to end against the fake GPSS over a real socket, and the claim parser on every
 * known shape of `claim-text`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { GpssClient } from "../lib/gpss/mod.ts";
import { parseClaims, type PatentClaim } from "../lib/gpss/sections.ts";
import { FAKE_USER_CODE, type FakeGpss, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

async function withApp(
  fn: (app: ReturnType<typeof testApp>["app"], fake: FakeGpss) => Promise<void>,
): Promise<void> {
  const fake = await startFakeGpss();
  try {
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
    await fn(app, fake);
  } finally {
    await fake.close();
  }
}

// deno-lint-ignore no-explicit-any
type Body = any;

async function search(app: ReturnType<typeof testApp>["app"], body: Record<string, unknown>) {
  const res = await postJson(app, "/tools/search_patents", body);
  return { status: res.status, body: (await res.json()) as Body };
}

Deno.test("search_patents pages through every result with offset and next_offset", async () => {
  await withApp(async (app, fake) => {
    const all = await search(app, { keywords: "charging", search_field: ["title", "abstract"] });
    assert.equal(all.status, 200);
    const expected = all.body.data.records.map((r: Body) => r.patent_number);
    assert.ok(expected.length >= 5, "enough results to page");
    assert.equal(all.body.data.total, expected.length);
    assert.equal(all.body.data.next_offset, null, "one page holds them all");
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await search(app, {
        keywords: "charging",
        search_field: ["title", "abstract"],
        max_results: 2,
        offset,
      });
      assert.equal(page.status, 200);
      assert.equal(page.body.success, true, page.body.error);
      assert.equal(page.body.request_params.expSkip, offset);
      assert.equal(page.body.request_params.expQty, 2);
      assert.equal(page.body.data.total, expected.length);
      seen.push(...page.body.data.records.map((r: Body) => r.patent_number));
      offset = page.body.data.next_offset;
    }
    assert.deepEqual(seen, expected);
    assert.ok(fake.requests.some((q) => q.endsWith("&expQty=2&expSkip=4")), fake.requests.join("\n"));
  });
});

Deno.test("an offset past the last result is a 422 that gives the total", async (t) => {
  await t.step("known from an earlier page: refused before any call upstream", async () => {
    await withApp(async (app, fake) => {
      const first = await search(app, { keywords: "charging", max_results: 1 });
      const total = first.body.data.total;
      const calls = fake.calls;
      const res = await postJson(app, "/tools/search_patents", { keywords: "charging", offset: total });
      assert.equal(res.status, 422);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(await res.json(), {
        detail:
          `offset ${total} is past the end of the results: the search has ${total} results, so offsets ` +
          `run from 0 to ${total - 1}.`,
      });
      assert.equal(fake.calls, calls, "nothing was sent upstream");
    });
  });
  await t.step("unknown: GPSS's expSkip too much, then one record from offset 0 for the total", async () => {
    await withApp(async (app, fake) => {
      const res = await postJson(app, "/tools/search_patents", { keywords: "radar", offset: 40 });
      assert.equal(res.status, 422);
      assert.match(
        (await res.json()).detail,
        /^offset 40 is past the end of the results: the search has 2 results/,
      );
      assert.equal(fake.calls, 2);
      assert.match(fake.requests[1] ?? "", /&expQty=1&expSkip=0$/);
    });
  });
});

Deno.test("fields brings claims, citations, classifications, priority claims, agents and examiners", async () => {
  await withApp(async (app, fake) => {
    const byNumber = async (pn: string, fields: string[]) => {
      const res = await search(app, { keywords: pn, search_field: "patent_number", fields });
      assert.equal(res.status, 200);
      assert.equal(res.body.success, true, res.body.error);
      assert.equal(res.body.data.records.length, 1, pn);
      return res.body.data.records[0];
    };
    const tw = await byNumber("TW202300001A", ["agents", "priority_claims", "examiners", "claims"]);
    assert.deepEqual(tw.agents, ["陳代理"]);
    assert.deepEqual(tw.priority_claims, [{ country: "US", number: "63134001", date: "20210105" }]);
    assert.deepEqual(tw.examiners, ["黃審查"]);
    assert.deepEqual(tw.claims.map((c: PatentClaim) => [c.number, c.independent, c.depends_on]), [
      [1, true, []],
      [2, false, [1]],
    ]);
    assert.equal(tw.claims_preamble, null);
    assert.ok(!("citations" in tw), "a section not asked for is left out");
    const us = await byNumber("US09415051B1", ["citations", "classifications"]);
    assert.deepEqual(us.citations, ["US20100012345A1", "US08000001B2"]);
    assert.deepEqual(us.classifications, { loc: [], uspc: ["514/258.1"], fi: [], f_term: [], d_term: [] });
    const jp = await byNumber("JP2012224629A", ["classifications", "citations"]);
    assert.deepEqual(jp.classifications.fi, ["H02J50/10", "H02J7/00,301"]);
    assert.deepEqual(jp.classifications.f_term, ["5G503AA01", "5G503BA01"]);
    assert.deepEqual(jp.citations, [], "asked for, none: an empty list");
    const design = await byNumber("USD0987654S", ["classifications"]);
    assert.deepEqual(design.classifications.loc, ["13-02"]);
    const sent = fake.requests.find((q) => q.includes("PN=US09415051B1"))!;
    assert.match(sent, /&expFld=PN,ID,AN,AD,TI,AB,PA,IN,IC,CS,CI,IQ,UC,FI,FT,IR&/);
  });
});

Deno.test("classifications survive GPSS's missing comma before f-term in JP records", async () => {
  await withApp(async (app, fake) => {
    fake.setFault({ kind: "missing-comma" });
    const res = await postJson(app, "/tools/search_patents", {
      keywords: "JP2012224629A",
      search_field: "patent_number",
      fields: ["classifications"],
    });
    const body = await res.json();
    assert.equal(body.success, true, body.error);
    assert.deepEqual(body.data.records[0].classifications.fi, ["H02J50/10", "H02J7/00,301"]);
    assert.deepEqual(body.data.records[0].classifications.f_term, ["5G503AA01", "5G503BA01"]);
  });
});

Deno.test("claims over HTTP: every claim-text quirk the fake serves, in JSON and in XML", async (t) => {
  for (const format of ["json", "xml"] as const) {
    await t.step(format, async () => {
      await withApp(async (app, fake) => {
        if (format === "xml") fake.setFault({ kind: "format", format: "xml" });
        const claimsOf = async (pn: string) => {
          const res = await search(app, { keywords: pn, search_field: "patent_number", fields: ["claims"] });
          assert.equal(res.body.success, true, res.body.error);
          return res.body.data.records[0] as { claims: PatentClaim[]; claims_preamble: string | null };
        };
        const listed = await claimsOf("US09415051B1");
        assert.equal(listed.claims_preamble, "What is claimed is:");
        assert.deepEqual(listed.claims.map((c) => [c.number, c.independent, c.depends_on, c.canceled]), [
          [1, true, [], false],
          [2, false, [1], false],
          [3, false, [], true],
        ]);
        assert.equal(
          listed.claims[0]?.text,
          "1. A method of treating idiopathic pulmonary fibrosis comprising\n" +
            "administering pemirolast to a patient in need thereof.",
        );
        const nested = await claimsOf("EP3900001B1");
        assert.equal(
          nested.claims[0]?.text,
          "1. A quantum computing device comprising:\na qubit array;\na surface-code decoder.",
        );
        assert.deepEqual(nested.claims.map((c) => c.depends_on), [[], [1], [1, 2]]);
        const preambleOnly = await claimsOf("US20230081319A1");
        assert.deepEqual(preambleOnly.claims, []);
        assert.equal(preambleOnly.claims_preamble, "What is claimed is:");
        const japanese = await claimsOf("JP2012224629A");
        assert.deepEqual(japanese.claims.map((c) => [c.number, c.depends_on]), [[1, []], [2, [1]]]);
      });
    });
  }
});

Deno.test("parseClaims reads each shape of claim-text and each way a claim names the ones it depends on", async (t) => {
  const cases: [string, unknown, [number, boolean, number[]][], string | null][] = [
    [
      "one claim as a bare string",
      { claim: { "@num": "1", "claim-text": "A widget." } },
      [[1, true, []]],
      null,
    ],
    [
      "a list of strings is one claim",
      { claim: [{ "claim-text": ["1. A widget comprising", "a part."] }] },
      [[1, true, []]],
      null,
    ],
    [
      "nested lists of claim-text",
      { claim: [{ "claim-text": [["1. A", ["b", { "claim-text": [{ "claim-text": "c" }] }]]] }] },
      [[1, true, []]],
      null,
    ],
    [
      "the preamble only",
      { claim: { "@num": "1", "claim-text": "The invention claimed is:" } },
      [],
      "The invention claimed is:",
    ],
    [
      "ranges and lists of claims",
      {
        claim: [
          "1. A.",
          "2. B.",
          "3. C.",
          "4. The thing of any one of claims 1 to 3.",
          "5. The thing of claims 1, 2 or 4.",
          "6. The thing according to claim 7.",
        ].map((text) => ({ "claim-text": text })),
      },
      [[1, true, []], [2, true, []], [3, true, []], [4, false, [1, 2, 3]], [5, false, [1, 2, 4]], [
        6,
        true,
        [],
      ]],
      null,
    ],
    [
      "Chinese, Japanese and Korean references",
      {
        claim: [
          "一種裝置。",
          "如申請專利範圍第1項所述之裝置。",
          "根据权利要求1至2所述的装置。",
          "請求項1乃至3のいずれかに記載の装置。",
          "청구항 4에 있어서, 장치.",
        ].map((text) => ({ "claim-text": text })),
      },
      [[1, true, []], [2, false, [1]], [3, false, [1, 2]], [4, false, [1, 2, 3]], [5, false, [4]]],
      null,
    ],
  ];
  for (const [name, section, expected, preamble] of cases) {
    await t.step(name, () => {
      const { claims, preamble: got } = parseClaims(section);
      assert.deepEqual(claims.map((c) => [c.number, c.independent, c.depends_on]), expected);
      assert.equal(got, preamble);
    });
  }
  await t.step("text is read past no more than the nesting bound", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    assert.deepEqual(parseClaims({ claim: { "claim-text": deep } }).claims, []);
  });
});
