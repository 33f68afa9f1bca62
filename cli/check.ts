/**
 * `main.ts check [OPTIONS] PATH…`: the quality checks of `lib/po/checks` as a linter. Each problem
 * is one line on stdout, `FILE:LINE: CHECK: MESSAGE` (LINE is the entry's; 0 when unknown), a
 * summary goes to stderr, and the exit status is 1 when a problem was found, 2 when a PATH could
 * not be checked, 0 otherwise. With `--format=github` each problem is a GitHub Actions annotation
 * instead. File names and catalogue text are printed escaped (`lib/terminal_text.ts`): nothing in
 * them can start a line of its own or reach the terminal as a control character. A directory is walked for `*.po` files as `wrap` walks it. Writes
 * nothing; needs only read access (`deno task po-check`, `bin/check`, the pre-commit hook).
 *
 * Loads no zod, Hono or MCP SDK.
 *
 * @module
 */
import {
  CHECK_NAMES,
  type CheckProblem,
  CHECKS,
  checkTree,
  type CheckTreeIo,
  collectWrapTargets,
  DEFAULT_CHECKS,
  filesUnder,
  introducedByEntry,
  parsePo,
} from "../lib/po/mod.ts";
import { gitStagedFiles, gitVersions } from "./tree_host.ts";
import { pathKind as wrapPathKind, readDirEntries } from "./tree_host.ts";
import { readRegularFileBytes } from "../lib/regular_read.ts";
import { unknownOption } from "../lib/closest_name.ts";
import { writeAll } from "./log.ts";
import { type Progress, SILENT_PROGRESS, terminalProgress } from "./progress.ts";
import { githubAnnotation, terminalText } from "../lib/terminal_text.ts";
import {
  GLOSSARY_FILE,
  type LoadedTerminology,
  MAX_TERMINOLOGY_FILE_BYTES,
  TerminologyCache,
  TERMS_FILE,
} from "../lib/terms/mod.ts";
import { dirname, join, resolve } from "node:path";

/** `main.ts check --help`. */
export const CHECK_USAGE = `Usage: main.ts check [OPTIONS] PATH…

Checks PO files (a directory: every *.po file under it) for translations that break a program or a
docs build: placeholders (by the entries' flags, as msgfmt -c), reST/Sphinx markup (entries from .rst
files, as sphinx-lint), URLs, tags, white space, plural forms and the header. Prints one line per
problem, FILE:LINE: CHECK: MESSAGE; exits 1 when there are problems, 2 when a PATH cannot be read.

Options:
  --checks=A,B       run only these checks (default: ${DEFAULT_CHECKS.join(",")})
  --severity=error   report errors only (default: errors and warnings)
  --include-fuzzy    check fuzzy entries too (msgfmt leaves them out, and so do the checks)
  --quiet, -q        no summary on stderr
  --format=github    print each problem as a GitHub Actions annotation (::error file=…,line=…::…)
  --terms=DIR        take the terminology (glossary.po, .po-terms.csv) from DIR (default: the nearest
                     directory up from each PATH that has one, not past the repository's top)
  --no-terms         no terminology: the glossary and forbidden checks find nothing
  --changed          report only the problems the staged change introduces: each catalogue as
                     staged (git's index) against its committed version (HEAD), problems matched
                     by entry (msgctxt, msgid) and check; without PATH, the staged *.po files;
                     a directory PATH: the staged *.po files under it (needs --allow-run=git)
  --list             list the checks and exit

Checks: ${CHECK_NAMES.join(", ")}
`;

/** Largest file read (as the service's default store). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Most files one run checks (as wrap). */
const MAX_FILES = 200_000;

/** What the command may ask of the host. */
export interface CheckCliIo extends CheckTreeIo {
  out(line: string): void;
  err(line: string): void;
  /** A progress bar over the catalogues under `paths` (drawn on a terminal only), when given. */
  progress?(paths: readonly string[]): Promise<Progress>;
  /**
   * The terminology for PATH: DIR's when given (`--terms=DIR`), else the nearest directory's up
   * from PATH holding glossary.po or .po-terms.csv, not past one holding `.git`; null: none.
   */
  terminology?(path: string, dir: string | null): Promise<LoadedTerminology | null>;
  /** The versions `--changed` compares (git), when available. */
  changes?(): Promise<ChangedIo>;
}

