/**
 * `main.ts check` on hostile paths and over a tree on a terminal: a FIFO is refused at once (never
 * opened for a blocking read), and a tree run shows its progress bar on a terminal, none in a pipe.
 */
import assert from "node:assert/strict";
import { HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ARGS = ["run", "-q", "--no-prompt", "--allow-read", "--allow-env", "--allow-sys=uid", MAIN, "check"];

const CATALOGUE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '#, python-format\nmsgid "%(n)s files"\nmsgstr "fichiers"\n';

Deno.test("check refuses a FIFO at once instead of waiting for a writer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "check-fifo-" });
  try {
    const fifo = `${dir}/trap.po`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success);
    const child = new Deno.Command(Deno.execPath(), {
      args: [...ARGS, fifo],
      stdout: "piped",
      stderr: "piped",
    })
      .spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const out = await child.output();
    clearTimeout(timer);
    assert.notEqual(out.signal, "SIGKILL", "check hung on the FIFO");
    assert.equal(out.code, 2);
    assert.match(new TextDecoder().decode(out.stderr), /trap\.po/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "check over a tree draws its progress bar on a terminal, and prints exactly its report in a pipe",
  ignore: !HAS_SCRIPT,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "check-tree-" });
    try {
      for (const name of ["a", "b", "c", "d"]) await Deno.writeTextFile(`${dir}/${name}.po`, CATALOGUE);
      const tty = await onTerminal([Deno.execPath(), ...ARGS, dir]);
      const text = tty.text;
      assert.equal(tty.code, 1, text);
      assert.match(text, /\r\[#+\] 4\/4 files {2}100%/, JSON.stringify(text));
      assert.match(text, /a\.po:\d+: python-format: /);

      const piped = await new Deno.Command(Deno.execPath(), { args: [...ARGS, dir] }).output();
      const err = new TextDecoder().decode(piped.stderr);
      assert.equal(piped.code, 1);
      assert.ok(!err.includes("\r"), JSON.stringify(err));
      assert.equal(
        new TextDecoder().decode(piped.stdout).split("\n").filter((l) => l.includes("python-format")).length,
        4,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
