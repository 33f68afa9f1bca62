/**
 * The 0.23 layout generation: GNU msgcat 0.23.1's bytes (libunistring 1.3's line breaking), checked
 * against its output for every corpus catalogue and vector (`../shared/corpus/msgcat-0.23/`), and live
 * against gettext 0.23.1 itself on generated strings.
 */
import assert from "node:assert/strict";
import { encodePo, mergeCatalogs, parsePo } from "../lib/po/mod.ts";
import { makeTemplate, type TemplateVariant } from "./_merge_templates.ts";
import { type GettextGeneration, wrapString } from "../lib/po/layout/string_layout.ts";
import { lacks } from "./_prerequisites.ts";

const SHARED = new URL("../../shared/", import.meta.url);
const utf8 = new TextDecoder();

/** `bytes` laid out as `generation`, or the error's message when it is refused. */
function layOut(bytes: Uint8Array, generation: GettextGeneration): Uint8Array | string {
  try {
    return encodePo(parsePo(bytes, { placeholderCharset: generation === "0.23" }), { generation });
  } catch (e) {
    return String(e);
  }
}

Deno.test("0.23 and 0.21 break the same string where their libunistrings differ", () => {
  const text = "Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:" +
    "`collections.OrderedDict` docs, e.g. the os.path module of https://docs.python.org/3/library/os.path.html";
  const old = wrapString(text, { prefix: "", keyword: "msgid" });
  const now = wrapString(text, { prefix: "", keyword: "msgid", generation: "0.23" });
  // 0.21 (libunistring 1.0) breaks after ":class:" and "docs."; 1.3 breaks neither (LB29), nor
  // before ":class:" (LB13). Both outputs are what the two msgcats print for this msgid.
  assert.equal(
    old,
    'msgid ""\n"Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:"\n' +
      '"`collections.OrderedDict` docs, e.g. the os.path module of https://docs."\n' +
      '"python.org/3/library/os.path.html"\n',
  );
  assert.equal(
    now,
    'msgid ""\n"Use the :meth:`str.format` method; see :ref:`formatstrings` "\n' +
      '"and :class:`collections.OrderedDict` docs, e.g. the os.path module of "\n' +
      '"https://docs.python.org/3/library/os.path.html"\n',
  );
  // The default is 0.21.
  assert.equal(wrapString(text, { prefix: "", keyword: "msgid", generation: "0.21" }), old);
});

for (
  const [dir, suffix, oracle] of [
    ["corpus/po/", ".po", "corpus/msgcat-0.23/po/"],
    ["corpus/msgcat-vectors/", ".in.po", "corpus/msgcat-0.23/vectors/"],
  ] as const
) {
  Deno.test(
    `every ${dir} file laid out as 0.23 is msgcat 0.23.1's output, byte for byte`,
    { ignore: lacks(import.meta.url, "shared") },
    () => {
      const names = [...Deno.readDirSync(new URL(dir, SHARED))].map((e) => e.name)
        .filter((n) => n.endsWith(suffix)).sort();
      assert.ok(names.length > 30, `${names.length} files`);
      const differ: string[] = [];
      let changed = 0;
      for (const name of names) {
        const base = name.slice(0, -suffix.length);
        const input = Deno.readFileSync(new URL(dir + name, SHARED));
        let expected: Uint8Array | null = null;
        try {
          expected = Deno.readFileSync(new URL(`${oracle}${base}.out.po`, SHARED));
        } catch {
          // 0.23.1 refused it: NAME.rejected.txt says why
          assert.ok(Deno.statSync(new URL(`${oracle}${base}.rejected.txt`, SHARED)).isFile, base);
        }
        const got = layOut(input, "0.23");
        if (expected === null) {
          if (typeof got !== "string") differ.push(`${base}: 0.23.1 refuses it, we wrote it`);
          continue;
        }
        if (typeof got === "string") differ.push(`${base}: refused (${got})`);
        else if (utf8.decode(got) !== utf8.decode(expected) || got.length !== expected.length) {
          const a = utf8.decode(expected).split("\n");
          const b = utf8.decode(got).split("\n");
          const i = a.findIndex((l, k) => l !== b[k]);
          differ.push(`${base}: line ${i + 1}: want ${JSON.stringify(a[i])}, got ${JSON.stringify(b[i])}`);
        }
        const old = layOut(input, "0.21");
        if (typeof old !== "string" && utf8.decode(old) !== utf8.decode(expected)) changed++;
      }
      assert.deepEqual(differ, []);
      // The generations do differ on this corpus (the oracle is not 0.21's output).
      assert.ok(changed > 0);
    },
  );
}

