// @ts-check
// A catalogue's page: a header with its counts and progress, its entries by state, in pages, with
// search, and the keyboard shortcuts.

import { api, ApiError } from "./api.js";
import { crumbs, errorText, h, numberFormat, percent, percentFormat, show, stackedBar } from "./dom.js";
import { entryCard } from "./entry.js";
import { draftsOf } from "./panels.js";

const PAGE_SIZE = 50;
/** Pages loaded at most to reach the entry a link names (50 × 200: a 10,000-entry catalogue). */
const MAX_PAGES_TO_FIND = 200;

/** @type {[string, string, string[]][]} */
const STATE_CHOICES = [
  ["todo", "To do (untranslated and fuzzy)", ["untranslated", "fuzzy"]],
  ["untranslated", "Untranslated", ["untranslated"]],
  ["fuzzy", "Fuzzy", ["fuzzy"]],
  ["translated", "Translated", ["translated"]],
  ["obsolete", "Obsolete", ["obsolete"]],
  ["all", "All", ["untranslated", "fuzzy", "translated", "obsolete"]],
];

/** The shortcuts, as the page lists them (app.js binds them). */
/** @type {[string[], string][]} */
export const SHORTCUTS = [
  [["Alt", "N"], "next entry to do"],
  [["Ctrl", "Enter"], "save and go to the next entry to do"],
  [["Alt", "F"], "toggle fuzzy"],
  [["Alt", "1…5"], "use suggestion 1…5"],
];

function shortcutList() {
  return h(
    "dl",
    { class: "keys", "aria-label": "Keyboard shortcuts" },
    SHORTCUTS.map(([keys, what]) => [
      h("dt", {}, keys.flatMap((k, i) => i === 0 ? [h("kbd", {}, k)] : ["+", h("kbd", {}, k)])),
      h("dd", {}, what),
    ]),
  );
}

/**
 * What the catalogue's header says, before the first save, of a file not in msgcat's layout (laid out
 * by Transifex, Weblate or another gettext): a save keeps it so but for the entries saved
 * (`layout: "keep"`). Nothing for a file in the layout, or when list_entries does not say.
 * @param {any} page
 * @returns {Node | null}
 */
export function layoutNote(page) {
  // list_entries' first page says whether the file is in its gettext's msgcat layout (in_layout).
  if (page?.in_layout !== false) return null;
  return h(
    "p",
    { class: "layout-note", role: "note" },
    "This file is not laid out as msgcat lays it out (Transifex, Weblate, another gettext…). A save changes " +
      "only the lines of the entries you save; `wrap` would re-lay out the rest.",
  );
}

/**
 * The header's counts: entries by state, percent done, and how many of the chosen ones are shown.
 * @param {{ translated: number, fuzzy: number, untranslated: number, obsolete: number }} c
 */
function countsLine(c) {
  const all = c.translated + c.fuzzy + c.untranslated;
  return `${numberFormat.format(c.translated)} translated, ${numberFormat.format(c.fuzzy)} fuzzy, ` +
    `${numberFormat.format(c.untranslated)} untranslated (${
      percentFormat.format(percent(c.translated, all))
    } % ` +
    `done of ${numberFormat.format(all)})` +
    (c.obsolete ? `, ${numberFormat.format(c.obsolete)} obsolete` : "");
}

/**
 * @param {URLSearchParams} params
 * @param {(url: string) => void} navigate
 */
