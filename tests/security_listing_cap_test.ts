/**
 * Issue 40.8: a tree past the listing cap (PO_MAX_LISTED_FILES) degrades the listings, it does not
 * disable them: /po/catalogues, /po/search and the dashboard's listing answer the first catalogues,
 * marked truncated with how to narrow, over a real socket; the cap is the configuration's.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parseConfig } from "../lib/config.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { servedOnLoopback, testApp } from "./_helpers.ts";

const PO = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open"\nmsgstr "Ouvrir"\n';

/** A root of `n` catalogues (`d<k>/f<i>.po`, ten per directory) served with the listing cap `cap`. */
async function served(n: number, cap: number) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-cap-" }));
  for (let i = 0; i < n; i++) {
    await Deno.mkdir(`${root}/d${Math.floor(i / 10)}`, { recursive: true });
    await Deno.writeTextFile(`${root}/d${Math.floor(i / 10)}/f${i}.po`, PO);
  }
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const { app } = testApp({
    catalogues,
    config: { apiToken: undefined, maxBodyBytes: 1024 * 1024, poMaxListedFiles: cap },
  });
  const { server, post } = servedOnLoopback(app);
  return {
    root,
    post,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    },
  };
}

Deno.test("past the cap, /po/catalogues pages through the first catalogues, marked truncated with how to narrow", async () => {
  await using s = await served(45, 30);
  const paths: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: Record<string, unknown> } = await s.post("/po/catalogues", {
      limit: 7,
      cursor,
      fields: ["counts"],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.truncated, true);
    assert.match(res.body.reason as string, /^more than 30 catalogues under the roots: only the first 30 /);
    assert.match(res.body.reason as string, /\(under\), filter with glob, or raise PO_MAX_LISTED_FILES/);
    for (const c of res.body.catalogues as { path: string }[]) paths.push(c.path);
    cursor = res.body.next_cursor as string | null;
    pages++;
  } while (cursor !== null && pages < 20);
  assert.equal(paths.length, 30);
  assert.equal(new Set(paths).size, 30);
  // Narrowed to one directory, the listing is whole again.
  const one = await s.post("/po/catalogues", { under: "d4" });
  assert.equal(one.status, 200);
  assert.equal(one.body.catalogues.length, 5);
  assert.equal(one.body.truncated, false);
  assert.equal(one.body.reason, null);
});

Deno.test("past the cap, /po/search answers from the catalogues listed and says the tree was cut", async () => {
  await using s = await served(45, 30);
  const res = await s.post("/po/search", { query: "Ouvrir", in: ["msgstr"], limit: 100 });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.hits.length, 30);
  assert.equal(res.body.truncated, true);
  assert.match(res.body.reason, /^only part of the tree was searched: more than 30 catalogues/);
  const narrowed = await s.post("/po/search", { query: "Ouvrir", under: "d4" });
  assert.equal(narrowed.body.hits.length, 5);
  assert.equal(narrowed.body.truncated, false);
});

Deno.test("PO_MAX_LISTED_FILES sets the cap (20,000 by default)", () => {
  const base = { defaultPoRoots: ["/repo/examples"], cwd: "/home/me", uid: () => 1000 };
  assert.equal(parseConfig({}, base).poMaxListedFiles, 20_000);
  assert.equal(parseConfig({ PO_MAX_LISTED_FILES: "500" }, base).poMaxListedFiles, 500);
  assert.throws(() => parseConfig({ PO_MAX_LISTED_FILES: "0" }, base), /PO_MAX_LISTED_FILES/);
});
