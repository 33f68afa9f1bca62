import assert from "node:assert/strict";
import { collectWrapTargets, filesUnder } from "../lib/po/operations/tree_walk.ts";
import { pathKind, readDirEntries } from "../cli/tree_host.ts";
import { runDenoWithin } from "./_run_main.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const LAID_OUT = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';
const UNWRAPPED =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\nmsgid "a"\nmsgstr "b"\n';
const decoder = new TextDecoder();

/** Runs `main.ts wrap ARGS` in `cwd` with the given permissions; a hang fails instead of hanging. */
async function wrap(
  cwd: string,
  args: string[],
  permissions = ["--allow-read", "--allow-write", "--allow-sys=uid"],
) {
  const out = await runDenoWithin(
    ["run", "--quiet", "--no-prompt", ...permissions, MAIN, "wrap", ...args],
    30_000,
    cwd,
  );
  assert.equal(out.signal, null, "wrap hung and was killed");
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, `git ${args.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

async function hasGit(): Promise<boolean> {
  // In a then: a missing program makes the spawn throw at once, not reject.
  return await Promise.resolve().then(() =>
    new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" }).output()
  ).then((o) => o.success).catch(() => false);
}

/** A temp directory holding `files` (path → content; content null makes a directory). */
async function tree(files: Record<string, string | null>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wrap_tree_" }));
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    if (content === null) await Deno.mkdir(full, { recursive: true });
    else {
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, content);
    }
  }
  return dir;
}

Deno.test("a directory stands for its *.po files, in name order, without hidden entries, templates or links", async () => {
  const outside = await tree({ "elsewhere.po": UNWRAPPED });
  const dir = await tree({
    "b/z.po": UNWRAPPED,
    "b/a.po": LAID_OUT,
    "a.po": LAID_OUT,
    "c/d/deep.po": UNWRAPPED,
    "messages.pot": UNWRAPPED,
    "readme.txt": "not a catalogue",
    ".git/x.po": UNWRAPPED,
    ".hidden.po": UNWRAPPED,
    "empty": null,
  });
  try {
    await Deno.symlink(outside, `${dir}/linked_dir`);
    await Deno.symlink(`${outside}/elsewhere.po`, `${dir}/linked.po`);
    const { files, failures } = await collectWrapTargets(["."], {
      pathKind: (p) => pathKind(`${dir}/${p}`),
      readDir: (p) => readDirEntries(`${dir}/${p}`),
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(files, ["a.po", "b/a.po", "b/z.po", "c/d/deep.po"]);

    // The same through main.ts, from inside the tree: reports per file, relative to the caller.
    // --check writes nothing and takes no lock: read permission alone is enough.
    const check = await wrap(dir, ["--check", "."], ["--allow-read"]);
    assert.deepEqual([check.code, check.stderr], [1, "Would rewrap: b/z.po\nWould rewrap: c/d/deep.po\n"]);
    // A named hidden file, template or link is taken as any FILE is; one named twice is done once.
    const named = await wrap(dir, ["--check", ".hidden.po", "messages.pot", "linked.po", "b", "b/z.po"]);
    assert.equal(named.code, 1);
    assert.deepEqual(named.stderr.trimEnd().split("\n"), [
      "Would rewrap: .hidden.po",
      "Would rewrap: messages.pot",
      "Would rewrap: linked.po",
      "Would rewrap: b/z.po",
    ]);
    const fixed = await wrap(dir, ["."]);
    assert.deepEqual([fixed.code, fixed.stdout, fixed.stderr], [0, "", ""]);
    assert.equal(await Deno.readTextFile(`${dir}/c/d/deep.po`), LAID_OUT);
    assert.equal(await Deno.readTextFile(`${dir}/.git/x.po`), UNWRAPPED, "hidden directories are left alone");
    assert.equal(await Deno.readTextFile(`${outside}/elsewhere.po`), UNWRAPPED, "links are not followed");
    const empty = await wrap(dir, ["--check", "empty"]);
    assert.deepEqual([empty.code, empty.stdout], [0, "Nothing to do, exiting.\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("filesUnder keeps the files inside the given paths only", async () => {
  const files = ["a.po", "locales/fr/x.po", "locales/frx.po", "../up.po"];
  assert.deepEqual(await filesUnder(files, []), files);
  assert.deepEqual(await filesUnder(files, ["locales/fr"]), ["locales/fr/x.po"]);
  assert.deepEqual(await filesUnder(files, ["./a.po", "locales/"]), [
    "a.po",
    "locales/fr/x.po",
    "locales/frx.po",
  ]);
  assert.deepEqual(await filesUnder(files, ["."]), ["a.po", "locales/fr/x.po", "locales/frx.po"]);
});

Deno.test("a broken catalogue in a tree is reported as msgcat reports it, and the rest is still formatted", async () => {
  const broken: Record<string, string> = {
    "eol.po": 'msgid "a"\nmsgstr "b\n',
    "dup.po": 'msgid "a"\nmsgstr ""\n\nmsgid "a"\nmsgstr "x"\n',
    "keyword.po": 'msgid "a"\nmsgstr "b"\nmsgfoo "c"\n',
    "escape.po": 'msgid "a"\nmsgstr "\\q"\n',
    "nostr.po": 'msgid "a"\n',
  };
  const dir = await tree({ ...broken, "ok/good.po": UNWRAPPED });
  try {
    const run = await wrap(dir, ["."]);
    assert.equal(run.code, 2);
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 5, run.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/ok/good.po`), LAID_OUT, "the good file is still formatted");
    // In a then: a missing program makes the spawn throw at once, not reject.
    const msgcat = await Promise.resolve().then(() =>
      new Deno.Command("msgcat", { args: ["--version"], stdout: "null", stderr: "null" }).output()
    ).then((o) => o.success).catch(() => false);
    if (!msgcat) {
      console.log("msgcat comparison not run: msgcat is not installed (apt-get install gettext)");
      return;
    }
    // Ours: "wrap: FILE:LINE:COLUMN: REASON". msgcat's first line for the file: "FILE:LINE[:COLUMN]:
    // REASON" — the same reason (a duplicate's ends in "..." where ours names the first line), and
    // the same position where msgcat gives a column. Where it gives none, its line can be the next
    // one (an end-of-line within a string is counted after the newline): ours points at the column.
    const positionless: string[] = [];
    for (const line of lines) {
      const [, file = "", at = "", reason = ""] = /^wrap: ([^:]+):(\d+:\d+): (.*)$/.exec(line)!;
      const out = await new Deno.Command("msgcat", {
        args: [file],
        cwd: dir,
        stdout: "null",
        stderr: "piped",
      })
        .output();
      assert.equal(out.success, false, file);
      const first = decoder.decode(out.stderr).split("\n")[0]?.replace(/^msgcat: /, "") ?? "";
      const [, theirFile, theirAt = "", theirReason = ""] = /^([^:]+):(\d+(?::\d+)?): (.*)$/.exec(first)!;
      assert.equal(theirFile, file);
      assert.ok(reason.startsWith(theirReason.replace(/\.\.\.$/, "")), `${line} | ${first}`);
      if (theirAt.includes(":")) assert.equal(at, theirAt, `${line} | ${first}`);
      else positionless.push(`${file} ${at} ${theirAt}`);
    }
    assert.deepEqual(positionless.sort(), [
      "dup.po 4:1 4",
      "eol.po 2:10 3",
      "keyword.po 3:1 3",
      "nostr.po 1:1 1",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--modified formats only the *.po files git reports as changed, from any subdirectory", async (t) => {
  if (!(await hasGit())) {
    console.log("not run: git is not installed");
    return;
  }
  const dir = await tree({
    "locales/fr/clean.po": UNWRAPPED,
    "locales/fr/edited.po": LAID_OUT,
    "locales/de/gone.po": LAID_OUT,
    "notes.txt": "x",
  });
  try {
    await git(dir, "init", "-q");
    await git(dir, "add", ".");
    await git(dir, "commit", "-q", "-m", "start");
    await Deno.writeTextFile(`${dir}/locales/fr/edited.po`, UNWRAPPED);
    await Deno.remove(`${dir}/locales/de/gone.po`);
    await Deno.mkdir(`${dir}/locales/es/new dir`, { recursive: true });
    await Deno.writeTextFile(`${dir}/locales/es/new dir/new "file".po`, UNWRAPPED);
    const withGit = ["--allow-read", "--allow-write", "--allow-sys=uid", "--allow-run=git"];

    await t.step("from the top, unmodified and deleted files are left out", async () => {
      const run = await wrap(dir, ["--check", "-m"], withGit);
      assert.equal(run.code, 1);
      assert.deepEqual(run.stderr.trimEnd().split("\n").sort(), [
        'Would rewrap: locales/es/new dir/new "file".po',
        "Would rewrap: locales/fr/edited.po",
      ]);
    });
    await t.step("from a subdirectory, paths are relative to it; PATHs narrow the set", async () => {
      // Without a PATH, the whole repository's modified files (as git status and powrap list them).
      const run = await wrap(`${dir}/locales/fr`, ["--check", "--modified"], withGit);
      assert.equal(run.code, 1);
      assert.deepEqual(run.stderr.trimEnd().split("\n").sort(), [
        'Would rewrap: ../es/new dir/new "file".po',
        "Would rewrap: edited.po",
      ]);
      const here = await wrap(`${dir}/locales/fr`, ["--check", "--modified", "."], withGit);
      assert.deepEqual([here.code, here.stderr], [1, "Would rewrap: edited.po\n"]);
      const narrowed = await wrap(dir, ["--check", "--modified", "locales/es"], withGit);
      assert.deepEqual([narrowed.code, narrowed.stderr], [
        1,
        'Would rewrap: locales/es/new dir/new "file".po\n',
      ]);
    });
    await t.step("without --allow-run=git it says which permission is missing", async () => {
      const run = await wrap(dir, ["--check", "-m"]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^wrap: --modified: --modified runs git: allow it with --allow-run=git/);
    });
    await t.step("outside a repository git's reason is given", async () => {
      const run = await wrap("/", ["--check", "-m"], withGit);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^wrap: --modified: git rev-parse failed: fatal: not a git repository/);
    });
    await t.step("rewrites them", async () => {
      const run = await wrap(dir, ["-m"], withGit);
      assert.deepEqual([run.code, run.stderr], [0, ""]);
      assert.equal(await Deno.readTextFile(`${dir}/locales/fr/edited.po`), LAID_OUT);
      assert.equal(
        await Deno.readTextFile(`${dir}/locales/fr/clean.po`),
        UNWRAPPED,
        "not modified: untouched",
      );
      const again = await wrap(dir, ["--check", "-m"], withGit);
      assert.deepEqual([again.code, again.stderr], [0, ""]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--jobs=2 lays out on worker threads with the same reports, order and rewrites as one thread", async () => {
  const files: Record<string, string> = { "bad.po": 'msgid "a"\nmsgstr "\\q"\n' };
  for (let i = 0; i < 6; i++) files[`d${i % 2}/f${i}.po`] = i % 3 === 0 ? LAID_OUT : UNWRAPPED;
  const dir = await tree(files);
  try {
    const one = await wrap(dir, ["--check", "--jobs=1", "."], ["--allow-read"]);
    const two = await wrap(dir, ["--check", "--jobs=2", "."], ["--allow-read"]);
    assert.deepEqual([two.code, two.stderr], [one.code, one.stderr]);
    assert.equal(two.code, 2);
    assert.equal(two.stderr.split("\n")[0], "wrap: bad.po:2:10: invalid control sequence");
    const fixed = await wrap(dir, ["--jobs=2", "."]);
    assert.equal(fixed.code, 2);
    for (let i = 0; i < 6; i++) assert.equal(await Deno.readTextFile(`${dir}/d${i % 2}/f${i}.po`), LAID_OUT);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
