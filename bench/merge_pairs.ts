/**
 * Real merges: each catalogue of a project merged with the project's own template, by msgmerge
 * and by `mergeCatalogs`, compared byte for byte:
 *
 *   deno run --allow-read --allow-write --allow-run bench/merge_pairs.ts DIR…
 *
 * Each DIR holds one `*.pot` and the `*.po` files made from it (the `po/` directory of a gettext
 * project: shadow, util-linux, …). Every pair is merged in three modes (--no-fuzzy-matching,
 * default, --previous; fuzzy matching unbounded). Pairs msgmerge refuses are counted apart, with
 * whether we refuse them too. Prints
 * one line per difference (the first differing line) and a summary (the figures in docs/merge.md).
 *
 * @module
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { mergeCatalogs, type MergeOptions } from "../lib/po/operations/merge.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

await loadNativeBytes();

const MODES: [string, string[], MergeOptions][] = [
  ["--no-fuzzy-matching", ["--no-fuzzy-matching"], { fuzzyMatching: false }],
  ["default", [], {}],
  ["--previous", ["--previous"], { previous: true }],
];
const UNBOUNDED = { maxMs: Infinity, maxComparisons: Infinity, maxWork: Infinity };
const text = new TextDecoder();

let pairs = 0;
let identical = 0;
let refused = 0;
let bothRefuse = 0;
for (const dir of Deno.args) {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  const pot = names.find((n) => n.endsWith(".pot"));
  if (pot === undefined) {
    console.log(`${dir}: no template, skipped`);
    continue;
  }
  const ref = parsePo(Deno.readFileSync(`${dir}/${pot}`), pot);
  for (const name of names.filter((n) => n.endsWith(".po"))) {
    const path = `${dir}/${name}`;
    for (const [mode, args, options] of MODES) {
      pairs++;
      const gnu = new Deno.Command("msgmerge", {
        args: ["-q", ...args, path, `${dir}/${pot}`, "-o", "-"],
        stdout: "piped",
        stderr: "null",
      }).outputSync();
      let ours: string | Error;
      try {
        const def = parsePo(Deno.readFileSync(path), name);
        ours = text.decode(encodePo(mergeCatalogs(def, ref, { ...options, fuzzyLimits: UNBOUNDED }).catalog));
      } catch (e) {
        ours = e as Error;
      }
      if (!gnu.success) {
        refused++;
        if (ours instanceof Error) bothRefuse++;
        else console.log(`DIFFERENT: ${path} ${mode}: msgmerge refuses it, we do not`);
        continue;
      }
      if (ours instanceof Error) {
        console.log(`DIFFERENT: ${path} ${mode}: we refuse it: ${ours.message}`);
        continue;
      }
      const theirs = text.decode(gnu.stdout);
      if (ours === theirs) {
        identical++;
        continue;
      }
      const a = ours.split("\n");
      const b = theirs.split("\n");
      let k = 0;
      while (k < a.length && a[k] === b[k]) k++;
      console.log(
        `DIFFERENT: ${path} ${mode}: line ${k + 1}: ours ${JSON.stringify(a[k])}, msgmerge ${
          JSON.stringify(b[k])
        }`,
      );
    }
  }
}
console.log(
  `\n${identical} of ${
    pairs - refused
  } merges identical to msgmerge's; ${refused} refused by msgmerge, ${bothRefuse} of them by us too`,
);
