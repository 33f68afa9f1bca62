/**
 * The dashboard as an editor (issue 38), in Debian's Chromium (playwright-core) over the real server:
 * a conflict on a 280-character msgid resolved both ways, a save refused by the checks and then
 * confirmed, a fuzzy save checked, three entries translated from the keyboard alone with the header's
 * counts following, an unreadable catalogue shown as a problem, a refused token said, the panels of
 * tools this service lacks shown as "not available" and, with the tools stubbed in the page as their
 * contracts answer, drawn (terms, suggestions with Alt+N accept, history, draft approve, next to
 * translate). axe-core runs on every page; its report is printed. Screenshots go to
 * `PO_TOOLS_ARTIFACTS` (default `.cache/screenshots/`); `UPDATE_SCREENSHOTS=1` refreshes docs/editor.png.
 */
import assert from "node:assert/strict";
import { CHROMIUM, CHROMIUM_FLAGS, lacks } from "./_prerequisites.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { fileInLayout, parsePo, PO_CODEC } from "../lib/po/mod.ts";
import { NO_GPSS, testApp } from "./_helpers.ts";
import { chromium } from "./_playwright.ts";
import { axeReport } from "./_axe.ts";

const LONG_MSGID = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ") +
  " and the paragraph goes on, as python-docs paragraphs do.";

const HEADER = `msgid ""
msgstr ""
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"
`;

const EDITOR_PO = `${HEADER}
msgid "${LONG_MSGID}"
msgstr "Original"

#, python-format
msgid "Return %(number)s items."
msgstr ""

#, fuzzy, python-format
#| msgid "Open %s."
msgid "Open %s now."
msgstr "Ouvre %s."

msgid "Close"
msgstr ""

msgid "Done"
msgstr "Fait"
`;

