/**
 * Agreement with GNU msgmerge 0.21 and msgfmt 0.21 over the whole corpus, with timings:
 *
 *   deno run --allow-read --allow-write --allow-run bench/merge_corpus.ts [NAME-FILTER]
 *
 * For each corpus catalogue msgcat accepts, three templates are made from it
 * (tests/_merge_templates.ts): its own entries stripped; entries dropped, added and moved; and
 * the same with every 7th msgid edited a little. Each is merged by msgmerge and by us in
 * --no-fuzzy-matching, default and --previous modes, and the outputs compared byte for byte.
 * Then each catalogue msgfmt accepts is compiled by msgfmt and by us, and msgunfmt's readings of
 * the two MO files compared. Prints one line per difference and a summary (the figures in
 * docs/merge.md). Needs ../shared and gettext.
 *
 * @module
 */
import { sameBytes } from "../lib/byte_runs.ts";
import { compileMo } from "../lib/po/operations/compile.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { mergeCatalogs, type MergeOptions } from "../lib/po/operations/merge.ts";
import { makeTemplate, type TemplateVariant } from "../tests/_merge_templates.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const CORPUS = new URL("../../shared/corpus/po/", import.meta.url).pathname;
const filter = Deno.args[0] ?? "";
const text = new TextDecoder();
const dir = await Deno.makeTempDir();

const VARIANTS: [string, TemplateVariant][] = [
  ["stripped", { dropEvery: 0, add: 0, editEvery: 0, shiftLines: 0 }],
  ["changed", { dropEvery: 5, add: 7, editEvery: 0, shiftLines: 3 }],
  ["edited", { dropEvery: 5, add: 7, editEvery: 7, shiftLines: 3 }],
];
const MODES: [string, string[], MergeOptions][] = [
  ["--no-fuzzy-matching", ["--no-fuzzy-matching"], { fuzzyMatching: false }],
  ["default", [], {}],
  ["--previous", ["--previous"], { previous: true }],
];
const UNBOUNDED = { maxMs: Infinity, maxComparisons: Infinity, maxWork: Infinity };

function run(cmd: string, args: string[]): { ok: boolean; stdout: Uint8Array; ms: number } {
  const t = performance.now();
  const r = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).outputSync();
  return { ok: r.success, stdout: r.stdout, ms: performance.now() - t };
}

const names = [...Deno.readDirSync(CORPUS)].map((e) => e.name).filter((n) =>
  n.endsWith(".po") && n.includes(filter)
)
  .sort();
const merges = new Map<
  string,
  { same: number; runs: number; oursMs: number; gnuMs: number; fuzzied: number }
>();
for (const name of names) {
  const path = CORPUS + name;
  if (!run("msgcat", [path, "-o", "/dev/null"]).ok) {
    console.log(`${name}: msgcat rejects it, not merged`);
    continue;
  }
  const def = parsePo(Deno.readFileSync(path), name);
  for (const [label, variant] of VARIANTS) {
    const pot = `${dir}/template.pot`;
    Deno.writeFileSync(pot, encodePo(makeTemplate(def, variant)));
    const ref = parsePo(Deno.readFileSync(pot), pot);
    for (const [mode, args, options] of MODES) {
      const gnu = run("msgmerge", ["-q", ...args, path, pot, "-o", "-"]);
      const t = performance.now();
      const r = mergeCatalogs(def, ref, { ...options, fuzzyLimits: UNBOUNDED });
      const ours = encodePo(r.catalog);
      const ms = performance.now() - t;
      const key = `${label} ${mode}`;
      const m = merges.get(key) ?? { same: 0, runs: 0, oursMs: 0, gnuMs: 0, fuzzied: 0 };
      const same = gnu.ok && text.decode(ours) === text.decode(gnu.stdout);
      m.runs++;
      if (same) m.same++;
      else console.log(`DIFFERENT: ${name}, ${key}`);
      m.oursMs += ms;
      m.gnuMs += gnu.ms;
      m.fuzzied += r.stats.fuzzied;
      merges.set(key, m);
    }
  }
}
console.log("\nmerge: template, mode | identical / runs | fuzzy matches | ours total ms | msgmerge total ms");
for (const [key, m] of merges) {
  console.log(`${key} | ${m.same}/${m.runs} | ${m.fuzzied} | ${m.oursMs.toFixed(0)} | ${m.gnuMs.toFixed(0)}`);
}

let compiled = 0;
let equal = 0;
let identical = 0;
for (const name of names) {
  const path = CORPUS + name;
  const gnuMo = `${dir}/gnu.mo`;
  if (!run("msgfmt", [path, "-o", gnuMo]).ok) {
    console.log(`${name}: msgfmt rejects it, not compiled`);
    continue;
  }
  compiled++;
  const r = compileMo(parsePo(Deno.readFileSync(path), { fileName: name, strict: false }));
  if (r.bytes === null) {
    console.log(`${name}: nothing to compile`);
    continue;
  }
  Deno.writeFileSync(`${dir}/ours.mo`, r.bytes);
  const a = text.decode(run("msgunfmt", [gnuMo]).stdout);
  const b = text.decode(run("msgunfmt", [`${dir}/ours.mo`]).stdout);
  if (a === b) equal++;
  else console.log(`compile: ${name}: msgunfmt readings differ`);
  if (sameBytes(Deno.readFileSync(gnuMo), r.bytes)) identical++;
}
console.log(
  `\ncompile: msgunfmt equal for ${equal}/${compiled}; MO byte-identical to msgfmt's for ${identical}/${compiled}`,
);
await Deno.remove(dir, { recursive: true });
