// The review page (`/ui/review`): the drafts waiting for review across the tree (list_drafts), each
// beside its msgid, the translation it replaced and its checks, with Approve (optionally edited) and
// Reject (review_draft). A review sends the draft's msgstr as expected_msgstr: a draft another
// reviewer changed meanwhile is refused (409) and shown as such, never overwritten. Every text is
// put in with textContent (dom.js `h`), never as HTML.

import { api, ApiError } from "./api.js";
import { crumbs, errorText, h, show } from "./dom.js";

const PAGE_SIZE = 20;

/**
 * @typedef {{ severity: string, check: string, message: string }} DraftCheck
 * @typedef {{ file_path: string, line: number | null, msgctxt: string | null, msgid: string,
 *   msgid_plural: string | null, msgstr: string, msgstr_plural: Record<string, string> | null,
 *   previous_msgstr: string | null, previous_msgstr_plural: Record<string, string> | null,
 *   previous_fuzzy: boolean, author: string | null, date: string | null, checks: DraftCheck[] }} Draft
 */

/**
 * Plural forms `{"0": …}` as lines "[0] …".
 * @param {Record<string, string> | null} forms
 */
function formsText(forms) {
  return Object.entries(forms ?? {}).map(([i, s]) => `[${i}] ${s}`).join("\n");
}

/**
 * @param {Draft} d
 * @param {() => void} onDone
 */
function draftCard(d, onDone) {
  const plural = d.msgid_plural !== null;
  const previous = plural
    ? (d.previous_msgstr_plural ? formsText(d.previous_msgstr_plural) : null)
    : d.previous_msgstr;
  const edit = plural
    ? null
    : h("textarea", { rows: 3, "aria-label": "Translation (edit before approving)" });
  if (edit) edit.value = d.msgstr;
  const status = h("p", { class: "status", role: "status" });
  const buttons = [
    h("button", { type: "button", class: "approve", onclick: () => review("approve") }, "Approve"),
    h("button", { type: "button", class: "reject", onclick: () => review("reject") }, "Reject"),
  ];
  const card = h(
    "li",
    { class: "entry draft" },
    h(
      "p",
      { class: "where" },
      h("a", { href: `/ui/catalogue?path=${encodeURIComponent(d.file_path)}&state=fuzzy` }, d.file_path),
      d.line === null ? "" : `:${d.line}`,
      " · ",
      h("span", { class: "author" }, d.author ?? "(no author)"),
      d.date ? ` · ${d.date}` : "",
    ),
    d.msgctxt === null ? null : h("p", { class: "msgctxt" }, "Context: ", d.msgctxt),
    h("p", { class: "msgid" }, plural ? `${d.msgid}\n${d.msgid_plural}` : d.msgid),
    h(
      "p",
      { class: "previous" },
      previous === null
        ? "No translation before this draft."
        : [`Before${d.previous_fuzzy ? " (fuzzy)" : ""}: `, h("span", { class: "text" }, previous)],
    ),
    plural ? h("p", { class: "msgstr" }, formsText(d.msgstr_plural)) : edit,
    d.checks.length === 0 ? null : h(
      "ul",
      { class: "checks", "aria-label": "Checks" },
      d.checks.map((c) => h("li", { class: c.severity }, `${c.severity} ${c.check}: ${c.message}`)),
    ),
    h("div", { class: "actions" }, buttons),
    status,
  );

  /** @param {"approve" | "reject"} action */
  async function review(action) {
    /** @type {Record<string, unknown>} */
    const body = { file_path: d.file_path, msgctxt: d.msgctxt, msgid: d.msgid, action };
    if (plural) body.expected_msgstr_plural = d.msgstr_plural;
    else body.expected_msgstr = d.msgstr;
    if (action === "approve" && edit && edit.value !== d.msgstr) body.msgstr = edit.value;
    for (const b of buttons) b.disabled = true;
    status.textContent = action === "approve" ? "Approving…" : "Rejecting…";
    try {
      const r = await api("/po/review", body);
      status.textContent = r.message;
      card.dataset.reviewed = action;
      if (edit) edit.disabled = true;
      onDone();
    } catch (e) {
      status.textContent = e instanceof ApiError && e.status === 409
        ? `Not saved: someone changed this entry meanwhile (${errorText(e)}). Reload to see it.`
        : `Not saved: ${errorText(e)}`;
      for (const b of buttons) b.disabled = false;
    }
  }
  return card;
}

/** @param {URLSearchParams} params */
export async function reviewPage(params) {
  document.title = "Drafts to review - PO catalogues";
  crumbs(h("a", { href: "/" }, "Overview"), h("span", {}, "Drafts to review"));
  const author = params.get("author");
  const list = h("ol", { class: "entries drafts", "aria-label": "Drafts" });
  const status = h("p", { class: "status", role: "status" }, "Loading the drafts…");
  const more = h("button", { type: "button", hidden: true }, "More drafts");
  const authorInput = h("input", { type: "search", id: "author", name: "author", value: author ?? "" });
  show(
    h("h1", {}, "Drafts to review"),
    h(
      "form",
      { class: "controls", method: "get", action: "/ui/review" },
      h("label", { for: "author" }, "Author", authorInput),
      h("button", { type: "submit" }, "Show"),
    ),
    status,
    list,
    more,
  );
  /** @type {string | null} */
  let cursor = null;
  let total = 0;
  let reviewed = 0;
  const counted = () => {
    status.textContent = total === 0
      ? "No draft waits for review."
      : `${total - reviewed} of ${total} drafts wait for review.`;
  };
  /** @returns {Promise<void>} */
  async function load() {
    more.disabled = true;
    try {
      const page = await api("/po/drafts", {
        limit: PAGE_SIZE,
        cursor,
        ...(author ? { author } : {}),
      });
      total = page.total;
      for (const d of /** @type {Draft[]} */ (page.drafts)) {
        list.append(draftCard(d, () => (reviewed++, counted())));
      }
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      counted();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && cursor !== null) {
        // A review changed a file the next page starts in: list again from the start.
        cursor = null;
        reviewed = 0;
        list.replaceChildren();
        more.disabled = false;
        return load();
      }
      status.textContent = `Could not list the drafts: ${errorText(e)}`;
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  await load();
}
