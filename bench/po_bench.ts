/**
 * `deno bench` for the PO reader and writer:
 *
 *   deno bench --allow-read --allow-run=msgcat bench/po_bench.ts
 *
 * Input: ../shared/corpus/po/zh-cn__whatsnew__changelog.po (2.3 MB, 12,440 entries) when
 * ../shared exists, else a generated catalogue of 10,000 entries. Measures parse, a cold format
 * (no message laid out before), a warm format after one message changed (what a write pays: the
 * other messages come from the layout cache), parse + cold format, and — for comparison, when
 * msgcat is installed and the corpus file is used — one `msgcat FILE` run.
 *
 * @module
 */
import { encodePo, formatPo, parsePo } from "../lib/po/mod.ts";
import type { PoCatalog } from "../lib/po/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const CORPUS_FILE = new URL("../../shared/corpus/po/zh-cn__whatsnew__changelog.po", import.meta.url);

function load(): { name: string; bytes: Uint8Array; path: string | null } {
  try {
    return {
      name: "zh-cn changelog (2.3 MB)",
      bytes: Deno.readFileSync(CORPUS_FILE),
      path: CORPUS_FILE.pathname,
    };
  } catch {
    return { name: "generated (10k entries)", bytes: generatedCatalogue(10_000), path: null };
  }
}

const input = load();

/** A catalogue whose messages are new objects: nothing of it is in the layout cache. */
function freshCopy(cat: PoCatalog): PoCatalog {
  return { ...cat, messages: cat.messages.map((m) => ({ ...m })) };
}

const base = parsePo(input.bytes);
encodePo(base); // fills the cache for the warm benchmark
let edit = 0;

Deno.bench(`parse: ${input.name}`, { group: "po" }, () => {
  parsePo(input.bytes);
});

Deno.bench(`format, cold: ${input.name}`, { group: "po" }, (b) => {
  const cat = freshCopy(base);
  b.start();
  encodePo(cat);
  b.end();
});

Deno.bench(`format, warm, one message changed: ${input.name}`, { group: "po" }, () => {
  const k = (edit++ * 7919) % base.messages.length;
  const messages = base.messages.slice();
  const message = messages[k]!; // k < messages.length
  messages[k] = { ...message, msgstr: `${message.msgstr} (edit ${edit})` };
  formatPo({ ...base, messages });
});

Deno.bench(`parse + cold format: ${input.name}`, { group: "po", baseline: true }, () => {
  encodePo(parsePo(input.bytes));
});

let msgcat = false;
if (input.path) {
  try {
    msgcat = (await new Deno.Command("msgcat", { args: ["--version"], stdout: "null" }).output()).success;
  } catch {
    msgcat = false;
  }
}
if (msgcat) {
  Deno.bench(`msgcat FILE (subprocess): ${input.name}`, { group: "po", n: 5 }, async () => {
    await new Deno.Command("msgcat", { args: [input.path!], stdout: "null" }).output();
  });
}
