/**
 * Quality checks of translations: what would break a program or a docs build (placeholders, reST
 * markup, plural forms, newlines) and what is likely a slip (lost URLs and tags, white space), run
 * per entry on msgid vs each msgstr form, plus the header's own checks. Nothing here writes.
 *
 * Every check has a stable name, a severity and a message written for a translator; a problem is
 * reported as `{path, line, msgctxt, msgid, check, severity, message}`. Which checks run can be
 * chosen; the defaults leave out capitalisation and end punctuation (noise for CJK), and run the
 * reST checks only on entries that come from `.rst` files (Sphinx catalogues) unless asked.
 *
 * Entries checked: not obsolete, not the header, translated (msgstr, or msgstr[0] of a plural
 * entry, non-empty), and not fuzzy unless `includeFuzzy` (msgfmt leaves fuzzy entries out too).
 * Every check is linear in its entry: hand-written scans, no backtracking regular expression over
 * the text.
 *
 * @example
 * ```ts
 * import { checkCatalog } from "./lib/po/checks/mod.ts";
 * const problems = checkCatalog(parsePo(bytes, "fr.po"), { path: "fr.po" });
 * // [{ path: "fr.po", line: 12, msgid: "%(n)d files", check: "python-format", severity: "error", … }]
 * ```
 *
 * @module
 */
import { InvalidInputError } from "../../errors.ts";
import { messageLine, messageLines } from "../read/parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import { interpretFlags } from "../read/_flags.ts";
import { FORMAT_CHECKS } from "./_format.ts";
import { HEADER_ENTRY_CHECKS, headerFindings, headerOf, type PluralInfo, pluralInfo } from "./_header.ts";
import { REST_CHECKS } from "./_rest.ts";
import { STYLE_CHECKS } from "./_style.ts";
import { TAG_CHECKS } from "./_tags.ts";
import { TERM_CHECKS } from "./_terms.ts";
import type {
  CheckProblem,
  EntryCheck,
  EntryContext,
  Severity,
  TermRules,
  TranslationPair,
} from "./_types.ts";
import { URL_CHECKS } from "./_urls.ts";
import { WHITESPACE_CHECKS } from "./_whitespace.ts";

export type { CheckProblem, Severity, TermRules } from "./_types.ts";

/** A check as the tools list it. */
export interface CheckInfo {
  name: string;
  severity: Severity;
  /** Runs when the request names no checks. */
  defaultOn: boolean;
  /** Checks the whole catalogue (its header) rather than each entry. */
  catalogue: boolean;
  description: string;
}

// concat, not spreads, and @__PURE__ calls: a bundle that does not use the checks leaves them out.
const ENTRY_CHECKS: readonly EntryCheck[] = /* @__PURE__ */ FORMAT_CHECKS.concat(
  REST_CHECKS,
  URL_CHECKS,
  TAG_CHECKS,
  WHITESPACE_CHECKS,
  HEADER_ENTRY_CHECKS,
  STYLE_CHECKS,
  TERM_CHECKS,
);

/**
 * Longest entry the checks look at (msgid, msgid_plural and every translation together, in
 * characters): checks are linear in their entry, at up to ~0.5 µs per character of dense reST markup,
 * so one entry's checks hold the event loop ~0.1 s at most. A longer entry gets one `size` warning.
 */
export const MAX_CHECKED_ENTRY_CHARS = 1 << 18;

