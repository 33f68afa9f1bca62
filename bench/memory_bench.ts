/**
 * The translation memory at scale (issue 36.5): a generated tree of LANGS × PER_LANG catalogues
 * (default 30 × 170, > 300 MB) built from `../shared/corpus/po`, then
 * - the build (= the bound of the first query after start), the index's heap and the RSS vs the tree,
 * - `suggest` warm: p50/p95 of QUERIES queries (a corpus msgid with one word edited, or unchanged),
 * - the incremental update after one write (the store's write listener),
 * - side by side, a brute-force pass a user could write instead (walk, read, parse every catalogue
 *   of the language, score every translated msgid with the same measure), as a ratio.
 *
 *   deno run --v8-flags=--expose-gc,--max-old-space-size=8192 --allow-read --allow-write=/tmp \
 *     --allow-env --allow-sys bench/memory_bench.ts [TREE_DIR] [LANGS] [PER_LANG] [QUERIES]
 *
 * The tree is generated once into TREE_DIR (default /tmp/po-memory-tree) and reused.
 *
 * @module
 */
import process from "node:process";
import { TranslationMemory } from "../lib/memory/mod.ts";
import {
  encodePo,
  fuzzySimilarity,
  LcsPattern,
  parsePo,
  PO_CODEC,
  type PoCatalog,
  type PoMessage,
} from "../lib/po/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { Workbench } from "../lib/workbench/mod.ts";

const TREE = Deno.args[0] ?? "/tmp/po-memory-tree";
const LANGS = Number(Deno.args[1] ?? 30);
const PER_LANG = Number(Deno.args[2] ?? 170);
const QUERIES = Number(Deno.args[3] ?? 300);
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);

const LANGUAGES = [
  "fr",
  "es",
  "de",
  "it",
  "pt_BR",
  "ja",
  "ko",
  "zh_CN",
  "zh_TW",
  "ru",
  "pl",
  "tr",
  "uk",
  "nl",
  "sv",
  "cs",
  "hu",
  "id",
  "vi",
  "el",
  "fa",
  "he",
  "ar",
  "ro",
  "bn_IN",
  "ka",
  "ta",
  "th",
  "hi",
  "da",
  "fi",
  "nb",
  "sk",
  "sl",
];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** The JS heap and the memory of typed arrays (outside the heap), after a full collection. */
function heapMb(): number {
  gc();
  gc();
  const usage = Deno.memoryUsage();
  return (usage.heapUsed + usage.external) / 2 ** 20;
}

/** CPU time of this process (user + system), ms: what a query costs whatever the machine's load. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The corpus catalogues that parse (one of them is invalid PO on purpose), but the two largest. */
function corpusCatalogues(): { name: string; catalog: PoCatalog }[] {
  const out: { name: string; catalog: PoCatalog }[] = [];
  for (const entry of [...Deno.readDirSync(CORPUS)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.name.endsWith(".po")) continue;
    // The two 2 MB changelogs would make the tree mostly two files' text.
    if (Deno.statSync(new URL(entry.name, CORPUS)).size > 1 << 20) continue;
    try {
      const catalog = parsePo(Deno.readFileSync(new URL(entry.name, CORPUS)), entry.name);
      out.push({ name: entry.name.replace(/\.po$/, ""), catalog });
    } catch {
      // es__library__re.po: a syntax error msgcat refuses too
    }
  }
  return out;
}

/** Variant `v` of a msgid: the same text for v = 0, else a version marker (python-docs' near-duplicates). */
function variantMsgid(msgid: string, v: number): string {
  return v === 0 || msgid === "" ? msgid : `${msgid} (v${v})`;
}

/** A translation that differs per language (so nothing is shared between languages but the msgids). */
function variantMsgstr(msgstr: string, language: string): string {
  return msgstr === "" ? "" : `${msgstr} [${language}]`;
}

