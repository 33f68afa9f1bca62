/**
 * Applying a batch of writes to a catalogue: matching each request entry to its message, checking
 * every field reads back as given, and building the new catalogue. No HTTP here.
 *
 * Messages are never mutated: a write builds new message objects and a new catalogue, so the
 * writer's per-message layout cache stays valid and a catalogue shared with a cache is safe.
 *
 * @module
 */
import { type ConflictError, InvalidInputError, UnwritableCatalogError } from "../../errors.ts";
import { type CurrentEntry, writeConflicts } from "./_write_conflicts.ts";
import { entryChanged } from "./_entry_change.ts";
import { knownUnique, markUnique } from "../read/_duplicates.ts";
import { tokenizeFlags } from "../read/_flags.ts";
import { parseReferences } from "../read/_references.ts";
import {
  commentLineProblem,
  flagProblem,
  occurrenceProblem,
  REFERENCE_WHITE_SPACE,
  referenceProblem,
  unreadableReference,
} from "../write/_read_back.ts";
import {
  type Draft,
  EMPTY_MESSAGE,
  hasHeaderKey,
  isHeader,
  type PoCatalog,
  type PoMessage,
  type PoReference,
} from "../types.ts";
import { canonicalCatalog, canonicalCatalogFrom } from "../write/canonical.ts";
import { catalogCharset, isWritableCharset } from "../charsets/_output_charset.ts";
import {
  checkedAuthor,
  draftDate,
  draftLines,
  type DraftMark,
  isDraftLine,
  previousOf,
  readDraft,
} from "./draft_mark.ts";

/**
 * One entry of a write request. Only `msgid` is required. A field left out (undefined) keeps the
 * existing value; a field given replaces it, except that `null` for `comment`/`tcomment` also
 * keeps it (as the Python service did).
 */
export interface WriteEntry {
  msgid: string;
  /** The translation (default "" for a new entry). Ignored for plural entries: use `msgstr_plural`. */
  msgstr?: string;
  /** Context; null, absent and "" all mean "no context". */
  msgctxt?: string | null;
  /** Extracted comments, lines separated by "\n" ("" clears them). */
  comment?: string | null;
  /** Translator comments, lines separated by "\n" ("" clears them). */
  tcomment?: string | null;
  /** References, `file:line` or `file` (a trailing `:` is ignored). */
  occurrences?: string[];
  /** Flag tokens, e.g. ["fuzzy", "python-format"]; [] clears them. Not with `fuzzy`. */
  flags?: string[];
  /** Sets (true) or clears (false) the fuzzy flag alone, keeping every other flag. Not with `flags`. */
  fuzzy?: boolean;
  /** Makes the entry plural (a string) or not plural (null). */
  msgid_plural?: string | null;
  /** Plural forms by index ("0", "1", …). */
  msgstr_plural?: Record<string, string>;
  previous_msgid?: string | null;
  previous_msgctxt?: string | null;
  obsolete?: boolean;
  /**
   * The translation the caller read: the write is refused ({@link ConflictError}) unless a
   * non-obsolete entry with this msgctxt and msgid exists and its `msgstr` (as `toApiEntry` gives
   * it: "" for a plural entry) is exactly this. On a plural entry it is refused
   * ({@link InvalidInputError}) unless `expected_msgstr_plural` is given too: alone, it could not see
   * a change of the forms.
   */
  expected_msgstr?: string;
  /** As `expected_msgstr`, for the plural forms (`msgstr_plural` as `toApiEntry` gives it). */
  expected_msgstr_plural?: Record<string, string>;
  /**
   * true: the translation written is a draft waiting for review (see `draft_mark.ts`): the entry
   * becomes fuzzy and gets the mark, naming `draft_author` and the write's time, and keeping the
   * translation it replaces (a draft over a draft keeps the first one's). false: the mark goes and,
   * unless `fuzzy: true`, the fuzzy flag with it. Absent: a mark stays while the entry stays fuzzy.
   */
  draft?: boolean;
  /** Who wrote the draft (with `draft: true` only); default {@link WriteOptions.draftAuthor}. */
  draft_author?: string;
}

/**
 * What a write may do: `upsert` (the default) updates or adds each entry; `update` only updates
 * existing, non-obsolete entries, `create` only adds new ones (or revives obsolete ones); an entry
 * that does not fit refuses the whole write.
 */
export type WriteMode = "upsert" | "update" | "create";

