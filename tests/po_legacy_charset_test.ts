/**
 * Catalogues in the multi-byte legacy charsets (EUC-KR, EUC-JP, Shift_JIS, GBK, GB2312, GB18030,
 * Big5 and their code-page twins): read as glibc's iconv reads them, laid out as msgcat 0.21 lays
 * them out, written in their own charset. Fixtures: `tests/fixtures/charsets/` (made by
 * `.ci/legacy_charsets/make_fixtures.ts` with msgconv and msgcat; msgcat's outputs are the
 * golden files).
 */
import assert from "node:assert/strict";
import { parsePo } from "../lib/po/read/parse.ts";
import { encodePo } from "../lib/po/write/write.ts";
import { runWrap } from "../cli/wrap/command.ts";
import { isCjkEncoding, LEGACY_MULTIBYTE_CHARSETS, legacyCodec } from "../lib/po/charsets/_legacy_charset.ts";
import { lacks, runs } from "./_prerequisites.ts";
import { poFixture, SHARED_DIR } from "./_helpers.ts";

const FIXTURES = new URL("./fixtures/charsets/", import.meta.url).pathname;

/** The fixture inputs (narrow and unwrapped) with their golden file. */
const INPUTS = [...Deno.readDirSync(FIXTURES)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".w20.po") || n.endsWith(".nowrap.po"))
  .sort()
  .map((name) => ({ name, golden: name.replace(/\.(w20|nowrap)\.po$/, ".msgcat.po") }));

const HAS_ICONV = runs("iconv");

