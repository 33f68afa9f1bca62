/**
 * Heap taken by a parsed catalogue: parses a file ten times, keeps the catalogues, and reports the V8
 * heap they hold (after full collections) per catalogue, with the file size for scale.
 *
 *   deno run --allow-read --allow-write --v8-flags=--expose-gc bench/po_heap.ts [FILE]
 *
 * Default FILE: ../shared/corpus/po/zh-cn__whatsnew__changelog.po (2.3 MB, 12k entries); without
 * ../shared, a generated catalogue of 12k entries (written to a temp file, removed at exit).
 */
import { parsePo } from "../lib/po/mod.ts";
import { benchCatalogueFile } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

/** FILE, else the corpus file, else (no ../shared) a generated catalogue written to a temp file. */
const file = Deno.args[0] ?? await benchCatalogueFile();
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --v8-flags=--expose-gc");
const bytes = Deno.readFileSync(file);
const COPIES = 10;

parsePo(bytes, { fileName: file }); // modules and code first
gc();
gc();
const before = Deno.memoryUsage().heapUsed;
const kept = Array.from({ length: COPIES }, () => parsePo(bytes, { fileName: file }));
gc();
gc();
const perCatalogue = (Deno.memoryUsage().heapUsed - before) / COPIES;
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`file: ${file} (${mb(bytes.length)}, ${kept[0]?.messages.length} messages)`);
console.log(
  `heap per parsed catalogue: ${mb(perCatalogue)} (${(perCatalogue / bytes.length).toFixed(2)}x the file)`,
);
