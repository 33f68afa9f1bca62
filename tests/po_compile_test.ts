import assert from "node:assert/strict";
// @ts-types="@types/gettext-parser"
import { mo } from "gettext-parser";
import { compileMo, type CompileOptions } from "../lib/po/operations/compile.ts";
import type { PoCatalog } from "../lib/po/types.ts";
import { parsePo } from "../lib/po/mod.ts";
import { compareBytes, readMoPairs } from "../lib/po/operations/_mo_layout.ts";
import { PoSyntaxError } from "../lib/errors.ts";
import { lacks, runs } from "./_prerequisites.ts";
import { poFixture } from "./_helpers.ts";
import { runMain } from "./_run_main.ts";

const FIXTURES = new URL("./fixtures/merge/", import.meta.url);
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);
const text = new TextDecoder();

/** {@link compileMo}, for a catalogue it writes an MO file for. */
function compile(cat: PoCatalog, options?: CompileOptions) {
  const r = compileMo(cat, options);
  assert.ok(r.bytes !== null, "an MO file is written");
  return { ...r, bytes: r.bytes };
}

function fixture(name: string) {
  return parsePo(Deno.readFileSync(new URL(name, FIXTURES)), name);
}

const HAS_MSGFMT = runs("msgfmt") && runs("msgunfmt");

