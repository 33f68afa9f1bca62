/**
 * `main.ts compile [OPTIONS] FILE.po`: msgfmt's `-o` for one catalogue (`lib/po/operations/compile.ts`):
 * writes FILE.mo beside it, or `-o OUT.mo` ("-": stdout), atomically and under the lock the
 * servers take. Fuzzy entries are left out unless `--use-fuzzy`. msgfmt's verdicts: its fatal
 * errors printed as it prints them (`FILE:LINE: message`), the MO still written and the status 1;
 * no file when there is nothing to compile.
 *
 * Loads no zod, Hono or MCP SDK.
 *
 * @module
 */
import { DomainError } from "../lib/errors.ts";
import { collectWrapTargets, compileMo, readForCompile } from "../lib/po/mod.ts";
import { unknownOption } from "../lib/closest_name.ts";
import type { LockedFileIo } from "./_locked_files.ts";
import { SILENT_PROGRESS } from "./progress.ts";
import { dirname, normalize, relative } from "node:path";

/** `main.ts compile --help`. */
export const COMPILE_USAGE = `Usage: main.ts compile [OPTIONS] FILE.po
       main.ts compile [OPTIONS] PATH...

Compiles a PO file to a binary MO file as GNU msgfmt does (msgunfmt reads back the same messages):
untranslated and obsolete entries left out, fuzzy ones too unless --use-fuzzy, plural and context
entries included. Writes FILE.mo beside FILE.po unless -o is given. Given several files or a
directory (every *.po under it, as wrap walks it), each FILE.po gets its FILE.mo beside it, with a
progress bar on a terminal; a file that cannot be compiled is reported and the others still are.

Options:
  -o, --output-file=FILE  write the MO file to FILE ("-": stdout)
  -f, --use-fuzzy         include fuzzy entries
  -q, --quiet             no summary on stderr

As msgfmt: an entry whose msgid and msgstr do not both begin (or both end) with \n is a fatal
error (printed as FILE:LINE: message; the MO is still written, the exit status is 1); with nothing
translated and no header, no MO file is written; a header without a charset is warned about and
the catalogue compiled as its bytes are.

Entries whose C format uses <inttypes.h> macros (%<PRIu32>) are written as system-dependent
strings, as msgfmt 0.21 writes them.
`;

/** The options `compile` takes (for "did you mean" on a misspelt one). */
const COMPILE_OPTIONS = ["--help", "--output-file", "--use-fuzzy", "--quiet"];

/**
 * Runs the command; returns the exit status (0; 1 for a file that cannot be read or compiled;
 * 2 for a usage error).
 *
 * @example
 * ```ts
 * Deno.exit(await runCompile(["po/fr.po"], lockedFileIo("compile", () => undefined, fail)));
 * ```
 */
export async function runCompile(args: readonly string[], io: LockedFileIo): Promise<number> {
  const files: string[] = [];
  let output: string | null = null;
  let useFuzzy = false;
  let quiet = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && (a === "--help" || a === "-h")) {
      io.stdout(new TextEncoder().encode(COMPILE_USAGE));
      return 0;
    }
    if (!options || !a.startsWith("-") || a === "-") files.push(a);
    else if (a === "--") options = false;
    else if (a === "-o" || a === "--output-file") {
      if (i + 1 >= args.length) return usage(io, `${a} needs a file name`);
      output = args[++i]!;
    } else if (a.startsWith("--output-file=")) output = a.slice(14);
    else if (a.startsWith("-o") && a.length > 2) output = a.slice(2);
    else if (a === "-f" || a === "--use-fuzzy") useFuzzy = true;
    else if (a === "-q" || a === "--quiet") quiet = true;
    else return usage(io, unknownOption(a, COMPILE_OPTIONS));
  }
  if (files.length === 0) return usage(io, "no input file given");
  const tree = files.length > 1 || (await io.pathKind?.(files[0]!)) === "directory";
  if (!tree) return (await compileOne(files[0]!, output, { useFuzzy, quiet, tree: null }, io)).status;
  if (output !== null) return usage(io, "-o takes one input file, not several or a directory");
  const { pathKind, readDir } = io;
  if (!pathKind || !readDir) return usage(io, "directories cannot be walked here");
  const { files: targets, failures } = await collectWrapTargets(files, { pathKind, readDir });
  for (const { path, error } of failures) io.err(`compile: ${path}: ${(error as Error).message}`);
  const progress = quiet ? SILENT_PROGRESS : io.progress?.(targets.length) ?? SILENT_PROGRESS;
  const say = io.err;
  const quietIo: LockedFileIo = { ...io, err: (line) => (progress.clear(), say(line)) };
  let failed = failures.length;
  let messages = 0;
  try {
    for (const file of targets) {
      const one = await compileOne(file, null, { useFuzzy, quiet: true, tree: treeOf(file, files) }, quietIo);
      if (one.status !== 0) failed++;
      messages += one.messages;
      progress.tick();
    }
  } finally {
    progress.done();
  }
  if (!quiet) {
    say(`compile: ${targets.length - failed} of ${targets.length} catalogues compiled, ${messages} messages`);
  }
  return failed > 0 ? 1 : 0;
}

