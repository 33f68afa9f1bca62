/**
 * Issue 40.1: every regular expression a search accepts runs on V8's linear-time engine (never the
 * backtracking one), each entry's test has a cost bound known before it starts, and a search is cut
 * at its time budget mid-catalogue and says so. Structural bounds only (refusals, flags, counters,
 * answers): the timings are bench/complexity.ts's and bench/abuse.ts's.
 *
 * These tests need the flag `deno task test` passes (--v8-flags=--enable-experimental-regexp-engine).
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  compileSearchRegex,
  LINEAR_REGEXP,
  literalOf,
  MAX_ENTRY_COST,
  patternWeight,
  requiredLiteral,
  searchCatalogues,
  type SearchQuery,
} from "../lib/workbench/mod.ts";
import { SearchColumns } from "../lib/workbench/_columns.ts";
import type { CatalogueFile } from "../lib/workbench/tree.ts";
import { parsePo } from "../lib/po/mod.ts";
import { servedCatalogues } from "./_catalogue_server.ts";
import { poFixture } from "./_helpers.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';

function needsLinearEngine(): void {
  assert.ok(
    LINEAR_REGEXP,
    "run the tests with --v8-flags=--enable-experimental-regexp-engine (deno task test passes it)",
  );
}

/** A catalogue whose one entry has a msgstr of `size` characters (in lines of 64). */
function bigEntryCatalogue(size: number, tail: string): string {
  const line = "a".repeat(63) + " ";
  const lines = Array.from({ length: Math.ceil(size / 64) }, () => `"${line}"`);
  return HEADER + 'msgid "short"\nmsgstr "ok"\n\nmsgid "big"\nmsgstr ""\n' + lines.join("\n") +
    `\n"${tail}"\n`;
}

Deno.test("a pattern V8's linear engine cannot run is refused with 422 naming why, over HTTP", async () => {
  needsLinearEngine();
  await using po = await servedCatalogues({ "fr.po": HEADER + 'msgid "abc"\nmsgstr "def"\n' });
  const cases: [string, boolean, RegExp][] = [
    // The red team's pattern: 22 optional dots and a count of 22 (old guard: accepted, backtracking).
    [".?".repeat(22) + ".{22}", false, /counted repetition above 16/],
    ["(a{4}){5}", false, /nested counts multiply/],
    ["a{17}", true, /counted repetition above 16/],
    ["(?<=a)b", false, /lookahead and lookbehind/],
    ["(?=a)b", false, /lookahead and lookbehind/],
    ["(a)\\1", false, /backreferences/],
    ["\\p{L}", true, /cannot fold the escape \\p/],
  ];
  for (const [query, case_insensitive, why] of cases) {
    const res = await po.post("/po/search", { query, regex: true, case_insensitive });
    assert.equal(res.status, 422, query);
    assert.match(res.body.detail, /^Regular expression refused: /, query);
    assert.match(res.body.detail, why, query);
  }
});

Deno.test("every accepted expression runs on the linear engine, case-insensitive non-ASCII ones too", () => {
  needsLinearEngine();
  const patterns = [
    "^x.*y.*z$",
    "(a+)+$", // harmless on the linear engine: accepted now
    "(?:é|è)+\\s+[à-ÿ]{2,16}",
    "ÉTÉ|\\u00c9t",
    "[^Σ]σ",
    "ſ|K|ß",
    "\\xe9\\x41[\\x61-\\x63]",
    "(?<word>ab)c\\b",
    "[\\w-]+\\.[\\d]",
    "a{16}b{0,16}",
  ];
  const texts = [
    "xAyBz",
    "été ÉTÉ",
    "éA",
    "ÉaB",
    "Ét",
    "σΣ",
    "ςσ",
    "xσ",
    "S s SS k K \u212a",
    "ſ",
    "abc ABC",
    "foo-bar.9",
    "a".repeat(16) + "B",
    "ÈÉ \tàÿ",
  ];
  for (const caseInsensitive of [false, true]) {
    for (const p of patterns) {
      const re = compileSearchRegex(p, caseInsensitive);
      assert.equal(re.flags, "l", `${p} ${caseInsensitive}: not on the linear engine`);
      const reference = new RegExp(p, caseInsensitive ? "i" : "");
      for (const t of texts) {
        assert.equal(re.test(t), reference.test(t), `${p} on ${t} (i: ${caseInsensitive})`);
      }
    }
  }
});

