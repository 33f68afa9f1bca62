/**
 * Whether a write changed an entry: the test behind a write's `updated` and `unchanged` counts.
 *
 * @module
 */
import type { PoMessage } from "../types.ts";
import { canonicalCatalog } from "../write/canonical.ts";

/**
 * A message as reading its written form back gives it. Only for UTF-8/ASCII catalogues (the only
 * ones written): the form does not depend on the rest of the catalogue then. Undefined when the
 * message is not written at all (obsolete without translation).
 */
function canonicalOne(m: PoMessage): PoMessage | undefined {
  return canonicalCatalog({ messages: [m], charset: "UTF-8" }, { forcePo: true }).messages[0];
}

/**
 * True when `next`, written where `old` was, makes another entry than `old` as msgcat prints them
 * (both read back: a difference msgcat would not print, such as a flag it drops, is no change).
 * Only for UTF-8/ASCII catalogues, the only ones written.
 */
export function entryChanged(old: PoMessage, next: PoMessage): boolean {
  if (sameEntry(old, next)) return false;
  // A new translation, or a move to or from the obsolete entries, always shows (for a message that
  // is not plural, its msgstr is printed as it is).
  if (old.obsolete !== next.obsolete) return true;
  if (old.msgidPlural === null && next.msgidPlural === null && old.msgstr !== next.msgstr) return true;
  return !sameEntry(canonicalOne(old), canonicalOne(next));
}

/** True when two canonical messages are written as the same entry. */
function sameEntry(a: PoMessage | undefined, b: PoMessage | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return a.msgctxt === b.msgctxt && a.msgid === b.msgid && a.msgidPlural === b.msgidPlural &&
    a.msgstr === b.msgstr && sameStrings(a.msgstrPlural, b.msgstrPlural) &&
    sameStrings(a.translatorComments, b.translatorComments) &&
    sameStrings(a.extractedComments, b.extractedComments) &&
    a.references.length === b.references.length &&
    a.references.every((r, i) => r.file === b.references[i]!.file && r.line === b.references[i]!.line) &&
    sameStrings(a.flags, b.flags) && a.previousMsgctxt === b.previousMsgctxt &&
    a.previousMsgid === b.previousMsgid && a.previousMsgidPlural === b.previousMsgidPlural &&
    a.obsolete === b.obsolete && a.domain === b.domain;
}

function sameStrings(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
