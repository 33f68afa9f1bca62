/**
 * Terminology through the service and the command: check_po and write_po's checks take the root's
 * glossary.po and .po-terms.csv (read through the store's path policy: a link out of the root is
 * not followed), the check command finds them up from the PATH, and term_usage's counts equal a
 * brute-force count over the parsed tree (a separate implementation with regular expressions),
 * over HTTP and MCP, on fixtures and on the real python-docs-fr catalogues when ../shared is here.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type CheckCliIo, checkCliIo, runCheck } from "../cli/check.ts";
import { encodePo, parsePo, type PoCatalog } from "../lib/po/mod.ts";
import { buildTerminology } from "../lib/terms/mod.ts";
import { servedCatalogues } from "./_catalogue_server.ts";
import { childEnv, SHARED_DIR } from "./_helpers.ts";
import { lacks } from "./_prerequisites.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n';

function po(entries: [string, string][]): string {
  const text = HEADER +
    entries.map(([id, str], i) =>
      `#: ../../library/x.rst:${i + 1}\nmsgid ${JSON.stringify(id)}\nmsgstr ${JSON.stringify(str)}\n`
    ).join("\n");
  return new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(text), "x.po")));
}

const GLOSSARY = po([["iterable", "itérable"], ["built-in", "natif"], ["class", "classe"]]);
const TERMS =
  "term,translation,kind,pattern,note\nbuilt-in,natif,glossary,nati*,\n,默认,forbidden,,use 預設\n";
const CATALOGUE = po([
  ["Return an :term:`iterable`.", "Renvoie un :term:`conteneur <iterable>`."],
  ["A built-in function.", "Une fonction native."],
  ["Built-in constants.", "Constantes prédéfinies."],
  ["The default class.", "La classe 默认."],
  ["Any :term:`iterable` works.", "Tout :term:`itérable` convient."],
  ["Three built-ins.", "Trois fonctions natives."],
  ["No term here.", "Aucun terme."],
]);

Deno.test("check_po uses the root's glossary.po and .po-terms.csv; an entry alone says why not", async () => {
  await using s = await servedCatalogues({
    "glossary.po": GLOSSARY,
    ".po-terms.csv": TERMS,
    "library/x.po": CATALOGUE,
  });
  const r = await s.post("/po/check", {
    file_path: "library/x.po",
    checks: ["glossary", "forbidden", "term-target"],
  });
  assert.equal(r.status, 200);
  const got = r.body.problems.map((
    p: { msgid: string; check: string; message: string },
  ) => [p.msgid, p.check]);
  assert.deepEqual(got, [
    ["Return an :term:`iterable`.", "glossary"],
    ["Built-in constants.", "glossary"],
    ["The default class.", "forbidden"],
  ]);
  assert.match(
    r.body.problems[1].message,
    /lacks the agreed translation of “built-in”: “natif” \(\.po-terms\.csv:2\)/,
  );
  const alone = await s.post("/po/check", { entry: { msgid: "The class.", msgstr: "默认" } });
  assert.deepEqual(
    alone.body.not_run.filter((n: { check: string }) => ["glossary", "forbidden"].includes(n.check)).map((
      n: { reason: string },
    ) => n.reason),
    [
      "an entry alone has no root: send file_path for its root's terminology",
      "an entry alone has no root: send file_path for its root's terminology",
    ],
  );
  // With file_path, the entry is checked with the root's terminology (glossary.po terms: where :term: marks them).
  const withFile = await s.post("/po/check", {
    entry: { msgid: "The class.", msgstr: "默认" },
    file_path: "library/x.po",
  });
  assert.deepEqual(withFile.body.problems.map((p: { check: string }) => p.check), ["forbidden"]);
});

Deno.test("write_po: strict refuses a forbidden rendering, warn lists a glossary miss, the file untouched on refusal", async () => {
  await using s = await servedCatalogues({ ".po-terms.csv": TERMS, "library/x.po": CATALOGUE });
  const before = await Deno.readTextFile(s.path("library/x.po"));
  const refused = await s.post("/po/write", {
    file_path: "library/x.po",
    checks: "strict",
    entries: [{ msgid: "No term here.", msgstr: "默认。" }],
  });
  assert.equal(refused.status, 422);
  assert.deepEqual(refused.body.detail.problems.map((p: { check: string }) => p.check), ["forbidden"]);
  assert.equal(await Deno.readTextFile(s.path("library/x.po")), before);
  const warned = await s.post("/po/write", {
    file_path: "library/x.po",
    checks: "warn",
    entries: [{ msgid: "No term here.", msgstr: "Aucun terme." }, {
      msgid: "A built-in function.",
      msgstr: "Une fonction.",
    }],
  });
  assert.equal(warned.status, 200);
  assert.deepEqual(warned.body.problems.map((p: { msgid: string; check: string }) => [p.msgid, p.check]), [
    ["A built-in function.", "glossary"],
  ]);
});

Deno.test("a terminology file linked from outside the root is not read; a root without one says so", async () => {
  const outside = await Deno.makeTempDir();
  await Deno.writeTextFile(`${outside}/terms.csv`, TERMS);
  await using s = await servedCatalogues({ "library/x.po": CATALOGUE });
  await Deno.symlink(`${outside}/terms.csv`, s.path(".po-terms.csv"));
  const r = await s.post("/po/check", { file_path: "library/x.po", checks: ["forbidden"] });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.problems, []);
  assert.ok(
    r.body.notes.some((n: string) => /^Terminology: \.po-terms\.csv was not used: /.test(n)),
    r.body.notes,
  );
  await Deno.remove(s.path(".po-terms.csv"));
  const none = await s.post("/po/check", { file_path: "library/x.po" });
  assert.deepEqual(
    none.body.not_run.filter((n: { check: string }) => n.check === "glossary").map((n: { reason: string }) =>
      n.reason
    ),
    ["the root has no glossary.po or .po-terms.csv: nothing to check against (docs/terminology.md)"],
  );
  await Deno.remove(outside, { recursive: true });
});

/**
 * The brute-force count: every translated entry of every catalogue, the msgid's code blanked by
 * regular expressions, the term and each rendering looked for with a regular expression.
 */