/** What happened to one request entry. */
export type EntryOutcome =
  /** Added (no entry had its msgctxt and msgid). */
  | "created"
  /** Its entry, as msgcat writes it, changed. */
  | "updated"
  /** Its entry already was as the request asked: nothing changed. */
  | "unchanged"
  /** An obsolete (#~) entry with its msgctxt and msgid was made active again. */
  | "revived"
  /** A later entry of the request had the same msgctxt and msgid, and was applied instead. */
  | "superseded";

/** Options of {@link applyWrite}. */
export interface WriteOptions {
  /** See {@link WriteMode} (default "upsert"). */
  mode?: WriteMode;
  /** The revision of the file `cat` was read from, named in a conflict's answer (null: no file). */
  revision?: string | null;
  /** The author of drafts whose entry names none: the caller's identity (default null: unnamed). */
  draftAuthor?: string | null;
  /** The time a draft mark records (default now). */
  now?: Date;
}

/** What {@link applyWrite} did. */
export interface WriteResult {
  /** The new catalogue (the input is left untouched). */
  catalog: PoCatalog;
  /** Entries appended (new keys). */
  created: number;
  /**
   * Entries that matched only an obsolete (`#~`) entry, which was revived: moved among the active
   * entries, keeping its comments, references and flags except `fuzzy` (and the `#|` previous
   * msgid that goes with it), since the request's translation is what it now holds; the request's
   * fields are then applied as for an update (`flags: ["fuzzy"]` keeps it fuzzy).
   */
  revived: number;
  /** Existing entries whose entry, as msgcat writes it, changed. */
  updated: number;
  /** Existing entries that already were as the request asked (left as they were). */
  unchanged: number;
  /** Request entries dropped because a later entry had the same msgctxt and msgid. */
  duplicatesDropped: number;
  /** What happened to each request entry, in request order. */
  outcomes: EntryOutcome[];
}

/** The header msgstr of a catalogue {@link applyWrite} creates. */
export const NEW_CATALOG_HEADER = "Content-Type: text/plain; charset=UTF-8\nMIME-Version: 1.0\n" +
  "Content-Transfer-Encoding: 8bit\n";

function key(msgctxt: string | null, msgid: string): string {
  return `${msgctxt === null ? "\u0001" : "\u0002" + msgctxt}\u0000${msgid}`;
}

function label(e: WriteEntry): string {
  return `entry with msgid ${JSON.stringify(e.msgid.length > 60 ? e.msgid.slice(0, 60) + "…" : e.msgid)}`;
}

function checkText(e: WriteEntry, field: string, value: string | null | undefined): void {
  if (typeof value !== "string") return;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0 || c === 4) {
      throw new InvalidInputError(
        `Invalid ${field} of the ${label(e)}: it contains ${c === 0 ? "a NUL character" : "U+0004 (EOT)"}, ` +
          "which a PO file cannot hold",
      );
    }
  }
  checkWellFormed(e, field, value);
}

/** UTF-8 cannot hold a lone surrogate: the file would get U+FFFD, and no longer match the request
 * (or the cached document). */
function checkWellFormed(e: WriteEntry, field: string, value: string): void {
  if (!value.isWellFormed()) {
    throw new InvalidInputError(
      `Invalid ${field} of the ${label(e)}: it contains a lone UTF-16 surrogate, which UTF-8 cannot encode`,
    );
  }
}

/** Comment lines of a `comment`/`tcomment` field, each checked to read back as written. */
function commentList(e: WriteEntry, field: "comment" | "tcomment", text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const problem = commentLineProblem(lines[i]!, field === "tcomment");
    if (problem !== null) {
      throw new InvalidInputError(
        `Invalid ${field} of the ${label(e)}: ${lines.length > 1 ? `its line ${i + 1}` : "it"} ` +
          `(${excerpt(lines[i]!)}) cannot be written: ${problem}`,
      );
    }
  }
  return lines;
}

/** A value for an error message: JSON-quoted, its end shown when it is long (where the trouble is). */
function excerpt(s: string): string {
  return JSON.stringify(s.length > 60 ? "…" + s.slice(-60) : s);
}