async function generate(sources: { name: string; catalog: PoCatalog }[]): Promise<void> {
  console.log(`generating ${LANGS} × ${PER_LANG} catalogues into ${TREE} ...`);
  for (let l = 0; l < LANGS; l++) {
    const language = LANGUAGES[l % LANGUAGES.length]! + (l >= LANGUAGES.length ? `_${l}` : "");
    for (let k = 0; k < PER_LANG; k++) {
      const source = sources[k % sources.length]!;
      const v = Math.floor(k / sources.length);
      const messages: PoMessage[] = source.catalog.messages.map((m) => {
        if (m.msgid === "" && m.msgctxt === null) {
          return { ...m, msgstr: m.msgstr.replace(/^Language:.*$/m, `Language: ${language}`) };
        }
        return {
          ...m,
          msgid: variantMsgid(m.msgid, v),
          msgstr: variantMsgstr(m.msgstr, language),
          msgstrPlural: m.msgstrPlural?.map((s) => variantMsgstr(s, language)) ?? null,
        };
      });
      const dir = `${TREE}/${language}/LC_MESSAGES/${source.name.split("__")[0]}`;
      await Deno.mkdir(dir, { recursive: true });
      const bytes = encodePo({ ...source.catalog, messages });
      await Deno.writeFile(
        `${dir}/${source.name}_${v}.po`,
        bytes instanceof Uint8Array ? bytes : concat(bytes),
      );
    }
  }
}

function concat(runs: Iterable<Uint8Array>): Uint8Array {
  const parts = [...runs];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function treeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) treeFiles(path, out);
    else if (entry.name.endsWith(".po")) out.push(path);
  }
  return out;
}

/** Queries: corpus msgids of some length, one word edited (3 in 4) or unchanged, from catalogue files. */
function queries(sources: { name: string; catalog: PoCatalog }[], files: string[]) {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pool = sources.flatMap((s) =>
    s.catalog.messages.filter((m) => !m.obsolete && m.msgstr !== "" && m.msgid.split(" ").length >= 6)
  );
  const out: { msgid: string; filePath: string }[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const message = pool[Math.floor(random() * pool.length)]!;
    let msgid = message.msgid;
    if (q % 4 !== 0) {
      const words = msgid.split(" ");
      words[Math.floor(random() * words.length)] = "zebra";
      msgid = words.join(" ");
    }
    out.push({ msgid, filePath: files[Math.floor(random() * files.length)]! });
  }
  return out;
}

/** The brute force a user could write: every catalogue of the language read, parsed and scored. */
async function bruteForce(files: string[], language: string, msgid: string): Promise<number> {
  let best = -1;
  const query = new LcsPattern(new TextEncoder().encode(msgid));
  for (const file of files) {
    if (!file.startsWith(`${TREE}/${language}/`)) continue;
    const catalog = parsePo(await Deno.readFile(file), file);
    for (const m of catalog.messages) {
      if (m.obsolete ? m.msgstr === "" : m.msgstr === "" || m.flags.includes("fuzzy")) continue;
      const value = fuzzySimilarity(query, new TextEncoder().encode(m.msgid), 0.6);
      if (value > best) best = value;
    }
  }
  return best;
}

const sources = corpusCatalogues();
try {
  Deno.statSync(`${TREE}/.complete`);
} catch {
  await generate(sources);
  Deno.writeTextFileSync(`${TREE}/.complete`, "");
}
const files = treeFiles(TREE);
const treeBytes = files.reduce((n, f) => n + Deno.statSync(f).size, 0);
console.log(
  `tree: ${files.length} catalogues, ${(treeBytes / 2 ** 20).toFixed(0)} MiB; load average ${
    Deno.loadavg().map((x) => x.toFixed(1)).join(" ")
  }`,
);

const heapBefore = heapMb();
const rssBefore = Deno.memoryUsage().rss / 2 ** 20;
const store = new CatalogueStore({ roots: [TREE], codec: PO_CODEC, maxFileBytes: 64 * 2 ** 20 });
const workbench = new Workbench(store);
const memory = new TranslationMemory(store, workbench);
let listenerStart = 0;
store.onWritten(() => listenerStart = performance.now());
const asked = queries(sources, files);

