/**
 * The draft mark: how a translation waiting for review (an agent's draft) is told apart from an
 * entry gone fuzzy because its source changed, in the PO file itself, so that it travels through
 * git and pull requests.
 *
 * A draft is a fuzzy entry whose translator comments end with
 *
 * ```
 * # draft: "AUTHOR" 2026-11-28T19:40:00Z
 * # draft-previous: fuzzy "the translation it replaced"
 * ```
 *
 * - `draft:` names who wrote it (a JSON string, or `null` when nobody was named) and when (UTC, to
 *   the second).
 * - `draft-previous:` (only when the entry had a translation before the draft) holds that
 *   translation as a JSON string (a JSON array of strings for a plural entry), preceded by `fuzzy `
 *   when it was fuzzy then: a reject restores exactly that.
 *
 * Why these lines: gettext has no flag of its own for a draft, and drops flags it does not know
 * (msgcat keeps only its own), while translator comments are kept verbatim by msgcat and msgmerge
 * (0.21 and 0.23.1, also when msgmerge fuzzy-matches the entry to a changed msgid): the tests run
 * both as oracles. The texts are JSON strings so that no author or translation, however hostile,
 * can make a second comment line, end a line with a backslash (gettext would join the next line)
 * or read as a `File: x, line: n` reference: every control character, U+0080–U+009F, U+2028 and
 * U+2029 are written as `\uXXXX`. The entry is fuzzy so that msgfmt leaves an unreviewed draft out
 * of the compiled catalogue; an entry that is no longer fuzzy (a translator cleared the flag in an
 * editor) is no longer a draft, whatever comment lines it kept.
 *
 * @module
 */
import { InvalidInputError } from "../../errors.ts";
import type { PoMessage } from "../types.ts";

/** The start of the line naming the draft's author and date. */
export const DRAFT_LINE = "draft: ";
/** The start of the line holding the translation the draft replaced. */
export const DRAFT_PREVIOUS_LINE = "draft-previous: ";
/** Longest author name, in UTF-16 code units. */
export const MAX_DRAFT_AUTHOR_CHARS = 200;

/** The translation a draft replaced. */
export interface DraftPrevious {
  /** The msgstr (of a non-plural entry), else null. */
  readonly msgstr: string | null;
  /** The plural forms (of a plural entry), else null. */
  readonly msgstrPlural: readonly string[] | null;
  /** Whether the entry was fuzzy then. */
  readonly fuzzy: boolean;
}

/** What the mark of a draft says. */
export interface DraftMark {
  /** Who wrote the draft, or null. */
  readonly author: string | null;
  /** When, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly date: string;
  /** The translation it replaced, or null when the entry had none. */
  readonly previous: DraftPrevious | null;
}

const DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

const MARK_BYTES = [0x64, 0x72, 0x61, 0x66, 0x74]; // "draft", before the ":"

/**
 * Whether a file's bytes may hold a draft mark: they contain `draft:` (every charset a catalogue may
 * have writes ASCII as ASCII). False means no entry of the file is a draft; true is checked by
 * parsing. Linear: a native search for each `:`.
 */
export function mayHoldDrafts(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0x3a, 5); i >= 0; i = bytes.indexOf(0x3a, i + 1)) {
    if (
      bytes[i - 5] === MARK_BYTES[0] && bytes[i - 4] === MARK_BYTES[1] && bytes[i - 3] === MARK_BYTES[2] &&
      bytes[i - 2] === MARK_BYTES[3] && bytes[i - 1] === MARK_BYTES[4]
    ) return true;
  }
  return false;
}

/** True for a translator comment line that belongs to the mark (either kind). */
export function isDraftLine(line: string): boolean {
  return line.startsWith(DRAFT_LINE) || line.startsWith(DRAFT_PREVIOUS_LINE);
}

/**
 * The draft mark of `m`, or null when `m` is not a draft (obsolete, not fuzzy, without a
 * translation, or without a readable `draft:` line). The last readable `draft:` and
 * `draft-previous:` lines count.
 */
