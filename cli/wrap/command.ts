/**
 * `wrap`: a powrap-compatible command that lays PO files out exactly as `msgcat FILE` (GNU gettext
 * 0.21, width 79) would, without msgcat, over files and whole directory trees in one process. File
 * access and output arrive as an {@link WrapIo}, so the command is tested without touching the disk.
 *
 * Options and exit statuses follow powrap 1.0 (`--check`, `--diff`/`-d`, `--modified`/`-m`,
 * `--no-wrap`, `--quiet`/`-q`, `--version`): 0 nothing to change (or all rewritten), 1 `--check` or
 * `--diff` found files to rewrap. Where powrap differs, on purpose:
 *
 * - A PATH may be a directory: its `*.po` files are formatted (rules in `lib/po/operations/tree_walk.ts`).
 * - A file msgcat rejects is reported as `wrap: FILE:LINE:COLUMN: REASON` (msgcat's own reason) and
 *   the run ends with status 2, after every other file was still checked or rewritten. powrap prints
 *   msgcat's error and exits 0, so a broken catalogue passes its pre-commit hook.
 * - A missing or non-regular PATH (FIFO, device) is reported in one line and gives status 2 (powrap's
 *   argument check also exits 2, before doing anything); it is never opened for a blocking read
 *   (the host's `readFile` refuses it: `main.ts` uses the store's `readRegularFileBytes`).
 * - `--diff` prints the diff on standard output, as powrap's help says (powrap 1.0 prints it on
 *   standard error); "Would rewrap: FILE" goes to standard error in both.
 * - `--modified` may be given with PATHs: only the modified files under them are formatted.
 * - Files are read as msgcat reads a file (bytes, charset from the header); CRLF is kept, not
 *   normalised (powrap converts it to LF before piping to msgcat).
 * - File names and the lines of `--diff` are printed with their control characters escaped
 *   (`lib/terminal_text.ts`): a name with a newline cannot forge a line, nor ESC reach the terminal.
 *
 * @module
 */
import { sameBytes } from "../../lib/byte_runs.ts";
import { loadNativeBytes, NATIVE_BYTES_WORTHWHILE } from "../../lib/native_bytes.ts";
import { DomainError, PoSyntaxError } from "../../lib/errors.ts";
import { NotRegularFileError } from "../../lib/regular_read.ts";
import {
  collectWrapTargets,
  DETECTION_SAMPLE,
  electGeneration,
  encodePo,
  filesUnder,
  formatPo,
  type GettextGeneration,
  knownLayout,
  LAID_OUT,
  laidOutVerdict,
  type LayoutVote,
  mixedNote,
  NOT_LAID_OUT,
  parseGeneration,
  parsePo,
  tallyVotes,
  unifiedDiff,
  type WrapTreeIo,
} from "../../lib/po/mod.ts";
import { VERSION } from "../../lib/version.ts";
import { type Progress, SILENT_PROGRESS } from "../progress.ts";
import type { LayoutPool } from "./pool.ts";
import { terminalLines, terminalText } from "../../lib/terminal_text.ts";
import { unknownOption } from "../../lib/closest_name.ts";

/** What the command may touch. */
export interface WrapIo extends Partial<WrapTreeIo> {
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Rewrites `path`. `tree`: the directory PATH the file was found in by a walk; the real file
   * must then still be a `.po` inside it (a symlink swapped in leading elsewhere is refused).
   */
  writeFile(path: string, bytes: Uint8Array, tree?: string, generation?: GettextGeneration): Promise<void>;
  /**
   * The generation the repository chose outside the command line (PO_GETTEXT, `.po-tools.toml`),
   * with where it was found, an error line for a bad setting, or null when none did (optional).
   */
  gettextChoice?(): Promise<{ generation: GettextGeneration; source: string } | { error: string } | null>;
  /**
   * The layout votes of a bounded sample of the repository's catalogues, for detection; null (or
   * absent) outside a repository: the files named are sampled. A hook names only the staged files;
   * the tree is what tells.
   */
  repositoryVotes?(): Promise<LayoutVote[] | null>;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Writes bytes to standard output. Optional: `--stdout` uses it so a non-UTF-8 file (ISO-8859-1…)
   * comes out in its own encoding, as msgcat prints it; without it the text goes to `stdout`.
   */
  stdoutBytes?(bytes: Uint8Array): void;
  /**
   * The size of the file at `path` as a stat gives it now, 0 when there is none (optional: bounds
   * the bytes read ahead; the read itself refuses what is not a regular file).
   */
  fileSize?(path: string): number;
  /** Drops what the host kept of a file read but not rewritten (optional). */
  forget?(path: string): void;
  /**
   * The `*.po` files git reports as modified, relative to the working directory (for `--modified`;
   * without it that option is refused).
   */
  modifiedFiles?(): Promise<string[]>;
  /**
   * The `*.po` files the staged change touches (git's index against HEAD), relative to the working
   * directory (for `--changed`; without it that option is refused).
   */
  changedFiles?(): Promise<string[]>;
  /**
   * Workers to lay out `files` files in parallel, or null to lay them out on this thread (optional;
   * `jobs` is the `--jobs=N` option, undefined when not given). The pool is closed when the run ends.
   */
  layoutPool?(files: number, jobs: number | undefined): Promise<LayoutPool | null>;
  /**
   * A progress bar over `files` files (optional): the host draws it on a terminal and keeps it silent
   * in pipes and CI. Not asked for with `--quiet` or `--stdout`.
   */
  progress?(files: number): Progress;
}

