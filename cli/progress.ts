/**
 * A progress bar for long command-line runs over many files (`wrap`, `check`, `merge`, `compile` over a
 * tree): one line on standard error, redrawn in place, `files done / total` with an estimate of the time
 * left. It draws only on a terminal: in a pipe, in CI, or with `--quiet` it says nothing, so the
 * command's own output (and a hook's log) is exactly what it was.
 *
 * @module
 */

/** What a run reports as it goes. */
export interface Progress {
  /** One more file is done. */
  tick(): void;
  /** Clears the line before something else is written to the terminal (the next tick draws it again). */
  clear(): void;
  /** The run is over: the line is cleared, so what follows starts on a clean line. */
  done(): void;
}

/** Where and when to draw. */
export interface ProgressOptions {
  /** Writes text to the terminal (standard error). */
  write(text: string): void;
  /** The terminal's width in columns (80 when unknown). */
  columns?: number;
  /** The clock, in milliseconds (for tests). */
  now?: () => number;
  /** The least time between two redraws, in milliseconds (default 100). */
  intervalMs?: number;
  /** What is counted (default "files"). */
  unit?: string;
}

/** A progress that draws nothing: for pipes, CI and `--quiet`. */
export const SILENT_PROGRESS: Progress = Object.freeze({ tick() {}, clear() {}, done() {} });

/** Seconds as `1h02m`, `3m05s` or `42s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}

/**
 * The line for `done` of `total` after `elapsedMs`, fitted to `columns`:
 * `[#######.............]  120/521 files  23%  ETA 3s`.
 */
export function progressLine(
  done: number,
  total: number,
  elapsedMs: number,
  columns: number,
  unit = "files",
) {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const eta = done === 0 || done >= total
    ? ""
    : `  ETA ${formatDuration((elapsedMs / done) * (total - done) / 1000)}`;
  const counts = ` ${String(done).padStart(String(total).length)}/${total} ${unit}  ${
    Math.floor(share * 100)
  }%${eta}`;
  const barWidth = Math.max(0, Math.min(40, columns - counts.length - 3));
  if (barWidth < 5) return counts.trimStart().slice(0, Math.max(0, columns - 1));
  const filled = Math.round(share * barWidth);
  return `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}]${counts}`;
}

/**
 * A progress bar over `total` items drawn with `options.write`, at most once per `intervalMs` (and at
 * the end). Call it only when standard error is a terminal; see {@link terminalProgress}.
 */
export function drawnProgress(total: number, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 100;
  const columns = options.columns ?? 80;
  const started = now();
  let done = 0;
  let drawnAt = -Infinity;
  let width = 0;
  const draw = () => {
    const line = progressLine(done, total, now() - started, columns, options.unit);
    // Spaces over what is left of a longer line before: `\r` alone would leave its end.
    options.write(`\r${line}${" ".repeat(Math.max(0, width - line.length))}`);
    width = line.length;
    drawnAt = now();
  };
  const clear = () => {
    if (width > 0) options.write(`\r${" ".repeat(width)}\r`);
    width = 0;
    drawnAt = -Infinity;
  };
  return {
    tick() {
      done++;
      if (now() - drawnAt >= interval || done === total) draw();
    },
    clear,
    done: clear,
  };
}

/**
 * The progress bar a command shows over `total` files: drawn on standard error when it is a terminal
 * and the run is not `quiet`, silent otherwise (also for a single file: nothing to watch).
 */
export function terminalProgress(total: number, options: { quiet?: boolean; unit?: string } = {}): Progress {
  if (options.quiet || total < 2 || !Deno.stderr.isTerminal()) return SILENT_PROGRESS;
  let columns = 80;
  try {
    // A pseudo-terminal whose size was never set says 0 columns: taken as unknown.
    columns = Deno.consoleSize().columns || 80;
  } catch {
    // no size to be had: 80 columns
  }
  const encoder = new TextEncoder();
  return drawnProgress(total, {
    columns,
    unit: options.unit,
    write(text) {
      try {
        const bytes = encoder.encode(text);
        for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
      } catch {
        // a closed terminal: the run goes on without its bar
      }
    },
  });
}
