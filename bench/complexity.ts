/**
 * Growth of the PO engine's paths with the size of hostile inputs: each section feeds one path inputs
 * of size N, 4N and 16N of one shape and prints the time of each and the ratio per 4× step, as a
 * Markdown table. Linear work gives ~4× per step (the goal is ≤ ~5×); quadratic work gives ~16×
 * and more, and a size past {@link BUDGET_MS} ends its section ("(skipped)"). On a shared 2-core
 * machine, heap growth (objects promoted to V8's old generation, cache misses) adds up to ~2× at
 * the largest sizes: paths known linear (many tiny entries) show 4-7× at the 16N step there.
 *
 *   deno run --allow-read --allow-write [--v8-flags=--expose-gc] bench/complexity.ts [FILTER]
 *
 * FILTER keeps the sections whose name contains it. With `--expose-gc` the garbage of one run is
 * collected before the next is timed: steadier figures. The whole run takes under a minute on a
 * 2-core machine. Other benchmarks (HTTP, validation errors) can reuse {@link measure} and the
 * table printers:
 *
 * ```ts
 * import { measure, printHeader, printRow, printTable } from "./complexity.ts";
 * printHeader();
 * printRow(await measure("POST /po/write, N occurrences", [1e4, 4e4, 16e4], makeBody, send));
 * // or: printTable([await measure(…), await measure(…)]);
 * ```
 *
 * @module
 */
import {
  applyWrite,
  encodePo,
  fuzzySimilarity,
  keptBytes,
  LcsPattern,
  listEntries,
  parsePo,
  type PoCatalog,
  readContext,
  type WriteEntry,
} from "../lib/po/mod.ts";
import { buildTerminology, termsInMsgid } from "../lib/terms/mod.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";
import { knownLayout } from "../lib/po/write/laid_out.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

/**
 * V8's collector, when the run exposes it (`--v8-flags=--expose-gc`): collecting the garbage of
 * the last run before timing the next makes the figures steadier (a collection that falls in a
 * large run otherwise counts against it, and makes linear work look superlinear).
 */
const gc = (globalThis as { gc?: () => void }).gc;

/** A size that takes longer than this is the last one measured in its section. */
export const BUDGET_MS = 1000;

/** One measured section: a path fed one input shape at growing sizes. */
export interface Measurement {
  /** What was measured: the path and the input shape. */
  name: string;
  /** The input sizes, smallest first (N, 4N, 16N). */
  sizes: number[];
  /** Best time of each size, in ms (fewer than sizes when one took over {@link BUDGET_MS} or failed). */
  times: number[];
  /** The error of a size where the path failed (its name and the size), if one did. */
  error?: string;
}

/**
 * Times `run(makeInput(n))` for each size (inputs built outside the timing): the best of `rounds`
 * rounds, each running every size once, smallest first, after one untimed warm-up run at the
 * smallest. Interleaved rounds let a busy machine slow all sizes alike, not one. A size that took
 * over {@link BUDGET_MS} is the last one run (the next could take minutes). `run` may be async (an
 * HTTP request).
 */
export async function measure<T>(
  name: string,
  sizes: number[],
  makeInput: (n: number) => T,
  run: (input: T) => unknown,
  rounds = 3,
): Promise<Measurement> {
  const inputs = sizes.map((n) => makeInput(n));
  await run(inputs[0]!); // warm-up; sizes is never empty
  const times: number[] = [];
  let error: string | undefined;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < sizes.length; i++) {
      if (i > 0 && (times[i - 1] ?? Infinity) > BUDGET_MS) break;
      gc?.();
      const t = performance.now();
      try {
        await run(inputs[i]!); // i < sizes.length = inputs.length
      } catch (e) {
        // A path that fails at some size (say a RangeError) is reported as failing there.
        error = `${(e as Error).name} at ${sizes[i]}`;
        break;
      }
      const took = performance.now() - t;
      times[i] = Math.min(times[i] ?? Infinity, took);
    }
    // Past the budget, or failed: no second round.
    if (error !== undefined || times.some((t) => t > BUDGET_MS)) break;
  }
  return { name, sizes, times, error };
}

