/**
 * What the write checks of issues 24 and 18 cost, in process (no HTTP, no file): a 200-entry
 * `mode: "update"` write against a 10,000-entry catalogue with and without a typo, the worst case
 * for closest msgids (every entry a typo: 20 listed, each searched to its bound), and a dry run's
 * diff. Median and maximum of RUNS runs after one warm-up.
 *
 *   deno run bench/write_edits_bench.ts [ENTRIES] [RUNS]     (defaults 10000 15)
 *
 * @module
 */
import { applyWrite, encodePo, parsePo, unifiedDiff, type WriteEntry } from "../lib/po/mod.ts";
import { DRY_RUN_DIFF_WORK } from "../lib/po/operations/edit_catalogue.ts";
import { ConflictError } from "../lib/errors.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const entries = Number(Deno.args[0] ?? 10_000);
const runs = Number(Deno.args[1] ?? 15);

// Laid out as msgcat lays it out, then read back: the catalogue a write starts from.
const catalog = parsePo(encodePo(parsePo(generatedCatalogue(entries))));
const msgids = catalog.messages.filter((m) => m.msgid !== "").map((m) => m.msgid);

function time(name: string, fn: () => void): void {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(64)} median ${ms[ms.length >> 1]!.toFixed(1).padStart(7)} ms   max ${
      ms[ms.length - 1]!.toFixed(1).padStart(7)
    } ms`,
  );
}

/** 200 entries spread over the catalogue, each with a new translation; `typo(k)` misspells entry k. */
function request(typo: (k: number) => boolean): WriteEntry[] {
  return Array.from({ length: 200 }, (_, k) => {
    const msgid = msgids[Math.floor(k * msgids.length / 200)]!;
    return { msgid: typo(k) ? msgid.slice(0, 5) + msgid.slice(6) : msgid, msgstr: `nouveau ${k}` };
  });
}

function refused(write: WriteEntry[]): void {
  try {
    applyWrite(catalog, write, { mode: "update", revision: null });
  } catch (error) {
    if (error instanceof ConflictError) return;
    throw error;
  }
  throw new Error("expected a conflict");
}

console.log(`${entries} entries (${encodePo(catalog).length} bytes), ${runs} runs`);
time("update, 200 entries, none missing (applied, not written)", () => {
  applyWrite(catalog, request(() => false), { mode: "update" });
});
time(
  "update, 200 entries, 1 typo: refused with its closest msgids",
  () => refused(request((k) => k === 137)),
);
time("update, 200 entries, all typos: 20 listed, each searched", () => refused(request(() => true)));
const before = new TextDecoder().decode(encodePo(catalog));
for (const every of [200, 1]) {
  const changed = every === 1
    ? msgids.map((msgid, k) => ({ msgid, msgstr: `nouveau ${k}` }))
    : request(() => false);
  const after = new TextDecoder().decode(encodePo(applyWrite(catalog, changed).catalog));
  time(`dry-run diff, ${changed.length} entries changed (work bound ${DRY_RUN_DIFF_WORK})`, () => {
    unifiedDiff(before, after, "fr.po", { maxWork: DRY_RUN_DIFF_WORK });
  });
}