async function run(
  cmd: string,
  args: string[],
  input: Uint8Array,
): Promise<{ ok: boolean; out: Uint8Array }> {
  const child = new Deno.Command(cmd, { args, stdin: "piped", stdout: "piped", stderr: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input).catch(() => {});
  await writer.close().catch(() => {});
  const { success, stdout } = await child.output();
  return { ok: success, out: stdout };
}

/** Bytes as text one char per byte, so a failed comparison shows the lines that differ. */
function bytesText(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

Deno.test("every charset the issue names has a fixture in each layout", () => {
  const charsets = new Set(INPUTS.map((i) => i.name.split(".")[1]));
  for (const c of LEGACY_MULTIBYTE_CHARSETS) assert.ok(charsets.has(c), c);
  assert.ok(INPUTS.length >= 2 * LEGACY_MULTIBYTE_CHARSETS.length);
});

Deno.test("wrap lays out every legacy-charset fixture byte for byte as msgcat 0.21 does", async (t) => {
  for (const { name, golden } of INPUTS) {
    await t.step(name, () => {
      const out = encodePo(parsePo(Deno.readFileSync(FIXTURES + name), name));
      assert.equal(bytesText(out), bytesText(Deno.readFileSync(FIXTURES + golden)));
    });
  }
});

Deno.test("the golden files are what msgcat - -o - prints for each input", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async (t) => {
  for (const { name, golden } of INPUTS) {
    await t.step(name, async () => {
      const { ok, out } = await run("msgcat", ["-", "-o", "-"], Deno.readFileSync(FIXTURES + name));
      assert.ok(ok);
      assert.equal(bytesText(out), bytesText(Deno.readFileSync(FIXTURES + golden)));
    });
  }
});

Deno.test("wrap --stdout prints a legacy catalogue in its own charset, and --check finds msgcat's layout done", async () => {
  const name = "xz_ko.EUC-KR.w20.po";
  const files: Record<string, Uint8Array> = {
    [name]: Deno.readFileSync(FIXTURES + name),
    "golden.po": Deno.readFileSync(FIXTURES + "xz_ko.EUC-KR.msgcat.po"),
  };
  const printed: Uint8Array[] = [];
  const io = {
    readFile: (p: string) =>
      files[p] ? Promise.resolve(files[p]) : Promise.reject(new Deno.errors.NotFound(p)),
    writeFile: () => Promise.reject(new Error("no write expected")),
    stdout: () => {},
    stderr: () => {},
    stdoutBytes: (b: Uint8Array) => printed.push(b),
  };
  assert.equal(await runWrap(["--stdout", name], io), 0);
  assert.equal(bytesText(printed[0]!), bytesText(files["golden.po"]!));
  assert.equal(await runWrap(["--check", "golden.po"], io), 0);
});

Deno.test("msgcat's layout rules for CJK encodings: U+00A1–U+FF60 are 2 columns, ambiguous characters break", () => {
  assert.deepEqual(
    LEGACY_MULTIBYTE_CHARSETS.filter(isCjkEncoding),
    ["EUC-KR", "CP949", "EUC-JP", "GBK", "GB2312", "BIG5", "JOHAB"],
    "Shift_JIS, CP932, GB18030, BIG5-HKSCS and CP950 are laid out as UTF-8 is",
  );
  const header = (cs: string) => `msgid ""\nmsgstr "Content-Type: text/plain; charset=${cs}\\n"\n\n`;
  // 35 Greek letters with spaces: 69 columns in UTF-8 (one line), 104 in a CJK encoding (two).
  const greek = "α β γ δ ε ζ η θ ι κ λ μ ν ξ ο π ρ σ τ υ φ χ ψ ω Α Β Γ Δ Ε Ζ Η Θ Ι Κ Λ";
  const text = (cs: string) => {
    const codec = legacyCodec(cs)!;
    const bytes = codec.encode(header(cs) + `msgid "g"\nmsgstr "${greek}"\n`) as Uint8Array;
    return codec.decode(bytesText(encodePo(parsePo(bytes))), true)!;
  };
  assert.equal(text("SHIFT_JIS"), header("SHIFT_JIS") + `msgid "g"\nmsgstr "${greek}"\n`);
  assert.equal(
    text("EUC-KR"),
    header("EUC-KR") +
      'msgid "g"\nmsgstr ""\n"α β γ δ ε ζ η θ ι κ λ μ ν ξ ο π ρ σ τ υ φ χ ψ ω Α "\n"Β Γ Δ Ε Ζ Η Θ Ι Κ Λ"\n',
  );
});

Deno.test("legacy catalogues are read as glibc's iconv reads them, as msgcat does", async (t) => {
  const header = (cs: string) =>
    `msgid ""\nmsgstr "Content-Type: text/plain; charset=${cs}\\n"\n\nmsgid "x"\nmsgstr "`;
  const file = (cs: string, ...bytes: number[]) =>
    new Uint8Array([...new TextEncoder().encode(header(cs)), ...bytes, 0x22, 0x0a]);
  await t.step("EUC-JP A1 C1 is the wave dash U+301C (the WHATWG decoder says U+FF5E)", () => {
    assert.equal(parsePo(file("EUC-JP", 0xa1, 0xc1)).messages[1]?.msgstr, "\u301c");
  });
  await t.step("Shift_JIS 81 60 is the wave dash U+301C too", () => {
    assert.equal(parsePo(file("SHIFT_JIS", 0x81, 0x60)).messages[1]?.msgstr, "\u301c");
  });
  await t.step("GB2312 A1 A4 is U+30FB, as glibc's GB2312 (EUC-CN) reads it", () => {
    assert.equal(parsePo(file("GB2312", 0xa1, 0xa4)).messages[1]?.msgstr, "\u30fb");
  });
  await t.step("EUC-KR refuses CP949's extra Hangul (B0 41), as msgcat does", () => {
    assert.throws(() => parsePo(file("EUC-KR", 0xb0, 0x41)), /invalid multibyte sequence at line 4/);
    assert.equal(parsePo(file("CP949", 0xb0, 0x41)).messages[1]?.msgstr, "\uce9a");
  });
  await t.step("EUC-KR reads 81 41 as U+0081 and A, as glibc does (0x80–0x9F are C1 controls there)", () => {
    assert.equal(parsePo(file("EUC-KR", 0x81, 0x41)).messages[1]?.msgstr, "\u0081A");
  });
  await t.step("a BIG5-HKSCS header whose charset is split over two lines", () => {
    const cat = parsePo(Deno.readFileSync(FIXTURES + "probe.BIG5-HKSCS.w20.po"));
    assert.equal(cat.charset, "BIG5-HKSCS");
    assert.ok(cat.messages[1]?.msgstr.startsWith('功能\\許可"么佢"'));
  });
  await t.step({
    name: "msgcat agrees on each",
    ignore: lacks(import.meta.url, "msgcat"),
    fn: async () => {
      const cases = [["EUC-JP", [0xa1, 0xc1], true], ["EUC-KR", [0xb0, 0x41], false], [
        "EUC-KR",
        [0x81, 0x41],
        true,
      ]];
      for (const [cs, bytes, ok] of cases as [string, number[], boolean][]) {
        assert.equal((await run("msgcat", ["-"], file(cs, ...bytes))).ok, ok, cs);
      }
    },
  });
});

Deno.test(
  "the encoder writes every character it can as glibc's iconv writes it",
  { ignore: !HAS_ICONV },
  async (t) => {
    for (const charset of LEGACY_MULTIBYTE_CHARSETS) {
      await t.step(charset, async () => {
        const codec = legacyCodec(charset)!;
        // Every character the codec reads from its table, one per line.
        let text = "";
        // The BMP and plane 2; GB18030 writes the planes by one formula, checked on plane 1.
        for (let cp = 0x80; cp < 0x30000; cp++) {
          if (cp >= 0xd800 && cp < 0xe000) continue;
          if (cp === 0x10000 && charset !== "GB18030") cp = 0x20000; // Big5-HKSCS has plane 2 ideographs
          const ch = String.fromCodePoint(cp);
          if (typeof codec.encode(ch) !== "number") text += ch + "\n";
        }
        const ours = codec.encode(text) as Uint8Array;
        const glibc = await run("iconv", ["-f", "UTF-8", "-t", charset], new TextEncoder().encode(text));
        assert.ok(glibc.ok, `iconv -t ${charset} refused a character we write`);
        assert.equal(bytesText(ours), bytesText(glibc.out));
        assert.equal(codec.decode(bytesText(ours), true), text);
      });
    }
  },
);

Deno.test("the encoder refuses what a charset cannot hold, and says where", () => {
  assert.equal(legacyCodec("EUC-KR")!.encode("한글 é"), 3);
  assert.ok(legacyCodec("GB18030")!.encode("é €") instanceof Uint8Array, "GB18030 holds every character");
  assert.equal(legacyCodec("GB2312")!.encode("乗"), 0, "GBK holds 乗, GB2312 does not");
  assert.ok(legacyCodec("GBK")!.encode("乗") instanceof Uint8Array);
  assert.equal(legacyCodec("EUC-KR")!.encode("\uac02"), 0, "CP949-only Hangul");
  assert.equal(legacyCodec("UTF-8"), null);
  assert.equal(legacyCodec("EUC-TW"), null);
});

Deno.test("Big5-HKSCS's four letter + combining mark pairs are read and written as one sequence, as glibc does", () => {
  const codec = legacyCodec("BIG5-HKSCS")!;
  const text = "\u00ca\u0304|\u00ca\u030c|\u00ea\u0304|\u00ea\u030c|\u00ca";
  // iconv -f UTF-8 -t BIG5-HKSCS of the same text.
  const glibc = [0x88, 0x62, 0x7c, 0x88, 0x64, 0x7c, 0x88, 0xa3, 0x7c, 0x88, 0xa5, 0x7c, 0x88, 0x66];
  assert.deepEqual([...(codec.encode(text) as Uint8Array)], glibc);
  assert.equal(codec.decode(String.fromCharCode(...glibc), true), text);
  assert.equal(
    legacyCodec("JOHAB")!.encode("한글 ₩"),
    3,
    "glibc's JOHAB writes ₩ as 0x5C, which PO reads as a backslash",
  );
});

Deno.test("an invalid sequence in a comment, which msgcat copies as it is, is refused by name, not written as U+FFFD", () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode('msgid ""\nmsgstr "Content-Type: text/plain; charset=EUC-KR\\n"\n\n# bad '),
    0xb0,
    0x41,
    ...new TextEncoder().encode('\nmsgid "x"\nmsgstr "y"\n'),
  ]);
  const cat = parsePo(bytes);
  assert.equal(cat.messages[1]?.translatorComments[0], "bad \ufffdA");
  assert.throws(() => encodePo(cat), {
    name: "UnwritableCatalogError",
    message:
      'Cannot write PO file in charset "EUC-KR": the entry with msgid "x" has the character U+FFFD (\ufffd), ' +
      "which EUC-KR cannot hold (the reader's stand-in for bytes of a comment, reference or flag that are no " +
      "character: msgcat copies those)",
  });
});

