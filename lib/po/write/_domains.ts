/**
 * Messages grouped by domain, in the order msgcat writes them, and when it writes nothing at all.
 *
 * @module
 */
import { readList } from "../read/parse.ts";
import { hasHeaderKey, type PoMessage } from "../types.ts";

/** A domain's messages: their indices in the list, in order, or a count n for all n of them. */
export type Group = readonly number[] | number;

/** How many messages group `g` holds. */
export function groupSize(g: Group): number {
  return typeof g === "number" ? g : g.length;
}

/** The index in the list of the `q`th message of group `g`. */
export function groupAt(g: Group, q: number): number {
  return typeof g === "number" ? q : g[q]!;
}

/**
 * The domains in output order (the default one first, the others by first appearance) with their
 * messages; `groups` is null when msgcat would write nothing at all: every domain is empty or
 * holds only a header-like message (msgid "", no msgctxt, obsolete or not). So a header-only file
 * becomes an empty file, while a header-only domain next to a non-empty one is printed
 * (tests/fixtures/fuzz/case-504.po, tests/fixtures/po/header_only*.po). With `forcePo`
 * (`msgcat --force-po`), only a list without messages gives null.
 */
export function domainGroups(
  messages: readonly PoMessage[],
  forcePo = false,
): { domains: (string | undefined)[]; groups: Group[] | null } {
  const hasDomains = readList(messages)?.domains ?? messages.some((m) => m.domain !== undefined);
  if (!hasDomains) {
    const n = messages.length;
    const onlyHeader = n === 0 ||
      (!forcePo && n === 1 && hasHeaderKey(messages[0]!));
    return { domains: [undefined], groups: onlyHeader ? null : [n] };
  }
  // One pass: a list per domain in order of first appearance, the default one first (a walk of
  // the messages per domain would cost O(domains × messages): one message per domain, N²).
  const byDomain = new Map<string | undefined, number[]>([[undefined, []]]);
  for (let i = 0; i < messages.length; i++) {
    const d = messages[i]!.domain;
    let indices = byDomain.get(d);
    if (indices === undefined) byDomain.set(d, indices = []);
    indices.push(i);
  }
  const domains = [...byDomain.keys()];
  const groups = [...byDomain.values()];
  const onlyHeaders = groups.every((g) =>
    g.length === 0 ||
    (!forcePo && g.length === 1 && hasHeaderKey(messages[g[0]!]!))
  );
  return { domains, groups: onlyHeaders ? null : groups };
}
