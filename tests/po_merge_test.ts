import assert from "node:assert/strict";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { mergeCatalogs, type MergeOptions, pluralCount } from "../lib/po/operations/merge.ts";
import { similarity } from "../lib/po/operations/_fuzzy_match.ts";
import { TooLargeError } from "../lib/errors.ts";
import type { PoCatalog } from "../lib/po/types.ts";
import { makeTemplate, type TemplateVariant } from "./_merge_templates.ts";
import { lacks, runs } from "./_prerequisites.ts";
import { poFixture } from "./_helpers.ts";
import { runMain } from "./_run_main.ts";

const FIXTURES = new URL("./fixtures/merge/", import.meta.url);
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);
const text = new TextDecoder();

function read(name: string): PoCatalog {
  return parsePo(Deno.readFileSync(new URL(name, FIXTURES)), name);
}

function merged(def: PoCatalog, ref: PoCatalog, options: MergeOptions): string {
  return text.decode(encodePo(mergeCatalogs(def, ref, options).catalog));
}

const HAS_MSGMERGE = runs("msgmerge");

function lacksMsgmerge(): boolean {
  if (lacks(import.meta.url, "shared")) return true;
  if (!HAS_MSGMERGE) {
    console.log("not run in po_merge_test.ts: tests that need msgmerge are ignored (not found)");
  }
  return !HAS_MSGMERGE;
}

Deno.test("mergeCatalogs gives msgmerge 0.21's bytes on the hand-made cases", async (t) => {
  const cases: [string, string, string, MergeOptions][] = [
    ["def.po", "ref.pot", "def-exact.out.po", { fuzzyMatching: false }],
    ["def.po", "ref.pot", "def-fuzzy.out.po", {}],
    ["def.po", "ref.pot", "def-previous.out.po", { previous: true }],
    ["latin1.po", "utf8.pot", "latin1-utf8.out.po", {}],
    ["noheader.po", "noheader.pot", "noheader.out.po", {}],
    ["noheader.po", "ref.pot", "noheader-ref.out.po", {}],
    ["formats.po", "formats.pot", "formats.out.po", {}],
  ];
  for (const [def, ref, golden, options] of cases) {
    await t.step(`${def} + ${ref} ${JSON.stringify(options)} → ${golden}`, () => {
      const expected = text.decode(Deno.readFileSync(new URL(golden, FIXTURES)));
      assert.equal(merged(read(def), read(ref), options), expected);
    });
  }
});

Deno.test("mergeCatalogs counts merged, fuzzied, missing and obsolete entries as msgmerge --verbose does", () => {
  const { stats } = mergeCatalogs(read("def.po"), read("ref.pot"));
  // msgmerge -v def.po ref.pot: "merged 7, fuzzied 3, missing 2, obsolete 2" (the header counts as merged).
  assert.deepEqual(stats, { merged: 7, fuzzied: 3, missing: 2, obsolete: 2, fuzzySkipped: 0 });
});

Deno.test("fuzzy matching stops when its budget is spent: the rest is added untranslated and counted", () => {
  const def = read("def.po");
  const ref = read("ref.pot");
  const capped = mergeCatalogs(def, ref, { fuzzyLimits: { maxComparisons: 0 } });
  assert.equal(capped.stats.fuzzied, 0);
  assert.equal(capped.stats.fuzzySkipped, 5);
  assert.equal(
    text.decode(encodePo(capped.catalog)),
    text.decode(Deno.readFileSync(new URL("def-exact.out.po", FIXTURES))),
    "with no budget the result is --no-fuzzy-matching's",
  );
});

Deno.test("pluralCount reads nplurals as gettext does, 2 when the expression does not parse", () => {
  assert.equal(pluralCount("Plural-Forms: nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;\n"), 3);
  assert.equal(pluralCount("Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"), 2);
  assert.equal(pluralCount("Plural-Forms: nplurals=4; plural=n = 1;\n"), 2);
  assert.equal(pluralCount(null), 2);
});

