/**
 * Runs `main.ts` as a user would, for the CLI tests of its modes; and Deno on a module, with a
 * deadline.
 *
 * @module
 */
import { childEnv } from "./_helpers.ts";

const text = new TextDecoder();

/** Runs `main.ts MODE ARGS` with the permissions of its deno task, in `cwd`. */
export async function runMain(cwd: string, mode: string, args: string[]) {
  const main = new URL("../main.ts", import.meta.url).pathname;
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env=INIT_CWD,PO_LOCK_DIR",
      "--allow-sys=uid",
      main,
      mode,
      ...args,
    ],
    cwd,
    // `deno task test` passes INIT_CWD on, and main.ts enters it: the caller's directory is cwd here.
    env: childEnv({ INIT_CWD: cwd }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: r.code, stdout: text.decode(r.stdout), stderr: text.decode(r.stderr) };
}

/**
 * Runs `deno ARGS` in `cwd` with NO_COLOR and no stdin; a child still running after `ms` is killed
 * (its `signal` says so), so a hang fails a test instead of hanging it.
 */
export async function runDenoWithin(args: string[], ms: number, cwd?: string): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  try {
    return await child.output();
  } finally {
    clearTimeout(timer);
  }
}
