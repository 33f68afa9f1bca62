/** The workbench's walk and records, in-process: bounds, and what a listing re-reads. */
import assert from "node:assert/strict";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { Workbench } from "../lib/workbench/mod.ts";

const PO = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';

async function root(files: Record<string, string>, dirs: string[] = []) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wb-tree-" }));
  for (const d of dirs) await Deno.mkdir(`${dir}/${d}`, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("a walk over more catalogues, or more names, than its bounds lists the first ones, truncated", async () => {
  await using many = await root({ "a.po": PO, "b/c.po": PO, "d/e.po": PO });
  const store = new CatalogueStore({ roots: [many.dir], codec: PO_CODEC });
  const capped = await new Workbench(store, { maxFiles: 2 }).listing();
  assert.deepEqual(capped.files.map((f) => f.summary.path), ["a.po", "b/c.po"]);
  assert.match(capped.truncated!, /^more than 2 catalogues under the roots: only the first 2 /);
  assert.match(capped.truncated!, /under\), filter with glob, or raise PO_MAX_LISTED_FILES$/);
  const whole = await new Workbench(store, { maxFiles: 3 }).listing();
  assert.equal(whole.files.length, 3);
  assert.equal(whole.truncated, null);
  await using wide = await root({ "a.po": PO }, Array.from({ length: 30 }, (_, i) => `empty${i}`));
  const wideStore = new CatalogueStore({ roots: [wide.dir], codec: PO_CODEC });
  const names = await new Workbench(wideStore, { maxFiles: 2 }).listing();
  assert.match(names.truncated!, /^more than 20 names under the roots/);
});

Deno.test("a walk goes no deeper than maxDepth levels below the root", async () => {
  await using deep = await root({ "a/b/c/d.po": PO, "a/top.po": PO });
  const store = new CatalogueStore({ roots: [deep.dir], codec: PO_CODEC });
  const files = await new Workbench(store, { maxDepth: 2 }).files();
  assert.deepEqual(files.map((f) => f.summary.path), ["a/top.po"]);
});

Deno.test("a warm listing reads no file; a changed file is read again", async () => {
  await using tree = await root({ "a.po": PO, "b.po": PO });
  const store = new CatalogueStore({ roots: [tree.dir], codec: PO_CODEC });
  // A clock 10 s ahead: no record is racy, so only a changed stat makes a read.
  const workbench = new Workbench(store, { now: () => Date.now() + 10_000 });
  const first = await workbench.files();
  const again = await workbench.files();
  assert.ok(first.every((f, i) => f === again[i]), "the same records, nothing read");
  await Deno.writeTextFile(`${tree.dir}/b.po`, PO.replace('"b"', '"bb"'));
  const third = await workbench.files();
  assert.equal(third[0], first[0]);
  assert.notEqual(third[1], first[1]);
  assert.notEqual(third[1]?.summary.revision, first[1]?.summary.revision);
});
