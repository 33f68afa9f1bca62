/**
 * `wrap`: a powrap-compatible command that lays PO files out exactly as `msgcat FILE` (GNU gettext
 * 0.21, width 79) would, without msgcat. File access and output arrive as an {@link WrapIo}, so the
 * command is tested without touching the disk.
 *
 * Differences from powrap: files are read as msgcat reads a file (bytes, charset from the header;
 * CRLF is kept, not normalised — powrap converts it to LF before piping to msgcat); `--modified`
 * (which asks git) is not supported. A FILE that is not a regular file (a FIFO, a device such as
 * `/dev/zero`, a directory) is refused with one line, `wrap: PATH: not a regular file (a FIFO)`,
 * like any other unreadable file: every FILE is still checked and reported, nothing is written, and
 * the exit status is 2. (The host's `readFile` must refuse such files without opening them for a
 * blocking read: `main.ts` uses the store's `readRegularFileBytes`.)
 *
 * @module
 */
import { DomainError, PoSyntaxError } from "../errors.ts";
import { NotRegularFileError } from "../store/mod.ts";
import { parsePo } from "./parse.ts";
import { encodePo, formatPo } from "./write.ts";

/** What the command may touch. */
export interface WrapIo {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Writes bytes to standard output. Optional: `--stdout` uses it so a non-UTF-8 file (ISO-8859-1…)
   * comes out in its own encoding, as msgcat prints it; without it the text goes to `stdout`.
   */
  stdoutBytes?(bytes: Uint8Array): void;
}

/** The `--help` text. */
export const WRAP_USAGE = `Usage: wrap [--check] [--diff] [--stdout] [--no-wrap] [--quiet] FILE...

Lay out gettext PO files exactly as "msgcat FILE" (GNU gettext 0.21, width 79)
does, like powrap, without running msgcat.

  (default)    rewrite each FILE in place when its layout changes
  --check      write nothing; list the files that would change (exit 1 if any)
  --diff       write nothing; print a unified diff of each change (exit 1 if any)
  --stdout     write nothing; print the laid-out files on standard output
  --no-wrap    do not wrap long strings (as msgcat --no-wrap / powrap --no-wrap)
  --quiet, -q  accepted for powrap compatibility
  --help, -h   show this help

Exit status: 0 done (or nothing to change), 1 --check/--diff found files to
change, 2 invalid input (nothing is written then) or usage error.
`;

interface Options {
  check: boolean;
  diff: boolean;
  stdout: boolean;
  noWrap: boolean;
  files: string[];
}

function parseArgs(args: string[]): Options | string {
  const o: Options = { check: false, diff: false, stdout: false, noWrap: false, files: [] };
  let onlyFiles = false;
  for (const a of args) {
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
        o.diff = true;
        break;
      case "--stdout":
        o.stdout = true;
        break;
      case "--no-wrap":
        o.noWrap = true;
        break;
      case "--quiet":
      case "-q":
        break;
      default:
        return `unknown option ${a}`;
    }
  }
  if (o.files.length === 0) return "no FILE given";
  if (o.stdout && (o.check || o.diff)) return "--stdout cannot be combined with --check or --diff";
  return o;
}

