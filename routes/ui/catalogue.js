// A catalogue's page: its entries by state, in pages, with search.

import { api } from "./api.js";
import { crumbs, errorText, h, show } from "./dom.js";
import { entryCard } from "./entry.js";

const PAGE_SIZE = 50;
/** Pages loaded at most to reach the entry a link names (50 × 200: a 10,000-entry catalogue). */
const MAX_PAGES_TO_FIND = 200;

const STATE_CHOICES = [
  ["todo", "To do (untranslated and fuzzy)", ["untranslated", "fuzzy"]],
  ["untranslated", "Untranslated", ["untranslated"]],
  ["fuzzy", "Fuzzy", ["fuzzy"]],
  ["translated", "Translated", ["translated"]],
  ["obsolete", "Obsolete", ["obsolete"]],
  ["all", "All", ["untranslated", "fuzzy", "translated", "obsolete"]],
];

export async function cataloguePage(params, navigate) {
  const root = params.get("root") ?? "";
  const path = params.get("path") ?? "";
  const file_path = root ? `${root.replace(/\/+$/, "")}/${path}` : path;
  const choice = STATE_CHOICES.find(([k]) => k === params.get("state")) ?? STATE_CHOICES[0];
  const query = params.get("q") ?? "";
  document.title = `${path} - PO catalogues`;
  crumbs(h("a", { href: "/" }, "Overview"), h("span", {}, path));
  const file = { file_path, revision: null, language: null, strict: params.get("strict") === "1" };
  const stateSelect = h(
    "select",
    { id: "state" },
    STATE_CHOICES.map(([k, label]) => h("option", { value: k }, label)),
  );
  stateSelect.value = choice[0];
  const search = h("input", { type: "search", id: "search", value: query });
  const strictBox = h("input", { type: "checkbox", id: "strict", checked: file.strict });
  strictBox.addEventListener("change", () => {
    file.strict = strictBox.checked;
    const next = new URLSearchParams(location.search);
    strictBox.checked ? next.set("strict", "1") : next.delete("strict");
    history.replaceState(null, "", `/ui/catalogue?${next}${location.hash}`);
  });
  const list = h("ol", { class: "entries", "aria-label": "Entries" });
  const status = h("p", { class: "status", role: "status" }, "Loading the entries…");
  const more = h("button", { type: "button", hidden: true }, "More entries");
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
      onsubmit: (ev) => (ev.preventDefault(), go({ q: search.value.trim() })),
    },
    h("label", { for: "state" }, "Show", stateSelect),
    h("label", { for: "search" }, "Search this catalogue", search),
    h("label", { class: "inline", for: "strict" }, strictBox, "Refuse a save the checks find an error in"),
    h("button", { type: "submit" }, "Search"),
  );
  stateSelect.addEventListener(
    "change",
    () => go({ state: stateSelect.value === "todo" ? "" : stateSelect.value }),
  );
  show(
    h("h1", {}, path),
    form,
    h(
      "p",
      { class: "keys" },
      h("kbd", {}, "Alt"),
      "+",
      h("kbd", {}, "N"),
      " next entry to do · ",
      h("kbd", {}, "Ctrl"),
      "+",
      h("kbd", {}, "Enter"),
      " save · ",
      h("kbd", {}, "Alt"),
      "+",
      h("kbd", {}, "F"),
      " toggle fuzzy",
    ),
    status,
    list,
    h("div", { class: "pager" }, more),
  );
  let cursor = null;
  let shown = 0;
  let pagesLoaded = 0;
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
      file.revision = page.revision ?? file.revision;
      file.language = page.language ?? file.language;
      // A glob has no escapes: a hit in another file whose name matched it is left out here.
      const entries = page.entries ?? (page.hits ?? []).filter((hit) => hit.path === path);
      if (page.hits?.[0]?.revision) file.revision = page.hits[0].revision;
      list.append(...entries.map((e) => entryCard(e, file)));
      shown += entries.length;
      cursor = page.next_cursor ?? null;
      status.textContent = `${shown} entr${shown === 1 ? "y" : "ies"} shown${cursor ? "" : " (all)"}.`;
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
      status.replaceChildren(
        h("span", { class: "error", role: "alert" }, `Could not read the entries: ${errorText(e)}`),
      );
    }
  };
  more.addEventListener("click", load);
  await load();
}
