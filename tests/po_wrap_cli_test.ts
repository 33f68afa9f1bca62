import assert from "node:assert/strict";
import { runWrap, WRAP_USAGE, type WrapIo } from "../cli/wrap/command.ts";
import { unifiedDiff } from "../lib/po/mod.ts";
import { NotRegularFileError } from "../lib/regular_read.ts";
import { MAX_WRAP_FILES } from "../lib/po/operations/tree_walk.ts";

const FIXTURES = new URL("./fixtures/po/", import.meta.url);

const LAID_OUT = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';
const UNWRAPPED =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\n\nmsgid "a"\nmsgstr "b"';

/** An in-memory file system and captured output. */
function fakeIo(files: Record<string, string | Uint8Array>) {
  const fs = new Map<string, Uint8Array>();
  for (const [k, v] of Object.entries(files)) {
    fs.set(k, typeof v === "string" ? new TextEncoder().encode(v) : v);
  }
  const out: string[] = [];
  const err: string[] = [];
  const written: string[] = [];
  const io: WrapIo = {
    readFile: (path) => {
      const b = fs.get(path);
      return b ? Promise.resolve(b) : Promise.reject(new Deno.errors.NotFound(`no ${path}`));
    },
    writeFile: (path, bytes) => {
      written.push(path);
      fs.set(path, bytes);
      return Promise.resolve();
    },
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
  };
  const text = (path: string) => new TextDecoder().decode(fs.get(path));
  return { io, fs, out, err, written, text };
}

Deno.test("wrap rewrites the files that change, in place", async () => {
  const f = fakeIo({ "a.po": UNWRAPPED, "b.po": LAID_OUT });
  assert.equal(await runWrap(["a.po", "b.po"], f.io), 0);
  assert.deepEqual(f.written, ["a.po"]);
  assert.equal(f.text("a.po"), LAID_OUT);
  assert.deepEqual([f.out, f.err], [[], []]);
});

Deno.test("wrap reads ahead up to 16 files, and never more bytes than its read-ahead budget", async () => {
  /** Runs `--check` over `count` files said to be `size` bytes; the most reads in progress at once. */
  async function mostReads(count: number, size: number): Promise<number> {
    const names = Array.from({ length: count }, (_, k) => `f${k}.po`);
    const f = fakeIo(Object.fromEntries(names.map((name) => [name, LAID_OUT])));
    let reading = 0;
    let most = 0;
    const read = f.io.readFile;
    f.io.readFile = async (path) => {
      most = Math.max(most, ++reading);
      await new Promise((resolve) => setTimeout(resolve, 1));
      reading--;
      return read(path);
    };
    f.io.fileSize = () => size;
    assert.equal(await runWrap(["--check", ...names], f.io), 0);
    assert.deepEqual(f.err, []);
    return most;
  }
  assert.equal(await mostReads(40, 30_000), 16);
  assert.equal(await mostReads(40, 5 * 1024 * 1024), 3); // 16 MiB at most
  assert.equal(await mostReads(6, 100 * 1024 * 1024), 1); // one at a time, each alone
});

Deno.test("wrap --check lists the files that would change and writes nothing", async () => {
  const f = fakeIo({ "a.po": UNWRAPPED, "b.po": LAID_OUT });
  assert.equal(await runWrap(["--check", "a.po", "b.po"], f.io), 1);
  assert.deepEqual(f.err, ["Would rewrap: a.po\n"]);
  assert.deepEqual(f.written, []);
  const clean = fakeIo({ "b.po": LAID_OUT });
  assert.equal(await runWrap(["--check", "b.po"], clean.io), 0);
});