function bruteForce(
  catalogues: { path: string; catalog: PoCatalog }[],
  term: string,
  renderings: string[],
): { entries: number; counts: Map<string | null, number> } {
  const W = "[\\p{L}\\p{M}\\p{N}_]";
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const words = term.toLowerCase().split(/[^\p{L}\p{M}\p{N}_]+/u).filter((w) => w !== "");
  const last = words[words.length - 1]!;
  const forms = [
    last,
    `${last}s`,
    `${last}es`,
    ...(/[^aeiou]y$/.test(last) ? [`${last.slice(0, -1)}ies`] : []),
  ];
  const termRe = new RegExp(
    `(?<!${W})${words.slice(0, -1).map((w) => `${esc(w)}[ \\t\\n\\u00a0-]{1,3}`).join("")}(?:${
      forms.map(esc).join("|")
    })(?!${W})`,
    "iu",
  );
  const renderingRe = (r: string) =>
    new RegExp(
      `(?<!${W})${
        r.toLowerCase().split(/(\s+|[^\p{L}\p{M}\p{N}_\s])/u).map((part) =>
          part === ""
            ? ""
            : /^\s+$/.test(part)
            ? "[ \\n\\t\\u00a0\\r]+"
            : /^[\p{L}\p{M}\p{N}_]/u.test(part)
            ? `${esc(part)}${W}{0,3}`
            : part === "-"
            ? "(?:-|[ \\n\\t\\u00a0\\r])[ \\n\\t\\u00a0\\r]*"
            : esc(part)
        ).join("")
      }(?!${W})`,
      "iu",
    );
  const res = renderings.map((r) => [r, renderingRe(r)] as const);
  const counts = new Map<string | null, number>();
  let entries = 0;
  for (const { catalog } of catalogues) {
    for (const m of catalog.messages) {
      if (m.obsolete || m.msgid === "" || m.flags.includes("fuzzy")) continue;
      const text = m.msgstrPlural === null ? m.msgstr : m.msgstrPlural.join("\n");
      if ((m.msgstrPlural?.[0] ?? m.msgstr) === "") continue;
      const masked = m.msgid
        .replace(/``[\s\S]*?``/g, " ")
        .replace(
          /:[\w.+-]+(?::[\w.+-]+)*:`[^`]*`/g,
          (r) => r.startsWith(":term:") ? r.replace(/<[^<>]*>`$/, "`") : " ",
        )
        .replace(/(`[^`]*)<[^<>`]*>`/g, "$1`")
        .replace(/(?<![\p{L}\p{M}\p{N}_*])\*[\p{L}\p{M}\p{N}_.]+\*(?!\*)/gu, " ");
      if (!termRe.test(masked)) continue;
      entries++;
      let any = false;
      for (const [r, re] of res) {
        if (re.test(text)) {
          counts.set(r, (counts.get(r) ?? 0) + 1);
          any = true;
        }
      }
      if (!any) counts.set(null, (counts.get(null) ?? 0) + 1);
    }
  }
  return { entries, counts };
}

