/**
 * A 2,000-entry catalogue's page in Debian's Chromium (playwright-core): time from navigation until
 * the page is usable (the header's counts drawn and the first entry's translation box focusable and
 * taking keys), with every entry ("All") and with the entries to do; then time from Alt+N to the next
 * entry focused, and from "More entries" to the next page drawn.
 *
 *   deno run -A bench/ui_catalogue.ts [ENTRIES] [RUNS]
 *
 * Prints one line per figure (median of RUNS warm loads, after one cold load); nothing is asserted
 * (the figures go to docs/dashboard.md).
 *
 * @module
 */
import { chromium } from "playwright-core";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { createApp } from "../routes/mod.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { CHROMIUM, CHROMIUM_FLAGS } from "../tests/_prerequisites.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

await loadNativeBytes();

const entries = Number(Deno.args[0] ?? 2000);
const runs = Number(Deno.args[1] ?? 7);

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-catalogue-bench-" }));
await Deno.writeFile(`${root}/big.po`, encodePo(parsePo(generatedCatalogue(entries), "big.po")));
const size = (await Deno.stat(`${root}/big.po`)).size;

const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
const app = createApp({
  config: { apiToken: undefined, maxBodyBytes: 1 << 20 },
  log: () => {},
  catalogues,
  gpss: { search: () => Promise.reject(new Error("no GPSS in this bench")) },
});
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
const base = `http://127.0.0.1:${server.addr.port}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const browser = await chromium.launch({
  executablePath: CHROMIUM ?? "/usr/bin/chromium",
  args: [...CHROMIUM_FLAGS],
});
try {
  // bypassCSP: the page forbids eval, which playwright's polling of waitForFunction needs.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  // When the first entry card and the header's counts are in the document, in the page's clock.
  await page.addInitScript(`window.__drawn = null; new MutationObserver(() => {
    if (__drawn === null && document.querySelector("li.entry textarea") && document.querySelector("#counts")?.textContent)
      __drawn = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });`);
  const drawnAt: number[] = [];
  // Usable: the counts are drawn and the first translation box takes a key (the page answers input).
  const usable = `(() => {
    const area = document.querySelector("li.entry textarea");
    if (!area || !document.querySelector("#counts")?.textContent) return false;
    area.focus();
    return document.activeElement === area && performance.now();
  })()`;
  /** In the page's own clock: from navigation start to usable. */
  const inPage: number[] = [];
  const load = async (state: string) => {
    const t0 = performance.now();
    await page.goto(`${base}/ui/catalogue?${new URLSearchParams({ root, path: "big.po", state })}`);
    const at = await page.waitForFunction(usable, undefined, { timeout: 60_000, polling: "raf" });
    inPage.push(await at.jsonValue() as number);
    drawnAt.push(await page.evaluate("__drawn") as number);
    await page.keyboard.type("x");
    await page.waitForFunction(`document.activeElement.value.endsWith("x")`, undefined, { polling: "raf" });
    return performance.now() - t0;
  };
  console.log(`catalogue: ${entries} entries, ${(size / 1e3).toFixed(0)} kB`);
  for (const state of ["all", ""]) {
    const cold = await load(state);
    inPage.length = 0;
    drawnAt.length = 0;
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) warm.push(await load(state));
    console.log(
      `${state || "to do"}: navigation → usable (counts drawn, first box typed in): cold ${
        cold.toFixed(0)
      } ms, ` +
        `warm median ${median(warm).toFixed(0)} ms (${warm.map((t) => t.toFixed(0)).join(" ")}); ` +
        `in the page's clock: navigation start → first entries and counts drawn: median ${
          median(drawnAt).toFixed(0)
        } ms (${drawnAt.map((t) => t.toFixed(0)).join(" ")}), → first box focused (polled): median ${
          median(inPage).toFixed(0)
        } ms`,
    );
  }
  const next: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = await page.evaluate("document.activeElement.id") as string;
    const t0 = performance.now();
    await page.keyboard.press("Alt+N");
    await page.waitForFunction(`document.activeElement.id !== ${JSON.stringify(before)}`, undefined, {
      polling: "raf",
    });
    next.push(performance.now() - t0);
  }
  // Where the page's time goes (last load): the document, the script modules, the entries' request.
  const marks = JSON.parse(
    await page.evaluate(`JSON.stringify({
      response: performance.getEntriesByType("navigation")[0].responseEnd,
      domContentLoaded: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
      scripts: Math.max(...performance.getEntriesByType("resource").filter((r) => r.name.endsWith(".js"))
        .map((r) => r.responseEnd)),
      entriesAsked: performance.getEntriesByType("resource").find((r) => r.name.endsWith("/po/entries"))?.startTime,
      entriesAnswered: performance.getEntriesByType("resource").find((r) => r.name.endsWith("/po/entries"))?.responseEnd,
    })`) as string,
  ) as Record<string, number>;
  console.log(
    `last load, in the page's clock: ${
      Object.entries(marks).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(", ")
    }`,
  );
  console.log(`Alt+N → next entry focused: median ${median(next).toFixed(1)} ms`);
  await load("all");
  const more: number[] = [];
  for (let i = 0; i < runs; i++) {
    const n = await page.evaluate(`document.querySelectorAll("li.entry").length`) as number;
    const t0 = performance.now();
    await page.click("button:text('More entries')");
    await page.waitForFunction(`document.querySelectorAll("li.entry").length > ${n}`, undefined, {
      polling: "raf",
    });
    more.push(performance.now() - t0);
  }
  console.log(`"More entries" → 50 more drawn: median ${median(more).toFixed(0)} ms`);
  // Side by side: the page's own request alone, and an empty page's load (HTML and script modules).
  const api: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/po/entries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        path: `${root}/big.po`,
        states: ["untranslated", "fuzzy", "translated", "obsolete"],
        limit: 50,
      }),
    });
    await res.arrayBuffer();
    api.push(performance.now() - t0);
  }
  console.log(`of which POST /po/entries (50 of all, warm): median ${median(api).toFixed(0)} ms`);
  const shell: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await page.goto(`${base}/ui/catalogue?${new URLSearchParams({ root, path: "missing.po" })}`);
    await page.waitForSelector(".status .error, .unreadable, [role=alert]", { timeout: 60_000 });
    shell.push(performance.now() - t0);
  }
  console.log(
    `the same page for a missing file (shell, scripts, one refused request): median ${
      median(shell).toFixed(0)
    } ms`,
  );
} finally {
  await browser.close();
  await server.shutdown();
  await Deno.remove(root, { recursive: true });
}