Deno.test("a regular expression too heavy for a 1 MB msgstr leaves that entry unsearched, and says so", async () => {
  needsLinearEngine();
  await using po = await servedCatalogues({ "big.po": bigEntryCatalogue(1 << 20, "needle") });
  const heavy = "(?:a?){16}needle";
  assert.ok(patternWeight(heavy) * (1 << 20) > MAX_ENTRY_COST);
  const res = await po.post("/po/search", { query: heavy, regex: true, in: ["msgstr"] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.hits.length, 0);
  assert.equal(res.body.truncated, true);
  assert.equal(res.body.unsearched.count, 1);
  assert.deepEqual(res.body.unsearched.entries.map((e: { index: number }) => e.index), [1]);
  assert.ok(res.body.unsearched.entries[0].chars > 1 << 20);
  assert.match(res.body.reason, /1 entry was not searched/);
  assert.match(res.body.reason, /substring \(regex: false\)/);
  // The short entry is still searched, by any expression; the big one by a substring.
  const small = await po.post("/po/search", { query: "^o(?:k)?$|^x", regex: true, in: ["msgstr"] });
  assert.deepEqual(small.body.hits.map((h: { msgid: string }) => h.msgid), ["short"]);
  assert.equal(small.body.unsearched.count, 1);
  // An expression holding a plain run ("o") is run only on the entries holding it: the big one
  // holds no "o", so it is not even a candidate.
  const filtered = await po.post("/po/search", { query: "^o(?:k)?$", regex: true, in: ["msgstr"] });
  assert.deepEqual(filtered.body.hits.map((h: { msgid: string }) => h.msgid), ["short"]);
  assert.equal(filtered.body.unsearched.count, 0);
  const substring = await po.post("/po/search", { query: "a needle", in: ["msgstr"] });
  assert.deepEqual(substring.body.hits.map((h: { msgid: string }) => h.msgid), ["big"]);
  assert.equal(substring.body.truncated, false);
});

Deno.test("a 256-character literal expression over a 1 MB msgstr is a substring search, found whole", async () => {
  needsLinearEngine();
  const needle = "b".repeat(250) + "needle";
  await using po = await servedCatalogues({ "big.po": bigEntryCatalogue(1 << 20, needle) });
  assert.equal(literalOf(needle), needle);
  for (const case_insensitive of [false, true]) {
    const res = await po.post("/po/search", {
      query: needle,
      regex: true,
      case_insensitive,
      in: ["msgstr"],
      fields: ["msgid"],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.hits.map((h: { msgid: string }) => h.msgid), ["big"], String(case_insensitive));
    assert.equal(res.body.unsearched.count, 0);
    assert.equal(res.body.truncated, false);
  }
  // Escaped punctuation is still a literal; a class is not.
  assert.equal(literalOf("a\\.b\\(c\\)"), "a.b(c)");
  assert.equal(literalOf("a.b"), null);
});

Deno.test("a search is cut at its budget mid-catalogue, says so, and its cursor goes on without loss", async () => {
  needsLinearEngine();
  const entries = Array.from({ length: 600 }, (_, i) => `msgid "entry ${i}"\nmsgstr "texte ${i}"\n`);
  const columns = SearchColumns.of(parsePo(new TextEncoder().encode(HEADER + entries.join("\n"))));
  const file: CatalogueFile = {
    filePath: "/x/fr.po",
    summary: {
      root: "/x",
      path: "fr.po",
      kind: "catalogue",
      language: "fr",
      counts: null,
      size: 0,
      modified: null,
      revision: "r1",
      error: null,
    },
  };
  const query: SearchQuery = {
    query: "^texte \\d*7$",
    regex: true,
    caseInsensitive: false,
    in: ["msgstr"],
    states: null,
  };
  // A clock that moves 1 ms per look: a 100 ms budget ends a page after ~100 entries, long
  // before the 1,024 entries the old loop waited for.
  let clock = 0;
  const now = () => clock++;
  const all: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Awaited<ReturnType<typeof searchCatalogues>> = await searchCatalogues(
      [file],
      () => 0,
      query,
      { limit: 1000, cursor, fields: ["msgid"], kind: "search", digest: "d" },
      () => Promise.resolve({ columns, revision: "r1" }),
      { now, budgetMs: 100 },
    );
    pages++;
    for (const h of page.hits) all.push(h.index);
    cursor = page.next_cursor;
    if (cursor !== null) {
      assert.equal(page.stopped_early, true);
      assert.equal(page.truncated, true);
      assert.match(page.reason!, /time budget \(100 ms\)/);
      assert.match(page.reason!, /next_cursor/);
    }
  } while (cursor !== null && pages < 100);
  assert.ok(pages >= 5, `${pages} pages`);
  const expected = Array.from({ length: 600 }, (_, i) => i).filter((i) => i % 10 === 7);
  assert.deepEqual(all, expected);
});

Deno.test("the plain run an expression requires is in every text it matches, in either case mode", () => {
  needsLinearEngine();
  const patterns = [
    "(?:é|e)t[a-z]{2,8} needle",
    "ab+c",
    "ab?cd",
    "x{2,3}yz",
    "a*bcd*e",
    "\\bword\\b",
    "é{0,2}tude",
    "foo(bar|baz)qux1",
    "(ab)+cd",
    "^foo\\.bar$",
    "a{0}bc",
  ];
  const texts = [
    "été needle",
    "Et ab needle",
    "abbbc",
    "ac",
    "acd",
    "abcd",
    "xxyz",
    "xxxyz",
    "bcddde",
    "abce",
    "a word here",
    "ééétude",
    "tude",
    "foobazqux1",
    "ababcd",
    "foo.bar",
    "FOO.BAR",
    "bc",
    "ABCD",
    "WORD",
  ];
  for (const p of patterns) {
    const required = requiredLiteral(p);
    assert.notEqual(required, null, p);
    for (const caseInsensitive of [false, true]) {
      const re = compileSearchRegex(p, caseInsensitive);
      for (const t of texts) {
        if (!re.test(t)) continue;
        const holds = caseInsensitive
          ? new RegExp(required!.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "i").test(t)
          : t.includes(required!);
        assert.ok(holds, `${p} matches ${t} without ${required}`);
      }
    }
  }
  assert.equal(requiredLiteral("a|b"), null);
  assert.equal(requiredLiteral("[abc]{3}"), null);
});

Deno.test("over MCP, search_entries refuses the red team's pattern and cuts a heavy one with the same answer", async () => {
  needsLinearEngine();
  await using po = await poFixture({
    "fr.po": HEADER + 'msgid "aaaaaaaaaaaaaaaaaaaa"\nmsgstr "b"\n',
    "big.po": bigEntryCatalogue(1 << 20, "needle"),
  });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(po.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "search-cost", version: "1.0.0" });
  await client.connect(transport);
  try {
    type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };
    const refused = await client.callTool({
      name: "search_entries",
      arguments: { query: ".?".repeat(24) + ".{24}", regex: true },
    }) as Result;
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /counted repetition above 16/);
    const cut = await client.callTool({
      name: "search_entries",
      arguments: { query: "(?:a?){16}needle", regex: true, in: ["msgstr"] },
    }) as Result;
    assert.notEqual(cut.isError, true, JSON.stringify(cut.content));
    assert.equal(cut.structuredContent!.truncated, true);
    assert.equal((cut.structuredContent!.unsearched as { count: number }).count, 1);
  } finally {
    await client.close();
  }
});
