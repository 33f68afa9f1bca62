/**
 * The catalogue a write leaves in the file: the messages in the order the writer printed them,
 * without those it dropped, each with the line of its first keyword in the bytes written. The
 * store caches this version after a write, so an answer given right after the server's own write
 * names the same lines as a fresh read of the file (issue 34.5), without parsing the file again.
 *
 * The lines are found when first asked for, by one scan of the written bytes for the lines that
 * open an entry: `msgctxt`/`msgid` at the start of a line, or `#~ msgctxt`/`#~ msgid` for an
 * obsolete one (a `msgid` right after a `msgctxt` belongs to the same entry). In msgcat's layout
 * nothing else starts a line that way: strings go on `"` lines, comments start with `#` and a
 * space or a mark (`#.`, `#:`, `#,`, `#|`, `#~|`).
 *
 * @module
 */
import { type Bytes, flatBytes } from "../../byte_runs.ts";
import { domainGroups, groupAt, groupSize } from "./_domains.ts";
import { laidOutCatalogs, linesOfCatalog } from "../_identity_caches.ts";
import { messageLines } from "../read/parse.ts";
import type { Draft, PoCatalog, PoMessage } from "../types.ts";

/** Whether the writer drops `m` (msgcat drops an obsolete entry whose first msgstr is empty). */
export function dropped(m: PoMessage): boolean {
  if (!m.obsolete) return false;
  const forms = m.msgidPlural !== null && m.msgstrPlural !== null && m.msgstrPlural.length > 0
    ? m.msgstrPlural
    : null;
  return (forms === null ? m.msgstr : forms[0] ?? "") === "";
}

/**
 * Indices of the messages in the order the writer prints them (`write.ts`, with `forcePo`): per
 * domain (the default one first), the live ones, then the obsolete ones; dropped ones left out.
 */
export function writtenOrder(messages: readonly PoMessage[]): number[] {
  const { groups } = domainGroups(messages, true);
  const order: number[] = [];
  if (groups === null) return order;
  for (const group of groups) {
    const size = groupSize(group);
    const obsolete: number[] = [];
    for (let q = 0; q < size; q++) {
      const i = groupAt(group, q);
      const m = messages[i]!;
      if (m.obsolete) obsolete.push(i);
      else order.push(i);
    }
    for (const i of obsolete) if (!dropped(messages[i]!)) order.push(i);
  }
  return order;
}

const HASH = 0x23, TILDE = 0x7e, BAR = 0x7c, SPACE = 0x20, NEWLINE = 0x0a;
const M = 0x6d, S = 0x73, G = 0x67, I = 0x69, D = 0x64, C = 0x63, T = 0x74, X = 0x78;

/**
 * The 1-based line of each entry's first keyword in `bytes` (msgcat's layout), in file order, as
 * the reader counts it: the first `msgctxt` or `msgid` line after the previous entry's `msgstr`,
 * with any of the prefixes `#~ `, `#| `, `#~| ` (a previous `#| msgid` opens its entry). Only the
 * first bytes of each line are looked at; the next line is found with `indexOf`.
 *
 * @example
 * ```ts
 * entryLines(new TextEncoder().encode('msgid ""\nmsgstr ""\n\nmsgctxt "a"\nmsgid "b"\nmsgstr ""\n'));
 * // [1, 4]
 * ```
 */
export function entryLines(bytes: Bytes): number[] {
  // A line ends at a 0x0a byte in UTF-8 and in every charset msgcat writes; the keywords are ASCII.
  const b = flatBytes(bytes);
  const out: number[] = [];
  let line = 1;
  let p = 0;
  let open = false; // an entry's keywords started, its msgstr not yet seen
  while (p < b.length) {
    let q = p;
    if (b[q] === HASH) {
      q++;
      if (b[q] === TILDE) q++;
      if (b[q] === BAR) q++;
      q = q === p + 1 || b[q] !== SPACE ? -1 : q + 1;
    }
    if (q >= 0 && b[q] === M && b[q + 1] === S && b[q + 2] === G) {
      const c = b[q + 3];
      if (c === S) open = false; // msgstr
      else if (
        (c === I && b[q + 4] === D && b[q + 5] === SPACE) ||
        (c === C && b[q + 4] === T && b[q + 5] === X && b[q + 6] === T && b[q + 7] === SPACE)
      ) {
        if (!open) out.push(line);
        open = true;
      }
    }
    const nl = b.indexOf(NEWLINE, p);
    if (nl < 0) break;
    p = nl + 1;
    line++;
  }
  return out;
}

/**
 * The catalogue as a read of `bytes`, which the writer made from `catalog`, gives it: the messages
 * in written order without the dropped ones (the same list when nothing moved), a new catalogue
 * object whose lines ({@link messageLines} in `parse.ts`) are those of `bytes`, found on first use.
 */
export function writtenCatalog(catalog: PoCatalog, bytes: Bytes): PoCatalog {
  const messages = catalog.messages;
  const order = writtenOrder(messages);
  let same = order.length === messages.length;
  for (let k = 0; same && k < order.length; k++) same = order[k] === k;
  const written: Draft<PoCatalog> = same
    ? { ...catalog }
    : { ...catalog, messages: order.map((i) => messages[i]!) };
  // What a read of the file gives: a merged `charset=CHARSET` catalogue is again one msgcat refuses.
  if (written.placeholderCharset === "merged") written.placeholderCharset = "read";
  // The writer's bytes are msgcat's layout: a keep write to this document needs no scan of them.
  laidOutCatalogs.add(written);
  const count = written.messages.length;
  let lines: readonly number[] | null = null;
  linesOfCatalog.set(written, () => {
    if (lines === null) {
      const found = entryLines(bytes);
      // Not what the writer printed (cannot happen for its own bytes): no line rather than a wrong one.
      lines = found.length === count ? found : [];
    }
    return lines;
  });
  return written;
}

/**
 * `problems` with the line of their entry in `catalog` (the first entry of their msgctxt and
 * msgid, live before obsolete): a write checks the catalogue it builds in memory, before the lines
 * of the file it writes are known.
 */
export function withLines<P extends { line: number | null; msgctxt: string | null; msgid: string }>(
  problems: readonly P[],
  catalog: PoCatalog,
): P[] {
  if (problems.length === 0) return [];
  const lines = messageLines(catalog);
  if (lines === undefined || lines.length === 0) return [...problems];
  const live = new Map<string, number>();
  const obsolete = new Map<string, number>();
  catalog.messages.forEach((m, i) => {
    const key = `${m.msgctxt === null ? "" : "\u0004" + m.msgctxt}\u0000${m.msgid}`;
    const map = m.obsolete ? obsolete : live;
    if (!map.has(key) && lines[i] !== undefined) map.set(key, lines[i]!);
  });
  return problems.map((p) => {
    const key = `${p.msgctxt === null ? "" : "\u0004" + p.msgctxt}\u0000${p.msgid}`;
    return { ...p, line: live.get(key) ?? obsolete.get(key) ?? p.line };
  });
}
