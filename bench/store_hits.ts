/**
 * What a cached read leaves in V8's old generation: reads one small catalogue through the store many
 * times (every read a cache hit) and reports the old generation's growth per read, no collection
 * forced in between. Garbage there is what full collections are for, and what the resident memory of
 * a busy server is made of between them.
 *
 *   deno run --allow-read --allow-write --allow-sys bench/store_hits.ts [READS]
 */
import v8 from "node:v8";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const reads = Number(Deno.args[0] ?? 200_000);
const root = await Deno.realPath(await Deno.makeTempDir());
try {
  const file = `${root}/a.po`;
  await Deno.writeTextFile(file, 'msgid "Hello"\nmsgstr "Bonjour"\n');
  const store = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  for (let i = 0; i < 1000; i++) await store.read(file); // warm: JIT, the cache, the resolution
  const oldGen = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space")!.space_used_size;
  const before = oldGen();
  const started = performance.now();
  for (let i = 0; i < reads; i++) await store.read(file);
  const ms = performance.now() - started;
  const grown = oldGen() - before;
  console.log(`${reads} cached reads: ${(ms * 1000 / reads).toFixed(2)} µs each`);
  console.log(
    `old generation grew ${(grown / 1e6).toFixed(2)} MB: ${(grown / reads).toFixed(1)} bytes per read`,
  );
  console.log(`(a full collection in between resets the count; run it twice to see the spread)`);
} finally {
  await Deno.remove(root, { recursive: true });
}
