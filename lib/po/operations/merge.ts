/**
 * Merge a catalogue with a template, as GNU `msgmerge` 0.21 does (`gettext-tools/src/msgmerge.c`:
 * `merge`, `match_domain`, `message_merge`): the template decides which entries exist and in which
 * order; each keeps its translation from the catalogue, found by (msgctxt, msgid), or else by a
 * similar msgid (fuzzy matching, `_fuzzy_match.ts`) and then marked fuzzy; entries the template
 * no longer has become obsolete (`#~`), after the others.
 *
 * Per entry, as message_merge does: msgid, msgid_plural, references (`#:`), extracted comments
 * (`#.`), format, `range:` and wrap flags from the template; msgstr, translator comments and
 * fuzziness from the catalogue. Fuzzy besides when the entry was matched by similarity, when
 * msgid_plural changed, when a plural entry is made from a singular one or back, or when the
 * catalogue's `range:` is not inside the template's. The header keeps the catalogue's fields in
 * gettext's order, with Report-Msgid-Bugs-To and POT-Creation-Date from the template. A new
 * plural entry gets as many empty forms as the catalogue's Plural-Forms says.
 *
 * msgmerge also marks fuzzy an entry whose template newly declares a format its translation does
 * not satisfy (`msgfmt -c`'s check): done here for the languages the format checks of `checks/`
 * know; for the other languages such entries keep their fuzziness.
 *
 * @module
 */
import { TooLargeError, UnwritableCatalogError } from "../../errors.ts";
import { parsePluralExpression } from "./_plural_forms.ts";
import { DEFAULT_FUZZY_LIMITS, FuzzyIndex, type FuzzyLimits } from "./_fuzzy_match.ts";

export { DEFAULT_FUZZY_LIMITS, type FuzzyLimits };
import { LANGUAGE_CODES, LANGUAGE_VARIANT_CODES } from "./_language_codes.ts";
import {
  type Draft as Writable,
  EMPTY_MESSAGE,
  hasHeaderKey,
  type PoCatalog,
  type PoMessage,
} from "../types.ts";
import { canonicalCatalog } from "../write/canonical.ts";
import { type FlagState, FORMAT_LANGUAGES, interpretFlags } from "../read/_flags.ts";
import { CHECK_NAMES, checkMessage } from "../checks/mod.ts";

/** Options of {@link mergeCatalogs}. */
export interface MergeOptions {
  /** Look for a similar msgid when an entry has no exact match (msgmerge's default: true). */
  fuzzyMatching?: boolean;
  /** Keep the msgid a fuzzy entry was translated from as `#| msgid` (`msgmerge --previous`). */
  previous?: boolean;
  /** Bounds of fuzzy matching (see {@link FuzzyLimits}). */
  fuzzyLimits?: Partial<FuzzyLimits>;
  /**
   * Keep a result of nothing but its header (as `msgcat --force-po`, the store's codec, writes
   * it); without it the result reads as the writer prints it then: empty.
   */
  forcePo?: boolean;
}

/** Counts as msgmerge reports them with `--verbose`, and what the fuzzy bound left out. */
export interface MergeStats {
  /** Entries found by (msgctxt, msgid). */
  merged: number;
  /** Entries matched by similarity (marked fuzzy). */
  fuzzied: number;
  /** Template entries with no translation (added untranslated). */
  missing: number;
  /** Catalogue entries the template no longer has (made obsolete). */
  obsolete: number;
  /**
   * Entries that had no exact match and were not searched for a similar one because the fuzzy
   * matching's budget was spent (see {@link FuzzyLimits}): they are added untranslated.
   */
  fuzzySkipped: number;
}

/**
 * What the merge did with one entry: `kept` (found by msgctxt and msgid), `fuzzied` (given the
 * translation of a similar msgid, `previousMsgid`, and marked fuzzy), `new` (a template entry added
 * untranslated), `obsoleted` (a catalogue entry the template lost, kept as `#~`), `dropped` (such
 * an entry without translation: the written file leaves it out, as msgmerge and msgcat do).
 */
