/**
 * What a check learns from an entry's original (its msgid, or its msgid_plural for the forms after
 * the first), learnt once per entry: a plural entry's forms share one original, and analysing it
 * again per form made a check cost forms × the original's length (issue 40.2). Keyed by the
 * entry's pair list and the original's name, never by the text (a long text's hash is its length
 * in V8: two long originals of one length would be compared character by character).
 *
 * @module
 */
import type { TranslationPair } from "./_types.ts";

const analyses = new WeakMap<readonly TranslationPair[], Map<unknown, Map<string, unknown>>>();

/**
 * `analyse(p.original)`, computed once per entry (`pairs`, the entry's pair list) and per original
 * (msgid or msgid_plural), whatever the number of forms.
 */
export function ofOriginal<T>(
  pairs: readonly TranslationPair[],
  p: TranslationPair,
  analyse: (text: string) => T,
): T {
  let byAnalysis = analyses.get(pairs);
  if (byAnalysis === undefined) analyses.set(pairs, byAnalysis = new Map());
  let byName = byAnalysis.get(analyse) as Map<string, T> | undefined;
  if (byName === undefined) byAnalysis.set(analyse, byName = new Map());
  if (byName.has(p.originalName)) return byName.get(p.originalName)!;
  const value = analyse(p.original);
  byName.set(p.originalName, value);
  return value;
}
