/**
 * `layout: "keep"` (lib/po/write/keep_layout.ts, issue 35.2): a write re-lays out only the entries
 * it changes and keeps every other byte; a file already in msgcat's layout gets the full layout's
 * bytes; what is written reads back, as gettext reads it, as the full layout does. On the committed
 * fixtures, and on every corpus catalogue msgcat 0.21 would re-lay out.
 */
import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
import { encodePo, parsePo, type PoCatalog } from "../lib/po/mod.ts";
import { applyWrite } from "../lib/po/operations/apply_write.ts";
import { updateHeader } from "../lib/po/operations/header.ts";
import { deleteEntries } from "../lib/po/operations/delete_entries.ts";
import { keptBytes } from "../lib/po/write/keep_layout.ts";
import { canonicalCatalog } from "../lib/po/write/canonical.ts";
import { flatBytes } from "../lib/byte_runs.ts";
import { messageLines } from "../lib/po/read/parse.ts";
import { isHeader } from "../lib/po/types.ts";
import { legacyCodec } from "../lib/po/charsets/_legacy_charset.ts";

const FIXTURES = new URL("./fixtures/keep/", import.meta.url);
const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);
const decoder = new TextDecoder();

function read(bytes: Uint8Array): PoCatalog {
  return parsePo(bytes, { allowBom: true, strict: false, placeholderCharset: true });
}

function lines(bytes: Uint8Array): string[] {
  return decoder.decode(bytes).split("\n");
}

/** The 0-based line range [from, to) of the file that differs between `a` and `b` (common prefix and suffix cut). */
function changedRange(a: Uint8Array, b: Uint8Array): { from: number; toA: number; toB: number } | null {
  const x = lines(a), y = lines(b);
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  if (pre === x.length && pre === y.length) return null;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) {
    suf++;
  }
  return { from: pre, toA: x.length - suf, toB: y.length - suf };
}

/**
 * Fails unless the lines of `before` that `after` changes lie strictly between the first keyword
 * lines of the entries around entry `index` (its comments, keywords and strings: its lines).
 */
function assertOnlyEntryLines(
  before: PoCatalog,
  bytes: Uint8Array,
  after: Uint8Array,
  index: number,
  what: string,
) {
  const at = messageLines(before)!;
  const low = index === 0 ? 0 : at[index - 1]!; // 1-based line of the previous entry = 0-based line after it
  const high = index + 1 < at.length ? at[index + 1]! - 1 : lines(bytes).length; // 0-based line of the next
  const range = changedRange(bytes, after);
  assert.ok(range !== null, `${what}: nothing changed`);
  assert.ok(
    range.from >= low && range.toA <= high,
    `${what}: lines ${range.from + 1}..${range.toA} changed, the entry's are ${low + 1}..${high}`,
  );
}

/** The messages as gettext reads them back, without the ones at `skip` keys. */
function messagesBut(catalog: PoCatalog, skip: Set<string>) {
  return canonicalCatalog(catalog, { forcePo: true }).messages.filter((m) =>
    !skip.has(`${m.msgctxt}\u0000${m.msgid}`)
  ).map((m) => ({ ...m }));
}

/** A live translated entry near the middle, not the header. */
function middleEntry(catalog: PoCatalog): number {
  const n = catalog.messages.length;
  for (let k = 0; k < n; k++) {
    const i = (Math.floor(n / 2) + k) % n;
    const m = catalog.messages[i]!;
    if (!isHeader(m) && !m.obsolete && m.msgidPlural === null && m.msgstr !== "") return i;
  }
  return -1;
}

/** The corpus catalogues msgcat takes (nothing is written to the others) that have an entry to edit. */
function* writableCorpus(): Generator<{ name: string; bytes: Uint8Array; before: PoCatalog }> {
  for (const e of [...Deno.readDirSync(CORPUS)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.name.endsWith(".po")) continue;
    const bytes = Deno.readFileSync(new URL(e.name, CORPUS));
    let before: PoCatalog;
    try {
      before = read(bytes);
      encodePo(before, { forcePo: true });
    } catch {
      continue;
    }
    if (middleEntry(before) >= 0) yield { name: e.name, bytes, before };
  }
}