export interface MergeOutcome {
  outcome: "kept" | "fuzzied" | "new" | "obsoleted" | "dropped";
  msgctxt: string | null;
  msgid: string;
  /** For `fuzzied`: the msgid whose translation it was given. */
  previousMsgid?: string;
  /** For `kept`: true when the entry is fuzzy after the merge though it was not before. */
  nowFuzzy?: boolean;
}

/** What {@link mergeCatalogs} returns. */
export interface MergeResult {
  catalog: PoCatalog;
  stats: MergeStats;
  /** Each entry's outcome (the header left out): template order, then the catalogue's lost entries. */
  outcomes: MergeOutcome[];
}

/** One message during the merge: the output message, and its msgstr as gettext holds it. */
interface Draft {
  message: PoMessage;
  /** msgstr forms (one for a non-plural message). */
  forms: string[];
  fuzzy: boolean;
  /** 1: needs plural forms made from a singular msgstr; 2: needs the first form only. */
  problem: 0 | 1 | 2;
  /** A catalogue entry the template no longer has, copied as it is (its `#|` lines kept). */
  carried?: true;
}

const NO_CONTEXT = "\u0000";

function keyOf(msgctxt: string | null, msgid: string): string {
  return msgctxt === null ? NO_CONTEXT + msgid : msgctxt + "\u0004" + msgid;
}

function formsOf(m: PoMessage): string[] {
  if (m.msgidPlural === null) return [m.msgstr];
  return m.msgstrPlural && m.msgstrPlural.length > 0 ? [...m.msgstrPlural] : [""];
}

/** The domain name of a message (`messages` is the default). */
function domainOf(m: PoMessage): string {
  return m.domain ?? "messages";
}

/** Messages by domain, in order of first appearance, the default domain first (as gettext's lists). */
function byDomain(messages: readonly PoMessage[]): Map<string, PoMessage[]> {
  const domains = new Map<string, PoMessage[]>([["messages", []]]);
  for (const m of messages) {
    const d = domainOf(m);
    let list = domains.get(d);
    if (list === undefined) domains.set(d, list = []);
    list.push(m);
  }
  return domains;
}

/**
 * nplurals as gettext's `extract_plural_expression` finds it in a header msgstr: the number after
 * `nplurals=` when a `plural=` expression follows that parses; 2 otherwise.
 */
export function pluralCount(headerMsgstr: string | null): number {
  if (headerMsgstr === null) return 2;
  const p = headerMsgstr.indexOf("plural=");
  const n = headerMsgstr.indexOf("nplurals=");
  if (p < 0 || n < 0) return 2;
  let at = n + 9;
  while (at < headerMsgstr.length && /\s/.test(headerMsgstr[at]!)) at++;
  let end = at;
  while (end < headerMsgstr.length && headerMsgstr[end]! >= "0" && headerMsgstr[end]! <= "9") end++;
  if (end === at) return 2;
  if (typeof parsePluralExpression(headerMsgstr, p + 7) === "string") return 2;
  const count = Number(headerMsgstr.slice(at, end));
  // A count no catalogue means (and that would make a huge entry) is taken as gettext's default.
  return count >= 1 && count <= 1000 ? count : 2;
}

/**
 * Merges `def` (the translations) with `ref` (the template) as `msgmerge def ref` does, with
 * `--no-fuzzy-matching` when `options.fuzzyMatching` is false and `--previous` when
 * `options.previous` is true. The result is canonical (as the writer reads it back), ready for
 * {@link encodePo}.
 *
 * @throws {UnwritableCatalogError} the merged header names a charset msgcat refuses.
 * @example
 * ```ts
 * const { catalog, stats } = mergeCatalogs(parsePo(po, "fr.po"), parsePo(pot, "app.pot"));
 * await Deno.writeFile("fr.po", encodePo(catalog));
 * ```
 */
