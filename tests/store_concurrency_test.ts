/**
 * Concurrent writers: in one process (the queue), across processes (flock, real `deno run` children
 * sandboxed to the root), and SIGKILL at random moments (rename gives old-or-new, never a mix).
 */
import assert from "node:assert/strict";
import { atomicUpdateFile, CatalogueStore } from "../lib/store/mod.ts";
import { withFileLock } from "../lib/store/file_lock.ts";
import { pendingLockKeys } from "../lib/store/file_lock.ts";
import { crashLine, lineCodec, type LineDoc, lineFile, spawnStoreChild } from "./_store_writer_child.ts";

async function tempRoot(): Promise<{ root: string } & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_conc_" }));
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

function append(line: string) {
  return (doc: LineDoc | null) => ({ doc: { lines: [...(doc?.lines ?? []), line] }, result: line });
}

async function tempFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".tmp")) names.push(e.name);
  return names;
}

Deno.test("50 concurrent in-process updates of one file each add their key: all 50 are present", async () => {
  await using d = await tempRoot();
  const store = new CatalogueStore({ roots: [d.root], codec: lineCodec() });
  const path = `${d.root}/a.po`;
  const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
  const results = await Promise.all(keys.map((k) => store.update(path, append(k))));
  assert.deepEqual(results, keys);
  const { doc } = await store.read(path);
  assert.deepEqual([...doc.lines].sort(), [...keys].sort());
  assert.equal(pendingLockKeys(), 0);
});

Deno.test("updates of one file never overlap, across two stores, a symlinked spelling and atomicUpdateFile", async () => {
  await using d = await tempRoot();
  const path = `${d.root}/a.po`;
  await Deno.writeFile(path, lineFile([]));
  await Deno.symlink("a.po", `${d.root}/alias.po`);
  const stores = [0, 1].map(() => new CatalogueStore({ roots: [d.root], codec: lineCodec() }));
  let active = 0;
  let maxActive = 0;
  const guarded = <T>(fn: () => T) => async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, 1));
    try {
      return fn();
    } finally {
      active--;
    }
  };
  const jobs: Promise<unknown>[] = [];
  for (let i = 0; i < 30; i++) {
    const store = stores[i % 2]!; // two stores
    const spelling = i % 3 === 0 ? `${d.root}/alias.po` : path;
    if (i % 5 === 4) {
      jobs.push(atomicUpdateFile(path, (bytes) =>
        guarded(() => {
          const doc = lineCodec().parse(bytes!, path);
          return lineCodec().encode({ lines: [...doc.lines, `cli-${i}`] });
        })()));
    } else {
      jobs.push(store.update(spelling, (doc) => guarded(() => append(`store-${i}`)(doc))()));
    }
  }
  await Promise.all(jobs);
  assert.equal(maxActive, 1);
  const lines = lineCodec().parse(await Deno.readFile(path), path).lines;
  assert.equal(lines.length, 30);
  assert.equal(new Set(lines).size, 30);
  assert.equal(pendingLockKeys(), 0);
});

Deno.test("a held lock on one file does not delay updates of another", async () => {
  await using d = await tempRoot();
  const store = new CatalogueStore({ roots: [d.root], codec: lineCodec() });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const holder = withFileLock(`${d.root}/b.po`, () => gate, { key: `${d.root}/b.po` });
  assert.equal(await store.update(`${d.root}/a.po`, append("a")), "a");
  release();
  await holder;
});

Deno.test("several processes appending to one file under the lock lose no update", async () => {
  await using d = await tempRoot();
  const path = `${d.root}/shared.po`;
  await Deno.writeFile(path, lineFile(["start"]));
  const store = new CatalogueStore({ roots: [d.root], codec: lineCodec() });
  assert.deepEqual((await store.read(path)).doc, { lines: ["start"] }); // now cached in this process
  const perChild = 30;
  const children = ["p1", "p2", "p3"].map((id) =>
    spawnStoreChild([`--allow-read=${d.root}`, `--allow-write=${d.root}`], [
      "append",
      d.root,
      path,
      id,
      String(perChild),
    ])
  );
  // This process writes at the same time.
  const mine = (async () => {
    for (let i = 1; i <= 20; i++) await store.update(path, append(`parent-${i}`));
  })();
  const outputs = await Promise.all(children.map((c) => c.output()));
  await mine;
  for (const out of outputs) assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const expected = ["start"];
  for (const id of ["p1", "p2", "p3"]) for (let i = 1; i <= perChild; i++) expected.push(`${id}-${i}`);
  for (let i = 1; i <= 20; i++) expected.push(`parent-${i}`);
  const { doc } = await store.read(path);
  assert.equal(doc.lines.length, expected.length, "an update was lost or duplicated");
  assert.deepEqual([...doc.lines].sort(), expected.sort());
  // Each writer's own lines stay in its order.
  for (const id of ["p1", "p2", "p3", "parent"]) {
    const own = doc.lines.filter((l) => l.startsWith(`${id}-`)).map((l) => Number(l.split("-")[1]));
    assert.deepEqual(own, [...own].sort((a, b) => a - b));
  }
  assert.deepEqual(await tempFiles(d.root), []);
});

Deno.test("SIGKILL at random moments leaves a complete old-or-new file every time, and readers never see a mix", async () => {
  await using d = await tempRoot();
  const path = `${d.root}/crash.po`;
  let previous = 0;
  let strays = 0;
  let snapshots = 0;
  const delays: number[] = [];
  for (let round = 0; round < 10; round++) {
    const child = spawnStoreChild(
      [`--allow-read=${d.root}`, `--allow-write=${d.root}`],
      ["crash", d.root, path],
      { stdout: "piped" },
    );
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes("ready\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    if (!seen.includes("ready\n")) {
      const out = await child.output();
      assert.fail(`the writer died before its first write: ${new TextDecoder().decode(out.stderr)}`);
    }
    const delay = Math.floor(Math.random() * 120);
    delays.push(delay);
    // Until the kill, read the file as often as possible: a reader must never see a partial file.
    const until = Date.now() + delay;
    do {
      const lines = lineCodec().parse(await Deno.readFile(path), path).lines;
      assert.equal(lines.at(-1), crashLine(lines.length), `round ${round}: a reader saw a partial file`);
      snapshots++;
    } while (Date.now() < until);
    child.kill("SIGKILL");
    const status = await child.output();
    assert.equal(status.signal, "SIGKILL", new TextDecoder().decode(status.stderr));

    // The file parses, and is exactly lines 1..k of what the writer wrote, k never going back.
    const lines = lineCodec().parse(await Deno.readFile(path), path).lines;
    lines.forEach((line, i) =>
      assert.equal(line, crashLine(i + 1), `round ${round}: line ${i + 1} is corrupt`)
    );
    assert.ok(lines.length >= previous + 1, `round ${round}: ${lines.length} lines after ${previous}`);
    previous = lines.length;
    strays += (await tempFiles(d.root)).length;
  }
  console.log(
    `crash test: ${previous} writes survived 10 kills (delays ${delays.join(",")} ms); ` +
      `${strays} kills left a temp file; ${snapshots} reads during the writes were all whole`,
  );
  // The next locked update removes what a killed writer left behind.
  const store = new CatalogueStore({ roots: [d.root], codec: lineCodec(), staleTempAgeMs: 0 });
  await store.update(
    path,
    (doc) => ({ doc: { lines: [...doc!.lines, crashLine(doc!.lines.length + 1)] }, result: null }),
  );
  assert.deepEqual(await tempFiles(d.root), []);
});
