/**
 * The house's boundaries, read from the sources (as std checks its `mod.ts` exports):
 *
 * - `routes/`, `cli/`, `lib/workbench/` and `main.ts` reach the PO engine, the store and the GPSS
 *   client only through their doors, `lib/po/mod.ts`, `lib/store/mod.ts` and `lib/gpss/mod.ts`;
 * - `lib/` imports nothing of `cli/`, `routes/` or `main.ts`, reads no environment and never exits;
 * - every `mod.ts` names what it exports (no `export *`).
 *
 * Tests may import any module: they test it.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DOORS = [
  "lib/po",
  "lib/store",
  "lib/gpss",
  "lib/terms",
  "lib/memory",
  "lib/history",
  "lib/auth",
  "lib/audit",
  "lib/pg",
];

/** The source without its comments (a string holding `//` may lose its tail: imports are not such lines). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every module specifier a source names: static imports and re-exports, side-effect and dynamic imports. */
function importSpecifiers(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) {
    for (const m of code.matchAll(pattern)) found.push(m[1]!);
  }
  return found;
}

/** The repository path (POSIX, relative to the root) a relative specifier of `file` names, or null. */
function target(file: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  return relative(ROOT, resolve(ROOT, dirname(file), specifier)).replaceAll("\\", "/");
}

/** Why `file` may not import `specifier`, or null when it may. */
function boundaryProblem(file: string, specifier: string): string | null {
  const to = target(file, specifier);
  if (to === null) return null;
  const edge = file === "main.ts" || file.startsWith("routes/") || file.startsWith("cli/") ||
    file.startsWith("lib/workbench/");
  if (edge) {
    for (const door of DOORS) {
      if (to.startsWith(`${door}/`) && to !== `${door}/mod.ts`) {
        return `${file} imports ${to} past the door ${door}/mod.ts`;
      }
    }
  }
  if (file.startsWith("lib/") && (to.startsWith("cli/") || to.startsWith("routes/") || to === "main.ts")) {
    return `${file} (the engine) imports ${to}`;
  }
  return null;
}

/** What a `lib/` source may not do: read the environment or end the process. */
function processEdgeProblem(file: string, source: string): string | null {
  const code = withoutComments(source);
  const m = /\bDeno\s*\.\s*(env|exit|args)\b/.exec(code);
  return m ? `${file} uses Deno.${m[1]} (a process edge: it belongs in cli/ or main.ts)` : null;
}

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for await (const e of Deno.readDir(join(ROOT, d))) {
      const path = `${d}/${e.name}`;
      if (e.isDirectory) stack.push(path);
      else if (e.isFile && e.name.endsWith(".ts")) out.push(path);
    }
  }
  return out.sort();
}

const read = (file: string) => Deno.readTextFile(join(ROOT, file));

Deno.test("the boundary check itself tells deep imports, upward imports and process edges", async (t) => {
  const cases: [string, string, boolean][] = [
    ["routes/po.ts", "../lib/po/mod.ts", true],
    ["routes/po.ts", "../lib/po/catalog.ts", false],
    ["routes/po.ts", "../lib/po/checks/mod.ts", false],
    ["cli/wrap/io.ts", "../../lib/store/atomic_write.ts", false],
    ["cli/wrap/io.ts", "../../lib/store/mod.ts", true],
    ["lib/workbench/stats.ts", "../po/types.ts", false],
    ["lib/workbench/stats.ts", "../gpss/query.ts", false],
    ["main.ts", "./lib/gpss/client.ts", false],
    ["main.ts", "./lib/config.ts", true],
    ["lib/po/read/parse.ts", "./types.ts", true],
    ["lib/po/mod.ts", "../../cli/progress.ts", false],
    ["lib/config.ts", "../routes/errors.ts", false],
    ["lib/config.ts", "./store/lock_dir.ts", true],
    ["tests/po_parse_test.ts", "../lib/po/parse.ts", true],
  ];
  for (const [file, specifier, allowed] of cases) {
    await t.step(`${file} → ${specifier}: ${allowed ? "allowed" : "refused"}`, () => {
      assert.equal(boundaryProblem(file, specifier) === null, allowed);
    });
  }
  await t.step("every form of import is read; comments are not", () => {
    const source = `import { a } from "./a.ts";
import type {
  B,
} from "./b.ts";
export { c } from "./c.ts";
export * from "./d.ts";
import "./e.ts";
const f = await import("./f.ts");
// import { g } from "./g.ts";
/** import { h } from "./h.ts"; */`;
    assert.deepEqual(importSpecifiers(source).sort(), [
      "./a.ts",
      "./b.ts",
      "./c.ts",
      "./d.ts",
      "./e.ts",
      "./f.ts",
    ]);
  });
  await t.step("Deno.env and Deno.exit are found in code, not in comments", () => {
    assert.match(processEdgeProblem("lib/x.ts", "const v = Deno.env.get('X');")!, /Deno\.env/);
    assert.match(processEdgeProblem("lib/x.ts", "Deno.exit(2);")!, /Deno\.exit/);
    assert.equal(processEdgeProblem("lib/x.ts", "/** main.ts reads `Deno.env` */\n// Deno.exit(1)\n"), null);
  });
});