const CATALOGUE_CHECKS: readonly CheckInfo[] = [
  {
    name: "plural-forms",
    severity: "error",
    defaultOn: true,
    catalogue: true,
    description:
      "The header's Plural-Forms is valid (msgfmt -c evaluates it for n = 0..1000) and present when " +
      "the catalogue has plural entries.",
  },
  {
    name: "plural-forms-language",
    severity: "warning",
    defaultOn: true,
    catalogue: true,
    description: "The header's Plural-Forms is the rule msginit gives its Language (gettext's table of " +
      "languages, then CLDR): e.g. zh_CN has nplurals=1; plural=0;.",
  },
  {
    name: "duplicates",
    severity: "error",
    defaultOn: true,
    catalogue: true,
    description: "No two entries have the same msgctxt and msgid (msgfmt refuses the file).",
  },
  {
    name: "header",
    severity: "error",
    defaultOn: true,
    catalogue: true,
    description:
      'The catalogue has a header entry (msgid "" with a non-empty msgstr, not obsolete): msgfmt -c ' +
      "refuses a file without one.",
  },
  {
    name: "charset",
    severity: "warning",
    defaultOn: true,
    catalogue: true,
    description: "The header declares the file's charset (Content-Type: text/plain; charset=UTF-8); " +
      "msgfmt -c only warns, so this is a warning.",
  },
  {
    name: "domains",
    severity: "warning",
    defaultOn: true,
    catalogue: true,
    description: 'The file has no `domain "NAME"` directive: msgfmt -o FILE refuses one (a single output ' +
      "file cannot hold several domains; without -o msgfmt writes NAME.mo for each), and compile refuses it.",
  },
];

/** What a file or tree check reports for a file it cannot check at all (always on). */
const FILE_CHECKS: readonly CheckInfo[] = [
  {
    name: "syntax",
    severity: "error",
    defaultOn: true,
    catalogue: true,
    description:
      "The file can be read as gettext reads it (a file checks of a file or tree report; always on).",
  },
  {
    name: "file",
    severity: "error",
    defaultOn: true,
    catalogue: true,
    description: "A file met in a tree can be opened (missing, unreadable or outside the roots; always on).",
  },
];

/** What a check reports for an entry too long to check at all (always on). */
const SIZE_CHECK: CheckInfo = {
  name: "size",
  severity: "warning",
  defaultOn: true,
  catalogue: true,
  description: `An entry longer than ${MAX_CHECKED_ENTRY_CHARS} characters (msgid, msgid_plural and every ` +
    "translation together) is not checked: this warning says so instead (always on).",
};

/** Every check, in the order problems of one entry are reported. */
export const CHECKS: readonly CheckInfo[] = /* @__PURE__ */ FILE_CHECKS.concat(
  CATALOGUE_CHECKS,
  /* @__PURE__ */ ENTRY_CHECKS.map((c) => ({
    name: c.name,
    severity: c.severity,
    defaultOn: c.defaultOn,
    catalogue: false,
    description: c.description,
  })),
  [SIZE_CHECK],
);

/** The names of every check, for schemas. */
export const CHECK_NAMES: readonly string[] = /* @__PURE__ */ CHECKS.map((c) => c.name);

/** The checks that run when none are named. */
export const DEFAULT_CHECKS: readonly string[] = /* @__PURE__ */ CHECKS.filter((c) => c.defaultOn).map((c) =>
  c.name
);

const SEVERITY = /* @__PURE__ */ new Map(/* @__PURE__ */ CHECKS.map((c) => [c.name, c.severity]));

/** The characters of an entry's texts: msgid, msgid_plural, msgstr and every form. */
function entryChars(m: PoMessage): number {
  let n = m.msgid.length + (m.msgidPlural?.length ?? 0) + m.msgstr.length;
  for (const form of m.msgstrPlural ?? []) n += form.length;
  return n;
}

/** Options of one check run. */
export interface CheckOptions {
  /** The checks to run (names of {@link CHECKS}); default {@link DEFAULT_CHECKS}. Named reST checks
   * run on every entry, not only on those from `.rst` files. */
  checks?: readonly string[];
  /** Check fuzzy entries too (default false, as msgfmt). */
  includeFuzzy?: boolean;
  /** The catalogue's path for the problems (default null). */
  path?: string | null;
  /**
   * The terminology the `glossary`, `forbidden` and `term-target` checks consult (the root's,
   * loaded by the caller with `lib/terms`); absent or null: those find nothing but lost `:term:` roles.
   */
  terminology?: TermRules | null;
}

/** The resolved selection: a run's checks, and whether reST checks were asked for by name. */
interface Selection {
  enabled: Set<string>;
  restForced: boolean;
  entryChecks: EntryCheck[];
  terminology: TermRules | null;
}

