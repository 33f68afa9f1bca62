/**
 * What the hook tests share: a command run as from a user's shell (with `deno` on PATH and a git
 * identity), `git`, whether a program is installed, and a committed copy of this checkout (what
 * pre-commit clones).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const decoder = new TextDecoder();
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.org",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.org",
};

/** Runs a command with `deno` on PATH; a hang fails (after 120 s) instead of hanging. */
export async function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  // As from a user's shell: no INIT_CWD (`deno task test` sets one, and deno task keeps an inherited
  // INIT_CWD, as npm does, so the nested `deno task --cwd` below would report the test runner's).
  const inherited = Deno.env.toObject();
  delete inherited.INIT_CWD;
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    clearEnv: true,
    env: { ...inherited, ...GIT_IDENTITY, NO_COLOR: "1", PATH: path, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const out = await child.output();
  clearTimeout(timer);
  assert.equal(out.signal, null, `${cmd} ${args.join(" ")} hung and was killed`);
  return { code: out.code, out: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await run("git", ["-c", "init.defaultBranch=main", ...args], cwd);
  assert.equal(r.code, 0, `git ${args.join(" ")}: ${r.out}`);
  return r.out;
}

export async function installed(cmd: string): Promise<boolean> {
  // In a then: a missing program makes the spawn throw at once, not reject.
  return await Promise.resolve().then(() =>
    new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" }).output()
  ).then((o) => o.success).catch(() => false);
}

/** A committed copy of this checkout's working tree (what pre-commit clones), and its HEAD. */
export async function toolsRepo(parent: string): Promise<{ dir: string; rev: string }> {
  const dir = `${parent}/po-tools`;
  await Deno.mkdir(dir);
  const copy = await run("cp", [
    "-R",
    ...["main.ts", "deno.json", "deno.lock", "bin", "cli", "lib", "routes", ".pre-commit-hooks.yaml"]
      .map((f) => `${ROOT}/${f}`),
    dir,
  ], parent);
  assert.equal(copy.code, 0, copy.out);
  await git(dir, "init", "-q");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "--no-verify", "-m", "po-tools");
  return { dir, rev: (await git(dir, "rev-parse", "HEAD")).trim() };
}
