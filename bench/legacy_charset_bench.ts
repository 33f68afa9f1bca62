/**
 * One catalogue laid out in UTF-8 and in two legacy multi-byte charsets (issue 22), in the same run:
 * GB18030 (widths as in UTF-8, four-byte sequences for Latin text) and GBK (one of libunistring's
 * CJK encodings: its own width tables). With `--before=DIR` (a checkout of an earlier commit), the
 * UTF-8 catalogue is also laid out by DIR's engine, interleaved, to show UTF-8 did not get slower.
 *
 *   deno run --allow-read --allow-write --allow-run=msgconv bench/legacy_charset_bench.ts [--before=DIR] [FILE]
 *
 * Default FILE: ../shared/corpus/po/zh-cn__whatsnew__changelog.po (2.3 MB, 12k entries); without
 * ../shared, a generated catalogue. The legacy files are made with `msgconv -t CHARSET` (characters
 * GBK lacks become "?" first). Prints, over 15 interleaved runs (the order of the inputs rotates from
 * run to run), the median of parse, cold format (no layout cache) and both, the fastest "both" (the
 * least disturbed by other load), and the ratios of each to UTF-8's.
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { legacyCodec } from "../lib/po/charsets/_legacy_charset.ts";
import { benchCatalogueFile } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

type Engine = { parsePo: typeof parsePo; encodePo: typeof encodePo };

const before = Deno.args.find((a) => a.startsWith("--before="))?.slice(9);
const file = Deno.args.find((a) => !a.startsWith("--")) ?? await benchCatalogueFile();
const RUNS = 15;

async function msgconv(to: string, input: Uint8Array): Promise<Uint8Array> {
  const child = new Deno.Command("msgconv", { args: ["-t", to, "-"], stdin: "piped", stdout: "piped" })
    .spawn();
  const w = child.stdin.getWriter();
  await w.write(input);
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`msgconv -t ${to} failed`);
  return out.stdout;
}

const utf8 = Deno.readFileSync(file);
const gbk = legacyCodec("GBK")!;
const gbkText = [...new TextDecoder().decode(utf8)].map((c) => typeof gbk.encode(c) === "number" ? "?" : c)
  .join("");
const inputs: [string, Uint8Array, Engine][] = [
  ["UTF-8", utf8, { parsePo, encodePo }],
  ["GB18030", await msgconv("GB18030", utf8), { parsePo, encodePo }],
  ["GBK", await msgconv("GBK", new TextEncoder().encode(gbkText)), { parsePo, encodePo }],
];
if (before !== undefined) {
  const old = await import(new URL(`file://${Deno.realPathSync(before)}/lib/po/mod.ts`).href) as Engine;
  inputs.splice(1, 0, ["UTF-8, before", utf8, old]);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const results = inputs.map(() => ({ parse: [] as number[], cold: [] as number[], both: [] as number[] }));
for (let i = 0; i < RUNS + 2; i++) {
  for (let j = 0; j < inputs.length; j++) {
    const k = (i + j) % inputs.length;
    const [, bytes, engine] = inputs[k]!; // k < inputs.length
    const p = time(() => engine.parsePo(bytes));
    const fresh = engine.parsePo(bytes);
    const c = time(() => engine.encodePo(fresh));
    const b = time(() => engine.encodePo(engine.parsePo(bytes)));
    if (i >= 2) { // the first two runs warm the JIT (and build the codecs)
      results[k]!.parse.push(p);
      results[k]!.cold.push(c);
      results[k]!.both.push(b);
    }
  }
}

const f = (n: number) => n.toFixed(1).padStart(7);
const base = median(results[0]!.both);
const baseMin = Math.min(...results[0]!.both);
console.log(`file: ${file}, ${RUNS} interleaved runs (ms; medians, and the fastest of "both")`);
console.log("charset          MB     parse   format     both  ×UTF-8  fastest  ×UTF-8");
inputs.forEach(([name, bytes], k) => {
  const r = results[k]!;
  const both = median(r.both);
  const fastest = Math.min(...r.both);
  console.log(
    `${name.padEnd(14)} ${(bytes.length / 1e6).toFixed(2)} ${f(median(r.parse))} ${f(median(r.cold))} ${
      f(both)
    }` +
      `   ${(both / base).toFixed(2)}  ${f(fastest)}   ${(fastest / baseMin).toFixed(2)}`,
  );
});