// The first query after start: it waits for the build, started with it.
let t = performance.now();
let cpu = cpuMs();
const first = await memory.suggest({ ...asked[0]!, msgctxt: null, limit: 10 });
const firstMs = performance.now() - t;
const firstCpuMs = cpuMs() - cpu;
let listenerMs = 0;
store.onWritten(() => listenerMs = performance.now() - listenerStart);
const stats = memory.stats();
const heapAfter = heapMb();
const rssAfter = Deno.memoryUsage().rss / 2 ** 20;
console.log(
  `first query after start: ${firstMs.toFixed(0)} ms, CPU ${
    firstCpuMs.toFixed(0)
  } ms (build ${stats.buildMs} ms), ` +
    `${first.suggestions.length} suggestions`,
);
console.log(
  `index: ${stats.catalogues} catalogues, ${stats.entries} entries, ${stats.msgids} distinct msgids, ` +
    `${stats.words} words; heap + typed arrays +${
      (heapAfter - heapBefore).toFixed(0)
    } MiB (the workbench's ` +
    `records included), RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB; tree ${
      (treeBytes / 2 ** 20).toFixed(0)
    } MiB: ` +
    `heap/tree ${((heapAfter - heapBefore) / (treeBytes / 2 ** 20)).toFixed(2)}`,
);

// Warm.
const times: number[] = [];
const cpuTimes: number[] = [];
let found = 0;
for (const query of asked) {
  t = performance.now();
  cpu = cpuMs();
  const answer = await memory.suggest({ ...query, msgctxt: null, limit: 10 });
  times.push(performance.now() - t);
  cpuTimes.push(cpuMs() - cpu);
  if (answer.suggestions.length > 0) found++;
}
const p50 = percentile(times, 0.5), p95 = percentile(times, 0.95);
console.log(
  `suggest warm, ${times.length} queries: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ` +
    `max ${Math.max(...times).toFixed(1)} ms (CPU p50 ${percentile(cpuTimes, 0.5).toFixed(1)} ms, p95 ` +
    `${percentile(cpuTimes, 0.95).toFixed(1)} ms); ${found} with suggestions`,
);

// One write: the time the index takes to follow it (between a listener registered before the
// memory's and one after), and the write itself; then the next query must see it.
const target = files[7]!;
const before = parsePo(await Deno.readFile(target), target);
const edited = before.messages.findIndex((m) =>
  m.msgid !== "" && !m.obsolete && m.msgstr !== "" && !m.flags.includes("fuzzy")
);
const revised = before.messages[edited]!.msgstr + " (revu)";
t = performance.now();
await store.update(target, (doc) => ({
  doc: { ...doc!, messages: doc!.messages.map((m, i) => i === edited ? { ...m, msgstr: revised } : m) },
  result: null,
}));
const writeMs = performance.now() - t;
const seen = await memory.suggest({
  msgid: before.messages[edited]!.msgid,
  filePath: target,
  msgctxt: "not this entry",
  limit: 50,
});
console.log(
  `one write: ${writeMs.toFixed(1)} ms in all, of which the index update ${listenerMs.toFixed(2)} ms; ` +
    `the next query sees it: ${seen.suggestions.some((s) => s.msgstr === revised)}`,
);

// Brute force, side by side, on the first few queries.
const bruteTimes: number[] = [];
const indexTimes: number[] = [];
for (const query of asked.slice(0, 3)) {
  const language = query.filePath.slice(TREE.length + 1).split("/")[0]!;
  t = performance.now();
  await memory.suggest({ ...query, msgctxt: null, limit: 10 });
  indexTimes.push(performance.now() - t);
  t = performance.now();
  await bruteForce(files, language, query.msgid);
  bruteTimes.push(performance.now() - t);
}
const bruteMedian = percentile(bruteTimes, 0.5), indexMedian = percentile(indexTimes, 0.5);
console.log(
  `brute force (read + parse + score the language's ${files.length / LANGS} catalogues): median ` +
    `${bruteMedian.toFixed(0)} ms over ${bruteTimes.length} queries vs the index ${
      indexMedian.toFixed(1)
    } ms: ` +
    `${(bruteMedian / indexMedian).toFixed(0)}× faster`,
);
memory.close();
