/**
 * What a written catalogue reads back as: {@link canonicalCatalog} gives the catalogue that
 * reading {@link formatPo}'s output back would give, without writing or reading anything, so a
 * store that caches the document it wrote caches what the file holds.
 *
 * @module
 */
import { domainGroups } from "./_domains.ts";
import { canonicalLists, canonicalMessages, handOut } from "../_identity_caches.ts";
import { flagLine, interpretFlags, tokenizeFlags } from "../read/_flags.ts";
import { MATCH_WINDOW } from "./_layout_cache.ts";
import { catalogCharset, isSingleByte } from "../charsets/_output_charset.ts";
import { addReference, parseReferences, referenceLines, solarisReference } from "../read/_references.ts";
import type { Draft, PoCatalog, PoMessage, PoReference } from "../types.ts";
import type { FormatOptions } from "./write.ts";

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A reference that may read back differently from how it is stored (see {@link canonicalCatalog}). */
function unusualReference(r: PoReference): boolean {
  const f = r.file;
  return f === "" || f.startsWith("./") || f.includes(":") || /\s/.test(f) ||
    (r.line !== null && !(r.line >= 0 && Number.isSafeInteger(r.line)));
}

/** One message as reading its printed form back gives it; the same object when nothing differs. */
export function canonicalMessage(m: PoMessage, singleByte: boolean): PoMessage {
  const cached = canonicalMessages.get(m);
  if (cached && cached.singleByte === singleByte) return cached.message;
  const message = computeCanonicalMessage(m, singleByte);
  canonicalMessages.set(m, { singleByte, message });
  if (message !== m) canonicalMessages.set(message, { singleByte, message });
  return message;
}

function computeCanonicalMessage(m: PoMessage, singleByte: boolean): PoMessage {
  const plural = m.msgidPlural !== null;
  let msgstr = m.msgstr;
  let msgstrPlural = m.msgstrPlural;
  if (!plural) msgstrPlural = null;
  else {
    if (msgstrPlural === null || msgstrPlural.length === 0) msgstrPlural = [m.msgstr];
    msgstr = "";
  }
  const msgstr0 = plural ? msgstrPlural![0] ?? "" : msgstr;

  // Comments print one line per "\n"; a translator line that reads as a Solaris position is a reference.
  let translator = m.translatorComments;
  const solaris: PoReference[] = [];
  if (translator.some((c) => c.includes("\n") || /^[Ff]ile:/.test(c))) {
    const lines: string[] = [];
    for (const line of m.translatorComments.flatMap((c) => c.split("\n"))) {
      const ref = line === "" ? null : solarisReference(` ${line}`);
      if (ref) solaris.push(ref);
      else lines.push(line);
    }
    translator = lines;
  }
  const extracted = m.extractedComments.some((c) => c.includes("\n"))
    ? m.extractedComments.flatMap((c) => c.split("\n"))
    : m.extractedComments;

  // References read back from their printed lines: "./" stripped, then exact duplicates removed.
  let references = m.references;
  if (solaris.length > 0 || references.some(unusualReference)) {
    const read: PoReference[] = [];
    for (const r of solaris) addReference(read, r.file, r.line);
    for (const line of referenceLines(m.references, singleByte).split("\n")) {
      if (line !== "") parseReferences(line.slice(2), read);
    }
    references = read;
  }

  // Flags read back from the printed flag line.
  let flags = m.flags;
  if (flags.length > 0) {
    const line = flagLine(interpretFlags(flags), msgstr0, m.obsolete);
    const printed = line === "" ? [] : tokenizeFlags(line.slice(2, -1));
    if (!sameList(printed, flags)) flags = printed;
  }

  const sameReferences = references === m.references ||
    (references.length === m.references.length &&
      references.every((r, i) => r.file === m.references[i]!.file && r.line === m.references[i]!.line));
  if (
    msgstr === m.msgstr && msgstrPlural === m.msgstrPlural && translator === m.translatorComments &&
    extracted === m.extractedComments && sameReferences && flags === m.flags
  ) {
    return m;
  }
  return {
    ...m,
    msgstr,
    msgstrPlural,
    translatorComments: translator,
    extractedComments: extracted,
    references: sameReferences ? m.references : references,
    flags,
  };
}