Deno.test("wrap --check and a rewrite agree on every file, whichever way it is read", async () => {
  // Read by its own lines and laid out (laid_out.ts), read by its own lines and found to change
  // (a "# " comment msgcat prints as "#"), or left to the full reader (extra blank lines; a
  // duplicate and a "#| msgctxt" without "#| msgid", which msgcat refuses, in shapes it prints).
  const files = {
    "a.po": UNWRAPPED,
    "b.po": LAID_OUT,
    "c.po": LAID_OUT.replace('msgid "a"', '# \nmsgid "a"'),
    "d.po": LAID_OUT + '\nmsgid "a"\nmsgstr "c"\n',
    "e.po": LAID_OUT.replace('msgid "a"', '#| msgctxt "x"\nmsgid "a"'),
  };
  const names = Object.keys(files);
  const check = fakeIo(files);
  assert.equal(await runWrap(["--check", ...names], check.io), 2);
  assert.deepEqual(check.err.slice(0, 2), ["Would rewrap: a.po\n", "Would rewrap: c.po\n"]);
  assert.match(check.err[2]!, /^wrap: d\.po:7:1: duplicate message definition \(first defined at line 4\)/);
  assert.match(check.err[3]!, /^wrap: e\.po:\d+:\d+: syntax error/);
  assert.equal(check.err.length, 4);
  assert.deepEqual(check.written, []);
  const rewrite = fakeIo(files);
  assert.equal(await runWrap(names, rewrite.io), 2);
  assert.deepEqual(rewrite.err, check.err.slice(2));
  assert.deepEqual(rewrite.written, ["a.po", "c.po"]);
  assert.equal(rewrite.text("a.po"), LAID_OUT);
  assert.equal(rewrite.text("c.po"), LAID_OUT.replace('msgid "a"', '#\nmsgid "a"'));
});

Deno.test("wrap --diff prints a unified diff and writes nothing", async () => {
  const f = fakeIo({ "a.po": UNWRAPPED });
  assert.equal(await runWrap(["--diff", "a.po"], f.io), 1);
  assert.deepEqual(f.written, []);
  assert.equal(
    f.out.join(""),
    "--- a.po\n+++ a.po\n" +
      '@@ -1,8 +1,5 @@\n msgid ""\n-msgstr ""\n-"Content-Type: text/plain; charset=UTF-8\\n"\n+msgstr "Content-Type: text/plain; charset=UTF-8\\n"\n \n-\n-\n' +
      ' msgid "a"\n-msgstr "b"\n\\ No newline at end of file\n+msgstr "b"\n',
  );
});

Deno.test("wrap --stdout prints the laid-out files", async (t) => {
  await t.step("as text", async () => {
    const f = fakeIo({ "a.po": UNWRAPPED });
    assert.equal(await runWrap(["--stdout", "a.po"], f.io), 0);
    assert.deepEqual(f.out, [LAID_OUT]);
    assert.deepEqual(f.written, []);
  });
  await t.step("as the file's own bytes when the host can write bytes", async () => {
    const latin = Deno.readFileSync(new URL("latin1.in.po", FIXTURES));
    const f = fakeIo({ "l.po": latin });
    const chunks: Uint8Array[] = [];
    f.io.stdoutBytes = (b) => chunks.push(b);
    assert.equal(await runWrap(["--stdout", "l.po"], f.io), 0);
    assert.deepEqual(chunks, [Deno.readFileSync(new URL("latin1.out.po", FIXTURES))]);
  });
  await t.step("--no-wrap", async () => {
    const f = fakeIo({ "w.po": Deno.readFileSync(new URL("wrapping.in.po", FIXTURES)) });
    assert.equal(await runWrap(["--stdout", "--no-wrap", "w.po"], f.io), 0);
    assert.equal(f.out.join(""), Deno.readTextFileSync(new URL("wrapping.nowrap.out.po", FIXTURES)));
  });
});

Deno.test("wrap reports invalid input with file, line and column, and still rewrites the other files", async () => {
  const f = fakeIo({
    "a.po": UNWRAPPED,
    "bad.po": 'msgid "a"\nmsgstr "b\n',
    "dup.po": 'msgid "a"\nmsgstr ""\nmsgid "a"\nmsgstr ""\n',
  });
  assert.equal(await runWrap(["a.po", "bad.po", "dup.po", "missing.po"], f.io), 2);
  assert.deepEqual(f.err, [
    "wrap: bad.po:2:10: end-of-line within string\n",
    "wrap: dup.po:3:1: duplicate message definition (first defined at line 1)\n",
    "wrap: missing.po: no such file\n",
  ]);
  assert.deepEqual(f.written, ["a.po"], "a.po is still rewritten, as powrap would");
  assert.equal(f.text("a.po"), LAID_OUT);
});

