/**
 * The catalogue store on a real file system: the parse cache (hits, racy revalidation, changes by
 * other writers, LRU bound) and writes (result, no-op writes, permission bits, failures leave the
 * file untouched, temp files, the lock file), plus the `atomicUpdateFile` helper for the CLI.
 */
import assert from "node:assert/strict";
import { InvalidInputError, NotFoundError, OutsideRootsError, TooLargeError } from "../lib/errors.ts";
import { atomicUpdateFile, CatalogueStore } from "../lib/store/mod.ts";
import { atomicReplaceFile, readRegularFile } from "../lib/store/atomic_write.ts";
import { type CatalogueStoreOptions } from "../lib/store/catalogue_store.ts";
import { lockFilePath, withFileLock } from "../lib/store/file_lock.ts";
import { concatRuns, sameBytes } from "../lib/byte_runs.ts";
import { applyWrite, encodePo, parsePo } from "../lib/po/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { lineCodec, type LineDoc, lineFile, LineSyntaxError } from "./_store_writer_child.ts";

interface StoreFixture extends AsyncDisposable {
  root: string;
  store: CatalogueStore<LineDoc>;
  counter: { parses: number };
}

/** A temp root and a store on it. `now` defaults to a clock a minute ahead, so files written by the
 * test count as old (not "racy") unless a test asks for the real clock. */
async function storeFixture(options: Partial<CatalogueStoreOptions<LineDoc>> = {}): Promise<StoreFixture> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_test_" }));
  const counter = { parses: 0 };
  const store = new CatalogueStore({
    roots: [root],
    codec: lineCodec(counter),
    now: () => Date.now() + 60_000,
    ...options,
  });
  return {
    root,
    store,
    counter,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

async function tempFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".tmp")) names.push(e.name);
  return names;
}

async function sameFile(path: string, before: { bytes: Uint8Array; stat: Deno.FileInfo }) {
  const stat = await Deno.stat(path);
  assert.deepEqual(await Deno.readFile(path), before.bytes);
  assert.equal(stat.ino, before.stat.ino, "the file was replaced");
  assert.equal(stat.mtime?.getTime(), before.stat.mtime?.getTime());
}

async function snapshot(path: string) {
  return { bytes: await Deno.readFile(path), stat: await Deno.stat(path) };
}

async function currentUmask(dir: string): Promise<number> {
  const probe = `${dir}/umask-probe`;
  (await Deno.open(probe, { write: true, createNew: true, mode: 0o777 })).close();
  const mode = (await Deno.stat(probe)).mode! & 0o777;
  await Deno.remove(probe);
  return 0o777 & ~mode;
}

// ---------------------------------------------------------------------------------------------
// Reads and the cache

Deno.test("read parses a file once; a repeated read of the unchanged file is a cache hit (no read, no parse)", async () => {
  await using f = await storeFixture();
  await Deno.writeFile(`${f.root}/a.po`, lineFile(["one", "two"]));
  const first = await f.store.read(`${f.root}/a.po`);
  const second = await f.store.read(`${f.root}/a.po`);
  assert.deepEqual(first.doc, { lines: ["one", "two"] });
  assert.equal(first.fromCache, false);
  assert.equal(second.fromCache, true);
  assert.equal(second.doc, first.doc);
  assert.equal(f.counter.parses, 1);
  assert.deepEqual(f.store.cacheStats(), {
    entries: 1,
    bytes: lineFile(["one", "two"]).length,
    hits: 1,
    revalidations: 0,
    parses: 1,
    evictions: 0,
  });
});

Deno.test("a file changed within the racy window is re-read and compared, but not re-parsed", async () => {
  await using f = await storeFixture({ now: Date.now });
  await Deno.writeFile(`${f.root}/a.po`, lineFile(["x"]));
  await f.store.read(`${f.root}/a.po`);
  const again = await f.store.read(`${f.root}/a.po`);
  assert.deepEqual(again.doc, { lines: ["x"] });
  assert.equal(f.counter.parses, 1);
  assert.equal(f.store.cacheStats().revalidations, 1);
  assert.equal(f.store.cacheStats().hits, 0);
});

