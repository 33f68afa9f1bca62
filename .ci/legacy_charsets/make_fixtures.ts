/**
 * Makes `tests/fixtures/charsets/`: small catalogues in the multi-byte legacy charsets, converted
 * from UTF-8 ones by GNU `msgconv -t CHARSET`, then laid out narrow (`msgcat --width=20`) and not
 * at all (`msgcat --no-wrap`) as inputs, with `msgcat`'s output of each as its golden file.
 *
 *   deno run --allow-read --allow-write --allow-run .ci/legacy_charsets/make_fixtures.ts [XZ_REPO]
 *
 * Sources: `sources/ja.po` and `sources/probe.po` (written for the tests); the Korean, Simplified and
 * Traditional Chinese translations of xz (0BSD; XZ_REPO is a clone of tukaani-project/xz, default
 * /work/.mirror/tukaani-project+xz/repo), cut to the header, the first entries and the longest ones.
 */
import { legacyCodec } from "../../lib/po/charsets/_legacy_charset.ts";

const DIR = new URL("../../tests/fixtures/charsets/", import.meta.url).pathname;
const XZ = Deno.args[0] ?? "/work/.mirror/tukaani-project+xz/repo";

async function run(cmd: string, args: string[], input?: Uint8Array): Promise<Uint8Array> {
  const child = new Deno.Command(cmd, {
    args,
    stdin: input ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  })
    .spawn();
  if (input) {
    const w = child.stdin.getWriter();
    await w.write(input);
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return out.stdout;
}

/** Entries of a UTF-8 catalogue (blank-line separated), the header first. */
function entries(text: string): string[] {
  return text.split(/\n\n+/).map((e) => e.trim()).filter((e) => e !== "");
}

/** The header, the first `first` entries and the `longest` longest others, in file order. */
function excerpt(text: string, first: number, longest: number): string[] {
  const all = entries(text);
  const rest = all.slice(1 + first).map((e, i) => [e.length, i + 1 + first] as const).sort((a, b) =>
    b[0] - a[0]
  );
  const keep = new Set([...Array(1 + first).keys(), ...rest.slice(0, longest).map(([, i]) => i)]);
  return all.filter((_, i) => keep.has(i));
}

/**
 * The entries whose text the charset holds (the others would stop msgconv); with `strip`, every
 * entry, without the characters it cannot hold.
 */
function holdable(list: string[], charset: string, strip: boolean): string[] {
  const codec = legacyCodec(charset)!;
  if (strip) return list.map((e) => [...e].filter((c) => typeof codec.encode(c) !== "number").join(""));
  return list.filter((e, i) => i === 0 || typeof codec.encode(e) !== "number");
}

const te = new TextEncoder();
const sources: [string, string[], string[]][] = [
  ["ja", entries(await Deno.readTextFile(`${DIR}sources/ja.po`)), ["EUC-JP", "SHIFT_JIS", "CP932"]],
  ["probe", entries(await Deno.readTextFile(`${DIR}sources/probe.po`)), [
    "EUC-KR",
    "CP949",
    "EUC-JP",
    "SHIFT_JIS",
    "CP932",
    "GB2312",
    "GBK",
    "GB18030",
    "BIG5",
    "BIG5-HKSCS",
    "CP950",
    "JOHAB",
  ]],
];
for (
  const [lang, charsets] of [["ko", ["EUC-KR", "CP949", "JOHAB"]], ["zh_CN", ["GB2312", "GBK", "GB18030"]], [
    "zh_TW",
    ["BIG5", "BIG5-HKSCS", "CP950"],
  ]] as const
) {
  const text = new TextDecoder().decode(await run("git", ["-C", XZ, "show", `HEAD:po/${lang}.po`]));
  sources.push([`xz_${lang}`, excerpt(text, 10, 5), [...charsets]]);
}

for (const [name, list, charsets] of sources) {
  for (const charset of charsets) {
    // glibc's JOHAB reads 0x5C as ₩ and cannot write a backslash, so msgconv refuses one there: the
    // JOHAB fixtures go without escaped backslashes and without comments that hold one.
    const kept = holdable(list, charset, name === "probe").map((e) =>
      charset !== "JOHAB"
        ? e
        : e.replaceAll("\\\\", "").split("\n").filter((l) => !(l.startsWith("#") && l.includes("\\"))).join(
          "\n",
        )
    );
    const utf8 = te.encode(kept.join("\n\n") + "\n");
    const converted = await run("msgconv", ["-t", charset, "-"], utf8);
    const base = `${DIR}${name}.${charset}`;
    const narrow = await run("msgcat", ["--width=20", "-"], converted);
    const unwrapped = await run("msgcat", ["--no-wrap", "-"], converted);
    await Deno.writeFile(`${base}.w20.po`, narrow);
    await Deno.writeFile(`${base}.nowrap.po`, unwrapped);
    const golden = await run("msgcat", ["-", "-o", "-"], narrow);
    const golden2 = await run("msgcat", ["-", "-o", "-"], unwrapped);
    if (golden.length !== golden2.length || golden.some((b, i) => b !== golden2[i])) {
      throw new Error(`${name}.${charset}: msgcat lays out the narrow and unwrapped inputs differently`);
    }
    await Deno.writeFile(`${base}.msgcat.po`, golden);
    console.log(`${name}.${charset}: ${kept.length - 1} entries, ${golden.length} bytes`);
  }
}