/** What `--changed` asks of git (`tree_host.ts`); tests may fake it. */
export interface ChangedIo {
  /** The staged `*.po` files, relative to the working directory. */
  stagedFiles(): Promise<string[]>;
  /** The committed version of a file (HEAD), or null when it has none (a new file, a first commit). */
  committed(path: string): Promise<Uint8Array | null>;
  /** The staged version of a file (the index), or null when it is not in the index. */
  staged(path: string): Promise<Uint8Array | null>;
}

/** The options `check` takes (for "did you mean" on a misspelt one). */
const CHECK_OPTIONS = [
  "--help",
  "--list",
  "--checks",
  "--severity",
  "--include-fuzzy",
  "--quiet",
  "--terms",
  "--no-terms",
  "--changed",
];

/**
 * Runs the command; returns the exit status.
 *
 * @example
 * ```ts
 * Deno.exit(await runCheck(["locales/"], checkCliIo()));
 * ```
 */
export async function runCheck(args: readonly string[], io: CheckCliIo): Promise<number> {
  const paths: string[] = [];
  let checks: string[] | undefined;
  let errorsOnly = false;
  let includeFuzzy = false;
  let quiet = false;
  let github = false;
  let termsDir: string | null = null;
  let noTerms = false;
  let changed = false;
  let options = true;
  for (const arg of args) {
    if (options && arg === "--") options = false;
    else if (options && (arg === "--help" || arg === "-h")) {
      io.out(CHECK_USAGE.trimEnd());
      return 0;
    } else if (options && arg === "--list") {
      for (const c of CHECKS) {
        io.out(`${c.name} (${c.severity}${c.defaultOn ? "" : ", off by default"}): ${c.description}`);
      }
      return 0;
    } else if (options && arg.startsWith("--checks=")) {
      checks = arg.slice(9).split(",").filter((c) => c !== "");
      const unknown = checks.filter((c) => !CHECK_NAMES.includes(c));
      if (unknown.length > 0) {
        io.err(
          `check: unknown check ${terminalText(JSON.stringify(unknown[0]))}; the checks are ${
            CHECK_NAMES.join(", ")
          }`,
        );
        return 2;
      }
    } else if (options && arg === "--severity=error") errorsOnly = true;
    else if (options && arg === "--severity=warning") errorsOnly = false;
    else if (options && arg === "--include-fuzzy") includeFuzzy = true;
    else if (options && (arg === "--quiet" || arg === "-q")) quiet = true;
    else if (options && arg === "--format=github") github = true;
    else if (options && arg === "--format=text") github = false;
    else if (options && arg.startsWith("--terms=") && arg.length > 8) termsDir = arg.slice(8);
    else if (options && arg === "--no-terms") noTerms = true;
    else if (options && arg === "--changed") changed = true;
    else if (options && arg.startsWith("-") && arg !== "-") {
      io.err(`check: ${terminalText(unknownOption(arg, CHECK_OPTIONS))} (main.ts check --help)`);
      return 2;
    } else paths.push(arg);
  }
  let changes: ChangedIo | null = null;
  if (changed) {
    if (!io.changes) {
      io.err("check: --changed is not available here");
      return 2;
    }
    try {
      changes = await io.changes();
      const staged = await changes.stagedFiles();
      const files: string[] = [];
      for (const path of paths) {
        if ((await io.pathKind(path)) === "directory") files.push(...await filesUnder(staged, [path]));
        else files.push(path);
      }
      if (paths.length === 0) files.push(...staged);
      paths.splice(0, paths.length, ...files);
    } catch (e) {
      io.err(terminalText(`check: --changed: ${e instanceof Error ? e.message : String(e)}`));
      return 2;
    }
    if (paths.length === 0) {
      if (!quiet) io.err("check: no staged catalogue");
      return 0;
    }
  }
  if (paths.length === 0) {
    io.err("check: no PATH given (main.ts check --help)");
    return 2;
  }
  const progress = quiet || !io.progress ? SILENT_PROGRESS : await io.progress(paths);
  // The bar's line is cleared before anything else is written to the terminal. Every line holds
  // names and text from the files: escaped, so none can end the line or reach the terminal raw.
  const out = (line: string) => (progress.clear(), io.out(line));
  const err = (line: string) => (progress.clear(), io.err(terminalText(line)));
  const settings = { checks, includeFuzzy, errorsOnly, quiet, github, termsDir, noTerms, changes };
  try {
    return await checkPaths(paths, io, settings, progress, out, err);
  } finally {
    progress.done();
  }
}

