/**
 * GNU gettext 0.21's own msgmerge tests, run against `main.ts merge`:
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/gettext_msgmerge_tests.ts DIR
 *
 * DIR holds the test scripts `msgmerge-1` … `msgmerge-29` of gettext's `gettext-tools/tests/`
 * (e.g. `git show v0.21:gettext-tools/tests/msgmerge-21` from a clone of gettext). Each script
 * writes its inputs, runs `${MSGMERGE}`, and compares the result with the expected bytes it holds;
 * it is run once with the installed msgmerge (the scripts' own verdict on gettext) and once with
 * `MSGMERGE` pointing at our CLI. A script that passes our options msgmerge has and we do not
 * (`--compendium`, `--sort-by-file`, `--multi-domain`, `--for-msgfmt`, `--add-location=file`, …)
 * fails on our usage error and is listed as such.
 *
 * @module
 */
const dir = Deno.args[0];
if (dir === undefined) {
  console.error("usage: gettext_msgmerge_tests.ts DIR-WITH-msgmerge-N-SCRIPTS");
  Deno.exit(2);
}
const root = new URL("..", import.meta.url).pathname;
const work = await Deno.makeTempDir();
const wrapper = `${work}/ours-msgmerge`;
await Deno.writeTextFile(
  wrapper,
  `#!/bin/sh\nexec deno run --quiet --no-prompt --allow-read --allow-write --allow-env --allow-sys=uid ` +
    `${root}main.ts merge "$@"\n`,
);
await Deno.chmod(wrapper, 0o755);
// The scripts source init.sh for Exit and path_prepend_: the two they use.
const INIT = "Exit () { exit $1; }\npath_prepend_ () { :; }\n";

const scripts = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => /^msgmerge-\d+$/.test(n))
  .sort((a, b) => Number(a.slice(9)) - Number(b.slice(9)));

async function runScript(name: string, msgmerge: string): Promise<{ ok: boolean; out: string }> {
  const cwd = await Deno.makeTempDir({ dir: work });
  await Deno.writeTextFile(`${cwd}/init.sh`, INIT);
  await Deno.copyFile(`${dir}/${name}`, `${cwd}/${name}`);
  const r = await new Deno.Command("sh", {
    args: [name],
    cwd,
    env: { MSGMERGE: msgmerge, srcdir: "." },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { ok: r.success, out: (decode(r.stdout) + decode(r.stderr)).slice(0, 2000) };
}

let gnuPass = 0;
let oursPass = 0;
const unsupported: string[] = [];
const failed: string[] = [];
for (const name of scripts) {
  const gnu = await runScript(name, "msgmerge");
  const ours = await runScript(name, wrapper);
  if (gnu.ok) gnuPass++;
  if (ours.ok) oursPass++;
  else if (/^merge: (unknown option|.*--help)/m.test(ours.out)) unsupported.push(name);
  else failed.push(name);
  console.log(`${name}: msgmerge ${gnu.ok ? "passes" : "FAILS"}, ours ${ours.ok ? "passes" : "FAILS"}`);
  if (!ours.ok) console.log(ours.out.split("\n").map((l) => `    ${l}`).join("\n"));
}
console.log(
  `\n${oursPass} of ${scripts.length} pass with ours (msgmerge 0.21 itself: ${gnuPass}); ` +
    `failing on an option we do not have: ${unsupported.join(", ") || "none"}; ` +
    `failing otherwise: ${failed.join(", ") || "none"}`,
);
await Deno.remove(work, { recursive: true });
