/**
 * `main.ts` as a user meets it: help and version, and start-up failures that end in one line saying
 * what to do (exit 2), never a stack trace or a secret.
 */
import assert from "node:assert/strict";
import { childEnv, freePort } from "./_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

async function run(args: string[], flags: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...flags, MAIN, ...args],
    env: childEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("main.ts --help, MODE --help and --version answer without any permission", async () => {
  const { VERSION } = await import("../lib/version.ts");
  const help = await run(["--help"], []);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^po-tools: /);
  assert.match(help.stdout, /wrap \[OPTS\] PATH/);
  const version = await run(["--version"], []);
  assert.equal(version.stdout.trim(), `po-tools ${VERSION}`);
  for (const mode of ["serve", "mcp", "permissions"]) {
    const r = await run([mode, "--help"], []);
    assert.equal(r.code, 0, mode);
    assert.match(r.stdout, new RegExp(`^Usage: main.ts ${mode}`), mode);
  }
});

Deno.test("a port already in use ends the start-up with one line, exit 2", async () => {
  const port = freePort();
  const listener = Deno.listen({ hostname: "127.0.0.1", port });
  try {
    const lockDir = await Deno.makeTempDir();
    const r = await run(["serve"], [
      "--allow-env",
      "--allow-sys=uid",
      "--allow-read",
      "--allow-write",
      `--allow-net=127.0.0.1:${port}`,
    ], {
      PORT: String(port),
      PO_LOCK_DIR: `${lockDir}/locks`,
    });
    await Deno.remove(lockDir, { recursive: true });
    assert.equal(r.code, 2);
    const lines = r.stderr.trim().split("\n").filter((l) => !l.startsWith("warning:"));
    assert.deepEqual(lines, [
      `cannot listen on 127.0.0.1:${port}: the address is already in use (set PORT to another port)`,
    ]);
  } finally {
    listener.close();
  }
});

Deno.test("a missing permission ends the start-up with one line saying what to do, exit 2", async () => {
  const lockDir = await Deno.makeTempDir();
  const r = await run(["serve"], ["--allow-env", "--allow-sys=uid", "--allow-read", "--allow-write"], {
    PORT: String(freePort()),
    PO_LOCK_DIR: `${lockDir}/locks`,
  });
  await Deno.remove(lockDir, { recursive: true });
  assert.equal(r.code, 2);
  const lines = r.stderr.trim().split("\n").filter((l) => !l.startsWith("warning:"));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(
    lines[0] ?? "",
    /^missing permission: Requires net access to "127\.0\.0\.1:\d+"; run it through its task/,
  );
});

Deno.test("a refused API_TOKEN is never echoed, only its length", async () => {
  const { ConfigError, parseConfig } = await import("../lib/config.ts");
  for (const [name, value] of [["API_TOKEN", "short-secret"]] as const) {
    try {
      parseConfig({ [name]: value }, { defaultPoRoots: ["/srv/po"], cwd: "/", uid: () => 1000 });
      assert.fail("accepted");
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.ok(!error.message.includes(value), error.message);
      assert.match(error.message, new RegExp(`got ${value.length} characters`));
    }
  }
});
