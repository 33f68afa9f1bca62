/**
 * Revisions: the store tells the revision of the bytes every read and update saw, so a caller can
 * compare-and-swap against the file as it is under the lock.
 */
import assert from "node:assert/strict";
import { CatalogueStore } from "../lib/store/mod.ts";
import { isRevision, revisionOf } from "../lib/store/revision.ts";
import { lineCodec, lineFile } from "./_store_writer_child.ts";

async function withStore(fn: (root: string, store: CatalogueStore<{ lines: string[] }>) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_revision_test_" }));
  try {
    await fn(root, new CatalogueStore({ roots: [root], codec: lineCodec(), now: () => Date.now() + 60_000 }));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a revision is 22 base64url characters that depend on every byte, and on nothing else", () => {
  const a = revisionOf(new TextEncoder().encode('msgid ""\nmsgstr ""\n'));
  assert.ok(isRevision(a), a);
  assert.equal(revisionOf(new TextEncoder().encode('msgid ""\nmsgstr ""\n')), a);
  assert.notEqual(revisionOf(new TextEncoder().encode('msgid ""\nmsgstr "" \n')), a);
  // Runs of bytes hash as their concatenation.
  const enc = new TextEncoder();
  assert.equal(revisionOf([enc.encode('msgid ""\n'), enc.encode('msgstr ""\n')]), a);
  assert.equal(isRevision("not a revision"), false);
});

Deno.test("a read's revision is that of the file's bytes, from the cache as from the disk", async () => {
  await withStore(async (root, store) => {
    const path = `${root}/a.po`;
    await Deno.writeFile(path, lineFile(["one"]));
    const first = await store.read(path);
    assert.equal(first.revision, revisionOf(await Deno.readFile(path)));
    const second = await store.read(path);
    assert.equal(second.fromCache, true);
    assert.equal(second.revision, first.revision);
    await Deno.writeFile(path, lineFile(["two"]));
    assert.notEqual((await store.read(path)).revision, first.revision);
  });
});

Deno.test("an update is told the revision under the lock and tells the one it wrote", async () => {
  await withStore(async (root, store) => {
    const path = `${root}/a.po`;
    const missing = await store.updateWithRevision(path, (doc, current) => {
      assert.equal(doc, null);
      assert.equal(current.revision, null);
      return { doc: { lines: ["one"] }, result: "created" };
    });
    assert.equal(missing.written, true);
    assert.equal(missing.revision, revisionOf(await Deno.readFile(path)));

    // Another writer changes the file: the next update sees its revision, not the cached one.
    await Deno.writeFile(path, lineFile(["theirs"]));
    const seen: (string | null)[] = [];
    const changed = await store.updateWithRevision(path, (doc, current) => {
      seen.push(current.revision);
      return { doc: { lines: [...doc!.lines, "mine"] }, result: null };
    });
    assert.deepEqual(seen, [revisionOf(lineFile(["theirs"]))]);
    assert.equal(changed.revision, revisionOf(lineFile(["theirs", "mine"])));
  });
});

Deno.test("an update that changes nothing writes nothing and keeps the revision", async () => {
  await withStore(async (root, store) => {
    const path = `${root}/a.po`;
    await Deno.writeFile(path, lineFile(["one"]));
    const before = await Deno.stat(path);
    const { revision } = await store.read(path);
    const outcome = await store.updateWithRevision(path, (doc) => ({ doc: doc!, result: 0 }));
    assert.equal(outcome.written, false);
    assert.equal(outcome.revision, revision);
    const after = await Deno.stat(path);
    assert.equal(after.ino, before.ino);
    assert.equal(after.mtime?.getTime(), before.mtime?.getTime());
  });
});
