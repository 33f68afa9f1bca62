/**
 * `main.ts compile PATH…` over a tree: every catalogue gets its MO file beside it, a broken one is
 * reported without stopping the others, and a terminal shows the run's progress.
 */
import assert from "node:assert/strict";
import { HAS_SCRIPT, onTerminal } from "./_terminal.ts";
import { Buffer } from "node:buffer";
import { mo as moFormat } from "gettext-parser";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys=uid"];

const CATALOGUE = (word: string) =>
  `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "${word}"\n`;

async function tree(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "compile-tree-" }));
  await Deno.mkdir(`${dir}/fr/library`, { recursive: true });
  await Deno.mkdir(`${dir}/de`, { recursive: true });
  await Deno.writeTextFile(`${dir}/fr/glossary.po`, CATALOGUE("Bonjour"));
  await Deno.writeTextFile(`${dir}/fr/library/os.po`, CATALOGUE("Salut"));
  await Deno.writeTextFile(`${dir}/de/glossary.po`, CATALOGUE("Hallo"));
  await Deno.writeTextFile(`${dir}/de/broken.po`, 'msgid "unterminated\n');
  return dir;
}

function run(args: string[], env: Record<string, string> = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--no-prompt", ...PERMISSIONS, MAIN, "compile", ...args],
    env: { PO_LOCK_DIR: "beside", ...env },
  }).output();
}

Deno.test("compile over a directory writes every catalogue's MO beside it and reports the broken one", async () => {
  const dir = await tree();
  try {
    const out = await run([dir]);
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, err);
    assert.match(err, /broken\.po: /);
    assert.match(err, /compile: 3 of 4 catalogues compiled, \d+ messages/);
    assert.ok(!err.includes("\r"), "no progress bar in a pipe");
    for (
      const [path, word] of [["fr/glossary", "Bonjour"], ["fr/library/os", "Salut"], [
        "de/glossary",
        "Hallo",
      ]] as const
    ) {
      const mo = moFormat.parse(Buffer.from(await Deno.readFile(`${dir}/${path}.mo`)));
      assert.deepEqual(mo.translations[""]!["Hello"]!.msgstr, [word], path);
    }
    await assert.rejects(Deno.stat(`${dir}/de/broken.mo`), Deno.errors.NotFound);
    // -o names one output: it does not go with a directory.
    const refused = await run(["-o", `${dir}/x.mo`, dir]);
    assert.equal(refused.code, 2);
    assert.match(new TextDecoder().decode(refused.stderr), /-o takes one input file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "compile over a tree draws its progress bar on a terminal",
  ignore: !HAS_SCRIPT,
  async fn() {
    const dir = await tree();
    try {
      await Deno.remove(`${dir}/de/broken.po`);
      const out = await onTerminal(
        [Deno.execPath(), "run", "-q", "--no-prompt", ...PERMISSIONS, MAIN, "compile", dir],
        { PO_LOCK_DIR: "beside" },
      );
      const text = out.text;
      assert.equal(out.code, 0, text);
      assert.match(text, /\r\[#+\] 3\/3 files {2}100%/, JSON.stringify(text));
      assert.match(text, /compile: 3 of 3 catalogues compiled/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