/** The directory PATH given that a walked `file` was found under, or null for a file given itself. */
function treeOf(file: string, paths: readonly string[]): string | null {
  for (const path of paths) {
    const below = relative(normalize(path), normalize(file));
    if (below !== "" && below !== ".." && !below.startsWith("../") && !below.startsWith("/")) return path;
  }
  return null;
}

/**
 * Compiles one catalogue to `output` (or FILE.mo beside it): status 0 when done, 1 when it could
 * not be or msgfmt would exit 1. FILE.mo beside FILE.po, a name the user did not give, must really
 * be a `.mo` inside the tree walked (`tree`), or inside FILE.po's own directory: a committed
 * symlink leading elsewhere is refused. An `-o` file the user named is written as named.
 */
async function compileOne(
  file: string,
  output: string | null,
  options: { useFuzzy: boolean; quiet: boolean; tree: string | null },
  io: LockedFileIo,
): Promise<{ status: number; messages: number }> {
  const target = output ?? file.replace(/\.pot?$/, "") + ".mo";
  const confinement = output === null
    ? { within: options.tree ?? dirname(file), extensions: [".mo"] }
    : undefined;
  try {
    const input = readForCompile(await io.readFile(file), file);
    for (const warning of input.warnings) io.err(`compile: ${file}: ${warning}`);
    const r = compileMo(input.catalog, {
      useFuzzy: options.useFuzzy,
      missingCharset: input.missingCharset,
      msgstrLines: input.msgstrLines,
    });
    // As msgfmt: the MO is written even with fatal errors, which make the status 1.
    if (r.bytes !== null) {
      if (target === "-") io.stdout(r.bytes);
      else await io.updateFile(target, () => r.bytes, confinement);
    }
    for (const e of r.errors) io.err(`${file}:${e.line}: ${e.message}`);
    if (r.fatalErrors > 0) {
      io.err(`compile: ${file}: found ${r.fatalErrors} fatal error${r.fatalErrors === 1 ? "" : "s"}`);
    }
    if (!options.quiet) {
      io.err(
        r.bytes === null
          ? `compile: ${file}: nothing to compile (no header, nothing translated): no MO file written, as msgfmt writes none`
          : `compile: ${
            target === "-" ? "stdout" : target
          }: ${r.messages} messages, ${r.fuzzySkipped} fuzzy and ` +
            `${r.untranslatedSkipped} untranslated left out`,
      );
    }
    return { status: r.fatalErrors > 0 ? 1 : 0, messages: r.messages };
  } catch (error) {
    if (error instanceof DomainError || error instanceof Deno.errors.NotFound) {
      io.err(`compile: ${file}: ${(error as Error).message}`);
      return { status: 1, messages: 0 };
    }
    throw error;
  }
}

function usage(io: LockedFileIo, problem: string): number {
  io.err(`compile: ${problem} (main.ts compile --help)`);
  return 2;
}