async function checkPaths(
  paths: readonly string[],
  io: CheckCliIo,
  { checks, includeFuzzy, errorsOnly, quiet, github, termsDir, noTerms, changes }: {
    checks: string[] | undefined;
    includeFuzzy: boolean;
    errorsOnly: boolean;
    quiet: boolean;
    github: boolean;
    termsDir: string | null;
    noTerms: boolean;
    changes: ChangedIo | null;
  },
  progress: Progress,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let status = 0;
  let reported = 0;
  let files = 0;
  let before = 0;
  const byCheck: Record<string, number> = {};
  const warned = new Set<string>();
  for (const path of paths) {
    let found: CheckProblem[];
    try {
      const terms = noTerms || !io.terminology ? null : await io.terminology(path, termsDir);
      for (const w of terms?.terminology.warnings ?? []) {
        if (!warned.has(w)) err(`check: terminology: ${w}`);
        warned.add(w);
      }
      const terminology = terms?.rules ?? null;
      // --changed: the staged version of the file is checked (the file itself when it is not in
      // the index), and what its committed version had is taken away.
      const staged = changes === null ? null : await changes.staged(path);
      const read = staged === null ? io : { ...io, read: () => Promise.resolve(readVersion(staged, path)) };
      const r = await checkTree([path], read, { checks, includeFuzzy, terminology }, {
        maxFiles: MAX_FILES - files,
        maxProblems: Number.MAX_SAFE_INTEGER,
        onFile: () => progress.tick(),
      });
      files += r.totals.files;
      found = r.problems;
      if (!r.complete) {
        err(`check: ${path}: stopped: ${r.stoppedBecause}`);
        status = 2;
      }
      if (changes !== null) {
        const committed = await changes.committed(path);
        const was = committed === null ? null : (await checkTree(
          [path],
          {
            ...io,
            pathKind: () => Promise.resolve("file"),
            read: () => Promise.resolve(readVersion(committed, path)),
          },
          { checks, includeFuzzy },
          { maxFiles: 1, maxProblems: Number.MAX_SAFE_INTEGER },
        )).problems;
        const introduced = introducedByEntry(was, found);
        before += found.length - introduced.length;
        found = introduced;
      }
    } catch (error) {
      err(`check: ${path}: ${(error as Error).message}`);
      status = 2;
      continue;
    }
    for (const p of found) {
      if (errorsOnly && p.severity !== "error") continue;
      out(
        github
          ? githubAnnotation(p.severity === "error" ? "error" : "warning", {
            file: p.path ?? undefined,
            line: p.line ?? undefined,
            title: p.check,
          }, p.message)
          : `${terminalText(String(p.path))}${lineText(p)}: ${p.check}: ${terminalText(p.message)}`,
      );
      byCheck[p.check] = (byCheck[p.check] ?? 0) + 1;
      reported++;
    }
  }
  if (!quiet) {
    const counts = Object.entries(byCheck).map(([c, n]) => `${c} ${n}`).join(", ");
    const old = changes === null
      ? ""
      : `; ${before} problem${before === 1 ? "" : "s"} the committed version${
        files === 1 ? "" : "s"
      } had already, not counted`;
    err(
      reported === 0
        ? `check: ${files} file${files === 1 ? "" : "s"}, no ${changes === null ? "" : "new "}problems${old}`
        : `check: ${reported} ${changes === null ? "" : "new "}problem${
          reported === 1 ? "" : "s"
        } in ${files} file${files === 1 ? "" : "s"} (${counts})${old}`,
    );
  }
  return status !== 0 ? status : reported > 0 ? 1 : 0;
}

