/**
 * What `deno task wrap`, `bin/wrap` and the pre-commit hooks run: the wrap command bundled by
 * `cli/wrap/bundle.sh` on first use into `.cache/wrap/<hash of the sources>/` (a few modules
 * instead of ~50 saves each run Deno's per-module loading: bench/README.md#wrap). Nothing generated
 * is committed: these tests build it in a fresh copy of the checkout, see it rebuilt when a source
 * changes (and only then), and run it as users do, workers included.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { runDenoWithin } from "./_run_main.ts";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCE = `${ROOT}/cli/wrap/main.ts`;
const decoder = new TextDecoder();

/** A copy of the checkout's sources, as a fresh clone has them (no .cache). */
async function freshCopy(name = "po-tools"): Promise<string> {
  // Always a directory of its own inside a new temporary one: the tests remove dirname(root).
  const dir = `${await Deno.makeTempDir({ prefix: "wrap_bundle_" })}/${name}`;
  await Deno.mkdir(dir);
  const copy = await new Deno.Command("cp", {
    args: ["-R", ...["deno.json", "deno.lock", "bin", "cli", "lib"].map((f) => `${ROOT}/${f}`), dir],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(copy.code, 0, decoder.decode(copy.stderr));
  return dir;
}

/** The module `bundle.sh` says to run, building it when needed (DENO: the command that bundles). */
async function entryOf(root: string, deno: string[] = [Deno.execPath()]): Promise<string> {
  const out = await new Deno.Command("sh", {
    args: [`${root}/cli/wrap/bundle.sh`, ...deno],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  // Relative (to the checkout) when run from the checkout itself, as the task runs it.
  const entry = decoder.decode(out.stdout).trim();
  return entry.startsWith("/") ? entry : `${Deno.cwd()}/${entry.replace(/^\.\//, "")}`;
}

const UNWRAPPED = (word: string) =>
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\n' +
  `msgid "${word} ${"long words to wrap ".repeat(6)}"\nmsgstr "${word}"\n`;

async function run(entry: string, args: string[], flags: string[], cwd?: string) {
  const out = await runDenoWithin(
    ["run", "--quiet", "--no-prompt", "--no-npm", ...flags, entry, ...args],
    60_000,
    cwd,
  );
  return [out.code, decoder.decode(out.stdout), decoder.decode(out.stderr)] as const;
}

Deno.test("a fresh checkout builds the bundle on first use, reuses it, and rebuilds it only when a source changes", async () => {
  const root = await freshCopy();
  try {
    const first = await entryOf(root);
    assert.match(first, new RegExp(`^${root}/\\.cache/wrap/[0-9a-f]{16}/main\\.js$`));
    assert.ok((await Deno.stat(first)).isFile);
    assert.equal(await entryOf(root), first);
    // Touched but unchanged: the same sources, the same build.
    const parse = `${root}/lib/po/read/parse.ts`;
    await Deno.utime(parse, new Date(), new Date(Date.now() + 2000));
    assert.equal(await entryOf(root), first);
    // Changed: a new build, keyed by the new sources; the old one is kept for a switch back.
    await Deno.writeTextFile(parse, "\n// changed\n", { append: true });
    await Deno.utime(parse, new Date(), new Date(Date.now() + 4000));
    const second = await entryOf(root);
    assert.notEqual(second, first);
    assert.ok((await Deno.stat(second)).isFile);
    assert.ok((await Deno.stat(first)).isFile);
    // The check looks at the modules the bundle was built from: a change elsewhere (the patent
    // client, never bundled) keeps the build; a change to one of them, or its removal, does not.
    // (inputs.sh: the list as a script the check sources, one module a line)
    const inputs = (await Deno.readTextFile(`${dirname(second)}/inputs.sh`)).split("\n");
    assert.ok(inputs.includes("lib/po/read/parse.ts") && inputs.includes("cli/wrap/main.ts"));
    assert.ok(!inputs.some((m) => m.startsWith("lib/gpss/")));
    // (parse.ts back in the past, older than the build's mark, as an edit made before it would be)
    const past = new Date(Date.now() - 60_000);
    await Deno.utime(parse, past, past);
    assert.equal(await entryOf(root), second);
    const gpss = `${root}/lib/gpss/mod.ts`;
    await Deno.writeTextFile(gpss, "\n// elsewhere\n", { append: true });
    await Deno.utime(gpss, new Date(), new Date(Date.now() + 6000));
    assert.equal(await entryOf(root), second);
    await Deno.writeTextFile(parse, "\n// changed again\n", { append: true });
    await Deno.utime(parse, new Date(), new Date(Date.now() + 8000));
    const third = await entryOf(root);
    assert.notEqual(third, second);
    // A change to how it is built (bundle.sh itself) rebuilds it too.
    const script = `${root}/cli/wrap/bundle.sh`;
    await Deno.writeTextFile(script, "\n# changed\n", { append: true });
    await Deno.utime(script, new Date(), new Date(Date.now() + 10000));
    assert.notEqual(await entryOf(root), third);
  } finally {
    await Deno.remove(dirname(root), { recursive: true });
  }
});

Deno.test("when the bundle cannot be built, wrap runs from its sources", async () => {
  const root = await freshCopy();
  try {
    assert.equal(await entryOf(root, ["false"]), `${root}/cli/wrap/main.ts`);
    await Deno.remove(`${root}/.cache`, { recursive: true }).catch(() => {});
    // A checkout where .cache cannot be made (a file in its place).
    await Deno.writeTextFile(`${root}/.cache`, "");
    assert.equal(await entryOf(root), `${root}/cli/wrap/main.ts`);
  } finally {
    await Deno.remove(dirname(root), { recursive: true });
  }
});

Deno.test("deno task wrap builds and runs the bundle in a fresh checkout whose path holds a blank", async () => {
  const root = await freshCopy("po tools");
  try {
    const file = `${root}/fr.po`;
    await Deno.writeTextFile(file, UNWRAPPED("w"));
    const task = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "--cwd", root, "wrap", "--stdout", file],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const sources = await run(SOURCE, ["--stdout", file], ["--allow-read"]);
    assert.deepEqual([task.code, decoder.decode(task.stdout), decoder.decode(task.stderr)], sources);
    assert.equal(
      // (and the layout votes detection keeps, when the checkout is a repository)
      (await Array.fromAsync(Deno.readDir(`${root}/.cache/wrap`))).filter((e) =>
        e.name !== "layout-votes.json"
      )
        .length,
      2,
      "current and one build",
    );
  } finally {
    await Deno.remove(dirname(root), { recursive: true });
  }
});

Deno.test("the bundle starts with its own modules only: no node: built-in, no npm package", async () => {
  const bundle = await entryOf(ROOT);
  const bundleDir = dirname(bundle);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", bundle],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  const graph = JSON.parse(decoder.decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { specifier: string; isDynamic?: boolean }[] }[];
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const loaded = new Set<string>();
  const stack = [new URL(`file://${bundle}`).href];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (loaded.has(specifier)) continue;
    loaded.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (!dep.isDynamic) stack.push(new URL(dep.specifier, specifier).href);
    }
  }
  assert.deepEqual([...loaded].filter((s) => !s.startsWith(`file://${bundleDir}/`)), []);
  assert.ok(loaded.size <= 8, [...loaded].join(" "));
  // The detector works: the store's chunk, loaded at the first write only, does import node:fs.
  assert.ok(graph.modules.some((m) => m.specifier === "node:fs"));
});

Deno.test("what every start loads holds no check, merge or compile code: the door's other exports are shaken out", async () => {
  // bundle.sh's build without --minify (which drops the comments naming each module): the same
  // modules and the same shaking.
  const bundleDir = await Deno.makeTempDir({ prefix: "wrap_bundle_plain_" });
  const built = await new Deno.Command(Deno.execPath(), {
    args: [
      ...["bundle", "--quiet", "--platform", "deno", "--code-splitting", "--external", "gettext-parser"],
      ...["--config", "deno.json", "--outdir", bundleDir, "cli/wrap/main.ts", "cli/wrap/worker.ts"],
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(built.code, 0, decoder.decode(built.stderr));
  assert.match(
    await Deno.readTextFile(`${ROOT}/cli/wrap/bundle.sh`),
    /bundle --quiet --platform deno --code-splitting --external gettext-parser \\\n *--minify --keep-names --sourcemap=external \\\n *--config deno.json --outdir/,
  );
  const bundle = `${bundleDir}/main.js`;
  // The modules the entry imports statically (the pool, the store and the full reader are dynamic).
  const loaded = new Set<string>();
  const stack = [bundle];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(/^import\s[^"']*["'](\.\/[^"']+)["']/gm)) {
      stack.push(`${bundleDir}/${m[1]!.slice(2)}`);
    }
  }
  // esbuild names each module it keeps in a comment (`// lib/po/checks/_format_tcl.ts`), then its code.
  const kept = new Map<string, string>();
  for (const file of loaded) {
    const parts = (await Deno.readTextFile(file)).split(/^\/\/ (lib\/[^\s]+\.ts)$/m);
    for (let i = 1; i + 1 < parts.length; i += 2) kept.set(parts[i]!, parts[i + 1]!);
  }
  assert.ok(kept.has("lib/po/read/parse.ts"), [...kept.keys()].join(" "));
  // Code wrap never runs, kept alive only by a top-level statement the bundler could not prove pure
  // (annotate it /* @__PURE__ */): the checks and their format parsers, merge, compile, plural rules.
  // A few unused constants may stay; no function or class of them may.
  const unused = [...kept].filter(([m, code]) =>
    /^lib\/po\/checks\/|^lib\/po\/operations\/(merge|compile|plural_rules|_fuzzy_match|_language_codes|_mo_)/
      .test(m) &&
    /\bfunction\b|\bclass\b|=>/.test(code.replace(/^export \{[^}]*\};?\s*$/m, ""))
  ).map(([m]) => m);
  assert.deepEqual(unused, []);
  await Deno.remove(bundleDir, { recursive: true });
});

Deno.test("the bundled wrap prints, checks, rewrites and reports like cli/wrap/main.ts, on its workers too", async () => {
  const bundle = await entryOf(ROOT);
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
      const ours = await run(bundle, args, read);
      assert.deepEqual(ours, theirs, args.join(" "));
    }
    // The check found every file: the workers (--jobs=2) were reached from the bundle's directory.
    const checked = await run(bundle, ["--check", "--jobs=2", dir], read);
    assert.equal(checked[0], 2);
    assert.equal(checked[2].match(/^Would rewrap: /gm)?.length, 6, checked[2]);
    assert.match(checked[2], /bad\.po:2:\d+: /);
    // Rewrites, with relative paths taken from the caller's directory.
    const rewritten = await run(
      bundle,
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

Deno.test("bin/wrap run first from another directory builds the same bundle, its modules named from the checkout", async () => {
  const root = await freshCopy("elsewhere");
  const away = await Deno.makeTempDir({ prefix: "wrap-away-" });
  try {
    const file = `${away}/fr.po`;
    await Deno.writeTextFile(file, UNWRAPPED("w"));
    const run = await new Deno.Command(`${root}/bin/wrap`, {
      args: ["--stdout", file],
      cwd: away,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(run.code, 0, decoder.decode(run.stderr));
    const key = (await Deno.readTextFile(`${root}/.cache/wrap/current`)).trim();
    const inputs = await Deno.readTextFile(`${root}/.cache/wrap/${key}/inputs.sh`);
    // Named from the checkout (as a build from inside it names them), never "../../tmp/…/cli/…".
    assert.match(inputs, /^cli\/wrap\/main\.ts$/m);
    assert.doesNotMatch(inputs, /\.\.\//);
  } finally {
    await Deno.remove(away, { recursive: true });
    await Deno.remove(dirname(root), { recursive: true });
  }
});
