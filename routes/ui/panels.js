// @ts-check
// The panels beside an entry: glossary terms and suggestions (suggest), the entry's history
// (entry_history) and, for a draft, approve or reject (review_draft). Each tool may be absent from the
// service: a 404 "Not Found" then shows "not available", never an error.

import { api, ApiError } from "./api.js";
import { errorText, h } from "./dom.js";

/** Suggestions listed at most (Alt+1 … Alt+9 accept them). */
export const MAX_SUGGESTIONS = 5;

/**
 * True when the service has no such tool (the route itself is missing), not when a tool answered
 * 404 about its input (e.g. a file it cannot find).
 * @param {unknown} err
 */
export function isMissingTool(err) {
  return err instanceof ApiError && err.status === 404 &&
    (err.body === null || err.body?.detail === "Not Found" || err.body?.detail === undefined);
}

/**
 * A panel: a titled section that shows "Loading…", then what `fill` draws from the tool's answer,
 * "not available" when the tool is absent, or the error.
 * @param {string} title
 * @param {string} cls
 */
function panel(title, cls) {
  const body = h(
    "div",
    { class: "panel-body" },
    h("p", { class: "meta" }, "Shown when you work on this entry."),
  );
  // Not landmarks: every entry has them, and a page of 50 identical regions helps no one.
  const section = h("div", { class: `panel ${cls}` }, h("h2", {}, title), body);
  return {
    section,
    /** @param {...(Node|string|null)} nodes */
    show: (...nodes) => body.replaceChildren(...nodes.filter((n) => n !== null)),
    /** @param {unknown} err */
    fail: (err) =>
      body.replaceChildren(
        isMissingTool(err)
          ? h("p", { class: "meta unavailable" }, "Not available on this service.")
          : h("p", { class: "error" }, `Could not load: ${errorText(err)}`),
      ),
  };
}

/**
 * @typedef {{ term: string, translation: string | null }} Term
 * @typedef {{ score: number, msgid: string, msgctxt: string | null, msgstr: string, file_path: string,
 *   language: string | null, obsolete: boolean, same_msgid: boolean }} Suggestion
 * @typedef {{ msgstr: string, flags: string[] } | null} HistorySide
 * @typedef {{ commit: string, author: string, date: string, subject: string, before: HistorySide,
 *   after: HistorySide }} HistoryCommit
 * @typedef {{ file_path: string, msgctxt: string | null, msgid: string, msgstr: string,
 *   previous_msgstr: string | null, author: string | null, date: string | null }} Draft
 */

/**
 * The terms of the msgid whose agreed translation the translation does not hold (case-insensitive).
 * @param {Term[]} terms
 * @param {string} translation
 */
export function missingTerms(terms, translation) {
  const text = translation.toLowerCase();
  return terms.filter((t) =>
    t.translation && translation !== "" && !text.includes(t.translation.toLowerCase())
  );
}

/**
 * The panels of one entry, loaded when the translator first works on it (not for every entry of a
 * page: a 2,000-entry page would otherwise send 4,000 requests).
 * @param {{ msgid: string, msgctxt: string | null }} e
 * @param {{ file_path: string }} file
 * @param {{ accept: (msgstr: string) => void, current: () => string, draft: Draft | null,
 *   reviewed: (answer: { state?: string, revision?: string, message?: string }, msgstr: string) => void }} hooks
 */
