// The dashboard: an overview of every catalogue under the roots, a page per catalogue with its entries
// by state, and an editor that saves one entry at a time through compare-and-swap. It uses the
// service's own JSON endpoints and nothing else (no CDN, no framework), and builds every element with
// textContent, never HTML from data.
"use strict";

const TOKEN_KEY = "po-tools-token";
const PAGE_SIZE = 50;
/** Pages loaded at most to reach the entry a link names (50 × 200: a 10,000-entry catalogue). */
const MAX_PAGES_TO_FIND = 200;

// ---------------------------------------------------------------------------------------------
// Talking to the service

/** A refusal of the service: its status and its JSON body. */
class ApiError extends Error {
  constructor(status, body) {
    super(typeof body?.detail === "string" ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

let tokenAsked = null;

/** Asks for the token once (a 401 from any call), and keeps it for this tab only. */
function askToken() {
  tokenAsked ??= new Promise((resolve) => {
    const dialog = document.getElementById("token-dialog");
    const input = document.getElementById("token-input");
    dialog.addEventListener("close", function done() {
      dialog.removeEventListener("close", done);
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      input.value = "";
      tokenAsked = null;
      document.getElementById("token-button").hidden = false;
      resolve();
    });
    dialog.showModal();
    input.focus();
  });
  return tokenAsked;
}

/** POSTs `body` as JSON to `path`; asks for the token on a 401 and tries again. */
async function api(path, body) {
  for (let attempt = 0;; attempt++) {
    const headers = { "content-type": "application/json" };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await res.text();
    let json = null;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      json = { detail: text.slice(0, 200) };
    }
    if (res.status === 401 && attempt < 3) {
      await askToken();
      continue;
    }
    if (!res.ok) throw new ApiError(res.status, json);
    return json;
  }
}

/** Every page of a paged list: `fetchPage(cursor)` answers `{items, next_cursor}`. */
async function allPages(fetchPage, items) {
  const all = [];
  let cursor = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchPage(cursor);
    all.push(...items(page));
    cursor = page.next_cursor ?? null;
    if (cursor === null) break;
  }
  return all;
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** An element with attributes (`on…` are listeners) and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const main = () => document.getElementById("main");

function show(...nodes) {
  main().replaceChildren(...nodes);
}

function crumbs(...parts) {
  document.getElementById("crumbs").replaceChildren(...parts.flatMap((p, i) => i === 0 ? [p] : [" / ", p]));
}

function errorText(e) {
  if (e instanceof ApiError) {
    const detail = e.body?.detail;
    if (Array.isArray(detail)) return detail.map((d) => d.msg ?? JSON.stringify(d)).join("; ");
    return `${e.message} (HTTP ${e.status})`;
  }
  return String(e?.message ?? e);
}

const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const numberFormat = new Intl.NumberFormat();

function percent(done, total) {
  return total === 0 ? 100 : (100 * done) / total;
}

/** The stacked bar of one row, with its numbers as text for screen readers and on hover. */
function stackedBar(c) {
  const total = c.translated + c.fuzzy + c.untranslated;
  const label = `${numberFormat.format(c.translated)} translated, ${numberFormat.format(c.fuzzy)} fuzzy, ` +
    `${numberFormat.format(c.untranslated)} untranslated`;
  const bar = h("div", { class: "bar", role: "img", "aria-label": label, title: label });
  for (const [cls, n] of [["t", c.translated], ["f", c.fuzzy], ["u", c.untranslated]]) {
    if (n === 0) continue;
    const part = h("span", { class: cls });
    // CSSOM, not a style attribute: allowed by the page's Content-Security-Policy.
    part.style.flexGrow = String(n / Math.max(total, 1));
    bar.append(part);
  }
  return bar;
}

// ---------------------------------------------------------------------------------------------
// Overview

/** Counts of a catalogue from the list's answer, by entries or by words. */
function countsOf(cat, words) {
  const c = cat.counts === null ? null : words ? cat.counts.words : cat.counts.entries;
  return c === null
    ? { translated: 0, fuzzy: 0, untranslated: 0 }
    : { translated: c.translated, fuzzy: c.fuzzy, untranslated: c.untranslated };
}

function addCounts(into, c) {
  into.translated += c.translated;
  into.fuzzy += c.fuzzy;
  into.untranslated += c.untranslated;
}

/** Catalogues as a tree: root → directories → files, with totals on every directory. */
function buildTree(catalogues, words) {
  const roots = new Map();
  for (const cat of catalogues) {
    let node = roots.get(cat.root);
    if (!node) {
      node = {
        name: cat.root,
        dirs: new Map(),
        files: [],
        counts: { translated: 0, fuzzy: 0, untranslated: 0 },
      };
      roots.set(cat.root, node);
    }
    const c = countsOf(cat, words);
    addCounts(node.counts, c);
    const parts = cat.path.split("/");
    for (const dir of parts.slice(0, -1)) {
      let next = node.dirs.get(dir);
      if (!next) {
        next = {
          name: dir,
          dirs: new Map(),
          files: [],
          counts: { translated: 0, fuzzy: 0, untranslated: 0 },
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

const SORTS = {
  path: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  percent: (a, b) => a.done - b.done || SORTS.path(a, b),
  left: (a, b) => b.left - a.left || SORTS.path(a, b),
};

function sortKey(name, c) {
  const total = c.translated + c.fuzzy + c.untranslated;
  return { name, done: percent(c.translated, total), left: c.fuzzy + c.untranslated };
}

function treeRows(node, depth, words, sort, rootPath) {
  const rows = [];
  const dirs = [...node.dirs.values()].map((d) => ({ d, k: sortKey(d.name, d.counts) }));
  dirs.sort((a, b) => SORTS[sort](a.k, b.k));
  for (const { d } of dirs) {
    rows.push(row(d.name + "/", null, d.counts, depth, "dir"));
    rows.push(...treeRows(d, depth + 1, words, sort, rootPath));
  }
  const files = node.files.map((f) => ({ f, k: sortKey(f.path, countsOf(f, words)) }));
  files.sort((a, b) => SORTS[sort](a.k, b.k));
  for (const { f } of files) {
    const href = `/ui/catalogue?${new URLSearchParams({ root: f.root, path: f.path })}`;
    rows.push(row(f.path.split("/").pop(), href, countsOf(f, words), depth, "file", f));
  }
  return rows;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const modifiedTexts = new Map();

/** A modification time as the reader's locale writes it (formatted once per distinct time). */
function modifiedText(iso) {
  let text = modifiedTexts.get(iso);
  if (text === undefined) {
    text = dateFormat.format(new Date(iso));
    if (modifiedTexts.size < 100_000) modifiedTexts.set(iso, text);
  }
  return text;
}

function row(name, href, c, depth, kind, cat) {
  const total = c.translated + c.fuzzy + c.untranslated;
  const nameCell = h("td", { class: "name" });
  nameCell.style.paddingLeft = `${0.5 + depth * 1.25}rem`;
  nameCell.append(href ? h("a", { href }, name) : name);
  return h(
    "tr",
    { class: kind },
    nameCell,
    h("td", { class: "barcell" }, stackedBar(c)),
    h("td", { class: "num" }, numberFormat.format(c.translated)),
    h("td", { class: "num" }, numberFormat.format(c.fuzzy)),
    h("td", { class: "num" }, numberFormat.format(c.untranslated)),
    h("td", { class: "num" }, `${percentFormat.format(percent(c.translated, total))} %`),
    h("td", { class: "num modified" }, cat?.modified ? modifiedText(cat.modified) : ""),
  );
}

async function overview(params) {
  crumbs(h("span", {}, "Overview"));
  document.title = "PO catalogues";
  show(h("p", { class: "status", role: "status" }, "Loading the catalogues…"));
  let catalogues;
  try {
    catalogues = await allPages(
      (cursor) => api("/po/catalogues", cursor ? { limit: 1000, cursor } : { limit: 1000 }),
      (page) => page.catalogues,
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
  sort.value = SORTS[params.get("sort")] ? params.get("sort") : "path";
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
      (!fuzzyOnly.checked || (c.counts?.entries.fuzzy ?? 0) > 0)
    );
    const rows = [];
    const total = { translated: 0, fuzzy: 0, untranslated: 0 };
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
      rows.push(...treeRows(root, 1, words.checked, sort.value, root.name));
    }
    body.replaceChildren(...rows);
    const all = total.translated + total.fuzzy + total.untranslated;
    summary.textContent = `${shown.length} of ${catalogues.length} catalogues; ` +
      `${percentFormat.format(percent(total.translated, all))} % of ${numberFormat.format(all)} ` +
      `${words.checked ? "words" : "entries"} translated.`;
    const query = new URLSearchParams();
    if (text) query.set("filter", filter.value.trim());
    if (fuzzyOnly.checked) query.set("fuzzy", "1");
    if (words.checked) query.set("words", "1");
    if (sort.value !== "path") query.set("sort", sort.value);
    history.replaceState(null, "", query.size ? `/?${query}` : "/");
  };
  for (const control of [filter, fuzzyOnly, words, sort]) control.addEventListener("input", render);
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
    h("div", { class: "table-wrap" }, table),
  );
  render();
}

// ---------------------------------------------------------------------------------------------
// A catalogue

const STATE_CHOICES = [
  ["todo", "To do (untranslated and fuzzy)", ["untranslated", "fuzzy"]],
  ["untranslated", "Untranslated", ["untranslated"]],
  ["fuzzy", "Fuzzy", ["fuzzy"]],
  ["translated", "Translated", ["translated"]],
  ["obsolete", "Obsolete", ["obsolete"]],
  ["all", "All", ["untranslated", "fuzzy", "translated", "obsolete"]],
];

function entryState(e) {
  if (e.obsolete) return "obsolete";
  if (e.flags.includes("fuzzy")) return "fuzzy";
  const forms = e.msgid_plural === null ? [e.msgstr] : Object.values(e.msgstr_plural);
  return forms.length > 0 && forms.every((s) => s !== "") ? "translated" : "untranslated";
}

/** Word-level diff of the previous msgid against the msgid (bounded: long texts are shown as they are). */
function wordDiff(before, after) {
  const a = before.split(/(\s+)/), b = after.split(/(\s+)/);
  if (a.length * b.length > 250_000) return [h("del", {}, before), " ", h("ins", {}, after)];
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) out.push(a[i++]), j++;
    else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(h("ins", {}, b[j++]));
    } else out.push(h("del", {}, a[i++]));
  }
  return out;
}

function problemList(problems) {
  if (!problems || problems.length === 0) return null;
  return h(
    "ul",
    { class: "problems", "aria-label": "Problems found by the checks" },
    problems.map((p) =>
      h("li", { class: p.severity === "error" ? "error" : "" }, `${p.severity}: ${p.check}: ${p.message}`)
    ),
  );
}

/** One entry, with its editor. `file` is `{file_path, revision}` of the page. */
function entryCard(e, file) {
  const id = `e-${e.index}`;
  const plural = e.msgid_plural !== null && e.msgid_plural !== undefined;
  const forms = plural ? Object.keys(e.msgstr_plural).sort((x, y) => x - y) : [null];
  let saved = plural ? { ...e.msgstr_plural } : e.msgstr;
  let fuzzy = e.flags.includes("fuzzy");
  const badge = h("span", { class: `state ${entryState(e)}` }, entryState(e));
  const status = h("span", { class: "status", role: "status" });
  const extra = h("div");
  const editors = forms.map((n) => {
    const area = h("textarea", {
      id: `${id}-msgstr${n === null ? "" : `-${n}`}`,
      lang: file.language || undefined,
      disabled: e.obsolete,
    });
    area.value = n === null ? e.msgstr : e.msgstr_plural[n];
    return { n, area };
  });
  const fuzzyBox = h("input", { type: "checkbox", id: `${id}-fuzzy`, checked: fuzzy, disabled: e.obsolete });
  const save = async (expected) => {
    const entry = { msgid: e.msgid, msgctxt: e.msgctxt, fuzzy: fuzzyBox.checked };
    // Reviewed: the previous msgid (#|) has served its purpose, as Poedit and msgattrib
    // --clear-fuzzy --clear-previous drop it.
    if (!fuzzyBox.checked && e.previous_msgid) entry.previous_msgid = null;
    if (plural) {
      entry.msgstr = "";
      entry.msgid_plural = e.msgid_plural;
      entry.msgstr_plural = Object.fromEntries(editors.map(({ n, area }) => [n, area.value]));
      entry.expected_msgstr_plural = expected ?? saved;
    } else {
      entry.msgstr = editors[0].area.value;
      entry.expected_msgstr = expected ?? saved;
    }
    status.textContent = "Saving…";
    extra.replaceChildren();
    try {
      const answer = await api("/po/write", {
        file_path: file.file_path,
        mode: "update",
        checks: file.strict ? "strict" : "warn",
        entries: [entry],
      });
      saved = plural ? entry.msgstr_plural : entry.msgstr;
      fuzzy = fuzzyBox.checked;
      if (answer.revision) file.revision = answer.revision;
      const now = {
        ...e,
        msgstr: plural ? "" : saved,
        msgstr_plural: plural ? saved : {},
        flags: flagsWith(e.flags, fuzzy),
      };
      badge.className = `state ${entryState(now)}`;
      badge.textContent = entryState(now);
      const what = answer.outcomes?.[0] ?? (answer.updated ? "updated" : "unchanged");
      status.textContent = `Saved (${what}).`;
      extra.replaceChildren(...[problemList(answer.problems)].filter(Boolean));
    } catch (err) {
      status.textContent = "";
      if (err instanceof ApiError && err.status === 409) {
        extra.replaceChildren(conflictView(err.body, entry, plural, (theirs) => {
          // Keep mine: save again, expecting what the other writer saved.
          save(theirs);
        }, (theirs) => {
          // Take theirs: the editor shows what is in the file now.
          if (plural) { for (const { n, area } of editors) area.value = theirs?.[n] ?? ""; }
          else editors[0].area.value = theirs ?? "";
          saved = theirs;
          extra.replaceChildren(h("p", { class: "status" }, "Showing the saved version."));
        }));
      } else if (err instanceof ApiError && err.status === 422 && err.body?.detail?.problems) {
        extra.replaceChildren(
          h("p", { class: "error", role: "alert" }, "Not saved: the checks found problems."),
          problemList(err.body.detail.problems),
        );
      } else {
        extra.replaceChildren(h("p", { class: "error", role: "alert" }, `Not saved: ${errorText(err)}`));
      }
    }
  };
  const card = h(
    "li",
    { class: "entry", id, tabindex: "-1", "data-state": entryState(e) },
    h(
      "header",
      {},
      badge,
      h("a", { href: `#${id}`, class: "meta", "aria-label": `Link to entry ${e.index}` }, `#${e.index}`),
      e.line ? h("span", { class: "meta" }, `line ${e.line}`) : null,
      e.msgctxt !== null && e.msgctxt !== undefined
        ? h("span", { class: "meta" }, `context: ${e.msgctxt}`)
        : null,
      e.flags.length ? h("span", { class: "meta" }, `flags: ${e.flags.join(", ")}`) : null,
    ),
    e.comment ? h("div", { class: "meta" }, e.comment) : null,
    e.tcomment ? h("div", { class: "meta" }, `Translator: ${e.tcomment}`) : null,
    h("div", { class: "msgid", lang: "en" }, e.msgid),
    plural ? h("div", { class: "msgid", lang: "en" }, e.msgid_plural) : null,
    fuzzy && e.previous_msgid
      ? h(
        "div",
        { class: "previous" },
        h("span", { class: "meta" }, "Changed since: "),
        wordDiff(e.previous_msgid, e.msgid),
      )
      : null,
    editors.map(({ n, area }) => [
      h(
        "label",
        { for: area.id, class: "meta" },
        n === null ? "Translation" : `Translation, plural form ${n}`,
      ),
      area,
    ]),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary", disabled: e.obsolete, onclick: () => save() }, "Save"),
      h("label", { class: "inline", for: fuzzyBox.id }, fuzzyBox, " Fuzzy"),
      status,
    ),
    extra,
  );
  card.save = () => save();
  card.toggleFuzzy = () => {
    fuzzyBox.checked = !fuzzyBox.checked;
  };
  card.addEventListener("focusin", () => {
    document.querySelectorAll(".entry.current").forEach((x) => x.classList.remove("current"));
    card.classList.add("current");
  });
  return card;
}

function flagsWith(flags, fuzzy) {
  const rest = flags.filter((f) => f !== "fuzzy");
  return fuzzy ? ["fuzzy", ...rest] : rest;
}

/** What a 409 told: the entry's value in the file now, and the choice of keeping one's own or theirs. */
function conflictView(body, mine, plural, keepMine, takeTheirs) {
  const current = currentOf(body, mine, plural);
  const text = (v) => plural ? Object.entries(v ?? {}).map(([n, s]) => `[${n}] ${s}`).join("\n") : v ?? "";
  return h(
    "div",
    { class: "conflict", role: "alert" },
    h(
      "p",
      { class: "error" },
      "Someone else changed this entry since you opened the page. Nothing was overwritten.",
    ),
    h(
      "div",
      { class: "versions" },
      h("div", {}, h("strong", {}, "In the file now"), h("pre", { class: "theirs" }, text(current))),
      h(
        "div",
        {},
        h("strong", {}, "Yours (not saved)"),
        h("pre", { class: "mine" }, text(plural ? mine.msgstr_plural : mine.msgstr)),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", onclick: () => takeTheirs(current) }, "Use the version in the file"),
      h("button", { type: "button", onclick: () => keepMine(current) }, "Save mine over it"),
    ),
  );
}

/** The entry's current value from a 409's body (`detail.conflicts`), or null when it was not listed. */
function currentOf(body, mine, plural) {
  const conflicts = body?.detail?.conflicts;
  if (!Array.isArray(conflicts)) return null;
  const found = conflicts.find((c) =>
    c.msgid === mine.msgid && (c.msgctxt ?? null) === (mine.msgctxt || null)
  );
  if (!found) return null;
  return plural ? found.msgstr_plural ?? null : found.msgstr ?? null;
}

async function cataloguePage(params) {
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

// ---------------------------------------------------------------------------------------------
// Keyboard and routing

function currentCard() {
  return document.activeElement?.closest?.(".entry") ?? document.querySelector(".entry.current");
}

document.addEventListener("keydown", (ev) => {
  if (ev.altKey && !ev.ctrlKey && (ev.key === "n" || ev.key === "N" || ev.code === "KeyN")) {
    const cards = [...document.querySelectorAll(".entry")];
    const from = cards.indexOf(currentCard());
    const next = cards.slice(from + 1).find((c) =>
      c.dataset.state === "untranslated" || c.dataset.state === "fuzzy"
    ) ??
      cards.find((c) => c.dataset.state === "untranslated" || c.dataset.state === "fuzzy");
    if (next) {
      ev.preventDefault();
      const area = next.querySelector("textarea");
      (area ?? next).focus();
      next.scrollIntoView({ block: "nearest" });
    }
  } else if ((ev.ctrlKey || ev.metaKey) && ev.key === "Enter") {
    const card = currentCard();
    if (card?.save) ev.preventDefault(), card.save();
  } else if (ev.altKey && !ev.ctrlKey && (ev.key === "f" || ev.key === "F" || ev.code === "KeyF")) {
    const card = currentCard();
    if (card?.toggleFuzzy) ev.preventDefault(), card.toggleFuzzy();
  }
});

function navigate(url) {
  history.pushState(null, "", url);
  route();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest?.("a[href]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  const url = new URL(a.href);
  if (
    url.origin !== location.origin ||
    url.hash && url.pathname === location.pathname && url.search === location.search
  ) return;
  ev.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

addEventListener("popstate", () => route());

function route() {
  const params = new URLSearchParams(location.search);
  if (location.pathname === "/ui/catalogue") cataloguePage(params);
  else overview(params);
}

document.getElementById("token-button").addEventListener("click", () => askToken().then(route));
if (sessionStorage.getItem(TOKEN_KEY)) document.getElementById("token-button").hidden = false;
route();