/** Edits one entry of the file and checks the keep write; returns the kept and the full diff sizes. */
function checkOneEntryEdit(
  bytes: Uint8Array,
  what: string,
): { keep: number; full: number; inLayout: boolean } {
  const before = read(bytes);
  const i = middleEntry(before);
  assert.ok(i > 0, `${what}: no entry to edit`);
  const target = before.messages[i]!;
  const msgstr = target.msgstr +
    " — une phrase ajoutée, assez longue pour que la ligne soit coupée ailleurs.";
  const write = applyWrite(before, [{ msgid: target.msgid, msgctxt: target.msgctxt, msgstr }]);
  const full = encodePo(write.catalog, { forcePo: true });
  const kept = keptBytes(bytes, before, write.catalog, "keep", undefined, { verify: true });
  const out = flatBytes(kept.bytes);
  const inLayout = decoder.decode(encodePo(before, { forcePo: true })) === decoder.decode(bytes);
  if (inLayout) {
    // A file in msgcat's layout: keep and full give the same bytes.
    assert.equal(
      decoder.decode(out),
      decoder.decode(full),
      `${what}: keep differs from full on a laid-out file`,
    );
    assert.equal(kept.layout.file_in_layout, true);
  } else {
    assert.equal(kept.layout.mode, "keep", `${what}: ${kept.layout.reason}`);
    assertOnlyEntryLines(before, bytes, out, i, what);
  }
  // Reads back as the same messages, the edited one as the write made it.
  const back = read(out);
  const skip = new Set([`${target.msgctxt}\u0000${target.msgid}`]);
  assert.deepEqual(messagesBut(back, skip), messagesBut(before, skip), `${what}: other messages changed`);
  const edited = back.messages.find((m) =>
    m.msgid === target.msgid && m.msgctxt === target.msgctxt && !m.obsolete
  );
  assert.equal(edited?.msgstr, msgstr, `${what}: the edit did not read back`);
  const count = (a: Uint8Array, b: Uint8Array) => {
    const r = changedRange(a, b);
    return r === null ? 0 : (r.toA - r.from) + (r.toB - r.from);
  };
  return { keep: count(bytes, out), full: count(bytes, full), inLayout };
}

Deno.test("keep: a one-entry write to a Transifex-laid fixture changes only that entry's lines", () => {
  const bytes = Deno.readFileSync(new URL("transifex.po", FIXTURES));
  const sizes = checkOneEntryEdit(bytes, "transifex.po");
  assert.equal(sizes.inLayout, false);
  assert.ok(sizes.keep < sizes.full, `keep ${sizes.keep} lines, full ${sizes.full}`);
});

Deno.test("keep: a CRLF file stays CRLF, and the new entry is written with CRLF", () => {
  const bytes = Deno.readFileSync(new URL("crlf.po", FIXTURES));
  checkOneEntryEdit(bytes, "crlf.po");
  const before = read(bytes);
  const write = applyWrite(before, [{ msgid: "A new one", msgstr: "Un nouveau" }]);
  const kept = keptBytes(bytes, before, write.catalog, "keep");
  const text = decoder.decode(flatBytes(kept.bytes));
  assert.equal(kept.layout.mode, "keep");
  assert.ok(text.startsWith(decoder.decode(bytes)), "the file's bytes come first, unchanged");
  assert.equal(text.slice(decoder.decode(bytes).length), '\r\nmsgid "A new one"\r\nmsgstr "Un nouveau"\r\n');
  assert.ok(kept.layout.full_relayout_changed_lines > 0);
  assert.equal(kept.layout.file_in_layout, false);
});