Deno.test("routes/, cli/, lib/workbench/ and main.ts reach lib/po, lib/store and lib/gpss only through their mod.ts", async () => {
  const files = [
    "main.ts",
    ...await sources("routes"),
    ...await sources("cli"),
    ...await sources("lib/workbench"),
  ];
  assert.ok(files.length > 40, files.join(", "));
  const problems: string[] = [];
  for (const file of files) {
    for (const specifier of importSpecifiers(await read(file))) {
      const problem = boundaryProblem(file, specifier);
      if (problem !== null) problems.push(problem);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("lib/ imports nothing of cli/, routes/ or main.ts, reads no environment and never exits", async () => {
  const files = await sources("lib");
  assert.ok(files.length > 100, files.join(", "));
  const problems: string[] = [];
  for (const file of files) {
    const source = await read(file);
    for (const specifier of importSpecifiers(source)) {
      const problem = boundaryProblem(file, specifier);
      if (problem !== null) problems.push(problem);
    }
    const edge = processEdgeProblem(file, source);
    if (edge !== null) problems.push(edge);
  }
  assert.deepEqual(problems, []);
});

Deno.test("every mod.ts names what it exports: no export *", async () => {
  const doors = (await sources("lib")).filter((f) => f.endsWith("/mod.ts"));
  assert.ok(doors.includes("lib/po/mod.ts") && doors.includes("lib/gpss/mod.ts"), doors.join(", "));
  const problems: string[] = [];
  for (const file of doors) {
    if (/\bexport\s*\*/.test(withoutComments(await read(file)))) problems.push(file);
  }
  assert.deepEqual(problems, []);
});

Deno.test("the generated tables kept in git say so on their first line, naming a generator that writes that line", async () => {
  const tables = [
    "lib/po/layout/_unicode_data.ts",
    "lib/po/layout/_unicode_data_023.ts",
    "lib/po/charsets/_legacy_charset_data.ts",
    "lib/po/layout/_scan_tables.ts",
  ];
  for (const file of tables) {
    const first = (await read(file)).split("\n", 1)[0]!;
    const m = /^\/\/ @generated by (\.ci\/\S+\.ts), do not edit$/.exec(first);
    assert.ok(m, `${file}: ${first}`);
    const generator = await read(m[1]!);
    assert.ok(generator.includes(first), `${m[1]} does not write "${first}"`);
  }
  // Nothing else in lib/, cli/ or routes/ claims to be generated: the rest is written by hand.
  const marked: string[] = [];
  for (const file of [...await sources("lib"), ...await sources("cli"), ...await sources("routes")]) {
    if ((await read(file)).startsWith("// @generated")) marked.push(file);
  }
  assert.deepEqual(marked.sort(), [...tables].sort());
});

Deno.test("main.ts stays a dispatcher: at most 100 lines", async () => {
  const lines = (await read("main.ts")).split("\n").length - 1;
  assert.ok(lines <= 100, `main.ts has ${lines} lines: move what a mode does into cli/`);
});
