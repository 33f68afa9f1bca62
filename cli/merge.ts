/**
 * `main.ts merge [OPTIONS] DEF.po REF.pot`: msgmerge 0.21's command line for the common cases,
 * with the same output bytes (`lib/po/operations/merge.ts`). The result goes to stdout, to `-o FILE`, or
 * back into DEF.po with `--update` (written under the lock the servers take, atomically, and only
 * when more than POT-Creation-Date changed, as msgmerge does; no backup file is made).
 *
 * Loads no zod, Hono, MCP SDK or gettext-parser.
 *
 * @module
 */
import { DomainError } from "../lib/errors.ts";
import {
  canonicalCatalog,
  collectWrapTargets,
  detectGeneration,
  encodePo,
  type GettextGeneration,
  mergeCatalogs,
  type MergeStats,
  parseGeneration,
  parsePo,
  placeholderCharsetWarning,
  type PoCatalog,
} from "../lib/po/mod.ts";
import { unknownOption } from "../lib/closest_name.ts";
import type { LockedFileIo } from "./_locked_files.ts";
import { join, relative } from "node:path";
import { SILENT_PROGRESS } from "./progress.ts";

/** `main.ts merge --help`. */
export const MERGE_USAGE = `Usage: main.ts merge [OPTIONS] DEF.po REF.pot
       main.ts merge --update [OPTIONS] PO_DIR POT_DIR

Merges the translations of DEF.po into the template REF.pot as GNU msgmerge 0.21 does (the same
bytes, laid out as gettext 0.21's or 0.23.1's msgcat: see --gettext): the template's entries in its order, translations and translator comments kept, new entries
untranslated or given a similar msgid's translation marked fuzzy, vanished ones made obsolete (#~).

Options:
  -o, --output-file=FILE  write the result to FILE ("-": stdout; the default without --update)
  -U, --update            write the result back into DEF.po (no backup is made), only when more
                          than POT-Creation-Date changed
  -N, --no-fuzzy-matching do not look for similar msgids
      --previous          keep the msgid a fuzzy entry was translated from (#| msgid)
      --fuzzy-time-limit=S  stop looking for similar msgids after S seconds (default 120); the
                          entries left are added untranslated and counted on stderr
  -q, --quiet             no summary on stderr
      --gettext=V         lay the result out as gettext V (0.21 or 0.23); default: gettext = "V"
                          in .po-tools.toml (here or up to the repository's top), else the
                          generation DEF.po is laid out as (0.21 when it does not tell)

With --update and two directories, every DIR/X.po under PO_DIR is merged with POT_DIR/X.pot (the
layout of sphinx-intl and the python-docs translations), with a progress bar on a terminal; a
catalogue without its template, or one that cannot be merged, is reported and the others still are.
`;

/** What the command may ask of the host: the files of `_locked_files.ts` (reads, locked writes, walks). */
export type MergeCliIo = LockedFileIo;

interface Parsed {
  def: string;
  ref: string;
  output: string | null;
  update: boolean;
  fuzzy: boolean;
  previous: boolean;
  quiet: boolean;
  timeLimitMs: number;
  gettext: GettextGeneration | undefined;
}

/** The options `merge` takes (for "did you mean" on a misspelt one). */
const MERGE_OPTIONS = [
  "--output-file",
  "--update",
  "--no-fuzzy-matching",
  "--previous",
  "--quiet",
  "--silent",
  "--fuzzy-time-limit",
  "--gettext",
];

function parseArgs(args: readonly string[]): Parsed | string {
  const files: string[] = [];
  const p: Parsed = {
    def: "",
    ref: "",
    output: null,
    update: false,
    fuzzy: true,
    previous: false,
    quiet: false,
    timeLimitMs: 120_000,
    gettext: undefined,
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!options || !a.startsWith("-") || a === "-") files.push(a);
    else if (a === "--") options = false;
    else if (a === "-o" || a === "--output-file") {
      if (i + 1 >= args.length) return `${a} needs a file name`;
      p.output = args[++i]!;
    } else if (a.startsWith("--output-file=")) p.output = a.slice(14);
    else if (a.startsWith("-o") && a.length > 2) p.output = a.slice(2);
    else if (a === "-U" || a === "--update") p.update = true;
    else if (a === "-N" || a === "--no-fuzzy-matching") p.fuzzy = false;
    else if (a === "--previous") p.previous = true;
    else if (a === "-q" || a === "--quiet" || a === "--silent") p.quiet = true;
    else if (a.startsWith("--fuzzy-time-limit=")) {
      const s = Number(a.slice(19));
      if (!Number.isFinite(s) || s < 0) return `--fuzzy-time-limit needs a number of seconds: ${a}`;
      p.timeLimitMs = s * 1000;
    } else if (a.startsWith("--gettext=")) {
      const g = parseGeneration(a.slice(10));
      if (g === null) return `--gettext takes 0.21 or 0.23: ${a}`;
      p.gettext = g;
    } else return unknownOption(a, MERGE_OPTIONS);
  }
  if (files.length !== 2) return `exactly 2 input files required, got ${files.length}`;
  if (p.update && p.output !== null) return "--update and --output-file are mutually exclusive";
  [p.def, p.ref] = files as [string, string]; // two, checked above
  return p;
}

/** The bytes without their POT-Creation-Date header line (msgmerge --update ignores it). */
function withoutCreationDate(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).replace(/^"POT-Creation-Date: [^\n]*\n/m, "");
}

