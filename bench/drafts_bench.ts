/**
 * The review lane on a python-docs-sized tree (issue 37.2): 520 generated catalogues, 20 of them
 * with drafts. Side by side in one run, each a fresh app over the same files: the first (cold)
 * POST /po/catalogues, the first POST /po/drafts over the whole tree (every file's bytes searched
 * for the mark, the few that have it parsed), then warm repeats of both, and a warm listing by
 * author. What to read is the ratio of list_drafts to list_catalogues, cold and warm.
 *
 *   deno run --allow-read --allow-write --allow-env --allow-sys bench/drafts_bench.ts [TREE_DIR]
 *
 * TREE_DIR (default /tmp/drafts-bench-tree) is generated when it holds no catalogue
 * (bench/_generated_po.ts: the same bytes every time), and its drafts are written through write_po.
 *
 * @module
 */
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { createApp } from "../routes/mod.ts";
import { poTools } from "../routes/po.ts";
import { reviewTools } from "../routes/review.ts";
import { workbenchTools } from "../routes/workbench.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

await loadNativeBytes();

const TREE = Deno.args[0] ?? "/tmp/drafts-bench-tree";
const FILES = 520;
const ENTRIES = 400;
const WITH_DRAFTS = 20;

function app() {
  const catalogues = new CatalogueStore({ roots: [TREE], codec: PO_CODEC });
  return createApp({ config: { apiToken: undefined, maxBodyBytes: 1 << 24 }, log: () => {}, catalogues }, [
    poTools,
    workbenchTools,
    reviewTools,
  ]);
}

async function post(a: ReturnType<typeof app>, path: string, body: unknown) {
  const res = await a.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const out = await fn();
  return [performance.now() - start, out];
}

let existing = 0;
try {
  for (const e of Deno.readDirSync(`${TREE}/library`)) if (e.name.endsWith(".po")) existing++;
} catch {
  // not there yet
}
if (existing < FILES) {
  await Deno.mkdir(`${TREE}/library`, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const bytes = encodePo(parsePo(generatedCatalogue(ENTRIES + (i % 7) * 50), "x.po"));
    await Deno.writeFile(`${TREE}/library/f${String(i).padStart(3, "0")}.po`, bytes);
  }
}
const marked = new TextDecoder().decode(await Deno.readFile(`${TREE}/library/f000.po`)).includes("# draft: ");
if (!marked) {
  const writer = app();
  for (let i = 0; i < WITH_DRAFTS; i++) {
    const file_path = `${TREE}/library/f${String(i * 26).padStart(3, "0")}.po`;
    const { entries } = await post(writer, "/po/entries", { path: file_path, limit: 5, fields: ["msgid"] });
    await post(writer, "/po/write", {
      file_path,
      mode: "update",
      entries: entries.map((e: { msgid: string }, k: number) => ({
        msgid: e.msgid,
        msgstr: `brouillon ${k}`,
        draft: true,
        draft_author: k % 2 === 0 ? "model-a" : "model-b",
      })),
    });
  }
}

const a = app();
const [catalogueCold] = await timed(() => post(a, "/po/catalogues", { limit: 10 }));
const [draftsCold, first] = await timed(() => post(a, "/po/drafts", { limit: 20 }));
const warm = { catalogues: Infinity, drafts: Infinity, author: Infinity };
for (let i = 0; i < 5; i++) {
  warm.catalogues = Math.min(
    warm.catalogues,
    (await timed(() => post(a, "/po/catalogues", { limit: 10 })))[0],
  );
  warm.drafts = Math.min(warm.drafts, (await timed(() => post(a, "/po/drafts", { limit: 20 })))[0]);
  warm.author = Math.min(
    warm.author,
    (await timed(() => post(a, "/po/drafts", { limit: 20, author: "model-a" })))[0],
  );
}
const b = app();
const [draftsAlone] = await timed(() => post(b, "/po/drafts", { limit: 20 }));
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`tree: ${FILES} catalogues under ${TREE}, ${first.total} drafts in ${WITH_DRAFTS} of them`);
console.log(`cold list_catalogues            ${ms(catalogueCold)}`);
console.log(
  `cold list_drafts (after it)     ${ms(draftsCold)}  (${(draftsCold / catalogueCold).toFixed(2)}x)`,
);
console.log(
  `cold list_drafts (fresh app)    ${ms(draftsAlone)}  (${(draftsAlone / catalogueCold).toFixed(2)}x)`,
);
console.log(`warm list_catalogues (best of 5) ${ms(warm.catalogues)}`);
console.log(
  `warm list_drafts (best of 5)     ${ms(warm.drafts)}  (${(warm.drafts / warm.catalogues).toFixed(2)}x)`,
);
console.log(
  `warm list_drafts by author       ${ms(warm.author)}  (${(warm.author / warm.catalogues).toFixed(2)}x)`,
);
