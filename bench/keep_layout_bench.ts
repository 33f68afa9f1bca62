/**
 * What `layout: "keep"` costs a one-entry write (issue 35.2), beside `layout: "full"`, in process
 * (no HTTP, no file): the bytes to write for one changed msgstr, on a catalogue in msgcat's layout
 * (keep takes the full layout after one scan) and on the same catalogue laid out without wrapping
 * (`--no-wrap`, as some tools write: keep lays out one entry, reads the result back and counts what a
 * full re-layout would change). Median of RUNS runs after one warm-up, and the ratio keep / full,
 * for the first keep write to a document read from the file and for the next ones to it.
 *
 *   deno run bench/keep_layout_bench.ts [ENTRIES] [RUNS]     (defaults 10000 9)
 *
 * @module
 */
import { applyWrite, encodePo, keptBytes, parsePo, type PoCatalog } from "../lib/po/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

await loadNativeBytes();

const entries = Number(Deno.args[0] ?? 10_000);
const runs = Number(Deno.args[1] ?? 9);

function median(fn: () => void): number {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return ms[ms.length >> 1]!;
}

const source = parsePo(generatedCatalogue(entries));
for (
  const [name, bytes] of [
    ["in msgcat's layout", encodePo(source)],
    ["laid out with --no-wrap", encodePo(source, { noWrap: true })],
  ] as const
) {
  const before: PoCatalog = parsePo(bytes);
  const target = before.messages[before.messages.length >> 1]!;
  let k = 0;
  // A new translation each run: a write the layout cache has not seen.
  const edit = (from: PoCatalog) =>
    applyWrite(from, [{ msgid: target.msgid, msgstr: `nouveau ${k++}` }]).catalog;
  const full = median(() => keptBytes(bytes, before, edit(before), "full"));
  // The first keep write to a document read from the file (each run reads it anew, untimed)...
  const docs = Array.from({ length: runs + 1 }, () => parsePo(bytes));
  const edits = docs.map((doc) => edit(doc));
  let d = 0;
  const first = median(() => {
    keptBytes(bytes, docs[d]!, edits[d]!, "keep");
    d++;
  });
  // ...and the next ones to the same document, as the store keeps it between writes.
  const keep = median(() => keptBytes(bytes, before, edit(before), "keep"));
  console.log(
    `${name.padEnd(26)} ${(bytes.length / 1e6).toFixed(1)} MB   full ${full.toFixed(1).padStart(7)} ms   ` +
      `keep: first ${first.toFixed(1).padStart(7)} ms, next ${keep.toFixed(1).padStart(7)} ms   ` +
      `keep/full ${(first / full).toFixed(2)}x, ${(keep / full).toFixed(2)}x`,
  );
}