function select(options: CheckOptions): Selection {
  const names = options.checks ?? DEFAULT_CHECKS;
  for (const name of names) {
    if (!SEVERITY.has(name)) {
      throw new InvalidInputError(
        `Unknown check ${JSON.stringify(name)}: the checks are ${CHECK_NAMES.join(", ")}`,
      );
    }
  }
  const enabled = new Set(names);
  return {
    enabled,
    restForced: options.checks !== undefined,
    entryChecks: ENTRY_CHECKS.filter((c) => enabled.has(c.name)),
    terminology: options.terminology ?? null,
  };
}

/**
 * True for an entry the checks look at (see the module doc). A plural entry whose msgstr[0] is
 * empty is untranslated, whatever its other forms say: msgfmt leaves it out (`msgstr[0] == '\0'`).
 */
export function isCheckable(m: PoMessage, includeFuzzy = false): boolean {
  if (m.obsolete || isHeader(m)) return false;
  if (!includeFuzzy && m.flags.some((f) => f === "fuzzy")) return false;
  if (!includeFuzzy && interpretFlags(m.flags).fuzzy) return false;
  return m.msgstrPlural === null ? m.msgstr !== "" : (m.msgstrPlural[0] ?? "") !== "";
}

function pairsOf(m: PoMessage): TranslationPair[] {
  if (m.msgstrPlural === null) {
    return [{
      original: m.msgid,
      translation: m.msgstr,
      originalName: "msgid",
      translationName: "msgstr",
      form: null,
    }];
  }
  const pairs: TranslationPair[] = [];
  m.msgstrPlural.forEach((translation, form) => {
    if (translation === "") return;
    const plural = form > 0 && m.msgidPlural !== null;
    pairs.push({
      original: plural ? m.msgidPlural! : m.msgid,
      translation,
      originalName: plural ? "msgid_plural" : "msgid",
      translationName: `msgstr[${form}]`,
      form,
    });
  });
  return pairs;
}

function fromRest(m: PoMessage): boolean {
  return m.references.some((r) => r.file.endsWith(".rst"));
}

/** The checks of one entry, given what the catalogue's header says. */
function checkOne(
  m: PoMessage,
  selection: Selection,
  plural: PluralInfo,
  path: string | null,
  line: number | null,
  out: CheckProblem[],
): void {
  const chars = entryChars(m);
  if (chars > MAX_CHECKED_ENTRY_CHARS) {
    out.push({
      path,
      line,
      msgctxt: m.msgctxt,
      // The whole msgid: an answer names an entry by its identity (the answer's byte limit bounds it).
      msgid: m.msgid,
      check: "size",
      severity: "warning",
      message: `this entry is ${chars} characters long: the checks look at entries of at most ` +
        `${MAX_CHECKED_ENTRY_CHARS} characters, so none ran on it (msgfmt -c still does)`,
    });
    return;
  }
  const flags = interpretFlags(m.flags);
  const nplurals = plural.forms !== null && typeof plural.forms !== "string" ? plural.forms.nplurals : null;
  const pluralCount = m.msgstrPlural?.length ?? 0;
  const context: EntryContext = {
    message: m,
    flags,
    pairs: pairsOf(m),
    nplurals,
    rest: selection.restForced || fromRest(m),
    terminology: selection.terminology,
    strictForm: (form) => {
      if (form === null || m.msgidPlural === null || pluralCount <= 1) return true;
      if (plural.histogram === null || !plural.often[form]) return false;
      return !(flags.range !== null && plural.histogram(flags.range.min, flags.range.max, form) <= 1);
    },
  };
  for (const check of selection.entryChecks) {
    if (check.rest && !context.rest) continue;
    for (const message of check.run(context)) {
      out.push({
        path,
        line,
        msgctxt: m.msgctxt,
        msgid: m.msgid,
        check: check.name,
        severity: check.severity,
        message,
      });
    }
  }
}