/** This command's version, printed by `--version` (po-tools' version). */
export const WRAP_VERSION: string = VERSION;

/** The `--help` text. */
export const WRAP_USAGE =
  `Usage: wrap [--check | --diff | --stdout] [--modified | --changed] [--no-wrap] [--gettext V] [--quiet] PATH...

Lay out gettext PO files exactly as "msgcat FILE" (GNU gettext 0.21 or 0.23.1,
width 79) does, like powrap, without running msgcat. A PATH that is a directory stands for
the *.po files under it (hidden entries and symbolic links are skipped).

  (default)        rewrite each file in place when its layout changes
  --check          write nothing; list the files that would change (exit 1 if any)
  --diff, -d       write nothing; print a unified diff of each change (exit 1 if any)
  --stdout         write nothing; print the laid-out files on standard output
  --modified, -m   only the *.po files git reports as modified (under the PATHs
                   if any are given); needs --allow-run=git
  --changed        only the *.po files the staged change touches (git diff
                   --cached; under the PATHs if any are given); needs --allow-run=git
  --no-wrap        do not wrap long strings (as msgcat --no-wrap / powrap --no-wrap)
  --gettext=V      lay out as gettext V's msgcat: 0.21, or 0.23 (0.22 and later
                   break lines differently). Default: PO_GETTEXT, else gettext =
                   "V" in .po-tools.toml (here or up to the repository's top),
                   else what most of the catalogues are laid out as (0.21 if none
                   tells; a mixed tree gets a note on stderr)
  --jobs=N         lay out files on N worker threads (default 1: none; pays off
                   only with idle CPUs)
  --quiet, -q      no progress bar (shown on a terminal only)
  --version        print the version
  --help, -h       show this help

Exit status: 0 done (or nothing to change), 1 --check/--diff found files to
change, or no PATH given; 2 a file could not be read or is not valid PO (every
other file is still processed), or a usage error.
`;

interface Options {
  check: boolean;
  diff: boolean;
  stdout: boolean;
  noWrap: boolean;
  gettext: GettextGeneration | undefined;
  quiet: boolean;
  modified: boolean;
  changed: boolean;
  jobs: number | undefined;
  files: string[];
}

/** The options `wrap` takes (for "did you mean" on a misspelt one). */
const WRAP_OPTIONS = [
  "--help",
  "--check",
  "--diff",
  "--stdout",
  "--no-wrap",
  "--gettext",
  "--modified",
  "--changed",
  "--quiet",
  "--jobs",
];