function answerCounts(term: { entries: number; renderings: { rendering: string | null; count: number }[] }) {
  return {
    entries: term.entries,
    counts: new Map(term.renderings.filter((r) => r.count > 0).map((r) => [r.rendering, r.count])),
  };
}

Deno.test("term_usage over HTTP and MCP: counts equal a brute-force count of the fixture tree", async () => {
  await using s = await servedCatalogues({
    "glossary.po": GLOSSARY,
    ".po-terms.csv": TERMS,
    "library/x.po": CATALOGUE,
    "tutorial/y.po": po([["Built-in types are built-in.", "Les types natifs sont prédéfinis."]]),
  });
  const r = await s.post("/po/term_usage", { term: "built-in" });
  assert.equal(r.status, 200);
  const [usage] = r.body.terms;
  assert.equal(usage.term, "built-in");
  assert.equal(usage.agreed, "natif");
  assert.deepEqual(
    usage.renderings.map((x: { rendering: string | null; count: number }) => [x.rendering, x.count]),
    [
      ["natif", 4],
      [null, 1],
    ],
  );
  assert.deepEqual(usage.renderings[1].examples, [{
    file_path: s.path("library/x.po"),
    msgctxt: null,
    msgid: "Built-in constants.",
  }]);
  const catalogues = ["library/x.po", "tutorial/y.po", "glossary.po"].map((p) => ({
    path: p,
    catalog: parsePo(Deno.readFileSync(s.path(p)), p),
  }));
  const brute = bruteForce(catalogues, "built-in", ["nati"]);
  assert.deepEqual(answerCounts(usage), {
    entries: brute.entries,
    counts: new Map([["natif", brute.counts.get("nati")], [null, brute.counts.get(null)]]),
  });
  // The prefix narrows the tree; every term is counted without `term`.
  const narrowed = await s.post("/po/term_usage", { term: "built-in", file_path_prefix: "tutorial/" });
  assert.equal(narrowed.body.terms[0].entries, 1);
  assert.equal(narrowed.body.files, 1);
  const all = await s.post("/po/term_usage", {});
  assert.deepEqual(all.body.terms.map((t: { term: string; entries: number }) => [t.term, t.entries]), [
    ["built-in", 5],
    ["iterable", 3],
    ["class", 2],
  ]);
  // A word the terminology lacks: its entries, none agreed.
  const bare = await s.post("/po/term_usage", { term: "function" });
  assert.deepEqual(bare.body.terms, [{
    term: "function",
    agreed: null,
    entries: 1,
    renderings: [{
      rendering: null,
      count: 1,
      examples: [{ file_path: s.path("library/x.po"), msgctxt: null, msgid: "A built-in function." }],
    }],
  }]);
  // The same over MCP, through the SDK client.
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(s.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const tool = (await client.listTools()).tools.find((t) => t.name === "term_usage");
    assert.ok(tool && tool.description!.length <= 250);
    const called = await client.callTool({ name: "term_usage", arguments: { term: "built-in" } });
    assert.deepEqual((called.structuredContent as { terms: unknown }).terms, r.body.terms);
  } finally {
    await client.close();
  }
});

