/**
 * `term_usage`: for a term (or every term of the terminology), which renderings the translations
 * of the tree use: among the entries whose msgid has the term (translated, not fuzzy, not obsolete),
 * how many have each accepted rendering, each forbidden one, and none of them (`null`), with a few
 * examples each. One pass over each catalogue; the term lookup is `findTerms`'.
 *
 * @module
 */
import { isHeader, type PoCatalog, type PoMessage } from "../po/mod.ts";
import type { Rendering } from "./_pattern.ts";
import { RenderingSet } from "./_pattern.ts";
import { findTerms, type Term, type Terminology } from "./terminology.ts";

/** Examples kept per rendering. */
export const MAX_USAGE_EXAMPLES = 3;

/** An entry shown as an example. */
export interface UsageExample {
  file_path: string;
  msgctxt: string | null;
  msgid: string;
}

/** One rendering's count (`rendering` null: entries with none of the known renderings). */
export interface RenderingUsage {
  rendering: string | null;
  count: number;
  examples: UsageExample[];
}

/** One term's usage. */
export interface TermUsage {
  term: string;
  agreed: string | null;
  /** Entries whose msgid has the term. */
  entries: number;
  renderings: RenderingUsage[];
}

/** True for an entry whose translation counts: translated, not fuzzy, not obsolete, not the header. */
export function isTranslated(m: PoMessage): boolean {
  if (m.obsolete || isHeader(m) || m.flags.includes("fuzzy")) return false;
  return m.msgstrPlural === null ? m.msgstr !== "" : (m.msgstrPlural[0] ?? "") !== "";
}

interface Tally {
  usage: TermUsage;
  /** Rendering text → its row. */
  rows: Map<string, RenderingUsage>;
  none: RenderingUsage;
}

/** Per term, its known renderings as one set (accepted first, then forbidden). */
const known = new WeakMap<Term, { set: RenderingSet<Rendering>; list: Rendering[] }>();

function renderingsOf(t: Term) {
  let k = known.get(t);
  if (k === undefined) {
    const list = [...t.accepted, ...t.forbidden.map((f) => f.rendering)];
    known.set(t, k = { set: new RenderingSet(list, (r) => r), list });
  }
  return k;
}

/** Counts renderings over catalogues added one by one. */
export class UsageTally {
  readonly #terms = new Map<string, Tally>();

  /** Counts the entries of one catalogue, with its root's terminology. */
  add(filePath: string, catalog: PoCatalog, terminology: Terminology): void {
    for (const m of catalog.messages) {
      if (!isTranslated(m)) continue;
      const terms = findTerms(terminology, m.msgid);
      if (terms.length === 0) continue;
      const text = m.msgstrPlural === null ? m.msgstr : m.msgstrPlural.join("\n");
      for (const t of terms) {
        this.#count(t, text, { file_path: filePath, msgctxt: m.msgctxt, msgid: m.msgid });
      }
    }
  }

  #count(t: Term, text: string, example: UsageExample): void {
    const key = t.words.join(" ");
    let tally = this.#terms.get(key);
    if (tally === undefined) {
      const rows = new Map<string, RenderingUsage>();
      for (const r of renderingsOf(t).list) {
        if (!rows.has(r.text)) rows.set(r.text, { rendering: r.text, count: 0, examples: [] });
      }
      const none: RenderingUsage = { rendering: null, count: 0, examples: [] };
      tally = { usage: { term: t.term, agreed: t.translation, entries: 0, renderings: [] }, rows, none };
      this.#terms.set(key, tally);
    }
    tally.usage.entries++;
    const found = renderingsOf(t).set.find(text);
    const seen = new Set<string>();
    for (const r of found) {
      if (seen.has(r.text)) continue;
      seen.add(r.text);
      let row = tally.rows.get(r.text);
      if (row === undefined) tally.rows.set(r.text, row = { rendering: r.text, count: 0, examples: [] });
      row.count++;
      if (row.examples.length < MAX_USAGE_EXAMPLES) row.examples.push(example);
    }
    if (found.length === 0) {
      tally.none.count++;
      if (tally.none.examples.length < MAX_USAGE_EXAMPLES) tally.none.examples.push(example);
    }
  }

  /**
   * The usage of each term met (and of `wanted` ones never met: 0 entries), in the order given,
   * then the others by term. Each term's renderings come most used first, `null` last.
   */
  result(wanted: readonly Term[] = []): TermUsage[] {
    for (const t of wanted) {
      const key = t.words.join(" ");
      if (!this.#terms.has(key)) {
        const rows = new Map<string, RenderingUsage>();
        for (const r of renderingsOf(t).list) rows.set(r.text, { rendering: r.text, count: 0, examples: [] });
        this.#terms.set(key, {
          usage: { term: t.term, agreed: t.translation, entries: 0, renderings: [] },
          rows,
          none: { rendering: null, count: 0, examples: [] },
        });
      }
    }
    const order = new Map(wanted.map((t, i) => [t.words.join(" "), i]));
    return [...this.#terms.entries()]
      .sort(([a], [b]) =>
        (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0)
      )
      .map(([, tally]) => ({
        ...tally.usage,
        renderings: [
          ...[...tally.rows.values()].sort((a, b) => b.count - a.count),
          tally.none,
        ],
      }));
  }
}
