/**
 * `wrapString` over every string field of the largest corpus catalogue
 * (`../shared/corpus/po/zh-cn__whatsnew__changelog.po`, 2.3 MB, ~12k entries) when it is present,
 * else over a generated set of about the same size (short and long ASCII, long CJK, multi-line).
 *
 *   deno bench --allow-read bench/wrap_bench.ts
 *
 * The strings are collected with a small reader of quoted string blocks (no dependency on the PO
 * parser), so the figure is the wrapping engine alone.
 *
 * @module
 */
import { type WrapOptions, wrapString } from "../lib/po/layout/string_layout.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const CORPUS = new URL("../../shared/corpus/po/zh-cn__whatsnew__changelog.po", import.meta.url);

const UNESCAPE: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  '"': '"',
  "\\": "\\",
};

/** Every string field of a PO text with the options the writer would pass for it. */
function fieldsOf(text: string): [string, WrapOptions][] {
  const fields: [string, WrapOptions][] = [];
  const lines = text.split("\n");
  let noWrap = false;
  let formatLanguage: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!; // i < lines.length
    if (line === "") {
      noWrap = false;
      formatLanguage = null;
      continue;
    }
    if (line.startsWith("#, ")) {
      const flags = line.slice(3).split(/,\s*/);
      noWrap = flags.includes("no-wrap");
      formatLanguage = flags.find((f) => f.endsWith("-format") && !f.startsWith("no-"))?.slice(0, -7) ?? null;
      continue;
    }
    const m = /^((?:#~\| |#~ |#\| )?)(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$/.exec(line);
    if (!m) continue;
    // The three groups take part in every match.
    const [, prefix = "", keyword = "", value3 = ""] = m;
    let raw = value3;
    while (lines[i + 1]?.startsWith(`${prefix}"`)) {
      i++;
      raw += lines[i]!.slice(prefix.length + 1, -1); // the line the loop condition read
    }
    const value = raw.replace(/\\(.)/g, (_, c: string) => UNESCAPE[c] ?? c);
    fields.push([value, { prefix, keyword, noWrap, formatLanguage }]);
  }
  return fields;
}

/** A deterministic stand-in for the corpus file: 12k entries, about 2 million characters. */
function generatedFields(): [string, WrapOptions][] {
  const fields: [string, WrapOptions][] = [];
  const ascii = "Fix a crash in the :mod:`asyncio` event loop when a callback raises (patch by Someone). ";
  const cjk = "修复了在回调引发异常时 :mod:`asyncio` 事件循环崩溃的问题（由某人贡献补丁）。";
  for (let i = 0; i < 12000; i++) {
    const id = i % 3 === 0 ? ascii.slice(0, 40) : ascii.repeat(1 + (i % 2));
    const str = i % 5 === 0 ? "" : i % 7 === 0 ? `${cjk}\n${cjk}` : cjk.repeat(1 + (i % 2));
    fields.push([`bpo-${i}`, { prefix: "", keyword: "msgctxt" }]);
    fields.push([id, { prefix: "", keyword: "msgid" }]);
    fields.push([str, { prefix: "", keyword: "msgstr" }]);
  }
  return fields;
}

function loadFields(): { fields: [string, WrapOptions][]; source: string } {
  try {
    return { fields: fieldsOf(Deno.readTextFileSync(CORPUS)), source: "zh-cn__whatsnew__changelog.po" };
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    return { fields: generatedFields(), source: "generated set (../shared not found)" };
  }
}

const { fields, source } = loadFields();
const characters = fields.reduce((sum, [value]) => sum + value.length, 0);

Deno.bench(`wrapString over ${fields.length} fields (${characters} chars) of ${source}`, () => {
  let bytes = 0;
  for (const [text, options] of fields) bytes += wrapString(text, options).length;
  if (bytes === 0) throw new Error("nothing was written");
});