function parseArgs(args: string[]): Options | string {
  const o: Options = {
    check: false,
    diff: false,
    stdout: false,
    noWrap: false,
    gettext: undefined,
    quiet: false,
    modified: false,
    changed: false,
    jobs: undefined,
    files: [],
  };
  let onlyFiles = false;
  let gettextNext = false;
  for (const a of args) {
    if (gettextNext || a.startsWith("--gettext=")) {
      const value = gettextNext ? a : a.slice("--gettext=".length);
      gettextNext = false;
      const generation = parseGeneration(value);
      if (generation === null) {
        return `--gettext takes 0.21 or 0.23, not ${JSON.stringify(value.slice(0, 40))}`;
      }
      o.gettext = generation;
      continue;
    }
    if (onlyFiles || !a.startsWith("-") || a === "-") {
      o.files.push(a);
      continue;
    }
    switch (a) {
      case "--":
        onlyFiles = true;
        break;
      case "--check":
        o.check = true;
        break;
      case "--diff":
      case "-d":
        o.diff = true;
        break;
      case "--stdout":
        o.stdout = true;
        break;
      case "--no-wrap":
        o.noWrap = true;
        break;
      case "--gettext":
        gettextNext = true;
        break;
      case "--modified":
      case "-m":
        o.modified = true;
        break;
      case "--changed":
        o.changed = true;
        break;
      case "--quiet":
      case "-q":
        o.quiet = true;
        break;
      default: {
        const jobs = /^--jobs=([1-9][0-9]?)$/.exec(a);
        if (!jobs) return unknownOption(a, WRAP_OPTIONS);
        o.jobs = Number(jobs[1]);
      }
    }
  }
  if (gettextNext) return "--gettext takes 0.21 or 0.23";
  if (o.stdout && (o.check || o.diff)) return "--stdout cannot be combined with --check or --diff";
  return o;
}

function errorText(path: string, e: unknown): string {
  return `${terminalText(errorLine(path, e))}\n`;
}

function errorLine(path: string, e: unknown): string {
  if (e instanceof PoSyntaxError) return `wrap: ${path}:${e.line}:${e.column}: ${e.reason}`;
  if (e instanceof NotRegularFileError) return `wrap: ${path}: not a regular file (${e.what})`;
  if (e instanceof DomainError) return `wrap: ${path}: ${e.message}`;
  if (e instanceof Deno.errors.NotFound) return `wrap: ${path}: no such file`;
  if (e instanceof Error && e.name !== "Error") return `wrap: ${path}: cannot read: ${e.message}`;
  throw e;
}

/**
 * Files read ahead of the one being reported, on one thread: each open waits on Deno's blocking
 * pool, and a python-docs-sized tree ran faster with 16 in flight than with 4 (bench/wrap_tree_bench.sh).
 */
const READ_AHEAD = 16;
/**
 * Bytes of the files read ahead (their sizes when they were started), at most: past this the next
 * file waits for the ones before it, and a file larger than this is read alone. What is held at
 * once stays near this, however large the files of a tree are.
 */
const READ_AHEAD_BYTES = 16 * 1024 * 1024;

/**
 * One file read and laid out, or what stopped it. `after` is null when `--check` alone learnt the
 * file would change without laying it out (`laidOutVerdict`: NOT_LAID_OUT).
 */
type Outcome =
  | { path: string; before: Uint8Array; after: Uint8Array | null; text: string | null }
  | { path: string; error: unknown };

/** The files of this run, or an exit status when there is nothing to run. */
async function targets(
  options: Options,
  io: WrapIo,
): Promise<{ files: string[]; failed: boolean; trees?: Map<string, string> } | number> {
  let paths = options.files;
  if (options.modified) {
    if (!io.modifiedFiles) {
      io.stderr("wrap: --modified is not available here\n");
      return 2;
    }
    let modified: string[];
    try {
      modified = await io.modifiedFiles();
    } catch (e) {
      io.stderr(`${terminalText(`wrap: --modified: ${e instanceof Error ? e.message : String(e)}`)}\n`);
      return 2;
    }
    paths = await filesUnder(modified, options.files);
  }
  if (options.changed) {
    if (!io.changedFiles) {
      io.stderr("wrap: --changed is not available here\n");
      return 2;
    }
    let changed: string[];
    try {
      changed = await io.changedFiles();
    } catch (e) {
      io.stderr(`${terminalText(`wrap: --changed: ${e instanceof Error ? e.message : String(e)}`)}\n`);
      return 2;
    }
    paths = await filesUnder(changed, options.modified ? paths : options.files);
  }
  if (!io.pathKind || !io.readDir) return { files: [...paths], failed: false };
  let walked;
  try {
    walked = await collectWrapTargets(paths, { pathKind: io.pathKind, readDir: io.readDir });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    io.stderr(`${terminalText(`wrap: ${e.message}`)}\n`);
    return 2;
  }
  const { files, failures, trees } = walked;
  for (const { path, error } of failures) io.stderr(errorText(path, error));
  return { files, failed: failures.length > 0, trees };
}

