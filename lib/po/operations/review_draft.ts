/**
 * The review lane of drafts (see `draft_mark.ts`): a catalogue's drafts beside their previous
 * translation and their checks, and the review of one: approve (the mark and the fuzzy flag go,
 * the translation stays, optionally edited) or reject (the translation the draft replaced comes
 * back, fuzzy if it was; without one the entry is untranslated again). A review is a write like
 * any other: through the store's lock, with the same compare-and-swap (`ifRevision`, the
 * `expected_msgstr` of the draft read) and the same checks on what it writes. No HTTP here.
 *
 * @module
 */
import { ConflictError, InvalidInputError, NotFoundError } from "../../errors.ts";
import type { CatalogueCallOptions, CatalogueStore } from "../../store/mod.ts";
import { checkMessage, type CheckProblem } from "../checks/mod.ts";
import { messageLine, messageLines } from "../read/parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import type { WriteEntry } from "./apply_write.ts";
import { type DraftMark, readDraft } from "./draft_mark.ts";
import { editCatalogue } from "./edit_catalogue.ts";

/** One draft of a catalogue, as the review lane shows it. */
export interface DraftEntry {
  msgctxt: string | null;
  msgid: string;
  /** The draft's translation ("" for a plural entry: see `msgstr_plural`). */
  msgstr: string;
  msgid_plural: string | null;
  /** The draft's plural forms by index ({} for a non-plural entry). */
  msgstr_plural: Record<string, string>;
  /** The translation the draft replaced (null: none, or a plural entry's: see `previous_msgstr_plural`). */
  previous_msgstr: string | null;
  previous_msgstr_plural: Record<string, string> | null;
  /** Whether the replaced translation was fuzzy (a reject restores it fuzzy). */
  previous_fuzzy: boolean;
  /** Who wrote the draft, or null. */
  author: string | null;
  /** When, `YYYY-MM-DDTHH:MM:SSZ`. */
  date: string | null;
  /** The line of the entry's first keyword in the file as read, or null. */
  line: number | null;
  /** The default checks run on the draft (as on a translated entry). */
  checks: CheckProblem[];
}

/** A draft found in a catalogue: its message and what its mark says. */
export interface FoundDraft {
  readonly message: PoMessage;
  readonly mark: DraftMark;
  /** The line of its first keyword in the file as read, or null when unknown. */
  readonly line: number | null;
}

/**
 * The drafts of `catalog`, in file order, by `author` when given (null names the unnamed drafts).
 *
 * @example
 * ```ts
 * catalogueDrafts(parsePo(bytes)).length; // how many drafts wait for review
 * ```
 */
export function catalogueDrafts(catalog: PoCatalog, author?: string | null): FoundDraft[] {
  const out: FoundDraft[] = [];
  const lines = messageLines(catalog);
  catalog.messages.forEach((message, i) => {
    if (isHeader(message) || message.obsolete || message.translatorComments.length === 0) return;
    const mark = readDraft(message);
    if (mark === null || (author !== undefined && mark.author !== author)) return;
    out.push({ message, mark, line: lines?.[i] ?? messageLine(message) ?? null });
  });
  return out;
}

function forms(list: readonly string[] | null): Record<string, string> {
  const out: Record<string, string> = {};
  list?.forEach((s, i) => out[String(i)] = s);
  return out;
}

/** A found draft as the review lane shows it, with its checks run (`path` names the file in them). */
export function draftEntry(found: FoundDraft, catalog: PoCatalog, path: string | null): DraftEntry {
  const { message: m, mark } = found;
  const plural = m.msgidPlural !== null;
  return {
    msgctxt: m.msgctxt,
    msgid: m.msgid,
    msgstr: plural ? "" : m.msgstr,
    msgid_plural: m.msgidPlural,
    msgstr_plural: plural ? forms(m.msgstrPlural) : {},
    previous_msgstr: mark.previous?.msgstr ?? null,
    previous_msgstr_plural: mark.previous?.msgstrPlural ? forms(mark.previous.msgstrPlural) : null,
    previous_fuzzy: mark.previous?.fuzzy ?? false,
    author: mark.author,
    date: mark.date,
    line: found.line,
    checks: checkMessage(m, { catalog, path }),
  };
}

/** Carries an approve that changes nothing out of the store's update, which then writes nothing. */
class NothingToReview {
  constructor(readonly message: PoMessage, readonly revision: string | null) {}
}

/** Whether `m` holds the translation the review expects (true when it names none). */
function sameTranslation(m: PoMessage, review: DraftReview): boolean {
  if (
    review.expectedMsgstr !== undefined && (m.msgidPlural !== null ? "" : m.msgstr) !== review.expectedMsgstr
  ) {
    return false;
  }
  const forms = review.expectedMsgstrPlural;
  if (forms === undefined) return true;
  const have = m.msgstrPlural ?? [];
  return Object.keys(forms).length === have.length && have.every((f, i) => forms[String(i)] === f);
}

/** One review. */
export interface DraftReview {
  msgctxt: string | null;
  msgid: string;
  action: "approve" | "reject";
  /** approve only: the translation to keep instead of the draft's (an edit). */
  msgstr?: string;
  /** approve only: the plural forms to keep instead of the draft's. */
  msgstrPlural?: Record<string, string>;
  /** The draft's msgstr as read: else {@link ConflictError}. */
  expectedMsgstr?: string;
  /** The draft's plural forms as read: else {@link ConflictError}. */
  expectedMsgstrPlural?: Record<string, string>;
  /** The file's revision as read: else {@link ConflictError}. */
  ifRevision?: string;
}