Deno.test("a same-size change in place with the old mtime restored is seen (racy entries verify contents)", async () => {
  await using f = await storeFixture({ now: Date.now });
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["aaaa"]));
  const before = await Deno.stat(path);
  assert.deepEqual((await f.store.read(path)).doc, { lines: ["aaaa"] });
  // What `cp -p` or a restoring editor does: same inode, same size, same mtime.
  const file = await Deno.open(path, { write: true });
  await file.write(lineFile(["bbbb"]));
  file.close();
  await Deno.utime(path, before.atime!, before.mtime!);
  assert.deepEqual((await f.store.read(path)).doc, { lines: ["bbbb"] });
  assert.equal(f.counter.parses, 2);
});

Deno.test("a change by another writer with a different size is seen", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["1"]));
  assert.deepEqual((await f.store.read(path)).doc, { lines: ["1"] });
  await Deno.writeFile(path, lineFile(["1", "2"]));
  const after = await f.store.read(path);
  assert.deepEqual(after.doc, { lines: ["1", "2"] });
  assert.equal(after.fromCache, false);
});

Deno.test("a replacement by rename with the same size and mtime is seen (the inode changed)", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["old"]));
  const before = await Deno.stat(path);
  assert.deepEqual((await f.store.read(path)).doc, { lines: ["old"] });
  await Deno.writeFile(`${f.root}/next`, lineFile(["new"]));
  await Deno.utime(`${f.root}/next`, before.atime!, before.mtime!);
  await Deno.rename(`${f.root}/next`, path);
  const after = await Deno.stat(path);
  assert.equal(after.size, before.size);
  assert.equal(after.mtime?.getTime(), before.mtime?.getTime());
  assert.deepEqual((await f.store.read(path)).doc, { lines: ["new"] });
});

Deno.test("the cache is bounded by bytes and evicts the least recently used file", async () => {
  await using f = await storeFixture({ cacheMaxBytes: 250 });
  for (const name of ["a", "b", "c"]) {
    await Deno.writeFile(`${f.root}/${name}.po`, lineFile(["x".repeat(90)]));
  }
  const size = lineFile(["x".repeat(90)]).length; // 100 bytes
  assert.equal(size, 100);
  await f.store.read(`${f.root}/a.po`);
  await f.store.read(`${f.root}/b.po`);
  await f.store.read(`${f.root}/a.po`); // a is now the most recently used
  await f.store.read(`${f.root}/c.po`); // evicts b
  assert.deepEqual(
    {
      entries: f.store.cacheStats().entries,
      bytes: f.store.cacheStats().bytes,
      evictions: f.store.cacheStats().evictions,
    },
    { entries: 2, bytes: 200, evictions: 1 },
  );
  assert.equal((await f.store.read(`${f.root}/a.po`)).fromCache, true);
  assert.equal((await f.store.read(`${f.root}/b.po`)).fromCache, false);
  assert.equal(f.counter.parses, 4);
});

Deno.test("a file larger than the cache bound is read but not cached; cacheMaxBytes 0 disables the cache", async (t) => {
  await t.step("larger than the bound", async () => {
    await using f = await storeFixture({ cacheMaxBytes: 50 });
    await Deno.writeFile(`${f.root}/a.po`, lineFile(["x".repeat(90)]));
    await f.store.read(`${f.root}/a.po`);
    assert.equal((await f.store.read(`${f.root}/a.po`)).fromCache, false);
    assert.deepEqual([f.store.cacheStats().entries, f.counter.parses], [0, 2]);
  });
  await t.step("bound 0", async () => {
    await using f = await storeFixture({ cacheMaxBytes: 0 });
    await Deno.writeFile(`${f.root}/a.po`, lineFile([]));
    await f.store.read(`${f.root}/a.po`);
    await f.store.read(`${f.root}/a.po`);
    assert.deepEqual([f.store.cacheStats().entries, f.counter.parses], [0, 2]);
  });
});