Deno.test("similarity is fstrcmp's 2·LCS/(|a|+|b|) over bytes, 0 below the bound", () => {
  const b = (s: string) => new TextEncoder().encode(s);
  assert.equal(similarity(b("Open the file"), b("Open the files"), 0), 26 / 27);
  assert.equal(similarity(b(""), b(""), 0.6), 1);
  assert.equal(similarity(b("abc"), b("xyz"), 0), 0);
  assert.equal(similarity(b("Print the whole document now"), b("Print the whole document"), 0.99), 0);
  // A long pair (a bit-parallel pass, not a quadratic table: its speed is bench/merge_corpus.ts's).
  const long = "x".repeat(20_000);
  assert.equal(similarity(b(long), b(long + "y"), 0.6), 40_000 / 40_001);
});

let accepted: string[] | undefined;

/** Corpus catalogues msgcat accepts (msgmerge reads the same). */
function corpusFiles(): string[] {
  return accepted ??= [...Deno.readDirSync(CORPUS)]
    .filter((e) => e.name.endsWith(".po"))
    .map((e) => e.name)
    .sort()
    .filter((name) =>
      new Deno.Command("msgcat", {
        args: [new URL(name, CORPUS).pathname, "-o", "/dev/null"],
        stderr: "null",
      })
        .outputSync().success
    );
}

async function msgmerge(def: string, pot: string, args: string[]): Promise<Uint8Array> {
  const out = await Deno.makeTempFile({ suffix: ".po" });
  try {
    const r = await new Deno.Command("msgmerge", {
      args: ["-q", ...args, def, pot, "-o", out],
      stderr: "piped",
    })
      .output();
    assert.ok(r.success, text.decode(r.stderr));
    return await Deno.readFile(out);
  } finally {
    await Deno.remove(out);
  }
}

const SAME: TemplateVariant = { dropEvery: 0, add: 0, editEvery: 0, shiftLines: 0 };
const CHANGED: TemplateVariant = { dropEvery: 5, add: 7, editEvery: 0, shiftLines: 3 };
const EDITED: TemplateVariant = { dropEvery: 5, add: 7, editEvery: 7, shiftLines: 3 };

/** A template variant, msgmerge's arguments, our options, and the largest catalogue to run it on. */
type Variant = [string, TemplateVariant, string[], MergeOptions, number];

