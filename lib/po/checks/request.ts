/**
 * One check request, as the `check_po` tool and `POST /po/check` take it: an entry on its own (or
 * in the context of a catalogue's header), one file, or a tree, with totals. Nothing is written.
 *
 * @module
 */
import { InvalidInputError } from "../../errors.ts";
import { MAX_PLURAL_FORMS as MAX_FORMS } from "../operations/apply_write.ts";
import { EMPTY_MESSAGE, type PoMessage } from "../types.ts";
import { checkMessage, type CheckOptions } from "./mod.ts";
import { checkTree, type CheckTreeIo, type CheckTreeResult } from "./tree.ts";
import { type NotRun, notRunForCatalogues, notRunForEntry } from "./not_run.ts";

/** An entry to check on its own (the JSON API's fields). */
export interface CheckEntry {
  msgid: string;
  msgstr?: string;
  msgctxt?: string | null;
  msgid_plural?: string | null;
  msgstr_plural?: Record<string, string>;
  flags?: string[];
  /** `file:line` references; an entry from a `.rst` file gets the reST checks. */
  occurrences?: string[];
}

/** What to check, and how much at most. */
export interface CheckRequest extends CheckOptions {
  entry?: CheckEntry;
  /** A catalogue: checked whole, or, with `entry`, the header the entry is checked against. */
  filePath?: string;
  /** A directory inside the roots, walked for `*.po` files. */
  directory?: string;
  maxProblems: number;
  maxFiles: number;
  /** Time the run may take, in ms (files are not started after it). */
  maxMs: number;
}

/** What a check request answers: the run's result, what did not run, and what the file gave. */
export interface CheckRequestResult extends CheckTreeResult {
  /** The selected checks (and those off by default) that did not run, and why. */
  notRun: NotRun[];
  /**
   * An entry checked with file_path: the fields the request left out that were taken from that
   * entry in the file (they decide which checks run), or null when the file has no such entry.
   */
  fromFile?: { occurrences?: string[]; flags?: string[] } | null;
  /** What the answer should make plain (fields taken from the file, an entry not in it). */
  notes: string[];
}

/** The entry as a message. */
export function messageOfEntry(e: CheckEntry): PoMessage {
  let plural: string[] | null = null;
  if (e.msgid_plural !== undefined && e.msgid_plural !== null) {
    const forms = e.msgstr_plural ?? {};
    const count = Object.keys(forms).length;
    if (count > MAX_FORMS) throw new InvalidInputError(`An entry has at most ${MAX_FORMS} plural forms`);
    plural = [];
    for (let i = 0; i < count; i++) {
      const form = forms[String(i)];
      if (form === undefined) {
        throw new InvalidInputError(
          `msgstr_plural must number its forms 0 to ${count - 1}: "${i}" is missing`,
        );
      }
      plural.push(form);
    }
  }
  return {
    ...EMPTY_MESSAGE,
    msgctxt: e.msgctxt === "" ? null : e.msgctxt ?? null,
    msgid: e.msgid,
    msgidPlural: e.msgid_plural ?? null,
    msgstr: plural === null ? e.msgstr ?? "" : "",
    msgstrPlural: plural,
    references: (e.occurrences ?? []).map((o) => {
      const colon = o.lastIndexOf(":");
      const line = colon > 0 ? Number(o.slice(colon + 1)) : NaN;
      return Number.isInteger(line) ? { file: o.slice(0, colon), line } : { file: o, line: null };
    }),
    flags: e.flags ?? [],
  };
}

/**
 * Runs one check request.
 *
 * @throws {InvalidInputError} none or more than one of entry / filePath / directory (an entry may
 *   come with a filePath), an unknown check, a malformed entry.
 * @throws the io's errors for the file or directory named (not found, outside the roots).
 */
export async function runCheckRequest(
  request: CheckRequest,
  io: CheckTreeIo,
  signal?: AbortSignal,
): Promise<CheckRequestResult> {
  const { entry, filePath, directory } = request;
  const targets =
    [entry !== undefined || filePath !== undefined, directory !== undefined].filter(Boolean).length;
  if (targets !== 1) {
    throw new InvalidInputError(
      "Give one of: entry (optionally with file_path for its header), file_path, directory",
    );
  }
  const options: CheckOptions = {
    checks: request.checks,
    includeFuzzy: request.includeFuzzy,
    terminology: request.terminology,
  };
  if (entry !== undefined) {
    const catalog = filePath === undefined ? undefined : await io.read(filePath);
    let message = messageOfEntry(entry);
    const notes: string[] = [];
    let fromFile: CheckRequestResult["fromFile"];
    if (catalog !== undefined) {
      // The entry as the file has it: its references and flags decide which checks run (reST on
      // entries from .rst files, placeholders by the format flags), so a request that leaves them
      // out is checked as the file would be.
      const inFile = catalog.messages.find((m) =>
        !m.obsolete && m.msgid === message.msgid && m.msgctxt === message.msgctxt
      );
      if (inFile === undefined) {
        fromFile = null;
        notes.push(
          "file_path has no entry with this msgctxt and msgid: the entry was checked with what the " +
            "request gives (its occurrences and flags) against the file's header",
        );
      } else {
        fromFile = {};
        if (entry.occurrences === undefined && inFile.references.length > 0) {
          message = { ...message, references: inFile.references };
          fromFile.occurrences = inFile.references.map((r) =>
            r.line === null ? r.file : `${r.file}:${r.line}`
          );
        }
        if (entry.flags === undefined && inFile.flags.length > 0) {
          message = { ...message, flags: inFile.flags };
          fromFile.flags = [...inFile.flags];
        }
        const taken = Object.keys(fromFile);
        if (taken.length > 0) {
          notes.push(
            `The request left out ${taken.join(" and ")}: taken from the entry in file_path (from_file)`,
          );
        }
      }
    }
    const problems = checkMessage(message, { ...options, catalog, path: filePath ?? null });
    const kept = problems.slice(0, request.maxProblems);
    const errors = problems.filter((p) => p.severity === "error").length;
    const byCheck: Record<string, number> = {};
    for (const p of problems) byCheck[p.check] = (byCheck[p.check] ?? 0) + 1;
    return {
      problems: kept,
      totals: {
        problems: problems.length,
        errors,
        warnings: problems.length - errors,
        byCheck,
        files: 0,
        filesWithProblems: 0,
      },
      truncated: kept.length < problems.length,
      complete: true,
      stoppedBecause: null,
      notRun: notRunForEntry(message, request.checks, catalog !== undefined),
      ...(fromFile !== undefined ? { fromFile } : {}),
      notes,
    };
  }
  const result = await checkTree([filePath ?? directory!], io, options, {
    maxFiles: request.maxFiles,
    maxProblems: request.maxProblems,
    deadline: Date.now() + request.maxMs,
    signal,
  });
  // One file: its entries say which checks had nothing to look at (read again: the store caches it).
  let messages: readonly PoMessage[] | null = null;
  if (filePath !== undefined) {
    try {
      messages = (await io.read(filePath)).messages;
    } catch {
      messages = null; // a file the run could not read: its problem says so
    }
  }
  const notes = messages === null && directory !== undefined
    ? [
      "Per-entry conditions (reST checks on entries from .rst files, placeholder checks by the format " +
      "flags) are not summarised for a directory: not_run lists only the checks off by default",
    ]
    : [];
  return {
    ...result,
    notRun: notRunForCatalogues(messages, request.checks, request.includeFuzzy ?? false),
    notes,
  };
}