function errorText(path: string, e: unknown): string {
  if (e instanceof PoSyntaxError) return `wrap: ${path}:${e.line}:${e.column}: ${e.reason}\n`;
  if (e instanceof NotRegularFileError) return `wrap: ${path}: not a regular file (${e.what})\n`;
  if (e instanceof DomainError) return `wrap: ${path}: ${e.message}\n`;
  if (e instanceof Deno.errors.NotFound) return `wrap: ${path}: no such file\n`;
  if (e instanceof Error && e.name !== "Error") return `wrap: ${path}: cannot read: ${e.message}\n`;
  throw e;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Runs `wrap` with command-line arguments (without the command name) and returns the exit status.
 * Every file is read and laid out before anything is written: one invalid file means exit 2 and
 * no file changed.
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
  const options = parseArgs(args);
  if (typeof options === "string") {
    io.stderr(`wrap: ${options}\n\n${WRAP_USAGE}`);
    return 2;
  }

  const results: { path: string; before: Uint8Array; after: Uint8Array; text: string }[] = [];
  let failed = false;
  for (const path of options.files) {
    try {
      const before = await io.readFile(path);
      const catalog = parsePo(before, { fileName: path });
      const after = encodePo(catalog, { noWrap: options.noWrap });
      results.push({ path, before, after, text: formatPo(catalog, { noWrap: options.noWrap }) });
    } catch (e) {
      io.stderr(errorText(path, e));
      failed = true;
    }
  }
  if (failed) return 2;

  if (options.stdout) {
    for (const r of results) {
      if (io.stdoutBytes) io.stdoutBytes(r.after);
      else io.stdout(r.text);
    }
    return 0;
  }
  const changed = results.filter((r) => !bytesEqual(r.before, r.after));
  if (options.check || options.diff) {
    const decoder = new TextDecoder();
    for (const r of changed) {
      if (options.diff) io.stdout(unifiedDiff(decoder.decode(r.before), decoder.decode(r.after), r.path));
      else io.stderr(`Would rewrap: ${r.path}\n`);
    }
    return changed.length > 0 ? 1 : 0;
  }
  for (const r of changed) await io.writeFile(r.path, r.after);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Unified diff

const CONTEXT = 3;
/** Beyond this many differing lines the diff is one hunk replacing the whole changed middle. */
const MAX_EDIT_DISTANCE = 2000;

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else if (lines.length > 0) lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}

type Op = [kind: " " | "-" | "+", line: string];

/** Myers' O(ND) shortest edit script of two line arrays, or null when D exceeds `limit`. */
function myers(a: string[], b: string[], limit: number): Op[] | null {
  const n = a.length, m = b.length;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
        ? v[offset + k + 1]
        : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d, k);
    }
  }
  return null;
}

function backtrack(a: string[], b: string[], trace: Int32Array[], dEnd: number, kEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length, y = b.length, k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const vd = trace[d]; // v before step d, for diagonals -d-1 … d+1
    const at = (kk: number) => vd[kk + d + 1];
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push([" ", a[x]]);
    }
    if (x === prevX) ops.push(["+", b[--y]]);
    else ops.push(["-", a[--x]]);
    k = prevK;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push([" ", a[x]]);
  }
  return ops.reverse();
}

/**
 * A unified diff (3 lines of context) from `before` to `after`, both named `path`; "" when equal.
 */
export function unifiedDiff(before: string, after: string, path: string): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  // Trim the common prefix and suffix; diff the middle.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) {
    suf++;
  }
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const middle = myers(midA, midB, MAX_EDIT_DISTANCE) ??
    [...midA.map((l): Op => ["-", l]), ...midB.map((l): Op => ["+", l])];
  const ops: Op[] = [
    ...a.slice(0, pre).map((l): Op => [" ", l]),
    ...middle,
    ...a.slice(a.length - suf).map((l): Op => [" ", l]),
  ];

  let out = `--- ${path}\n+++ ${path}\n`;
  let i = 0;
  // Line numbers (1-based) of ops[i] in a and b.
  const posA: number[] = [];
  const posB: number[] = [];
  let la = 1, lb = 1;
  for (const [kind] of ops) {
    posA.push(la);
    posB.push(lb);
    if (kind !== "+") la++;
    if (kind !== "-") lb++;
  }
  while (i < ops.length) {
    if (ops[i][0] === " ") {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend the hunk while changes are within 2×CONTEXT lines of each other.
    for (;;) {
      while (end < ops.length && ops[end][0] !== " ") end++;
      let next = end;
      while (next < ops.length && ops[next][0] === " ") next++;
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next;
      else {
        end = Math.min(ops.length, end + CONTEXT);
        break;
      }
    }
    const hunk = ops.slice(start, end);
    const countA = hunk.filter(([k]) => k !== "+").length;
    const countB = hunk.filter(([k]) => k !== "-").length;
    const startA = countA === 0 ? posA[start] - 1 : posA[start];
    const startB = countB === 0 ? posB[start] - 1 : posB[start];
    out += `@@ -${startA},${countA} +${startB},${countB} @@\n`;
    for (const [kind, line] of hunk) out += `${kind}${line}\n`;
    i = end;
  }
  return out;
}