/** Long strings mixing what the two libunistrings break differently, for the live comparison. */
function generatedCatalogue(seed: number, count: number): string {
  let s = seed;
  const random = (n: number) => (s = (s * 1103515245 + 12345) & 0x7fffffff) % n;
  const words = [
    "e.g.",
    "os.path",
    ":class:",
    "`x`",
    ":ref:`a`",
    "https://docs.python.org/3/",
    "«",
    "»",
    "\u00a0:",
    "'x'",
    "(U+0130)",
    '"q"',
    "\\",
    "\t",
    "中文字符",
    "한국어",
    "😀",
    "👍🏽",
    "🇫🇷",
    "--",
    "-x",
    "3.14",
    "$(5)",
    "10%",
    "a/b",
    "x|y",
    "…",
    "—",
    "‘s’",
    "“d”",
    "x\u200by",
    "\u05d0\u05d1-\u05d2",
    "<p>",
    "end.</P>",
    "5.6",
    "foo",
    "bar",
    "the",
    "word",
    "longer-word",
  ]; // deno-fmt-ignore
  const out = ['msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'];
  for (let i = 0; i < count; i++) {
    let text = "";
    const n = 8 + random(40);
    for (let j = 0; j < n; j++) text += words[random(words.length)] + (random(4) === 0 ? "" : " ");
    const escaped = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\t/g, "\\t");
    out.push(`msgid "m${i}"\nmsgstr "${escaped}"\n`);
  }
  return out.join("\n");
}

Deno.test(
  "live: generated strings laid out as 0.23 are what gettext 0.23.1's msgcat prints",
  { ignore: lacks(import.meta.url, "shared", "gettext-0.23") },
  async () => {
    for (const seed of [1, 2, 3]) {
      const input = new TextEncoder().encode(generatedCatalogue(seed, 300));
      const child = new Deno.Command("bash", {
        args: [new URL("tools/gettext-0.23", SHARED).pathname, "msgcat", "-", "-o", "-"],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const output = child.output();
      const writer = child.stdin.getWriter();
      await writer.write(input);
      await writer.close();
      const { success, stdout, stderr } = await output;
      assert.ok(success, utf8.decode(stderr));
      const got = layOut(input, "0.23");
      assert.equal(typeof got === "string" ? got : utf8.decode(got), utf8.decode(stdout), `seed ${seed}`);
    }
  },
);

Deno.test(
  "live: merges laid out as 0.23 are what gettext 0.23.1's msgmerge prints (fuzzy matches included)",
  { ignore: lacks(import.meta.url, "shared", "gettext-0.23") },
  async () => {
    const root = Deno.env.get("GETTEXT23_ROOT") ?? "/opt/gettext-0.23";
    const inside = await Deno.makeTempDir({ dir: `${root}/tmp`, prefix: "po-merge-" });
    const name = inside.slice(root.length);
    const edited: TemplateVariant = { dropEvery: 5, add: 7, editEvery: 7, shiftLines: 3 };
    try {
      for (
        const file of ["fr__about.po", "fr__bugs.po", "polib__tests__test_previous_msgid.po", "xz__po__fr.po"]
      ) {
        const path = new URL(`corpus/po/${file}`, SHARED);
        const def = parsePo(Deno.readFileSync(path), file);
        const ref = makeTemplate(def, edited);
        await Deno.copyFile(path, `${inside}/def.po`);
        await Deno.writeFile(`${inside}/ref.pot`, encodePo(ref));
        for (const [args, options] of [[[], {}], [["--previous"], { previous: true }]] as const) {
          const r = await new Deno.Command("chroot", {
            args: [root, "msgmerge", "-q", ...args, `${name}/def.po`, `${name}/ref.pot`, "-o", "-"],
            stdout: "piped",
            stderr: "piped",
          }).output();
          assert.ok(r.success, utf8.decode(r.stderr));
          const ours = encodePo(mergeCatalogs(def, parsePo(encodePo(ref), "ref.pot"), options).catalog, {
            generation: "0.23",
          });
          assert.equal(utf8.decode(ours), utf8.decode(r.stdout), `${file} ${args.join(" ")}`);
        }
      }
    } finally {
      await Deno.remove(inside, { recursive: true });
    }
  },
);
