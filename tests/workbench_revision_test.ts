/**
 * Issue 18, point 5: every answer read from one catalogue carries its revision. Over HTTP the
 * one-file reads (`/po/read`, `/po/read_context`, `/po/find_fuzzy`, `/po/entries`) send it as a
 * strong `ETag: "REVISION"` while their bodies stay as they were, so `If-Match` on `/po/write`
 * closes the loop. Over a real socket on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { msgidOf, partlyTranslated } from "./_catalogue_server.ts";
import { poFixture } from "./_helpers.ts";

async function served() {
  const f = await poFixture({ "fr.po": partlyTranslated(20) });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, f.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    file: f.path("fr.po"),
    // deno-lint-ignore no-explicit-any
    async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
      const res = await fetch(base + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, etag: res.headers.get("etag"), body: await res.json() };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await f[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the one-file reads answer the file's revision as a strong ETag, with their bodies unchanged", async () => {
  await using s = await served();
  const revision =
    (await s.post("/po/write", { file_path: s.file, entries: [], dry_run: true })).body.revision;
  const tag = `"${revision}"`;
  const read = await s.post("/po/read", { file_path: s.file });
  assert.equal(read.status, 200);
  assert.equal(read.etag, tag);
  assert.deepEqual(Object.keys(read.body), ["entries"], "the default body is as it was");
  const paged = await s.post("/po/read", { file_path: s.file, limit: 5 });
  assert.equal(paged.etag, tag);
  assert.equal(paged.body.revision, revision);
  const context = await s.post("/po/read_context", { file_path: s.file, msgid: msgidOf(4), context_size: 1 });
  assert.equal(context.etag, tag);
  assert.equal(context.body.revision, undefined, "the default body is as it was");
  const fuzzy = await s.post("/po/find_fuzzy", { file_path: s.file });
  assert.equal(fuzzy.etag, tag);
  assert.deepEqual(Object.keys(fuzzy.body), ["entries"]);
  const entries = await s.post("/po/entries", { path: s.file, states: ["untranslated"] });
  assert.equal(entries.etag, tag);
  assert.equal(entries.body.revision, revision);
  // A failed read has no tag, nor has a tool that reads no one file.
  assert.equal((await s.post("/po/read", { file_path: s.file + ".missing.po" })).etag, null);
  assert.equal((await s.post("/po/catalogues", {})).etag, null);
});

Deno.test("the ETag of a read, sent back as If-Match, writes once; the same tag after another write gets 409", async () => {
  await using s = await served();
  const tag = (await s.post("/po/read", { file_path: s.file })).etag;
  const first = await s.post(
    "/po/write",
    { file_path: s.file, entries: [{ msgid: msgidOf(3), msgstr: "Trois" }] },
    { "If-Match": tag },
  );
  assert.equal(first.status, 200);
  const before = await Deno.readFile(s.file);
  const stale = await s.post(
    "/po/write",
    { file_path: s.file, entries: [{ msgid: msgidOf(6), msgstr: "Six" }] },
    { "If-Match": tag },
  );
  assert.equal(stale.status, 409);
  assert.deepEqual(await Deno.readFile(s.file), before, "untouched");
  const again = await s.post("/po/read_context", { file_path: s.file, msgid: msgidOf(3) });
  assert.equal(again.etag, `"${first.body.revision}"`, "a read after the write tags the new bytes");
  assert.equal(again.body.target_entry.msgstr, "Trois");
});

Deno.test("OpenAPI documents the ETag header of the one-file reads' 200 answers", async () => {
  await using f = await poFixture();
  const doc = await (await f.app.request("/openapi.json")).json();
  for (const path of ["/po/read", "/po/read_context", "/po/find_fuzzy", "/po/entries"]) {
    assert.equal(typeof doc.paths[path].post.responses["200"].headers?.ETag?.description, "string", path);
  }
  assert.equal(doc.paths["/po/write"].post.responses["200"].headers, undefined);
});
