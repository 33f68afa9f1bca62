/**
 * The language a catalogue's entries count as in the memory, when neither its header nor its path
 * says: a locale ending the root's name; and the key languages are compared by.
 *
 * @module
 */
import { basename } from "node:path";

/** A language for comparisons: `pt-BR` and `pt_br` are one. */
export function normaliseLanguage(language: string): string {
  return language.replaceAll("-", "_").toLowerCase();
}

/** A locale ending a root's name (`python-docs-fr`, `docs_zh-tw`), or null. */
export function rootLanguage(root: string): string | null {
  const match = /[-_.]([a-z]{2,3}(?:[-_](?:[A-Za-z]{2}|[A-Z][a-z]{3}))?)$/.exec(basename(root));
  return match?.[1] ?? null;
}
