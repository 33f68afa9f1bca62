/**
 * The hooks that judge the change (issue 35.3) where translation teams run them: a real `git commit`
 * through the pre-commit framework with this repository's `.pre-commit-hooks.yaml`
 * (`po-tools-check-changed`), and `bin/wrap --check --changed` in a plain git hook. A commit that
 * fixes one word in a file with old warnings passes; one that introduces a broken role fails.
 */
import assert from "node:assert/strict";
import { BROKEN_ROLE, OLD, ONE_WORD_FIXED } from "./_changed_fixtures.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { git, installed, run, toolsRepo } from "./_hook_repo.ts";

const decoder = new TextDecoder();

/** msgcat's layout of a text (so the wrap hook has nothing to say of it). */
function laidOut(text: string): string {
  return decoder.decode(encodePo(parsePo(new TextEncoder().encode(text))));
}

Deno.test("pre-commit's po-tools-check-changed passes a one-word fix among old warnings, refuses a broken role", async () => {
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
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "check_precommit_" }));
  try {
    const tools = await toolsRepo(parent);
    const repo = `${parent}/python-docs-fr`;
    await Deno.mkdir(`${repo}/library`, { recursive: true });
    await Deno.writeTextFile(`${repo}/library/os.po`, laidOut(OLD));
    const env = { PRE_COMMIT_HOME: `${parent}/cache`, HOME: parent };
    // The snippet of docs/checks.md, as a team adopts it (but for the checkout's path and rev).
    await Deno.writeTextFile(
      `${repo}/.pre-commit-config.yaml`,
      `repos:\n  - repo: ${tools.dir}\n    rev: ${tools.rev}\n    hooks:\n      - id: po-tools-wrap-check\n      - id: po-tools-check-changed\n`,
    );
    await git(repo, "init", "-q");
    await git(repo, "add", ".");
    await git(repo, "commit", "-q", "--no-verify", "-m", "the team's catalogues, with old warnings");
    const install = await run("pre-commit", ["install"], repo, env);
    assert.equal(install.code, 0, install.out);

    // The old hook refuses the one-word fix: three warnings elsewhere in the file.
    await Deno.writeTextFile(`${repo}/library/os.po`, laidOut(ONE_WORD_FIXED));
    await git(repo, "add", ".");
    const strict = await run(
      "pre-commit",
      ["try-repo", tools.dir, "po-tools-check", "--files", "library/os.po"],
      repo,
      env,
    );
    assert.notEqual(strict.code, 0, strict.out);

    const fixed = await run("git", ["commit", "-q", "-m", "fix a typo"], repo, env);
    assert.equal(fixed.code, 0, fixed.out);

    await Deno.writeTextFile(`${repo}/library/os.po`, laidOut(BROKEN_ROLE));
    await git(repo, "add", ".");
    const broken = await run("git", ["commit", "-q", "-m", "break a role"], repo, env);
    assert.equal(broken.code, 1, broken.out);
    assert.match(broken.out, /library\/os\.po:\d+: rest-roles: msgstr: a role lacks its closing backtick/);
    assert.doesNotMatch(
      broken.out,
      /: (urls|whitespace|rest-role-targets): /,
      "old warnings are not reported",
    );
    assert.equal(
      (await git(repo, "log", "--oneline")).trim().split("\n").length,
      2,
      "the broken commit was refused",
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("a plain git hook running bin/wrap --check --changed judges only the staged catalogues", async () => {
  if (!(await installed("git"))) {
    console.log("not run: git is not installed");
    return;
  }
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "wrap_changed_" }));
  try {
    // A copy of the checkout: bin/wrap builds its bundle into the checkout's .cache/ on first use.
    const tools = await toolsRepo(parent);
    const repo = `${parent}/translations`;
    await Deno.mkdir(`${repo}/fr`, { recursive: true });
    // A file another tool wrote (not in msgcat's layout), and one that is.
    await Deno.writeTextFile(
      `${repo}/fr/transifex.po`,
      OLD.replace("\n\n#: ../../library/os.rst:12", "\n\n\n#: ../../library/os.rst:12"),
    );
    await Deno.writeTextFile(`${repo}/fr/ok.po`, laidOut(OLD));
    await git(repo, "init", "-q");
    await git(repo, "add", ".");
    await git(repo, "commit", "-q", "-m", "start");
    // The hook of docs/wrap.md, verbatim but for the checkout's path.
    await Deno.writeTextFile(
      `${repo}/.git/hooks/pre-commit`,
      `#!/bin/sh\nexec ${tools.dir}/bin/wrap --check --changed --quiet\n`,
      {
        mode: 0o755,
      },
    );
    await Deno.writeTextFile(`${repo}/fr/ok.po`, laidOut(ONE_WORD_FIXED));
    await git(repo, "add", ".");
    const passed = await run("git", ["commit", "-q", "-m", "fix a typo"], repo);
    assert.equal(passed.code, 0, passed.out);
    // Without --changed the untouched, unwrapped file would have stopped it.
    const all = await run(`${tools.dir}/bin/wrap`, ["--check", "--quiet", "fr"], repo);
    assert.equal(all.code, 1, all.out);
    assert.match(all.out, /Would rewrap: fr\/transifex\.po/);

    await Deno.writeTextFile(
      `${repo}/fr/ok.po`,
      ONE_WORD_FIXED.replace("\n\n#: ../../library/os.rst:12", "\n\n\n#: ../../library/os.rst:12"),
    );
    await git(repo, "add", ".");
    const refused = await run("git", ["commit", "-q", "-m", "unwrapped"], repo);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /Would rewrap: fr\/ok\.po/);
    assert.doesNotMatch(refused.out, /transifex/);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
