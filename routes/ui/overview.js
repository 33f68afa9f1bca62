// @ts-check
// The overview: every catalogue under the roots as a tree, with its progress.

import { allPages, api } from "./api.js";
import { crumbs, errorText, h, numberFormat, percent, percentFormat, show, stackedBar } from "./dom.js";
import { isMissingTool } from "./panels.js";

/**
 * @typedef {{ translated: number, fuzzy: number, untranslated: number }} StateCounts
 * @typedef {{ root: string, path: string, kind: string, counts?: { entries: StateCounts, words: StateCounts } | null,
 *   error?: string | null, modified?: string | null }} Catalogue a row of list_catalogues
 * @typedef {StateCounts & { readable: number, errors: number }} Counts
 * @typedef {{ name: string, dirs: Map<string, TreeNode>, files: Catalogue[], counts: Counts }} TreeNode
 * @typedef {{ name: string, errors: number, done: number, left: number }} SortKey
 */

/**
 * Counts of a catalogue from the list's answer, by entries or by words. An unreadable file counts
 * as a problem (`errors`), never as done; a template (.pot) has no progress: it counts nowhere.
 */
/**
 * @param {Catalogue} cat
 * @param {boolean} words
 * @returns {Counts}
 */
function countsOf(cat, words) {
  const c = !cat.counts || cat.kind === "template" ? null : words ? cat.counts.words : cat.counts.entries;
  return c === null
    ? { translated: 0, fuzzy: 0, untranslated: 0, readable: 0, errors: cat.error ? 1 : 0 }
    : { translated: c.translated, fuzzy: c.fuzzy, untranslated: c.untranslated, readable: 1, errors: 0 };
}

/** @param {Counts} into @param {Counts} c */
function addCounts(into, c) {
  into.translated += c.translated;
  into.fuzzy += c.fuzzy;
  into.untranslated += c.untranslated;
  into.readable += c.readable;
  into.errors += c.errors;
}

/** @returns {Counts} */
const noCounts = () => ({ translated: 0, fuzzy: 0, untranslated: 0, readable: 0, errors: 0 });

/** Catalogues as a tree: root → directories → files, with totals on every directory. */
/**
 * @param {Catalogue[]} catalogues
 * @param {boolean} words
 * @returns {TreeNode[]}
 */
function buildTree(catalogues, words) {
  /** @type {Map<string, TreeNode>} */
  const roots = new Map();
  for (const cat of catalogues) {
    /** @type {TreeNode | undefined} */
    let node = roots.get(cat.root);
    if (node === undefined) {
      node = {
        name: cat.root,
        dirs: new Map(),
        files: [],
        counts: noCounts(),
      };
      roots.set(cat.root, node);
    }
    const c = countsOf(cat, words);
    addCounts(node.counts, c);
    const parts = cat.path.split("/");
    for (const dir of parts.slice(0, -1)) {
      /** @type {TreeNode | undefined} */
      let next = node.dirs.get(dir);
      if (!next) {
        next = {
          name: dir,
          dirs: new Map(),
          files: [],
          counts: noCounts(),
        };
        node.dirs.set(dir, next);
      }
      node = next;
      addCounts(node.counts, c);
    }
    node.files.push(cat);
  }
  return [...roots.values()];
}

// Problems first (unreadable files, and directories holding one), as list_catalogues sorts them.
/** @type {Record<string, (a: SortKey, b: SortKey) => number>} */
const SORTS = {
  path: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  percent: (a, b) => b.errors - a.errors || a.done - b.done || SORTS.path(a, b),
  left: (a, b) => b.errors - a.errors || b.left - a.left || SORTS.path(a, b),
};

/** @param {string} name @param {Counts} c @returns {SortKey} */
function sortKey(name, c) {
  const total = c.translated + c.fuzzy + c.untranslated;
  return {
    name,
    errors: c.errors,
    done: c.readable === 0 ? 101 : percent(c.translated, total),
    left: c.fuzzy + c.untranslated,
  };
}

/**
 * @param {TreeNode} node
 * @param {number} depth
 * @param {boolean} words
 * @param {string} sort
 * @returns {HTMLElement[]}
 */
