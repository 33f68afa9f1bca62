/**
 * The checks of the drafts a write makes: the checks pass over fuzzy entries (msgfmt leaves them
 * out of the compiled catalogue), and a draft is fuzzy until reviewed, yet a broken placeholder in a
 * draft is what its author and its reviewer most need to see.
 *
 * @module
 */
import { checkMessage, type CheckProblem } from "../checks/mod.ts";
import type { PoCatalog, PoMessage } from "../types.ts";
import type { WriteEntry } from "./apply_write.ts";
import { readDraft } from "./draft_mark.ts";

function key(msgctxt: string | null, msgid: string): string {
  return `${msgctxt === null ? "\u0001" : "\u0002" + msgctxt}\u0000${msgid}`;
}

/** The entries of `catalog` with these keys (not obsolete), by key. */
function byKey(catalog: PoCatalog | null, keys: ReadonlySet<string>): Map<string, PoMessage> {
  const out = new Map<string, PoMessage>();
  for (const m of catalog?.messages ?? []) {
    if (m.obsolete) continue;
    const k = key(m.msgctxt, m.msgid);
    if (keys.has(k) && !out.has(k)) out.set(k, m);
  }
  return out;
}

/**
 * The problems of the drafts `entries` made in `after` (the default checks, run as on a translated
 * entry) that the same entry did not have in `before` (checked the same way when it was a draft,
 * as the checks see it otherwise).
 */
export function draftProblems(
  before: PoCatalog | null,
  after: PoCatalog,
  entries: readonly WriteEntry[],
  path: string,
): CheckProblem[] {
  const keys = new Set(
    entries.map((e) => key(e.msgctxt === undefined || e.msgctxt === "" ? null : e.msgctxt, e.msgid)),
  );
  const now = byKey(after, keys);
  const then = byKey(before, keys);
  const out: CheckProblem[] = [];
  for (const [k, m] of now) {
    if (readDraft(m) === null) continue;
    const old = then.get(k);
    if (old === m) continue;
    // What the checks showed of the entry before: all of it, unless it was fuzzy and no draft.
    const shown = old !== undefined && (readDraft(old) !== null || !old.flags.includes("fuzzy"));
    const known = new Set(
      shown ? checkMessage(old, { catalog: before!, path }).map((p) => `${p.check}\u0000${p.message}`) : [],
    );
    for (const p of checkMessage(m, { catalog: after, path })) {
      if (!known.has(`${p.check}\u0000${p.message}`)) out.push(p);
    }
  }
  return out;
}
