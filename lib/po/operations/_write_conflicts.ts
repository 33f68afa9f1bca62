/**
 * The entries of a write request that do not fit the catalogue as it is now, and the
 * {@link ConflictError} that lists them: an entry `mode: "update"` must update but that is missing
 * (with the closest existing msgids, so a typo shows), one `mode: "create"` must add but that
 * exists, one whose `expected_msgstr` is not the current translation (with the current one).
 * `expected_msgstr` without `expected_msgstr_plural` on a plural entry is a malformed request
 * ({@link InvalidInputError}): it could not see a change of the forms.
 *
 * The answer is bounded: at most {@link MAX_LISTED_CONFLICTS} entries are listed, and their current
 * translations at most {@link MAX_LISTED_TEXT} UTF-16 units in all; `conflicts_total` counts them all.
 *
 * @module
 */
import { ConflictError, InvalidInputError } from "../../errors.ts";
import { toApiEntry } from "./catalog.ts";
import {
  ClosestBudget,
  closestEntries,
  type ClosestEntry,
  type ClosestIndex,
  closestIndex,
} from "./_closest.ts";
import type { WriteEntry, WriteMode } from "./apply_write.ts";
import { closestIndexes } from "../_identity_caches.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";

/** Conflicting entries listed in one answer at most (each with up to three suggestions). */
export const MAX_LISTED_CONFLICTS = 20;

/** UTF-16 units of current translations listed in one answer at most. */
export const MAX_LISTED_TEXT = 256 * 1024;

/** UTF-16 units of a request's msgid repeated in the answer at most (the caller has it). */
const MSGID_EXCERPT = 200;

/** The message a request key names now, or null when none has it. */
export interface CurrentEntry {
  message: PoMessage;
  /** True when only an obsolete (#~) entry has the key. */
  obsolete: boolean;
}

/** Why an entry conflicts. */
export type ConflictReason =
  /** No non-obsolete entry has its msgctxt and msgid (mode "update", or an expected_msgstr given). */
  | "missing"
  /** An entry with its msgctxt and msgid exists (mode "create"). */
  | "exists"
  /** Its expected_msgstr (or expected_msgstr_plural) is not the entry's translation now. */
  | "changed";

/** One conflicting request entry, as answered. */
export interface ListedConflict {
  /** Its position in the request's `entries`. */
  index: number;
  /** Its msgid (cut after 200 characters, with "…"): for people; find the entry again by `key`. */
  msgid: string;
  msgctxt: string | null;
  /** The entry's full msgctxt and msgid, never cut: what a client finds the entry again by. */
  key: { msgctxt: string | null; msgid: string };
  reason: ConflictReason;
  /** For "missing": true when an obsolete (#~) entry has the key (mode "update" does not revive). */
  obsolete_exists?: boolean;
  /** For "missing": the existing entries whose msgid is closest (edit distance), nearest first. */
  closest?: ClosestEntry[];
  /** For "missing": false when the search for closest msgids stopped at its work bound. */
  closest_complete?: boolean;
  /** For "exists" and "changed": the entry's translation now. */
  msgstr?: string;
  msgstr_plural?: Record<string, string>;
}

/** What {@link writeConflicts} is told. */
export interface ConflictInput {
  entries: readonly WriteEntry[];
  /** The match key of each request entry. */
  keys: readonly string[];
  mode: WriteMode;
  revision: string | null;
  /** The entry a key names in the catalogue as it was before the write. */
  current(key: string): CurrentEntry | null;
  /** The catalogue as it was (closest msgids are found among its non-obsolete entries). */
  catalog: PoCatalog;
}

/** The conflict of the request with the catalogue, or null when every entry fits. */
export function writeConflicts(input: ConflictInput): ConflictError | null {
  const { entries, keys, mode } = input;
  const listed: ListedConflict[] = [];
  let total = 0;
  let text = 0;
  let index: ClosestIndex | null = null;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const found = input.current(keys[i]!);
    const live = found !== null && !found.obsolete ? found.message : null;
    let reason: ConflictReason | null = null;
    if (e.expected_msgstr !== undefined || e.expected_msgstr_plural !== undefined) {
      if (live !== null && live.msgidPlural !== null && e.expected_msgstr_plural === undefined) {
        throw pluralWithoutForms(i, e);
      }
      if (live === null) reason = "missing";
      else if (!holdsExpected(live, e)) reason = "changed";
    }
    if (reason === null && mode === "update" && live === null) reason = "missing";
    if (reason === null && mode === "create" && live !== null) reason = "exists";
    if (reason === null) continue;
    total++;
    if (listed.length >= MAX_LISTED_CONFLICTS) continue;
    const msgctxt = e.msgctxt === undefined || e.msgctxt === "" ? null : e.msgctxt;
    const item: ListedConflict = {
      index: i,
      msgid: e.msgid.length > MSGID_EXCERPT ? e.msgid.slice(0, MSGID_EXCERPT) + "…" : e.msgid,
      msgctxt,
      key: { msgctxt, msgid: e.msgid },
      reason,
    };
    if (reason === "missing") {
      if (found?.obsolete) item.obsolete_exists = true;
      index ??= indexOf(input.catalog);
      const closest = closestEntries(index, e.msgid, new ClosestBudget());
      item.closest = closest.entries;
      item.closest_complete = closest.complete;
    } else if (live !== null) {
      const api = toApiEntry(live);
      const size = api.msgstr.length + Object.values(api.msgstr_plural).reduce((n, s) => n + s.length, 0);
      // Past the bound, counted but not listed (the caller re-reads those entries).
      if (text + size > MAX_LISTED_TEXT) continue;
      text += size;
      item.msgstr = api.msgstr;
      item.msgstr_plural = api.msgstr_plural;
    }
    listed.push(item);
  }
  if (total === 0) return null;
  return new ConflictError(conflictMessage(listed[0], total, entries.length, mode, input.revision), {
    revision: input.revision,
    mode,
    conflicts: listed,
    conflicts_total: total,
  });
}