function treeRows(node, depth, words, sort) {
  /** @type {HTMLElement[]} */
  const rows = [];
  const dirs = [...node.dirs.values()].map((d) => ({ d, k: sortKey(d.name, d.counts) }));
  dirs.sort((a, b) => SORTS[sort](a.k, b.k));
  for (const { d } of dirs) {
    rows.push(row(d.name + "/", null, d.counts, depth, "dir"));
    rows.push(...treeRows(d, depth + 1, words, sort));
  }
  const files = node.files.map((f) => ({ f, k: sortKey(f.path, countsOf(f, words)) }));
  files.sort((a, b) => SORTS[sort](a.k, b.k));
  for (const { f } of files) {
    const href = `/ui/catalogue?${new URLSearchParams({ root: f.root, path: f.path })}`;
    rows.push(row(f.path.split("/").pop() ?? f.path, href, countsOf(f, words), depth, "file", f));
  }
  return rows;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
/** @type {Map<string, string>} */
const modifiedTexts = new Map();

/** A modification time as the reader's locale writes it (formatted once per distinct time). @param {string} iso */
function modifiedText(iso) {
  let text = modifiedTexts.get(iso);
  if (text === undefined) {
    text = dateFormat.format(new Date(iso));
    if (modifiedTexts.size < 100_000) modifiedTexts.set(iso, text);
  }
  return text;
}

/** What a row says in its Done column: a percent, or why there is none (a problem, a template). */
/** @param {Counts} c @param {Catalogue} [cat] */
function doneText(c, cat) {
  if (cat?.kind === "template") return "template";
  if (c.readable === 0) return c.errors > 0 ? "unreadable" : "–";
  return `${percentFormat.format(percent(c.translated, c.translated + c.fuzzy + c.untranslated))} %`;
}

/**
 * @param {string} name
 * @param {string | null} href
 * @param {Counts} c
 * @param {number} depth
 * @param {string} kind
 * @param {Catalogue} [cat]
 */
function row(name, href, c, depth, kind, cat) {
  const nameCell = h("td", { class: "name" });
  nameCell.style.paddingLeft = `${0.5 + depth * 1.25}rem`;
  nameCell.append(href ? h("a", { href }, name) : name);
  if (cat?.error) nameCell.append(h("div", { class: "error" }, `Cannot be read: ${cat.error}`));
  else if (c.errors > 0 && !cat) {
    nameCell.append(h("span", { class: "error" }, ` (${numberFormat.format(c.errors)} unreadable)`));
  }
  const problem = c.errors > 0;
  return h(
    "tr",
    { class: `${kind}${problem ? " problem" : ""}${cat?.kind === "template" ? " template" : ""}` },
    nameCell,
    h("td", { class: "barcell" }, stackedBar(c)),
    h("td", { class: "num" }, numberFormat.format(c.translated)),
    h("td", { class: "num" }, numberFormat.format(c.fuzzy)),
    h("td", { class: "num" }, numberFormat.format(c.untranslated)),
    h("td", { class: "num done" }, doneText(c, cat)),
    h("td", { class: "num modified" }, cat?.modified ? modifiedText(cat.modified) : ""),
  );
}

/**
 * The catalogues to work on next (next_to_translate), or "not available" where the service lacks it.
 * @returns {Promise<Node>}
 */
async function nextToTranslate() {
  const section = h(
    "section",
    { class: "next", "aria-labelledby": "next-title" },
    h("h2", { id: "next-title" }, "Next to translate"),
  );
  try {
    const answer = await api("/po/next", { limit: 5 });
    const items = answer?.catalogues ?? [];
    section.append(
      items.length === 0 ? h("p", { class: "meta" }, "Nothing left to translate.") : h(
        "ol",
        {},
        items.map((/** @type {any} */ c) =>
          h(
            "li",
            {},
            h("a", { href: `/ui/catalogue?${new URLSearchParams({ path: c.file_path })}` }, c.file_path),
            h(
              "span",
              { class: "meta" },
              ` ${numberFormat.format(c.words_left)} words, ${
                numberFormat.format(c.entries_left)
              } entries left` +
                (c.priority === null || c.priority === undefined ? "" : ` · priority ${c.priority}`),
            ),
          )
        ),
      ),
    );
  } catch (err) {
    section.append(
      isMissingTool(err)
        ? h("p", { class: "meta unavailable" }, "Not available on this service.")
        : h("p", { class: "error" }, `Could not load: ${errorText(err)}`),
    );
  }
  return section;
}

/** @param {URLSearchParams} params */
export async function overview(params) {
  crumbs(h("span", {}, "Overview"));
  document.title = "PO catalogues";
  show(h("p", { class: "status", role: "status" }, "Loading the catalogues…"));
  /** @type {Catalogue[]} */
  let catalogues;
  // The tree may hold more catalogues than a listing walks: the pages then say why, once.
  /** @type {string | null} */
  let truncated = null;
  try {
    catalogues = await allPages(
      (cursor) => api("/po/catalogues", cursor ? { limit: 1000, cursor } : { limit: 1000 }),
      (page) => {
        truncated ??= page.truncated ? page.reason : null;
        return page.catalogues;
      },
    );
  } catch (e) {
    show(h("p", { class: "error", role: "alert" }, `Could not list the catalogues: ${errorText(e)}`));
    return;
  }
  const filter = h("input", { type: "search", id: "filter", value: params.get("filter") ?? "" });
  const fuzzyOnly = h("input", { type: "checkbox", id: "fuzzy-only", checked: params.get("fuzzy") === "1" });
  const words = h("input", { type: "checkbox", id: "by-words", checked: params.get("words") === "1" });
  const sort = h(
    "select",
    { id: "sort" },
    h("option", { value: "path" }, "path"),
    h("option", { value: "percent" }, "percent done"),
    h("option", { value: "left" }, "what is left"),
  );
  const sortAsked = params.get("sort") ?? "path";
  sort.value = SORTS[sortAsked] ? sortAsked : "path";
  const summary = h("p", { class: "status", role: "status", id: "summary" });
  const body = h("tbody");
  const table = h(
    "table",
    { class: "tree", "aria-describedby": "summary" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Catalogue"),
        h("th", { scope: "col" }, "Progress"),
        h("th", { scope: "col", class: "num" }, "Translated"),
        h("th", { scope: "col", class: "num" }, "Fuzzy"),
        h("th", { scope: "col", class: "num" }, "Untranslated"),
        h("th", { scope: "col", class: "num" }, "Done"),
        h("th", { scope: "col", class: "num modified" }, "Modified"),
      ),
    ),
    body,
  );
  const render = () => {
    const text = filter.value.trim().toLowerCase();
    const shown = catalogues.filter((c) =>
      (text === "" || `${c.root}/${c.path}`.toLowerCase().includes(text)) &&
      (!fuzzyOnly.checked || c.error || (c.counts?.entries.fuzzy ?? 0) > 0)
    );
    const rows = [];
    const total = noCounts();
    for (const root of buildTree(shown, words.checked)) {
      addCounts(total, root.counts);
      // A root by its last name (the whole path on hover): absolute paths are long and say little.
      const rootRow = row(
        `${root.name.replace(/\/+$/, "").split("/").pop() || root.name}/`,
        null,
        root.counts,
        0,
        "dir",
      );
      rootRow.title = root.name;
      rows.push(rootRow);
      rows.push(...treeRows(root, 1, words.checked, sort.value));
    }
    body.replaceChildren(...rows);
    const all = total.translated + total.fuzzy + total.untranslated;
    summary.textContent = `${shown.length} of ${catalogues.length} catalogues; ` +
      `${percentFormat.format(percent(total.translated, all))} % of ${numberFormat.format(all)} ` +
      `${words.checked ? "words" : "entries"} translated.` +
      (total.errors > 0 ? ` ${numberFormat.format(total.errors)} cannot be read.` : "");
    const query = new URLSearchParams();
    if (text) query.set("filter", filter.value.trim());
    if (fuzzyOnly.checked) query.set("fuzzy", "1");
    if (words.checked) query.set("words", "1");
    if (sort.value !== "path") query.set("sort", sort.value);
    history.replaceState(null, "", query.size ? `/?${query}` : "/");
  };
  for (const control of [filter, fuzzyOnly, words, sort]) control.addEventListener("input", render);
  const nextHolder = h("div");
  show(
    h("h1", {}, "Translation progress"),
    h(
      "div",
      { class: "controls" },
      h("label", { for: "filter" }, "Filter by path", filter),
      h("label", { for: "sort" }, "Sort by", sort),
      h("label", { class: "inline", for: "fuzzy-only" }, fuzzyOnly, "Only files with fuzzy entries"),
      h("label", { class: "inline", for: "by-words" }, words, "Count words instead of entries"),
    ),
    h(
      "div",
      { class: "legend", "aria-hidden": "true" },
      h("span", {}, h("span", { class: "swatch t" }), "translated"),
      h("span", {}, h("span", { class: "swatch f" }), "fuzzy"),
      h("span", {}, h("span", { class: "swatch u" }), "untranslated"),
    ),
    summary,
    truncated === null ? "" : h(
      "p",
      { class: "error", role: "alert", id: "truncated" },
      `Not every catalogue is shown: ${truncated}.`,
    ),
    h("div", { class: "table-wrap" }, table),
    nextHolder,
  );
  render();
  nextToTranslate().then((section) => nextHolder.replaceChildren(section));
}
