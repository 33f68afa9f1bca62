// @ts-check
// The dashboard: an overview of every catalogue under the roots, a page per catalogue with its entries
// by state, and an editor that saves one entry at a time through compare-and-swap. It uses the
// service's own JSON endpoints and nothing else (no CDN, no framework), and builds every element with
// textContent, never HTML from data.

import { askToken, TOKEN_KEY } from "./api.js";
import { cataloguePage } from "./catalogue.js";
import { overview } from "./overview.js";
import { reviewPage } from "./review.js";

/** @typedef {import("./entry.js").EntryCard} EntryCard */

// ---------------------------------------------------------------------------------------------
// Keyboard and routing

/** The entry card being worked on: the one holding the focus, or the one last marked current. */
function currentCard() {
  const active = /** @type {Element | null} */ (document.activeElement);
  return /** @type {EntryCard | null} */ (active?.closest?.(".entry") ??
    document.querySelector(".entry.current"));
}

/**
 * Focuses the next entry to do (untranslated or fuzzy) after `from`, wrapping around; false if none.
 * @param {Element | null} from
 */
function focusNextToDo(from) {
  const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".entry")]);
  const at = from ? cards.indexOf(/** @type {HTMLElement} */ (from)) : -1;
  const todo = (/** @type {HTMLElement} */ c) =>
    c.dataset.state === "untranslated" || c.dataset.state === "fuzzy";
  const next = cards.slice(at + 1).find(todo) ?? cards.slice(0, Math.max(at, 0)).find(todo);
  if (!next) return false;
  const area = next.querySelector("textarea");
  (area ?? next).focus();
  next.scrollIntoView({ block: "nearest" });
  return true;
}

/** @param {KeyboardEvent} ev @param {string} letter */
const altKey = (ev, letter) =>
  ev.altKey && !ev.ctrlKey && !ev.metaKey &&
  (ev.key.toLowerCase() === letter || ev.code === `Key${letter.toUpperCase()}`);

document.addEventListener("keydown", (ev) => {
  if (altKey(ev, "n")) {
    if (focusNextToDo(currentCard())) ev.preventDefault();
  } else if ((ev.ctrlKey || ev.metaKey) && ev.key === "Enter") {
    const card = currentCard();
    if (!card?.save) return;
    ev.preventDefault();
    // Save and next: only once the save landed (a refusal or a conflict keeps the entry in view).
    card.save().then((ok) => ok && focusNextToDo(card));
  } else if (altKey(ev, "f")) {
    const card = currentCard();
    if (card?.toggleFuzzy) ev.preventDefault(), card.toggleFuzzy();
  } else if (ev.altKey && !ev.ctrlKey && /^Digit[1-9]$/.test(ev.code)) {
    const card = currentCard();
    if (card?.accept?.(Number(ev.code.slice(5)))) ev.preventDefault();
  }
});

/** @param {string} url */
function navigate(url) {
  history.pushState(null, "", url);
  route();
}

document.addEventListener("click", (ev) => {
  const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (ev.target).closest?.("a[href]"));
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
  if (location.pathname === "/ui/catalogue") cataloguePage(params, navigate);
  else if (location.pathname === "/ui/review") reviewPage(params);
  else overview(params);
}

const tokenButton = /** @type {HTMLButtonElement} */ (document.getElementById("token-button"));
tokenButton.addEventListener("click", () => askToken().then(route));
if (sessionStorage.getItem(TOKEN_KEY)) tokenButton.hidden = false;
route();