export function mergeCatalogs(def: PoCatalog, ref: PoCatalog, options: MergeOptions = {}): MergeResult {
  const fuzzy = options.fuzzyMatching ?? true;
  const previous = options.previous ?? false;
  const stats: MergeStats = { merged: 0, fuzzied: 0, missing: 0, obsolete: 0, fuzzySkipped: 0 };
  const defDomains = byDomain(def.messages);
  const refDomains = byDomain(ref.messages);
  // msgmerge converts the catalogue to UTF-8 when a template header says `charset=UTF-8` (in any
  // case), and that conversion writes "UTF-8" into the header even when it said "utf-8".
  const toUtf8 = ref.messages.some((m) =>
    hasHeaderKey(m) && !m.obsolete && /^utf-8$/i.test(charsetValue(m.msgstr))
  );
  // A catalogue read with `charset=CHARSET` outside a .pot (placeholderCharset): msgmerge merges it
  // as it is, but cannot convert it to the template's UTF-8.
  if (toUtf8 && def.placeholderCharset) {
    throw new UnwritableCatalogError('present charset "CHARSET" is not a portable encoding name');
  }
  const used = new Set<PoMessage>();
  const out = new Map<string, Draft[]>();
  const fuzzyBudget = fuzzy ? FuzzyIndex.budget(options.fuzzyLimits) : null;
  const growth = new Growth(def, ref);
  const outcomes: MergeOutcome[] = [];
  const kept: { outcome: MergeOutcome; draft: Draft; wasFuzzy: boolean }[] = [];

  for (const [domain, refList] of refDomains) {
    const refMessages = refList.some((m) => hasHeaderKey(m)) ? refList : [dummyHeader(domain), ...refList];
    const defList = defDomains.get(domain) ?? [];
    const defByKey = new Map<string, PoMessage>();
    for (const m of defList) {
      const k = keyOf(m.msgctxt, m.msgid);
      if (!defByKey.has(k)) defByKey.set(k, m);
    }
    const defHeader = defByKey.get(keyOf(null, "")) ?? null;
    const nplurals = pluralCount(defHeader?.msgstr ?? null);
    let index: FuzzyIndex | null = null;
    const drafts: Draft[] = [];
    for (const r of refMessages) {
      const d = defByKey.get(keyOf(r.msgctxt, r.msgid));
      if (d !== undefined) {
        const draft = mergeMessage(d, r, false, previous, toUtf8, defHeader);
        drafts.push(draft);
        used.add(d);
        stats.merged++;
        if (!hasHeaderKey(r)) {
          const outcome: MergeOutcome = { outcome: "kept", msgctxt: r.msgctxt, msgid: r.msgid };
          outcomes.push(outcome);
          kept.push({ outcome, draft, wasFuzzy: interpretFlags(d.flags).fuzzy });
        }
        continue;
      }
      if (hasHeaderKey(r)) continue;
      let similar: PoMessage | null = null;
      if (fuzzyBudget !== null) {
        index ??= new FuzzyIndex(defList, fuzzyBudget);
        const found = index.search(r.msgctxt, r.msgid);
        if (found === "skipped") stats.fuzzySkipped++;
        else similar = found;
      }
      if (similar !== null) {
        drafts.push(mergeMessage(similar, r, true, previous, toUtf8, defHeader));
        used.add(similar);
        stats.fuzzied++;
        outcomes.push({
          outcome: "fuzzied",
          msgctxt: r.msgctxt,
          msgid: r.msgid,
          previousMsgid: similar.msgid,
        });
        continue;
      }
      drafts.push(newEntry(r, nplurals, growth));
      stats.missing++;
      outcomes.push({ outcome: "new", msgctxt: r.msgctxt, msgid: r.msgid });
    }
    fixPlurals(drafts, growth);
    out.set(domain, drafts);
  }

  // Entries of the catalogue the template no longer has: kept, obsolete, in catalogue order,
  // without their references and extracted comments.
  for (const [domain, defList] of defDomains) {
    for (const d of defList) {
      if (used.has(d)) continue;
      let drafts = out.get(domain);
      if (drafts === undefined) out.set(domain, drafts = []);
      drafts.push({
        message: { ...d, references: [], extractedComments: [], obsolete: true },
        forms: formsOf(d),
        fuzzy: interpretFlags(d.flags).fuzzy,
        problem: 0,
        carried: true,
      });
      stats.obsolete++;
      // The writer leaves out an obsolete entry whose (first) msgstr is empty (canonical.ts).
      const dropped = (formsOf(d)[0] ?? "") === "";
      if (!hasHeaderKey(d)) {
        outcomes.push({ outcome: dropped ? "dropped" : "obsoleted", msgctxt: d.msgctxt, msgid: d.msgid });
      }
    }
  }

  const messages: PoMessage[] = [];
  for (const drafts of out.values()) for (const draft of drafts) messages.push(finish(draft));
  const merged: PoCatalog = def.placeholderCharset
    ? { messages, charset: null, fileName: def.fileName, placeholderCharset: "merged" }
    : { messages, charset: null, fileName: def.fileName };
  const catalog = canonicalCatalog(merged, {
    forcePo: options.forcePo ?? false,
  });
  for (const { outcome, draft, wasFuzzy } of kept) if (draft.fuzzy && !wasFuzzy) outcome.nowFuzzy = true;
  return { catalog, stats, outcomes };
}

