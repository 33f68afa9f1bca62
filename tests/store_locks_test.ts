/**
 * Lock files live in a lock directory of their own, not beside the user's catalogues (issue 17, item
 * 2): what a write leaves behind, that the store and `atomicUpdateFile` (the `wrap` CLI) still take
 * the same lock, the checks a lock directory must pass, and the start-up checks of the roots
 * (item 5).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ConfigError, parseConfig, permissionFlags, prepareStore } from "../lib/config.ts";
import { InvalidInputError, OutsideRootsError } from "../lib/errors.ts";
import { atomicUpdateFile, CatalogueStore, StoreSetupError, useLockDirectory } from "../lib/store/mod.ts";
import { checkRoots } from "../lib/store/path_policy.ts";
import {
  lockPlacement,
  LOCKS_BESIDE_PLACEMENT,
  openLockDirectory,
  setLockPlacement,
} from "../lib/store/lock_dir.ts";
import { lineCodec, lineFile } from "./_store_writer_child.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

interface Fixture extends AsyncDisposable {
  base: string;
  root: string;
  locks: string;
}

/** A temp root and, beside it, a lock directory made by {@link openLockDirectory}. */
async function fixture(): Promise<Fixture> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "store_locks_" }));
  const root = `${base}/root`;
  await Deno.mkdir(`${root}/sub`, { recursive: true });
  return {
    base,
    root,
    locks: `${base}/locks`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

function lockName(realPath: string): string {
  return `${createHash("sha256").update(realPath).digest("hex")}.lock`;
}

const uid = Deno.uid()!;

Deno.test("a write leaves only the catalogue in its directory; its lock file is in the lock directory", async () => {
  await using f = await fixture();
  const locks = openLockDirectory(f.locks, uid);
  const store = new CatalogueStore({ roots: [f.root], codec: lineCodec(), locks });
  await store.update(`${f.root}/sub/a.po`, () => ({ doc: { lines: ["x"] }, result: null }));
  await store.update(`${f.root}/sub/a.po`, () => ({ doc: { lines: ["x", "y"] }, result: null }));
  assert.deepEqual(names(`${f.root}/sub`), ["a.po"]);
  assert.deepEqual(names(f.locks), [lockName(`${f.root}/sub/a.po`)]);
  assert.equal(Deno.statSync(f.locks).mode! & 0o777, 0o700);
});

Deno.test("the service's start-up makes the lock directory the default, so nothing is written beside catalogues", async () => {
  await using f = await fixture();
  const before = lockPlacement();
  try {
    const config = parseConfig({ PO_ROOTS: f.root, PO_LOCK_DIR: f.locks }, { defaultPoRoots: [], cwd: "/" });
    prepareStore(config);
    // A store made as main.ts makes it: no lock option.
    const store = new CatalogueStore({ roots: config.poRoots, codec: lineCodec() });
    await store.update(`${f.root}/new.po`, () => ({ doc: { lines: ["x"] }, result: null }));
    assert.deepEqual(names(f.root), ["new.po", "sub"], "no .new.po.lock beside the catalogue");
    assert.deepEqual(names(f.locks), [lockName(`${f.root}/new.po`)]);
  } finally {
    setLockPlacement(before);
  }
});

Deno.test("a refused or empty write creates nothing: not in the catalogue's directory, not in the lock directory", async () => {
  await using f = await fixture();
  const locks = openLockDirectory(f.locks, uid);
  const store = new CatalogueStore({ roots: [f.root], codec: lineCodec(), locks });
  await assert.rejects(
    () =>
      store.update(`${f.root}/sub/refused.po`, () => {
        throw new InvalidInputError("refused");
      }),
    InvalidInputError,
  );
  await assert.rejects(
    () => store.update(`${f.base}/elsewhere.po`, () => ({ doc: { lines: [] }, result: null })),
    OutsideRootsError,
  );
  await Deno.writeFile(`${f.root}/same.po`, lineFile(["a"]));
  await store.update(`${f.root}/same.po`, () => ({ doc: { lines: ["a"] }, result: null }));
  assert.deepEqual(names(`${f.root}/sub`), []);
  assert.deepEqual(names(f.root), ["same.po", "sub"]);
  assert.deepEqual(names(f.locks), []);
  assert.deepEqual(names(f.base), ["locks", "root"]);
});

Deno.test("the store and atomicUpdateFile (wrap) take one lock for every spelling of a file", async () => {
  await using f = await fixture();
  const locks = openLockDirectory(f.locks, uid);
  await Deno.symlink(`${f.root}/sub`, `${f.base}/alias`);
  const path = `${f.root}/sub/a.po`;
  await Deno.writeFile(path, lineFile(["a"]));
  // Another holder of that flock (another open file description excludes like another process).
  const holder = await Deno.open(`${f.locks}/${lockName(path)}`, { read: true, write: true, create: true });
  await holder.lock(true);
  try {
    await assert.rejects(
      () =>
        atomicUpdateFile(`${f.base}/alias/a.po`, () => lineFile(["b"]), {
          locks,
          signal: AbortSignal.timeout(100),
        }),
      (e: Error) => e.name === "TimeoutError",
    );
    const store = new CatalogueStore({ roots: [f.root], codec: lineCodec(), locks });
    await assert.rejects(
      () =>
        store.update(path, () => ({ doc: { lines: ["c"] }, result: null }), {
          signal: AbortSignal.timeout(100),
        }),
      (e: Error) => e.name === "TimeoutError",
    );
  } finally {
    await holder.unlock();
    holder.close();
  }
  assert.deepEqual(await Deno.readFile(path), lineFile(["a"]), "nothing was written while the lock was held");
  assert.deepEqual(await atomicUpdateFile(`${f.base}/alias/a.po`, () => lineFile(["b"]), { locks }), {
    written: true,
  });
  assert.deepEqual(names(`${f.root}/sub`), ["a.po"]);
});

Deno.test("a lock directory is refused unless it is a real directory of this user that no one else may write", async (t) => {
  await using f = await fixture();
  const refused = (path: string, why: RegExp) =>
    assert.throws(() => openLockDirectory(path, uid), (e: unknown) => {
      assert.ok(e instanceof StoreSetupError);
      assert.equal(e.variable, "PO_LOCK_DIR");
      assert.match(
        e.message,
        new RegExp(`^PO_LOCK_DIR: cannot use the lock directory ${path}: ${why.source}`),
      );
      assert.ok(!e.message.includes("\n"));
      return true;
    });
  await t.step("a missing one is created, mode 0700 (its parent must exist)", () => {
    openLockDirectory(`${f.base}/made`, uid);
    assert.equal(Deno.lstatSync(`${f.base}/made`).mode! & 0o7777, 0o700);
    refused(`${f.base}/no/such`, /its parent .* does not exist$/);
  });
  await t.step("a symlink, even to a good directory", () => {
    Deno.symlinkSync(`${f.base}/made`, `${f.base}/link`);
    refused(`${f.base}/link`, /it is a symbolic link/);
  });
  await t.step("a file", () => {
    Deno.writeTextFileSync(`${f.base}/file`, "");
    refused(`${f.base}/file`, /it is not a directory$/);
  });
  await t.step("writable by others and not sticky; sticky is fine", () => {
    Deno.mkdirSync(`${f.base}/open`);
    Deno.chmodSync(`${f.base}/open`, 0o777);
    refused(`${f.base}/open`, /others may write it \(mode 777\) and it is not sticky/);
    Deno.chmodSync(`${f.base}/open`, 0o1777);
    assert.equal(openLockDirectory(`${f.base}/open`, uid).kind, "directory");
  });
  await t.step("owned by another user (a squatter of the default name)", () => {
    Deno.mkdirSync(`${f.base}/theirs`, { mode: 0o700 });
    // Another uid than ours: as root, the directory is given away; otherwise we claim to be someone else.
    if (uid === 0) Deno.chownSync(`${f.base}/theirs`, 4242, 4242);
    const claimed = uid === 0 ? 0 : uid + 1;
    assert.throws(() => openLockDirectory(`${f.base}/theirs`, uid === 0 ? 4243 : claimed), StoreSetupError);
    if (uid === 0) refused(`${f.base}/theirs`, /it belongs to another user \(uid 4242\)/);
  });
  await t.step("nothing is created for a refused directory", () => {
    assert.deepEqual(names(f.base), ["file", "link", "made", "open", "root", "theirs"]);
  });
});

Deno.test("PO_LOCK_DIR: default per user in /tmp, beside, or an absolute path; permissions follow it", () => {
  const defaults = { defaultPoRoots: ["/srv/po"], cwd: "/", uid: () => 1000 };
  const c = parseConfig({}, defaults);
  assert.equal(c.poLockDir, "/tmp/po-tools-locks-1000");
  assert.deepEqual(permissionFlags(c, "mcp"), [
    "--allow-read=/srv/po,/tmp/po-tools-locks-1000",
    "--allow-write=/srv/po,/tmp/po-tools-locks-1000",
    "--allow-net=tiponet.tipo.gov.tw:443",
    permissionFlags(c, "mcp")[3],
    "--allow-sys=uid",
  ]);
  assert.equal(parseConfig({ PO_LOCK_DIR: "/run/lock/po/" }, defaults).poLockDir, "/run/lock/po");
  const beside = parseConfig({ PO_LOCK_DIR: "beside" }, { ...defaults, uid: () => assert.fail("not asked") });
  assert.equal(beside.poLockDir, null);
  assert.deepEqual(permissionFlags(beside, "mcp").slice(0, 2), [
    "--allow-read=/srv/po",
    "--allow-write=/srv/po",
  ]);
  assert.equal(permissionFlags(beside, "mcp").length, 4);
  for (
    const [value, message] of [
      ["locks", /^PO_LOCK_DIR: must be an absolute directory or "beside" \(got "locks"\)$/],
      ["/a,b", /^PO_LOCK_DIR: a directory name must not contain ","/],
    ] as const
  ) {
    assert.throws(() => parseConfig({ PO_LOCK_DIR: value }, defaults), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, message);
      return true;
    });
  }
  assert.throws(
    () =>
      parseConfig({}, {
        ...defaults,
        uid: () => {
          throw new Deno.errors.NotCapable("Requires sys access");
        },
      }),
    /^ConfigError: PO_LOCK_DIR: the default lock directory is named after the user id, which this process may not read \(run it with --allow-sys=uid, or set PO_LOCK_DIR\)$/,
  );
});