/** A header and one entry, in `charset`. */
function catalogue(charset: string, msgid: string, msgstr: string): Uint8Array {
  const text =
    `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=${charset}\\n"\n\nmsgid "${msgid}"\nmsgstr "${msgstr}"\n`;
  return legacyCodec(charset)!.encode(text) as Uint8Array;
}

const WRITES: [string, string, string][] = [
  [
    "EUC-KR",
    "안녕하세요",
    "파일을 저장할 수 없습니다. 디스크가 가득 찼습니다. 공간을 확보한 뒤 다시 시도하거나 다른 폴더를 선택하십시오.",
  ],
  [
    "JOHAB",
    "안녕",
    "조합형 한글로 된 카탈로그입니다. 긴 줄은 msgcat 과 같은 자리에서 나뉩니다. 漢字와 記號「」도 씁니다.",
  ],
  ["CP949", "똠방각하", "똠방각하 펲시콜라: 확장 한글 글자도 씁니다. 줄이 길면 msgcat 처럼 나눕니다."],
  [
    "EUC-JP",
    "こんにちは",
    "ディスクがいっぱいのため、ファイルを保存できませんでした。空き容量を確保してからもう一度試してください〜",
  ],
  ["SHIFT_JIS", "表示", 'ソフトウェアの予定表を表示します。"引用" の後に十個の項目が続きます。'],
  ["CP932", "①", "①②③ ㈱ ソフトウェア表示：半角ｶﾀｶﾅも書けます。長い行は msgcat と同じ位置で折り返されます。"],
  ["GB2312", "你好", "磁盘已满，无法保存文件。请释放一些空间后重试，或者选择另一个文件夹。“引号”和……省略号"],
  ["GBK", "乗", '乗俓僜刓匼哱嘰圽 — 第二个字节是 0x5C 的汉字，后面跟着 \\ 和 "引号"。'],
  ["GB18030", "é", "GB18030 holds every character: é ü 한글 カタカナ 𠀋 — and lays them out as UTF-8."],
  ["BIG5", "許功蓋", '許功蓋 的第二個位元組是 0x5C，後面是 \\ 和 "引號"。磁碟已滿，無法儲存檔案。'],
  ["BIG5-HKSCS", "嘅", "佢哋嘅嘢 — 香港增補字符集的字。磁碟已滿，無法儲存檔案，請稍後再試。"],
  ["CP950", "檔案", "無法儲存檔案，因為磁碟已滿。請釋放一些空間後再試一次，或選擇另一個資料夾。"],
];

