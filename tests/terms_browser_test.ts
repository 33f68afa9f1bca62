/**
 * The terminology in the dashboard, in a real browser (Debian's Chromium driven by playwright-core)
 * over the real server: saving a translation with a rendering the root's `.po-terms.csv` forbids is
 * refused in strict mode with the `forbidden` problem shown, and a translation without the agreed
 * term is saved with the `glossary` warning shown, naming the term and its translation.
 */
import assert from "node:assert/strict";
import { CHROMIUM, CHROMIUM_FLAGS, lacks } from "./_prerequisites.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { NO_GPSS, testApp } from "./_helpers.ts";
import { chromium } from "./_playwright.ts";

const CATALOGUE = `msgid ""
msgstr ""
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

#: ../../library/functions.rst:10
msgid "Return the absolute value of a number."
msgstr ""
`;

const TERMS =
  "term,translation,kind,pattern,note\nabsolute value,valeur absolue,glossary,,\n,gizmoz,forbidden,,write machin\n";

Deno.test({
  name:
    "the dashboard's editor shows the glossary and forbidden problems of a save, and strict refuses a forbidden one",
  ignore: lacks(import.meta.url, "chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-terms-" }));
    await Deno.mkdir(`${root}/library`);
    await Deno.writeTextFile(`${root}/library/functions.po`, CATALOGUE);
    await Deno.writeTextFile(`${root}/.po-terms.csv`, TERMS);
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    const { app } = testApp({ catalogues, gpss: NO_GPSS });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
      const before = await Deno.readTextFile(`${root}/library/functions.po`);
      const query = new URLSearchParams({ root, path: "library/functions.po", state: "all" });
      await page.goto(`${base}/ui/catalogue?${query}`);
      const entry = page.locator("li.entry").first();
      await entry.locator("textarea").fill("Renvoie le gizmoz d'un nombre.");
      await entry.locator("button:text-is('Save')").click();
      await entry.locator(".problems").waitFor();
      assert.match(await entry.locator(".error[role=alert]").textContent() ?? "", /Not saved/);
      assert.match(await entry.locator(".problems").textContent() ?? "", /forbidden.*gizmoz/s);
      assert.equal(await Deno.readTextFile(`${root}/library/functions.po`), before, "strict: untouched");
      // A glossary miss is a warning: saved, and shown.
      await entry.locator("textarea").fill("Renvoie le module d'un nombre.");
      await entry.locator("button:text-is('Save')").click();
      await entry.locator(".status", { hasText: /^Saved/ }).waitFor();
      await entry.locator(".problems").waitFor();
      assert.match(
        await entry.locator(".problems").textContent() ?? "",
        /glossary.*“absolute value”.*valeur absolue/s,
      );
      assert.ok(
        (await Deno.readTextFile(`${root}/library/functions.po`)).includes("Renvoie le module d'un nombre."),
      );
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});
