/**
 * Removing entries from a catalogue: the entries of a write request marked `delete: true` (issue
 * 34.3), and the purge of obsolete (`#~`) entries, with the same guards as a write: the header
 * cannot go, an entry to remove must be there (else nothing is written, and the closest msgids are
 * named, as `mode: "update"` names them), and `expected_msgstr` makes the removal a
 * compare-and-swap. No HTTP here.
 *
 * @module
 */
import { InvalidInputError } from "../../errors.ts";
import type { WriteEntry } from "./apply_write.ts";
import { type CurrentEntry, writeConflicts } from "./_write_conflicts.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import { dropped } from "../write/written_lines.ts";

/** One request entry to remove: its key, and what the caller read of it (compare-and-swap). */
export type DeleteEntry = Pick<
  WriteEntry,
  "msgid" | "msgctxt" | "obsolete" | "expected_msgstr" | "expected_msgstr_plural"
>;

/** The match key of an entry: context (none = "") and msgid, as writes read them. */
function keyOf(msgctxt: string | null | undefined, msgid: string): string {
  return `${msgctxt ? "\u0004" + msgctxt : ""}\u0000${msgid}`;
}

/**
 * `catalog` without the entries `deletes` name: for each, the first live entry with its msgctxt
 * and msgid, or with `obsolete: true` the first obsolete one.
 *
 * @throws {InvalidInputError} an entry names the header (msgid "" without context).
 * @throws {ConflictError} an entry is not there, or its translation is not its `expected_msgstr`
 *   (details as a write's: `conflicts`, each with the closest msgids or the current msgstr).
 */
export function deleteEntries(
  catalog: PoCatalog,
  deletes: readonly DeleteEntry[],
  revision: string | null,
): { catalog: PoCatalog; deleted: number } {
  if (deletes.length === 0) return { catalog, deleted: 0 };
  for (const e of deletes) {
    if (e.msgid === "" && !e.msgctxt) {
      throw new InvalidInputError(
        'Invalid entry: the header (msgid "") cannot be deleted; change its fields with update_header',
      );
    }
  }
  const wanted = new Set(deletes.map((e) => keyOf(e.msgctxt, e.msgid)));
  const live = new Map<string, number>();
  const obsolete = new Map<string, number>();
  catalog.messages.forEach((m, i) => {
    if (isHeader(m)) return;
    const key = keyOf(m.msgctxt, m.msgid);
    if (!wanted.has(key)) return;
    const map = m.obsolete ? obsolete : live;
    if (!map.has(key)) map.set(key, i);
  });
  const keys = deletes.map((e) => keyOf(e.msgctxt, e.msgid));
  const targets = new Set<number>();
  // An obsolete entry to delete is compared as a live one: it is the entry the request names.
  const current = (key: string): CurrentEntry | null => {
    const i = deletes[keys.indexOf(key)]?.obsolete ? obsolete.get(key) : live.get(key);
    if (i !== undefined) return { message: catalog.messages[i]!, obsolete: false };
    const other = obsolete.get(key);
    return other === undefined ? null : { message: catalog.messages[other]!, obsolete: true };
  };
  const conflict = writeConflicts({
    entries: deletes as WriteEntry[],
    keys,
    mode: "update",
    revision,
    current,
    catalog,
  });
  if (conflict !== null) {
    throw Object.assign(conflict, {
      message: conflict.message.replace("has no entry to update", "has no entry to delete")
        .replace('mode "update" changes existing entries only', "delete removes existing entries only"),
    });
  }
  for (const e of deletes) {
    const key = keyOf(e.msgctxt, e.msgid);
    targets.add((e.obsolete ? obsolete : live).get(key)!);
  }
  const messages = catalog.messages.filter((_, i) => !targets.has(i));
  return { catalog: { ...catalog, messages }, deleted: targets.size };
}

/** Which obsolete entries a purge removes. */
export type PurgeSelection =
  /** Every obsolete entry. */
  | { which: "all" }
  /**
   * The obsolete entries that were already obsolete in `before`, the catalogue as it was before
   * the last merge (a copy, or the same file in another checkout): those that merge obsoleted stay.
   */
  | { which: "before"; before: PoCatalog }
  /** The obsolete entries flagged fuzzy (msgmerge keeps `#~|` previous msgids only on those). */
  | { which: "fuzzy" };

/**
 * `catalog` without the obsolete entries `selection` names, and those entries, in file order.
 * msgcat drops an obsolete entry whose translation is empty when it writes a file, so such an
 * entry (kept in memory only) is removed and counted too.
 */
export function purgeObsolete(
  catalog: PoCatalog,
  selection: PurgeSelection,
): { catalog: PoCatalog; purged: PoMessage[]; kept: number } {
  let before: Set<string> | null = null;
  if (selection.which === "before") {
    before = new Set();
    for (const m of selection.before.messages) if (m.obsolete) before.add(keyOf(m.msgctxt, m.msgid));
  }
  const purged: PoMessage[] = [];
  let kept = 0;
  const messages = catalog.messages.filter((m) => {
    if (!m.obsolete) return true;
    const goes = selection.which === "all" || dropped(m) ||
      (selection.which === "fuzzy" && m.flags.includes("fuzzy")) ||
      (before !== null && before.has(keyOf(m.msgctxt, m.msgid)));
    if (goes) purged.push(m);
    else kept++;
    return !goes;
  });
  return { catalog: purged.length === 0 ? catalog : { ...catalog, messages }, purged, kept };
}
