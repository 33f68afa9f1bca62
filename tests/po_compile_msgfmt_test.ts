/**
 * compile = msgfmt 0.21 (issue 41, point 2): the same verdict, exit status, messages and bytes on
 * each minimal case (the CLI run as users run it, the server over a real socket), and on every
 * catalogue of ../shared/corpus/po and of tests/fixtures (a differential run against msgfmt).
 */
import assert from "node:assert/strict";
import { compileMo, readForCompile } from "../lib/po/operations/compile.ts";
import { servedCatalogues } from "./_catalogue_server.ts";
import { HAS_MSGFMT, lacks } from "./_prerequisites.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys=uid"];
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url).pathname;
const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const text = new TextDecoder();

if (!HAS_MSGFMT) console.log("not run in po_compile_msgfmt_test.ts: the comparisons need msgfmt (not found)");

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

/** The minimal cases, each a catalogue. */
const CASES: Record<string, string> = {
  "newline-end": HEADER + 'msgid "a\\n"\nmsgstr "b"\n',
  "newline-begin": HEADER + 'msgid "a"\nmsgstr "\\nb"\n',
  "newline-fuzzy": HEADER + '#, fuzzy\nmsgid "a\\n"\nmsgstr "b"\n\nmsgid "c"\nmsgstr "d"\n',
  "newline-plural": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
    '"Plural-Forms: nplurals=2; plural=n>1;\\n"\n\nmsgid "\\none"\nmsgid_plural "two"\nmsgstr[0] "\\nun"\n' +
    'msgstr[1] "deux\\n"\n\nmsgctxt "c"\nmsgid ""\nmsgstr "\\nq"\n\nmsgid "w"\nmsgstr "\\nw\\n"\n',
  "nothing-translated": 'msgid "a"\nmsgstr ""\n',
  "header-only": HEADER + 'msgid "a"\nmsgstr ""\n',
  "creation-date-twice": 'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2024-01-01\\n"\n"X: a\\n"\n' +
    '"POT-Creation-Date: 2024-02-02\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
  "creation-date-last":
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPOT-Creation-Date: 2"\n\n' +
    'msgid "a"\nmsgstr "b"\n',
  "no-charset": 'msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\nmsgid "a"\nmsgstr "é"\n',
  "no-charset-latin1": 'msgid ""\nmsgstr "Project-Id-Version: x\\n"\n\nmsgid "a"\nmsgstr "\xe9"\n',
  "no-header-non-ascii": 'msgid "a"\nmsgstr "é"\n',
  "domains": HEADER + 'msgid "a"\nmsgstr "A"\n\ndomain "other"\n\nmsgid "b"\nmsgstr "B"\n',
};

/** A case's bytes ("no-charset-latin1" in ISO-8859-1, the others in UTF-8). */
function bytesOf(name: string): Uint8Array {
  const t = CASES[name]!;
  return name.endsWith("latin1") ? Uint8Array.from(t, (c) => c.charCodeAt(0)) : new TextEncoder().encode(t);
}

/** What msgfmt or our CLI did with a file: exit status, the MO (null: none), its stderr lines. */
interface Run {
  code: number;
  mo: Uint8Array | null;
  lines: string[];
}

async function runIn(dir: string, cmd: string, args: string[]): Promise<Run> {
  try {
    await Deno.remove(`${dir}/out.mo`);
  } catch {
    // none yet
  }
  const out = await new Deno.Command(cmd, { args, cwd: dir, env: { PO_LOCK_DIR: "beside", INIT_CWD: dir } })
    .output();
  let mo: Uint8Array | null = null;
  try {
    mo = await Deno.readFile(`${dir}/out.mo`);
  } catch {
    // msgfmt writes none when there is nothing to compile
  }
  return { code: out.code, mo, lines: text.decode(out.stderr).split("\n").filter((l) => l !== "") };
}

const msgfmt = (dir: string, extra: string[] = []) =>
  runIn(dir, "msgfmt", [...extra, "-o", "out.mo", "in.po"]);
const ours = (dir: string, extra: string[] = []) =>
  runIn(dir, Deno.execPath(), [
    "run",
    "-q",
    "--no-prompt",
    ...PERMISSIONS,
    MAIN,
    "compile",
    "-q",
    ...extra,
    "-o",
    "out.mo",
    "in.po",
  ]);

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** msgfmt's `FILE:LINE: message` lines (its warnings and counts worded its own way are left out). */
const located = (lines: string[]) => lines.filter((l) => /^in\.po:\d+: /.test(l));