/** The value after the first `charset=` of a header msgstr, up to a blank or newline ("" when none). */
function charsetValue(msgstr: string): string {
  const at = msgstr.indexOf("charset=");
  return at < 0 ? "" : /^[^ \t\n]*/.exec(msgstr.slice(at + 8))![0];
}

function dummyHeader(domain: string): PoMessage {
  return domain === "messages" ? { ...EMPTY_MESSAGE } : { ...EMPTY_MESSAGE, domain };
}

/** message_merge: the template's entry `r` with the catalogue's translation `d`. */
function mergeMessage(
  d: PoMessage,
  r: PoMessage,
  forceFuzzy: boolean,
  previous: boolean,
  toUtf8: boolean,
  defHeader: PoMessage | null,
): Draft {
  const dFlags = interpretFlags(d.flags);
  const rFlags = interpretFlags(r.flags);
  const header = hasHeaderKey(r);
  const forms = header ? [mergeHeader(d.msgstr, r.msgstr, toUtf8)] : formsOf(d);
  let fuzzy = dFlags.fuzzy || forceFuzzy;
  if (!fuzzy && r.msgidPlural !== d.msgidPlural) fuzzy = true;
  if (!fuzzy && !header && newFormatFails(d, r, dFlags, rFlags, forms, defHeader)) fuzzy = true;
  if (
    !fuzzy && dFlags.range !== null &&
    !(rFlags.range !== null && rFlags.range.min >= dFlags.range.min && rFlags.range.max <= dFlags.range.max)
  ) fuzzy = true;
  let prev: [string | null, string | null, string | null] = [null, null, null];
  if (previous && !header) {
    prev = dFlags.fuzzy
      ? [d.previousMsgctxt, d.previousMsgid, d.previousMsgidPlural]
      : [d.msgctxt, d.msgid, d.msgidPlural];
  }
  const message: Writable<PoMessage> = {
    msgctxt: r.msgctxt,
    msgid: r.msgid,
    msgidPlural: r.msgidPlural,
    msgstr: "",
    msgstrPlural: null,
    translatorComments: d.translatorComments,
    extractedComments: r.extractedComments,
    references: r.references,
    flags: r.flags.filter((f) => f !== "fuzzy"),
    previousMsgctxt: prev[0],
    previousMsgid: prev[1],
    previousMsgidPlural: prev[2],
    obsolete: r.obsolete,
  };
  if (r.domain !== undefined) message.domain = r.domain;
  const problem = r.msgidPlural !== null
    ? (d.msgidPlural === null ? 1 : 0)
    : (d.msgidPlural !== null ? 2 : 0);
  return { message, forms, fuzzy, problem };
}

/** Most plural forms a merge may make (new plural entries' empty forms, singular msgstrs copied). */
export const MAX_MADE_FORMS = 1_000_000;

/** Most characters of msgstr a merge may copy into plural forms. */
export const MAX_MADE_CHARS = 32 * 1024 * 1024;

/**
 * What a merge makes beyond its inputs: only plural forms (nplurals empty forms per new plural
 * entry, a singular msgstr copied nplurals times). A hostile `nplurals=1000` with a template of many
 * plural entries would otherwise make a result far larger than both files; msgmerge would make it.
 */
class Growth {
  #forms = 0;
  #chars = 0;
  constructor(readonly def: PoCatalog, readonly ref: PoCatalog) {}