Deno.test("wrap --help and usage errors", async (t) => {
  await t.step("--help", async () => {
    const f = fakeIo({});
    assert.equal(await runWrap(["--help"], f.io), 0);
    assert.deepEqual(f.out, [WRAP_USAGE]);
  });
  const cases: [string[], string, number][] = [
    [[], "wrap: no PATH given\n", 1], // powrap prints its help and exits 1
    [["--modifed", "a.po"], 'wrap: unknown option "--modifed"; did you mean --modified?\n', 2],
    [["--stdout", "--check", "a.po"], "wrap: --stdout cannot be combined with --check or --diff\n", 2],
    [["-m", "a.po"], "wrap: --modified is not available here\n", 2],
  ];
  for (const [args, message, status] of cases) {
    await t.step(args.join(" ") || "no arguments", async () => {
      const f = fakeIo({ "a.po": LAID_OUT });
      assert.equal(await runWrap(args, f.io), status);
      assert.equal(f.err.join(""), status === 2 && args[0] === "-m" ? message : `${message}\n${WRAP_USAGE}`);
    });
  }
  await t.step("-- ends the options", async () => {
    const f = fakeIo({ "--check": UNWRAPPED });
    assert.equal(await runWrap(["--", "--check"], f.io), 0);
    assert.deepEqual(f.written, ["--check"]);
  });
});

Deno.test("unifiedDiff output applies as a patch would", async (t) => {
  const cases: [string, string, string][] = [
    ["equal", "a\nb\n", "a\nb\n"],
    ["change in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n"],
    [
      "two distant hunks",
      Array.from({ length: 30 }, (_, i) => `${i}\n`).join(""),
      "x\n" + Array.from({ length: 29 }, (_, i) => `${i + 1}\n`).join("") + "y\n",
    ],
    ["all different", "a\nb\n", "c\nd\ne\n"],
    ["insert only", "a\nb\n", "a\nx\nb\n"],
  ];
  for (const [name, before, after] of cases) {
    await t.step(name, () => assert.equal(applyPatch(before, unifiedDiff(before, after, "f")), after));
  }
});

/** A minimal unified-diff applier (for files ending with a newline). */
function applyPatch(before: string, diff: string): string {
  if (diff === "") return before;
  const a = before.split("\n").slice(0, -1);
  const out: string[] = [];
  let at = 0;
  const lines = diff.split("\n").slice(2, -1);
  for (const line of lines) {
    const hunk = line.match(/^@@ -(\d+),(\d+) \+\d+,\d+ @@$/);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (at < start) out.push(a[at++] ?? "");
      continue;
    }
    if (line.startsWith(" ")) {
      assert.equal(a[at], line.slice(1));
      out.push(a[at++]!); // just compared equal to a line
    } else if (line.startsWith("-")) {
      assert.equal(a[at], line.slice(1));
      at++;
    } else if (line.startsWith("+")) out.push(line.slice(1));
  }
  while (at < a.length) out.push(a[at++]!); // at < a.length
  return out.map((l) => l + "\n").join("");
}

Deno.test("wrap names a file that is not a regular file in one line", async () => {
  const f = fakeIo({ "a.po": UNWRAPPED });
  f.io.readFile = (path) =>
    path === "a.po"
      ? Promise.resolve(f.fs.get(path)!)
      : Promise.reject(new NotRegularFileError(path, "a FIFO"));
  assert.equal(await runWrap(["a.po", "fifo.po"], f.io), 2);
  assert.deepEqual(f.err, ["wrap: fifo.po: not a regular file (a FIFO)\n"]);
  assert.deepEqual(f.written, ["a.po"], "the other file is still formatted");
});

