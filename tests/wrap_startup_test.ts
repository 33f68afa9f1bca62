import assert from "node:assert/strict";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const UNWRAPPED =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\nmsgid "a"\nmsgstr "b"\n';
const LAID_OUT = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';

async function main(args: string[], flags: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "--no-npm", ...flags, MAIN, ...args],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const out = await child.output();
  clearTimeout(timer);
  const d = new TextDecoder();
  return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
}

Deno.test("main.ts wrap loads no npm package (no zod, Hono, MCP SDK, nor routes/, which need them)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrap_startup_" });
  try {
    await Deno.writeTextFile(`${dir}/a.po`, UNWRAPPED);
    // --no-npm makes any npm: import fail: wrap must not need one, in any of its modes.
    const printed = await main(["wrap", "--stdout", `${dir}/a.po`], ["--allow-read"]);
    assert.deepEqual([printed.code, printed.stdout, printed.stderr], [0, LAID_OUT, ""]);
    const rewritten = await main(["wrap", dir], ["--allow-read", "--allow-write", "--allow-sys=uid"]);
    assert.deepEqual([rewritten.code, rewritten.stderr], [0, ""]);
    assert.equal(await Deno.readTextFile(`${dir}/a.po`), LAID_OUT);
    // The detector works: the server does need npm packages.
    const server = await main(["serve"], ["--allow-all"]);
    assert.notEqual(server.code, 0);
    assert.match(server.stderr, /npm specifiers were requested; but --no-npm is specified/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const WRAP_MAIN = new URL("../cli/wrap/main.ts", import.meta.url).pathname;

Deno.test("cli/wrap/main.ts (what the wrap task and the hook run, bundled) statically imports no node: built-in, no npm package and nothing of routes/", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", WRAP_MAIN],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[] }[];
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  // The modules loaded before the first line runs: static imports only (type imports have no `code`).
  const loaded = new Set<string>();
  const stack = [new URL(`file://${WRAP_MAIN}`).href];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (loaded.has(specifier)) continue;
    loaded.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  const unwanted = [...loaded].filter((s) => !s.startsWith("file:") || s.includes("/routes/"));
  assert.deepEqual(unwanted, []);
  // The detector works: the servers' entry does load npm packages and node: built-ins (dynamically).
  assert.ok(graph.modules.some((m) => m.specifier === "node:buffer"), "node:buffer is in the dynamic graph");
  assert.ok(loaded.size > 20, `${loaded.size} modules`);
});

Deno.test("cli/wrap/main.ts lays out, rewrites and checks like main.ts wrap, with no npm package", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrap_main_" });
  try {
    await Deno.writeTextFile(`${dir}/a.po`, UNWRAPPED);
    const run = async (args: string[], flags: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--quiet", "--no-prompt", "--no-npm", ...flags, WRAP_MAIN, ...args],
        env: { NO_COLOR: "1" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const d = new TextDecoder();
      return [out.code, d.decode(out.stdout), d.decode(out.stderr)];
    };
    assert.deepEqual(await run(["--stdout", `${dir}/a.po`], ["--allow-read"]), [0, LAID_OUT, ""]);
    assert.deepEqual(await run(["--check", `${dir}/a.po`], ["--allow-read"]), [
      1,
      "",
      `Would rewrap: ${dir}/a.po\n`,
    ]);
    assert.deepEqual(await run([dir], ["--allow-read", "--allow-write", "--allow-sys=uid"]), [0, "", ""]);
    assert.equal(await Deno.readTextFile(`${dir}/a.po`), LAID_OUT);
    // A file it may not read is reported in one line, status 2, as main.ts wrap reports it.
    const refused = await run([`${dir}/a.po`], []);
    assert.deepEqual(refused.slice(0, 2), [2, ""]);
    assert.match(String(refused[2]), /^wrap: .*a\.po: cannot read: Requires read access to .*\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