export function readDraft(m: PoMessage): DraftMark | null {
  if (m.obsolete || m.translatorComments.length === 0 || !m.flags.includes("fuzzy")) return null;
  if ((m.msgstrPlural !== null ? m.msgstrPlural[0] ?? "" : m.msgstr) === "") return null;
  let head: { author: string | null; date: string } | null = null;
  let previous: DraftPrevious | null = null;
  for (const line of m.translatorComments) {
    if (line.startsWith(DRAFT_LINE)) head = parseHead(line.slice(DRAFT_LINE.length)) ?? head;
    else if (line.startsWith(DRAFT_PREVIOUS_LINE)) {
      previous = parsePrevious(line.slice(DRAFT_PREVIOUS_LINE.length)) ?? previous;
    }
  }
  return head === null ? null : { ...head, previous };
}

function parseHead(rest: string): { author: string | null; date: string } | null {
  const space = rest.lastIndexOf(" ");
  if (space < 0) return null;
  const date = rest.slice(space + 1);
  if (!DATE.test(date)) return null;
  const author = parseJson(rest.slice(0, space));
  if (author !== null && typeof author !== "string") return null;
  return { author: author as string | null, date };
}

function parsePrevious(rest: string): DraftPrevious | null {
  const fuzzy = rest.startsWith("fuzzy ");
  const value = parseJson(fuzzy ? rest.slice(6) : rest);
  if (typeof value === "string") return { msgstr: value, msgstrPlural: null, fuzzy };
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) {
    return { msgstr: null, msgstrPlural: value as string[], fuzzy };
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `s` as a JSON string that fits on one comment line whatever it holds: JSON escapes `"`, `\`
 * and the C0 controls; C1 controls and the Unicode line and paragraph separators are escaped too,
 * so that no editor or terminal shows the line broken.
 */
export function oneLineJson(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The comment lines of `mark`, in the order they are written. */
export function draftLines(mark: DraftMark): string[] {
  const lines = [`${DRAFT_LINE}${mark.author === null ? "null" : oneLineJson(mark.author)} ${mark.date}`];
  const p = mark.previous;
  if (p !== null) {
    const value = p.msgstrPlural !== null
      ? `[${p.msgstrPlural.map(oneLineJson).join(",")}]`
      : oneLineJson(p.msgstr ?? "");
    lines.push(`${DRAFT_PREVIOUS_LINE}${p.fuzzy ? "fuzzy " : ""}${value}`);
  }
  return lines;
}

/** The translation of `m` as a draft would record it, or null when it has none (every form empty). */
export function previousOf(m: PoMessage | null): DraftPrevious | null {
  if (m === null) return null;
  const fuzzy = m.flags.includes("fuzzy");
  if (m.msgidPlural !== null && m.msgstrPlural !== null) {
    if (m.msgstrPlural.every((f) => f === "")) return null;
    return { msgstr: null, msgstrPlural: m.msgstrPlural.slice(), fuzzy };
  }
  return m.msgstr === "" ? null : { msgstr: m.msgstr, msgstrPlural: null, fuzzy };
}

/** `date` as a mark writes it: UTC, to the second. */
export function draftDate(date: Date): string {
  return date.toISOString().slice(0, 19) + "Z";
}

/**
 * An author name checked for the mark: at most {@link MAX_DRAFT_AUTHOR_CHARS} code units, no lone
 * surrogate (UTF-8 cannot encode it). Everything else is escaped when written.
 *
 * @throws {InvalidInputError} it is longer, or holds a lone surrogate.
 */
export function checkedAuthor(author: string, label: string): string {
  if (author.length > MAX_DRAFT_AUTHOR_CHARS) {
    throw new InvalidInputError(
      `Invalid draft_author of the ${label}: it has ${author.length} characters, at most ` +
        `${MAX_DRAFT_AUTHOR_CHARS} are kept in a draft mark`,
    );
  }
  if (!author.isWellFormed()) {
    throw new InvalidInputError(
      `Invalid draft_author of the ${label}: it contains a lone UTF-16 surrogate, which UTF-8 cannot encode`,
    );
  }
  return author;
}