/**
 * Checks every entry of a catalogue (or only the entries `only` lists), and its header. Problems
 * come in file order, the header's first.
 *
 * @throws {InvalidInputError} a check name that does not exist.
 */
export function checkCatalog(
  catalog: PoCatalog,
  options: CheckOptions = {},
  only?: readonly PoMessage[],
): CheckProblem[] {
  const out: CheckProblem[] = [];
  for (const _ of checkSteps(catalog, options, only, out));
  return out;
}

/** Entries checked between two turns of the event loop in {@link checkCatalogInTurns}. */
const SLICE = 256;

/** Characters of entries checked after which {@link checkCatalogInTurns} gives a turn anyway. */
const SLICE_CHARS = 1 << 18;

/**
 * {@link checkCatalog} for a server: it gives the event loop a turn every {@link SLICE} entries, so
 * a large catalogue does not hold up other requests, and stops once `signal` is aborted.
 *
 * @throws `signal.reason` once it is aborted; {@link InvalidInputError} an unknown check.
 */
export async function checkCatalogInTurns(
  catalog: PoCatalog,
  options: CheckOptions,
  signal?: AbortSignal,
): Promise<CheckProblem[]> {
  const out: CheckProblem[] = [];
  for (const _ of checkSteps(catalog, options, undefined, out)) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    signal?.throwIfAborted();
  }
  return out;
}

function* checkSteps(
  catalog: PoCatalog,
  options: CheckOptions,
  only: readonly PoMessage[] | undefined,
  out: CheckProblem[],
): Generator<void, void, void> {
  const selection = select(options);
  const path = options.path ?? null;
  const header = headerOf(catalog);
  const plural = pluralInfo(header);
  const lines = messageLines(catalog);
  const lineOf = (m: PoMessage, i: number) =>
    messageLine(m) ?? (lines !== undefined && catalog.messages[i] === m ? lines[i] ?? null : null);
  let firstPlural: string | null = null;
  let firstPluralEntry: { m: PoMessage; line: number | null } | null = null;
  for (let i = 0; i < catalog.messages.length; i++) {
    const m = catalog.messages[i]!;
    // msgfmt asks for Plural-Forms only when it keeps a plural entry: translated, not fuzzy.
    if (m.msgidPlural !== null && isCheckable(m, options.includeFuzzy)) {
      const line = lineOf(m, i);
      // Named by its msgid, not its line: a write compares problems before and after by message,
      // and a catalogue just written has no line numbers.
      firstPlural = `the first: msgid ${
        JSON.stringify(m.msgid.length > 40 ? `${m.msgid.slice(0, 40)}…` : m.msgid)
      }`;
      firstPluralEntry = { m, line };
      break;
    }
  }
  const headerLine = header === null ? null : lineOf(header, catalog.messages.indexOf(header));
  for (const f of headerFindings(catalog, plural, firstPlural, (name) => selection.enabled.has(name))) {
    out.push({
      path,
      line: headerLine,
      msgctxt: null,
      msgid: "",
      check: f.check,
      severity: SEVERITY.get(f.check)!,
      message: f.message,
    });
    // msgfmt names the first plural entry too: so do the checks, for the translator who looks there.
    if (f.check === "plural-forms" && firstPluralEntry !== null && plural.forms === null) {
      out.push({
        path,
        line: firstPluralEntry.line,
        msgctxt: firstPluralEntry.m.msgctxt,
        msgid: firstPluralEntry.m.msgid,
        check: "plural-forms",
        severity: SEVERITY.get(f.check)!,
        message:
          "this entry has plural forms, but the header has no Plural-Forms to say how many: add it to the header",
      });
    }
  }
  if (catalog.bom === true && only === undefined) {
    out.push({
      path,
      line: 1,
      msgctxt: null,
      msgid: "",
      check: "syntax",
      severity: "error",
      message:
        "the file starts with a byte order mark, which msgfmt and msgcat refuse: save it as UTF-8 without BOM",
    });
  }
  if (only === undefined && selection.enabled.has("domains")) {
    const i = catalog.messages.findIndex((m) => m.domain !== undefined);
    if (i >= 0) {
      const m = catalog.messages[i]!;
      out.push({
        path,
        line: lineOf(m, i),
        msgctxt: m.msgctxt,
        msgid: m.msgid,
        check: "domains",
        severity: "warning",
        message: `this entry follows a \`domain "${m.domain}"\` directive: msgfmt -o FILE refuses the file ` +
          "(one output file, several domains; without -o it writes one .mo per domain), and compile refuses it",
      });
    }
  }
  if (only === undefined && selection.enabled.has("duplicates")) {
    const seen = new Map<string, number | null>();
    // Obsolete entries too: msgfmt and msgcat refuse a live and an obsolete entry with one msgid.
    catalog.messages.forEach((m, i) => {
      const key = JSON.stringify([m.domain ?? null, m.msgctxt, m.msgid]);
      if (!seen.has(key)) {
        seen.set(key, lineOf(m, i));
        return;
      }
      const first = seen.get(key);
      out.push({
        path,
        line: lineOf(m, i),
        msgctxt: m.msgctxt,
        msgid: m.msgid,
        check: "duplicates",
        severity: "error",
        message:
          `this ${m.obsolete ? "obsolete " : ""}entry repeats the msgctxt and msgid of the entry ${
            first === null ? "before" : `at line ${first}`
          }: ` +
          `${
            m.obsolete ? "delete the obsolete one or merge the two" : "merge the two"
          } (msgfmt refuses the file)`,
      });
    });
  }
  if (only === undefined) {
    const messages = catalog.messages;
    let chars = 0;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      if (isCheckable(m, options.includeFuzzy)) {
        checkOne(m, selection, plural, path, lineOf(m, i), out);
        chars += Math.min(entryChars(m), MAX_CHECKED_ENTRY_CHARS);
      }
      // A turn every SLICE entries, or sooner after long ones.
      if (i % SLICE === SLICE - 1 || chars > SLICE_CHARS) {
        chars = 0;
        yield;
      }
    }
  } else {
    for (const m of only) {
      if (isCheckable(m, options.includeFuzzy)) {
        checkOne(m, selection, plural, path, messageLine(m) ?? null, out);
      }
    }
  }
}

