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
