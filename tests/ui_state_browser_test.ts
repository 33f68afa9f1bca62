/**
 * The dashboard shows the server's state of each entry, never one of its own (issue 33.5): in a
 * real browser (Debian's Chromium driven by playwright-core) over the real server, every entry's
 * badge equals the `state` that `/po/entries` answers, for every state (translated, untranslated,
 * fuzzy, a fuzzy entry with an empty msgstr, a plural entry with a form missing, obsolete), on
 * load and after a save, where the badge takes the state the write's answer gives.
 */
import assert from "node:assert/strict";
import { CHROMIUM, CHROMIUM_FLAGS, lacks } from "./_prerequisites.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { NO_GPSS, testApp } from "./_helpers.ts";
import { chromium } from "./_playwright.ts";

const EVERY_STATE_PO = `msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Translated"
msgstr "Traduit"

msgid "Untranslated"
msgstr ""

#, fuzzy
msgid "Fuzzy"
msgstr "Flou"

#, fuzzy
msgid "Fuzzy and empty"
msgstr ""

msgid "one file"
msgid_plural "%d files"
msgstr[0] "un fichier"
msgstr[1] ""

#~ msgid "Obsolete"
#~ msgstr "Obsolète"
`;

Deno.test({
  name: "the dashboard's badge is the server's state of every entry, on load and after a save",
  ignore: lacks(import.meta.url, "chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-state-" }));
    const file = `${root}/states.po`;
    await Deno.writeTextFile(file, EVERY_STATE_PO);
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    const { app } = testApp({ catalogues, gpss: NO_GPSS });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const serverStates = async () => {
      const r = await fetch(`${base}/po/entries`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: file, states: ["translated", "fuzzy", "untranslated", "obsolete"] }),
      });
      assert.equal(r.status, 200);
      const body = await r.json() as { entries: { index: number; msgid: string; state: string }[] };
      return Object.fromEntries(body.entries.map((e) => [`e-${e.index}`, e.state]));
    };
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      const badges = async () =>
        Object.fromEntries(
          await page.$$eval("li.entry", (lis) =>
            lis.map((li) => [
              li.id,
              `${li.querySelector(".state")!.textContent} ${li.getAttribute("data-state")}`,
            ])),
        );
      const all = new URLSearchParams({ root, path: "states.po", state: "all" });
      await page.goto(`${base}/ui/catalogue?${all}`);
      await page.waitForSelector("li.entry");

      const expected = await serverStates();
      // The server's own words for these entries (gettext's meanings: an empty fuzzy entry is
      // untranslated, as msgfmt --statistics counts it).
      assert.deepEqual(Object.values(expected), [
        "translated",
        "untranslated",
        "fuzzy",
        "untranslated",
        "untranslated",
        "obsolete",
      ]);
      const shown = await badges();
      for (const [id, state] of Object.entries(expected)) {
        assert.equal(shown[id], `${state} ${state}`, `${id}: the badge and data-state are the server's`);
      }

      // A save that leaves the entry fuzzy with an empty msgstr: the server counts it untranslated,
      // and so does the badge (it takes the write's answer).
      const card = page.locator("#e-1");
      await card.locator("input[type=checkbox]").check();
      await card.locator("button:text('Save')").click();
      await card.locator(".status", { hasText: /^Saved/ }).waitFor();
      // A save that translates the fuzzy, empty entry but keeps it fuzzy: now fuzzy.
      const other = page.locator("#e-3");
      await other.locator("textarea").fill("Flou et vide");
      await other.locator("button:text('Save')").click();
      await other.locator(".status", { hasText: /^Saved/ }).waitFor();
      const after = await serverStates();
      assert.equal(after["e-1"], "untranslated");
      assert.equal(after["e-3"], "fuzzy");
      const shownAfter = await badges();
      for (const [id, state] of Object.entries(after)) {
        assert.equal(shownAfter[id], `${state} ${state}`, `${id} after the saves`);
      }
      // msgcat writes no fuzzy flag on an empty translation: the page had asked for one.
      assert.ok((await Deno.readTextFile(file)).includes('\n\nmsgid "Untranslated"\nmsgstr ""'));
      assert.deepEqual(errors, [], "no script error in the page");
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "the overview counts an unreadable file as a problem, never as done, and a template apart",
  ignore: lacks(import.meta.url, "chromium"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-problems-" }));
    await Deno.mkdir(`${root}/fr`);
    await Deno.mkdir(`${root}/broken`);
    await Deno.mkdir(`${root}/templates`);
    await Deno.writeTextFile(`${root}/fr/states.po`, EVERY_STATE_PO);
    await Deno.writeTextFile(`${root}/broken/bad.po`, 'msgid "a"\nmsgstr "b"\nmsgid oops\n');
    await Deno.writeTextFile(
      `${root}/templates/app.pot`,
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr ""\n\nmsgid "b"\nmsgstr ""\n',
    );
    const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
    const { app } = testApp({ catalogues, gpss: NO_GPSS });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.addr.port}/`);
      await page.waitForSelector("tr.file");
      const rows = Object.fromEntries(
        await page.$$eval("tbody tr", (trs) =>
          trs.map((tr) => {
            const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent!.trim());
            return [tr.querySelector("td.name")!.firstChild!.textContent, [cells[5], tr.className, cells[0]]];
          })),
      );
      // The directory whose only file cannot be read: a problem, not "100 %".
      assert.equal(rows["broken/"]![0], "unreadable");
      assert.match(rows["broken/"]![1]!, /problem/);
      assert.equal(rows["bad.po"]![0], "unreadable");
      assert.match(rows["bad.po"]![2]!, /Cannot be read: Invalid PO file/);
      // The template: no progress of its own, and none in the totals above it.
      assert.equal(rows["app.pot"]![0], "template");
      assert.equal(rows["templates/"]![0], "–");
      const summary = await page.locator("#summary").textContent();
      // 1 translated of the 5 live entries of states.po: the template's 2 untranslated are not counted.
      assert.match(summary ?? "", /20 % of 5 entries translated\. 1 cannot be read\./);
    } finally {
      await browser.close();
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});