/** References from API occurrences (`file:line` or `file`), exact duplicates removed. */
function referencesOf(e: WriteEntry, occurrences: string[]): PoReference[] {
  const out: PoReference[] = [];
  const origin: number[] = []; // the occurrence of each reference in `out`
  for (let i = 0; i < occurrences.length; i++) {
    const raw = occurrences[i]!;
    const problem = occurrenceProblem(raw);
    if (problem === REFERENCE_WHITE_SPACE) {
      throw new InvalidInputError(`Invalid occurrence ${excerpt(raw)} of the ${label(e)}: ${problem}`);
    }
    // "file:" (how the old API showed a reference without line) means "file".
    const text = raw.endsWith(":") && raw.length > 1 ? raw.slice(0, -1) : raw;
    const before = out.length;
    parseReferences(text, out);
    const refProblem = problem ?? (out.length > before ? referenceProblem(out[out.length - 1]!) : null);
    if (refProblem !== null) {
      throw new InvalidInputError(
        `Invalid occurrences[${i}] of the ${label(e)}: ${excerpt(raw)} cannot be written: ${refProblem}`,
      );
    }
    if (out.length > before) origin.push(i);
  }
  const bad = unreadableReference(out);
  if (bad >= 0) {
    const i = origin[bad]!; // an origin per reference written
    throw new InvalidInputError(
      `Invalid occurrences[${i}] of the ${label(e)}: ${excerpt(occurrences[i]!)} cannot be written: ` +
        "gettext would read it together with the reference before or after it (as in `a :12` or `a: 12`)",
    );
  }
  return out;
}

/** Flag tokens of a `flags` field, each checked to be one gettext keeps. */
function flagList(e: WriteEntry, flags: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const problem = flagProblem(flags[i]!);
    if (problem !== null) {
      throw new InvalidInputError(
        `Invalid flags[${i}] of the ${label(e)}: ${excerpt(flags[i]!)} cannot be written: ${problem}`,
      );
    }
    for (const t of tokenizeFlags(flags[i]!)) out.push(t);
  }
  return out;
}

/**
 * Most plural forms an entry may have in a request (a write, a check): forms "0" to "99". gettext
 * sets no limit of its own; the languages have at most 6 (Arabic), and the header's `nplurals` is
 * read as invalid above 100 here too. Every check compares each form with its original, so the
 * bound keeps a request's checks within 100 × its size at worst (issue 40.2).
 */
export const MAX_PLURAL_FORMS = 100;

function pluralForms(e: WriteEntry, forms: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(forms)) {
    if (!/^(0|[1-9][0-9]?)$/.test(k)) {
      throw new InvalidInputError(
        /^[1-9][0-9]*$/.test(k)
          ? `Invalid msgstr_plural key ${JSON.stringify(k)} of the ${label(e)}: an entry has at most ` +
            `${MAX_PLURAL_FORMS} plural forms ("0" to "${MAX_PLURAL_FORMS - 1}")`
          : `Invalid msgstr_plural key ${JSON.stringify(k)} of the ${label(e)}: expected "0", "1", …`,
      );
    }
    checkText(e, `msgstr_plural[${k}]`, v);
    out[Number(k)] = v;
  }
  for (let i = 0; i < out.length; i++) out[i] ??= "";
  return out;
}

/** nplurals of the header's Plural-Forms, or 2. */
function pluralCount(cat: PoCatalog): number {
  const header = cat.messages.find(isHeader);
  const match = header?.msgstr.match(/nplurals\s*=\s*(\d+)/);
  const n = match ? Number(match[1]) : 2;
  return n >= 1 && n <= MAX_PLURAL_FORMS ? n : 2;
}

function newCatalog(): PoCatalog {
  return { messages: [newHeader()], charset: "UTF-8" };
}

function newHeader(): PoMessage {
  return newMessage(null, "", NEW_CATALOG_HEADER);
}

/** A message with these keys and translation, and nothing else. */
function newMessage(msgctxt: string | null, msgid: string, msgstr: string): PoMessage {
  return { ...EMPTY_MESSAGE, msgctxt, msgid, msgstr };
}

/**
 * `cat` with the header {@link NEW_CATALOG_HEADER} first when it has none (a file written empty,
 * or without one): a catalogue written without a header has no charset, and could then hold
 * ASCII text only. An obsolete header-like message counts as one (a second would be a duplicate).
 */
function withHeader(cat: PoCatalog): PoCatalog {
  for (const m of cat.messages) {
    if (hasHeaderKey(m) && m.domain === undefined) return cat;
  }
  return { ...cat, messages: [newHeader(), ...cat.messages], charset: "UTF-8" };
}