Deno.test("keep: a header update re-lays out the header only; a delete removes the entry's lines only", () => {
  const bytes = Deno.readFileSync(new URL("transifex.po", FIXTURES));
  const before = read(bytes);
  const header = updateHeader(before, { set: { "Language-Team": "French <traductions@lists.afpy.org>" } });
  const kept = flatBytes(keptBytes(bytes, before, header.catalog, "keep").bytes);
  assertOnlyEntryLines(before, bytes, kept, 0, "header");
  const i = before.messages.findIndex((m) => m.msgid === "Return the example.");
  const removed = deleteEntries(before, [{ msgid: "Return the example." }], null).catalog;
  const out = flatBytes(keptBytes(bytes, before, removed, "keep").bytes);
  assertOnlyEntryLines(before, bytes, out, i, "delete");
  assert.ok(!decoder.decode(out).includes("Return the example."));
  assert.equal(read(out).messages.length, before.messages.length - 1);
});

Deno.test("keep: full mode is msgcat's layout of the whole file", () => {
  const bytes = Deno.readFileSync(new URL("transifex.po", FIXTURES));
  const before = read(bytes);
  const write = applyWrite(before, [{ msgid: "Return the example.", msgstr: "Renvoie un exemple." }]);
  const kept = keptBytes(bytes, before, write.catalog, "full");
  assert.equal(
    decoder.decode(flatBytes(kept.bytes)),
    decoder.decode(encodePo(write.catalog, { forcePo: true })),
  );
  assert.deepEqual(kept.layout, {
    mode: "full",
    file_in_layout: true,
    full_relayout_changed_lines: 0,
    gettext: "0.21",
  });
});

Deno.test("keep: bytes that would read back differently are never written (falls back to full, says why)", () => {
  // Two entries on adjacent lines where the kept span cannot be told apart are still written as
  // they read back; a BOM file is refused by msgcat, and keep does not keep the BOM either.
  const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n';
  const bytes = new TextEncoder().encode("\uFEFF" + header + '\nmsgid "a"\nmsgstr "b"\n');
  const before = read(bytes);
  const write = applyWrite(before, [{ msgid: "a", msgstr: "c" }]);
  assert.throws(() => keptBytes(bytes, before, write.catalog, "keep"), /byte order mark/);
});

Deno.test({
  name: "keep: a one-entry write to every corpus catalogue touches only that entry, and reads back",
  ignore: lacks(import.meta.url, "shared"),
  fn() {
    let notLaidOut = 0, laidOut = 0;
    for (const { name, bytes } of writableCorpus()) {
      const sizes = checkOneEntryEdit(bytes, name);
      if (sizes.inLayout) laidOut++;
      else notLaidOut++;
      console.log(
        `${name}: keep ${sizes.keep} lines, full ${sizes.full} lines${sizes.inLayout ? " (laid out)" : ""}`,
      );
    }
    assert.ok(notLaidOut > 0 && laidOut > 0, `not laid out ${notLaidOut}, laid out ${laidOut}`);
  },
});

