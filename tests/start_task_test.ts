/**
 * `deno task start` as a user runs it: the permissions must follow PO_ROOTS, PORT and HOST.
 */
import assert from "node:assert/strict";
import { childEnv, freePort } from "./_helpers.ts";

const REPO = new URL("../", import.meta.url).pathname;

async function startTask(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: REPO,
    env: childEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("listening on")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${seen}`);
    seen += value;
  }
  // Keep draining stderr so the child never blocks on a full pipe, and keep what it says.
  const log = { text: seen };
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      log.text += value;
    }
  })();
  return {
    seen,
    /** Waits (up to 5 s) until the server's stderr matches `pattern`. */
    async logged(pattern: RegExp): Promise<void> {
      for (let waited = 0; !pattern.test(log.text); waited += 20) {
        if (waited > 5000) throw new Error(`not logged: ${pattern}\n${log.text}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel();
    },
  };
}

async function post(port: number, path: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("deno task start serves the configured roots on the configured port, and nothing else", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(`${root}/a.po`, 'msgid "Hello"\nmsgstr "Bonjour"\n');
    await Deno.writeTextFile(`${outside}/b.po`, 'msgid "Secret"\nmsgstr "Secret"\n');
    const port = freePort();
    await using server = await startTask({ PO_ROOTS: root, PORT: String(port) });
    assert.match(server.seen, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
    assert.doesNotMatch(server.seen, /unrestricted/, "the task runs with scoped permissions");

    const greet = await post(port, "/new/endpoint/", { name: "Ada" });
    assert.deepEqual(greet, { status: 200, body: { message: "Hello, Ada!" } });

    const inside = await post(port, "/po/read", { file_path: `${root}/a.po` });
    assert.equal(inside.status, 200);
    assert.equal(inside.body.entries[0].msgstr, "Bonjour");

    const denied = await post(port, "/po/read", { file_path: `${outside}/b.po` });
    assert.equal(denied.status, 403);
    assert.match(denied.body.detail, /^Path is outside the catalogue roots/);

    // One line per request, written a moment later (lines are batched per turn of the event loop).
    await server.logged(/^POST \/new\/endpoint\/ 200 [\d.]+ms$/m);
    await server.logged(/^POST \/po\/read 200 [\d.]+ms\nPOST \/po\/read 403 [\d.]+ms$/m);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("deno task start refuses an invalid configuration with exit code 2", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: REPO,
    env: childEnv({ PORT: "not-a-port" }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /configuration error: PORT: must be a whole number/);
});