/** A new message: `base` (or an empty one) with the request's given fields applied. */
function applyEntry(
  base: PoMessage | null,
  e: WriteEntry,
  msgctxt: string | null,
  nplurals: number,
  drafts: DraftContext,
): PoMessage {
  for (
    const f of [
      "msgid",
      "msgstr",
      "comment",
      "tcomment",
      "msgid_plural",
      "previous_msgid",
      "previous_msgctxt",
    ]
  ) {
    checkText(e, f, (e as unknown as Record<string, string | null | undefined>)[f]);
  }
  checkText(e, "msgctxt", msgctxt);
  e.occurrences?.forEach((o, i) => checkWellFormed(e, `occurrences[${i}]`, o));
  e.flags?.forEach((f, i) => checkWellFormed(e, `flags[${i}]`, f));
  const m: Draft<PoMessage> = base ? { ...base } : newMessage(msgctxt, e.msgid, "");
  if (e.msgid_plural !== undefined) {
    if (e.msgid_plural === null) {
      if (m.msgidPlural !== null) m.msgstr = m.msgstrPlural?.[0] ?? "";
      m.msgidPlural = null;
      m.msgstrPlural = null;
    } else {
      if (m.msgidPlural === null) {
        const forms = new Array<string>(nplurals).fill("");
        forms[0] = e.msgstr ?? m.msgstr;
        m.msgstrPlural = forms;
        m.msgstr = "";
      }
      m.msgidPlural = e.msgid_plural;
    }
  }
  if (m.msgidPlural === null) {
    if (e.msgstr !== undefined) m.msgstr = e.msgstr;
    if (e.msgstr_plural !== undefined && Object.keys(e.msgstr_plural).length > 0) {
      throw new InvalidInputError(
        `Invalid ${label(e)}: msgstr_plural is given but the entry has no msgid_plural`,
      );
    }
  } else if (e.msgstr_plural !== undefined) {
    const forms = pluralForms(e, e.msgstr_plural);
    m.msgstrPlural = forms.length > 0 ? forms : new Array<string>(nplurals).fill("");
  }
  if (typeof e.comment === "string") m.extractedComments = commentList(e, "comment", e.comment);
  if (typeof e.tcomment === "string") m.translatorComments = commentList(e, "tcomment", e.tcomment);
  if (e.occurrences !== undefined) m.references = referencesOf(e, e.occurrences);
  if (e.flags !== undefined) m.flags = flagList(e, e.flags);
  if (e.fuzzy !== undefined) {
    // gettext prints `fuzzy` first and the others in its own order, whatever the list's order.
    const others = m.flags.filter((f) => f !== "fuzzy");
    m.flags = e.fuzzy ? ["fuzzy", ...others] : others;
  }
  if (e.previous_msgid !== undefined) {
    m.previousMsgid = e.previous_msgid;
    if (e.previous_msgid === null) m.previousMsgidPlural = null;
  }
  if (e.previous_msgctxt !== undefined) m.previousMsgctxt = e.previous_msgctxt;
  if (m.previousMsgid === null && m.previousMsgctxt !== null) {
    if (e.previous_msgctxt === undefined) m.previousMsgctxt = null;
    else throw new InvalidInputError(`Invalid ${label(e)}: previous_msgctxt needs a previous_msgid`);
  }
  if (e.obsolete !== undefined) m.obsolete = e.obsolete;
  applyDraft(base, e, m, drafts);
  return m;
}

/** What a write's draft marks need besides the entry: the default author and the time. */
interface DraftContext {
  author: string | null;
  date: string;
}

/**
 * Applies `e.draft` to `m` (the message `base` becomes): see {@link WriteEntry.draft}. A
 * `tcomment` given may carry the mark lines of `base` as read (they are the same lines, kept);
 * other mark lines in it are refused: a mark is written through `draft` only.
 */
