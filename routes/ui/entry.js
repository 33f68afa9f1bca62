// @ts-check
// One entry: its texts, its editor (one-entry compare-and-swap saves, checked before they land),
// conflicts, problems, and the panels beside it.

import { api, ApiError } from "./api.js";
import { errorText, h } from "./dom.js";
import { entryKey, entryPanels } from "./panels.js";

/** Word pairs a diff compares at most (past it, both texts are shown whole). */
const MAX_DIFF_CELLS = 250_000;

/**
 * Word-level diff of `before` against `after` (bounded: long texts are shown as they are).
 * @param {string} before
 * @param {string} after
 * @returns {(Node | string)[]}
 */
export function wordDiff(before, after) {
  const a = before.split(/(\s+)/), b = after.split(/(\s+)/);
  if (a.length * b.length > MAX_DIFF_CELLS) return [h("del", {}, before), " ", h("ins", {}, after)];
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  /** @type {(Node | string)[]} */
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

/**
 * @typedef {{ severity: string, check: string, message: string }} Problem
 * @typedef {{ file_path: string, revision: string | null, language: string | null,
 *   drafts: Map<string, import("./panels.js").Draft> | null,
 *   stateChanged: (from: string, to: string) => void,
 *   saved: (card: HTMLElement) => void }} PageFile
 * @typedef {HTMLLIElement & { save?: (then?: () => void) => Promise<boolean>, toggleFuzzy?: () => void,
 *   accept?: (n: number) => boolean, openPanels?: () => void }} EntryCard
 */

/**
 * @param {Problem[] | undefined} problems
 * @param {string} [note] what the list is about, said before it
 * @returns {HTMLElement | null}
 */
function problemList(problems, note) {
  if (!problems || problems.length === 0) return null;
  return h(
    "div",
    {},
    note ? h("p", { class: "meta" }, note) : null,
    h(
      "ul",
      { class: "problems", "aria-label": "Problems found by the checks" },
      problems.map((p) =>
        h("li", { class: p.severity === "error" ? "error" : "" }, `${p.severity}: ${p.check}: ${p.message}`)
      ),
    ),
  );
}

/** Text areas grow with their text: CSS does it where `field-sizing` exists, this elsewhere. */
const GROWS_BY_CSS = typeof CSS !== "undefined" && CSS.supports?.("field-sizing", "content");

/** @param {HTMLTextAreaElement} area */
function grow(area) {
  if (GROWS_BY_CSS) return;
  area.style.height = "auto";
  area.style.height = `${area.scrollHeight + 2}px`;
}

/**
 * One entry, with its editor. `file` is the page's catalogue (its path, revision, drafts, and what to
 * tell the page when a save changes an entry's state).
 * @param {any} e an entry of list_entries (or a search hit)
 * @param {PageFile} file
 * @returns {EntryCard}
 */
export function entryCard(e, file) {
  const id = `e-${e.index}`;
  const plural = e.msgid_plural !== null && e.msgid_plural !== undefined;
  /** @type {(string | null)[]} */
  const forms = plural ? Object.keys(e.msgstr_plural).sort((x, y) => Number(x) - Number(y)) : [null];
  /** @type {string | Record<string, string>} */
  let saved = plural ? { ...e.msgstr_plural } : e.msgstr;
  let state = e.state;
  /** @type {string[]} */
  let flags = [...e.flags];
  const fuzzyAtLoad = flags.includes("fuzzy");
  // The state is the server's (list_entries, search, then each write's answer): never worked out here.
  const badge = h("span", { class: `state ${state}` }, state);
  const lineNote = h("span", { class: "meta" }, e.line ? `line ${e.line}` : "");
  const flagsNote = h("span", { class: "meta flags" }, flags.length ? `flags: ${flags.join(", ")}` : "");
  const status = h("span", { class: "status", role: "status" });
  const extra = h("div", { class: "extra" });
  const editors = forms.map((n) => {
    const area = /** @type {HTMLTextAreaElement} */ (h("textarea", {
      id: `${id}-msgstr${n === null ? "" : `-${n}`}`,
      lang: file.language || undefined,
      disabled: e.obsolete,
      rows: 2,
    }));
    area.value = n === null ? e.msgstr : e.msgstr_plural[n];
    area.addEventListener("input", () => {
      grow(area);
      panels.recheckTerms();
    });
    return { n, area };
  });
  const fuzzyBox = /** @type {HTMLInputElement} */ (h("input", {
    type: "checkbox",
    id: `${id}-fuzzy`,
    checked: fuzzyAtLoad,
    disabled: e.obsolete,
  }));
  const key = entryKey(e.msgctxt, e.msgid);
  const panels = entryPanels(e, file, {
    current: () => editors.map(({ area }) => area.value).join("\n"),
    accept: (msgstr) => {
      editors[0].area.value = msgstr;
      grow(editors[0].area);
      editors[0].area.focus();
      panels.recheckTerms();
    },
    draft: file.drafts?.get(key) ?? null,
    reviewed: (answer, msgstr) => {
      if (answer.revision) file.revision = answer.revision;
      if (answer.state) setState(answer.state);
      if (!plural) editors[0].area.value = saved = msgstr;
    },
  });

  /** @param {string} next */
  const setState = (next) => {
    if (next === state) return;
    file.stateChanged(state, next);
    state = next;
    badge.className = `state ${next}`;
    badge.textContent = next;
    card.dataset.state = next;
  };

  /**
   * Saves the entry. Not fuzzy: checked strictly, refused on an error unless `force` (the translator's
   * "save anyway" for this one save). Fuzzy: saved, then checked as it will be once un-fuzzied.
   * @param {{ expected?: any, force?: boolean }} [how]
   * @returns {Promise<boolean>} true when the entry was saved
   */
  const save = async (how = {}) => {
    const fuzzy = fuzzyBox.checked;
    /** @type {Record<string, any>} */
    const entry = { msgid: e.msgid, msgctxt: e.msgctxt, fuzzy };
    // Reviewed: the previous msgid (#|) has served its purpose, as Poedit and msgattrib
    // --clear-fuzzy --clear-previous drop it.
    if (!fuzzy && e.previous_msgid) entry.previous_msgid = null;
    if (plural) {
      entry.msgstr = "";
      entry.msgid_plural = e.msgid_plural;
      entry.msgstr_plural = Object.fromEntries(editors.map(({ n, area }) => [n, area.value]));
      entry.expected_msgstr_plural = how.expected ?? saved;
    } else {
      entry.msgstr = editors[0].area.value;
      entry.expected_msgstr = how.expected ?? saved;
    }
    status.textContent = "Saving…";
    extra.replaceChildren();
    try {
      const answer = await api("/po/write", {
        file_path: file.file_path,
        mode: "update",
        // Should the dashboard ever add entries: one a typo away from an existing msgid is refused.
        refuse_similar: true,
        // msgfmt and the checks leave fuzzy entries out: strict would pass anything fuzzy.
        checks: how.force || fuzzy ? "warn" : "strict",
        entries: [entry],
      });
      saved = plural ? entry.msgstr_plural : entry.msgstr;
      flags = flags.filter((f) => f !== "fuzzy");
      if (fuzzy) flags.unshift("fuzzy");
      flagsNote.textContent = flags.length ? `flags: ${flags.join(", ")}` : "";
      if (answer.revision) file.revision = answer.revision;
      const place = answer.entries?.[0];
      if (place?.state) setState(place.state);
      if (place?.line) lineNote.textContent = `line ${place.line}`;
      const what = answer.outcomes?.[0] ?? (answer.updated ? "updated" : "unchanged");
      status.textContent = `Saved (${what}).`;
      extra.replaceChildren(...[problemList(answer.problems)].filter(isNode));
      if (fuzzy) checkFuzzy(entry);
      file.saved(card);
      return true;
    } catch (err) {
      status.textContent = "";
      if (err instanceof ApiError && err.status === 409) {
        extra.replaceChildren(
          await conflictView(err.body, entry, plural, file, {
            keepMine: (theirs) => save({ expected: theirs }),
            takeTheirs: (theirs) => {
              if (plural) { for (const { n, area } of editors) area.value = theirs?.[n ?? ""] ?? ""; }
              else editors[0].area.value = theirs ?? "";
              editors.forEach(({ area }) => grow(area));
              saved = theirs;
              extra.replaceChildren(h("p", { class: "status" }, "Showing the version in the file."));
            },
          }),
        );
      } else if (err instanceof ApiError && err.status === 422 && err.body?.detail?.problems) {
        extra.replaceChildren(
          h("p", { class: "error", role: "alert" }, "Not saved: the checks found an error."),
          ...[problemList(err.body.detail.problems)].filter(isNode),
          h(
            "div",
            { class: "actions" },
            h(
              "button",
              { type: "button", class: "save-anyway", onclick: () => save({ force: true }) },
              "Save anyway",
            ),
          ),
        );
      } else {
        extra.replaceChildren(h("p", { class: "error", role: "alert" }, `Not saved: ${errorText(err)}`));
      }
      return false;
    }
  };

  /**
   * A fuzzy entry's problems, as they will be once it is un-fuzzied (check_po checks one entry even
   * when fuzzy; the file gives its flags and references).
   * @param {Record<string, any>} entry
   */
  const checkFuzzy = async (entry) => {
    try {
      const answer = await api("/po/check", {
        file_path: file.file_path,
        entry: {
          msgid: entry.msgid,
          msgctxt: entry.msgctxt,
          msgstr: entry.msgstr,
          ...(plural ? { msgid_plural: entry.msgid_plural, msgstr_plural: entry.msgstr_plural } : {}),
        },
      });
      const list = problemList(answer.problems, "Fuzzy: these will matter when it is un-fuzzied.");
      if (list) extra.append(list);
    } catch (err) {
      extra.append(h("p", { class: "meta" }, `Could not check the fuzzy entry: ${errorText(err)}`));
    }
  };

  const card = /** @type {EntryCard} */ (h(
    "li",
    { class: "entry", id, tabindex: "-1", "data-state": state },
    h(
      "div",
      { class: "entry-main" },
      h(
        "header",
        {},
        badge,
        h("a", { href: `#${id}`, class: "meta", "aria-label": `Link to entry ${e.index}` }, `#${e.index}`),
        lineNote,
        e.msgctxt !== null && e.msgctxt !== undefined
          ? h("span", { class: "meta" }, `context: ${e.msgctxt}`)
          : null,
        flagsNote,
      ),
      e.comment ? h("div", { class: "meta" }, e.comment) : null,
      e.tcomment ? h("div", { class: "meta" }, `Translator: ${e.tcomment}`) : null,
      h("div", { class: "msgid", lang: "en" }, e.msgid),
      plural ? h("div", { class: "msgid", lang: "en" }, e.msgid_plural) : null,
      fuzzyAtLoad && e.previous_msgid
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
        h(
          "button",
          { type: "button", class: "primary", disabled: e.obsolete, onclick: () => save() },
          "Save",
        ),
        h("label", { class: "inline", for: fuzzyBox.id }, fuzzyBox, " Fuzzy"),
        status,
      ),
      extra,
    ),
    e.obsolete ? null : panels.aside,
  ));
  // An obsolete entry is shown, not edited: no shortcut saves or toggles it.
  if (!e.obsolete) {
    card.save = () => save();
    card.toggleFuzzy = () => {
      fuzzyBox.checked = !fuzzyBox.checked;
    };
  }
  card.accept = (n) => panels.accept(n);
  card.openPanels = () => panels.load();
  card.addEventListener("focusin", () => {
    document.querySelectorAll(".entry.current").forEach((x) => x.classList.remove("current"));
    card.classList.add("current");
    if (!e.obsolete) panels.load();
  });
  return card;
}