/** The largest ratio between the times of two consecutive sizes (sizes 4× apart: ~4 is linear). */
export function worstRatio(m: Measurement): number {
  let worst = 0;
  for (let i = 1; i < m.times.length; i++) {
    worst = Math.max(worst, m.times[i]! / Math.max(m.times[i - 1]!, 0.01)); // 1 <= i < length
  }
  return worst;
}

/** Prints measurements as a Markdown table: time per size, the ratio per step, and a verdict. */
export function printTable(rows: Measurement[], goal = 5): void {
  printHeader(Math.max(...rows.map((r) => r.sizes.length)));
  for (const r of rows) printRow(r, goal);
}

/** The header of {@link printTable}'s table, for sections of `steps` sizes. */
export function printHeader(steps = 3): void {
  const head = ["path and input shape", "N"];
  for (let i = 0; i < steps; i++) head.push(i === 0 ? "t(N) ms" : `t(${4 ** i}N) ms`);
  for (let i = 1; i < steps; i++) head.push(`×${i}`);
  head.push("≤ goal");
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map(() => " --- ").join("|")}|`);
}

/** One row of {@link printTable}'s table (print them as they are measured). */
export function printRow(r: Measurement, goal = 5): void {
  const ms = (t: number) => (t < 10 ? t.toFixed(2) : t < 100 ? t.toFixed(1) : t.toFixed(0));
  const steps = r.sizes.length;
  const cells = [r.name, String(r.sizes[0])];
  for (let i = 0; i < steps; i++) {
    const failed = r.error !== undefined && i === r.times.length;
    const time = r.times[i];
    cells.push(time !== undefined ? ms(time) : failed ? r.error! : "(skipped)");
  }
  for (let i = 1; i < steps; i++) {
    const [time, before = 0] = [r.times[i], r.times[i - 1]];
    cells.push(time === undefined ? "" : (time / Math.max(before, 0.01)).toFixed(1));
  }
  // Times under 2 ms are mostly noise: a ratio between two of them says nothing.
  const small = (r.times.at(-1) ?? Infinity) < 2;
  const cut = r.times.length < r.sizes.length || r.error !== undefined;
  cells.push(!cut && (worstRatio(r) <= goal || small) ? "yes" : "**no**");
  console.log(`| ${cells.join(" | ")} |`);
}

// ---------------------------------------------------------------------------------------------
// Inputs

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const encoder = new TextEncoder();

function po(body: string): Uint8Array {
  return encoder.encode(HEADER + body);
}

/** One entry with `n` distinct references, on `#:` lines of ~8 references each (as msgcat fills them). */
function manyReferences(n: number, perLine = 8): Uint8Array {
  const lines: string[] = [];
  for (let i = 0; i < n; i += perLine) {
    const refs: string[] = [];
    for (let k = i; k < Math.min(n, i + perLine); k++) refs.push(`src/f${k % 97}.py:${k}`);
    lines.push(`#: ${refs.join(" ")}`);
  }
  return po(`${lines.join("\n")}\nmsgid "a"\nmsgstr "b"\n`);
}

/** `n` entries with one msgid and distinct contexts. */
function sharedMsgid(n: number): Uint8Array {
  let s = "";
  for (let i = 0; i < n; i++) s += `msgctxt "c${i}"\nmsgid "same"\nmsgstr "x"\n\n`;
  return po(s);
}

/** `n` entries of distinct msgids alike at every place the duplicate check samples. */
function alikeMsgids(n: number): Uint8Array {
  const width = String(n * 16).length;
  let s = "";
  for (let i = 0; i < n; i++) {
    const digits = String(i).padStart(width, "0");
    s += `msgid "a${digits}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\nmsgstr "x"\n\n`;
  }
  return po(s);
}

/** `n` tiny entries. */
function tinyEntries(n: number): Uint8Array {
  let s = "";
  for (let i = 0; i < n; i++) s += `msgid "m${i}"\nmsgstr "t${i}"\n\n`;
  return po(s);
}

/** One msgstr of `n` characters (words of 7 letters), on one line. */
function longString(n: number): Uint8Array {
  return po(`msgid "long"\nmsgstr "${"abcdef ".repeat(Math.ceil(n / 7)).slice(0, n)}"\n`);
}