function applyDraft(base: PoMessage | null, e: WriteEntry, m: Draft<PoMessage>, drafts: DraftContext): void {
  const baseLines = base === null ? [] : base.translatorComments.filter(isDraftLine);
  if (e.draft === undefined && e.draft_author === undefined && baseLines.length === 0) {
    if (typeof e.tcomment === "string" && m.translatorComments.some(isDraftLine)) refuseForgedMark(e);
    return;
  }
  if (e.draft_author !== undefined && e.draft !== true) {
    throw new InvalidInputError(
      `Invalid ${label(e)}: draft_author names the author of a draft: send draft: true`,
    );
  }
  const human: string[] = [];
  if (typeof e.tcomment === "string") {
    const known = new Set(baseLines);
    for (const line of m.translatorComments) {
      if (!isDraftLine(line)) human.push(line);
      else if (!known.has(line)) refuseForgedMark(e);
    }
  } else {
    for (const line of m.translatorComments) if (!isDraftLine(line)) human.push(line);
  }
  const baseMark = base === null ? null : readDraft(base);
  let mark: DraftMark | null = null;
  if (e.draft === true) {
    if (e.fuzzy === false) {
      throw new InvalidInputError(
        `Invalid ${label(e)}: a draft is fuzzy until reviewed: not with fuzzy: false`,
      );
    }
    if (m.obsolete) throw new InvalidInputError(`Invalid ${label(e)}: an obsolete entry cannot be a draft`);
    const forms = m.msgidPlural !== null && m.msgstrPlural !== null ? m.msgstrPlural : [m.msgstr];
    if ((forms[0] ?? "") === "") {
      throw new InvalidInputError(`Invalid ${label(e)}: a draft needs a translation (msgstr is empty)`);
    }
    const author = e.draft_author !== undefined ? checkedAuthor(e.draft_author, label(e)) : drafts.author;
    mark = {
      author,
      date: drafts.date,
      previous: baseMark !== null ? baseMark.previous : previousOf(base),
    };
    if (!m.flags.includes("fuzzy")) m.flags = ["fuzzy", ...m.flags];
  } else if (e.draft === false) {
    if (e.fuzzy !== true && baseMark !== null) m.flags = m.flags.filter((f) => f !== "fuzzy");
  }
  if (mark !== null) {
    m.translatorComments = [...human, ...draftLines(mark)];
  } else if (e.draft === undefined && m.flags.includes("fuzzy") && !m.obsolete) {
    // Unchanged mark: its lines as they were (a fuzzy entry keeps being the draft it was).
    m.translatorComments = [...human, ...baseLines];
  } else {
    m.translatorComments = human;
  }
}

function refuseForgedMark(e: WriteEntry): never {
  throw new InvalidInputError(
    `Invalid tcomment of the ${label(e)}: a line starting "draft:" or "draft-previous:" is the draft ` +
      "mark, written by draft: true (and draft_author) only; leave it out, or send the entry's as read",
  );
}

/**
 * Applies a batch of writes to a catalogue (or to a new one when `cat` is null) and returns the
 * new catalogue; the input is not modified.
 *
 * Matching: an entry updates the first non-obsolete message with the same msgid and the same
 * context, where null, absent and "" in the request all mean "no context" (so a message that has
 * `msgctxt ""` in the file cannot be targeted — as with polib). An update replaces the fields the
 * request gives and keeps the others (`flags: []` clears fuzzy; `comment: null` keeps comments;
 * `fuzzy` sets or clears the fuzzy flag alone). An entry whose message, as msgcat writes it, would
 * not change is `unchanged`, and its message is left as it was (the same object, the same bytes).
 * An unmatched entry is appended after the last non-obsolete message; if an obsolete (`#~`)
 * message has the same msgctxt and msgid, that one is revived instead (moved there and updated,
 * counted in `revived`, without its `fuzzy` flag and `#|` lines unless the request sets them),
 * since msgcat would reject the two as duplicates. When the request repeats a (msgctxt, msgid),
 * the last one wins. A new catalogue, or one without header (an empty file), gets the header
 * {@link NEW_CATALOG_HEADER}; the result is meant to be written with `forcePo` (as `PO_CODEC`
 * does), so that a catalogue left with its header alone keeps it.
 *
 * Conflicts ({@link ConflictError}, nothing applied), checked once every entry is known valid:
 * with `mode: "update"` an entry that matches no non-obsolete message; with `mode: "create"` one
 * that does; an `expected_msgstr`/`expected_msgstr_plural` that is not the matched message's
 * translation (or has no message to compare with). The error lists them (see
 * `_write_conflicts.ts`), with the closest existing msgids for a missing one.
 *
 * The result is canonical ({@link canonicalCatalog}): it equals what reading the written file
 * back gives. Every comment, occurrence and flag of the request is checked to read back as given
 * (`_read_back.ts`), except where gettext normalises it the same way every time: an occurrence's
 * `./` prefix and trailing `:`, duplicate occurrences, the order of flags and the flags gettext
 * folds (`possible-X-format` → `X-format`; `wrap`, `impossible-X-format`, `fuzzy` without
 * translation and `range` on an obsolete entry dropped); an obsolete entry without translation
 * is dropped.
 *
 * The catalogue keeps its charset: UTF-8, a single-byte one, or a multi-byte legacy one (EUC-KR,
 * Shift_JIS, GBK, Big5…); a character it cannot hold is refused when the catalogue is encoded
 * (`encodePo`), naming the entry, the character and the charset.
 *
 * @throws {UnwritableCatalogError} the catalogue's charset is one the writer does not cover (EUC-TW;
 *   msgcat's KOI8-T, CP850, VISCII and GEORGIAN-PS are not read at all), or a header entry would change the charset.
 * @throws {InvalidInputError} msgid "" without context (the header), a field holds NUL or U+0004 or a
 *   lone surrogate, a comment line ends with a backslash (gettext would join the next line to it)
 *   or reads as a Solaris reference, an occurrence holds a space, tab, newline or NUL, ends with a
 *   backslash, has a line number past 2^53 or would be read together with its neighbour, a flag
 *   holds a comma or white space or is not one gettext keeps, `msgstr_plural` has a bad key or no
 *   `msgid_plural`, `previous_msgctxt` without `previous_msgid`, `fuzzy` with `flags`. The message
 *   names the field.
 * @throws {ConflictError} see above; `details` holds `revision` (from `options`), `mode`,
 *   `conflicts` (at most 20) and `conflicts_total`.
 * @example
 * ```ts
 * const { catalog, created } = applyWrite(null, [{ msgid: "Hello", msgstr: "Bonjour" }]);
 * // created === 1; formatPo(catalog) starts with 'msgid ""\nmsgstr ""\n"Content-Type: …'
 * ```
 */