Deno.test(
  "term_usage on python-docs-fr: counts equal a brute-force count over the parsed tree",
  { ignore: lacks(import.meta.url, "shared") },
  async () => {
    const dir = new URL("corpus/po/", SHARED_DIR).pathname;
    const files: Record<string, string> = {};
    for (const e of Deno.readDirSync(dir)) {
      if (!e.name.startsWith("fr__")) continue;
      const name = e.name === "fr__glossary.po" ? "glossary.po" : e.name.slice(4).replaceAll("__", "/");
      files[name] = Deno.readTextFileSync(`${dir}${e.name}`);
    }
    await using s = await servedCatalogues(files);
    const glossary = parsePo(new TextEncoder().encode(files["glossary.po"]!), "glossary.po");
    const terminology = buildTerminology({ glossary: { catalog: glossary, source: "glossary.po" } });
    const catalogues = Object.keys(files).map((p) => ({
      path: p,
      catalog: parsePo(Deno.readFileSync(s.path(p)), p),
    }));
    let checked = 0;
    for (
      const name of [
        "iterable",
        "generator",
        "abstract base class",
        "file object",
        "function",
        "class",
        "object",
        "list comprehension",
        "bytes-like object",
      ]
    ) {
      const term = terminology.terms.find((t) => t.term === name);
      assert.ok(term, name);
      const r = await s.post("/po/term_usage", { term: name });
      assert.equal(r.status, 200);
      const [usage] = r.body.terms;
      const brute = bruteForce(catalogues, name, term.accepted.map((a) => a.text));
      assert.deepEqual(answerCounts(usage), brute, name);
      assert.ok(usage.entries > 0, name);
      checked += usage.entries;
    }
    assert.ok(checked > 500, `${checked} entries`);
  },
);

Deno.test("main.ts check finds the terminology up from the PATH, not past the repository's top", async () => {
  const repo = await Deno.makeTempDir();
  await Deno.mkdir(`${repo}/.git`);
  await Deno.mkdir(`${repo}/library`);
  await Deno.writeTextFile(`${repo}/.po-terms.csv`, TERMS);
  await Deno.writeTextFile(`${repo}/library/x.po`, CATALOGUE);
  const capture = () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: CheckCliIo = { ...checkCliIo(), out: (l) => stdout.push(l), err: (l) => stderr.push(l) };
    return { io, stdout, stderr };
  };
  const a = capture();
  assert.equal(await runCheck(["--checks=forbidden,glossary", `${repo}/library/x.po`], a.io), 1);
  assert.deepEqual(a.stdout.map((l) => l.replace(repo, "R")), [
    "R/library/x.po:15: glossary: msgstr lacks the agreed translation of “built-in”: “natif” (.po-terms.csv:2)",
    "R/library/x.po:19: forbidden: msgstr has “默认”, a forbidden rendering: use 預設 (.po-terms.csv:3)",
  ]);
  const b = capture();
  assert.equal(
    await runCheck(["--checks=forbidden,glossary", "--no-terms", `${repo}/library/x.po`], b.io),
    0,
  );
  // A repository below another one with a terminology: the walk stops at the inner .git.
  await Deno.mkdir(`${repo}/inner/.git`, { recursive: true });
  await Deno.writeTextFile(`${repo}/inner/x.po`, CATALOGUE);
  const c = capture();
  assert.equal(await runCheck(["--checks=forbidden", `${repo}/inner/x.po`], c.io), 0);
  const d = capture();
  assert.equal(await runCheck(["--checks=forbidden", `--terms=${repo}`, `${repo}/inner/x.po`], d.io), 1);
  await Deno.remove(repo, { recursive: true });
});

Deno.test("main.ts check with read access to the PATH alone: the terminology lookup stops there, the check runs", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${dir}/sub`);
  await Deno.writeTextFile(`${dir}/sub/x.po`, CATALOGUE);
  const repo = new URL("../", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--config",
      `${repo}deno.json`,
      `--allow-read=${dir}/sub,${repo}`,
      `${repo}main.ts`,
      "check",
      "--checks=forbidden",
      "x.po",
    ],
    cwd: `${dir}/sub`,
    env: childEnv({}),
    clearEnv: true,
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  assert.match(stderr, /check: 1 file, no problems/);
  await Deno.remove(dir, { recursive: true });
});
