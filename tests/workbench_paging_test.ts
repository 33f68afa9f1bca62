/**
 * `/po/read` and `/po/find_fuzzy` in pages (issue 18.4): without paging fields the answer is the old
 * one (tests/api_contract_test.ts); with them, pages that put together give exactly that answer.
 */
import assert from "node:assert/strict";
import { generatedCatalogue } from "../bench/_generated_po.ts";
import { poFixture } from "./_helpers.ts";

type Page = {
  entries: Record<string, unknown>[];
  next_cursor: string | null;
  revision: string;
  total: number;
};

async function walk(
  post: (path: string, body: unknown) => Promise<{ status: number; body: Page }>,
  endpoint: string,
  body: Record<string, unknown>,
): Promise<{ entries: Record<string, unknown>[]; pages: number; revision: string; total: number }> {
  const entries: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let last: Page;
  do {
    const res = await post(endpoint, { ...body, cursor });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    last = res.body;
    entries.push(...last.entries);
    cursor = last.next_cursor;
    pages++;
  } while (cursor !== null);
  return { entries, pages, revision: last.revision, total: last.total };
}

Deno.test("POST /po/read in pages of 97 gives exactly the entries of the whole answer, once each", async () => {
  await using po = await poFixture({ "big.po": generatedCatalogue(2000) });
  const whole = await po.post("/po/read", { file_path: po.path("big.po") });
  assert.deepEqual(Object.keys(whole.body), ["entries"]);
  const paged = await walk(po.post, "/po/read", { file_path: po.path("big.po"), limit: 97 });
  assert.equal(paged.pages, Math.ceil(2000 / 97));
  assert.equal(paged.total, 2000);
  assert.deepEqual(paged.entries, whole.body.entries);
  assert.match(paged.revision, /^[A-Za-z0-9_-]{22}$/);
});

Deno.test("POST /po/find_fuzzy in pages equals the whole answer, and fields select what comes", async () => {
  await using po = await poFixture({ "big.po": generatedCatalogue(2000) });
  const whole = await po.post("/po/find_fuzzy", { file_path: po.path("big.po") });
  const paged = await walk(po.post, "/po/find_fuzzy", { file_path: po.path("big.po"), limit: 10 });
  assert.deepEqual(paged.entries, whole.body.entries);
  const slim = await po.post("/po/find_fuzzy", { file_path: po.path("big.po"), fields: ["msgid", "flags"] });
  assert.equal(slim.status, 200);
  assert.deepEqual(slim.body.entries[0], {
    index: whole.body.entries[0].index,
    line: whole.body.entries[0].line,
    state: whole.body.entries[0].state,
    msgid: whole.body.entries[0].msgid,
    flags: whole.body.entries[0].flags,
  });
  assert.equal(slim.body.entries.length, Math.min(100, whole.body.entries.length));
});

Deno.test("a /po/read cursor into a catalogue that changed since is refused with 409, and nothing shifts", async () => {
  await using po = await poFixture({ "big.po": generatedCatalogue(300) });
  const first = await po.post("/po/read", { file_path: po.path("big.po"), limit: 100 });
  await po.post("/po/write", { file_path: po.path("big.po"), entries: [{ msgid: "inserted", msgstr: "x" }] });
  const second = await po.post("/po/read", {
    file_path: po.path("big.po"),
    limit: 100,
    cursor: first.body.next_cursor,
  });
  assert.equal(second.status, 409);
  assert.equal(second.type, "application/json");
  assert.match(second.body.detail, /^The catalogue .*big\.po changed since this cursor was made \(revision /);
});

Deno.test("a cursor of one list is refused by another (422), as is one made for another file", async () => {
  await using po = await poFixture({ "a.po": generatedCatalogue(300), "b.po": generatedCatalogue(300) });
  const read = await po.post("/po/read", { file_path: po.path("a.po"), limit: 10 });
  const fuzzy = await po.post("/po/find_fuzzy", {
    file_path: po.path("a.po"),
    cursor: read.body.next_cursor,
  });
  assert.equal(fuzzy.status, 422);
  assert.match(fuzzy.body.detail, /^Invalid cursor: it pages another list \(read\)/);
  const other = await po.post("/po/read", { file_path: po.path("b.po"), cursor: read.body.next_cursor });
  assert.equal(other.status, 422);
  assert.match(other.body.detail, /^Invalid cursor: it was made for a request with other filters/);
});
