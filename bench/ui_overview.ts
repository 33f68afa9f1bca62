/**
 * The dashboard's overview on a python-docs-sized tree, in Debian's Chromium (playwright-core): time
 * from navigation to every catalogue's row drawn, first load after the server started (cold: the
 * workbench lists the tree) and reloads (warm), and the page's weight compressed.
 *
 *   deno run -A bench/ui_overview.ts [ROOT] [RUNS]
 *
 * Without ROOT it writes 520 generated catalogues (30–600 entries) to a temp directory. Prints one
 * line per figure; nothing is asserted (the figures go to bench/README.md).
 *
 * @module
 */
import { chromium } from "playwright-core";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { createApp } from "../routes/mod.ts";
import { UI_PATHS } from "../routes/ui.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { CHROMIUM, CHROMIUM_FLAGS } from "../tests/_prerequisites.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const rootArg = Deno.args[0] || undefined;
const runsArg = Deno.args[1];
const runs = Number(runsArg ?? 5);

async function generatedTree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "ui-bench-" });
  for (let d = 0; d < 26; d++) {
    const dir = `${root}/${["library", "howto", "reference", "tutorial", "whatsnew", "c-api"][d % 6]}${d}`;
    await Deno.mkdir(dir, { recursive: true });
    for (let f = 0; f < 20; f++) {
      const n = 30 + ((d * 20 + f) * 37) % 570;
      await Deno.writeFile(`${dir}/module${f}.po`, encodePo(parsePo(generatedCatalogue(n), "g.po")));
    }
  }
  return root;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const root = await Deno.realPath(rootArg ?? await generatedTree());
let files = 0, bytes = 0;
async function count(dir: string) {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) await count(`${dir}/${e.name}`);
    else if (e.isFile && e.name.endsWith(".po")) files++, bytes += (await Deno.stat(`${dir}/${e.name}`)).size;
  }
}
await count(root);
console.log(`tree: ${root}: ${files} catalogues, ${(bytes / 1e6).toFixed(1)} MB`);

const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
const app = createApp({
  config: { apiToken: undefined, maxBodyBytes: 1 << 20 },
  log: () => {},
  catalogues,
  gpss: { search: () => Promise.reject(new Error("no GPSS in this bench")) },
});
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
const base = `http://127.0.0.1:${server.addr.port}`;

let weight = 0, weightGz = 0;
for (const path of ["/", ...UI_PATHS.filter((p) => p.startsWith("/ui/") && p !== "/ui/catalogue")]) {
  const body = new Uint8Array(await (await fetch(`${base}${path}`)).arrayBuffer());
  weight += body.length;
  weightGz += await gzipSize(body);
}
console.log(
  `page weight: ${weight} bytes, ${weightGz} bytes gzip-compressed (HTML + script modules + style)`,
);

const browser = await chromium.launch({
  executablePath: CHROMIUM ?? "/usr/bin/chromium",
  args: [...CHROMIUM_FLAGS],
});
try {
  // bypassCSP: the page forbids eval, which playwright's polling of waitForFunction needs.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const drawn = `document.querySelectorAll("tr.file").length >= ${files}`;
  const load = async () => {
    const t0 = performance.now();
    await page.goto(`${base}/`);
    await page.waitForFunction(drawn, undefined, { timeout: 120_000, polling: 10 });
    return performance.now() - t0;
  };
  console.log(`cold (first load after start): ${(await load()).toFixed(0)} ms`);
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) warm.push(await load());
  console.log(
    `warm (${runs} loads): median ${median(warm).toFixed(0)} ms; ${warm.map((t) => t.toFixed(0)).join(" ")}`,
  );
  const api: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/po/catalogues`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1000 }),
    });
    await res.arrayBuffer();
    api.push(performance.now() - t);
  }
  console.log(`of which the listing (POST /po/catalogues, warm): median ${median(api).toFixed(0)} ms`);
  const t0 = performance.now();
  await page.fill("#filter", "library1");
  await page.waitForFunction(`document.querySelectorAll("tr.file").length < ${files}`);
  console.log(`filter typed → table redrawn: ${(performance.now() - t0).toFixed(0)} ms`);
} finally {
  await browser.close();
  await server.shutdown();
  if (!rootArg) await Deno.remove(root, { recursive: true });
}