export function entryPanels(e, file, hooks) {
  const terms = panel("Glossary", "terms");
  const suggestions = panel("Suggestions", "suggestions");
  const history = panel("History", "history");
  const review = hooks.draft ? panel("Draft", "draft") : null;
  const aside = h("div", { class: "panels" });
  if (review) aside.append(review.section);
  aside.append(terms.section, suggestions.section, history.section);
  /** @type {Suggestion[]} */
  let offered = [];
  /** @type {Term[]} */
  let termList = [];
  const drawTerms = () => {
    if (termList.length === 0) return terms.show(h("p", { class: "meta" }, "No glossary term in this text."));
    const missing = new Set(missingTerms(termList, hooks.current()));
    terms.show(h(
      "ul",
      { class: "term-list" },
      termList.map((t) =>
        h(
          "li",
          { class: missing.has(t) ? "violation" : "" },
          h("span", { lang: "en" }, t.term),
          " → ",
          t.translation === null ? h("span", { class: "meta" }, "no agreed translation") : t.translation,
          missing.has(t) ? h("span", { class: "error" }, " (not in your translation)") : null,
        )
      ),
    ));
  };
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    for (const p of [terms, suggestions, history]) p.show(h("p", { class: "meta" }, "Loading…"));
    const key = { file_path: file.file_path, msgctxt: e.msgctxt ?? null, msgid: e.msgid };
    api("/po/suggest", { ...key, limit: MAX_SUGGESTIONS }).then((answer) => {
      offered = (answer?.suggestions ?? []).slice(0, MAX_SUGGESTIONS);
      termList = answer?.terms ?? [];
      drawTerms();
      suggestions.show(
        offered.length === 0 ? h("p", { class: "meta" }, "No suggestion.") : h(
          "ol",
          { class: "suggestion-list" },
          offered.map((s, i) =>
            h(
              "li",
              {},
              h("span", { class: "score", title: "similarity" }, `${Math.round(s.score)} %`),
              " ",
              h("span", { class: "suggestion-text" }, s.msgstr),
              h("div", { class: "meta" }, `${s.file_path}${s.obsolete ? " (obsolete)" : ""}`),
              h(
                "button",
                { type: "button", class: "accept", onclick: () => hooks.accept(s.msgstr) },
                `Use (Alt+${i + 1})`,
              ),
            )
          ),
        ),
      );
    }).catch((err) => {
      // A refusal, or an answer not shaped as the contract says: said in the panels, never thrown.
      terms.fail(err);
      suggestions.fail(err);
    });
    api("/po/history", { ...key, limit: 10 }).then((answer) => {
      /** @type {HistoryCommit[]} */
      const commits = answer?.commits ?? [];
      history.show(
        commits.length === 0 ? h("p", { class: "meta" }, "No change recorded.") : h(
          "ol",
          { class: "history-list" },
          commits.map((c) =>
            h(
              "li",
              {},
              h("div", { class: "meta" }, `${c.date} · ${c.author} · ${String(c.commit).slice(0, 10)}`),
              h("div", {}, c.subject),
              c.after ? h("div", { class: "history-after" }, c.after.msgstr || "(empty)") : "(removed)",
            )
          ),
        ),
        answer?.truncated ? h("p", { class: "meta" }, "Older changes not shown.") : null,
      );
    }).catch((err) => history.fail(err));
  };
  if (review && hooks.draft) drawReview(review, hooks.draft, e, file, hooks);
  return {
    aside,
    load,
    /** Accepts suggestion `n` (1-based); false when there is none. @param {number} n */
    accept(n) {
      const s = offered[n - 1];
      if (!s) return false;
      hooks.accept(s.msgstr);
      return true;
    },
    /** Redraws the terms against the translation as it is now. */
    recheckTerms() {
      if (termList.length > 0) drawTerms();
    },
  };
}

/**
 * A draft's panel: who proposed what, and approve or reject (review_draft).
 * @param {ReturnType<typeof panel>} review
 * @param {Draft} draft
 * @param {{ msgid: string, msgctxt: string | null }} e
 * @param {{ file_path: string, revision?: string | null }} file
 * @param {{ reviewed: (answer: { state?: string, revision?: string, message?: string }, msgstr: string) => void }} hooks
 */
function drawReview(review, draft, e, file, hooks) {
  const status = h("span", { class: "status", role: "status" });
  /** @param {"approve" | "reject"} action */
  const act = async (action) => {
    status.textContent = action === "approve" ? "Approving…" : "Rejecting…";
    try {
      const answer = await api("/po/review", {
        file_path: file.file_path,
        msgctxt: e.msgctxt ?? null,
        msgid: e.msgid,
        action,
        expected_msgstr: draft.msgstr,
      });
      status.textContent = answer?.message ?? (action === "approve" ? "Approved." : "Rejected.");
      hooks.reviewed(answer ?? {}, action === "approve" ? draft.msgstr : draft.previous_msgstr ?? "");
    } catch (err) {
      status.textContent = "";
      review.fail(err);
    }
  };
  review.show(
    h(
      "p",
      { class: "meta" },
      `Proposed by ${draft.author ?? "someone"}${draft.date ? ` on ${draft.date}` : ""}`,
    ),
    draft.previous_msgstr !== null
      ? h("div", { class: "meta" }, "Before: ", h("span", {}, draft.previous_msgstr || "(empty)"))
      : null,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "primary", onclick: () => act("approve") }, "Approve"),
      h("button", { type: "button", onclick: () => act("reject") }, "Reject"),
      status,
    ),
  );
}

/**
 * The drafts of one catalogue by key (list_drafts), or null when the service has no such tool.
 * @param {string} file_path
 * @returns {Promise<Map<string, Draft> | null>}
 */
export async function draftsOf(file_path) {
  try {
    const answer = await api("/po/drafts", { file_path });
    /** @type {Map<string, Draft>} */
    const byKey = new Map();
    for (const d of answer?.drafts ?? []) byKey.set(entryKey(d.msgctxt, d.msgid), d);
    return byKey;
  } catch (err) {
    if (isMissingTool(err)) return null;
    throw err;
  }
}

/**
 * An entry's full key (gettext's: msgctxt, EOT, msgid), never a cut text.
 * @param {string | null | undefined} msgctxt
 * @param {string} msgid
 */
export function entryKey(msgctxt, msgid) {
  return msgctxt === null || msgctxt === undefined ? msgid : `${msgctxt}\u0004${msgid}`;
}
