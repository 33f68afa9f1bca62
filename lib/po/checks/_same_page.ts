/**
 * Whether two URLs name the same page, a translation's localised copy included: what a reST
 * hyperlink of msgid must keep. The host is compared without a leading language label or `www`
 * (`en.wikipedia.org` → `fr.wikipedia.org`), the path without its language segments
 * (`docs.python.org/3/` → `docs.python.org/fr/3/`, `/zh-cn/`, `/pt_BR/`); the rest must be equal, so
 * `…/logging.html` → `…/logging-cookbook.html` is another page. Wikipedia articles are named in
 * their own language: two Wikipedia URLs of different languages count as the same page.
 *
 * Linear in the URLs (split and compared once; no backtracking expression over them).
 *
 * @module
 */

/** A language code as a host label or path segment: `fr`, `pt-br`, `zh_CN`, `zh-hans`. */
function isLanguage(s: string): boolean {
  return /^[a-z]{2,3}([-_][a-z0-9]{2,4})?$/i.test(s);
}

interface Parts {
  host: string;
  languageHost: boolean;
  rest: string;
}

function parts(url: string): Parts {
  const at = url.indexOf("://");
  const scheme = at < 0 ? "" : url.slice(0, at).toLowerCase().replace(/^https$/, "http");
  let end = at < 0 ? 0 : at + 3;
  const start = end;
  while (end < url.length && url[end] !== "/" && url[end] !== "?" && url[end] !== "#") end++;
  const labels = url.slice(start, end).toLowerCase().split(".");
  let languageHost = false;
  if (labels.length > 2 && (labels[0] === "www" || isLanguage(labels[0]!))) {
    languageHost = labels[0] !== "www";
    labels.shift();
  }
  const tail = url.slice(end);
  const cut = tail.search(/[?#]/);
  const path = cut < 0 ? tail : tail.slice(0, cut);
  const segments = path.split("/").filter((s) => s !== "" && !isLanguage(s));
  return {
    host: labels.join("."),
    languageHost,
    rest: `${scheme}|${segments.join("/")}${cut < 0 ? "" : tail.slice(cut)}`,
  };
}

/**
 * The page a URL names, as a key: two URLs have the same key when they are the same page or
 * localised copies of it (see the module doc). One key per URL, so a set of them answers in
 * linear time.
 */
export function pageKey(url: string): string {
  const p = parts(url);
  if (p.host === "wikipedia.org" && p.languageHost) return "wikipedia.org|*";
  return `${p.host}|${p.rest}`;
}
