/**
 * Terminology checks: the team's glossary applied (`glossary`), its forbidden renderings refused
 * (`forbidden`), and the glossary's `:term:` targets kept (`term-target`). The terminology is an
 * input of the check run (`CheckOptions.terminology`, built by `lib/terms` from a root's files and
 * passed in by the caller); without one, `glossary` and `forbidden` find nothing and `term-target`
 * only counts the `:term:` roles.
 *
 * @module
 */
import { scanRest } from "./_rest_scan.ts";
import { ofOriginal } from "./_original.ts";
import type { EntryCheck, EntryContext } from "./_types.ts";

/** Most problems one check reports per translation. */
const MAX_PER_PAIR = 5;

const q = (s: string) => `“${s}”`;

/** The `:term:` targets of a text, lower-cased with white space collapsed, as Sphinx looks terms up. */
function termTargets(text: string): string[] {
  if (!text.includes(":term:")) return [];
  return scanRest(text).roles.filter((r) => r.name === "term").map((r) =>
    r.target.replace(/\s+/g, " ").trim().toLowerCase()
  );
}

/** The terminology family. */
export const TERM_CHECKS: EntryCheck[] = [
  {
    name: "glossary",
    severity: "warning",
    defaultOn: true,
    description: "Each glossary term of msgid (the root's glossary.po and .po-terms.csv) has its agreed " +
      "translation in msgstr, inflections allowed (docs/terminology.md).",
    run: (context: EntryContext) => {
      const rules = context.terminology;
      if (rules === null) return [];
      const out: string[] = [];
      for (const p of context.pairs) {
        for (const m of rules.missing(p.original, p.translation).slice(0, MAX_PER_PAIR)) {
          out.push(
            m.doNotTranslate
              ? `${p.translationName} lacks the term ${
                q(m.term)
              } of ${p.originalName}, which stays as it is ` +
                `(${m.source})`
              : `${p.translationName} lacks the agreed translation of ${
                q(m.term)
              }: ${m.translation} (${m.source})`,
          );
        }
      }
      return out;
    },
  },
  {
    name: "forbidden",
    severity: "error",
    defaultOn: true,
    description: "msgstr has none of the renderings the root's .po-terms.csv forbids (e.g. zh_CN wording " +
      "in zh_TW), anywhere or for a term of msgid.",
    run: (context: EntryContext) => {
      const rules = context.terminology;
      if (rules === null) return [];
      const out: string[] = [];
      for (const p of context.pairs) {
        for (const f of rules.forbidden(p.original, p.translation).slice(0, MAX_PER_PAIR)) {
          const instead = f.note !== "" ? f.note : f.agreed !== null ? `use ${q(f.agreed)}` : "";
          out.push(
            `${p.translationName} has ${q(f.rendering)}, ` +
              (f.term === null ? "a forbidden rendering" : `a forbidden rendering of ${q(f.term)}`) +
              `${instead === "" ? "" : `: ${instead}`} (${f.source})`,
          );
        }
      }
      return out;
    },
  },
  {
    name: "term-target",
    severity: "warning",
    defaultOn: true,
    rest: true,
    description: "Each :term: role of msgid is in msgstr with the same glossary term: its target kept " +
      "(:term:`texte <iterable>`) or the term's agreed translation (:term:`itérable`).",
    run: (context: EntryContext) => {
      const rules = context.terminology;
      const out: string[] = [];
      for (const p of context.pairs) {
        const wanted = ofOriginal(context.pairs, p, termTargets);
        if (wanted.length === 0) continue;
        const have = termTargets(p.translation);
        const used = new Uint8Array(have.length);
        const unknown: string[] = [];
        const lost: string[] = [];
        // First the targets the translation keeps as they are, then those it writes as the
        // glossary's translation (a target kept is never taken for another's translation).
        const left: string[] = [];
        for (const target of wanted) {
          const k = have.findIndex((h, i) => !used[i] && h === target);
          if (k >= 0) used[k] = 1;
          else left.push(target);
        }
        for (const target of left) {
          const k = rules === null
            ? -1
            : have.findIndex((h, i) => !used[i] && rules.keepsTermTarget(target, h) === true);
          if (k >= 0) used[k] = 1;
          else if (rules !== null && rules.agreedFor(target) !== null) lost.push(target);
          else unknown.push(target);
        }
        // …then a term the terminology does not know takes any :term: role left (its translation
        // may be any word the translated glossary has).
        for (const target of unknown) {
          const k = used.indexOf(0);
          if (k >= 0) used[k] = 1;
          else lost.push(target);
        }
        for (const target of lost.slice(0, MAX_PER_PAIR)) {
          const agreed = rules?.agreedFor(target) ?? null;
          out.push(
            `${p.translationName} lacks :term:\`${target}\` of ${p.originalName} (or changed its target): ` +
              `keep :term:\`text <${target}>\`${agreed === null ? "" : ` or write :term:\`${agreed}\``}`,
          );
        }
      }
      return out;
    },
  },
];
