/**
 * Unified diffs (3 lines of context) of two texts, as `diff -u` prints them: for `wrap --diff`,
 * and for a write's dry run, which must stay fast on a large catalogue whatever a request changes.
 *
 * The edit script is Myers' shortest one over lines. With a work bound ({@link DiffOptions}), the
 * texts are diffed in two steps instead: first over blocks (runs of lines ending with an empty
 * line: a catalogue's entries, compared as slices of the text), then over the lines of each
 * changed run of blocks, and unchanged runs are kept as their first and last three lines around a
 * count (no item per unchanged line of a large file). A step that would pass the bound replaces its
 * lines whole: the diff then applies all the same, and may only be longer than the shortest one.
 *
 * @module
 */

const CONTEXT = 3;
/** Beyond this many differing lines (or blocks) a run is replaced whole. */
const MAX_EDIT_DISTANCE = 2000;

/** Options of {@link unifiedDiff}. */
export interface DiffOptions {
  /**
   * Steps (Myers' diagonal moves and compares) the diff may take, about linear in time: past it,
   * changed parts are replaced whole rather than searched further. Default: no bound (only the
   * edit distance bound of 2000 lines, as `wrap --diff` has always had).
   */
  maxWork?: number;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else if (lines.length > 0) lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}

type Op = [kind: " " | "-" | "+", line: string];

/** Myers' V, reused by {@link editCount} (a call runs to its end). */
let furthest = new Int32Array(0);

/**
 * Myers' O(ND) search over two arrays: the D and the diagonal k where it reaches both ends, or null
 * when D exceeds `limit` or the steps taken (a diagonal tried, a pair compared) exhaust `work`.
 * `round(v, offset, d)` sees V before each round (what {@link myers} keeps to trace the script back).
 */
function myersSearch(
  a: readonly string[],
  b: readonly string[],
  limit: number,
  work: Work,
  v: Int32Array,
  round?: (v: Int32Array, offset: number, d: number) => void,
): { d: number; k: number } | null {
  const n = a.length, m = b.length;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  v[offset + 1] = 0;
  for (let d = 0; d <= max; d++) {
    round?.(v, offset, d);
    work.left -= d + 1;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
        ? v[offset + k + 1]!
        : v[offset + k - 1]! + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      work.left -= x - from;
      v[offset + k] = x;
      if (x >= n && y >= m) return { d, k };
    }
    if (work.left < 0) return null;
  }
  return null;
}

/** The V array {@link myersSearch} needs for these arrays and this limit. */
function vSize(a: readonly string[], b: readonly string[], limit: number): number {
  return 2 * Math.min(a.length + b.length, limit) + 3;
}

/**
 * Myers' shortest edit script of two arrays, or null when D exceeds `limit` or the steps taken
 * exhaust `work`.
 */
function myers(
  a: readonly string[],
  b: readonly string[],
  limit: number,
  work: Work = { left: Infinity },
): Op[] | null {
  const trace: Int32Array[] = [];
  const found = myersSearch(
    a,
    b,
    limit,
    work,
    new Int32Array(vSize(a, b, limit)),
    (v, offset, d) => trace.push(v.slice(offset - d - 1, offset + d + 2)),
  );
  return found === null ? null : backtrack(a, b, trace, found.d, found.k);
}

/**
 * The length D of the shortest edit script (lines removed + added), or -1 past `limit` or once
 * `work` is spent: {@link myers} without the trace, for counting only.
 */
function editCount(a: readonly string[], b: readonly string[], limit: number, work: Work): number {
  const size = vSize(a, b, limit);
  if (furthest.length < size) furthest = new Int32Array(size);
  return myersSearch(a, b, limit, work, furthest)?.d ?? -1;
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: Int32Array[],
  dEnd: number,
  kEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length, y = b.length, k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const vd = trace[d]!; // v before step d, for diagonals -d-1 … d+1
    const at = (kk: number) => vd[kk + d + 1]!; // -d-1 <= kk <= d+1
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push([" ", a[x]!]);
    }
    if (x === prevX) ops.push(["+", b[--y]!]);
    else ops.push(["-", a[--x]!]);
    k = prevK;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push([" ", a[x]!]);
  }
  return ops.reverse();
}

