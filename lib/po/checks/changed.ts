/**
 * What a change introduces (`check --changed`, issue 35.3): the problems of a catalogue's new
 * version that its committed version did not have. Problems are matched by entry (msgctxt and
 * msgid) and check, never by line (a change moves lines) nor by message (a message quotes the
 * text, which a one-word fix changes): an entry that had two `rst-role` warnings and still has two
 * introduced none; a third is introduced.
 *
 * @module
 */
import type { CheckProblem } from "./_types.ts";

function keyOf(p: CheckProblem): string {
  return JSON.stringify([p.msgctxt, p.msgid, p.check]);
}

/**
 * The problems of `now` not matched by one of `before` (the same entry and check; each problem of
 * `before` matches once), in `now`'s order. `before` null: the file is new, all are introduced.
 *
 * @example
 * ```ts
 * introducedByEntry(committedProblems, stagedProblems); // what the commit adds
 * ```
 */
export function introducedByEntry(
  before: readonly CheckProblem[] | null,
  now: readonly CheckProblem[],
): CheckProblem[] {
  if (before === null) return [...now];
  const left = new Map<string, number>();
  for (const p of before) left.set(keyOf(p), (left.get(keyOf(p)) ?? 0) + 1);
  return now.filter((p) => {
    const n = left.get(keyOf(p)) ?? 0;
    if (n === 0) return true;
    left.set(keyOf(p), n - 1);
    return false;
  });
}
