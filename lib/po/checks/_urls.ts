/**
 * URLs and e-mail addresses of msgid kept in msgstr. Found by hand-written scans around `://`
 * and `@` (no regular expression runs over the text), so each check is linear in the entry.
 *
 * A URL counts as kept when msgstr has it, or another URL of the same site: python-docs
 * translations point docs.python.org links at their own language (`/3/` → `/fr/3/`) and Wikipedia
 * links at their own Wikipedia (`en.wikipedia.org` → `fr.wikipedia.org`), and that is right.
 *
 * @module
 */
import { ofOriginal } from "./_original.ts";
import type { EntryCheck } from "./_types.ts";

/** Characters that end a URL (white space, quotes, brackets, markup). */
const URL_END = new Set([
  " ",
  "\t",
  "\n",
  "\r",
  '"',
  "'",
  "<",
  ">",
  "`",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "|",
  "\\",
  "\u3000",
  "，",
  "。",
  "）",
  "（",
  "、",
  "」",
  "「",
  "》",
]);

/** Punctuation at a URL's end that belongs to the sentence. */
const TRAILING = ".,;:!?*_";

const SCHEMES = ["https", "http", "ftp", "ftps", "sftp", "file", "git", "ssh", "svn"];

/** Longest URL or address considered: longer runs are cut (bounds the work per occurrence). */
const MAX_LENGTH = 2048;

/**
 * The URLs in `s`, in order (scheme `http`, `https`, `ftp`, …, or `www.` hosts), trailing sentence
 * punctuation removed.
 */
export function findUrls(s: string): string[] {
  const urls: string[] = [];
  let from = 0;
  let lastEnd = 0;
  for (;;) {
    const at = s.indexOf("://", from);
    if (at < 0) break;
    let start = at;
    while (start > lastEnd && start > at - 6 && /[A-Za-z]/.test(s[start - 1]!)) start--;
    const scheme = s.slice(start, at).toLowerCase();
    let end = at + 3;
    const limit = Math.min(s.length, at + MAX_LENGTH);
    while (end < limit && !URL_END.has(s[end]!)) end++;
    from = end > at + 3 ? end : at + 3;
    if (!SCHEMES.includes(scheme) || end === at + 3) continue;
    while (end > at + 3 && TRAILING.includes(s[end - 1]!)) end--;
    urls.push(s.slice(start, end));
    lastEnd = end;
  }
  return urls;
}

/**
 * The site of a URL: its host's last two labels, lower case (`en.wikipedia.org` and
 * `fr.wikipedia.org` are one site: a translation may link the page in its own language).
 */
export function siteOf(url: string): string {
  const at = url.indexOf("://");
  let end = at + 3;
  while (end < url.length && url[end] !== "/" && url[end] !== "?" && url[end] !== "#") end++;
  const host = url.slice(at + 3, end).toLowerCase().replace(/:\d+$/, "");
  const labels = host.split(".");
  return labels.length <= 2 ? host : labels.slice(-2).join(".");
}

function isLocalChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9._%+-]/.test(c);
}

function isDomainChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9.-]/.test(c);
}

/** The e-mail addresses in `s` (`local@domain.tld`), in order. */
export function findEmails(s: string): string[] {
  const found: string[] = [];
  let lastEnd = 0;
  for (let at = s.indexOf("@"); at >= 0; at = s.indexOf("@", at + 1)) {
    let start = at;
    while (start > lastEnd && at - start < 64 && isLocalChar(s[start - 1])) start--;
    let end = at + 1;
    while (end < s.length && end - at < 255 && isDomainChar(s[end])) end++;
    while (end > at + 1 && (s[end - 1] === "." || s[end - 1] === "-")) end--;
    const domain = s.slice(at + 1, end);
    if (start === at || !/\.[A-Za-z]{2,}$/.test(domain) || domain.startsWith(".")) continue;
    // "python-dev@python.org" in a URL is part of the URL, not an address.
    if (s.slice(Math.max(0, start - 3), start) === "://") continue;
    found.push(s.slice(start, end));
    lastEnd = end;
  }
  return found;
}

/**
 * Substring look-ups a pair may make for what the scans did not find (a URL or address glued to
 * other text): each reads the translation once, so a pair costs at most this many readings of its
 * translation, whatever the number of URLs in the original.
 */
const MAX_LOOKUPS = 8;

/** The URL/e-mail family. */
export const URL_CHECKS: EntryCheck[] = [
  {
    name: "urls",
    severity: "warning",
    defaultOn: true,
    description: "Every URL and e-mail address of msgid is in msgstr (a URL of the same site counts: " +
      "links to the page in the translation's language are fine).",
    run: ({ pairs }) => {
      const out: string[] = [];
      for (const p of pairs) {
        // The original's URLs and addresses are found once per entry; each form's once.
        let lookups = MAX_LOOKUPS;
        const found = (text: string) => lookups-- > 0 && p.translation.includes(text);
        const theirs = ofOriginal(pairs, p, findUrls);
        if (theirs.length > 0) {
          const ours = findUrls(p.translation);
          const hosts = new Set(ours.map(siteOf));
          const exact = new Set(ours);
          for (const url of theirs) {
            if (!exact.has(url) && !hosts.has(siteOf(url)) && !found(url)) {
              out.push(`${p.translationName} lacks the URL ${url} of ${p.originalName}: copy it unchanged`);
              break;
            }
          }
        }
        const mails = ofOriginal(pairs, p, findEmails);
        const ourMails = mails.length === 0 ? null : new Set(findEmails(p.translation));
        for (const mail of mails) {
          if (!ourMails!.has(mail) && !found(mail)) {
            out.push(
              `${p.translationName} lacks the e-mail address ${mail} of ${p.originalName}: copy it unchanged`,
            );
            break;
          }
        }
      }
      return out;
    },
  },
];