/** One msgstr of `n` characters with no break opportunity. */
function longWord(n: number): Uint8Array {
  return po(`msgid "long"\nmsgstr "${"x".repeat(n)}"\n`);
}

/** One translator comment of `n` characters. */
function longComment(n: number): Uint8Array {
  return po(`# ${"comment ".repeat(Math.ceil(n / 8)).slice(0, n)}\nmsgid "a"\nmsgstr "b"\n`);
}

/** One `#,` line of `n` flags. */
function manyFlags(n: number): Uint8Array {
  const known = ["fuzzy", "c-format", "python-format", "no-wrap", "x-unknown"];
  const flags = Array.from({ length: n }, (_, i) => known[i % known.length]);
  return po(`#, ${flags.join(", ")}\nmsgid "a"\nmsgstr "b"\n`);
}

/** `n` `#,` lines on one entry (only the last counts). */
function manyFlagLines(n: number): Uint8Array {
  return po(`${"#, fuzzy, c-format\n".repeat(n)}msgid "a"\nmsgstr "b"\n`);
}

/** `n` translator and `n` extracted comment lines on one entry. */
function manyCommentLines(n: number): Uint8Array {
  return po(`${"# translator\n".repeat(n)}${"#. extracted\n".repeat(n)}msgid "a"\nmsgstr "b"\n`);
}

/** One plural entry with `n` forms. */
function manyPluralForms(n: number): Uint8Array {
  let s = 'msgid "one"\nmsgid_plural "many"\n';
  for (let i = 0; i < n; i++) s += `msgstr[${i}] "f${i}"\n`;
  return po(s);
}

/** `n` strings of one line each making up one msgstr (`"..."` continuation lines). */
function manyStringPieces(n: number): Uint8Array {
  return po(`msgid "a"\nmsgstr ""\n${'"piece\\n"\n'.repeat(n)}`);
}

/** One `#:` line holding `n` references. */
function oneLongReferenceLine(n: number): Uint8Array {
  return manyReferences(n, n);
}

/** `n` domains of one message each. */
function manyDomains(n: number): Uint8Array {
  let s = "";
  for (let i = 0; i < n; i++) s += `domain "d${i}"\nmsgid "m"\nmsgstr "t"\n\n`;
  return po(s);
}

/** `n` Solaris-style `# File: NAME, line: N` comments on one entry. */
function manySolarisReferences(n: number): Uint8Array {
  let s = "";
  for (let i = 0; i < n; i++) s += `# File: src/f${i % 97}.py, line:${i}\n`;
  return po(`${s}msgid "a"\nmsgstr "b"\n`);
}

// ---------------------------------------------------------------------------------------------
// Paths

const parse = (bytes: Uint8Array) => parsePo(bytes);
/** Parse then lay out from scratch: what a cold read and a write of a new file cost. */
const parseAndEncode = (bytes: Uint8Array) => encodePo(parsePo(bytes));

/** A generator's file as msgcat lays it out, for `wrap`'s reading of a file's own lines to walk whole. */
const laidOut = (make: (n: number) => Uint8Array) => (n: number) => encodePo(parsePo(make(n)));
const readOwnLines = (bytes: Uint8Array) => knownLayout(bytes);
/** What a cold `/po/read` costs in the engine: parse, then every entry in the JSON shape. */
const parseAndList = (bytes: Uint8Array) => listEntries(parsePo(bytes, { strict: false }));

/** Apply a write to a new catalogue, then lay it out: what a `/po/write` of a new file costs. */
const writeAndEncode = (entries: WriteEntry[]) => encodePo(applyWrite(null, entries).catalog);

function tinyWrites(n: number): WriteEntry[] {
  return Array.from({ length: n }, (_, i): WriteEntry => ({ msgid: `m${i}`, msgstr: `t${i}` }));
}

/**
 * A keep write of one changed msgstr to a file of N entries laid out with `--no-wrap` (not msgcat's
 * layout): the entry laid out, the rest kept, read back, and the lines a re-layout would change counted.
 */
