// The dashboard: an overview of every catalogue under the roots, a page per catalogue with its entries
// by state, and an editor that saves one entry at a time through compare-and-swap. It uses the
// service's own JSON endpoints and nothing else (no CDN, no framework), and builds every element with
// textContent, never HTML from data.

import { askToken, TOKEN_KEY } from "./api.js";
import { cataloguePage } from "./catalogue.js";
import { overview } from "./overview.js";
import { reviewPage } from "./review.js";

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
  if (location.pathname === "/ui/catalogue") cataloguePage(params, navigate);
  else if (location.pathname === "/ui/review") reviewPage(params);
  else overview(params);
}

document.getElementById("token-button").addEventListener("click", () => askToken().then(route));
if (sessionStorage.getItem(TOKEN_KEY)) document.getElementById("token-button").hidden = false;
route();
