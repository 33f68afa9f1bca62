/**
 * The review page (`/ui/review`) in a real browser (Debian's Chromium, playwright-core) over the real
 * server: the drafts of the tree listed with their author, previous translation and checks, every
 * text shown as text (a hostile author or translation stays inert), an edited approve and a reject
 * written to the file, and a draft changed meanwhile refused, not overwritten.
 */
import assert from "node:assert/strict";
import { CHROMIUM, CHROMIUM_FLAGS, lacks } from "./_prerequisites.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { parsePo, PO_CODEC, readDraft } from "../lib/po/mod.ts";
import { NO_GPSS, testApp } from "./_helpers.ts";
import { chromium } from "./_playwright.ts";
import { axeReport } from "./_axe.ts";

const CATALOGUE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '#, python-format\nmsgid "Hello %s"\nmsgstr "Bonjour %s"\n\n' +
  'msgid "Save"\nmsgstr ""\n\n' +
  'msgid "Quit"\nmsgstr "Quitter"\n';

const HOSTILE = '<img src=x onerror="window.pwned=1">';

Deno.test({
  name:
    "the review page lists the tree's drafts as text, approves an edit, rejects, and refuses a stale review",
  ignore: lacks(import.meta.url, "chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-review-" }));
    await Deno.mkdir(`${root}/fr`);
    const path = `${root}/fr/app.po`;
    await Deno.writeTextFile(path, CATALOGUE);
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    const { app } = testApp({ catalogues, gpss: NO_GPSS });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const post = (p: string, body: unknown) =>
      fetch(base + p, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
        .then((r) => r.json());
    await post("/po/write", {
      file_path: path,
      mode: "update",
      entries: [
        { msgid: "Hello %s", msgstr: `Salut ${HOSTILE}`, draft: true, draft_author: HOSTILE },
        { msgid: "Save", msgstr: "Sauver", draft: true, draft_author: "model-b" },
        { msgid: "Quit", msgstr: "Sortir", draft: true, draft_author: "model-c" },
      ],
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${base}/`);
      // The header links the review page; the page is then opened by its address (a click while the
      // overview still draws can land on a link the page is replacing: CI's runs saw no navigation).
      assert.equal(await page.locator("a:text('Drafts to review')").getAttribute("href"), "/ui/review");
      await page.goto(`${base}/ui/review`);
      // On a timeout, say what the page showed instead (its status line: no draft, or an error).
      await page.waitForSelector("li.draft").catch(async (error) => {
        const status = await page.locator("p.status").first().textContent().catch(() => null);
        throw new Error(`no draft listed; the page says ${JSON.stringify(status)} (${error})`);
      });
      assert.equal(new URL(page.url()).pathname, "/ui/review");
      const cards = page.locator("li.draft");
      assert.equal(await cards.count(), 3);
      // The review page passes axe-core: no serious or critical violation (the report is printed).
      assert.deepEqual(await axeReport(page, "review page"), []);
      // The hostile texts are text: no element was made of them, no script ran.
      assert.equal(await page.locator("li.draft img").count(), 0);
      assert.equal(await page.evaluate("window.pwned"), undefined);
      assert.ok((await cards.nth(0).locator(".author").textContent())!.includes(HOSTILE));
      assert.ok((await cards.nth(0).locator(".previous").textContent())!.includes("Bonjour %s"));
      // The checks of a draft show beside it (python-format: %s lost).
      assert.ok((await cards.nth(0).locator(".checks").textContent())!.includes("python-format"));
      assert.match((await cards.nth(1).locator(".previous").textContent())!, /No translation before/);

      // Approve "Save" with an edit.
      await cards.nth(1).locator("textarea").fill("Enregistrer");
      await cards.nth(1).locator("button.approve").click();
      await cards.nth(1).locator(".status", { hasText: /^Approved/ }).waitFor();
      // Reject "Hello %s": the previous translation comes back.
      await cards.nth(0).locator("button.reject").click();
      await cards.nth(0).locator(".status", { hasText: /^Rejected/ }).waitFor();
      // "Quit" changes under the page (another reviewer's edit): its approve is refused, theirs kept.
      await post("/po/write", {
        file_path: path,
        entries: [{ msgid: "Quit", msgstr: "Fermer", draft: true, draft_author: "someone" }],
      });
      await cards.nth(2).locator("button.approve").click();
      await cards.nth(2).locator(".status", { hasText: /^Not saved: someone changed/ }).waitFor();

      const catalog = parsePo(await Deno.readFile(path));
      const entry = (msgid: string) => catalog.messages.find((m) => m.msgid === msgid)!;
      assert.equal(entry("Save").msgstr, "Enregistrer");
      assert.deepEqual(entry("Save").flags, []);
      assert.equal(entry("Hello %s").msgstr, "Bonjour %s");
      assert.deepEqual(entry("Hello %s").translatorComments, []);
      assert.equal(entry("Quit").msgstr, "Fermer");
      assert.equal(readDraft(entry("Quit"))?.author, "someone");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});
