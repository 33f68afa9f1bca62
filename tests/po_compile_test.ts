import assert from "node:assert/strict";
// @ts-types="@types/gettext-parser"
import { mo } from "gettext-parser";
import { compileMo } from "../lib/po/compile.ts";
import { parsePo } from "../lib/po/mod.ts";
import { compareBytes, readMoPairs } from "../lib/po/_mo_layout.ts";
import { PoSyntaxError } from "../lib/errors.ts";
import { lacks } from "./_prerequisites.ts";
import { poFixture } from "./_helpers.ts";
import { runMain } from "./_run_main.ts";

const FIXTURES = new URL("./fixtures/merge/", import.meta.url);
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);
const text = new TextDecoder();

function fixture(name: string) {
  return parsePo(Deno.readFileSync(new URL(name, FIXTURES)), name);
}

function runs(command: string): boolean {
  try {
    return new Deno.Command(command, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

const HAS_MSGFMT = runs("msgfmt") && runs("msgunfmt");

function lacksGettext(...needs: "shared"[]): boolean {
  if (lacks(import.meta.url, ...needs)) return true;
  if (!HAS_MSGFMT) {
    console.log("not run in po_compile_test.ts: tests that need msgfmt and msgunfmt are ignored (not found)");
  }
  return !HAS_MSGFMT;
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
  const result = compileMo(fixture("compile.po"));
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
  assert.equal(compileMo(fixture("compile.po"), { useFuzzy: true }).messages, 9);
});

Deno.test("compileMo sorts the strings in byte order, the order libintl binary-searches", () => {
  const ids = readMoPairs(compileMo(fixture("compile.po")).bytes).map((p) => p.id);
  for (let i = 1; i < ids.length; i++) {
    assert.ok(compareBytes(ids[i - 1]!, ids[i]!) < 0, `pair ${i} in byte order`);
  }
  // "a！" (EF BC 81) before "a😀" (F0 9F 98 80); by UTF-16 units gettext-parser puts them the other way.
  const order = ids.map((id) => text.decode(id));
  assert.ok(order.indexOf("a！") < order.indexOf("a😀"));
});

Deno.test("compileMo refuses what msgfmt refuses: duplicates, several domains", () => {
  const dup = parsePo(new TextEncoder().encode('msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n'), {
    fileName: "d.po",
    strict: false,
  });
  assert.throws(
    () => compileMo(dup),
    (e: Error) => e instanceof PoSyntaxError && /duplicate message definition/.test(e.message),
  );
  const domains = parsePo(
    new TextEncoder().encode('msgid "a"\nmsgstr "1"\n\ndomain "other"\nmsgid "b"\nmsgstr "2"\n'),
  );
  assert.throws(() => compileMo(domains), /one file per domain/);
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
      assert.equal(await msgunfmt(compileMo(fixture("compile.po"), options).bytes), expected, golden);
    }
  },
);

Deno.test(
  "for every corpus catalogue msgfmt accepts, msgunfmt of our MO equals msgunfmt of msgfmt's (save <inttypes.h> entries)",
  { ignore: lacksGettext("shared") },
  async (t) => {
    const dir = await Deno.makeTempDir();
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
          const ours = compileMo(parsePo(await Deno.readFile(path), { fileName: name, strict: false }));
          let expected = await msgunfmt(await Deno.readFile(gnu));
          if (ours.sysdepSkipped > 0) {
            // msgunfmt lists msgfmt's system-dependent strings last, each flagged c-format.
            const entries = expected.split("\n\n");
            const kept = entries.filter((e) => !/^#, c-format\n/.test(e) || !/%<PRI/.test(e));
            assert.equal(
              entries.length - kept.length,
              ours.sysdepSkipped,
              "only the <inttypes.h> entries differ",
            );
            expected = kept.join("\n\n") + (kept.at(-1)!.endsWith("\n") ? "" : "\n");
          }
          assert.equal(await msgunfmt(ours.bytes), expected);
        });
      }
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
  assert.deepEqual(written, compileMo(fixture("compile.po")).bytes);

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
    assert.deepEqual(Deno.readFileSync(`${dir}/fr.mo`), compileMo(fixture("compile.po")).bytes);
    const fuzzy = await runMain(dir, "compile", ["--use-fuzzy", "-q", "fr.po", "-o", "all.mo"]);
    assert.equal(fuzzy.code, 0, fuzzy.stderr);
    assert.deepEqual(
      Deno.readFileSync(`${dir}/all.mo`),
      compileMo(fixture("compile.po"), { useFuzzy: true }).bytes,
    );
    const missing = await runMain(dir, "compile", ["nope.po"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^compile: nope\.po: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
