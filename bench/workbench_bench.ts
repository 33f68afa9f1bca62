/**
 * The workbench on a python-docs-sized tree (issue 18.7): 520 catalogues, about 70 MB. Side by side
 * in one run: `msgfmt --statistics` over every file (one process per file, as a script would), the
 * cold listing (the first POST /po/catalogues of a fresh app, JIT included), warm listings, warm
 * whole-tree searches (nothing to find: every entry is looked at), a paged walk, and the heap the
 * tree costs once listed and searched.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env --allow-sys \
 *     --v8-flags=--expose-gc,--memory-saver-mode,--enable-experimental-regexp-engine bench/workbench_bench.ts [TREE_DIR]
 *
 * (`--memory-saver-mode` as `deno task start` runs the server; without it V8 grows its heap in larger
 * steps and the process's RSS after the first search is higher, see bench/README.md.)
 *
 * TREE_DIR (default /tmp/workbench-tree) is generated when it holds no catalogue: with
 * ../shared/reference/perf/gen-po (msgcat-formatted, python-docs-like zh_TW) when present, else with
 * bench/_generated_po.ts; the same seeds always give the same bytes. The real corpus
 * (../shared/corpus/po) is copied into TREE_DIR/corpus when present.
 *
 * @module
 */
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { createApp } from "../routes/mod.ts";
import { workbenchTools } from "../routes/workbench.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const TREE = Deno.args[0] ?? "/tmp/workbench-tree";
const FILES = 520;
const DIRS = [
  "library",
  "c-api",
  "howto",
  "whatsnew",
  "reference",
  "tutorial",
  "using",
  "faq",
  "extending",
  "distributing",
];
const GEN_PO = new URL("../../shared/reference/perf/gen-po", import.meta.url).pathname;

function catalogues(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      if (e.isDirectory) walk(`${d}/${e.name}`);
      else if (e.name.endsWith(".po")) out.push(`${d}/${e.name}`);
    }
  };
  try {
    walk(dir);
  } catch {
    // not there yet
  }
  return out.sort();
}

function generate(): void {
  let genPo = false;
  try {
    genPo = Deno.statSync(GEN_PO).isFile;
  } catch {
    // no ../shared
  }
  console.log(
    `generating ${FILES} catalogues in ${TREE} with ${genPo ? "gen-po" : "bench/_generated_po.ts"}…`,
  );
  for (let i = 0; i < FILES; i++) {
    const dir = `${TREE}/${DIRS[i % DIRS.length]}`;
    Deno.mkdirSync(dir, { recursive: true });
    const n = 40 + (i * 37) % 600;
    const out = `${dir}/f${i}.po`;
    if (genPo) {
      const run = new Deno.Command(GEN_PO, { args: ["-n", String(n), "--seed", String(i + 1), "-o", out] })
        .outputSync();
      if (!run.success) throw new Error(`gen-po failed: ${new TextDecoder().decode(run.stderr)}`);
    } else {
      Deno.writeFileSync(out, generatedCatalogue(n * 3));
    }
  }
}

if (catalogues(TREE).length === 0) generate();
// Plus the real corpus where present (issue 18.7): ../shared/corpus/po's catalogues in corpus/, the one
// msgfmt and msgcat reject among them included (it is listed with its error, and searched past).
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url).pathname;
try {
  if (catalogues(`${TREE}/corpus`).length === 0) {
    Deno.mkdirSync(`${TREE}/corpus`, { recursive: true });
    for (const e of Deno.readDirSync(CORPUS)) {
      if (e.isFile && e.name.endsWith(".po")) {
        Deno.copyFileSync(`${CORPUS}${e.name}`, `${TREE}/corpus/${e.name}`);
      }
    }
  }
} catch {
  console.log("no ../shared/corpus: the tree is the generated catalogues alone");
}
const files = catalogues(TREE);
const treeBytes = files.reduce((n, f) => n + Deno.statSync(f).size, 0);
const mb = (n: number) => (n / 1e6).toFixed(1);
console.log(`tree: ${files.length} catalogues, ${mb(treeBytes)} MB on disk`);

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// 1. msgfmt --statistics over every file, one after the other (SKIP_MSGFMT=1: not again).
let msgfmtMs: number | null = null;
if (Deno.env.get("SKIP_MSGFMT")) console.log("msgfmt skipped (SKIP_MSGFMT)");
else {try {
    const started = performance.now();
    for (const f of files) {
      new Deno.Command("msgfmt", { args: ["--statistics", "-o", "/dev/null", f], stderr: "null" })
        .outputSync();
    }
    msgfmtMs = performance.now() - started;
    console.log(`msgfmt --statistics over every file: ${msgfmtMs.toFixed(0)} ms`);
  } catch {
    console.log("msgfmt not found: no comparison");
  }}

