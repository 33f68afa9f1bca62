/**
 * In-process PO engine benchmark against one `msgcat` run on the same file, in the same run.
 *
 *   deno run --allow-read --allow-write --allow-run=msgcat bench/po_engine.ts [FILE]
 *
 * Default FILE: ../shared/corpus/po/zh-cn__whatsnew__changelog.po (2.3 MB, 12k entries); without
 * ../shared, a generated catalogue of 12k entries. Without msgcat (gettext), its column is left out.
 * Prints medians of 15 interleaved runs (msgcat, then ours, in each): parse, cold format (no layout
 * cache), parse + cold format, a warm re-format after one message changed (what /po/write pays),
 * and msgcat's wall time (process start included: that is what one `msgcat` run costs).
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { benchCatalogueFile } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

/** FILE, else the corpus file, else (no ../shared) a generated catalogue written to a temp file. */
const file = Deno.args[0] ?? await benchCatalogueFile();
const bytes = Deno.readFileSync(file);
const RUNS = 15;
// In a then: a missing program makes the spawn throw at once, not reject.
const HAS_MSGCAT = await Promise.resolve().then(() =>
  new Deno.Command("msgcat", { args: ["--version"], stdout: "null", stderr: "null" }).output()
).then((o) => o.success, () => false);
if (!HAS_MSGCAT) console.log("msgcat not found (apt-get install gettext): its timings are left out");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const parse: number[] = [];
const cold: number[] = [];
const both: number[] = [];
const warm: number[] = [];
const msgcat: number[] = [];
// Interleaved: each run times msgcat once and our steps once, so both see the same machine load.
for (let i = 0; i < RUNS + 2; i++) {
  const t = performance.now();
  if (HAS_MSGCAT) {
    const out = await new Deno.Command("msgcat", { args: [file], stdout: "null", stderr: "null" }).output();
    if (!out.success) throw new Error("msgcat failed");
  }
  const m = performance.now() - t;

  let cat = parsePo(bytes, { fileName: file });
  const p = time(() => (cat = parsePo(bytes, { fileName: file })));
  const fresh = parsePo(bytes, { fileName: file });
  const c = time(() => encodePo(fresh));
  const b = time(() => encodePo(parsePo(bytes, { fileName: file })));
  // What /po/write pays: the store keeps each message's bytes; one message is replaced (a new
  // object) and the catalogue encoded again.
  encodePo(cat);
  const k = Math.floor(cat.messages.length / 2);
  const changed = {
    ...cat,
    messages: cat.messages.map((m, j) => (j === k ? { ...m, msgstr: m.msgstr + " (edited)" } : m)),
  };
  const w = time(() => encodePo(changed));
  if (i >= 2) { // the first two runs warm the JIT
    msgcat.push(m);
    parse.push(p);
    cold.push(c);
    both.push(b);
    warm.push(w);
  }
}

const f = (n: number) => `${n.toFixed(1)} ms`;
console.log(`file: ${file} (${(bytes.length / 1e6).toFixed(2)} MB), medians of ${RUNS} interleaved runs`);
console.log(`parse                         ${f(median(parse))}`);
console.log(`format, cold (no cache)       ${f(median(cold))}`);
console.log(`parse + cold format           ${f(median(both))}`);
console.log(`format after 1 change (warm)  ${f(median(warm))}`);
if (HAS_MSGCAT) {
  console.log(`msgcat (one run, wall)        ${f(median(msgcat))}`);
  console.log(`ratio msgcat / (parse + format) = ${(median(msgcat) / median(both)).toFixed(1)}x`);
}
