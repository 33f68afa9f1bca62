/**
 * The format checks against `msgfmt -c`, entry by entry, on real strings broken on purpose:
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/check_mutations.ts DIR…
 *
 * In every `*.po` under each DIR (real catalogues: git's po/ has c, perl and sh formats,
 * gnome-shell's javascript), every other translated entry flagged with a format the checks know
 * gets one change in its msgstr (each form): its first placeholder dropped, one added, or the
 * first doubled. Each changed file is checked by msgfmt -c and by the checks; the entries each
 * rejects are compared (by line). Prints per language: entries changed, rejected by msgfmt, by
 * both, by msgfmt only (missed) and by us only (extra), and the first few disagreements.
 *
 * @module
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { messageLines } from "../lib/po/read/parse.ts";
import { CHECK_NAMES, checkCatalog, isCheckable } from "../lib/po/checks/mod.ts";
import type { PoMessage } from "../lib/po/types.ts";
import { poFilesUnder } from "../tests/_msgfmt_verdicts.ts";

const LANGUAGES = CHECK_NAMES.filter((n) => n.endsWith("-format")).map((n) => n.slice(0, -7));

/** A placeholder of each language (the first one a msgstr has is the one changed). */
function directive(language: string): RegExp {
  switch (language) {
    case "python-brace":
      return /\{[A-Za-z0-9_]*\}/;
    case "python":
      return /%(\([A-Za-z_]+\))?[-+ #0]*\d*(\.\d+)?[diouxXeEfFgGcrsa]/;
    case "sh":
      return /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/;
    case "kde":
    case "qt":
      return /%L?[1-9]\d?/;
    case "boost":
      return /%(\d+%|[-+ #0]*\d*(\.\d+)?[sdxfc])/;
    default:
      return /%(\d+\$)?[-+ #0]*\d*(\.\d+)?(hh|h|ll|l|L|q|j|z|t|V)?[diouxXeEfFgGcsbp]/;
  }
}

function extra(language: string): string {
  switch (language) {
    case "python-brace":
      return " {extra}";
    case "sh":
      return " $extra";
    case "kde":
    case "qt":
      return " %9";
    case "boost":
      return " %9%";
    default:
      return " %s";
  }
}

function mutate(s: string, kind: number, language: string): string {
  const d = directive(language);
  const m = d.exec(s);
  if (kind === 0) return m === null ? s + extra(language) : s.replace(d, "");
  if (kind === 1) return s + extra(language);
  return m === null ? s + extra(language) : s.replace(d, `${m[0]} ${m[0]}`);
}

function languageOf(m: PoMessage): string | null {
  for (const f of m.flags) {
    const l = f.endsWith("-format") && !/^(no|possible|impossible)-/.test(f) ? f.slice(0, -7) : null;
    if (l !== null && LANGUAGES.includes(l)) return l;
  }
  return null;
}

async function msgfmtLines(path: string): Promise<Set<number>> {
  const out = await new Deno.Command("msgfmt", {
    args: ["-c", "-o", "/dev/null", path],
    stderr: "piped",
    env: { LC_ALL: "C" },
  }).output();
  const lines = new Set<number>();
  for (const line of new TextDecoder().decode(out.stderr).split("\n")) {
    const m = /^[^:]+:(\d+): (?!warning:)(?!\.\.\.)/.exec(line);
    if (m !== null) lines.add(Number(m[1]));
  }
  return lines;
}

interface Tally {
  changed: number;
  theirs: number;
  both: number;
  missed: number;
  extra: number;
  examples: string[];
}
const tallies = new Map<string, Tally>();
const dir = await Deno.makeTempDir();
for (const root of Deno.args) {
  for (const path of poFilesUnder(root)) {
    let catalog;
    try {
      catalog = parsePo(Deno.readFileSync(path), { fileName: path, strict: false });
    } catch {
      continue;
    }
    // Obsolete entries left out: some real files repeat a live msgid in one (msgfmt refuses those).
    catalog = { ...catalog, messages: catalog.messages.filter((m) => !m.obsolete) };
    let k = 0;
    const changedLanguage = new Map<PoMessage, string>();
    const messages = catalog.messages.map((m) => {
      const language = languageOf(m);
      if (language === null || !isCheckable(m) || k++ % 2 !== 0) return m;
      const kind = (k >> 1) % 3;
      const changed = m.msgstrPlural === null
        ? { ...m, msgstr: mutate(m.msgstr, kind, language) }
        : { ...m, msgstrPlural: m.msgstrPlural.map((s) => (s === "" ? s : mutate(s, kind, language))) };
      changedLanguage.set(changed, language);
      return changed;
    });
    if (changedLanguage.size === 0) continue;
    const out = `${dir}/t.po`;
    const bytes = encodePo({ ...catalog, messages });
    Deno.writeFileSync(out, bytes);
    const written = parsePo(bytes, { fileName: out });
    const starts = messageLines(written)!;
    const theirs = await msgfmtLines(out);
    const ours = new Set(
      checkCatalog(written, { path: out }).filter((p) => p.severity === "error" && p.line !== null).map((p) =>
        p.line!
      ),
    );
    written.messages.forEach((m, i) => {
      const language = changedLanguage.get(messages[i]!);
      if (language === undefined) return;
      const t = tallies.get(language) ??
        { changed: 0, theirs: 0, both: 0, missed: 0, extra: 0, examples: [] };
      tallies.set(language, t);
      t.changed++;
      const start = starts[i]!;
      const end = i + 1 < starts.length ? starts[i + 1]! : Infinity;
      const inTheirs = [...theirs].some((l) => l >= start && l < end);
      const inOurs = [...ours].some((l) => l >= start && l < end);
      if (inTheirs) t.theirs++;
      if (inTheirs && inOurs) t.both++;
      if (inTheirs !== inOurs) {
        if (inTheirs) t.missed++;
        else t.extra++;
        if (t.examples.length < 5) {
          t.examples.push(
            `${path}:${start} ${inTheirs ? "missed" : "extra"}: ${JSON.stringify(m.msgid.slice(0, 70))}`,
          );
        }
      }
    });
  }
}
await Deno.remove(dir, { recursive: true });
for (const [language, t] of tallies) {
  console.log(
    `${language}-format: ${t.changed} entries changed; msgfmt -c rejects ${t.theirs}; both ${t.both}; ` +
      `missed ${t.missed}; extra ${t.extra}`,
  );
  for (const e of t.examples) console.log(`    ${e}`);
}