Deno.test({
  name:
    "keep: the lines a full re-layout would change, as the answer says them, are GNU diff --minimal's count",
  ignore: lacks(import.meta.url, "shared", "diff"),
  async fn() {
    // The largest one (zh-cn's changelog, 3.2 MB) was said to change 154,839 lines: the count came
    // from a diff that gave up its search and replaced the file whole. diff --minimal counts 20,205.
    let compared = 0;
    const dir = await Deno.makeTempDir({ prefix: "keep-count-" });
    try {
      for (const { name, bytes, before } of writableCorpus()) {
        const target = before.messages[middleEntry(before)]!;
        const after =
          applyWrite(before, [{ msgid: target.msgid, msgctxt: target.msgctxt, msgstr: "nouveau" }]).catalog;
        const kept = keptBytes(bytes, before, after, "keep");
        if (kept.layout.file_in_layout) continue;
        await Deno.writeFile(`${dir}/kept.po`, flatBytes(kept.bytes));
        await Deno.writeFile(`${dir}/full.po`, encodePo(after, { forcePo: true }));
        const out = await new Deno.Command("diff", {
          args: ["--minimal", "kept.po", "full.po"],
          cwd: dir,
          stdout: "piped",
        })
          .output();
        const counted = decoder.decode(out.stdout).split("\n").filter((l) =>
          l[0] === "<" || l[0] === ">"
        ).length;
        const said = kept.layout.full_relayout_changed_lines;
        assert.equal(said, counted, `${name}: said ${said}, diff --minimal counts ${counted}`);
        compared++;
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.ok(compared >= 5, `only ${compared} catalogues not in msgcat's layout`);
  },
});

Deno.test("keep: a msgstr edit keeps the entry's msgid, comment and reference lines as the file has them", () => {
  const bytes = Deno.readFileSync(new URL("transifex.po", FIXTURES));
  const before = read(bytes);
  const msgid =
    "This module provides a few functions that are used throughout the examples of this documentation, and a class or two.";
  const write = applyWrite(before, [{ msgid, msgstr: "Ce module fournit des fonctions." }]);
  const out = decoder.decode(flatBytes(keptBytes(bytes, before, write.catalog, "keep").bytes));
  const was = decoder.decode(bytes);
  assert.equal(
    out,
    was.replace(
      '"Ce module fournit quelques fonctions utilisées dans les exemples de cette documentation, "\n' +
        '"ainsi qu\'une classe ou deux."',
      '"Ce module fournit des fonctions."',
    ).replace('msgstr ""\n"Ce module fournit des fonctions."', 'msgstr "Ce module fournit des fonctions."'),
  );
  // A flag added (fuzzy): the flag line is new, the references line stays unwrapped.
  const fuzzy = applyWrite(before, [{ msgid: "Return the example.", fuzzy: true }]);
  const marked = decoder.decode(flatBytes(keptBytes(bytes, before, fuzzy.catalog, "keep").bytes));
  assert.deepEqual(changedRange(bytes, new TextEncoder().encode(marked)), { from: 29, toA: 29, toB: 30 });
  assert.ok(marked.includes('rst:31 ../Doc/library/example.rst:47\n#, fuzzy\nmsgid "Return the example."'));
});

Deno.test({
  name:
    "keep: a legacy-charset file (EUC-KR, SHIFT_JIS) gets the changed entry in its charset; gettext reads it back",
  ignore: lacks(import.meta.url, "msgcat"),
  async fn() {
    const cases: [string, string][] = [["EUC-KR", "파일을 저장할 수 없습니다"], [
      "SHIFT_JIS",
      "ファイルを保存できません",
    ]];
    for (const [charset, msgstr] of cases) {
      // Not in msgcat's layout (the header on two lines, an empty line too many).
      const text = `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=${charset}\\n"\n\n\n` +
        `msgid "a"\nmsgstr "${msgstr}"\n\nmsgid "Cannot save the file"\nmsgstr ""\n`;
      const bytes = legacyCodec(charset)!.encode(text) as Uint8Array;
      const before = read(bytes);
      const write = applyWrite(before, [{ msgid: "Cannot save the file", msgstr }]);
      const kept = keptBytes(bytes, before, write.catalog, "keep");
      assert.equal(kept.layout.mode, "keep", String(kept.layout.reason));
      const out = flatBytes(kept.bytes);
      // The file's bytes up to the changed entry are kept as they were.
      const unchangedPrefix = bytes.subarray(0, bytes.length - 'msgstr ""\n'.length);
      assert.deepEqual(out.subarray(0, unchangedPrefix.length), unchangedPrefix);
      const conv = new Deno.Command("msgconv", {
        args: ["-t", "UTF-8", "-"],
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = conv.stdin.getWriter();
      await writer.write(out);
      await writer.close();
      const utf8 = await conv.output();
      assert.ok(utf8.success);
      assert.deepEqual(parsePo(utf8.stdout).messages.map((m) => m.msgstr).slice(1), [msgstr, msgstr]);
    }
  },
});