/** What a review did. */
export interface ReviewResult {
  /** The entry as the file holds it after the review. */
  message: PoMessage;
  /** The file's revision after the review. */
  revision: string | null;
  /** False when nothing changed (an approve of an entry approved already). */
  written: boolean;
  /** Problems the review introduces (the default checks, as write_po's "warn"). */
  problems: CheckProblem[];
}

/**
 * Approves or rejects the draft (msgctxt, msgid) of the catalogue at `path`, in one locked write.
 *
 * @throws {NotFoundError} the file, or an active entry with that msgctxt and msgid, does not exist.
 * Approving, without an edit, an entry that is no draft (approved already, or never one) changes
 * nothing and is no error: approval is idempotent (two reviewers approving one draft both
 * succeed; `expectedMsgstr` still guards against approving what another reviewer rejected). A
 * reject, or an approve with an edit, needs a draft.
 *
 * @throws {ConflictError} the revision is not `ifRevision`, the entry's msgstr is not
 *   `expectedMsgstr`, or the entry is not a draft (any more) and the review is not such an approve:
 *   nothing written.
 * @throws {InvalidInputError} an edit with a reject, or what a write refuses.
 * @example
 * ```ts
 * await reviewDraft(store, "/srv/po/fr/app.po", { msgctxt: null, msgid: "Save", action: "approve" });
 * ```
 */
export async function reviewDraft(
  store: CatalogueStore<PoCatalog>,
  path: string,
  review: DraftReview,
  options: CatalogueCallOptions = {},
): Promise<ReviewResult> {
  if (review.action === "reject" && (review.msgstr !== undefined || review.msgstrPlural !== undefined)) {
    throw new InvalidInputError(
      "Invalid review: msgstr edits an approved draft; a reject restores the previous translation",
    );
  }
  const msgctxt = review.msgctxt === "" ? null : review.msgctxt;
  const result = await editCatalogue(store, path, {
    mode: "update",
    ...(review.ifRevision !== undefined ? { ifRevision: review.ifRevision } : {}),
    checks: "warn",
    entries: [],
    // The entry written depends on the draft as the file holds it under the lock: see below.
    entriesFor: (doc: PoCatalog | null, revision: string | null) => {
      const message = doc?.messages.find((m) =>
        !m.obsolete && m.msgctxt === msgctxt && m.msgid === review.msgid
      );
      if (message === undefined) {
        throw new NotFoundError(
          `No entry has msgid ${JSON.stringify(review.msgid.slice(0, 80))} ${
            msgctxt === null ? "without context" : `with msgctxt ${JSON.stringify(msgctxt)}`
          } in ${path}`,
        );
      }
      const mark = readDraft(message);
      const entry: WriteEntry = { msgid: review.msgid, msgctxt };
      if (review.expectedMsgstr !== undefined) entry.expected_msgstr = review.expectedMsgstr;
      if (review.expectedMsgstrPlural !== undefined) {
        entry.expected_msgstr_plural = review.expectedMsgstrPlural;
      }
      if (
        mark === null && review.action === "approve" && review.msgstr === undefined &&
        review.msgstrPlural === undefined
      ) {
        // No draft waits for review here (approved already, or never one): approving changes nothing
        // (not even the file's layout), once the entry is what the reviewer read.
        if (sameTranslation(message, review)) throw new NothingToReview(message, revision);
        return [entry]; // the write refuses it: expected_msgstr differs
      }
      if (mark === null) {
        throw new ConflictError(
          `Nothing was written: the entry with msgid ${
            JSON.stringify(review.msgid.slice(0, 80))
          } is not a draft (any more): someone reviewed it, or it was never marked. Read it again.`,
        );
      }
      entry.draft = false;
      if (review.action === "approve") {
        entry.fuzzy = false;
        entry.previous_msgid = null;
        if (review.msgstr !== undefined) entry.msgstr = review.msgstr;
        if (review.msgstrPlural !== undefined) entry.msgstr_plural = review.msgstrPlural;
        return [entry];
      }
      const previous = mark.previous;
      const plural = message.msgidPlural !== null;
      if (plural) {
        const n = message.msgstrPlural?.length ?? 2;
        const restored = previous?.msgstrPlural ?? new Array<string>(n).fill("");
        entry.msgstr_plural = forms(restored);
      } else {
        entry.msgstr = previous?.msgstr ?? "";
      }
      entry.fuzzy = previous?.fuzzy ?? false;
      if (!entry.fuzzy) entry.previous_msgid = null;
      return [entry];
    },
  }, options).catch((error) => {
    if (error instanceof NothingToReview) return error;
    throw error;
  });
  if (result instanceof NothingToReview) {
    return { message: result.message, revision: result.revision, written: false, problems: [] };
  }
  const message = result.catalog.messages.find((m) =>
    !m.obsolete && m.msgctxt === msgctxt && m.msgid === review.msgid
  )!; // updated in place: the entry is still there
  return { message, revision: result.revision, written: result.written, problems: result.problems };
}