/** A version of a catalogue read as the command reads a file. */
function readVersion(bytes: Uint8Array, path: string) {
  return parsePo(bytes, { fileName: path, strict: false, allowBom: true, placeholderCharset: true });
}

/** The command's {@link CheckCliIo} on the real file system, stdout and stderr. */
export function checkCliIo(): CheckCliIo {
  const encoder = new TextEncoder();
  const present = (path: string): boolean => {
    try {
      Deno.lstatSync(path);
      return true;
    } catch (error) {
      // A directory this run may not read (a narrower --allow-read) holds no terminology for it.
      if (
        error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied ||
        error instanceof Deno.errors.NotCapable
      ) {
        return false;
      }
      throw error;
    }
  };
  const readIfPresent = async (path: string) =>
    present(path) ? await readRegularFileBytes(path, MAX_TERMINOLOGY_FILE_BYTES) : null;
  const terms = new TerminologyCache({
    readBytes: readIfPresent,
    async readCatalogue(path) {
      const bytes = await readIfPresent(path);
      return bytes === null ? null : parsePo(bytes, { fileName: path, strict: false, allowBom: true });
    },
  });
  return {
    async terminology(path, dir) {
      if (dir !== null) return await terms.forRoot(resolve(dir));
      let d = resolve(path);
      try {
        if (!Deno.statSync(d).isDirectory) d = dirname(d);
      } catch {
        d = dirname(d);
      }
      for (let n = 0; n < 64; n++) {
        if (present(join(d, GLOSSARY_FILE)) || present(join(d, TERMS_FILE))) return await terms.forRoot(d);
        if (present(join(d, ".git"))) return null;
        const up = dirname(d);
        if (up === d) return null;
        d = up;
      }
      return null;
    },
    out: (line) => writeAll(Deno.stdout, encoder.encode(`${line}\n`)),
    err: (line) => writeAll(Deno.stderr, encoder.encode(`${line}\n`)),
    // Counted by the same walk rules as the run's (dot names skipped, *.po files, no symbolic link).
    async progress(paths) {
      if (!Deno.stderr.isTerminal()) return SILENT_PROGRESS;
      const { files } = await collectWrapTargets(paths, { pathKind: wrapPathKind, readDir: readDirEntries });
      return terminalProgress(files.length);
    },
    async pathKind(path) {
      try {
        return (await Deno.stat(path)).isDirectory ? "directory" : "file";
      } catch {
        return "file";
      }
    },
    readDir: readDirEntries,
    async changes() {
      const versions = await gitVersions();
      return { stagedFiles: gitStagedFiles, committed: versions.committed, staged: versions.staged };
    },
    async read(path) {
      // Not Deno.open: it waits forever for a writer on a FIFO. This read refuses what is not a
      // regular file before it reads, and what is larger than the limit.
      const bytes = await readRegularFileBytes(path, MAX_FILE_BYTES);
      // A syntax error (PoSyntaxError) becomes the file's `syntax` problem.
      // `charset=CHARSET` in a .po is read as msgfmt reads it (the `charset` check warns of it).
      return parsePo(bytes, { fileName: path, strict: false, allowBom: true, placeholderCharset: true });
    },
  };
}

/**
 * `:LINE` of a problem as printed. A catalogue problem without a line (no header entry, so none to
 * name: msgfmt names no line either) is put at line 1, where the header entry belongs; a file or
 * directory that could not be read gets no line (`path: file: …`), never `:0`.
 */
function lineText(p: { line: number | null; check: string }): string {
  if (p.line !== null) return `:${p.line}`;
  return p.check === "file" ? "" : ":1";
}