// 2. A fresh app: the first listing is the cold one.
gc();
const heapBefore = Deno.memoryUsage().heapUsed;
const root = await Deno.realPath(TREE);
const store = new CatalogueStore({ roots: [root], codec: PO_CODEC });
const app = createApp({
  config: { apiToken: undefined, maxBodyBytes: 1 << 20 },
  log: () => {},
  catalogues: store,
}, [workbenchTools]);
const post = async (path: string, body: unknown) => {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json();
};
gc();
const rssFresh = Deno.memoryUsage().rss;
console.log(`process RSS of the fresh app, before any request: ${mb(rssFresh)} MB`);
let t = performance.now();
const cold = await post("/po/catalogues", { limit: 5000 });
const coldMs = performance.now() - t;
console.log(
  `cold listing: ${coldMs.toFixed(0)} ms for ${cold.total} catalogues` +
    (msgfmtMs === null ? "" : ` (${(msgfmtMs / coldMs).toFixed(1)}× faster than msgfmt)`),
);

console.log(`process RSS after the cold listing: ${mb(Deno.memoryUsage().rss)} MB`);

// Every listed catalogue but those listed with an error (a file msgfmt rejects) is searched.
const searchable = cold.catalogues.filter((c: { error: string | null }) => c.error === null).length;
console.log(`listed with an error: ${cold.catalogues.length - searchable}`);

// 3. Warm listings: nothing changed.
const warm: number[] = [];
for (let i = 0; i < 15; i++) {
  t = performance.now();
  await post("/po/catalogues", { limit: 5000 });
  warm.push(performance.now() - t);
}
console.log(
  `warm listing: median ${median(warm).toFixed(1)} ms, max ${Math.max(...warm).toFixed(1)} ms (15 runs)`,
);

// 4. Warm whole-tree searches: a term found nowhere, so every entry is looked at.
for (
  const [name, body] of [
    ["substring, msgid+msgstr", { query: "no such text anywhere" }],
    ["case-insensitive, msgid+msgstr", { query: "NO SUCH TEXT", case_insensitive: true }],
    ["regex, msgid", { query: "^nothing\\s+here$", regex: true, in: ["msgid"] }],
    ["substring, all four fields", { query: "no such text", in: ["msgid", "msgstr", "msgctxt", "comments"] }],
  ] as const
) {
  // The first search parses every catalogue (the listing counted them from their bytes): it may end
  // on its time budget; its cursor goes on. Afterwards the records keep the parsed catalogues.
  let cursor: string | null = null;
  t = performance.now();
  let pages = 0;
  do {
    const page: { next_cursor: string | null } = await post("/po/search", { ...body, cursor });
    cursor = page.next_cursor;
    pages++;
  } while (cursor !== null);
  if (name.startsWith("substring, msgid")) {
    console.log(`first (cold) search: ${(performance.now() - t).toFixed(0)} ms in ${pages} pages`);
    console.log(`process RSS after the first search: ${mb(Deno.memoryUsage().rss)} MB`);
  }
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    const page = await post("/po/search", body);
    runs.push(performance.now() - t);
    if (page.stopped_early || page.searched_files !== searchable) {
      throw new Error("not a whole-tree search");
    }
  }
  console.log(`warm search (${name}): median ${median(runs).toFixed(1)} ms (7 runs)`);
}

// 5. A translation-memory query with hits, and a paged walk of the largest catalogue.
t = performance.now();
const tm = await post("/po/search", {
  query: "context manager",
  in: ["msgid"],
  states: ["translated"],
  limit: 50,
});
console.log(
  `translation memory query ("context manager", 50 hits): ${(performance.now() - t).toFixed(1)} ms`,
);
void tm;
const largest = cold.catalogues.reduce((
  a: { size: number },
  b: { size: number },
) => (a.size > b.size ? a : b));
t = performance.now();
let cursor: string | null = null;
let seen = 0;
do {
  const page: { entries: unknown[]; next_cursor: string | null } = await post("/po/entries", {
    path: largest.path,
    limit: 100,
    cursor,
    fields: ["msgid", "msgstr"],
  });
  seen += page.entries.length;
  cursor = page.next_cursor;
} while (cursor !== null);
console.log(
  `paged walk of ${largest.path} (${seen} entries, 100 a page): ${(performance.now() - t).toFixed(1)} ms`,
);

// 6. Memory: what the listed and searched tree holds.
gc();
const heapAfter = Deno.memoryUsage().heapUsed;
const { rss, heapTotal, external } = Deno.memoryUsage();
console.log(`heap used ${mb(heapAfter)} MB of ${mb(heapTotal)} MB held; external ${mb(external)} MB`);
console.log(
  `heap for the tree: ${mb(heapAfter - heapBefore)} MB = ${
    ((heapAfter - heapBefore) / treeBytes).toFixed(2)
  }× ` +
    `its ${mb(treeBytes)} MB; process RSS ${mb(rss)} MB = ${(rss / treeBytes).toFixed(2)}×`,
);