Deno.test("concurrent reads of one uncached file share a single parse", async () => {
  await using f = await storeFixture();
  await Deno.writeFile(`${f.root}/a.po`, lineFile(["x"]));
  const reads = await Promise.all(Array.from({ length: 10 }, () => f.store.read(`${f.root}/a.po`)));
  assert.equal(f.counter.parses, 1);
  for (const r of reads) assert.equal(r.doc, reads[0]?.doc);
});

Deno.test("read errors: missing, deleted after caching, unparsable, outside the roots", async (t) => {
  await using f = await storeFixture();
  await t.step("a missing file is NotFoundError", async () => {
    await assert.rejects(
      () => f.store.read(`${f.root}/none.po`),
      NotFoundError,
      `File not found: ${f.root}/none.po`,
    );
  });
  await t.step("a cached file that was deleted is NotFoundError", async () => {
    await Deno.writeFile(`${f.root}/gone.po`, lineFile(["x"]));
    await f.store.read(`${f.root}/gone.po`);
    await Deno.remove(`${f.root}/gone.po`);
    await assert.rejects(
      () => f.store.read(`${f.root}/gone.po`),
      NotFoundError,
      `File not found: ${f.root}/gone.po`,
    );
  });
  await t.step("an unparsable file throws the codec's error", async () => {
    await Deno.writeTextFile(`${f.root}/bad.po`, "no header\n");
    await assert.rejects(
      () => f.store.read(`${f.root}/bad.po`),
      LineSyntaxError,
      `Invalid line file ${f.root}/bad.po: missing header`,
    );
  });
  await t.step("a path outside the roots is OutsideRootsError", async () => {
    await assert.rejects(
      () => f.store.read("/etc/x.po"),
      OutsideRootsError,
      `Path is outside the catalogue roots (${f.root}): /etc/x.po`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Writes

Deno.test("update returns fn's result, writes the encoded document and creates a missing file (0644 minus umask)", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/new.po`;
  const seen: (LineDoc | null)[] = [];
  const result = await f.store.update(path, (doc) => {
    seen.push(doc);
    return { doc: { lines: ["hello"] }, result: { created: 1 } };
  });
  assert.deepEqual(result, { created: 1 });
  assert.deepEqual(seen, [null]);
  assert.deepEqual(await Deno.readFile(path), lineFile(["hello"]));
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o644 & ~(await currentUmask(f.root)));
  assert.deepEqual(await tempFiles(f.root), []);
  assert.ok((await Deno.lstat(lockFilePath(path))).isFile, "the lock file is kept");
});

Deno.test("newFileMode sets the bits of created files", async () => {
  await using f = await storeFixture({ newFileMode: 0o600 });
  await f.store.update(`${f.root}/new.po`, () => ({ doc: { lines: [] }, result: null }));
  assert.equal((await Deno.stat(`${f.root}/new.po`)).mode! & 0o7777, 0o600);
});

Deno.test("update hands fn the current document and the next read is served without a re-parse", async (t) => {
  for (const clock of ["a clock past the racy window", "the real clock"] as const) {
    await t.step(clock, async () => {
      await using f = await storeFixture(clock === "the real clock" ? { now: Date.now } : {});
      const path = `${f.root}/a.po`;
      await Deno.writeFile(path, lineFile(["1"]));
      const n = await f.store.update(path, (doc) => {
        assert.deepEqual(doc, { lines: ["1"] });
        doc!.lines.push("2"); // fn gets its own parse: mutating it is fine
        return { doc: doc!, result: doc!.lines.length };
      });
      assert.equal(n, 2);
      assert.equal(f.counter.parses, 1);
      const read = await f.store.read(path);
      assert.deepEqual(read.doc, { lines: ["1", "2"] });
      assert.equal(f.counter.parses, 1, "the written document was cached");
      const stats = f.store.cacheStats();
      assert.deepEqual([stats.hits, stats.revalidations], clock === "the real clock" ? [0, 1] : [1, 0]);
    });
  }
});

Deno.test("reads during writes reuse the written documents: no re-parse, never an older state", async () => {
  // A read can see the new file between the rename and the moment the update caches its
  // document; it must take that document rather than parse the file again.
  await using f = await storeFixture({ now: Date.now });
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["0"]));
  await f.store.read(path);
  let writing = true;
  let reads = 0;
  const reader = (async () => {
    let last = 0;
    while (writing) {
      const { doc } = await f.store.read(path);
      assert.ok(doc.lines.length >= last, "a read never goes back to an older state");
      last = doc.lines.length;
      reads++;
    }
  })();
  const readers = [reader, reader.then(() => {})];
  for (let i = 1; i <= 30; i++) {
    await f.store.update(path, (doc) => ({ doc: { lines: [...doc!.lines, String(i)] }, result: null }));
  }
  writing = false;
  await Promise.all(readers);
  assert.equal((await f.store.read(path)).doc.lines.length, 31);
  assert.equal(f.counter.parses, 1, `${reads} reads during 30 writes parsed nothing`);
});

Deno.test("update does not hand fn a stale cached document: it reads the current file under the lock", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["cached"]));
  await f.store.read(path);
  await Deno.writeFile(path, lineFile(["changed", "elsewhere"]));
  const got = await f.store.update(path, (doc) => ({ doc: doc!, result: doc }));
  assert.deepEqual(got, { lines: ["changed", "elsewhere"] });
});

Deno.test("unchanged bytes are not written: same inode, same mtime, no temp file", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile(["same"]));
  const before = await snapshot(path);
  const r = await f.store.update(path, (doc) => ({ doc: { lines: [...doc!.lines] }, result: "ok" }));
  assert.equal(r, "ok");
  await sameFile(path, before);
  assert.deepEqual(await tempFiles(f.root), []);
  assert.equal((await f.store.read(path)).fromCache, true, "the unchanged document is cached too");
});

Deno.test("permission bits of an existing file are preserved", async (t) => {
  for (const mode of [0o600, 0o640, 0o664]) {
    await t.step(mode.toString(8), async () => {
      await using f = await storeFixture();
      const path = `${f.root}/a.po`;
      await Deno.writeFile(path, lineFile([]));
      await Deno.chmod(path, mode);
      await f.store.update(path, () => ({ doc: { lines: ["x"] }, result: null }));
      const stat = await Deno.stat(path);
      assert.equal(stat.mode! & 0o7777, mode);
      assert.deepEqual(await Deno.readFile(path), lineFile(["x"]));
    });
  }
});

Deno.test("a failed update leaves the original untouched and no temp file", async (t) => {
  const cases: {
    name: string;
    options?: Partial<CatalogueStoreOptions<LineDoc>>;
    initial?: Uint8Array;
    fn: (doc: LineDoc | null) => { doc: LineDoc; result: null };
    error: (e: Error) => boolean;
  }[] = [
    {
      name: "fn throws",
      fn: () => {
        throw new Error("fn failed");
      },
      error: (e) => e.message === "fn failed",
    },
    {
      name: "fn's async work rejects",
      fn: (() => Promise.reject(new RangeError("later"))) as unknown as () => { doc: LineDoc; result: null },
      error: (e) => e instanceof RangeError,
    },
    {
      name: "the codec cannot encode the document",
      fn: () => ({ doc: { lines: ["bad\rline"] }, result: null }),
      options: {
        codec: {
          ...lineCodec(),
          encode(doc) {
            if (doc.lines.some((l) => l.includes("\r"))) throw new InvalidInputError("cannot encode a CR");
            return lineCodec().encode(doc);
          },
        },
      },
      error: (e) => e instanceof InvalidInputError && e.message === "cannot encode a CR",
    },
    {
      name: "the current file does not parse",
      initial: new TextEncoder().encode("garbage"),
      fn: () => ({ doc: { lines: [] }, result: null }),
      error: (e) => e instanceof LineSyntaxError,
    },
    {
      name: "the new contents exceed maxFileBytes",
      options: { maxFileBytes: 40 },
      fn: () => ({ doc: { lines: ["x".repeat(50)] }, result: null }),
      error: (e) =>
        e instanceof TooLargeError &&
        /^Cannot write .*\/a\.po: the new contents are 60 bytes, the limit is 40 bytes$/.test(e.message),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using f = await storeFixture(c.options);
      const path = `${f.root}/a.po`;
      await Deno.writeFile(path, c.initial ?? lineFile(["original"]));
      await Deno.chmod(path, 0o640);
      const before = await snapshot(path);
      await assert.rejects(() => f.store.update(path, c.fn), c.error);
      await sameFile(path, before);
      assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o640);
      assert.deepEqual(await tempFiles(f.root), []);
    });
  }
});

Deno.test("update errors: missing directory, outside the roots, not a regular file", async (t) => {
  await using f = await storeFixture();
  await t.step("a missing directory is NotFoundError naming it", async () => {
    await assert.rejects(
      () => f.store.update(`${f.root}/nodir/a.po`, () => ({ doc: { lines: [] }, result: null })),
      NotFoundError,
      `Directory not found: ${f.root}/nodir`,
    );
  });
  await t.step("a path outside the roots is refused and nothing is created", async () => {
    const outside = await Deno.makeTempDir({ prefix: "store_outside_" });
    try {
      await assert.rejects(
        () => f.store.update(`${outside}/a.po`, () => ({ doc: { lines: [] }, result: null })),
        OutsideRootsError,
      );
      assert.deepEqual([...Deno.readDirSync(outside)], []);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
  await t.step("a directory named a.po is not a regular file", async () => {
    await Deno.mkdir(`${f.root}/dir.po`);
    await assert.rejects(
      () => f.store.update(`${f.root}/dir.po`, () => ({ doc: { lines: [] }, result: null })),
      InvalidInputError,
      `Not a regular file: ${f.root}/dir.po`,
    );
  });
});

Deno.test("an update through a symlink inside the root writes the target and keeps the link", async () => {
  await using f = await storeFixture();
  await Deno.writeFile(`${f.root}/real.po`, lineFile(["r"]));
  await Deno.symlink("real.po", `${f.root}/link.po`);
  await f.store.update(
    `${f.root}/link.po`,
    (doc) => ({ doc: { lines: [...doc!.lines, "via link"] }, result: null }),
  );
  assert.ok((await Deno.lstat(`${f.root}/link.po`)).isSymlink);
  assert.deepEqual(await Deno.readFile(`${f.root}/real.po`), lineFile(["r", "via link"]));
  assert.deepEqual((await f.store.read(`${f.root}/real.po`)).doc, { lines: ["r", "via link"] });
});

Deno.test("readRegularFile with followSymlinks false refuses a symlink planted at the path", async () => {
  await using f = await storeFixture();
  await Deno.writeFile(`${f.root}/real.po`, lineFile([]));
  await Deno.symlink("real.po", `${f.root}/link.po`);
  await assert.rejects(
    () => readRegularFile(`${f.root}/link.po`, "shown.po", 1000, { followSymlinks: false }),
    InvalidInputError,
    "Not a regular file: shown.po",
  );
  assert.deepEqual((await readRegularFile(`${f.root}/link.po`, "shown.po", 1000))?.bytes, lineFile([]));
});

Deno.test("readRegularFile with expected bytes: the same array when equal, the file's bytes otherwise", async (t) => {
  await using f = await storeFixture();
  const path = `${f.root}/big.po`;
  // Larger than one comparison chunk (256 KiB), so differences in a later chunk are exercised.
  const original = new Uint8Array(600_000).map((_, i) => 32 + (i % 90));
  await Deno.writeFile(path, original);
  await t.step("equal: the expected array itself is returned", async () => {
    const expected = original.slice();
    const read = await readRegularFile(path, "big.po", 1 << 20, { expected });
    assert.equal(read?.bytes, expected);
  });
  for (const at of [0, 5, 262_143, 262_144, 500_000, 599_999]) {
    await t.step(`one byte differs at ${at}`, async () => {
      const changed = original.slice();
      changed[at] = changed[at]! ^ 1; // at < original.length
      await Deno.writeFile(path, changed);
      const read = await readRegularFile(path, "big.po", 1 << 20, { expected: original });
      assert.notEqual(read?.bytes, original);
      assert.deepEqual(read?.bytes, changed);
    });
  }
  await t.step(
    "expected as runs (cut across the chunk edges): the runs when equal, the file otherwise",
    async () => {
      await Deno.writeFile(path, original);
      const cuts = [0, 1, 262_143, 262_145, 300_000, 600_000];
      const runs = cuts.slice(1).map((end, k) => original.subarray(cuts[k], end));
      assert.equal((await readRegularFile(path, "big.po", 1 << 20, { expected: runs }))?.bytes, runs);
      for (const at of [0, 262_144, 599_999]) {
        const changed = original.slice();
        changed[at] = changed[at]! ^ 1;
        await Deno.writeFile(path, changed);
        assert.deepEqual(
          (await readRegularFile(path, "big.po", 1 << 20, { expected: runs }))?.bytes,
          changed,
        );
      }
    },
  );
  await t.step("other sizes are read in full", async () => {
    for (const size of [0, 1000, 600_001]) {
      const other = new Uint8Array(size).fill(65);
      await Deno.writeFile(path, other);
      assert.deepEqual(
        (await readRegularFile(path, "big.po", 1 << 20, { expected: original }))?.bytes,
        other,
      );
    }
  });
  await t.step("the size limit still applies", async () => {
    await Deno.writeFile(path, original);
    const expected = original.slice();
    expected[10] = expected[10]! ^ 1;
    await assert.rejects(() => readRegularFile(path, "big.po", 1000, { expected }), TooLargeError);
  });
});

Deno.test("stale temp files of the updated file are removed; fresh or foreign ones are kept", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  await Deno.writeFile(path, lineFile([]));
  const stale = `${f.root}/.a.po.0123456789abcdef.tmp`;
  const fresh = `${f.root}/.a.po.fedcba9876543210.tmp`;
  const foreign = `${f.root}/.a.po.backup.tmp`;
  const otherFile = `${f.root}/.b.po.0123456789abcdef.tmp`;
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const p of [stale, fresh, foreign, otherFile]) await Deno.writeTextFile(p, "partial");
  for (const p of [stale, foreign, otherFile]) await Deno.utime(p, hourAgo, hourAgo);
  await f.store.update(path, () => ({ doc: { lines: ["x"] }, result: null }));
  assert.deepEqual(
    (await tempFiles(f.root)).sort(),
    [".a.po.backup.tmp", ".a.po.fedcba9876543210.tmp", ".b.po.0123456789abcdef.tmp"],
  );
});

Deno.test("atomicReplaceFile removes its temp file when the rename fails and leaves the target alone", async () => {
  await using f = await storeFixture();
  const target = `${f.root}/x.po`;
  await Deno.mkdir(target);
  await Deno.writeTextFile(`${target}/inside`, "keep");
  await assert.rejects(() => atomicReplaceFile(target, lineFile(["x"])));
  assert.deepEqual(await tempFiles(f.root), []);
  assert.equal(await Deno.readTextFile(`${target}/inside`), "keep");
});

Deno.test("the lock is a real flock on the kept .<name>.lock file (flock(1) sees it busy)", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/a.po`;
  const flockBusy = async () => {
    try {
      const out = await new Deno.Command("flock", { args: ["-n", lockFilePath(path), "true"] }).output();
      return !out.success;
    } catch {
      return null; // flock(1) is not installed (spawning throws synchronously)
    }
  };
  if ((await flockBusy()) === null) {
    console.log("skipped: flock(1) not found");
    return;
  }
  assert.equal(await flockBusy(), false);
  const during = await withFileLock(path, () => flockBusy());
  assert.equal(during, true);
  assert.equal(await flockBusy(), false);
});

// ---------------------------------------------------------------------------------------------
// atomicUpdateFile (for the wrap CLI)

Deno.test("atomicUpdateFile rewrites, skips null and identical results, follows symlinks, keeps the mode", async (t) => {
  await using f = await storeFixture();
  const path = `${f.root}/w.po`;
  await Deno.writeTextFile(path, "one\n");
  await Deno.chmod(path, 0o600);
  await t.step("new bytes are written", async () => {
    const r = await atomicUpdateFile(
      path,
      (bytes) => new TextEncoder().encode(new TextDecoder().decode(bytes!) + "two\n"),
    );
    assert.deepEqual(r, { written: true });
    assert.equal(await Deno.readTextFile(path), "one\ntwo\n");
    assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o600);
  });
  await t.step("null and identical bytes leave the file alone", async () => {
    const before = await snapshot(path);
    assert.deepEqual(await atomicUpdateFile(path, () => null), { written: false });
    assert.deepEqual(await atomicUpdateFile(path, (bytes) => bytes!.slice()), { written: false });
    await sameFile(path, before);
  });
  await t.step("a symlink's target is rewritten, the link stays", async () => {
    await Deno.symlink("w.po", `${f.root}/wl.po`);
    await atomicUpdateFile(`${f.root}/wl.po`, () => new TextEncoder().encode("three\n"));
    assert.ok((await Deno.lstat(`${f.root}/wl.po`)).isSymlink);
    assert.equal(await Deno.readTextFile(path), "three\n");
  });
  await t.step("a missing file gets null and is created", async () => {
    const seen: (Uint8Array | null)[] = [];
    await atomicUpdateFile(`${f.root}/created.po`, (bytes) => {
      seen.push(bytes);
      return new TextEncoder().encode("new\n");
    });
    assert.deepEqual(seen, [null]);
    assert.equal(await Deno.readTextFile(`${f.root}/created.po`), "new\n");
  });
  await t.step("a missing directory is NotFoundError", async () => {
    await assert.rejects(
      () => atomicUpdateFile(`${f.root}/nodir/x.po`, () => new Uint8Array()),
      NotFoundError,
      `Directory not found: ${f.root}/nodir`,
    );
  });
  await t.step("it takes the same lock as the store", async () => {
    await Deno.writeFile(path, lineFile(["x"]));
    const order: string[] = [];
    let release: (() => void) | undefined;
    const held = f.store.update(path, async (doc) => {
      order.push("store start");
      await new Promise<void>((r) => (release = r));
      order.push("store end");
      return { doc: doc!, result: null };
    });
    for (let i = 0; i < 200 && !release; i++) await new Promise((r) => setTimeout(r, 5));
    const cli = atomicUpdateFile(path, () => {
      order.push("cli");
      return null;
    });
    await new Promise((r) => setTimeout(r, 50));
    release!();
    await Promise.all([held, cli]);
    assert.deepEqual(order, ["store start", "store end", "cli"]);
  });
});

Deno.test("atomicReplaceFile writes runs of every size as the bytes they hold, in order", async () => {
  await using f = await storeFixture();
  const path = `${f.root}/runs.po`;
  // Small runs gathered in the 1 MiB staging buffer, large ones written as they are, and runs
  // that overflow the buffer: 3 MiB in all.
  const sizes = [1, 0, 100, 300_000, 5, 1 << 20, 70_000, 900_000, 3, 262_143, 262_144, 400_000];
  let seed = 7;
  const runs = sizes.map((n) =>
    new Uint8Array(n).map(() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24)
  );
  const whole = concatRuns(runs);
  await atomicReplaceFile(path, runs);
  const back = await Deno.readFile(path);
  // (assert.deepEqual takes minutes on arrays of megabytes.)
  assert.equal(back.length, whole.length);
  assert.ok(sameBytes(back, whole), "the file holds the runs' bytes in order");
});

Deno.test("writes into a large catalogue leave the file in msgcat's layout, every update in place", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_test_" }));
  try {
    const path = `${root}/big.po`;
    // ~1.6 MB: the runs kept between writes are larger than the writer's staging buffer.
    let text = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n';
    for (let i = 0; i < 8000; i++) {
      text += `\n#: f.py:${i}\nmsgid "m${i} ${"word ".repeat(30)}"\nmsgstr "t${i}"\n`;
    }
    await Deno.writeFile(path, new TextEncoder().encode(text));
    const store = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    for (const i of [4000, 10, 7999, 4001, 2500]) {
      await store.update(path, (doc) => {
        const r = applyWrite(doc, [{ msgid: `m${i} ${"word ".repeat(30)}`, msgstr: `updated ${i}` }]);
        return { doc: r.catalog, result: r };
      });
      const bytes = await Deno.readFile(path);
      const reread = parsePo(bytes);
      assert.ok(sameBytes(encodePo(reread), bytes), `after writing ${i}: msgcat's layout`);
      assert.equal(reread.messages[i + 1]?.msgstr, `updated ${i}`, "the entry is updated where it was");
      assert.ok(reread.messages.every((m, k) => k === 0 || m.msgid.startsWith(`m${k - 1} `)), "order kept");
      assert.equal(reread.messages.length, 8001);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a read reuses where a path resolved to for one second, never outside the roots", async () => {
  let clock = Date.now() + 60_000;
  await using f = await storeFixture({ now: () => clock });
  const outsideDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_outside_" }));
  try {
    await Deno.writeFile(`${f.root}/a.po`, lineFile(["a"]));
    await Deno.writeFile(`${f.root}/b.po`, lineFile(["b"]));
    await Deno.writeFile(`${outsideDir}/secret.po`, lineFile(["secret"]));
    const link = `${f.root}/link.po`;
    await Deno.symlink(`${f.root}/a.po`, link);
    assert.deepEqual((await f.store.read(link)).doc, { lines: ["a"] });
    // Retargeted inside the roots: seen once the resolution is a second old.
    await Deno.remove(link);
    await Deno.symlink(`${f.root}/b.po`, link);
    assert.deepEqual((await f.store.read(link)).doc, { lines: ["a"] }, "within the second: the old place");
    clock += 1000;
    assert.deepEqual((await f.store.read(link)).doc, { lines: ["b"] });
    // Retargeted outside: within the second the old place (inside) is read, then it is refused.
    await Deno.remove(link);
    await Deno.symlink(`${outsideDir}/secret.po`, link);
    assert.deepEqual((await f.store.read(link)).doc, { lines: ["b"] });
    clock += 1000;
    await assert.rejects(() => f.store.read(link), OutsideRootsError);
    // A file gone is noticed at once (its stat fails, so the path is resolved again).
    assert.deepEqual((await f.store.read(`${f.root}/a.po`)).doc, { lines: ["a"] });
    await Deno.remove(`${f.root}/a.po`);
    await assert.rejects(() => f.store.read(`${f.root}/a.po`), NotFoundError);
  } finally {
    await Deno.remove(outsideDir, { recursive: true });
  }
});
