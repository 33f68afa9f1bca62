import assert from "node:assert/strict";
import { type CheckCliIo, checkCliIo, runCheck } from "../cli/check.ts";
import { childEnv } from "./_helpers.ts";

const FIXTURES = new URL("./fixtures/checks/", import.meta.url).pathname;
const REPO = new URL("../", import.meta.url).pathname;

/** The real file access, with stdout and stderr kept. */
function capture(): CheckCliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { ...checkCliIo(), out: (l) => stdout.push(l), err: (l) => stderr.push(l), stdout, stderr };
}

Deno.test("main.ts check prints FILE:LINE: CHECK: MESSAGE per problem and exits 1", async () => {
  const io = capture();
  const status = await runCheck([`${FIXTURES}no_plural_forms.po`, `${FIXTURES}no_charset.po`], io);
  assert.equal(status, 1);
  assert.deepEqual(io.stdout, [
    `${FIXTURES}no_plural_forms.po:2: plural-forms: the header has no Plural-Forms field but the catalogue has ` +
    'plural entries (the first: msgid "some string"): set it for the language, e.g. "nplurals=2; plural=(n != 1);"',
    `${FIXTURES}no_plural_forms.po:6: plural-forms: this entry has plural forms, but the header has no ` +
    "Plural-Forms to say how many: add it to the header",
    `${FIXTURES}no_charset.po:2: charset: the header declares no charset: add "Content-Type: text/plain; charset=UTF-8"`,
  ]);
  assert.deepEqual(io.stderr, ["check: 3 problems in 2 files (plural-forms 2, charset 1)"]);
});

Deno.test("main.ts check exits 0 on clean files, 2 on a missing PATH or an unknown check", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/ok.po`,
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n',
    );
    const ok = capture();
    assert.equal(await runCheck([dir], ok), 0);
    assert.deepEqual(ok.stdout, []);
    assert.deepEqual(ok.stderr, ["check: 1 file, no problems"]);
    const missing = capture();
    assert.equal(await runCheck([`${dir}/none.po`, "-q"], missing), 2);
    assert.match(missing.stderr[0] ?? "", /^check: .*none\.po: /);
    const unknown = capture();
    assert.equal(await runCheck(["--checks=python-fromat", dir], unknown), 2);
    assert.match(unknown.stderr[0] ?? "", /unknown check "python-fromat"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts check --severity=error leaves warnings out", async () => {
  const all = capture();
  await runCheck([`${FIXTURES}cases.po`, "-q"], all);
  const errors = capture();
  await runCheck([`${FIXTURES}cases.po`, "-q", "--severity=error"], errors);
  assert.ok(errors.stdout.length > 0 && errors.stdout.length < all.stdout.length);
  assert.ok(
    errors.stdout.every((l) => !/: (whitespace|double-space|urls|tags|escapes|rest-emphasis): /.test(l)),
  );
});

Deno.test("bin/check runs the command with read access only, as the pre-commit hook does", async () => {
  const out = await new Deno.Command(`${REPO}bin/check`, {
    args: ["no_charset.po"],
    cwd: FIXTURES,
    env: childEnv({}),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1, new TextDecoder().decode(out.stderr));
  assert.match(new TextDecoder().decode(out.stdout), /^no_charset\.po:2: charset: /);
  const hooks = await Deno.readTextFile(`${REPO}.pre-commit-hooks.yaml`);
  assert.match(hooks, /- id: po-tools-check\n {2}name: .*\n {2}entry: bin\/check\n/);
});

Deno.test("main.ts check names msgfmt -c's line, or line 1 for a file without header: never line 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // No header entry: msgfmt names no line; the header entry belongs at line 1.
    await Deno.writeTextFile(`${dir}/nohdr.po`, 'msgid "a"\nmsgstr "b"\n');
    // A misplaced #| line: msgfmt and msgcat say "11:1: syntax error", at the keyword after the comment.
    await Deno.writeTextFile(
      `${dir}/prev.po`,
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#| msgid "old"\n#, fuzzy\nmsgid "new"\nmsgstr "n"\n',
    );
    const io = capture();
    assert.equal(await runCheck([`${dir}/nohdr.po`, `${dir}/prev.po`, "-q"], io), 1);
    assert.deepEqual(io.stdout.map((l) => l.slice(dir.length + 1).split(": ").slice(0, 2).join(": ") + ":"), [
      "nohdr.po:1: header:",
      "prev.po:6: syntax:",
    ]);
    if (new Deno.Command("msgfmt", { args: ["--version"], stdout: "null" }).outputSync().success) {
      const r = new Deno.Command("msgfmt", {
        args: ["-c", "-o", "/dev/null", "prev.po"],
        cwd: dir,
        stderr: "piped",
      })
        .outputSync();
      assert.match(new TextDecoder().decode(r.stderr), /^prev\.po:6:1: syntax error/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts check reads charset=CHARSET in a .po as msgfmt does (a warning) and warns of a domain directive", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/placeholder.po`,
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=CHARSET\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    );
    await Deno.writeTextFile(
      `${dir}/domains.po`,
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n\n' +
        'domain "other"\n\nmsgid "c"\nmsgstr "d"\n',
    );
    const io = capture();
    await runCheck([`${dir}/placeholder.po`, `${dir}/domains.po`, "-q"], io);
    assert.deepEqual(io.stdout.map((l) => l.slice(dir.length + 1).split(": ").slice(0, 2).join(": ") + ":"), [
      "placeholder.po:1: charset:",
      "domains.po:9: domains:",
    ]);
    const errors = capture();
    assert.equal(
      await runCheck([`${dir}/placeholder.po`, `${dir}/domains.po`, "-q", "--severity=error"], errors),
      0,
    );
    assert.deepEqual(errors.stdout, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