/**
 * `expected_msgstr` alone on a plural entry guards nothing: such an entry's msgstr is always "" (its
 * translation is in the forms), so the comparison would always pass and the write would overwrite
 * forms another writer changed. Refused as meaningless; sent together with
 * `expected_msgstr_plural` (an entry as read, sent back whole), the forms are compared.
 */
function pluralWithoutForms(index: number, e: WriteEntry): InvalidInputError {
  const msgid = e.msgid.length > MSGID_EXCERPT ? e.msgid.slice(0, MSGID_EXCERPT) + "…" : e.msgid;
  return new InvalidInputError(
    `Invalid entries[${index}] (msgid ${JSON.stringify(msgid)}): expected_msgstr cannot guard a plural ` +
      'entry (its msgstr is always ""; its translation is in msgstr_plural): give expected_msgstr_plural, ' +
      'the forms you read (e.g. {"0": "…", "1": "…"}), to refuse the write if another writer changed them',
  );
}

/** Catalogues are immutable values: the index of one is built once (it sorts the msgids twice). */
function indexOf(catalog: PoCatalog): ClosestIndex {
  let index = closestIndexes.get(catalog);
  if (index === undefined) closestIndexes.set(catalog, index = closestIndex(activeEntries(catalog)));
  return index;
}

/** Non-obsolete entries other than the header, in file order. */
function activeEntries(catalog: PoCatalog): { msgctxt: string | null; msgid: string }[] {
  const out: { msgctxt: string | null; msgid: string }[] = [];
  for (const m of catalog.messages) {
    if (!m.obsolete && !isHeader(m)) {
      out.push({ msgctxt: m.msgctxt, msgid: m.msgid });
    }
  }
  return out;
}

/** True when the entry's translation now is the one the request expects. */
function holdsExpected(m: PoMessage, e: WriteEntry): boolean {
  const api = toApiEntry(m);
  if (e.expected_msgstr !== undefined && api.msgstr !== e.expected_msgstr) return false;
  if (e.expected_msgstr_plural !== undefined) {
    const want = e.expected_msgstr_plural;
    const have = api.msgstr_plural;
    const keys = Object.keys(want);
    if (keys.length !== Object.keys(have).length) return false;
    for (const k of keys) if (!Object.hasOwn(have, k) || have[k] !== want[k]) return false;
  }
  return true;
}

/** One sentence for the first conflict, and how many there are. */
function conflictMessage(
  first: ListedConflict | undefined,
  total: number,
  count: number,
  mode: WriteMode,
  revision: string | null,
): string {
  const at = revision === null
    ? "the catalogue does not exist yet"
    : `the catalogue is at revision ${revision}`;
  let text =
    `Nothing was written: ${total} of ${count} entries do not fit the catalogue as it is now (${at})`;
  if (first === undefined) return text + ".";
  const which = `entries[${first.index}] (msgid ${JSON.stringify(first.msgid)})`;
  if (first.reason === "missing") {
    const obsolete = first.obsolete_exists ? " (only an obsolete #~ entry has it)" : "";
    const why = mode === "update"
      ? `has no entry to update${obsolete}: mode "update" changes existing entries only`
      : `has no entry whose translation could be compared with expected_msgstr${obsolete}`;
    const closest = first.closest && first.closest.length > 0
      ? `; closest existing msgid: ${JSON.stringify(first.closest[0]!.msgid)}`
      : "";
    text += `: ${which} ${why}${closest}`;
  } else if (first.reason === "exists") {
    text += `: ${which} already exists: mode "create" adds new entries only`;
  } else {
    text += `: the translation of ${which} is no longer the expected_msgstr (it changed since it was read)`;
  }
  return text + ". See conflicts for each entry.";
}