/**
 * Checks one entry on its own, or as part of `catalog` (whose header gives nplurals and the plural
 * distribution). The entry is checked even when it is fuzzy; an untranslated one has no problems.
 *
 * @throws {InvalidInputError} a check name that does not exist.
 */
export function checkMessage(
  message: PoMessage,
  options: CheckOptions & { catalog?: PoCatalog } = {},
): CheckProblem[] {
  const selection = select(options);
  const plural = pluralInfo(options.catalog ? headerOf(options.catalog) : null);
  const out: CheckProblem[] = [];
  if (isCheckable(message, true)) {
    checkOne(message, selection, plural, options.path ?? null, messageLine(message) ?? null, out);
  }
  return out;
}

/**
 * The problems `after` has that `before` did not: for each entry, a problem counts as introduced
 * unless the entry with the same (msgctxt, msgid) had the same check and message before. What a
 * write answers with (`checks: "warn"`) and what `checks: "strict"` refuses.
 */
export function introducedProblems(
  before: PoCatalog | null,
  after: PoCatalog,
  options: CheckOptions = {},
): CheckProblem[] {
  if (before === null) return checkCatalog(after, options);
  let olds: CheckProblem[];
  let news: CheckProblem[];
  if (headerOf(before) !== headerOf(after)) {
    // A new header can change every plural entry's verdict: compare everything.
    olds = checkCatalog(before, options);
    news = checkCatalog(after, options);
  } else {
    // Messages are immutable: a write makes new objects for the entries it changes, and only
    // those (and their former versions) need checking.
    const changed = changedMessages(before.messages, after.messages);
    // Their former versions, found by (msgctxt, msgid) without a key string per message: a JSON
    // key for each of a large catalogue's messages was a noticeable part of every one-entry write.
    const contexts = new Map<string, Set<string | null>>();
    for (const m of changed) {
      let set = contexts.get(m.msgid);
      if (set === undefined) contexts.set(m.msgid, set = new Set());
      set.add(m.msgctxt);
    }
    const former = before.messages.filter((m) => contexts.get(m.msgid)?.has(m.msgctxt) === true);
    olds = checkCatalog(before, options, former);
    news = checkCatalog(after, options, changed);
  }
  const old = new Set(olds.map(problemKey));
  return news.filter((p) => !old.has(problemKey(p)));
}