export async function cataloguePage(params, navigate) {
  const root = params.get("root") ?? "";
  const path = params.get("path") ?? "";
  const file_path = root ? `${root.replace(/\/+$/, "")}/${path}` : path;
  const choice = STATE_CHOICES.find(([k]) => k === params.get("state")) ?? STATE_CHOICES[0];
  const query = params.get("q") ?? "";
  document.title = `${path} - PO catalogues`;
  crumbs(h("a", { href: "/" }, "Overview"), h("span", {}, path));
  /** @type {{ translated: number, fuzzy: number, untranslated: number, obsolete: number } | null} */
  let counts = null;
  let total = 0;
  let shown = 0;
  const countsText = h("p", { class: "counts", id: "counts" });
  const barHolder = h("div", { class: "progress" });
  const status = h("p", { class: "status", role: "status" }, "Loading the entries…");
  const layoutHolder = h("div");
  const drawCounts = () => {
    if (counts) {
      countsText.textContent = countsLine(counts);
      barHolder.replaceChildren(stackedBar(counts));
    }
    const what = choice[0] === "all" ? "entries" : choice[0] === "todo" ? "to do" : choice[1].toLowerCase();
    status.textContent = query
      ? `${numberFormat.format(shown)} found${cursor ? " so far" : ""}.`
      : `${numberFormat.format(shown)} shown of ${numberFormat.format(total)} ${what}.`;
  };
  /** @type {import("./entry.js").PageFile} */
  const file = {
    file_path,
    revision: null,
    language: null,
    drafts: null,
    stateChanged(from, to) {
      if (!counts) return;
      if (from in counts) counts[/** @type {"fuzzy"} */ (from)]--;
      if (to in counts) counts[/** @type {"fuzzy"} */ (to)]++;
      drawCounts();
    },
    saved() {},
  };
  const stateSelect = /** @type {HTMLSelectElement} */ (h(
    "select",
    { id: "state" },
    STATE_CHOICES.map(([k, label]) => h("option", { value: k }, label)),
  ));
  stateSelect.value = choice[0];
  const search = /** @type {HTMLInputElement} */ (h("input", { type: "search", id: "search", value: query }));
  const list = h("ol", { class: "entries", "aria-label": "Entries" });
  const more = h("button", { type: "button", hidden: true }, "More entries");
  /** @param {Record<string, string>} changes */
  const go = (changes) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) v ? next.set(k, v) : next.delete(k);
    navigate(`/ui/catalogue?${next}`);
  };
  const form = h(
    "form",
    {
      class: "controls",
      role: "search",
      onsubmit: (/** @type {Event} */ ev) => (ev.preventDefault(), go({ q: search.value.trim() })),
    },
    h("label", { for: "state" }, "Show", stateSelect),
    h("label", { for: "search" }, "Search this catalogue", search),
    h("button", { type: "submit" }, "Search"),
  );
  stateSelect.addEventListener(
    "change",
    () => go({ state: stateSelect.value === "todo" ? "" : stateSelect.value }),
  );
  show(
    h("h1", {}, path),
    h("div", { class: "catalogue-head" }, countsText, barHolder, layoutHolder),
    form,
    shortcutList(),
    status,
    list,
    h("div", { class: "pager" }, more),
  );
  /** @type {string | null} */
  let cursor = null;
  let pagesLoaded = 0;
  let first = true;
  // Asked at once with the first page (the cards of a draft show approve/reject); an absent tool:
  // no draft panel.
  const drafts = draftsOf(file_path).catch(() => null);
  const load = async () => {
    more.hidden = true;
    try {
      let page;
      if (query) {
        page = await api("/po/search", {
          query,
          case_insensitive: true,
          in: ["msgid", "msgstr", "msgctxt", "comments"],
          states: choice[2],
          under: root || null,
          glob: path,
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        });
      } else {
        page = await api("/po/entries", {
          path: file_path,
          states: choice[2],
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        });
      }
      if (first) {
        first = false;
        file.drafts = await drafts;
        const note = layoutNote(page);
        if (note) layoutHolder.replaceChildren(note);
        if (query) {
          // A search answers hits, not the file's counts: the header asks for them once.
          const head = await api("/po/entries", { path: file_path, states: ["translated"], limit: 1 }).catch(
            () => null,
          );
          if (head?.counts?.entries) counts = { ...head.counts.entries };
        }
      }
      if (page.counts?.entries) counts = { ...page.counts.entries };
      if (typeof page.total === "number") total = page.total;
      file.revision = page.revision ?? file.revision;
      file.language = page.language ?? file.language;
      // A glob has no escapes: a hit in another file whose name matched it is left out here.
      /** @type {any[]} */
      const entries = page.entries ?? (page.hits ?? []).filter((/** @type {any} */ hit) => hit.path === path);
      if (page.hits?.[0]?.revision) file.revision = page.hits[0].revision;
      list.append(...entries.map((e) => entryCard(e, file)));
      shown += entries.length;
      cursor = page.next_cursor ?? null;
      drawCounts();
      more.hidden = cursor === null;
      const wanted = /^#e-\d+$/.test(location.hash) ? location.hash.slice(1) : null;
      const target = wanted && document.getElementById(wanted);
      if (target) target.scrollIntoView(), target.focus();
      else if (wanted && cursor !== null && pagesLoaded < MAX_PAGES_TO_FIND) {
        // A link to an entry further down: the pages before it are loaded until it is there.
        pagesLoaded++;
        return load();
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 422 && typeof e.body?.detail === "string" && shown === 0) {
        // The file cannot be read: a problem to fix, with gettext's place of it, never "0 entries".
        status.replaceChildren();
        list.replaceChildren(
          h(
            "li",
            { class: "unreadable", role: "alert" },
            h("strong", {}, "This catalogue cannot be read. "),
            e.body.detail,
            h("p", { class: "meta" }, "Fix the file (msgfmt -c names the same place), then reload."),
          ),
        );
        return;
      }
      status.replaceChildren(
        h("span", { class: "error", role: "alert" }, `Could not read the entries: ${errorText(e)}`),
      );
    }
  };
  more.addEventListener("click", load);
  await load();
}