Deno.test("POST /po/write into a legacy catalogue keeps its charset and writes the text sent", async (t) => {
  for (const [charset, msgid, msgstr] of WRITES) {
    await t.step(charset, async () => {
      await using f = await poFixture({ "c.po": catalogue(charset, msgid, "") });
      const sent = msgstr.replaceAll('\\"', '"').replaceAll("\\\\", "\\");
      const w = await f.post("/po/write", {
        file_path: f.path("c.po"),
        entries: [{ msgid, msgstr: sent }, { msgid: "new", msgstr: sent + " (2)" }],
        layout: "full", // the whole file in msgcat's layout (keep: tests/po_keep_layout_test.ts)
      });
      assert.equal(w.status, 200, JSON.stringify(w.body));
      const bytes = await Deno.readFile(f.path("c.po"));
      const cat = parsePo(bytes);
      assert.equal(cat.charset, charset);
      assert.deepEqual(cat.messages.map((m) => m.msgstr).slice(1), [sent, sent + " (2)"]);
      // The file is laid out as msgcat lays it out, and gettext reads back the text sent.
      if (lacks(import.meta.url, "msgcat")) return;
      assert.equal(bytesText((await run("msgcat", ["-"], bytes)).out), bytesText(bytes));
      const utf8 = await run("msgconv", ["-t", "UTF-8", "-"], bytes);
      assert.ok(utf8.ok);
      const back = parsePo(utf8.out);
      assert.equal(back.charset, "UTF-8");
      assert.deepEqual(back.messages.map((m) => m.msgstr).slice(1), [sent, sent + " (2)"]);
    });
  }
});

Deno.test("POST /po/write refuses a character the catalogue's charset cannot hold, leaving the file untouched", async () => {
  const before = catalogue("EUC-KR", "hello", "안녕");
  await using f = await poFixture({ "k.po": before });
  const w = await f.post("/po/write", {
    file_path: f.path("k.po"),
    entries: [{ msgid: "ok", msgstr: "좋아요" }, { msgid: "café", msgstr: "카페" }],
  });
  assert.equal(w.status, 422);
  assert.equal(w.type, "application/json");
  assert.equal(
    w.body.detail,
    'Cannot write PO file in charset "EUC-KR": the entry with msgid "café" has the character U+00E9 (é), ' +
      "which EUC-KR cannot hold",
  );
  assert.deepEqual(await Deno.readFile(f.path("k.po")), before);
});

/** The corpus files, each converted by msgconv to every charset that holds it. */
const DIFFERENTIAL: [string, string[]][] = [
  ["xz__po__ko.po", ["EUC-KR", "CP949", "GB18030"]],
  ["xz__po__zh_CN.po", ["GB2312", "GBK", "GB18030"]],
  ["zh-cn__glossary.po", ["GB18030"]],
  ["zh-cn__tutorial__introduction.po", ["GBK", "GB18030"]],
  ["zh-cn__library__multiprocessing.po", ["GB18030"]],
  ["fr__library__functions.po", ["GB18030"]],
  ["es__library__stdtypes.po", ["GB18030"]],
];

Deno.test(
  "large catalogues of the corpus, converted to legacy charsets, are laid out as msgcat lays them out",
  { ignore: lacks(import.meta.url, "shared", "msgcat") },
  async (t) => {
    for (const [file, charsets] of DIFFERENTIAL) {
      const utf8 = await Deno.readFile(new URL(`corpus/po/${file}`, SHARED_DIR));
      for (const charset of charsets) {
        await t.step(`${file} in ${charset}`, async () => {
          const converted = await run("msgconv", ["-t", charset, "-"], utf8);
          assert.ok(converted.ok, `msgconv -t ${charset} ${file}`);
          const expected = await run("msgcat", ["-"], converted.out);
          assert.ok(expected.ok);
          const ours = encodePo(parsePo(converted.out));
          assert.equal(bytesText(ours), bytesText(expected.out));
        });
      }
    }
  },
);