for (const name of Object.keys(CASES)) {
  for (const extra of name === "newline-fuzzy" ? [[], ["--use-fuzzy"]] : [[]]) {
    Deno.test(
      `compile ${extra.join(" ")} agrees with msgfmt on the case ${name}`,
      { ignore: !HAS_MSGFMT },
      async () => {
        const dir = await Deno.makeTempDir();
        try {
          await Deno.writeFile(`${dir}/in.po`, bytesOf(name));
          const theirs = await msgfmt(dir, extra);
          const mine = await ours(dir, extra);
          assert.equal(mine.code, theirs.code, `exit status (msgfmt said: ${theirs.lines.join(" | ")})`);
          assert.ok(
            sameBytes(mine.mo, theirs.mo),
            `the same MO (or none): ${mine.mo?.length} / ${theirs.mo?.length}`,
          );
          assert.deepEqual(located(mine.lines), located(theirs.lines), "the same errors, at the same lines");
          const count = theirs.lines.find((l) => l.startsWith("msgfmt: found"));
          if (count !== undefined) {
            assert.ok(mine.lines.some((l) => l.endsWith(count.replace("msgfmt: ", ""))), count);
          }
          if (theirs.lines.some((l) => l.includes("Charset missing in header"))) {
            assert.ok(mine.lines.some((l) => l.includes("warning: Charset missing in header")));
          }
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    );
  }
}

/** {@link compileMo} of a case, read as the CLI and the server read it. */
function compileCase(name: string, useFuzzy = false) {
  const input = readForCompile(bytesOf(name), "in.po");
  return compileMo(input.catalog, {
    useFuzzy,
    missingCharset: input.missingCharset,
    msgstrLines: input.msgstrLines,
  });
}

Deno.test("the minimal cases say what msgfmt says (checked against msgfmt 0.21 when it is there)", () => {
  const end = compileCase("newline-end");
  assert.deepEqual(end.errors, [{
    line: 5,
    message: "'msgid' and 'msgstr' entries do not both end with '\\n'",
  }]);
  assert.ok(end.bytes !== null, "msgfmt still writes the MO");
  const plural = compileCase("newline-plural");
  assert.deepEqual(plural.errors.map((e) => e.line), [8, 16]);
  assert.equal(plural.fatalErrors, 5, "one line printed per entry, every error counted");
  assert.equal(compileCase("newline-fuzzy").fatalErrors, 0);
  assert.equal(compileCase("newline-fuzzy", true).fatalErrors, 1);
  assert.equal(compileCase("nothing-translated").bytes, null);
  const noCharset = readForCompile(bytesOf("no-charset"), "in.po");
  assert.equal(noCharset.missingCharset, "UTF-8");
  assert.equal(noCharset.warnings.length, 1);
  assert.equal(readForCompile(bytesOf("no-charset-latin1"), "in.po").missingCharset, "ISO-8859-1");
});

Deno.test("POST /po/compile: msgfmt's fatal error is a 422 naming the line, nothing is written", async () => {
  await using s = await servedCatalogues({
    "fr.po": CASES["newline-end"]!,
    "none.po": CASES["nothing-translated"]!,
  });
  const bad = await s.post("/po/compile", { file_path: s.path("fr.po") });
  assert.equal(bad.status, 422);
  assert.match(
    bad.body.detail,
    /msgfmt finds 1 fatal error and exits 1: line 5: 'msgid' and 'msgstr' entries do not both end with '\\n'/,
  );
  await assert.rejects(Deno.stat(s.path("fr.mo")), Deno.errors.NotFound);
  const none = await s.post("/po/compile", { file_path: s.path("none.po") });
  assert.equal(none.status, 200);
  assert.equal(none.body.written, false);
  assert.equal(none.body.bytes, 0);
  await assert.rejects(Deno.stat(s.path("none.mo")), Deno.errors.NotFound, "no file, as msgfmt writes none");
});

Deno.test("POST /po/compile compiles a non-ASCII catalogue without a charset, with msgfmt's warning", async () => {
  await using s = await servedCatalogues({ "fr.po": CASES["no-charset"]! });
  const r = await s.post("/po/compile", { file_path: s.path("fr.po") });
  assert.equal(r.status, 200);
  assert.match(r.body.warnings[0], /Charset missing in header/);
  const pairs = text.decode(await Deno.readFile(s.path("fr.mo")));
  assert.ok(pairs.includes("é"), "its bytes as they were");
});

/** Every .po under `dir`. */
function catalogues(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of [...Deno.readDirSync(d)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (e.isDirectory) walk(`${d}/${e.name}`);
      else if (e.isFile && e.name.endsWith(".po")) out.push(`${d}/${e.name}`);
    }
  };
  walk(dir);
  return out;
}

Deno.test(
  "differential: every corpus and fixture catalogue, compiled by us and by msgfmt: the same verdict, status and bytes",
  { ignore: !HAS_MSGFMT || lacks(import.meta.url, "shared") },
  async () => {
    const files = [...catalogues(CORPUS), ...catalogues(FIXTURES)];
    const dir = await Deno.makeTempDir();
    const differ: string[] = [];
    try {
      for (const file of files) {
        await Deno.copyFile(file, `${dir}/in.po`);
        const theirs = await msgfmt(dir);
        let status: number;
        let mo: Uint8Array | null = null;
        try {
          const input = readForCompile(await Deno.readFile(file), "in.po");
          const r = compileMo(input.catalog, {
            missingCharset: input.missingCharset,
            msgstrLines: input.msgstrLines,
          });
          status = r.fatalErrors > 0 ? 1 : 0;
          mo = r.bytes;
        } catch {
          status = 1; // refused: nothing written, as msgfmt writes nothing on a syntax error
        }
        if (status !== theirs.code || !sameBytes(mo, theirs.mo)) differ.push(file);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    console.log(
      `compile vs msgfmt: ${files.length - differ.length} of ${files.length} agree (status and bytes)`,
    );
    assert.deepEqual(differ, []);
  },
);