/** Every line of `a` removed, then every line of `b` added. */
function replaced(a: readonly string[], b: readonly string[], out: Op[]): void {
  for (const l of a) out.push(["-", l]);
  for (const l of b) out.push(["+", l]);
}

/** The work left to a bounded diff. */
interface Work {
  left: number;
}

/** Equal lines that no hunk shows, skipped: their count. */
type Skip = ["~", count: number];

/** A text's blocks: runs of lines each ending with an empty line (the last one may not), as slices. */
function blocksOf(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf("\n\n", at);
    if (end < 0) break;
    out.push(text.slice(at, end + 2));
    at = end + 2;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Lines in a block (as {@link splitLines} counts them). */
function lineCount(block: string): number {
  let n = 0;
  for (let at = block.indexOf("\n"); at >= 0; at = block.indexOf("\n", at + 1)) n++;
  return block.endsWith("\n") ? n : n + 1;
}

/**
 * Equal blocks as script items: all their lines when few, else the first and last {@link CONTEXT}
 * lines (all a hunk can show) around a skip, so a large file costs no item per unchanged line.
 */
function equalRun(blocks: readonly string[], from: number, to: number, out: (Op | Skip)[]): void {
  let count = 0;
  for (let q = from; q < to; q++) count += lineCount(blocks[q]!);
  if (count <= 2 * CONTEXT + 1) {
    for (let q = from; q < to; q++) for (const l of splitLines(blocks[q]!)) out.push([" ", l]);
    return;
  }
  const head: string[] = [];
  for (let q = from; q < to && head.length < CONTEXT; q++) {
    for (const l of splitLines(blocks[q]!)) if (head.length < CONTEXT) head.push(l);
  }
  const tail: string[] = [];
  for (let q = to - 1; q >= from && tail.length < CONTEXT; q--) {
    const lines = splitLines(blocks[q]!);
    for (let k = lines.length - 1; k >= 0 && tail.length < CONTEXT; k--) tail.push(lines[k]!);
  }
  for (const l of head) out.push([" ", l]);
  out.push(["~", count - 2 * CONTEXT]);
  for (let k = tail.length - 1; k >= 0; k--) out.push([" ", tail[k]!]);
}

/** The script of changed lines: the shortest one within `work`, or the lines replaced whole. */
function changedRun(a: readonly string[], b: readonly string[], work: Work, out: (Op | Skip)[]): void {
  const ops = work.left > 0 ? myers(a, b, MAX_EDIT_DISTANCE, work) : null;
  if (ops) { for (const op of ops) out.push(op); }
  else replaced(a, b, out as Op[]);
}

/** The edit script of two texts within `work`, by blocks then lines (see the module doc). */
function boundedScript(before: string, after: string, work: Work): (Op | Skip)[] {
  const a = blocksOf(before), b = blocksOf(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) {
    suf++;
  }
  const out: (Op | Skip)[] = [];
  equalRun(a, 0, pre, out);
  const midA = a.slice(pre, a.length - suf), midB = b.slice(pre, b.length - suf);
  const blockOps = myers(midA, midB, MAX_EDIT_DISTANCE, work) ??
    [...midA.map((t): Op => ["-", t]), ...midB.map((t): Op => ["+", t])];
  let i = 0, j = 0, k = 0;
  while (k < blockOps.length) {
    if (blockOps[k]![0] === " ") {
      const from = i;
      while (k < blockOps.length && blockOps[k]![0] === " ") {
        i++;
        j++;
        k++;
      }
      equalRun(midA, from, i, out);
      continue;
    }
    const removed: string[] = [], added: string[] = [];
    while (k < blockOps.length && blockOps[k]![0] !== " ") {
      if (blockOps[k]![0] === "-") { for (const l of splitLines(midA[i++]!)) removed.push(l); }
      else for (const l of splitLines(midB[j++]!)) added.push(l);
      k++;
    }
    changedRun(removed, added, work, out);
  }
  equalRun(a, a.length - suf, a.length, out);
  return out;
}

/**
 * How many lines a diff from `before` to `after` removes and adds (the `-` and `+` lines of
 * {@link unifiedDiff} with `maxWork`), without building the diff. When both texts have as many
 * blocks (a catalogue and its re-layout: the same entries in the same order), block i of one is
 * compared with block i of the other, a linear pass instead of a search over blocks; a changed
 * pair's lines are diffed within the work left, else counted whole.
 */
export function changedLineCount(before: string, after: string, maxWork: number): number {
  if (before === after) return 0;
  const work: Work = { left: maxWork };
  const a = blocksOf(before), b = blocksOf(after);
  let n = 0;
  if (a.length !== b.length) {
    for (const op of boundedScript(before, after, work)) if (op[0] === "-" || op[0] === "+") n++;
    return n;
  }
  for (let q = 0; q < a.length; q++) {
    if (a[q] === b[q]) continue;
    const la = splitLines(a[q]!), lb = splitLines(b[q]!);
    const d = work.left > 0 ? editCount(la, lb, MAX_EDIT_DISTANCE, work) : -1;
    n += d < 0 ? la.length + lb.length : d;
  }
  return n;
}

/**
 * A unified diff (3 lines of context) from `before` to `after`, both named `path`; "" when equal.
 *
 * @example
 * ```ts
 * unifiedDiff("a\nb\n", "a\nc\n", "f.po"); // "--- f.po\n+++ f.po\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 * ```
 */
export function unifiedDiff(before: string, after: string, path: string, options: DiffOptions = {}): string {
  if (before === after) return "";
  if (options.maxWork !== undefined) {
    return hunks(boundedScript(before, after, { left: options.maxWork }), path);
  }
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
  const ops: Op[] = [];
  for (let i = 0; i < pre; i++) ops.push([" ", a[i]!]);
  const middle = myers(midA, midB, MAX_EDIT_DISTANCE);
  if (middle) { for (const op of middle) ops.push(op); }
  else replaced(midA, midB, ops);
  for (let i = a.length - suf; i < a.length; i++) ops.push([" ", a[i]!]);
  return hunks(ops, path);
}

function isChange(op: Op | Skip): boolean {
  return op[0] === "-" || op[0] === "+";
}

/** The unified diff text of an edit script (skips stand for equal lines no hunk shows). */
function hunks(ops: readonly (Op | Skip)[], path: string): string {
  const parts: string[] = [`--- ${path}\n+++ ${path}\n`];
  let i = 0;
  // Line numbers (1-based) of ops[i] in a and b.
  const posA = new Int32Array(ops.length);
  const posB = new Int32Array(ops.length);
  let la = 1, lb = 1;
  for (let q = 0; q < ops.length; q++) {
    posA[q] = la;
    posB[q] = lb;
    const op = ops[q]!;
    if (op[0] === "~") {
      la += op[1]!;
      lb += op[1]!;
      continue;
    }
    if (op[0] !== "+") la++;
    if (op[0] !== "-") lb++;
  }
  while (i < ops.length) {
    if (!isChange(ops[i]!)) {
      i++;
      continue;
    }
    // A skip has CONTEXT equal lines on each side, so a hunk never reaches one.
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend the hunk while changes are within 2×CONTEXT lines of each other.
    for (;;) {
      while (end < ops.length && isChange(ops[end]!)) end++;
      let next = end;
      while (next < ops.length && ops[next]![0] === " ") next++;
      if (next < ops.length && isChange(ops[next]!) && next - end <= 2 * CONTEXT) end = next;
      else {
        end = Math.min(ops.length, end + CONTEXT);
        break;
      }
    }
    let countA = 0, countB = 0;
    for (let q = start; q < end; q++) {
      if (ops[q]![0] !== "+") countA++;
      if (ops[q]![0] !== "-") countB++;
    }
    const startA = countA === 0 ? posA[start]! - 1 : posA[start];
    const startB = countB === 0 ? posB[start]! - 1 : posB[start];
    parts.push(`@@ -${startA},${countA} +${startB},${countB} @@\n`);
    for (let q = start; q < end; q++) parts.push(`${ops[q]![0]}${ops[q]![1]}\n`);
    i = end;
  }
  return parts.join("");
}
