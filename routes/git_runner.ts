/**
 * The real {@link GitRunner}: the one place the service runs a process. Read-only by construction:
 * only the subcommands the history tools use are run (`log`, `diff`, `ls-files`, `cat-file`,
 * `rev-parse`), each with options that keep a repository's configuration or content from running
 * anything or reaching out (no pager, no fsmonitor, no external diff, no signature checks, no
 * transport at all, so a partial clone cannot fetch; no implicit bare repository, so a directory
 * planted in a root cannot pass for one), with no `GIT_*` variable inherited (the environment is
 * cleared; system and global configuration are not read), optional locks off (a `git diff` would
 * otherwise refresh the index), literal pathspecs, its output bounded in bytes and its run in time,
 * and the process killed when the request is abandoned.
 *
 * @module
 */
import { TimeoutError, TooLargeError } from "../lib/errors.ts";
import {
  GitFailedError,
  type GitRunner,
  type GitRunOptions,
  GitUnavailableError,
  NotARepositoryError,
} from "../lib/history/mod.ts";

/** The subcommands run. */
const ALLOWED = new Set(["log", "diff", "ls-files", "cat-file", "rev-parse"]);

/** Options before every subcommand. */
const SAFE_OPTIONS = [
  "--no-pager",
  "--literal-pathspecs",
  "--no-replace-objects",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.pager=cat",
  "-c",
  "diff.external=",
  "-c",
  "log.showSignature=false",
  "-c",
  "protocol.allow=never",
  "-c",
  "safe.bareRepository=explicit",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "color.ui=false",
  "-c",
  "log.follow=false",
  "-c",
  "diff.renameLimit=1000",
];

/** The whole environment of a git run. */
const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_NO_LAZY_FETCH: "1",
  LC_ALL: "C",
};

/** Default time one git run may take. */
export const DEFAULT_GIT_TIME_LIMIT_MS = 30_000;

/** Most git processes running at once in this process; more wait their turn (or their request's end). */
export const MAX_GIT_PROCESSES = 4;
let running = 0;
const waiting: (() => void)[] = [];

/** Waits for a turn to run git; resolves the function that gives it back. */
async function turn(signal?: AbortSignal): Promise<() => void> {
  while (running >= MAX_GIT_PROCESSES) {
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener("abort", gone);
        resolve();
      };
      const gone = () => {
        const at = waiting.indexOf(wake);
        if (at >= 0) waiting.splice(at, 1);
        reject(signal!.reason);
      };
      waiting.push(wake);
      signal?.addEventListener("abort", gone, { once: true });
    });
  }
  running++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    running--;
    waiting.shift()?.();
  };
}

/** Processes running now (for tests). */
export function runningGitProcesses(): number {
  return running;
}

/** A runner of read-only git (see the module doc); `timeLimitMs` bounds each run. */
export function gitRunner(options: { timeLimitMs?: number; executable?: string } = {}): GitRunner {
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_GIT_TIME_LIMIT_MS;
  const executable = options.executable ?? "git";
  return {
    async run(cwd: string, args: readonly string[], run: GitRunOptions): Promise<Uint8Array> {
      if (!ALLOWED.has(args[0] ?? "")) throw new GitFailedError(`git ${args[0]} is not run here`);
      run.signal?.throwIfAborted();
      const release = await turn(run.signal);
      try {
        return await runOnce(cwd, args, run);
      } finally {
        release();
      }
    },
  };

  async function runOnce(cwd: string, args: readonly string[], run: GitRunOptions): Promise<Uint8Array> {
    const timer = AbortSignal.timeout(timeLimitMs);
    const signal = run.signal ? AbortSignal.any([run.signal, timer]) : timer;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(executable, {
        args: [...SAFE_OPTIONS, ...args],
        cwd,
        clearEnv: true,
        env: GIT_ENV,
        stdin: run.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
        signal,
      }).spawn();
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
        throw new GitUnavailableError("git may not be run: start the service with --allow-run=git");
      }
      if (error instanceof Deno.errors.NotFound) {
        throw new GitUnavailableError("git is not installed, or the directory is gone");
      }
      throw new GitUnavailableError(`cannot run git: ${(error as Error).message}`);
    }
    const writing = run.stdin === undefined ? Promise.resolve() : (async () => {
      const writer = child.stdin.getWriter();
      try {
        await writer.write(run.stdin!);
        await writer.close();
      } catch {
        // git stopped reading (killed, or failed): its status says why
      }
    })();
    const errors = readAtMost(child.stderr, 4096);
    const out = await readAtMost(child.stdout, run.maxBytes);
    if (out.over) {
      // Over the limit: the rest is not wanted.
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
    }
    const [status, stderr] = await Promise.all([child.status, errors, writing]).then(([s, e]) =>
      [s, e] as const
    );
    if (run.signal?.aborted) throw run.signal.reason;
    if (timer.aborted) throw new TimeoutError(`git ${args[0]} took longer than ${timeLimitMs} ms`);
    if (out.over) throw new TooLargeError(`git ${args[0]} printed more than ${run.maxBytes} bytes`);
    if (!status.success) {
      const reason = new TextDecoder().decode(stderr.bytes).trim().split("\n")[0]?.slice(0, 200) ||
        `exit status ${status.code}`;
      if (/not a git repository|cannot use bare repository/i.test(reason)) {
        throw new NotARepositoryError(`not in a git checkout: ${cwd}`);
      }
      throw new GitFailedError(`git ${args[0]} failed: ${reason}`);
    }
    return out.bytes;
  }
}

/** Reads `stream` to its end or past `max` bytes (then stops: `over`). */
async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        over = true;
        break;
      }
      chunks.push(value);
    }
  } catch {
    // the process was killed: what was read stands
  } finally {
    reader.cancel().catch(() => {});
  }
  if (over) return { bytes: new Uint8Array(0), over };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, over };
}
