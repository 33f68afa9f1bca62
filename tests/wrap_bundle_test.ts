/**
 * `lib/wrap_bundle/` is what `deno task wrap`, `bin/wrap` and the pre-commit hooks run:
 * `lib/cli/wrap_main.ts` bundled by `deno task bundle:wrap` (a few modules instead of ~50 saves
 * each run ~15 ms of Deno's per-module loading: bench/README.md#wrap). These tests fail when the
 * bundle is stale, and run it as users do, workers included.
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const BUNDLE_DIR = `${ROOT}lib/wrap_bundle`;
const BUNDLE = `${BUNDLE_DIR}/wrap_main.js`;
const SOURCE = `${ROOT}lib/cli/wrap_main.ts`;

async function filesOf(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
  }
  return files;
}

Deno.test("lib/wrap_bundle is lib/cli/wrap_main.ts bundled as the sources are now (else: deno task bundle:wrap)", async () => {
  const out = await Deno.makeTempDir({ prefix: "wrap_bundle_" });
  try {
    // The same command as the task, from the same directory (the bundle names its modules relative to it).
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "deno",
        "--code-splitting",
        "--outdir",
        out,
        "lib/cli/wrap_main.ts",
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
    const fresh = await filesOf(out);
    const committed = await filesOf(BUNDLE_DIR);
    const stale = "lib/wrap_bundle is stale: run `deno task bundle:wrap` and commit it";
    assert.deepEqual([...committed.keys()].sort(), [...fresh.keys()].sort(), stale);
    for (const [name, text] of fresh) assert.ok(committed.get(name) === text, `${stale} (${name} differs)`);
    assert.ok(fresh.has("wrap_main.js"));
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("the bundle starts with three modules of its own: no node: built-in, no npm package", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", BUNDLE],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { specifier: string; isDynamic?: boolean }[] }[];
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const loaded = new Set<string>();
  const stack = [new URL(`file://${BUNDLE}`).href];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (loaded.has(specifier)) continue;
    loaded.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic) stack.push(new URL(dep.specifier, specifier).href);
    }
  }
  assert.deepEqual([...loaded].filter((s) => !s.startsWith(`file://${BUNDLE_DIR}/`)), []);
  assert.equal(loaded.size, 3, [...loaded].join(" "));
  // The detector works: the store's chunk, loaded at the first write only, does import node:fs.
  assert.ok(graph.modules.some((m) => m.specifier === "node:fs"));
});

const UNWRAPPED = (word: string) =>
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\n' +
  `msgid "${word} ${"long words to wrap ".repeat(6)}"\nmsgstr "${word}"\n`;

async function run(entry: string, args: string[], flags: string[], cwd?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "--no-npm", ...flags, entry, ...args],
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output();
  clearTimeout(timer);
  const d = new TextDecoder();
  return [out.code, d.decode(out.stdout), d.decode(out.stderr)] as const;
}

Deno.test("the bundled wrap prints, checks, rewrites and reports like lib/cli/wrap_main.ts, on its workers too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrap_bundle_run_" });
  try {
    for (let i = 0; i < 6; i++) await Deno.writeTextFile(`${dir}/f${i}.po`, UNWRAPPED(`w${i}`));
    await Deno.writeTextFile(`${dir}/bad.po`, 'msgid "a"\nmsgstr "b\n');
    const read = ["--allow-read"];
    for (
      const args of [
        ["--stdout", `${dir}/f0.po`],
        ["--check", dir],
        ["--check", "--jobs=2", dir],
        ["--diff", `${dir}/f1.po`],
        ["--version"],
        ["--no-such-option"],
      ]
    ) {
      const theirs = await run(SOURCE, args, read);
      const ours = await run(BUNDLE, args, read);
      assert.deepEqual(ours, theirs, args.join(" "));
    }
    // The check found every file: the workers (--jobs=2) were reached from the bundle's directory.
    const checked = await run(BUNDLE, ["--check", "--jobs=2", dir], read);
    assert.equal(checked[0], 2);
    assert.equal(checked[2].match(/^Would rewrap: /gm)?.length, 6, checked[2]);
    assert.match(checked[2], /bad\.po:2:\d+: /);
    // Rewrites, with relative paths taken from the caller's directory.
    const rewritten = await run(
      BUNDLE,
      ["f0.po", "f1.po"],
      [...read, "--allow-write", "--allow-sys=uid"],
      dir,
    );
    assert.deepEqual(rewritten, [0, "", ""]);
    const laidOut = await run(SOURCE, ["--stdout", `${dir}/f2.po`], read);
    assert.equal(
      await Deno.readTextFile(`${dir}/f1.po`),
      laidOut[1].replaceAll("w2", "w1"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
