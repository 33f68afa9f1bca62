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
import type { Bytes } from "../byte_runs.ts";
import { domainGroups, groupAt, groupSize } from "./_domains.ts";
import { linesOfCatalog } from "./_identity_caches.ts";
import { messageLines } from "./parse.ts";
import type { PoCatalog, PoMessage } from "./types.ts";

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

const HASH = 0x23, TILDE = 0x7e, BAR = 0x7c, SPACE = 0x20, NL = 0x0a;
const ASCII = new TextEncoder();
const MSGCTXT = ASCII.encode("msgctxt ");
const MSGID = ASCII.encode("msgid ");
const MSGSTR = ASCII.encode("msgstr");

/** Whether `head[at, length)` starts with `word`. */
function startsWith(head: Uint8Array, at: number, length: number, word: Uint8Array): boolean {
  if (length - at < word.length) return false;
  for (let k = 0; k < word.length; k++) if (head[at + k] !== word[k]) return false;
  return true;
}

/** Longest line start looked at: `#~| msgctxt `. */
const HEAD = 12;

/**
 * The 1-based line of each entry's first keyword in `bytes` (msgcat's layout), in file order, as
 * the reader counts it: the first `msgctxt` or `msgid` line after the previous entry's `msgstr`,
 * with any of the prefixes `#~ `, `#| `, `#~| ` (a previous `#| msgid` opens its entry).
 *
 * @example
 * ```ts
 * entryLines(new TextEncoder().encode('msgid ""\nmsgstr ""\n\nmsgctxt "a"\nmsgid "b"\nmsgstr ""\n'));
 * // [1, 4]
 * ```
 */
export function entryLines(bytes: Bytes): number[] {
  const runs = bytes instanceof Uint8Array ? [bytes] : bytes;
  const out: number[] = [];
  const head = new Uint8Array(HEAD);
  let headLength = 0;
  let collecting = true; // at a line's start, gathering its first bytes
  let line = 1;
  let open = false; // an entry's keywords started, its msgstr not yet seen
  const classify = () => {
    let at = 0;
    if (head[0] === HASH) {
      at = head[1] === TILDE ? (head[2] === BAR ? 3 : 2) : head[1] === BAR ? 2 : -1;
      if (at < 0 || head[at] !== SPACE) return;
      at++;
    }
    if (startsWith(head, at, headLength, MSGCTXT) || startsWith(head, at, headLength, MSGID)) {
      if (!open) out.push(line);
      open = true;
    } else if (startsWith(head, at, headLength, MSGSTR)) open = false;
  };
  for (const run of runs) {
    let p = 0;
    while (p < run.length) {
      if (collecting) {
        while (p < run.length && headLength < HEAD && run[p] !== NL) head[headLength++] = run[p++]!;
        if (p === run.length) break; // the line goes on in the next run
        classify();
        collecting = false;
        headLength = 0;
      }
      const nl = run.indexOf(NL, p);
      if (nl < 0) {
        p = run.length;
        break;
      }
      p = nl + 1;
      line++;
      collecting = true;
    }
  }
  if (collecting && headLength > 0) classify();
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
  const written: PoCatalog = same ? { ...catalog } : { ...catalog, messages: order.map((i) => messages[i]!) };
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
