/**
 * The git runner is the service's one process edge: only read-only subcommands, nothing a
 * repository's configuration names is run, no GIT_* variable of the service reaches git, a planted
 * bare repository is not taken for a checkout, output and time are bounded. And the permission
 * flags grant `--allow-run=git` only when a root is in a checkout.
 */
import assert from "node:assert/strict";
import { TimeoutError, TooLargeError } from "../lib/errors.ts";
import { changesSince, entryHistory, GitFailedError, VersionCache } from "../lib/history/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { parseConfig, permissionFlags } from "../lib/config.ts";
import { inGitCheckout } from "../cli/server_config.ts";
import { gitRunner, MAX_GIT_PROCESSES, runningGitProcesses } from "../routes/git_runner.ts";
import { git } from "./_git_history.ts";

const PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';

async function repo() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-runner-" }));
  await git(dir, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(`${dir}/fr.po`, PO);
  await git(dir, ["add", "."]);
  await git(dir, ["commit", "-qm", "one"]);
  return dir;
}

Deno.test("the runner runs only the read-only subcommands", async () => {
  const dir = await repo();
  try {
    const runner = gitRunner();
    for (const args of [["config", "core.pager", "x"], ["commit", "-m", "x"], ["-c", "a=b", "log"], ["gc"]]) {
      await assert.rejects(runner.run(dir, args, { maxBytes: 1000 }), GitFailedError, args.join(" "));
    }
    const head = await runner.run(dir, ["rev-parse", "HEAD"], { maxBytes: 100 });
    assert.match(new TextDecoder().decode(head), /^[0-9a-f]{40}\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a repository's configuration runs nothing: fsmonitor, external diff, pager", async () => {
  const dir = await repo();
  const marker = `${dir}.ran`;
  const hook = `${dir}.hook.sh`;
  try {
    await Deno.writeTextFile(hook, `#!/bin/sh\ntouch '${marker}'\n`);
    await Deno.chmod(hook, 0o755);
    for (const [key, value] of [["core.fsmonitor", hook], ["diff.external", hook], ["core.pager", hook]]) {
      await git(dir, ["config", key!, value!]);
    }
    // Plain git runs the fsmonitor hook on a diff of the working tree: the premise of this test.
    await Deno.writeTextFile(`${dir}/fr.po`, PO.replace('"b"', '"c"'));
    await git(dir, ["diff", "--raw", "HEAD"]);
    assert.ok(await Deno.stat(marker).then(() => true, () => false), "git itself runs the hook");
    await Deno.remove(marker);
    const found = await changesSince(
      gitRunner(),
      new VersionCache(),
      [{ cwd: dir, pathspec: ".", filePath: (rel) => `${dir}/${rel}` }],
      "HEAD",
      async (path) => PO_CODEC.parse(await Deno.readFile(path), path),
      { maxBlobBytes: 1 << 20 },
    );
    assert.equal(found.catalogues[0]?.counts.retranslated, 1);
    await entryHistory(gitRunner(), new VersionCache(), {
      cwd: dir,
      fileName: "fr.po",
      msgctxt: null,
      msgid: "a",
    }, {
      maxBlobBytes: 1 << 20,
    });
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "nothing was run");
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(hook).catch(() => {});
    await Deno.remove(marker).catch(() => {});
  }
});

Deno.test("the service's GIT_* variables do not reach git", async () => {
  const dir = await repo();
  const before = Deno.env.get("GIT_DIR");
  try {
    Deno.env.set("GIT_DIR", "/nonexistent-h6");
    const out = await gitRunner().run(dir, ["rev-parse", "--show-toplevel"], { maxBytes: 4096 });
    assert.equal(new TextDecoder().decode(out).trim(), dir);
  } finally {
    if (before === undefined) Deno.env.delete("GIT_DIR");
    else Deno.env.set("GIT_DIR", before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bare repository planted in a root is no checkout: it has no history", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-planted-" }));
  try {
    const planted = `${root}/fr`;
    await git(root, ["init", "-q", "--bare", planted]);
    await Deno.writeTextFile(`${planted}/fr.po`, PO);
    const got = await entryHistory(gitRunner(), new VersionCache(), {
      cwd: planted,
      fileName: "fr.po",
      msgctxt: null,
      msgid: "a",
    }, { maxBlobBytes: 1 << 20 });
    assert.deepEqual(got.commits, []);
    assert.match(got.reason!, /no git checkout/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("output and time are bounded: too much output, too long a run", async () => {
  const dir = await repo();
  try {
    const runner = gitRunner();
    await assert.rejects(runner.run(dir, ["log", "-p"], { maxBytes: 10 }), TooLargeError);
    const slow = gitRunner({ timeLimitMs: 1 });
    await assert.rejects(slow.run(dir, ["log", "-p"], { maxBytes: 1 << 20 }), TimeoutError);
    const gone = new AbortController();
    gone.abort(new Error("the client left"));
    await assert.rejects(runner.run(dir, ["log"], { maxBytes: 1 << 20, signal: gone.signal }), /client left/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--allow-run=git is granted only when a root is in a git checkout", async () => {
  const dir = await repo();
  const plain = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-plain-" }));
  try {
    await Deno.mkdir(`${dir}/locales/fr`, { recursive: true });
    assert.equal(inGitCheckout(`${dir}/locales/fr`), true);
    assert.equal(inGitCheckout(plain), false);
    const config = parseConfig({ PO_ROOTS: plain }, { defaultPoRoots: [], cwd: "/" });
    assert.ok(!permissionFlags(config, "serve").includes("--allow-run=git"));
    assert.ok(permissionFlags(config, "mcp", { git: true }).includes("--allow-run=git"));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(plain, { recursive: true });
  }
});

Deno.test("a clone missing another file's blob: the history without renames followed, said so", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-missing-" }));
  try {
    await git(dir, ["init", "-q", "-b", "main"]);
    const old = PO.replace('"b"', '"old"') + '\nmsgid "padding"\nmsgstr "so that the rename is found"\n';
    await Deno.writeTextFile(`${dir}/old.po`, old);
    await git(dir, ["add", "."]);
    await git(dir, ["commit", "-qm", "one"]);
    await git(dir, ["mv", "old.po", "fr.po"]);
    await Deno.writeTextFile(`${dir}/fr.po`, old.replace('"old"', '"mid"'));
    await git(dir, ["commit", "-qam", "rename, edited"]);
    await Deno.writeTextFile(`${dir}/fr.po`, old.replace('"old"', '"new"'));
    await git(dir, ["commit", "-qam", "two"]);
    // The blob of the first version is lost (as in a damaged or partial clone).
    const oid = (await git(dir, ["rev-parse", "HEAD~2:old.po"])).trim();
    await Deno.remove(`${dir}/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`);
    const got = await entryHistory(gitRunner(), new VersionCache(), {
      cwd: dir,
      fileName: "fr.po",
      msgctxt: null,
      msgid: "a",
    }, { maxBlobBytes: 1 << 20 });
    assert.match(got.reason ?? "", /renames not followed/);
    assert.deepEqual(got.commits.map((c) => [c.before?.msgstr ?? null, c.after?.msgstr]), [["mid", "new"], [
      null,
      "mid",
    ]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("at most MAX_GIT_PROCESSES git processes run at once; a waiting request that ends stops waiting", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-turns-" }));
  try {
    // A stand-in for git that takes its time.
    await Deno.writeTextFile(`${dir}/slow-git`, "#!/bin/sh\nsleep 1\n");
    await Deno.chmod(`${dir}/slow-git`, 0o755);
    const slow = gitRunner({ executable: `${dir}/slow-git` });
    const busy = Array.from(
      { length: MAX_GIT_PROCESSES + 2 },
      () => slow.run(dir, ["log"], { maxBytes: 100 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(runningGitProcesses(), MAX_GIT_PROCESSES);
    const gone = new AbortController();
    const waiting = slow.run(dir, ["log"], { maxBytes: 100, signal: gone.signal });
    gone.abort(new Error("the request ended"));
    await assert.rejects(waiting, /the request ended/);
    await Promise.all(busy);
    assert.equal(runningGitProcesses(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