  add(forms: number, chars: number): void {
    this.#forms += forms;
    this.#chars += chars;
    if (this.#forms > MAX_MADE_FORMS || this.#chars > MAX_MADE_CHARS) {
      throw new TooLargeError(
        `The merge would make more than ${MAX_MADE_FORMS} plural forms or ${MAX_MADE_CHARS} characters of ` +
          "copied translations (the catalogue's Plural-Forms times the template's plural entries): check its nplurals",
      );
    }
  }
}

/** The formats message_merge checks, as the checks name them (every language `checks/` knows). */
const CHECKED_FORMATS: [number, string][] = /* @__PURE__ */ CHECK_NAMES
  .filter((name) => name.endsWith("-format"))
  .map((name) => [FORMAT_LANGUAGES.indexOf(name.slice(0, -7)), name]);

/**
 * message_merge's format rule: when the template marks a format (`c-format`, …) that the
 * catalogue entry did not, the translation is checked as `msgfmt -c` checks it (plural forms by the
 * catalogue's Plural-Forms), and a failure makes the entry fuzzy, so that a catalogue that passed
 * `msgfmt -c` still passes it. Done for every language `checks/` knows (c, python, python-brace, tcl,
 * javascript, php, lua, sh, kde, qt).
 */
function newFormatFails(
  d: PoMessage,
  r: PoMessage,
  dFlags: FlagState,
  rFlags: FlagState,
  forms: readonly string[],
  defHeader: PoMessage | null,
): boolean {
  const possible = (k: string | undefined) => k === "yes" || k === "possible";
  for (const [i, check] of CHECKED_FORMATS) {
    if (!possible(rFlags.formats[i]) || possible(dFlags.formats[i])) continue;
    const probe: PoMessage = {
      ...d,
      msgid: r.msgid,
      msgidPlural: r.msgidPlural,
      msgstr: r.msgidPlural === null ? forms[0] ?? "" : "",
      msgstrPlural: r.msgidPlural === null ? null : [...forms],
      flags: r.flags.filter((f) => f !== "fuzzy"),
      obsolete: false,
    };
    const catalog = { messages: defHeader ? [defHeader] : [], charset: null };
    if (checkMessage(probe, { checks: [check], catalog }).length > 0) return true;
  }
  return false;
}

/** A template entry no catalogue entry matches: copied, with nplurals empty forms when plural. */
function newEntry(r: PoMessage, nplurals: number, growth: Growth): Draft {
  let forms = formsOf(r);
  if (r.msgidPlural !== null && forms.every((f) => f === "")) {
    growth.add(nplurals, 0);
    forms = new Array(nplurals).fill("");
  }
  return { message: r, forms, fuzzy: interpretFlags(r.flags).fuzzy, problem: 0 };
}

/** match_domain's post-processing of entries whose plural-ness changed. */
function fixPlurals(drafts: Draft[], growth: Growth): void {
  if (!drafts.some((d) => d.problem !== 0)) return;
  let nplurals = 0;
  if (drafts.some((d) => d.problem === 1)) {
    const header = drafts.find((d) => hasHeaderKey(d.message));
    nplurals = pluralCount(header?.forms[0] ?? null);
  }
  for (const d of drafts) {
    if (d.problem === 1 && nplurals > 0) {
      growth.add(nplurals * d.forms.length, nplurals * d.forms.reduce((n, f) => n + f.length, 0));
      d.forms = new Array(nplurals).fill(d.forms).flat();
      d.fuzzy = true;
    }
    if (d.problem === 2 && d.forms.length > 1) {
      d.forms = [d.forms[0]!];
      d.fuzzy = true;
    }
    d.problem = 0;
  }
}

/**
 * The output message of a draft: its forms and fuzzy flag set, `#|` lines dropped where msgmerge
 * drops them: from merged entries that are not fuzzy or are untranslated. An entry made obsolete
 * is msgmerge's copy of the catalogue's (`message_copy`), `#|` lines included, fuzzy or not and with
 * or without `--previous`.
 */