/**
 * The messages of `after` that are not in `before` (by identity). Position by position when no
 * entry was added or removed (the usual write, which a Set of every message of a large catalogue
 * would slow down); by a Set of `before`'s messages otherwise.
 */
function changedMessages(before: readonly PoMessage[], after: readonly PoMessage[]): PoMessage[] {
  if (before.length === after.length) {
    const changed: PoMessage[] = [];
    let moved = false;
    for (let i = 0; i < after.length; i++) {
      if (after[i] === before[i]) continue;
      changed.push(after[i]!);
      if (changed.length > 64) {
        moved = true; // many differ: maybe reordered; the Set tells what is really new
        break;
      }
    }
    // A message that only moved to another position differs there too, but it is not new: each of
    // these few is looked for in the whole list (a scan per message, no Set of every message).
    if (!moved) return changed.filter((m) => !before.includes(m));
  }
  const kept = new Set(before);
  return after.filter((m) => !kept.has(m));
}

function problemKey(p: CheckProblem): string {
  return JSON.stringify([p.msgctxt, p.msgid, p.check, p.message]);
}

/**
 * A write refused because it would introduce problems (`checks: "strict"`): the file is untouched.
 * `problems` lists every problem the write would introduce (errors and warnings).
 */
export class ChecksFailedError extends InvalidInputError {
  readonly problems: readonly CheckProblem[];
  constructor(path: string, problems: readonly CheckProblem[]) {
    const errors = problems.filter((p) => p.severity === "error");
    const first = errors[0] ?? problems[0]!;
    super(
      `Nothing was written to ${path}: the write would introduce ${errors.length} error${
        errors.length === 1 ? "" : "s"
      } ` +
        `(first: ${first.check} on msgid ${JSON.stringify(first.msgid.slice(0, 60))}: ${first.message}); ` +
        `fix the translations, or write with checks: "warn" to write anyway`,
    );
    this.problems = problems;
  }
}

/** What a write does with the checks: nothing, list what it introduces, or refuse it. */
export type WriteChecks = "off" | "warn" | "strict";

/**
 * The checks of a write from `before` to `after` (of the file at `path`): the problems it
 * introduces, or, with `strict`, a refusal when one of them is an error (warnings are listed, not
 * refused: they are likely, not certain, mistakes).
 *
 * @throws {ChecksFailedError} `strict` and the write introduces an error.
 */
export function checkWrite(
  before: PoCatalog | null,
  after: PoCatalog,
  path: string,
  mode: WriteChecks,
  terminology: TermRules | null = null,
): CheckProblem[] {
  if (mode === "off") return [];
  const problems = introducedProblems(before, after, { path, terminology });
  if (mode === "strict" && problems.some((p) => p.severity === "error")) {
    throw new ChecksFailedError(path, problems);
  }
  return problems;
}

/** Totals of a list of problems: by check and by severity. */
export interface CheckTotals {
  problems: number;
  errors: number;
  warnings: number;
  byCheck: Record<string, number>;
}

/** Adds `problems` to `totals` (made empty when absent) and returns it. */
export function addTotals(problems: readonly CheckProblem[], totals?: CheckTotals): CheckTotals {
  const t = totals ?? { problems: 0, errors: 0, warnings: 0, byCheck: {} };
  for (const p of problems) {
    t.problems++;
    if (p.severity === "error") t.errors++;
    else t.warnings++;
    t.byCheck[p.check] = (t.byCheck[p.check] ?? 0) + 1;
  }
  return t;
}
