/**
 * reST/Sphinx markup as python-docs uses it: the rules sphinx-lint applies to translations (roles,
 * inline literals, hyperlinks, emphasis), each reported only when the translation has more of a
 * mistake than the original (a msgid that is itself odd is not the translator's doing), and the
 * targets of roles kept (`:func:\`open\`` must still point at `open`).
 *
 * @module
 */
import { type RestIssueKind, type RestScan, scanRest } from "./_rest_scan.ts";
import { ofOriginal } from "./_original.ts";
import type { EntryCheck, EntryContext, TranslationPair } from "./_types.ts";
import { pageKey } from "./_same_page.ts";

const ISSUE_TEXT: Record<RestIssueKind, string> = {
  "role-unclosed": "a role lacks its closing backtick",
  "role-no-backticks": "a role has no backticks (write :role:`target`)",
  "role-missing-colon": "a role lacks the colon before its backtick (write :role:`target`)",
  "role-glued-before": "a role is glued to the word before it, so Sphinx does not see it (put a space, or " +
    "an escaped space \\ , before the role)",
  "role-glued-after":
    "a role or link is glued to the word after it, so Sphinx does not see it (put a space, or " +
    "an escaped space \\ , after it)",
  "role-double-backticks": "a role uses double backticks (write :role:`target`, with one)",
  "role-extra-backtick": "a role has an extra backtick",
  "interpreted-unclosed": "a backtick (`) is not closed",
  "literal-unclosed": "an inline literal (``…``) is not closed",
  "literal-glued":
    "an inline literal (``…``) is glued to a word, so it is not seen as one (put a space, or " +
    "an escaped space \\ , between them)",
  "link-no-underscore": "a hyperlink `text <URL>` lacks its trailing underscore (`text <URL>`_)",
  "link-no-space": "a hyperlink lacks the space before <URL> (`text <URL>`_)",
  "strong-unbalanced": "a ** (bold) is not closed",
  "emphasis-unbalanced": "a * (emphasis) is not closed",
};

/** Which check reports which mistake. */
const FAMILY: Record<RestIssueKind, string> = {
  "role-unclosed": "rest-roles",
  "role-no-backticks": "rest-roles",
  "role-missing-colon": "rest-roles",
  "role-glued-before": "rest-roles",
  "role-glued-after": "rest-roles",
  "role-double-backticks": "rest-roles",
  "role-extra-backtick": "rest-roles",
  "interpreted-unclosed": "rest-roles",
  "literal-unclosed": "rest-literals",
  "literal-glued": "rest-literals",
  "link-no-underscore": "rest-links",
  "link-no-space": "rest-links",
  "strong-unbalanced": "rest-emphasis",
  "emphasis-unbalanced": "rest-emphasis",
};

/** Roles whose text is prose a translator may translate; the others name code, labels or documents. */
const TEXT_ROLES = new Set([
  "dfn",
  "emphasis",
  "strong",
  "abbr",
  "menuselection",
  "guilabel",
  "kbd",
  "sub",
  "sup",
  "samp",
  "file",
  "command",
  "program",
  "title-reference",
  "math",
  "index",
  // python-docs translates the glossary, so :term:`fonction` is right in French.
  "term",
]);

/**
 * Each text's scan, made once per check run (every reST check of one pair shares it); the
 * original's once per entry, however many forms share it.
 */
const scans = new WeakMap<TranslationPair, { original: RestScan; translation: RestScan }>();

function scanned(
  pairs: readonly TranslationPair[],
  p: TranslationPair,
): { original: RestScan; translation: RestScan } {
  let s = scans.get(p);
  if (s === undefined) {
    s = { original: ofOriginal(pairs, p, analyseOriginal).scan, translation: scanRest(p.translation) };
    scans.set(p, s);
  }
  return s;
}

/**
 * What the checks take from an original, once per entry: its scan; how many issues of each kind
 * it has; its roles whose target must be kept (not the text roles), in order; and the first link
 * to each page, in the order it first links to it (a translation keeps the links when it links
 * to each of these pages, or to their copies in its language: see `_same_page.ts`).
 */
function analyseOriginal(text: string): {
  scan: RestScan;
  issueCounts: Map<RestIssueKind, number>;
  keptRoles: RestScan["roles"];
  linkPages: { page: string; url: string }[];
} {
  const scan = scanRest(text);
  const issueCounts = new Map<RestIssueKind, number>();
  for (const issue of scan.issues) issueCounts.set(issue.kind, (issueCounts.get(issue.kind) ?? 0) + 1);
  const seen = new Set<string>();
  const linkPages: { page: string; url: string }[] = [];
  for (const url of scan.links) {
    const page = pageKey(url);
    if (seen.has(page)) continue;
    seen.add(page);
    linkPages.push({ page, url });
  }
  return { scan, issueCounts, keptRoles: scan.roles.filter((r) => !TEXT_ROLES.has(r.name)), linkPages };
}