function unwrappedWrite(n: number): { bytes: Uint8Array; before: PoCatalog; after: PoCatalog } {
  const long = "a sentence long enough to be wrapped by msgcat at its seventy-nine columns, and then some";
  const entries = Array.from(
    { length: n },
    (_, i): WriteEntry => ({ msgid: `${long} ${i}`, msgstr: `${long} ${i}` }),
  );
  const bytes = encodePo(applyWrite(null, entries).catalog, { noWrap: true });
  const before = parsePo(bytes);
  const after = applyWrite(before, [{ msgid: `${long} ${n >> 1}`, msgstr: "changed" }]).catalog;
  return { bytes, before, after };
}

/** A msgid of N words, and a terminology of 1,000 terms (10 of them, with patterns, in the msgid). */
function termsInLongMsgid(n: number) {
  const rows = ["term,translation,kind,pattern"];
  for (let i = 0; i < 1000; i++) rows.push(`term${i} word,terme${i},glossary,term${i}* word*`);
  const terminology = buildTerminology({ file: { text: rows.join("\n") + "\n", source: "t.csv" } });
  const words = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? `term${i % 10}s words` : `w${i % 13}`));
  return { terminology, msgid: words.join(" ") };
}

/** The memory's score of two msgids of N bytes, one word in ten changed (fstrcmp, bit-parallel). */
function similarPair(n: number): { a: LcsPattern; b: Uint8Array } {
  const words = Array.from({ length: Math.ceil(n / 6) }, (_, i) => `w${i % 1000}`.padEnd(5, "x"));
  const a = words.join(" ").slice(0, n);
  const b = words.map((w, i) => (i % 10 === 0 ? "zzzzz" : w)).join(" ").slice(0, n);
  const utf8 = new TextEncoder();
  return { a: new LcsPattern(utf8.encode(a)), b: utf8.encode(b) };
}

interface Section<T> {
  name: string;
  sizes: number[];
  make: (n: number) => T;
  run: (input: T) => unknown;
}

function section<T>(
  name: string,
  sizes: number[],
  make: (n: number) => T,
  run: (input: T) => unknown,
): Section<T> {
  return { name, sizes, make, run };
}

