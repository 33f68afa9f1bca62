/**
 * Heap taken by a parsed catalogue: parses a file ten times, keeps the catalogues, and reports the V8
 * heap they hold (after full collections) per catalogue, with the file size for scale.
 *
 *   deno run --allow-read --allow-write --v8-flags=--expose-gc bench/po_heap.ts [FILE]
 *
 * Default FILE: ../shared/corpus/po/zh-cn__whatsnew__changelog.po (2.3 MB, 12k entries); without
 * ../shared, a generated catalogue of 12k entries (written to a temp file, removed at exit).
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";

const CORPUS_FILE = new URL("../../shared/corpus/po/zh-cn__whatsnew__changelog.po", import.meta.url).pathname;
/** FILE, else the corpus file, else (no ../shared) a generated catalogue written to a temp file. */
const file = Deno.args[0] ?? (exists(CORPUS_FILE) ? CORPUS_FILE : generatedFile());

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function generatedFile(): string {
  console.log("../shared not found: a generated catalogue of 12,000 entries instead of the corpus file");
  const path = Deno.makeTempFileSync({ prefix: "po-bench-", suffix: ".po" });
  Deno.writeFileSync(path, encodePo(parsePo(generatedCatalogue(12_000))));
  globalThis.addEventListener("unload", () => Deno.removeSync(path));
  return path;
}
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
console.log(`file: ${file} (${mb(bytes.length)}, ${kept[0].messages.length} messages)`);
console.log(
  `heap per parsed catalogue: ${mb(perCatalogue)} (${(perCatalogue / bytes.length).toFixed(2)}x the file)`,
);
