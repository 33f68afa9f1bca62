/**
 * A terminology as the checks consult it (the `TermRules` of `lib/po`): which agreed translations a
 * translation lacks, which forbidden renderings it has, whether a `:term:` target is kept.
 *
 * @module
 */
import type { TermRules } from "../po/mod.ts";
import { RenderingSet } from "./_pattern.ts";
import {
  findTermOccurrences,
  findTerms,
  type Forbidden,
  type Term,
  type Terminology,
  type TermOccurrence,
} from "./terminology.ts";
import { tokens } from "./_text.ts";

/** Each term's accepted renderings as one set, made once per term. */
const acceptedSets = new WeakMap<Term, RenderingSet<unknown>>();
const forbiddenSets = new WeakMap<Term, RenderingSet<Forbidden>>();

function acceptedOf(t: Term): RenderingSet<unknown> {
  let s = acceptedSets.get(t);
  if (s === undefined) acceptedSets.set(t, s = new RenderingSet(t.accepted, (r) => r));
  return s;
}

function forbiddenOf(t: Term): RenderingSet<Forbidden> {
  let s = forbiddenSets.get(t);
  if (s === undefined) forbiddenSets.set(t, s = new RenderingSet(t.forbidden, (f) => f.rendering));
  return s;
}

/** The rules of a terminology, for `CheckOptions.terminology`. */
export function termRules(terminology: Terminology): TermRules {
  // The glossary and forbidden checks of one pair look at the same original: found once.
  let lastOriginal: string | null = null;
  let lastTerms: TermOccurrence[] = [];
  const termsOf = (original: string): TermOccurrence[] => {
    if (original !== lastOriginal) {
      lastTerms = findTermOccurrences(terminology, original);
      lastOriginal = original;
    }
    return lastTerms;
  };
  const anyTermForbidden = terminology.terms.some((t) => t.forbidden.length > 0);
  // A `:term:` target names a term by its words.
  const byWords = new Map<string, Term>();
  for (const t of terminology.terms) byWords.set(t.words.join(" "), t);
  const termOfTarget = (target: string): Term | undefined => {
    const words = tokens(target).map((w) => w.word).join(" ");
    return byWords.get(words) ??
      findTerms(terminology, target).find((t) => t.words.length === tokens(target).length);
  };
  return {
    missing(original, translation) {
      const out: ReturnType<TermRules["missing"]> = [];
      let lower: string | null = null;
      for (const { term: t, inTermRole } of termsOf(original)) {
        if (t.accepted.length === 0 || !(t.everywhere || inTermRole)) continue;
        lower ??= translation.toLowerCase();
        if (acceptedOf(t).findLower(lower).length > 0) continue;
        out.push({
          term: t.term,
          translation: t.accepted.map((r) => `“${r.text}”`).join(" or "),
          doNotTranslate: t.doNotTranslate,
          source: t.source,
        });
      }
      return out;
    },
    forbidden(original, translation) {
      const found: Forbidden[] = [];
      if (terminology.forbiddenAnywhere.length > 0) found.push(...terminology.anywhere.find(translation));
      if (anyTermForbidden) {
        for (const { term: t } of termsOf(original)) {
          if (t.forbidden.length > 0) found.push(...forbiddenOf(t).find(translation));
        }
      }
      return found.map((f) => {
        const term = f.term === null ? undefined : termOfTarget(f.term);
        return {
          term: f.term,
          rendering: f.rendering.text,
          note: f.note,
          agreed: term?.translation ?? null,
          source: f.source,
        };
      });
    },
    keepsTermTarget(target, translated) {
      const t = termOfTarget(target);
      if (t === undefined || t.accepted.length === 0) return null;
      return acceptedOf(t).find(translated).length > 0;
    },
    agreedFor(target) {
      const t = termOfTarget(target);
      return t === undefined || t.accepted.length === 0 ? null : t.translation;
    },
  };
}
