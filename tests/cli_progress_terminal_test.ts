/**
 * `wrap` over a tree on a real terminal (a pseudo-terminal from util-linux `script`) shows its progress
 * bar on stderr, and in a pipe it shows none: the output hooks and CI see is unchanged.
 */
import assert from "node:assert/strict";
import { HAS_SCRIPT, onTerminal } from "./_terminal.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

const UNWRAPPED = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "' +
  "word ".repeat(30) + '"\nmsgstr ""\n';

async function tree(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "wrap-progress-" });
  for (let i = 0; i < 6; i++) await Deno.writeTextFile(`${dir}/f${i}.po`, UNWRAPPED);
  return dir;
}

function wrapCommand(dir: string): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    "--no-prompt",
    "--allow-read",
    "--allow-env",
    MAIN,
    "wrap",
    "--check",
    dir,
  ];
}

Deno.test({
  name: "wrap over a tree draws a progress bar on a terminal's stderr, and clears it",
  ignore: !HAS_SCRIPT,
  async fn() {
    const dir = await tree();
    try {
      const out = await onTerminal(wrapCommand(dir), { COLUMNS: "80", LINES: "24" });
      const text = out.text;
      assert.equal(out.code, 1, text);
      assert.match(text, /\r\[#+\.*\] +6\/6 files {2}100%/, JSON.stringify(text));
      assert.match(text, /Would rewrap: .*f0\.po/);
      assert.match(text, /\r +\r/, "the bar is cleared at the end");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("wrap over a tree in a pipe prints exactly its report, no progress", async () => {
  const dir = await tree();
  try {
    const [cmd = "deno", ...args] = wrapCommand(dir);
    const out = await new Deno.Command(cmd, { args }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1);
    assert.equal(err, [0, 1, 2, 3, 4, 5].map((i) => `Would rewrap: ${dir}/f${i}.po\n`).join(""));
    assert.ok(!err.includes("\r"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
