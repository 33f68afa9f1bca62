/**
 * The terminology checks on a real tree: how many entries each check flags (the false-positive
 * measure of docs/terminology.md reads a sample of them), and what the terminology adds to a check
 * of the tree, as a ratio of the default checks with and without it, measured side by side.
 *
 *   deno run --allow-read --v8-flags=--enable-experimental-regexp-engine bench/terms_check.ts TREE [SAMPLE]
 *
 * TREE holds the catalogues and, at its top, glossary.po and/or .po-terms.csv (a python-docs
 * clone). With SAMPLE, prints that many flagged entries (chosen with a fixed seed) to read.
 *
 * @module
 */
import { checkCatalog, type CheckProblem } from "../lib/po/checks/mod.ts";
import { isHeader, parsePo, type PoCatalog } from "../lib/po/mod.ts";
import { buildTerminology, termRules } from "../lib/terms/mod.ts";

const [tree, sampleArg] = Deno.args;
if (tree === undefined) {
  console.error("usage: bench/terms_check.ts TREE [SAMPLE]");
  Deno.exit(2);
}
const read = (name: string) => {
  try {
    return Deno.readFileSync(`${tree}/${name}`);
  } catch {
    return null;
  }
};
const glossaryBytes = read("glossary.po");
const csvBytes = read(".po-terms.csv");
const terminology = buildTerminology({
  ...(glossaryBytes
    ? { glossary: { catalog: parsePo(glossaryBytes, "glossary.po"), source: "glossary.po" } }
    : {}),
  ...(csvBytes ? { file: { text: new TextDecoder().decode(csvBytes), source: ".po-terms.csv" } } : {}),
});
const rules = termRules(terminology);

const catalogues: { path: string; catalog: PoCatalog }[] = [];
const walk = (dir: string) => {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith(".")) continue;
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) walk(path);
    else if (e.isFile && e.name.endsWith(".po")) {
      try {
        catalogues.push({ path, catalog: parsePo(Deno.readFileSync(path), path) });
      } catch {
        // a file gettext cannot read: not counted
      }
    }
  }
};
walk(tree);

let entries = 0;
for (const { catalog } of catalogues) {
  for (const m of catalog.messages) {
    if (!m.obsolete && !isHeader(m) && m.msgstr !== "" && !m.flags.includes("fuzzy")) entries++;
  }
}

function run(withTerms: boolean): { ms: number; problems: CheckProblem[] } {
  const t0 = performance.now();
  const problems: CheckProblem[] = [];
  for (const { path, catalog } of catalogues) {
    problems.push(...checkCatalog(catalog, { path, terminology: withTerms ? rules : null }));
  }
  return { ms: performance.now() - t0, problems };
}

// Warm both, then alternate: side by side, three rounds each.
run(false);
run(true);
const times = { without: [] as number[], with: [] as number[] };
let last: CheckProblem[] = [];
for (let i = 0; i < 3; i++) {
  times.without.push(run(false).ms);
  const r = run(true);
  times.with.push(r.ms);
  last = r.problems;
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
const flagged = new Map<string, Set<string>>();
for (const p of last) {
  if (!["glossary", "forbidden", "term-target"].includes(p.check)) continue;
  let s = flagged.get(p.check);
  if (s === undefined) flagged.set(p.check, s = new Set());
  s.add(`${p.path}\0${p.msgctxt}\0${p.msgid}`);
}
console.log(
  `${catalogues.length} catalogues, ${entries} translated entries, ${terminology.terms.length} terms, ` +
    `${terminology.forbiddenAnywhere.length} forbidden anywhere`,
);
for (const [check, set] of flagged) {
  console.log(`${check}: ${set.size} entries flagged (${(100 * set.size / entries).toFixed(2)} %)`);
}
const a = median(times.without);
const b = median(times.with);
console.log(
  `default checks: ${a.toFixed(0)} ms without the terminology, ${b.toFixed(0)} ms with it (×${
    (b / a).toFixed(2)
  })`,
);

const sample = Number(sampleArg ?? 0);
if (sample > 0) {
  const terms = last.filter((p) => ["glossary", "forbidden", "term-target"].includes(p.check));
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const byId = new Map<string, string>();
  for (const { catalog } of catalogues) for (const m of catalog.messages) byId.set(m.msgid, m.msgstr);
  for (let i = 0; i < Math.min(sample, terms.length); i++) {
    const p = terms.splice(Math.floor(next() * terms.length), 1)[0]!;
    console.log(
      `\n${p.path}:${p.line} ${p.check}\n  msgid:  ${p.msgid}\n  msgstr: ${
        byId.get(p.msgid)
      }\n  ${p.message}`,
    );
  }
}