/**
 * Runs the command; returns the exit status (0, 1 for a file that cannot be read or merged,
 * 2 for a usage error).
 *
 * @example
 * ```ts
 * Deno.exit(await runMerge(["-U", "fr.po", "app.pot"], mergeCliIo()));
 * ```
 */
export async function runMerge(args: readonly string[], io: MergeCliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(new TextEncoder().encode(MERGE_USAGE));
    return 0;
  }
  const p = parseArgs(args);
  if (typeof p === "string") {
    io.err(`merge: ${p} (main.ts merge --help)`);
    return 2;
  }
  if (p.gettext === undefined && io.gettextChoice) {
    const chosen = await io.gettextChoice();
    if (chosen !== null && "error" in chosen) {
      io.err(`merge: ${chosen.error}`);
      return 2;
    }
    if (chosen !== null) p.gettext = chosen.generation;
  }
  if (p.update && io.pathKind && (await io.pathKind(p.def)) === "directory") return await mergeTree(p, io);
  return await mergeOne(p, io);
}

/** `--update PO_DIR POT_DIR`: each X.po under PO_DIR merged with POT_DIR/X.pot, in place. */
async function mergeTree(p: Parsed, io: MergeCliIo): Promise<number> {
  const { pathKind, readDir } = io;
  if (!pathKind || !readDir) return 2;
  if ((await pathKind(p.ref)) !== "directory") {
    io.err(
      `merge: ${p.def} is a directory: the templates must be one too, not ${p.ref} (main.ts merge --help)`,
    );
    return 2;
  }
  const { files, failures } = await collectWrapTargets([p.def], { pathKind, readDir });
  for (const { path, error } of failures) io.err(`merge: ${path}: ${(error as Error).message}`);
  const progress = p.quiet ? SILENT_PROGRESS : io.progress?.(files.length) ?? SILENT_PROGRESS;
  const err = io.err;
  const quietIo: MergeCliIo = { ...io, err: (line) => (progress.clear(), err(line)) };
  let failed = failures.length;
  let written = 0;
  try {
    for (const def of files) {
      const ref = join(p.ref, relative(p.def, def)).replace(/\.po$/, ".pot");
      // Written in place: the real file must still be a .po inside the tree walked.
      const one = await mergeOne({ ...p, def, ref, quiet: true }, quietIo, p.def);
      if (one !== 0) failed++;
      else written++;
      progress.tick();
    }
  } finally {
    progress.done();
  }
  if (!p.quiet) err(`merge: ${written} of ${files.length} catalogues merged with their templates`);
  return failed > 0 ? 1 : 0;
}

/**
 * DEF.po as msgmerge reads it: `charset=CHARSET` outside a .pot is read as ASCII, with msgmerge's
 * warning on stderr (msgcat refuses such a file; msgmerge and msgfmt warn and go on).
 */
function readDef(bytes: Uint8Array, path: string, io: MergeCliIo): PoCatalog {
  const def = parsePo(bytes, { fileName: path, placeholderCharset: true });
  if (def.placeholderCharset) {
    for (const line of placeholderCharsetWarning(path).split("\n")) {
      io.err(line);
    }
  }
  return def;
}

/** One DEF.po with one REF.pot; `tree`: the directory DEF.po was found in (its write stays inside). */
async function mergeOne(p: Parsed, io: MergeCliIo, tree: string | null = null): Promise<number> {
  const options = {
    fuzzyMatching: p.fuzzy,
    previous: p.previous,
    fuzzyLimits: { maxMs: p.timeLimitMs, maxComparisons: Infinity, maxWork: Infinity },
  };
  try {
    const ref = parsePo(await io.readFile(p.ref), p.ref);
    let stats: MergeStats | undefined;
    const merge = (def: PoCatalog) => {
      const r = mergeCatalogs(def, ref, options);
      stats = r.stats;
      return r.catalog;
    };
    let where: string;
    if (p.update) {
      const { written } = await io.updateFile(p.def, (bytes) => {
        if (bytes === null) throw new DomainError(`${p.def}: No such file`);
        const def = readDef(bytes, p.def, io);
        const generation = p.gettext ?? detectGeneration([bytes]).generation ?? "0.21";
        const out = encodePo(merge(def), { generation });
        // (A `charset=CHARSET` catalogue is compared as msgmerge would write it.)
        const before = encodePo(
          canonicalCatalog(def.placeholderCharset ? { ...def, placeholderCharset: "merged" } : def),
          { generation },
        );
        return withoutCreationDate(out) === withoutCreationDate(before) ? null : out;
      }, tree === null ? undefined : { within: tree, extensions: [".po"] });
      where = written ? p.def : `${p.def} (unchanged)`;
    } else {
      const bytes = await io.readFile(p.def);
      const generation = p.gettext ?? detectGeneration([bytes]).generation ?? "0.21";
      const out = encodePo(merge(readDef(bytes, p.def, io)), { generation });
      if (p.output === null || p.output === "-") {
        io.stdout(out);
        where = "stdout";
      } else {
        await io.updateFile(p.output, () => out);
        where = p.output;
      }
    }
    const s = stats!;
    if (!p.quiet) {
      io.err(
        `merge: ${where}: merged ${s.merged}, fuzzied ${s.fuzzied}, missing ${s.missing}, obsolete ${s.obsolete}.`,
      );
    }
    if (s.fuzzySkipped > 0) {
      io.err(
        `merge: fuzzy matching stopped after ${
          p.timeLimitMs / 1000
        } s: ${s.fuzzySkipped} entries were added ` +
          "untranslated without looking for a similar msgid (--fuzzy-time-limit)",
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof DomainError || error instanceof Deno.errors.NotFound) {
      io.err(`merge: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
}