/** @param {unknown} n @returns {n is HTMLElement} */
function isNode(n) {
  return n instanceof Node;
}

/**
 * What a 409 told: the entry's value in the file now (from the answer, found by its full key, or read
 * again when the answer did not list it), both versions with a word diff, and the choice of keeping
 * one's own or the file's.
 * @param {any} body
 * @param {Record<string, any>} mine
 * @param {boolean} plural
 * @param {{ file_path: string }} file
 * @param {{ keepMine: (theirs: any) => void, takeTheirs: (theirs: any) => void }} choose
 */
async function conflictView(body, mine, plural, file, choose) {
  let current = currentOf(body, mine, plural);
  if (current === undefined) {
    try {
      const read = await api("/po/read_context", {
        file_path: file.file_path,
        msgid: mine.msgid,
        msgctxt: mine.msgctxt ?? null,
        context_size: 0,
      });
      const target = read?.target_entry;
      current = target ? (plural ? target.msgstr_plural : target.msgstr) : null;
    } catch {
      current = null;
    }
  }
  /** @param {any} v */
  const text = (v) => plural ? Object.entries(v ?? {}).map(([n, s]) => `[${n}] ${s}`).join("\n") : v ?? "";
  const theirsText = text(current);
  const mineText = text(plural ? mine.msgstr_plural : mine.msgstr);
  const gone = current === null;
  return h(
    "div",
    { class: "conflict", role: "alert" },
    h(
      "p",
      { class: "error" },
      gone
        ? "This entry is no longer in the file (someone removed or changed its msgid). Nothing was overwritten."
        : "Someone else changed this entry since you opened the page. Nothing was overwritten.",
    ),
    h(
      "div",
      { class: "versions" },
      h("div", {}, h("strong", {}, "In the file now"), h("pre", { class: "theirs" }, theirsText)),
      h("div", {}, h("strong", {}, "Yours (not saved)"), h("pre", { class: "mine" }, mineText)),
    ),
    gone ? null : h(
      "div",
      { class: "diff" },
      h("strong", {}, "From the file's version to yours: "),
      h("span", { class: "word-diff" }, wordDiff(theirsText, mineText)),
    ),
    gone ? null : h(
      "div",
      { class: "actions" },
      h(
        "button",
        { type: "button", onclick: () => choose.takeTheirs(current) },
        "Use the version in the file",
      ),
      h("button", { type: "button", onclick: () => choose.keepMine(current) }, "Save mine over it"),
    ),
  );
}

/**
 * The entry's current value from a 409's body (`detail.conflicts`): undefined when it was not listed
 * (the answer's text bound), null when the entry is missing. Found by its full key (`key`, never
 * cut), or, from a service without it, by its position in the request (the dashboard sends one entry).
 * @param {any} body
 * @param {Record<string, any>} mine
 * @param {boolean} plural
 */
function currentOf(body, mine, plural) {
  const conflicts = body?.detail?.conflicts;
  if (!Array.isArray(conflicts)) return undefined;
  const ctx = mine.msgctxt || null;
  const found = conflicts.find((c) =>
    c.key ? c.key.msgid === mine.msgid && (c.key.msgctxt ?? null) === ctx : c.index === 0
  );
  if (!found) return undefined;
  if (found.reason === "missing") return null;
  const value = plural ? found.msgstr_plural : found.msgstr;
  return value === undefined ? undefined : value;
}