function lacksGettext(...needs: "shared"[]): boolean {
  if (lacks(import.meta.url, ...needs)) return true;
  if (!HAS_MSGFMT) {
    console.log("not run in po_compile_test.ts: tests that need msgfmt and msgunfmt are ignored (not found)");
  }
  return !HAS_MSGFMT;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The system-dependent strings of an MO file, read here independently of `_mo_layout.ts` (the
 * manual's "The Format of GNU MO Files"), each segment shown as msgunfmt shows it (`<PRIu32>`, `I`).
 */
function readSysdep(
  bytes: Uint8Array,
  decoder: TextDecoder = text,
): { segments: string[]; strings: [string, string][] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const segments: string[] = [];
  for (let i = 0; i < u32(28); i++) {
    const at = u32(32) + 8 * i;
    segments.push(text.decode(bytes.subarray(u32(at + 4), u32(at + 4) + u32(at) - 1)));
  }
  const read = (descriptor: number) => {
    let at = u32(descriptor);
    let out = "";
    for (let d = descriptor + 4;; d += 8) {
      out += decoder.decode(bytes.subarray(at, at + u32(d)));
      at += u32(d);
      if (u32(d + 4) === 0xffffffff) break;
      const name = segments[u32(d + 4)]!;
      out += name.length > 1 ? `<${name}>` : name;
    }
    assert.equal(out.at(-1), "\0", "each string ends in NUL");
    return out.slice(0, -1);
  };
  const strings: [string, string][] = [];
  for (let j = 0; j < u32(36); j++) strings.push([read(u32(u32(40) + 4 * j)), read(u32(u32(44) + 4 * j))]);
  return { segments, strings };
}

async function msgunfmt(bytes: Uint8Array): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".mo" });
  try {
    await Deno.writeFile(file, bytes);
    const r = await new Deno.Command("msgunfmt", { args: [file], stderr: "piped" }).output();
    assert.ok(r.success, text.decode(r.stderr));
    return text.decode(r.stdout);
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("compileMo leaves out fuzzy, untranslated and obsolete entries as msgfmt does, and keeps plural and context entries", () => {
  const result = compile(fixture("compile.po"));
  assert.equal(result.messages, 8);
  assert.equal(result.fuzzySkipped, 1);
  assert.equal(result.untranslatedSkipped, 2);
  // An independent reader: gettext-parser's MO parser.
  const table = mo.parse(Buffer.from(result.bytes));
  assert.deepEqual(table.translations["menu"]!["Open"]!.msgstr, ["Ouvrir"]);
  assert.deepEqual(table.translations[""]!["Open"]!.msgstr, ["Ouvert"]);
  assert.deepEqual(table.translations[""]!["One file"]!.msgstr, ["Un fichier", "%d fichiers"]);
  assert.equal(table.translations[""]!["Fuzzy one"], undefined);
  assert.equal(table.translations[""]!["Untranslated"], undefined);
  assert.equal(table.translations[""]!["Only the second form"], undefined, "msgfmt needs the first form");
  const header = text.decode(readMoPairs(result.bytes)[0]?.str);
  assert.equal(
    header,
    "Project-Id-Version: demo 1.0\nLanguage: fr\nContent-Type: text/plain; charset=UTF-8\n" +
      "Plural-Forms: nplurals=2; plural=(n > 1);\nX-Note:   spaced value  \n",
    "msgfmt's header: POT-Creation-Date gone, the rest as written (gettext-parser alone lowercases the charset)",
  );
  assert.equal(compile(fixture("compile.po"), { useFuzzy: true }).messages, 9);
});

Deno.test("compileMo sorts the strings in byte order, the order libintl binary-searches", () => {
  const ids = readMoPairs(compile(fixture("compile.po")).bytes).map((p) => p.id);
  for (let i = 1; i < ids.length; i++) {
    assert.ok(compareBytes(ids[i - 1]!, ids[i]!) < 0, `pair ${i} in byte order`);
  }
  // "a！" (EF BC 81) before "a😀" (F0 9F 98 80); by UTF-16 units gettext-parser puts them the other way.
  const order = ids.map((id) => text.decode(id));
  assert.ok(order.indexOf("a！") < order.indexOf("a😀"));
});

Deno.test("compileMo refuses what msgfmt refuses: duplicates, also across domains, which msgfmt -o merges", () => {
  const dup = parsePo(new TextEncoder().encode('msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n'), {
    fileName: "d.po",
    strict: false,
  });
  assert.throws(
    () => compile(dup),
    (e: Error) => e instanceof PoSyntaxError && /duplicate message definition/.test(e.message),
  );
  const domains = parsePo(
    new TextEncoder().encode('msgid "a"\nmsgstr "1"\n\ndomain "other"\nmsgid "b"\nmsgstr "2"\n'),
  );
  // msgfmt -o puts every domain into the one file; the same msgid in two domains is a duplicate.
  assert.deepEqual(readMoPairs(compile(domains).bytes).map((p) => text.decode(p.id)), ["a", "b"]);
  const twice = parsePo(
    new TextEncoder().encode('msgid "a"\nmsgstr "1"\n\ndomain "other"\nmsgid "a"\nmsgstr "2"\n'),
  );
  assert.throws(() => compile(twice), /duplicate message definition/);
});

Deno.test(
  "msgunfmt reads our MO of the hand-made catalogue as it reads msgfmt's",
  { ignore: lacksGettext() },
  async () => {
    for (
      const [options, golden] of [[{}, "compile.msgunfmt.po"], [
        { useFuzzy: true },
        "compile-fuzzy.msgunfmt.po",
      ]] as const
    ) {
      const expected = text.decode(Deno.readFileSync(new URL(golden, FIXTURES)));
      assert.equal(await msgunfmt(compile(fixture("compile.po"), options).bytes), expected, golden);
    }
  },
);

Deno.test(
  "for every corpus catalogue msgfmt accepts, our MO is msgfmt's byte for byte, and msgunfmt reads them alike",
  { ignore: lacksGettext("shared") },
  async (t) => {
    const dir = await Deno.makeTempDir();
    let sysdep = 0;
    try {
      for (
        const name of [...Deno.readDirSync(CORPUS)].map((e) => e.name).filter((n) => n.endsWith(".po")).sort()
      ) {
        const path = new URL(name, CORPUS).pathname;
        const gnu = `${dir}/gnu.mo`;
        const accepted =
          (await new Deno.Command("msgfmt", { args: [path, "-o", gnu], stderr: "null" }).output())
            .success;
        if (!accepted) continue;
        await t.step(name, async () => {
          const ours = compile(parsePo(await Deno.readFile(path), { fileName: name, strict: false }));
          const theirs = await Deno.readFile(gnu);
          // xz's catalogues hold <inttypes.h> directives: minor revision 1, sysdep tables.
          if (new DataView(theirs.buffer).getUint32(4, true) !== 0) sysdep++;
          assert.equal(await msgunfmt(ours.bytes), await msgunfmt(theirs));
          assert.ok(equalBytes(ours.bytes, theirs), "the same bytes as msgfmt's MO");
        });
      }
      assert.ok(sysdep >= 3, `catalogues with system-dependent strings among them: ${sysdep}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("compileMo writes <inttypes.h> directives and the I flag as system-dependent strings, as msgfmt 0.21 does", () => {
  const result = compile(fixture("compile-sysdep.po"));
  assert.equal(result.messages, 8, "the header, 3 static pairs and 4 system-dependent ones");
  assert.equal(result.fuzzySkipped, 1);
  const view = new DataView(result.bytes.buffer, result.bytes.byteOffset);
  assert.equal(view.getUint32(4, true), 0x10001, "minor revision 1; major 1 because of the I flag");
  // Static pairs: the header, a string not flagged c-format, and one that is no valid C format.
  assert.deepEqual(readMoPairs(result.bytes).map((p) => text.decode(p.id)), [
    "",
    "Invalid: %<PRIu32> at 100%",
    "Not a format: %<PRIu32>",
    "Plain %d",
  ]);
  assert.deepEqual(readSysdep(result.bytes), {
    segments: ["PRIu32", "PRIu64", "PRIdMAX", "I"],
    strings: [
      ["Using up to %<PRIu32> threads.", "Jusqu'à %<PRIu32> threads seront utilisés."],
      ["%s: %<PRIu64> byte\0%s: %<PRIu64> bytes", "%s : %<PRIu64> octet\0%s : %<PRIu64> octets"],
      ["size\u0004at most %<PRIdMAX>", "au plus %<PRIdMAX>, soit %<PRIu32> ko"],
      ["%d files", "%Id fichiers"],
    ],
  });
});

/** C-format translations, and whether msgfmt 0.21 writes each as a system-dependent string. */
const DIRECTIVE_CASES: readonly [string, boolean][] = [
  ["%<PRIu32>", true],
  ["%1$<PRIu32> %2$s", true],
  ["%2$<PRIu32> %1$s", true],
  ["%1$<PRIu32> %1$<PRIu32>", true],
  ["%-10<PRIxLEAST16> %.*<PRIdFAST64>", true],
  ["%'I<PRIu8> %@", true],
  ["%Id", true],
  ["100%% %<PRIXPTR>", true],
  ["%2$<PRIu32>", false], // argument 1 never used
  ["%1$<PRIu32> %s", false], // numbered and unnumbered mixed
  ["%1$<PRIu32> %1$s", false], // one argument, two types
  ["%<PRIu31>", false],
  ["%<PRIuMAX", false],
  ["%<PRIu32> %y", false],
  ["%<PRIu32> at 100%", false],
];

function directiveCatalogue(): Uint8Array {
  const entries = DIRECTIVE_CASES.map(([str], i) => `#, c-format\nmsgid "case ${i}"\nmsgstr "${str}"\n`);
  return new TextEncoder().encode(
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + entries.join("\n"),
  );
}

Deno.test("compileMo finds the directives msgfmt's C format parser finds, in valid format strings only", () => {
  const result = compile(parsePo(directiveCatalogue(), "cases.po"));
  assert.deepEqual(
    readSysdep(result.bytes).strings.map(([id]) => id),
    DIRECTIVE_CASES.flatMap(([, sysdep], i) => sysdep ? [`case ${i}`] : []),
  );
});

Deno.test("msgfmt writes the same bytes for every directive case", { ignore: lacksGettext() }, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/cases.po`, directiveCatalogue());
    const r = await new Deno.Command("msgfmt", { args: [`${dir}/cases.po`, "-o", `${dir}/gnu.mo`] }).output();
    assert.ok(r.success);
    const ours = compile(parsePo(directiveCatalogue(), "cases.po")).bytes;
    assert.ok(equalBytes(ours, await Deno.readFile(`${dir}/gnu.mo`)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** compile-sysdep.po in ISO-8859-1 (its text is all Latin-1). */
function latin1Sysdep(): Uint8Array {
  const utf8 = text.decode(Deno.readFileSync(new URL("compile-sysdep.po", FIXTURES)));
  return Uint8Array.from(utf8.replace("charset=UTF-8", "charset=ISO-8859-1"), (c) => c.charCodeAt(0));
}

Deno.test("compileMo cuts system-dependent strings in the catalogue's own charset", () => {
  const result = compile(parsePo(latin1Sysdep(), "latin1.po"));
  const sysdep = readSysdep(result.bytes, new TextDecoder("latin1"));
  assert.deepEqual(sysdep.strings[0], [
    "Using up to %<PRIu32> threads.",
    "Jusqu'à %<PRIu32> threads seront utilisés.",
  ]);
  assert.equal(sysdep.strings.length, 4);
});

Deno.test(
  "msgfmt writes the same bytes for the catalogue with system-dependent strings, and msgunfmt reads it back",
  { ignore: lacksGettext() },
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const gnu = `${dir}/gnu.mo`;
      const r = await new Deno.Command("msgfmt", {
        args: [new URL("compile-sysdep.po", FIXTURES).pathname, "-o", gnu],
      }).output();
      assert.ok(r.success);
      const ours = compile(fixture("compile-sysdep.po")).bytes;
      assert.ok(equalBytes(ours, await Deno.readFile(gnu)));
      const expected = text.decode(Deno.readFileSync(new URL("compile-sysdep.msgunfmt.po", FIXTURES)));
      assert.equal(await msgunfmt(ours), expected);
      await Deno.writeFile(`${dir}/latin1.po`, latin1Sysdep());
      const latin1 = await new Deno.Command("msgfmt", { args: [`${dir}/latin1.po`, "-o", gnu] }).output();
      assert.ok(latin1.success);
      assert.ok(equalBytes(compile(parsePo(latin1Sysdep(), "latin1.po")).bytes, await Deno.readFile(gnu)));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("POST /po/compile writes NAME.mo beside the catalogue, or to output_path inside the roots", async () => {
  await using f = await poFixture({ "fr/app.po": Deno.readFileSync(new URL("compile.po", FIXTURES)) });
  const r = await f.post("/po/compile", { file_path: f.path("fr/app.po") });
  assert.equal(r.status, 200);
  assert.match(r.type ?? "", /^application\/json/);
  assert.equal(r.body.output_path, f.path("fr/app.mo"));
  assert.equal(r.body.messages, 8);
  assert.equal(r.body.fuzzy_skipped, 1);
  const written = await Deno.readFile(f.path("fr/app.mo"));
  assert.deepEqual(written, compile(fixture("compile.po")).bytes);

  const other = await f.post("/po/compile", {
    file_path: f.path("fr/app.po"),
    output_path: f.path("fr/LC_MESSAGES/app.mo"),
    use_fuzzy: true,
  });
  assert.equal(other.status, 404, "the directory must exist");
  assert.equal(other.body.detail, `Directory not found: ${f.path("fr/LC_MESSAGES")}`);
  await Deno.mkdir(f.path("fr/LC_MESSAGES"));
  const fuzzy = await f.post("/po/compile", {
    file_path: f.path("fr/app.po"),
    output_path: f.path("fr/LC_MESSAGES/app.mo"),
    use_fuzzy: true,
  });
  assert.equal(fuzzy.status, 200);
  assert.equal(fuzzy.body.messages, 9);
});

Deno.test("POST /po/compile refuses an output outside the roots or not ending in .mo, and writes nothing", async () => {
  await using f = await poFixture({ "app.po": Deno.readFileSync(new URL("compile.po", FIXTURES)) });
  const outside = await f.post("/po/compile", { file_path: f.path("app.po"), output_path: "/tmp/evil.mo" });
  assert.equal(outside.status, 403);
  const wrong = await f.post("/po/compile", { file_path: f.path("app.po"), output_path: f.path("app.po") });
  assert.equal(wrong.status, 422);
  assert.match(wrong.body.detail, /must end in \.mo/);
  assert.deepEqual([...Deno.readDirSync(f.root)].map((e) => e.name), ["app.po"]);
});

Deno.test("main.ts compile writes FILE.mo beside the catalogue, or -o OUT, with the task's permissions", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(new URL("compile.po", FIXTURES), `${dir}/fr.po`);
    const r = await runMain(dir, "compile", ["fr.po"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "compile: fr.mo: 8 messages, 1 fuzzy and 2 untranslated left out\n");
    assert.deepEqual(Deno.readFileSync(`${dir}/fr.mo`), compile(fixture("compile.po")).bytes);
    const fuzzy = await runMain(dir, "compile", ["--use-fuzzy", "-q", "fr.po", "-o", "all.mo"]);
    assert.equal(fuzzy.code, 0, fuzzy.stderr);
    assert.deepEqual(
      Deno.readFileSync(`${dir}/all.mo`),
      compile(fixture("compile.po"), { useFuzzy: true }).bytes,
    );
    const missing = await runMain(dir, "compile", ["nope.po"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^compile: nope\.po: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
