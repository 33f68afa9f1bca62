/**
 * A generated catalogue for benchmarks run without `../shared`: `n` entries of python-docs-like text
 * (references, some fuzzy, some untranslated, CJK translations), deterministic. As a script, writes
 * one laid out as msgcat lays it out (our writer equals msgcat's bytes):
 *
 *   deno run --allow-write=DIR bench/_generated_po.ts N DIR/FILE.po
 *
 * @module
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";

/** `n` generated entries, as PO bytes (not laid out: long lines are not wrapped). */
export function generatedCatalogue(n: number): Uint8Array {
  const words = [
    "the",
    "function",
    "returns",
    "a",
    "new",
    "list",
    "of",
    "strings",
    ":func:`len`",
    "value",
    "see",
  ];
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < n; i++) {
    const len = 3 + (i * 7) % 40;
    const text = Array.from({ length: len }, (_, k) => words[(i + k * 3) % words.length]).join(" ");
    out += `#: ../../library/module${i % 50}.rst:${i}\n`;
    if (i % 14 === 0) out += "#, fuzzy\n";
    out += `msgid "${text} ${i}"\nmsgstr "${i % 13 === 0 ? "" : "翻譯 " + text}"\n\n`;
  }
  return new TextEncoder().encode(out);
}

if (import.meta.main) {
  const [count, out] = Deno.args;
  const n = Number(count);
  if (!Number.isInteger(n) || n < 0 || !out) {
    console.error("usage: deno run --allow-write=DIR bench/_generated_po.ts N DIR/FILE.po");
    Deno.exit(2);
  }
  Deno.writeFileSync(out, encodePo(parsePo(generatedCatalogue(n), { fileName: out })));
}

const CORPUS_FILE = new URL("../../shared/corpus/po/zh-cn__whatsnew__changelog.po", import.meta.url).pathname;

/**
 * The engine benchmarks' catalogue: the largest corpus file (../shared), or else a generated
 * catalogue of 12,000 entries in msgcat's layout, written to a temp file removed at exit.
 */
export async function benchCatalogueFile(): Promise<string> {
  try {
    if (Deno.statSync(CORPUS_FILE).isFile) return CORPUS_FILE;
  } catch {
    // no ../shared
  }
  const { encodePo, parsePo } = await import("../lib/po/mod.ts");
  console.log("../shared not found: a generated catalogue of 12,000 entries instead of the corpus file");
  const path = Deno.makeTempFileSync({ prefix: "po-bench-", suffix: ".po" });
  Deno.writeFileSync(path, encodePo(parsePo(generatedCatalogue(12_000))));
  globalThis.addEventListener("unload", () => Deno.removeSync(path));
  return path;
}