/**
 * The catalogue that reading {@link formatPo}'s output back gives: messages grouped by domain
 * with obsolete ones last, obsolete messages with an empty msgstr gone, `./` prefixes stripped
 * and references deduplicated, flags as printed (unknown ones and `fuzzy` on an empty msgstr
 * gone), comments split at newlines. Messages that read back unchanged are the same objects, so
 * the layout cache keeps serving them. A store that caches the document it wrote should cache
 * this one. `forcePo` as in {@link FormatOptions}: without it, a catalogue of nothing but headers
 * reads back as one without messages (msgcat writes it as an empty file).
 *
 * @throws {UnwritableCatalogError} the header names a charset msgcat refuses.
 * @example
 * ```ts
 * const cat = canonicalCatalog(parsePo(bytes));
 * // deepEqual(cat, parsePo(encodePo(cat))) for every catalogue encodePo accepts
 * ```
 */
export function canonicalCatalog(
  catalog: PoCatalog,
  options: Pick<FormatOptions, "forcePo"> = {},
): PoCatalog {
  const singleByte = isSingleByte(catalogCharset(catalog).canonical);
  const { groups } = domainGroups(catalog.messages, options.forcePo ?? false);
  const messages: PoMessage[] = [];
  for (const indices of groups ?? []) {
    const group = typeof indices === "number"
      ? catalog.messages.slice(0, indices)
      : indices.map((i) => catalog.messages[i]!); // indices of catalog.messages
    for (const m of group) if (!m.obsolete) messages.push(canonicalMessage(m, singleByte));
    for (const m of group) {
      if (!m.obsolete) continue;
      const msgstr0 = m.msgidPlural !== null && m.msgstrPlural && m.msgstrPlural.length > 0
        ? m.msgstrPlural[0]!
        : m.msgstr;
      if (msgstr0 !== "") messages.push(canonicalMessage(m, singleByte));
    }
  }
  const next: Draft<PoCatalog> = { ...catalog, messages, charset: null };
  next.charset = catalogCharset(next).spelled;
  canonicalLists.set(messages, groups !== null && groups.length > 1);
  return handOut(next, false);
}

/**
 * {@link canonicalCatalog} of `catalog`, made from `base` (a catalogue canonicalCatalog returned)
 * by replacing, inserting and removing messages, as a write does: only the messages not in
 * `base` are made canonical, found by walking both lists in order. Falls back to
 * canonicalCatalog when that would not give the same: `base` not known canonical or with several
 * domains, a new message obsolete, a message out of msgcat's order, another charset kind.
 *
 * @throws what canonicalCatalog throws.
 * @example
 * ```ts
 * const next = canonicalCatalogFrom(base, { ...base, messages: [...base.messages, added] });
 * ```
 */
export function canonicalCatalogFrom(
  base: PoCatalog,
  catalog: PoCatalog,
  options: Pick<FormatOptions, "forcePo"> = {},
): PoCatalog {
  if (canonicalLists.get(base.messages) !== false) return canonicalCatalog(catalog, options);
  // (A lone header is written only with forcePo.)
  if (!options.forcePo && catalog.messages.length <= 1) return canonicalCatalog(catalog, options);
  const singleByte = isSingleByte(catalogCharset(catalog).canonical);
  if (singleByte !== isSingleByte(catalogCharset(base).canonical)) return canonicalCatalog(catalog, options);
  const before = base.messages;
  const list = catalog.messages;
  const messages: PoMessage[] = new Array(list.length);
  let j = 0;
  let obsoleteSeen = false;
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!;
    if (m.domain !== undefined || (obsoleteSeen && !m.obsolete)) return canonicalCatalog(catalog, options);
    obsoleteSeen ||= m.obsolete;
    let k = j;
    const stop = Math.min(before.length, j + MATCH_WINDOW);
    while (k < stop && before[k] !== m) k++;
    if (k < stop) {
      messages[i] = m; // canonical already
      j = k + 1;
    } else if (m.obsolete) return canonicalCatalog(catalog, options);
    else messages[i] = canonicalMessage(m, singleByte);
  }
  const next: Draft<PoCatalog> = { ...catalog, messages, charset: null };
  next.charset = catalogCharset(next).spelled;
  canonicalLists.set(messages, false);
  return handOut(next, false);
}
