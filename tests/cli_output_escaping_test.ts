// deno-lint-ignore-file no-control-regex -- control characters are what these tests look for
/**
 * The commands print file names and catalogue text escaped (`lib/terminal_text.ts`): run as users
 * run them (`main.ts check | wrap | compile | merge`) on files whose names hold a newline (forging a
 * line and a GitHub Actions `::error` command), ESC, BEL and CR, and on catalogues whose text holds
 * ESC; the printed bytes are checked. With `check --format=github`, each problem is one annotation
 * line whatever the file's name.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runMain } from "./_run_main.ts";

/** A name that forges a line of its own, and a GitHub Actions command, when printed raw. */
const FORGING = "a\n::error file=forged.po,line=1::forged\n.po";
/** A name that sends the terminal escape sequences, a bell and a carriage return. */
const ESCAPING = "b\x1b[31mred\x07\r.po";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
/** A catalogue with problems for `check`, whose text holds ESC (in a URL the check quotes). */
const CATALOGUE = HEADER + '#, python-format\nmsgid "%(n)s files"\nmsgstr "fichiers"\n\n' +
  'msgid "see https://example.com/\x1b]0;owned\x07x ok"\nmsgstr "voir"\n';
/** Not laid out as msgcat lays it out (a long line), with ESC in its text. */
const UNWRAPPED = HEADER + `msgid "${"long words ".repeat(10)}"\nmsgstr "x\x1b[2Jy"\n`;

/** Bytes a terminal or a GitHub runner would act on: controls other than the line breaks. */
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]/;

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "cli-escape-" }));
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, text);
  return dir;
}

/** Every line of an output, checked: no raw control, and none starts a workflow command. */
function assertSafe(output: string, label: string): string[] {
  const lines = output.split("\n");
  for (const line of lines) {
    assert.ok(!RAW_CONTROL.test(line), `${label}: a raw control character in ${JSON.stringify(line)}`);
    assert.ok(!line.startsWith("::"), `${label}: a forged workflow command: ${JSON.stringify(line)}`);
    assert.ok(!line.startsWith(".po"), `${label}: a name broken over lines: ${JSON.stringify(line)}`);
  }
  return lines;
}

Deno.test("check prints names and catalogue text escaped: one line per problem", async () => {
  const dir = await tree({ [FORGING]: CATALOGUE, [ESCAPING]: CATALOGUE });
  try {
    const r = await runMain(dir, "check", ["."]);
    assert.equal(r.code, 1, r.stderr);
    const lines = assertSafe(r.stdout, "check").filter((l) => l !== "");
    assertSafe(r.stderr, "check (stderr)");
    assert.ok(
      lines.includes(
        "a\\n::error file=forged.po,line=1::forged\\n.po:6: python-format: " +
          "msgstr lacks the placeholder %(n)s of the original: keep it (its place may change)",
      ),
      r.stdout,
    );
    assert.ok(lines.some((l) => l.startsWith("b\\x1b[31mred\\x07\\r.po:6: python-format: ")), r.stdout);
    assert.ok(
      lines.some((l) => /urls: msgstr lacks the URL https:\/\/example\.com\/\\x1b/.test(l)),
      r.stdout,
    );
    assert.equal(lines.length, 6, r.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check --format=github: one annotation per problem, the file name escaped as GitHub reads it back", async () => {
  const dir = await tree({ [FORGING]: CATALOGUE, [ESCAPING]: CATALOGUE });
  try {
    const r = await runMain(dir, "check", ["--format=github", "."]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, 6, r.stdout);
    for (const line of lines) {
      assert.match(line, /^::(error|warning) file=[^\n]*,line=\d+,title=[a-z-]+::/);
      assert.ok(!RAW_CONTROL.test(line), JSON.stringify(line));
    }
    assert.ok(
      lines.includes(
        "::error file=a%0A%3A%3Aerror file=forged.po%2Cline=1%3A%3Aforged%0A.po,line=6,title=python-format::" +
          "msgstr lacks the placeholder %25(n)s of the original: keep it (its place may change)",
      ),
      r.stdout,
    );
    assert.ok(lines.some((l) => l.startsWith("::error file=b\\x1b[31mred\\x07%0D.po,line=6,")), r.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrap --check and --diff print names and the diff's lines escaped", async () => {
  const dir = await tree({
    [FORGING]: UNWRAPPED,
    [ESCAPING]: UNWRAPPED,
    "bad\x1b[1m\n.po": 'msgid "x"\nmsgstr',
  });
  try {
    const check = await runMain(dir, "wrap", ["--check", "."]);
    assert.equal(check.code, 2, check.stderr);
    assert.equal(check.stdout, "");
    assertSafe(check.stderr, "wrap --check");
    assert.deepEqual(
      check.stderr.split("\n").filter((l) => l !== "").sort(),
      [
        "Would rewrap: a\\n::error file=forged.po,line=1::forged\\n.po",
        "Would rewrap: b\\x1b[31mred\\x07\\r.po",
        "wrap: bad\\x1b[1m\\n.po:2:7: syntax error: expected a string, found end of file",
      ].sort(),
    );
    const diff = await runMain(dir, "wrap", ["--diff", ESCAPING]);
    assert.equal(diff.code, 1, diff.stderr);
    assertSafe(diff.stdout, "wrap --diff");
    assert.ok(
      diff.stdout.startsWith("--- b\\x1b[31mred\\x07\\r.po\n+++ b\\x1b[31mred\\x07\\r.po\n"),
      diff.stdout,
    );
    assert.ok(diff.stdout.includes('\n msgstr "x\\x1b[2Jy"\n'), diff.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compile and merge print names and catalogue text escaped", async () => {
  const bad = HEADER.replace("UTF-8", "X\x1b[31m") + 'msgid "a"\nmsgstr "b"\n';
  const dir = await tree({
    [FORGING]: HEADER + 'msgid "a"\nmsgstr "b"\n',
    [ESCAPING.replace(".po", ".pot")]: HEADER + 'msgid "a"\nmsgstr ""\n',
    "charset.po": bad,
  });
  try {
    const compiled = await runMain(dir, "compile", [FORGING]);
    assert.equal(compiled.code, 0, compiled.stderr);
    assertSafe(compiled.stderr, "compile");
    assert.equal(
      compiled.stderr,
      "compile: a\\n::error file=forged.po,line=1::forged\\n.mo: 2 messages, 0 fuzzy and 0 untranslated left out\n",
    );
    const refused = await runMain(dir, "compile", ["charset.po"]);
    assert.equal(refused.code, 1);
    assertSafe(refused.stderr, "compile (charset)");
    assert.match(refused.stderr, /^compile: charset\.po: .*"X\\x1b\[31m"/);

    const merged = await runMain(dir, "merge", ["-o", ESCAPING, FORGING, ESCAPING.replace(".po", ".pot")]);
    assert.equal(merged.code, 0, merged.stderr);
    assertSafe(merged.stderr, "merge");
    assert.equal(
      merged.stderr,
      "merge: b\\x1b[31mred\\x07\\r.po: merged 2, fuzzied 0, missing 0, obsolete 0.\n",
    );
    const missing = await runMain(dir, "merge", ["nope\x1b[2J\n.po", FORGING]);
    assert.equal(missing.code, 1);
    assertSafe(missing.stderr, "merge (missing)");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