export function applyWrite(
  cat: PoCatalog | null,
  entries: readonly WriteEntry[],
  options: WriteOptions = {},
): WriteResult {
  const base = cat === null ? newCatalog() : withHeader(cat);
  const charset = catalogCharset(base);
  if (!isWritableCharset(charset.canonical)) {
    throw new UnwritableCatalogError(
      `Cannot write to a catalogue in charset "${charset.spelled}": EUC-TW catalogues cannot be ` +
        "updated (convert it with msgconv --to-code=UTF-8 first)",
    );
  }

  // The last request entry of each (msgctxt, msgid) wins, in the order of those last entries.
  const keys = entries.map((e) => key(contextOf(e), e.msgid));
  const requested = new Map<string, WriteEntry>();
  entries.forEach((e, i) => {
    if (e.fuzzy !== undefined && e.flags !== undefined) {
      throw new InvalidInputError(
        `Invalid ${label(e)}: give fuzzy (sets or clears the fuzzy flag, keeping the others) or flags ` +
          "(the whole list), not both",
      );
    }
    requested.delete(keys[i]!);
    requested.set(keys[i]!, e);
  });

  const messages = base.messages.slice();
  const active = new Map<string, number>();
  const obsolete = new Map<string, number>();
  let lastActive = -1;
  // Only messages whose msgid is requested need a key (the Set lookup reuses the strings' hashes).
  const requestedIds = new Set<string>();
  for (const e of requested.values()) requestedIds.add(e.msgid);
  messages.forEach((m, i) => {
    if (!m.obsolete) lastActive = i;
    if (!requestedIds.has(m.msgid)) return;
    const k = key(m.msgctxt, m.msgid);
    if (m.obsolete) {
      if (!obsolete.has(k)) obsolete.set(k, i);
    } else {
      if (!active.has(k)) active.set(k, i);
      lastActive = i;
    }
  });

  const nplurals = pluralCount(base);
  const drafts: DraftContext = {
    author: options.draftAuthor === undefined || options.draftAuthor === null
      ? null
      : checkedAuthor(options.draftAuthor, "write"),
    date: draftDate(options.now ?? new Date()),
  };
  const removed = new Set<number>();
  const appended: PoMessage[] = [];
  const appendedObsolete: PoMessage[] = [];
  const outcomeOf = new Map<string, EntryOutcome>();
  for (const [k, e] of requested) {
    const msgctxt = contextOf(e);
    if (e.msgid === "" && msgctxt === null) {
      throw new InvalidInputError(
        'Invalid entry: msgid "" without msgctxt is the catalogue header, which cannot be written as an entry',
      );
    }
    const at = active.get(k);
    if (at !== undefined) {
      const old = messages[at]!; // active holds indices of messages
      const m = applyEntry(old, e, msgctxt, nplurals, drafts);
      if (!entryChanged(old, m)) {
        // The old message stays (the same object: its layout is reused, its bytes stay).
        outcomeOf.set(k, "unchanged");
        continue;
      }
      messages[at] = m;
      if (m.obsolete) {
        // Now obsolete: an older obsolete twin would make a duplicate.
        const twin = obsolete.get(k);
        if (twin !== undefined) removed.add(twin);
      }
      outcomeOf.set(k, "updated");
      continue;
    }
    const twin = obsolete.get(k);
    let revived: PoMessage | null = null;
    if (twin !== undefined && !removed.has(twin)) {
      removed.add(twin);
      const old = messages[twin]!;
      revived = {
        ...old,
        obsolete: false,
        flags: old.flags.filter((f) => f !== "fuzzy"),
        previousMsgid: null,
        previousMsgidPlural: null,
        previousMsgctxt: null,
      };
    }
    const m = applyEntry(revived, e, msgctxt, nplurals, drafts);
    (m.obsolete ? appendedObsolete : appended).push(m);
    outcomeOf.set(k, revived === null ? "created" : "revived");
  }

  // Checked once every entry is known valid (a malformed request is a 422 before it is a 409),
  // against the catalogue as it was.
  const conflict: ConflictError | null = writeConflicts({
    entries,
    keys,
    mode: options.mode ?? "upsert",
    revision: options.revision ?? null,
    current: (k): CurrentEntry | null => {
      const at = active.get(k);
      if (at !== undefined) return { message: base.messages[at]!, obsolete: false };
      const twin = obsolete.get(k);
      return twin === undefined ? null : { message: base.messages[twin]!, obsolete: true };
    },
    catalog: base,
  });
  if (conflict !== null) throw conflict;

  // (Loops, not push(...list): a spread of ~125k messages or more overflows the stack.)
  const out: PoMessage[] = [];
  if (lastActive < 0) { for (const m of appended) out.push(m); }
  messages.forEach((m, i) => {
    if (!removed.has(i)) out.push(m);
    if (i === lastActive) { for (const a of appended) out.push(a); }
  });
  for (const m of appendedObsolete) out.push(m);

  // What the file will read back as (obsolete entries with an empty msgstr gone, flags and
  // references as printed…), so a cache of this document agrees with the file.
  // Written as `msgcat --force-po` does (PO_CODEC): a catalogue left with nothing but its header
  // keeps it.
  const next: Draft<PoCatalog> = cat === null || base !== cat
    ? canonicalCatalog({ ...base, messages: out }, { forcePo: true })
    : canonicalCatalogFrom(base, { ...base, messages: out }, { forcePo: true });
  // Every request entry updated its message or was added as a key the list did not have (or
  // revived its obsolete twin), so a list without duplicates still has none (one domain only:
  // keys are matched across domains).
  if (knownUnique(base.messages) && next.messages.every((m) => m.domain === undefined)) {
    markUnique(next.messages);
  }
  const after = catalogCharset(next);
  const unicode = (c: string) => c === "UTF-8" || c === "ASCII";
  if (after.canonical !== charset.canonical && !(unicode(after.canonical) && unicode(charset.canonical))) {
    throw new UnwritableCatalogError(
      `Cannot write the header: it would change the charset from "${charset.spelled ?? "ASCII"}" to ` +
        `"${after.spelled}" (convert the catalogue with msgconv --to-code instead)`,
    );
  }
  next.charset = after.spelled;
  const counts = { created: 0, updated: 0, unchanged: 0, revived: 0 };
  for (const outcome of outcomeOf.values()) counts[outcome as keyof typeof counts]++;
  return {
    catalog: next,
    ...counts,
    duplicatesDropped: entries.length - requested.size,
    outcomes: entries.map((e, i) => requested.get(keys[i]!) === e ? outcomeOf.get(keys[i]!)! : "superseded"),
  };
}

/** The request's context: null, absent and "" all mean "no context". */
function contextOf(e: WriteEntry): string | null {
  return e.msgctxt === undefined || e.msgctxt === "" ? null : e.msgctxt;
}