/** Mistakes of `family` the translation has more of than the original. */
function introduced(context: EntryContext, family: string): string[] {
  const out: string[] = [];
  for (const p of context.pairs) {
    if (!mayHaveMarkup(p.translation) && !ofOriginal(context.pairs, p, mayHaveMarkup)) continue;
    const { translation } = scanned(context.pairs, p);
    // The original's issues counted once per entry; a copy per form (a few kinds) is consumed.
    const before = new Map(ofOriginal(context.pairs, p, analyseOriginal).issueCounts);
    const reported = new Set<RestIssueKind>();
    for (const issue of translation.issues) {
      if (FAMILY[issue.kind] !== family || reported.has(issue.kind)) continue;
      const left = before.get(issue.kind) ?? 0;
      if (left > 0) {
        before.set(issue.kind, left - 1);
        continue;
      }
      reported.add(issue.kind);
      out.push(`${p.translationName}: ${ISSUE_TEXT[issue.kind]}: “${issue.text}”`);
    }
  }
  return out;
}

const hasBacktick = (s: string) => s.includes("`");
const hasLink = (s: string) => s.includes("`_");

function mayHaveMarkup(s: string): boolean {
  return s.includes("`") || s.includes("*") || s.includes(":");
}

/** The reST family. */
export const REST_CHECKS: EntryCheck[] = [
  {
    name: "rest-roles",
    severity: "error",
    defaultOn: true,
    rest: true,
    description: "Sphinx roles in msgstr are well formed (:role:`target`: closing backtick, both colons, " +
      "one backtick each side, not glued to a word), as sphinx-lint checks them (beyond msgfmt -c: Sphinx's rule).",
    run: (c) => introduced(c, "rest-roles"),
  },
  {
    name: "rest-role-targets",
    severity: "warning",
    defaultOn: true,
    rest: true,
    description: "Every role of msgid that names code, a label or a document (:func:`open`, :ref:`label`) " +
      "is in msgstr with the same target (its text may be translated: :ref:`texte <label>`).",
    run: (context) => {
      const out: string[] = [];
      for (const p of context.pairs) {
        if (!ofOriginal(context.pairs, p, hasBacktick)) continue;
        const { translation } = scanned(context.pairs, p);
        const have = new Map<string, number>();
        for (const r of translation.roles) {
          const key = `${r.name}\0${r.target}`;
          have.set(key, (have.get(key) ?? 0) + 1);
        }
        // Each role kept consumes one of the translation's: a form costs its own roles, not the original's.
        for (const r of ofOriginal(context.pairs, p, analyseOriginal).keptRoles) {
          const key = `${r.name}\0${r.target}`;
          const left = have.get(key) ?? 0;
          if (left > 0) {
            have.set(key, left - 1);
            continue;
          }
          out.push(
            `${p.translationName} lacks ${r.text} of ${p.originalName} (or changed its target ` +
              `“${r.target}”): keep the role and its target; only the text before <target> may be translated`,
          );
          break;
        }
      }
      return out;
    },
  },
  {
    name: "rest-literals",
    severity: "error",
    defaultOn: true,
    rest: true,
    description:
      "Inline literals (``code``) in msgstr are closed and not glued to a word (beyond msgfmt -c: Sphinx's rule).",
    run: (c) => introduced(c, "rest-literals"),
  },
  {
    name: "rest-links",
    severity: "error",
    defaultOn: true,
    rest: true,
    description:
      "Hyperlinks `text <URL>`_ keep their URL (the same page, or its copy in the translation's language), " +
      "the space before <URL> and the trailing underscore (beyond msgfmt -c: Sphinx's rule).",
    run: (context) => {
      const out = introduced(context, "rest-links");
      for (const p of context.pairs) {
        if (!ofOriginal(context.pairs, p, hasLink)) continue;
        const { translation } = scanned(context.pairs, p);
        // The same page, or its copy in the translation's language (pageKey): another page of the
        // same site is a changed link (`logging.html` → `logging-cookbook.html`). Each page looked
        // at before the lost one is a page the translation has: a form costs its own links.
        const have = new Set([...translation.links, ...translation.links.map(pageKey)]);
        const lost = ofOriginal(context.pairs, p, analyseOriginal).linkPages
          .find((l) => !have.has(l.url) && !have.has(l.page))?.url;
        if (lost !== undefined) {
          out.push(
            `${p.translationName} lacks the hyperlink to ${lost} of ${p.originalName}: ` +
              `keep \`text <${lost}>\`_ (the text may be translated)`,
          );
        }
      }
      return out;
    },
  },
  {
    name: "rest-emphasis",
    severity: "warning",
    defaultOn: true,
    rest: true,
    description: "Bold (**) and emphasis (*) markers in msgstr are balanced.",
    run: (c) => introduced(c, "rest-emphasis"),
  },
];