async function main(): Promise<void> {
  const filter = Deno.args[0] ?? "";
  // deno-lint-ignore no-explicit-any
  const sections: Section<any>[] = [
    section("parse, N references on one entry", [25e3, 1e5, 4e5], manyReferences, parse),
    section("parse, N references on one #: line", [25e3, 1e5, 4e5], oneLongReferenceLine, parse),
    section("parse, N Solaris # File: references", [1e4, 4e4, 16e4], manySolarisReferences, parse),
    section("parse + layout, N references on one entry", [25e3, 1e5, 4e5], manyReferences, parseAndEncode),
    section(
      "applyWrite + layout, N occurrences in one entry",
      [25e3, 1e5, 4e5],
      (
        n,
      ) => [{
        msgid: "a",
        msgstr: "b",
        occurrences: Array.from({ length: n }, (_, i) => `src/f${i % 97}.py:${i}`),
      }],
      writeAndEncode,
    ),
    section("parse, N entries sharing one msgid", [1e4, 4e4, 16e4], sharedMsgid, parse),
    section("parse + list, N entries sharing one msgid", [1e4, 4e4, 16e4], sharedMsgid, parseAndList),
    section(
      "read_context, N entries sharing one msgid",
      [1e4, 4e4, 16e4],
      (n) => parsePo(sharedMsgid(n)),
      (cat) =>
        // A new catalogue object each time: the entry index is built, then searched.
        readContext({ ...cat }, "same", `c${cat.messages.length >> 1}`, 2),
    ),
    section(
      "applyWrite + layout, N new entries sharing one msgid",
      [1e4, 4e4, 16e4],
      (n) =>
        Array.from({ length: n }, (_, i): WriteEntry => ({ msgid: "same", msgctxt: `c${i}`, msgstr: "x" })),
      writeAndEncode,
    ),
    section(
      "applyWrite, update 1 of N entries sharing one msgid",
      [1e4, 4e4, 16e4],
      (n) => parsePo(sharedMsgid(n)),
      (cat) => applyWrite({ ...cat }, [{ msgid: "same", msgctxt: "c1", msgstr: "y" }]),
    ),
    section("parse, N distinct msgids alike where sampled", [1e4, 4e4, 16e4], alikeMsgids, parse),
    section("parse + layout, N tiny entries", [1e4, 4e4, 16e4], tinyEntries, parseAndEncode),
    section("parse + list, N tiny entries", [1e4, 4e4, 16e4], tinyEntries, parseAndList),
    section("applyWrite + layout, N new tiny entries", [1e4, 4e4, 16e4], tinyWrites, writeAndEncode),
    section(
      "applyWrite + read back, N new tiny entries",
      [1e4, 4e4, 16e4],
      tinyWrites,
      (entries) => parsePo(encodePo(applyWrite(null, entries).catalog)),
    ),
    section("parse + layout, a string of N characters", [25e4, 1e6, 4e6], longString, parseAndEncode),
    section("parse + layout, a word of N characters", [25e4, 1e6, 4e6], longWord, parseAndEncode),
    section("parse + layout, a comment of N characters", [25e4, 1e6, 4e6], longComment, parseAndEncode),
    section("parse + layout, N flags on one #, line", [25e3, 1e5, 4e5], manyFlags, parseAndEncode),
    section("parse + layout, N #, lines on one entry", [25e3, 1e5, 4e5], manyFlagLines, parseAndEncode),
    section(
      "parse + layout, 2N comment lines on one entry",
      [25e3, 1e5, 4e5],
      manyCommentLines,
      parseAndEncode,
    ),
    section("parse + layout, N domains of one message each", [1e4, 4e4, 16e4], manyDomains, parseAndEncode),
    section("parse + layout, N plural forms", [1e4, 4e4, 16e4], manyPluralForms, parseAndEncode),
    section("parse + layout, a msgstr of N string lines", [25e3, 1e5, 4e5], manyStringPieces, parseAndEncode),
    // wrap's reading of a file's own lines (lib/po/write/laid_out.ts), on the same shapes laid out.
    section("laid_out, N tiny entries", [1e4, 4e4, 16e4], laidOut(tinyEntries), readOwnLines),
    section("laid_out, N references on one entry", [25e3, 1e5, 4e5], laidOut(manyReferences), readOwnLines),
    section(
      "laid_out, N distinct msgids alike where sampled",
      [1e4, 4e4, 16e4],
      laidOut(alikeMsgids),
      readOwnLines,
    ),
    section("laid_out, a string of N characters", [25e4, 1e6, 4e6], laidOut(longString), readOwnLines),
    section(
      "laid_out, 2N comment lines on one entry",
      [25e3, 1e5, 4e5],
      laidOut(manyCommentLines),
      readOwnLines,
    ),
    section("laid_out, N plural forms", [1e4, 4e4, 16e4], laidOut(manyPluralForms), readOwnLines),
    section(
      "laid_out, a msgstr of N string lines (as read)",
      [25e3, 1e5, 4e5],
      manyStringPieces,
      readOwnLines,
    ),
    section(
      "keep write of one entry, N entries not in msgcat's layout",
      [2500, 1e4, 4e4],
      unwrappedWrite,
      ({ bytes, before, after }) => keptBytes(bytes, before, after, "keep"),
    ),
    section(
      "terms of a msgid of N words, 1,000 terms",
      [25e3, 1e5, 4e5],
      termsInLongMsgid,
      ({ terminology, msgid }) => termsInMsgid(terminology, msgid),
    ),
    // Quadratic by nature (an LCS): one comparison is bounded by MAX_COMPARISON_WORK (12,800 bytes
    // here is under it), a query by MAX_SCORE_WORK; a longer pair is counted as unscored.
    section(
      "memory score of two msgids of N bytes (quadratic; bounded per comparison)",
      [800, 3200, 12800],
      similarPair,
      ({ a, b }) => fuzzySimilarity(a, b, 0),
    ),
  ];
  const started = performance.now();
  printHeader();
  for (const s of sections) {
    if (s.name.includes(filter)) printRow(await measure(s.name, s.sizes, s.make, s.run));
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

if (import.meta.main) await main();
