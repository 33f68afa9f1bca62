/**
 * One file's verdict by `msgfmt -c` and by the checks, side by side: whether each rejects it, and
 * the entries each names. Shared by tests/po_checks_verdicts_test.ts and bench/check_corpus.ts.
 *
 * "Rejects" is msgfmt's exit status for msgfmt, and an `error` from the checks that stand for
 * msgfmt -c's own for us ({@link MSGFMT_CHECKS}); our other checks go beyond msgfmt and are counted
 * apart. The file is read as the `check` command reads it (duplicates kept, a BOM allowed).
 *
 * @module
 */
import { parsePo } from "../lib/po/mod.ts";
import { messageLines } from "../lib/po/read/parse.ts";
import { checkCatalog, CHECKS } from "../lib/po/checks/mod.ts";
import { PoSyntaxError } from "../lib/errors.ts";
import { resolve } from "node:path";

/** The checks that stand for msgfmt -c's own (the rest go beyond it). */
export const MSGFMT_CHECKS: ReadonlySet<string> = new Set([
  "syntax",
  "duplicates",
  "header",
  "plural-forms",
  "plural-count",
  "charset",
  "newlines",
  ...CHECKS.filter((c) => c.name.endsWith("-format")).map((c) => c.name),
]);

/** What msgfmt -c and the checks say of one file. */
export interface Verdicts {
  msgfmtRejects: boolean;
  oursRejects: boolean;
  /** Entries (by the line of their first keyword) msgfmt names in an error, not flagged by us. */
  missedEntries: number[];
  /** Errors of our checks beyond msgfmt's (they say so in their description). */
  beyond: number;
  /** msgfmt's error lines, and our errors of msgfmt's kind, for a report. */
  msgfmtErrors: string[];
  ourErrors: string[];
}

/**
 * msgfmt -c's error lines (warnings left out) of a file, and its exit status. Run without `-o`, in a
 * directory of its own for the `.mo` files it writes: with `-o FILE` msgfmt also refuses a file with
 * a `domain` directive (one output file, several domains), which is not a verdict on the catalogue
 * (the `domains` check warns of it).
 */
export async function msgfmt(
  path: string,
): Promise<{ ok: boolean; errors: { line: number; text: string }[] }> {
  const cwd = await Deno.makeTempDir();
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("msgfmt", {
      args: ["-c", resolve(path)],
      cwd,
      stdout: "null",
      stderr: "piped",
      env: { LC_ALL: "C" },
    }).output();
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
  const errors: { line: number; text: string }[] = [];
  for (const line of new TextDecoder().decode(out.stderr).split("\n")) {
    const m = /^[^:]+:(\d+):(?:\d+:)? (?!warning:)(.*)$/.exec(line);
    if (m !== null) errors.push({ line: Number(m[1]), text: m[2]! });
  }
  return { ok: out.success, errors };
}

/** The index of the entry a line belongs to: the last entry whose first keyword is at or before it. */
export function entryAt(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= line) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Whether `msgfmt -c` accepts a catalogue of this text. */
export async function msgfmtAccepts(text: string): Promise<boolean> {
  const path = await Deno.makeTempFile({ suffix: ".po" });
  try {
    await Deno.writeTextFile(path, text);
    const r = await new Deno.Command("msgfmt", { args: ["-c", "-o", "/dev/null", path], stderr: "null" })
      .output();
    return r.success;
  } finally {
    await Deno.remove(path);
  }
}

/** Runs msgfmt -c and the checks on the file at `path`. */
export async function verdicts(path: string): Promise<Verdicts> {
  const gnu = await msgfmt(path);
  const msgfmtErrors = gnu.errors.map((e) => `${e.line}: ${e.text}`);
  let catalog;
  try {
    catalog = parsePo(await Deno.readFile(path), {
      fileName: path,
      strict: false,
      allowBom: true,
      placeholderCharset: true,
    });
  } catch (e) {
    if (!(e instanceof PoSyntaxError)) throw e;
    const ours = [`${e.line}: syntax: ${e.reason}`];
    const missed = gnu.errors.length > 0 && !gnu.errors.some((x) => x.line === e.line)
      ? [gnu.errors[0]!.line]
      : [];
    return {
      msgfmtRejects: !gnu.ok,
      oursRejects: true,
      missedEntries: missed,
      beyond: 0,
      msgfmtErrors,
      ourErrors: ours,
    };
  }
  const starts = messageLines(catalog) ?? [];
  const problems = checkCatalog(catalog, { path });
  const ours = problems.filter((p) => p.severity === "error" && MSGFMT_CHECKS.has(p.check));
  const flagged = new Set(ours.filter((p) => p.line !== null).map((p) => entryAt(starts, p.line!)));
  const missed = new Set<number>();
  // "...this is the location of the first definition" and the like continue an error: not counted.
  for (const e of gnu.errors) {
    if (e.text.startsWith("...")) continue;
    const i = entryAt(starts, e.line);
    if (!flagged.has(i)) missed.add(i < 0 ? e.line : starts[i]!);
  }
  return {
    msgfmtRejects: !gnu.ok,
    oursRejects: ours.length > 0,
    missedEntries: [...missed],
    beyond: problems.filter((p) => p.severity === "error" && !MSGFMT_CHECKS.has(p.check)).length,
    msgfmtErrors,
    ourErrors: ours.map((p) => `${p.line}: ${p.check}: ${p.message}`),
  };
}

/** Every `*.po` file under `dir` (sorted; names starting with `.` skipped; links not followed). */
export function poFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of [...Deno.readDirSync(d)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith(".")) continue;
      if (e.isDirectory) walk(`${d}/${e.name}`);
      else if (e.isFile && e.name.endsWith(".po")) out.push(`${d}/${e.name}`);
    }
  };
  walk(dir);
  return out;
}