/**
 * Runs `wrap` with command-line arguments (without the command name) and returns the exit status.
 * Files are reported (and rewritten) in order; they are read and laid out ahead, one at a time or
 * on the host's worker pool a few at a time, so memory holds a few catalogues, not the tree. A file
 * that cannot be read or is not valid PO is reported and skipped, and every other file is still
 * checked or rewritten; the status is then 2.
 *
 * @example
 * ```ts
 * const status = await runWrap(["--check", "fr.po"], {
 *   readFile: (p) => Deno.readFile(p),
 *   writeFile: (p, b) => Deno.writeFile(p, b),
 *   stdout: (t) => console.log(t),
 *   stderr: (t) => console.error(t),
 * });
 * ```
 */
export async function runWrap(args: string[], io: WrapIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(WRAP_USAGE);
    return 0;
  }
  if (args.includes("--version")) {
    io.stdout(`wrap (po-tools) ${WRAP_VERSION}, msgcat 0.21 and 0.23.1 layouts\n`);
    return 0;
  }
  const options = parseArgs(args);
  if (typeof options === "string") {
    io.stderr(`wrap: ${terminalText(options)}\n\n${WRAP_USAGE}`);
    return 2;
  }
  if (options.files.length === 0 && !options.modified && !options.changed) {
    // powrap prints its help and exits 1 when given nothing to do.
    io.stderr(`wrap: no PATH given\n\n${WRAP_USAGE}`);
    return 1;
  }
  const run = await targets(options, io);
  if (typeof run === "number") return run;
  let failed = run.failed;
  if (run.files.length === 0 && !failed) {
    io.stdout("Nothing to do, exiting.\n");
    return 0;
  }

  let generation = options.gettext;
  if (generation === undefined) {
    const chosen = await io.gettextChoice?.();
    if (chosen && "error" in chosen) {
      io.stderr(`wrap: ${terminalText(chosen.error)}\n`);
      return 2;
    }
    generation = chosen?.generation;
  }
  /**
   * Files read for detection, kept to be laid out without a second read when the sample is every
   * file of the run (a hook's few files), up to READ_AHEAD_BYTES in all: what is held stays within
   * the read-ahead's budget. The host keeps them as read, as it does a file read for its layout.
   */
  const sampled = new Map<string, Uint8Array>();
  if (generation === undefined) {
    // Detected: the repository's catalogues (outside one, a sample spread over the files given).
    const each = (await io.repositoryVotes?.()) ?? null;
    let votes;
    if (each !== null) votes = tallyVotes(each);
    else {
      const sample: Uint8Array[] = [];
      const files = run.files;
      const step = Math.max(1, files.length / DETECTION_SAMPLE);
      let kept = 0;
      for (
        let k = 0;
        k < files.length && sample.length < DETECTION_SAMPLE;
        k = Math.floor(sample.length * step)
      ) {
        const path = files[k]!;
        try {
          const bytes = await io.readFile(path);
          sample.push(bytes);
          if (files.length <= DETECTION_SAMPLE && kept + bytes.length <= READ_AHEAD_BYTES) {
            kept += bytes.length;
            sampled.set(path, bytes);
            continue;
          }
        } catch {
          sample.push(new Uint8Array(0)); // the run reports it
        }
        io.forget?.(path);
      }
      votes = electGeneration(sample);
    }
    generation = votes.generation ?? "0.21";
    if (votes.mixed) io.stderr(`wrap: ${mixedNote(votes, generation)}\n`);
  }
  const layoutGeneration: GettextGeneration = generation;

  let changed = 0;
  const decoder = new TextDecoder();
  const noWrap = options.noWrap;
  const pool = options.stdout && !io.stdoutBytes
    ? null
    : await io.layoutPool?.(run.files.length, options.jobs);
  let bytesRead = 0;
  const textOut = options.stdout && !io.stdoutBytes;
  const checkOnly = options.check && !options.diff && !options.stdout;
  /** Reads one file and lays it out (on a worker when there is a pool). */
  const layOut = async (path: string): Promise<Outcome> => {
    try {
      const before = sampled.get(path) ?? await io.readFile(path);
      sampled.delete(path);
      bytesRead += before.length;
      if (pool) {
        return { path, before, after: await pool.layOut(path, before, noWrap, layoutGeneration), text: null };
      }
      // Reading a file's own lines (laid_out.ts) tells whether it is laid out already, as most
      // files of a kept tree are, and for most others what msgcat prints, without parsing the file
      // into a catalogue and laying that out (`--check` alone needs only to know it would change);
      // the rest take the usual way, which decides, reports errors and rewrites. (`--stdout`
      // without a byte writer wants the text.)
      if (checkOnly) {
        const verdict = laidOutVerdict(before, noWrap, layoutGeneration);
        if (verdict === LAID_OUT) return { path, before, after: before, text: null };
        if (verdict === NOT_LAID_OUT) return { path, before, after: null, text: null };
      } else if (!textOut) {
        const known = knownLayout(before, noWrap, layoutGeneration);
        if (known !== null) return { path, before, after: known, text: null };
      }
      // The full reader: past a few hundred KB read in all, node:buffer's native decoding pays for
      // the start of Deno's Node layer (native_bytes.ts); the reading above does not need it.
      if (bytesRead >= NATIVE_BYTES_WORTHWHILE) await loadNativeBytes();
      const catalog = parsePo(before, { fileName: path, placeholderCharset: layoutGeneration === "0.23" });
      const after = encodePo(catalog, { noWrap, once: true, generation: layoutGeneration });
      const text = textOut ? formatPo(catalog, { noWrap, generation: layoutGeneration }) : null;
      return { path, before, after, text };
    } catch (error) {
      return { path, error };
    }
  };
  // Files are read and laid out ahead, at most `window` and READ_AHEAD_BYTES at once; reports and
  // writes stay in order. On one thread, the next files' reads go on while this one is laid out
  // (the layout is synchronous): a walk of a tree otherwise waited on each file's stat, open and
  // read in turn.
  const window = pool?.window ?? READ_AHEAD;
  const inFlight: Promise<Outcome>[] = [];
  const inFlightBytes: number[] = [];
  let aheadBytes = 0;
  let next = 0;
  let nextSize = -1; // the next file's size, once asked
  const readAhead = () => {
    while (next < run.files.length && inFlight.length < window) {
      if (nextSize < 0) nextSize = io.fileSize?.(run.files[next]!) ?? 0;
      if (inFlight.length > 0 && aheadBytes + nextSize > READ_AHEAD_BYTES) return;
      aheadBytes += nextSize;
      inFlightBytes.push(nextSize);
      inFlight.push(layOut(run.files[next++]!));
      nextSize = -1;
    }
  };
  const progress = options.quiet || options.stdout
    ? SILENT_PROGRESS
    : io.progress?.(run.files.length) ?? SILENT_PROGRESS;
  /** Standard error, with the progress bar's line cleared first. */
  const report = (text: string) => {
    progress.clear();
    io.stderr(text);
  };
  try {
    readAhead();
    while (inFlight.length > 0) {
      const r = await inFlight.shift()!;
      aheadBytes -= inFlightBytes.shift()!;
      readAhead();
      progress.tick();
      const path = r.path;
      if ("error" in r) {
        report(errorText(path, r.error));
        io.forget?.(path);
        failed = true;
        continue;
      }
      const { before, after } = r;
      if (options.stdout) {
        if (io.stdoutBytes) io.stdoutBytes(after!); // laid out: only `--check` leaves it null
        else io.stdout(r.text!);
        io.forget?.(path);
        continue;
      }
      if (after !== null && sameBytes(before, after)) {
        io.forget?.(path);
        continue;
      }
      changed++;
      if (options.check || options.diff) {
        report(`Would rewrap: ${terminalText(path)}\n`);
        // For a reader: the file's own lines, controls made visible (`--stdout` gives the bytes).
        if (options.diff) {
          io.stdout(terminalLines(unifiedDiff(decoder.decode(before), decoder.decode(after!), path)));
        }
        io.forget?.(path);
        continue;
      }
      try {
        await io.writeFile(path, after!, run.trees?.get(path), layoutGeneration);
      } catch (e) {
        report(errorText(path, e).replace(": cannot read: ", ": cannot write: "));
        io.forget?.(path);
        failed = true;
      }
    }
  } finally {
    progress.done();
    pool?.close();
  }
  if (failed) return 2;
  return (options.check || options.diff) && changed > 0 ? 1 : 0;
}
