// One entry: its texts, its editor (one-entry compare-and-swap saves), conflicts and problems.

import { api, ApiError } from "./api.js";
import { errorText, h } from "./dom.js";

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
export function entryCard(e, file) {
  const id = `e-${e.index}`;
  const plural = e.msgid_plural !== null && e.msgid_plural !== undefined;
  const forms = plural ? Object.keys(e.msgstr_plural).sort((x, y) => x - y) : [null];
  let saved = plural ? { ...e.msgstr_plural } : e.msgstr;
  let fuzzy = e.flags.includes("fuzzy");
  // The state is the server's (list_entries, search, then each write's answer): never worked out here.
  const badge = h("span", { class: `state ${e.state}` }, e.state);
  const lineNote = h("span", { class: "meta" }, e.line ? `line ${e.line}` : "");
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
        // Should the dashboard ever add entries: one a typo away from an existing msgid is refused.
        refuse_similar: true,
        checks: file.strict ? "strict" : "warn",
        entries: [entry],
      });
      saved = plural ? entry.msgstr_plural : entry.msgstr;
      fuzzy = fuzzyBox.checked;
      if (answer.revision) file.revision = answer.revision;
      const place = answer.entries?.[0];
      if (place?.state) {
        badge.className = `state ${place.state}`;
        badge.textContent = place.state;
        card.dataset.state = place.state;
      }
      if (place?.line) lineNote.textContent = `line ${place.line}`;
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
    { class: "entry", id, tabindex: "-1", "data-state": e.state },
    h(
      "header",
      {},
      badge,
      h("a", { href: `#${id}`, class: "meta", "aria-label": `Link to entry ${e.index}` }, `#${e.index}`),
      lineNote,
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
