/**
 * `msgfmt -c` agreement: every corpus file msgfmt rejects is flagged by the checks, on the same
 * entry; and so is every entry msgfmt rejects in corpus files whose placeholders and newlines were
 * broken on purpose (every other formatted entry: a placeholder dropped, its conversion changed,
 * one added, or the final newline toggled). Runs where GNU gettext and ../shared are installed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { messageLines } from "../lib/po/read/parse.ts";
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";
import { checkCatalog, type CheckProblem, isCheckable } from "../lib/po/checks/mod.ts";
import { lacks } from "./_prerequisites.ts";
import { entryAt, msgfmt } from "./_msgfmt_verdicts.ts";

const CORPUS = new URL("../../shared/corpus/po/", import.meta.url);

/** The checks that stand for msgfmt -c's own (the rest go beyond it). */
const MSGFMT_CHECKS = new Set([
  "syntax",
  "duplicates",
  "plural-forms",
  "plural-count",
  "charset",
  "newlines",
  "python-format",
  "python-brace-format",
  "c-format",
]);

/** Entries msgfmt rejects, and entries our msgfmt-like checks flag, as indices (-1: before any). */
async function compare(path: string, bytes: Uint8Array): Promise<{ theirs: Set<number>; ours: Set<number> }> {
  const theirs = new Set<number>();
  const ours = new Set<number>();
  let catalog: PoCatalog;
  try {
    catalog = parsePo(bytes, { fileName: path, strict: false, allowBom: true });
  } catch {
    // Unreadable: our one problem is the syntax error at msgfmt's first line.
    const lines = (await msgfmt(path)).errors.map((e) => e.line);
    return { theirs: new Set(lines.slice(0, 1)), ours: new Set(lines.slice(0, 1)) };
  }
  const starts = messageLines(catalog)!;
  for (const line of (await msgfmt(path)).errors.map((e) => e.line)) theirs.add(entryAt(starts, line));
  const problems: CheckProblem[] = checkCatalog(catalog, { path });
  for (const p of problems) {
    if (MSGFMT_CHECKS.has(p.check) && p.line !== null) ours.add(entryAt(starts, p.line));
  }
  return { theirs, ours };
}

function corpusFiles(): string[] {
  return [...Deno.readDirSync(CORPUS)].map((e) => e.name).filter((n) => n.endsWith(".po")).sort();
}

Deno.test(
  "every corpus file msgfmt -c rejects is flagged by the checks, on the same entries",
  { ignore: lacks(import.meta.url, "shared", "msgcat") },
  async () => {
    let rejected = 0;
    for (const name of corpusFiles()) {
      const path = new URL(name, CORPUS).pathname;
      const { theirs, ours } = await compare(path, Deno.readFileSync(path));
      if (theirs.size > 0) rejected++;
      const missed = [...theirs].filter((i) => !ours.has(i));
      assert.deepEqual(missed, [], `${name}: msgfmt rejects entries we do not flag`);
    }
    assert.ok(rejected >= 2, `${rejected} corpus files rejected by msgfmt -c`);
  },
);

/** A placeholder-breaking change of one msgstr, by kind. */
function mutate(s: string, kind: number, language: string): string {
  const directive = language === "python-brace" ? /\{[A-Za-z0-9_]+\}/ : /%(\([A-Za-z_]+\))?[sd]/;
  switch (kind) {
    case 0:
      return s.replace(directive, "");
    case 1:
      return s.replace(/%(\([A-Za-z_]+\))?s/, "%$1d");
    case 2:
      return language === "python-brace"
        ? `${s} {extra}`
        : language === "python" && s.includes("%(")
        ? `${s} %(extra)s`
        : `${s} %s`;
    default:
      return s.endsWith("\n") ? s.slice(0, -1) : `${s}\n`;
  }
}

function languageOf(m: PoMessage): string | null {
  for (const f of m.flags) {
    if (f === "c-format") return "c";
    if (f === "python-format") return "python";
    if (f === "python-brace-format") return "python-brace";
  }
  return null;
}

Deno.test(
  "entries whose placeholders were broken on purpose: msgfmt -c and the checks flag the same ones",
  { ignore: lacks(import.meta.url, "shared", "msgcat") },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "checks-msgfmt-" });
    let mutated = 0;
    let flaggedByMsgfmt = 0;
    let extra = 0;
    try {
      for (const name of corpusFiles()) {
        const source = new URL(name, CORPUS).pathname;
        let catalog: PoCatalog;
        try {
          catalog = parsePo(Deno.readFileSync(source), { fileName: name });
        } catch {
          continue; // unreadable or with duplicates: the first test covers it
        }
        let k = 0;
        let changed = 0;
        const messages = catalog.messages.map((m) => {
          const language = languageOf(m);
          if (language === null || !isCheckable(m) || k++ % 2 !== 0) return m;
          const kind = (k / 2) % 4 | 0;
          changed++;
          return m.msgstrPlural === null
            ? { ...m, msgstr: mutate(m.msgstr, kind, language) }
            : { ...m, msgstrPlural: m.msgstrPlural.map((s) => (s === "" ? s : mutate(s, kind, language))) };
        });
        if (changed === 0) continue;
        mutated += changed;
        const path = `${dir}/${name}`;
        const bytes = encodePo({ ...catalog, messages });
        Deno.writeFileSync(path, bytes);
        const { theirs, ours } = await compare(path, bytes);
        flaggedByMsgfmt += theirs.size;
        const missed = [...theirs].filter((i) => !ours.has(i));
        assert.deepEqual(missed, [], `${name}: msgfmt rejects entries we do not flag`);
        extra += [...ours].filter((i) => !theirs.has(i)).length;
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    console.log(
      `mutated ${mutated} entries; msgfmt -c rejects ${flaggedByMsgfmt}, all flagged by the checks; ` +
        `the checks flag ${extra} more with msgfmt's own checks`,
    );
    assert.ok(mutated >= 100 && flaggedByMsgfmt >= 50, `${mutated} mutated, ${flaggedByMsgfmt} rejected`);
  },
);