Deno.test("useLockDirectory: beside restores the old placement; a lock directory is opened and checked", async () => {
  await using f = await fixture();
  const before = lockPlacement();
  try {
    assert.equal(useLockDirectory("beside"), LOCKS_BESIDE_PLACEMENT);
    const placement = useLockDirectory(f.locks);
    assert.equal(placement.kind === "directory" && placement.path, f.locks);
    assert.equal(lockPlacement(), placement);
    assert.throws(() => useLockDirectory("relative"), StoreSetupError);
  } finally {
    setLockPlacement(before);
  }
});

Deno.test("checkRoots: a root that does not exist, is not a directory or cannot be listed stops the start-up with one line", async () => {
  await using f = await fixture();
  checkRoots([f.root]);
  Deno.writeTextFileSync(`${f.base}/file`, "");
  for (
    const [root, why] of [
      ["/nonexistent", "does not exist"],
      [`${f.base}/file`, "is not a directory"],
    ] as const
  ) {
    assert.throws(() => checkRoots([f.root, root]), (e: unknown) => {
      assert.ok(e instanceof StoreSetupError);
      assert.equal(e.message, `PO_ROOTS: catalogue root ${root} ${why}`);
      return true;
    });
    assert.throws(
      () =>
        prepareStore(parseConfig({ PO_ROOTS: root, PO_LOCK_DIR: f.locks }, { defaultPoRoots: [], cwd: "/" })),
      (e: unknown) => e instanceof ConfigError && e.message === `PO_ROOTS: catalogue root ${root} ${why}`,
    );
  }
  assert.deepEqual(names(f.base), ["file", "root"], "no lock directory is made for a refused configuration");
});

