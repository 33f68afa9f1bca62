import assert from "node:assert/strict";
import { drawnProgress, formatDuration, progressLine, terminalProgress } from "../cli/progress.ts";

Deno.test("the progress line shows files done of total, the percentage and the time left", () => {
  assert.equal(progressLine(0, 4, 0, 60), `[${".".repeat(40)}] 0/4 files  0%`);
  assert.equal(progressLine(1, 4, 1000, 60), `[${"#".repeat(9)}${".".repeat(25)}] 1/4 files  25%  ETA 3s`);
  assert.equal(progressLine(4, 4, 9000, 60), `[${"#".repeat(40)}] 4/4 files  100%`);
  assert.equal(
    progressLine(130, 521, 60_000, 80),
    `[${"#".repeat(10)}${".".repeat(30)}] 130/521 files  24%  ETA 3m00s`,
  );
});

Deno.test("the progress line fits a narrow terminal", () => {
  for (const columns of [0, 5, 20, 30, 200]) {
    const line = progressLine(37, 521, 5000, columns);
    assert.ok(line.length <= Math.max(0, columns - 1) || columns >= 30, `${columns}: ${line}`);
    assert.ok(line.length < Math.max(columns, 1), `${columns}: ${JSON.stringify(line)}`);
  }
});

Deno.test("durations read as seconds, minutes or hours", () => {
  assert.equal(formatDuration(0.4), "0s");
  assert.equal(formatDuration(59), "59s");
  assert.equal(formatDuration(61), "1m01s");
  assert.equal(formatDuration(3725), "1h02m");
});

Deno.test("the bar is redrawn in place at most once per interval, and cleared at the end", () => {
  let clock = 0;
  const out: string[] = [];
  const progress = drawnProgress(3, {
    write: (t) => out.push(t),
    now: () => clock,
    columns: 60,
    intervalMs: 100,
  });
  progress.tick(); // drawn: first
  clock += 10;
  progress.tick(); // too soon: not drawn
  clock += 10;
  progress.tick(); // the last one: always drawn
  progress.done();
  assert.equal(out.length, 3);
  assert.ok(out[0]?.startsWith("\r[") && out[0]?.includes("1/3 files"));
  assert.ok(out[1]?.startsWith("\r[") && out[1]?.includes("3/3 files"));
  assert.match(out[2] ?? "", /^\r +\r$/);
  assert.ok(out.every((t) => !t.includes("\n")), "one line, never a new one");
});

Deno.test("a run whose standard error is not a terminal shows no progress", () => {
  // Under `deno test` standard error is a pipe or a file, as in CI.
  if (Deno.stderr.isTerminal()) return;
  const progress = terminalProgress(10);
  progress.tick();
  progress.done();
  assert.equal(terminalProgress(10, { quiet: true }), terminalProgress(1));
});
