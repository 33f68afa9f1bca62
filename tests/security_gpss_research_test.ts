/**
 * The patent research tools under hostile input: what a caller sends (offsets, field lists, numbers,
 * max_chars) is bounded before anything is sent, and what the upstream sends (claim texts, claim
 * counts) costs time linear in its size, with the number of claims read capped.
 *
 * @module
 */
import assert from "node:assert/strict";
import { GpssClient, MAX_OFFSET } from "../lib/gpss/mod.ts";
import { MAX_CLAIMS, parseClaims } from "../lib/gpss/sections.ts";
import { FAKE_CORPUS, FAKE_USER_CODE, type FakePatent, startFakeGpss } from "./_fake_gpss.ts";
import { postJson, testApp } from "./_helpers.ts";

Deno.test("claim texts with long runs of spaces parse in linear time (160,000 spaces took 38 s before)", async (t) => {
  for (const n of [10_000, 40_000, 160_000]) {
    await t.step(`${n} spaces`, () => {
      const texts = [
        `1.${" ".repeat(n)}x`,
        `3.${" ".repeat(n)}(canceled)`,
        `What is claimed is${" ".repeat(n)}:`,
        `2. The device of claim${" ".repeat(n)}1`,
      ];
      const start = performance.now();
      const { claims } = parseClaims({ claim: texts.map((text) => ({ "claim-text": text })) });
      const ms = performance.now() - start;
      // A generous bound on a loaded machine: the quadratic version took 38 s at 160,000.
      assert.ok(ms < 5_000, `${ms.toFixed(0)} ms`);
      assert.equal(claims.length, 4, "a long text is a claim, never a preamble or a canceled one");
    });
  }
});

Deno.test("a record with more claims than MAX_CLAIMS gives the first MAX_CLAIMS", () => {
  const claim = Array.from(
    { length: 100_000 },
    (_, i) => ({ "claim-text": `${i + 1}. The thing of claim 1.` }),
  );
  const { claims } = parseClaims({ claim });
  assert.equal(claims.length, MAX_CLAIMS);
  assert.deepEqual(claims.at(-1)!.depends_on, [1]);
});

Deno.test("an upstream claim of a megabyte of spaces is answered promptly over HTTP", async () => {
  const hostile: FakePatent = {
    ...FAKE_CORPUS[0]!,
    pn: "TW202388888A",
    claimsRaw: [{ "@num": "1", "claim-text": `1.${" ".repeat(1 << 20)}(canceled)x` }],
  };
  const fake = await startFakeGpss({ corpus: [hostile] });
  try {
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
    const start = performance.now();
    const res = await postJson(app, "/tools/get_patent", { number: "TW202388888A", fields: ["claims"] });
    const body = await res.json();
    assert.equal(body.success, true, body.error);
    assert.ok(performance.now() - start < 10_000, "quadratic parsing of a megabyte took minutes");
    assert.equal(body.truncated.omitted_chars > 1_000_000, true, "and max_chars kept the answer small");
  } finally {
    await fake.close();
  }
});

Deno.test("what a caller sends is bounded before anything goes upstream", async (t) => {
  const fake = await startFakeGpss();
  try {
    const { app } = testApp({ gpss: new GpssClient({ baseUrl: fake.url, userCode: FAKE_USER_CODE }) });
    const cases: [string, string, Record<string, unknown>, string][] = [
      [
        "an offset past MAX_OFFSET",
        "/tools/search_patents",
        { keywords: "x", offset: MAX_OFFSET + 1 },
        "less_than_equal",
      ],
      ["a negative offset", "/tools/search_patents", { keywords: "x", offset: -1 }, "greater_than_equal"],
      [
        "more fields than there are sections",
        "/tools/search_patents",
        { keywords: "x", fields: Array(7).fill("claims") },
        "too_long",
      ],
      [
        "an unknown section",
        "/tools/search_patents",
        { keywords: "x", fields: ["description"] },
        "literal_error",
      ],
      ["an unknown format", "/tools/search_patents", { keywords: "x", format: "xlsx" }, "literal_error"],
      ["a number of a kilobyte", "/tools/get_patent", { number: "TW".padEnd(1024, "1") }, "string_too_long"],
      [
        "max_chars over the cap",
        "/tools/get_patent",
        { number: "TWI800001B", max_chars: 500_001 },
        "less_than_equal",
      ],
    ];
    for (const [name, path, body, type] of cases) {
      await t.step(name, async () => {
        const res = await postJson(app, path, body);
        assert.equal(res.status, 422);
        const { detail } = await res.json();
        assert.equal(detail[0].type, type, JSON.stringify(detail));
        assert.ok(JSON.stringify(detail).length < 2_000, "the refusal is small");
      });
    }
    assert.equal(fake.calls, 0);
  } finally {
    await fake.close();
  }
});