async function artifactsDir(): Promise<string> {
  const dir = Deno.env.get("PO_TOOLS_ARTIFACTS") ??
    new URL("../.cache/screenshots/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

async function served(files: Record<string, string>, apiToken?: string) {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "ui-editor-" }));
  const root = `${tmp}/po`;
  await Deno.mkdir(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${root}/${name}`, text);
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const { app } = testApp({ catalogues, gpss: NO_GPSS, config: { apiToken, maxBodyBytes: 1 << 20 } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  return {
    root,
    base: `http://127.0.0.1:${server.addr.port}`,
    page: (name: string, state = "all") =>
      `/ui/catalogue?${new URLSearchParams({ root, path: name, state })}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

const BROWSER = { ignore: lacks(import.meta.url, "chromium"), sanitizeResources: false, sanitizeOps: false };

Deno.test({
  ...BROWSER,
  name: "the editor: a 280-character conflict both ways, checked saves, keyboard-only, counts, axe-core",
  async fn() {
    assert.ok(LONG_MSGID.length > 280, `${LONG_MSGID.length}`);
    await using s = await served({
      "editor.po": EDITOR_PO,
      "broken.po": `${HEADER}\nmsgid "a\nmsgstr "b"\n`,
    });
    const file = `${s.root}/editor.po`;
    const screens = await artifactsDir();
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    const serious: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));

      // Overview: what to translate next (next_to_translate), the catalogue with work left first.
      await page.goto(`${s.base}/`);
      await page.waitForSelector("tr.file");
      await page.locator(".next li a").first().waitFor();
      assert.match((await page.locator(".next li a").first().textContent()) ?? "", /editor\.po$/);
      serious.push(...await axeReport(page, "overview"));

      // The catalogue's header: counts and how many of the entries to do are shown.
      await page.goto(`${s.base}${s.page("editor.po", "all")}`);
      await page.waitForSelector("li.entry");
      assert.equal(
        await page.locator("#counts").textContent(),
        "2 translated, 1 fuzzy, 2 untranslated (40 % done of 5)",
      );
      assert.match(await page.locator("main > p.status").textContent() ?? "", /^5 shown of 5 entries\.$/);
      // Before the first save: the file is not in msgcat's layout (its 297-character msgid on one
      // line), and the page says a save keeps it so but for the entry saved.
      assert.equal(
        fileInLayout(new TextEncoder().encode(EDITOR_PO), parsePo(new TextEncoder().encode(EDITOR_PO))),
        false,
      );
      assert.match(
        await page.locator(".layout-note").textContent() ?? "",
        /not laid out as msgcat lays it out/,
      );

      // 1. A conflict on a 280-character msgid: both versions and a word diff, then each button.
      const long = page.locator("li.entry").first();
      assert.equal(await long.locator(".msgid").textContent(), LONG_MSGID);
      await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace('"Original"', '"Theirs first"'));
      await long.locator("textarea").fill("Mine first");
      await long.locator("button:text('Save')").click();
      await long.locator(".conflict").waitFor();
      assert.equal(await long.locator(".conflict .theirs").textContent(), "Theirs first");
      assert.equal(await long.locator(".conflict .mine").textContent(), "Mine first");
      assert.equal(await long.locator(".conflict .word-diff del").textContent(), "Theirs");
      assert.equal(await long.locator(".conflict .word-diff ins").textContent(), "Mine");
      serious.push(...await axeReport(page, "conflict"));
      await page.screenshot({ path: `${screens}/editor-conflict.png`, fullPage: true });
      await long.locator("button:text('Use the version in the file')").click();
      assert.equal(await long.locator("textarea").inputValue(), "Theirs first");
      // The next save from there is a plain save, not the same conflict again.
      await long.locator("textarea").fill("Theirs first, reviewed");
      await long.locator("button:text('Save')").click();
      await long.locator(".status", { hasText: /^Saved/ }).waitFor();
      assert.ok((await Deno.readTextFile(file)).includes('msgstr "Theirs first, reviewed"'));
      // And the other way: save mine over theirs.
      await Deno.writeTextFile(
        file,
        (await Deno.readTextFile(file)).replace('"Theirs first, reviewed"', '"Theirs again"'),
      );
      await long.locator("textarea").fill("Mine wins");
      await long.locator("button:text('Save')").click();
      await long.locator(".conflict").waitFor();
      assert.equal(await long.locator(".conflict .theirs").textContent(), "Theirs again");
      await long.locator("button:text('Save mine over it')").click();
      await long.locator(".status", { hasText: /^Saved/ }).waitFor();
      assert.equal(await long.locator(".conflict").count(), 0);
      const afterConflicts = await Deno.readTextFile(file);
      assert.ok(afterConflicts.includes('msgstr "Mine wins"') && !afterConflicts.includes("Theirs again"));

      // 3. A save the checks find an error in is refused (file untouched) until "Save anyway".
      const format = page.locator("li.entry").nth(1);
      await format.locator("textarea").fill("Renvoie des éléments.");
      const before = await Deno.readTextFile(file);
      await format.locator("button:text('Save')").click();
      await format.locator(".problems").waitFor();
      assert.match(await format.locator(".error[role=alert]").textContent() ?? "", /Not saved/);
      assert.match(await format.locator(".problems").textContent() ?? "", /python-format/);
      assert.equal(await Deno.readTextFile(file), before, "refused: the file is untouched");
      await format.locator("button:text('Save anyway')").click();
      await format.locator(".status", { hasText: /^Saved/ }).waitFor();
      assert.ok((await Deno.readTextFile(file)).includes('msgstr "Renvoie des éléments."'));
      assert.equal(await format.getAttribute("data-state"), "translated");
      // Fixed, then broken again: the next save asks again ("save anyway" was for that save only).
      await format.locator("textarea").fill("Renvoie %(number)s éléments.");
      await format.locator("button:text('Save')").click();
      await format.locator(".status", { hasText: /^Saved/ }).waitFor();
      await format.locator("textarea").fill("Renvoie les éléments.");
      await format.locator("button:text('Save')").click();
      await format.locator("button:text('Save anyway')").waitFor();
      assert.ok((await Deno.readTextFile(file)).includes('msgstr "Renvoie %(number)s éléments."'));

      // A fuzzy save is checked too: saved, its problems shown as mattering once un-fuzzied.
      const fuzzy = page.locator("li.entry").nth(2);
      await fuzzy.locator("textarea").fill("Ouvre maintenant.");
      await fuzzy.locator("button:text('Save')").click();
      await fuzzy.locator(".status", { hasText: /^Saved/ }).waitFor();
      await fuzzy.locator("text=will matter when it is un-fuzzied").waitFor();
      assert.match(await fuzzy.locator(".problems").textContent() ?? "", /python-format/);
      assert.equal(await fuzzy.getAttribute("data-state"), "fuzzy");
      assert.ok((await Deno.readTextFile(file)).includes('msgstr "Ouvre maintenant."'));
      assert.deepEqual(errors, [], "no script error in the page");

      // 4. Keyboard only, on the entries to do: three translated, the fuzzy one reviewed with Alt+F.
      await page.goto(`${s.base}${s.page("editor.po", "")}`);
      await page.waitForSelector("li.entry");
      assert.match(await page.locator("main > p.status").textContent() ?? "", /^2 shown of 2 to do\.$/);
      await Deno.writeTextFile(
        file,
        (await Deno.readTextFile(file)).replace('msgid "Done"\nmsgstr "Fait"', 'msgid "Done"\nmsgstr ""'),
      );
      await page.reload();
      await page.waitForSelector("li.entry");
      assert.match(await page.locator("main > p.status").textContent() ?? "", /^3 shown of 3 to do\.$/);
      await page.keyboard.press("Alt+N");
      await page.keyboard.press("Alt+F"); // the fuzzy entry: reviewed
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Ouvre %s maintenant.");
      await page.keyboard.press("Control+Enter");
      await page.locator("li.entry[data-state=translated]").first().waitFor();
      await page.keyboard.type("Fermer");
      await page.keyboard.press("Control+Enter");
      await page.locator("li.entry[data-state=translated]").nth(1).waitFor();
      await page.keyboard.type("Terminé");
      await page.keyboard.press("Control+Enter");
      await page.locator("li.entry[data-state=translated]").nth(2).waitFor();
      const typed = await Deno.readTextFile(file);
      for (const line of ['msgstr "Ouvre %s maintenant."', 'msgstr "Fermer"', 'msgstr "Terminé"']) {
        assert.ok(typed.includes(line), `${line} in\n${typed}`);
      }
      assert.ok(!typed.includes("fuzzy"), "reviewed: no fuzzy flag left");
      const reviewed = page.locator("li.entry").first();
      assert.equal(await reviewed.locator(".flags").textContent(), "flags: python-format");
      assert.equal(
        await page.locator("#counts").textContent(),
        "5 translated, 0 fuzzy, 0 untranslated (100 % done of 5)",
      );
      // The shortcuts are on the page.
      assert.match(await page.locator("dl.keys").textContent() ?? "", /Alt\+N.*next entry to do/);
      serious.push(...await axeReport(page, "catalogue"));

      // A search keeps the file's counts in the header.
      await page.goto(
        `${s.base}/ui/catalogue?${new URLSearchParams({
          root: s.root,
          path: "editor.po",
          q: "Close",
          state: "all",
        })}`,
      );
      await page.waitForSelector("li.entry");
      assert.equal(
        await page.locator("#counts").textContent(),
        "5 translated, 0 fuzzy, 0 untranslated (100 % done of 5)",
      );
      assert.equal(await page.locator("li.entry").count(), 1);

      // 2. An unreadable catalogue is a problem with its line, not an empty "0 entries".
      await page.goto(`${s.base}${s.page("broken.po")}`);
      await page.locator(".unreadable").waitFor();
      assert.match(await page.locator(".unreadable").textContent() ?? "", /cannot be read.*line \d+/);
      assert.deepEqual(serious, [], "axe-core: no serious or critical violation");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  ...BROWSER,
  name: "the editor's panels: 'not available' on a 404, drawn from contract-shaped answers, one-key accept",
  async fn() {
    await using s = await served({ "editor.po": EDITOR_PO });
    const file = `${s.root}/editor.po`;
    const screens = await artifactsDir();
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      // A service that lacks the tools (the router's own 404, as an older service answers): each
      // panel says so, and the page goes on.
      const missing = ["/po/suggest", "/po/history", "/po/drafts"];
      for (const path of missing) {
        await page.route(
          `**${path}`,
          (route) =>
            route.fulfill({ status: 404, contentType: "application/json", body: '{"detail":"Not Found"}' }),
        );
      }
      await page.goto(`${s.base}${s.page("editor.po", "")}`);
      await page.waitForSelector("li.entry");
      await page.locator("li.entry textarea").first().focus();
      const first = page.locator("li.entry").first();
      for (const panel of ["terms", "suggestions", "history"]) {
        await first.locator(`.panel.${panel} .unavailable`).waitFor();
      }
      for (const path of missing) await page.unroute(`**${path}`);

      // The tools as their contracts answer them (stubbed in the page): drawn, and usable.
      const asked: Record<string, unknown[]> = {};
      const answer = (path: string, body: unknown) =>
        page.route(`**${path}`, async (route) => {
          (asked[path] ??= []).push(JSON.parse(route.request().postData() ?? "null"));
          await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
        });
      await answer("/po/suggest", {
        suggestions: [
          {
            score: 92,
            msgid: "Return %(count)s items.",
            msgctxt: null,
            msgstr: "Renvoie %(number)s éléments.",
            file_path: "library/stdtypes.po",
            language: "fr",
            obsolete: false,
            same_msgid: false,
          },
          {
            score: 61,
            msgid: "Return items.",
            msgctxt: null,
            msgstr: "Renvoie des objets.",
            file_path: "library/functions.po",
            language: "fr",
            obsolete: true,
            same_msgid: false,
          },
        ],
        terms: [{ term: "item", translation: "élément" }, { term: "return", translation: null }],
      });
      await answer("/po/history", {
        commits: [{
          commit: "0123456789abcdef0123456789abcdef01234567",
          author: "Julien",
          date: "2026-10-01T10:00:00Z",
          subject: "Relecture de library/functions",
          before: { msgstr: "", flags: [] },
          after: { msgstr: "Renvoie %(number)s objets.", flags: ["python-format"] },
        }],
        truncated: false,
      });
      await answer("/po/drafts", {
        drafts: [{
          file_path: file,
          msgctxt: null,
          msgid: "Close",
          msgstr: "Fermer",
          previous_msgstr: "",
          author: "agent",
          date: "2026-11-01",
          checks: [],
        }],
        total: 1,
      });
      await answer("/po/review", { state: "translated", revision: "r2", message: "Approved." });
      await answer("/po/next", {
        catalogues: [{ file_path: "library/functions.po", words_left: 1200, entries_left: 40, priority: 1 }],
      });
      await page.reload();
      await page.waitForSelector("li.entry");
      const format = page.locator("li.entry").first();
      await format.locator("textarea").focus();
      await format.locator(".panel.suggestions li").nth(1).waitFor();
      assert.match(await format.locator(".panel.suggestions li").first().textContent() ?? "", /^92 %/);
      assert.match(await format.locator(".panel.history").textContent() ?? "", /Julien.*Relecture/);
      assert.deepEqual(asked["/po/suggest"]![0], {
        file_path: file,
        msgctxt: null,
        msgid: "Return %(number)s items.",
        limit: 5,
      });
      // Typed without the agreed term: highlighted; Alt+1 takes the first suggestion, which has it.
      await page.keyboard.type("Renvoie des choses.");
      await format.locator(".panel.terms li.violation").waitFor();
      assert.match(await format.locator(".panel.terms li.violation").textContent() ?? "", /item → élément/);
      await page.keyboard.press("Alt+1");
      assert.equal(await format.locator("textarea").inputValue(), "Renvoie %(number)s éléments.");
      assert.equal(await format.locator(".panel.terms li.violation").count(), 0);
      await page.evaluate("scrollTo(0, 0)");
      await page.screenshot({ path: `${screens}/editor.png` });
      if (Deno.env.get("UPDATE_SCREENSHOTS") === "1") {
        await page.screenshot({ path: new URL("../docs/editor.png", import.meta.url).pathname });
      }

      // The draft: approve sends review_draft with the entry's key, and the card takes the new state.
      const close = page.locator("li.entry", { hasText: "Close" });
      await close.locator(".panel.draft button:text('Approve')").waitFor();
      await close.locator(".panel.draft button:text('Approve')").click();
      await close.locator(".panel.draft .status", { hasText: "Approved." }).waitFor();
      assert.deepEqual(asked["/po/review"]![0], {
        file_path: file,
        msgctxt: null,
        msgid: "Close",
        action: "approve",
        expected_msgstr: "Fermer",
      });
      assert.equal(await close.getAttribute("data-state"), "translated");
      const serious = await axeReport(page, "review (entry with a draft)");

      await page.goto(`${s.base}/`);
      await page.locator(".next li a").waitFor();
      assert.equal(await page.locator(".next li a").textContent(), "library/functions.po");
      serious.push(...await axeReport(page, "overview with next to translate"));
      assert.deepEqual(serious, [], "axe-core: no serious or critical violation");
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  ...BROWSER,
  name: "a token the service refuses is said in the dialog, not asked again in silence",
  async fn() {
    await using s = await served({ "editor.po": EDITOR_PO }, "s3cret");
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
    try {
      const page = await browser.newPage();
      await page.goto(`${s.base}/`);
      await page.locator("#token-dialog").waitFor();
      assert.equal(await page.locator("#token-error").isVisible(), false, "the first ask says nothing");
      await page.fill("#token-input", "wrong");
      await page.click("#token-dialog button[type=submit]");
      await page.locator("#token-error", { hasText: "refused that token" }).waitFor();
      await page.fill("#token-input", "s3cret");
      await page.click("#token-dialog button[type=submit]");
      await page.waitForSelector("tr.file");
    } finally {
      await browser.close();
    }
  },
});