async function differential(t: Deno.TestContext, variants: Variant[]): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of corpusFiles()) {
      const path = new URL(name, CORPUS).pathname;
      const size = Deno.statSync(path).size;
      const def = parsePo(Deno.readFileSync(path), name);
      for (const [label, variant, args, options, maxBytes] of variants) {
        if (size > maxBytes) continue;
        await t.step(`${name}, ${label}`, async () => {
          const ref = makeTemplate(def, variant);
          const pot = `${dir}/template.pot`;
          await Deno.writeFile(pot, encodePo(ref));
          const expected = await msgmerge(path, pot, args);
          const ours = encodePo(mergeCatalogs(def, parsePo(await Deno.readFile(pot), pot), options).catalog);
          assert.equal(text.decode(ours), text.decode(expected));
        });
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test(
  "merging every corpus catalogue with templates made from it gives msgmerge --no-fuzzy-matching's bytes",
  { ignore: lacksMsgmerge() },
  async (t) => {
    await differential(t, [
      ["its own template", SAME, ["--no-fuzzy-matching"], { fuzzyMatching: false }, 400_000],
      ["entries dropped, added, moved", CHANGED, ["--no-fuzzy-matching"], { fuzzyMatching: false }, Infinity],
    ]);
  },
);

Deno.test(
  "fuzzy merges of the corpus catalogues under 100 KB give msgmerge's bytes, with and without --previous",
  { ignore: lacksMsgmerge() },
  async (t) => {
    // msgmerge's fuzzy search takes 10 s and more on the largest: bench/merge_corpus.ts runs them all.
    await differential(t, [
      ["msgids edited (default mode)", EDITED, [], {}, 100_000],
      ["msgids edited, --previous", EDITED, ["--previous"], { previous: true }, 100_000],
    ]);
  },
);

Deno.test("POST /po/merge updates the catalogue in place as msgmerge --previous would", async () => {
  await using f = await poFixture({
    "fr.po": Deno.readFileSync(new URL("def.po", FIXTURES)),
    "app.pot": Deno.readFileSync(new URL("ref.pot", FIXTURES)),
  });
  const dry = await f.post("/po/merge", {
    file_path: f.path("fr.po"),
    template_path: f.path("app.pot"),
    dry_run: true,
  });
  assert.equal(dry.status, 200);
  assert.match(dry.type ?? "", /^application\/json/);
  assert.equal(dry.body.written, false);
  assert.deepEqual(
    Deno.readFileSync(f.path("fr.po")),
    Deno.readFileSync(new URL("def.po", FIXTURES)),
    "dry_run writes nothing",
  );
  const r = await f.post("/po/merge", { file_path: f.path("fr.po"), template_path: f.path("app.pot") });
  assert.equal(r.status, 200);
  assert.deepEqual(
    {
      written: r.body.written,
      merged: r.body.merged,
      fuzzied: r.body.fuzzied,
      missing: r.body.missing,
      obsolete: r.body.obsolete,
    },
    { written: true, merged: 7, fuzzied: 3, missing: 2, obsolete: 2 },
  );
  assert.equal(
    text.decode(Deno.readFileSync(f.path("fr.po"))),
    text.decode(Deno.readFileSync(new URL("def-previous.out.po", FIXTURES))),
  );
  const again = await f.post("/po/merge", { file_path: f.path("fr.po"), template_path: f.path("app.pot") });
  assert.equal(again.body.written, false, "merging again changes nothing");
});

Deno.test("POST /po/merge writes to output_path when given, and answers 404 for a missing catalogue", async () => {
  await using f = await poFixture({
    "fr.po": Deno.readFileSync(new URL("def.po", FIXTURES)),
    "app.pot": Deno.readFileSync(new URL("ref.pot", FIXTURES)),
  });
  const r = await f.post("/po/merge", {
    file_path: f.path("fr.po"),
    template_path: f.path("app.pot"),
    output_path: f.path("fr.new.po"),
    fuzzy_matching: false,
    previous: false,
  });
  assert.equal(r.status, 200);
  assert.equal(r.body.output_path, f.path("fr.new.po"));
  assert.equal(
    text.decode(Deno.readFileSync(f.path("fr.new.po"))),
    text.decode(Deno.readFileSync(new URL("def-exact.out.po", FIXTURES))),
  );
  assert.deepEqual(Deno.readFileSync(f.path("fr.po")), Deno.readFileSync(new URL("def.po", FIXTURES)));
  const missing = await f.post("/po/merge", {
    file_path: f.path("nope.po"),
    template_path: f.path("app.pot"),
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.detail, `File not found: ${f.path("nope.po")}`);
});

Deno.test("main.ts merge prints msgmerge's result, writes -o FILE, and with --update rewrites DEF only when it changed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(new URL("def.po", FIXTURES), `${dir}/fr.po`);
    await Deno.copyFile(new URL("ref.pot", FIXTURES), `${dir}/app.pot`);
    const golden = (name: string) => text.decode(Deno.readFileSync(new URL(name, FIXTURES)));
    const out = await runMain(dir, "merge", ["fr.po", "app.pot"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, golden("def-fuzzy.out.po"));
    assert.equal(out.stderr, "merge: stdout: merged 7, fuzzied 3, missing 2, obsolete 2.\n");
    const file = await runMain(dir, "merge", ["--previous", "-q", "fr.po", "app.pot", "-o", "fr.new.po"]);
    assert.equal(file.code, 0, file.stderr);
    assert.equal(file.stderr, "");
    assert.equal(text.decode(Deno.readFileSync(`${dir}/fr.new.po`)), golden("def-previous.out.po"));
    const update = await runMain(dir, "merge", ["-U", "--no-fuzzy-matching", "fr.po", "app.pot"]);
    assert.equal(update.code, 0, update.stderr);
    assert.equal(text.decode(Deno.readFileSync(`${dir}/fr.po`)), golden("def-exact.out.po"));
    const mtime = Deno.statSync(`${dir}/fr.po`).mtime;
    const again = await runMain(dir, "merge", ["-U", "-N", "fr.po", "app.pot"]);
    assert.match(again.stderr, /^merge: fr\.po \(unchanged\)/);
    assert.deepEqual(Deno.statSync(`${dir}/fr.po`).mtime, mtime);
    const bad = await runMain(dir, "merge", ["fr.po"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "merge: exactly 2 input files required, got 1 (main.ts merge --help)\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a merge whose fuzzy search would take long stops at its time bound and says how many it skipped", () => {
  const entry = (msgid: string, msgstr: string) => `msgid "${msgid}"\nmsgstr "${msgstr}"\n\n`;
  const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  let po = header;
  let pot = header;
  // Every msgid shares most 4-grams with every other: each search compares with all of them.
  for (let i = 0; i < 4000; i++) {
    po += entry(`the same long sentence about files and folders, number ${i}`, `t${i}`);
  }
  for (let i = 0; i < 4000; i++) {
    pot += entry(`the same long sentence about files and directories, no. ${i}`, "");
  }
  const def = parsePo(new TextEncoder().encode(po));
  const ref = parsePo(new TextEncoder().encode(pot));
  const started = performance.now();
  const { stats } = mergeCatalogs(def, ref, { fuzzyLimits: { maxMs: 200 } });
  const ms = performance.now() - started;
  assert.ok(stats.fuzzySkipped > 0, "the bound was reached");
  assert.equal(stats.fuzzied + stats.missing, 4000, "the skipped ones are added untranslated (missing)");
  assert.ok(stats.fuzzySkipped <= stats.missing);
  assert.ok(ms < 3000, `${ms} ms`);
});

Deno.test("a hostile nplurals cannot make a merge grow without bound: past a million forms it is refused", () => {
  const header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
    '"Plural-Forms: nplurals=1000; plural=n%1000;\\n"\n\n';
  let pot = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < 2000; i++) pot += `msgid "a${i}"\nmsgid_plural "b${i}"\nmsgstr[0] ""\nmsgstr[1] ""\n\n`;
  const def = parsePo(new TextEncoder().encode(header));
  const ref = parsePo(new TextEncoder().encode(pot), "t.pot");
  assert.throws(
    () => mergeCatalogs(def, ref, { fuzzyMatching: false }),
    (e: Error) => e instanceof TooLargeError && /more than 1000000 plural forms/.test(e.message),
  );
  // Real counts merge as msgmerge does.
  const small = parsePo(
    new TextEncoder().encode(header.replace("nplurals=1000; plural=n%1000", "nplurals=6; plural=n%6")),
  );
  assert.equal(
    mergeCatalogs(small, ref, { fuzzyMatching: false }).catalog.messages[1]?.msgstrPlural?.length,
    6,
  );
});

Deno.test("an obsolete entry msgmerge carries over keeps its #| lines, fuzzy or not, with or without --previous", async () => {
  const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  const po = header + 'msgid "a"\nmsgstr "b"\n\n' +
    '#~| msgid "old"\n#~ msgid "gone"\n#~ msgstr "parti"\n\n' +
    '#| msgid "older"\nmsgid "live"\nmsgstr "vivant"\n\n' +
    '#, fuzzy\n#~| msgid "old2"\n#~ msgid "gone2"\n#~ msgstr "parti2"\n';
  const pot = header + 'msgid "a"\nmsgstr ""\n';
  // msgmerge 0.21's output, in both modes (message_copy keeps prev_msgid of an entry made obsolete).
  const expected = header + 'msgid "a"\nmsgstr "b"\n\n' +
    '#~| msgid "old"\n#~ msgid "gone"\n#~ msgstr "parti"\n\n' +
    '#~| msgid "older"\n#~ msgid "live"\n#~ msgstr "vivant"\n\n' +
    '#, fuzzy\n#~| msgid "old2"\n#~ msgid "gone2"\n#~ msgstr "parti2"\n';
  const def = parsePo(new TextEncoder().encode(po), "fr.po");
  const ref = parsePo(new TextEncoder().encode(pot), "app.pot");
  for (const options of [{}, { previous: true }, { fuzzyMatching: false }]) {
    assert.equal(merged(def, ref, options), expected, JSON.stringify(options));
  }
  if (!HAS_MSGMERGE) return;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/fr.po`, po);
    await Deno.writeTextFile(`${dir}/app.pot`, pot);
    for (const args of [[], ["--previous"]]) {
      assert.equal(text.decode(await msgmerge(`${dir}/fr.po`, `${dir}/app.pot`, args)), expected);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a format the template newly declares (kde, tcl, …) makes the entry fuzzy when its translation breaks it, as msgmerge does", async () => {
  const header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n';
  const po = header +
    '#, c-format\nmsgid "One file"\nmsgid_plural "%1 files"\nmsgstr[0] "Un fichier"\nmsgstr[1] "%n fichiers"\n\n' +
    'msgid "%s files"\nmsgstr "%d fichiers"\n\nmsgid "%s dirs"\nmsgstr "%s dossiers"\n';
  const pot = header.replace('"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n', "") +
    '#, kde-format\nmsgid "One file"\nmsgid_plural "%1 files"\nmsgstr[0] ""\nmsgstr[1] ""\n\n' +
    '#, tcl-format\nmsgid "%s files"\nmsgstr ""\n\n#, tcl-format\nmsgid "%s dirs"\nmsgstr ""\n';
  // msgmerge 0.21's output (the case of gettext's test msgmerge-21, and tcl-format the same way).
  const expected = header +
    '#, fuzzy, kde-format\nmsgid "One file"\nmsgid_plural "%1 files"\nmsgstr[0] "Un fichier"\nmsgstr[1] "%n fichiers"\n\n' +
    '#, fuzzy, tcl-format\nmsgid "%s files"\nmsgstr "%d fichiers"\n\n#, tcl-format\nmsgid "%s dirs"\nmsgstr "%s dossiers"\n';
  const def = parsePo(new TextEncoder().encode(po), "fr.po");
  const ref = parsePo(new TextEncoder().encode(pot), "app.pot");
  assert.equal(merged(def, ref, {}), expected);
  if (!HAS_MSGMERGE) return;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/fr.po`, po);
    await Deno.writeTextFile(`${dir}/app.pot`, pot);
    assert.equal(text.decode(await msgmerge(`${dir}/fr.po`, `${dir}/app.pot`, [])), expected);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "merging every msgcat vector msgcat accepts with templates made from it gives msgmerge's bytes, in three modes",
  { ignore: lacksMsgmerge() },
  async (t) => {
    const vectors = new URL("../../shared/corpus/msgcat-vectors/", import.meta.url);
    const dir = await Deno.makeTempDir();
    let merges = 0;
    try {
      const names = [...Deno.readDirSync(vectors)].map((e) => e.name).filter((n) => n.endsWith(".po")).sort();
      for (const name of names) {
        const path = new URL(name, vectors).pathname;
        const accepted = new Deno.Command("msgcat", { args: [path, "-o", "/dev/null"], stderr: "null" })
          .outputSync().success;
        if (!accepted) continue;
        const def = parsePo(Deno.readFileSync(path), name);
        for (const [label, variant] of [["its own template", SAME], ["msgids edited", EDITED]] as const) {
          const pot = `${dir}/template.pot`;
          await Deno.writeFile(pot, encodePo(makeTemplate(def, variant)));
          const ref = parsePo(await Deno.readFile(pot), pot);
          const modes: [string[], MergeOptions][] = [[[], {}], [["--previous"], { previous: true }], [
            ["--no-fuzzy-matching"],
            { fuzzyMatching: false },
          ]];
          for (const [args, options] of modes) {
            await t.step(`${name}, ${label} ${args.join(" ")}`, async () => {
              assert.equal(merged(def, ref, options), text.decode(await msgmerge(path, pot, args)));
            });
            merges++;
          }
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.ok(merges >= 300, `${merges} merges`);
  },
);

Deno.test("a catalogue with charset=CHARSET merges as msgmerge merges it: its bytes, its warning, its refusals", async () => {
  // gettext's test msgmerge-5: msgcat refuses `charset=CHARSET` outside a .pot, msgmerge warns and
  // reads the file as ASCII; it cannot convert it to a UTF-8 template's charset, and drops the
  // non-ASCII bytes of such a file as invalid (we refuse that file instead).
  const header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=CHARSET\\n"\n\n';
  const po = header + 'msgid "a"\nmsgstr "b"\n';
  const potPlain = 'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n\nmsgid "new"\nmsgstr ""\n';
  const potUtf8 =
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr ""\n';
  const expected = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=CHARSET\\n"\n\n' +
    'msgid "a"\nmsgstr "b"\n\nmsgid "new"\nmsgstr ""\n';
  const warning = 'fr.po: warning: Charset "CHARSET" is not a portable encoding name.\n' +
    "               Message conversion to user's charset might not work.\n";
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/fr.po`, po);
    await Deno.writeTextFile(`${dir}/nonascii.po`, header + 'msgid "a"\nmsgstr "b\u00e9"\n');
    await Deno.writeTextFile(`${dir}/app.pot`, potPlain);
    await Deno.writeTextFile(`${dir}/utf8.pot`, potUtf8);
    const ok = await runMain(dir, "merge", ["-q", "fr.po", "app.pot"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, expected);
    assert.equal(ok.stderr, warning);
    const toUtf8 = await runMain(dir, "merge", ["-q", "fr.po", "utf8.pot"]);
    assert.equal(toUtf8.code, 1);
    assert.equal(toUtf8.stdout, "");
    assert.equal(
      toUtf8.stderr,
      warning + 'merge: present charset "CHARSET" is not a portable encoding name\n',
    );
    const nonAscii = await runMain(dir, "merge", ["-q", "nonascii.po", "app.pot"]);
    assert.equal(nonAscii.code, 1);
    assert.match(nonAscii.stderr, /invalid multibyte sequence/);
    // msgcat's refusal stays: wrap and the plain reader still refuse the file.
    assert.throws(() => parsePo(new TextEncoder().encode(po), "fr.po"), /not a portable encoding name/);
    const wrap = await runMain(dir, "wrap", ["--check", "fr.po"]);
    assert.notEqual(wrap.code, 0);
    if (!HAS_MSGMERGE) return;
    assert.equal(text.decode(await msgmerge(`${dir}/fr.po`, `${dir}/app.pot`, [])), expected);
    const gnu = new Deno.Command("msgmerge", { args: ["-q", "fr.po", "utf8.pot"], cwd: dir, stderr: "piped" })
      .outputSync();
    assert.equal(gnu.success, false);
    // (msgmerge indents its second line by a width that depends on how it was called.)
    const gnuErr = text.decode(gnu.stderr);
    assert.ok(gnuErr.startsWith(warning.split("\n")[0]! + "\n"), gnuErr);
    assert.match(gnuErr, /msgmerge: present charset "CHARSET" is not a portable encoding name\n$/);
    const msgcat = new Deno.Command("msgcat", { args: ["fr.po"], cwd: dir, stdout: "null", stderr: "null" });
    assert.equal(msgcat.outputSync().success, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("POST /po/merge merges a charset=CHARSET catalogue as msgmerge does and says msgmerge's warning; /po/write still refuses it", async () => {
  const po = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=CHARSET\\n"\n\nmsgid "a"\nmsgstr "b"\n';
  const pot = 'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr ""\n\nmsgid "new"\nmsgstr ""\n';
  // msgmerge 0.21's output (tests above check it against the installed msgmerge).
  const expected = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=CHARSET\\n"\n\n' +
    'msgid "a"\nmsgstr "b"\n\nmsgid "new"\nmsgstr ""\n';
  await using f = await poFixture({ "fr.po": po, "app.pot": pot, "other.po": po });
  const r = await f.post("/po/merge", { file_path: f.path("fr.po"), template_path: f.path("app.pot") });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.written, true);
  assert.deepEqual(r.body.warnings, [
    `${f.path("fr.po")}: warning: Charset "CHARSET" is not a portable encoding name. ` +
    "Message conversion to user's charset might not work.",
  ]);
  assert.equal(text.decode(Deno.readFileSync(f.path("fr.po"))), expected);
  // msgcat refuses the file, and so does every other write (the merged one too, read again).
  for (const file of ["fr.po", "other.po"]) {
    const w = await f.post("/po/write", { file_path: f.path(file), entries: [{ msgid: "a", msgstr: "c" }] });
    assert.equal(w.status, 422, JSON.stringify(w.body));
    assert.match(JSON.stringify(w.body), /CHARSET/);
  }
  assert.equal(text.decode(Deno.readFileSync(f.path("other.po"))), po);
  // msgfmt -c only warns of it: so does the check.
  const c = await f.post("/po/check", { file_path: f.path("other.po") });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  assert.deepEqual(c.body.problems.map((p: { check: string; severity: string }) => [p.check, p.severity]), [[
    "charset",
    "warning",
  ]]);
});