Deno.test("the 403 message names the configured roots", async () => {
  await using f = await fixture();
  const other = `${f.base}/other`;
  await Deno.mkdir(other);
  const store = new CatalogueStore({ roots: [f.root, `${other}/`], codec: lineCodec() });
  await assert.rejects(
    () => store.read("/etc/x.po"),
    OutsideRootsError,
    `Path is outside the catalogue roots (${f.root}, ${other}): /etc/x.po`,
  );
});

async function runMain(args: string[], env: Record<string, string>, perms: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...perms, MAIN, ...args],
    env: { ...env, NO_COLOR: "1" },
    stdin: "null",
    // Before the check, the server started silently and would wait here forever.
    signal: AbortSignal.timeout(30_000),
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("main.ts serve and mcp with a root that does not exist exit 2 with one line", async () => {
  await using f = await fixture();
  for (const mode of ["serve", "mcp"]) {
    const r = await runMain([mode], { PO_ROOTS: `${f.base}/nonexistent`, PO_LOCK_DIR: f.locks, PORT: "1" }, [
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys=uid",
      "--allow-net=127.0.0.1",
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      `configuration error: PO_ROOTS: catalogue root ${f.base}/nonexistent does not exist\n`,
    );
  }
  assert.deepEqual(names(f.base), ["root"]);
});