Deno.test("main.ts wrap refuses a FIFO and /dev/zero, walks past a FIFO inside a directory, and still formats the rest", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "wrap_cli_" }));
  try {
    const fifo = `${dir}/fifo.po`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output().catch(() => null);
    await Deno.mkdir(`${dir}/dir.po`);
    // A PATH that names a directory is walked: the FIFO in it is skipped, never opened.
    if (made?.success) await new Deno.Command("mkfifo", { args: [`${dir}/dir.po/inner.po`] }).output();
    await Deno.writeTextFile(`${dir}/good.po`, UNWRAPPED);
    const files = [...(made?.success ? [fifo] : []), "/dev/zero", `${dir}/dir.po`, `${dir}/good.po`];
    if (!made?.success) console.log("FIFO case skipped: mkfifo(1) not available");
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        // The default lock directory (PO_LOCK_DIR unset) is named after the user id.
        `--allow-read=${dir},/dev/zero,/tmp/po-tools-locks-${Deno.uid()}`,
        `--allow-write=${dir},/tmp/po-tools-locks-${Deno.uid()}`,
        "--allow-sys=uid",
        new URL("../main.ts", import.meta.url).pathname,
        "wrap",
        ...files,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // A hang fails the test (and the child is killed) instead of hanging it.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const out = await child.output();
    clearTimeout(timer);
    assert.equal(out.signal, null, "wrap hung and was killed");
    assert.equal(out.code, 2);
    const expected = [
      ...(made?.success ? [`wrap: ${fifo}: not a regular file (a FIFO)`] : []),
      "wrap: /dev/zero: not a regular file (a character device)",
    ];
    assert.deepEqual(new TextDecoder().decode(out.stderr).trimEnd().split("\n"), expected);
    assert.equal(await Deno.readTextFile(`${dir}/good.po`), LAID_OUT, "the other FILE is still formatted");
    assert.deepEqual(
      // (A lock file the store may keep beside a written file is not a catalogue: left out.)
      [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !n.endsWith(".lock")).sort(),
      [...(made?.success ? ["dir.po", "fifo.po"] : ["dir.po"]), "good.po"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrap stops with one line when a walk finds more files than one run takes", async () => {
  const f = fakeIo({});
  f.io.pathKind = (path) => Promise.resolve(path === "big" ? "directory" : "other");
  f.io.readDir = () =>
    Promise.resolve(
      Array.from({ length: MAX_WRAP_FILES + 1 }, (_, i) => ({ name: `${i}.po`, kind: "file" as const })),
    );
  assert.equal(await runWrap(["--check", "big"], f.io), 2);
  assert.deepEqual(f.err, [`wrap: more than ${MAX_WRAP_FILES} files in one run\n`]);
});

Deno.test("wrap over several files reports progress per file, clears it before a message, and not when quiet", async () => {
  const f = fakeIo({ "a.po": UNWRAPPED, "b.po": LAID_OUT, "c.po": UNWRAPPED });
  const events: string[] = [];
  f.io.progress = (files) => {
    events.push(`start ${files}`);
    return {
      tick: () => events.push("tick"),
      clear: () => events.push("clear"),
      done: () => events.push("done"),
    };
  };
  const stderr = f.io.stderr;
  f.io.stderr = (t) => (events.push(`stderr ${t.trim()}`), stderr(t));
  assert.equal(await runWrap(["--check", "a.po", "b.po", "c.po"], f.io), 1);
  assert.deepEqual(events, [
    "start 3",
    "tick",
    "clear",
    "stderr Would rewrap: a.po",
    "tick",
    "tick",
    "clear",
    "stderr Would rewrap: c.po",
    "done",
  ]);
  events.length = 0;
  assert.equal(await runWrap(["--quiet", "a.po", "b.po"], f.io), 0);
  assert.equal(await runWrap(["--stdout", "b.po", "c.po"], f.io), 0);
  assert.deepEqual(events, [], "no progress with --quiet or --stdout");
});

Deno.test("outside a repository, the few files detection reads are laid out without a second read", async () => {
  const files = { "a.po": UNWRAPPED, "b.po": LAID_OUT };
  const f = fakeIo(files);
  const reads: string[] = [];
  const read = f.io.readFile;
  f.io.readFile = (path) => {
    reads.push(path);
    return read(path);
  };
  const forgotten: string[] = [];
  f.io.forget = (path) => forgotten.push(path);
  assert.equal(await runWrap(["a.po", "b.po"], f.io), 0);
  assert.deepEqual(reads, ["a.po", "b.po"]);
  assert.deepEqual(f.written, ["a.po"]);
  // The same bytes as when every file is read for its layout (a generation given: no detection).
  const given = fakeIo(files);
  assert.equal(await runWrap(["--gettext=0.21", "a.po", "b.po"], given.io), 0);
  assert.equal(f.text("a.po"), given.text("a.po"));
  assert.deepEqual(forgotten, ["b.po"]); // a.po is rewritten: the host drops it at the write
});