function finish(d: Draft): PoMessage {
  const m = d.message;
  const plural = m.msgidPlural !== null;
  const flags = m.flags.filter((f) => f !== "fuzzy");
  if (d.fuzzy) flags.unshift("fuzzy");
  const keepPrevious = d.carried === true || (d.fuzzy && d.forms[0] !== "");
  return {
    ...m,
    msgstr: plural ? "" : d.forms[0] ?? "",
    msgstrPlural: plural ? d.forms : null,
    flags,
    previousMsgctxt: keepPrevious ? m.previousMsgctxt : null,
    previousMsgid: keepPrevious ? m.previousMsgid : null,
    previousMsgidPlural: keepPrevious ? m.previousMsgidPlural : null,
  };
}

/** The header fields message_merge knows, in the order it writes them. */
const KNOWN_FIELDS = [
  "Project-Id-Version:",
  "Report-Msgid-Bugs-To:",
  "POT-Creation-Date:",
  "PO-Revision-Date:",
  "Last-Translator:",
  "Language-Team:",
  "Language:",
  "MIME-Version:",
  "Content-Type:",
  "Content-Transfer-Encoding:",
];
const REPORT_MSGID_BUGS_TO = 1;
const POT_CREATION_DATE = 2;
const LANGUAGE_TEAM = 5;
const LANGUAGE = 6;

/**
 * The merged header msgstr (message_merge's header branch): the catalogue's lines, known fields
 * in gettext's order (a field given twice: the last wins) then the others in order; Language
 * derived from Language-Team when absent; Report-Msgid-Bugs-To and POT-Creation-Date from the
 * template when it has them. Every line ends with a newline.
 */
function mergeHeader(defMsgstr: string, refMsgstr: string, toUtf8: boolean): string {
  const known: (string | null)[] = new Array(KNOWN_FIELDS.length).fill(null);
  let unknown = "";
  let at = 0;
  while (at < defMsgstr.length) {
    const nl = defMsgstr.indexOf("\n", at);
    const line = nl < 0 ? defMsgstr.slice(at) + "\n" : defMsgstr.slice(at, nl + 1);
    at = nl < 0 ? defMsgstr.length : nl + 1;
    const k = KNOWN_FIELDS.findIndex((f) =>
      line.length >= f.length && asciiLower(line.slice(0, f.length)) === asciiLower(f)
    );
    if (k >= 0) known[k] = line.slice(KNOWN_FIELDS[k]!.length);
    else unknown += line;
  }
  if (known[LANGUAGE] === null && known[LANGUAGE_TEAM] !== null) {
    known[LANGUAGE] = ` ${languageOfTeam(known[LANGUAGE_TEAM]!)}\n`;
  }
  for (const k of [REPORT_MSGID_BUGS_TO, POT_CREATION_DATE]) {
    const name = KNOWN_FIELDS[k]!;
    const found = refMsgstr.indexOf(name);
    if (found < 0) continue;
    const start = found + name.length;
    const nl = refMsgstr.indexOf("\n", start);
    known[k] = nl < 0 ? refMsgstr.slice(start) + "\n" : refMsgstr.slice(start, nl + 1);
  }
  let result = "";
  known.forEach((value, k) => {
    if (value !== null) result += KNOWN_FIELDS[k] + value;
  });
  result += unknown;
  // msgmerge converts a catalogue to UTF-8 when the template is UTF-8 (iconv_msgdomain_list),
  // which rewrites the charset the header names.
  if (toUtf8) result = result.replace(/charset=[^ \t\n]*/, "charset=UTF-8");
  return result;
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * The Language code msgmerge derives from a Language-Team value (without its leading blank):
 * blanks trimmed, a last word that looks like an address or URL dropped, then the English name
 * looked up in gettext's tables; "" when it is not there.
 */
function languageOfTeam(team: string): string {
  // The value still ends with its newline here, as in message_merge: only a team whose last
  // word is an address or URL is found in the tables ("French" alone keeps "French\n").
  let s = team.replace(/^[ \t]+/, "").replace(/[ \t]+$/, "");
  let i = s.length;
  while (i > 0 && s[i - 1] !== " " && s[i - 1] !== "\t") i--;
  if (i < s.length && (s[i] === "<" || s.endsWith(">") || s.includes("@") || s.includes("/"))) {
    while (i > 0 && (s[i - 1] === " " || s[i - 1] === "\t")) i--;
    s = s.slice(0, i);
  }
  return LANGUAGE_VARIANT_CODES.get(s) ?? LANGUAGE_CODES.get(s) ?? "";
}
