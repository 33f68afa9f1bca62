import assert from "node:assert/strict";
import { git, installed, run, toolsRepo } from "./_hook_repo.ts";

/**
 * `wrap` where translation teams run it: a real `git commit` in a temporary repository, through a
 * plain git hook, through the pre-commit framework with this repository's `.pre-commit-hooks.yaml`
 * (when `pre-commit` is installed), and `deno task --cwd` from inside the translation repository.
 */

const LAID_OUT = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';
const UNWRAPPED =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n\nmsgid "a"\nmsgstr "b"\n';

/** A translation repository with one laid-out catalogue committed. */
async function translationRepo(parent: string, name: string): Promise<string> {
  const dir = `${parent}/${name}`;
  await Deno.mkdir(`${dir}/locales/fr`, { recursive: true });
  await Deno.writeTextFile(`${dir}/locales/fr/ok.po`, LAID_OUT);
  await git(dir, "init", "-q");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "-m", "start");
  return dir;
}

Deno.test("a plain git pre-commit hook running bin/wrap --check stops a commit until the file is wrapped", async () => {
  if (!(await installed("git"))) {
    console.log("not run: git is not installed");
    return;
  }
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "wrap_hook_" }));
  try {
    const tools = await toolsRepo(parent);
    const repo = await translationRepo(parent, "translations");
    // The hook of docs/wrap.md, verbatim but for the checkout's path.
    const hook = `#!/bin/sh\ngit diff --cached --name-only -z --diff-filter=ACMR -- '*.po' |\n` +
      `  xargs -0 -r ${tools.dir}/bin/wrap --check --quiet\n`;
    await Deno.writeTextFile(`${repo}/.git/hooks/pre-commit`, hook, { mode: 0o755 });
    await Deno.writeTextFile(`${repo}/locales/fr/new file.po`, UNWRAPPED);
    await git(repo, "add", ".");
    const refused = await run("git", ["commit", "-q", "-m", "add"], repo);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /Would rewrap: locales\/fr\/new file\.po/);

    // From inside the repository's subdirectory: relative paths are the caller's.
    const fixed = await run(`${tools.dir}/bin/wrap`, ["new file.po"], `${repo}/locales/fr`);
    assert.deepEqual([fixed.code, fixed.out], [0, ""]);
    // And the same through `deno task --cwd` (deno task sets INIT_CWD to where it was run).
    const task = await run(
      "deno",
      ["task", "-q", "--cwd", tools.dir, "wrap", "--check", "new file.po"],
      `${repo}/locales/fr`,
    );
    assert.deepEqual([task.code, task.out], [0, ""]);
    assert.equal(await Deno.readTextFile(`${repo}/locales/fr/new file.po`), LAID_OUT);
    await git(repo, "add", ".");
    const accepted = await run("git", ["commit", "-q", "-m", "add"], repo);
    assert.equal(accepted.code, 0, accepted.out);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("the pre-commit framework runs the po-tools-wrap hook of .pre-commit-hooks.yaml on a real commit", async () => {
  if (!(await installed("git"))) {
    console.log("not run: git is not installed");
    return;
  }
  if (!(await installed("pre-commit"))) {
    console.log(
      "NOT RUN: the pre-commit framework is not installed (apt-get install pre-commit; .ci/run does)",
    );
    return;
  }
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "wrap_precommit_" }));
  try {
    const tools = await toolsRepo(parent);
    const repo = await translationRepo(parent, "translations");
    const env = { PRE_COMMIT_HOME: `${parent}/cache`, HOME: parent };
    await Deno.writeTextFile(
      `${repo}/.pre-commit-config.yaml`,
      `repos:\n  - repo: ${tools.dir}\n    rev: ${tools.rev}\n    hooks:\n      - id: po-tools-wrap\n`,
    );
    await git(repo, "add", ".pre-commit-config.yaml");
    const install = await run("pre-commit", ["install"], repo, env);
    assert.equal(install.code, 0, install.out);
    const first = await run("git", ["commit", "-q", "-m", "config"], repo, env);
    assert.equal(first.code, 0, first.out);

    await Deno.writeTextFile(`${repo}/locales/fr/new.po`, UNWRAPPED);
    await git(repo, "add", ".");
    const refused = await run("git", ["commit", "-q", "-m", "add"], repo, env);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /files were modified by this hook/);
    assert.equal(await Deno.readTextFile(`${repo}/locales/fr/new.po`), LAID_OUT, "the hook rewrapped it");
    await git(repo, "add", ".");
    const accepted = await run("git", ["commit", "-q", "-m", "add"], repo, env);
    assert.equal(accepted.code, 0, accepted.out);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
