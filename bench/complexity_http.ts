/**
 * Growth of the service's request paths with the size of hostile inputs (issue 23): validation
 * errors, JSON syntax errors, answers of catalogues of many tiny entries, MCP errors; searches by
 * regular expression and literal, checks of long plural entries, listings past the listing cap
 * (issue 40). Each is sent
 * through the real app in-process (`app.request`, no socket) at sizes N, 4N and 16N; the table
 * gives the time per size and the ratio per 4× step (see `bench/complexity.ts`), then the size of
 * each answer against its request's.
 *
 *   deno run --allow-read --allow-write --allow-env [--v8-flags=--expose-gc] bench/complexity_http.ts [FILTER]
 *
 * @module
 */
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { createApp } from "../routes/mod.ts";
import { measure, type Measurement, printTable } from "./complexity.ts";
import { loadNativeBytes } from "../lib/native_bytes.ts";

// As the servers run the engine: node:buffer's native Latin-1 decoding and memcmp.
await loadNativeBytes();

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "complexity-http-" }));
const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC, cacheMaxBytes: 0 });
const app = createApp({
  config: { apiToken: undefined, maxBodyBytes: 64 << 20, maxResponseBytes: 256 << 20 },
  log: () => {},
  catalogues,
  // Every search sent here is refused by validation: GPSS is never asked.
  gpss: { search: () => Promise.reject(new Error("the benchmark reaches no GPSS")) },
});

/** Sizes of the last answer of each section: [request bytes, answer bytes] per size. */
const sizes = new Map<string, [number, number][]>();

function post(section: string, path: string, body: string, headers: Record<string, string> = {}) {
  const bytes = new TextEncoder().encode(body);
  return async () => {
    const res = await app.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: bytes,
    });
    const answer = await res.arrayBuffer();
    const list = sizes.get(section) ?? [];
    if (!list.some(([r, a]) => r === bytes.length && a === answer.byteLength)) {
      list.push([bytes.length, answer.byteLength]);
    }
    sizes.set(section, list);
  };
}

type Run = () => Promise<void>;

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
let fileNo = 0;

function tinyCatalogue(n: number): string {
  const path = `${root}/tiny${fileNo++}.po`;
  const parts = [HEADER];
  for (let i = 0; i < n; i++) parts.push(`msgid "${i.toString(36)}"\nmsgstr ""\n\n`);
  Deno.writeTextFileSync(path, parts.join(""));
  return path;
}

/**
 * `run`, started once its files are older than 2 s: a file changed within 2 s of its reading is
 * verified again at each listing (tree.ts, "racy"), which a tree in use is not.
 */
function settled(run: Run): Run {
  const at = Date.now() + 2100;
  return async () => {
    if (Date.now() < at) await new Promise((r) => setTimeout(r, at - Date.now()));
    await run();
  };
}

/** A catalogue in its own directory (searched with `under`) whose one entry's msgstr is `text`. */
function oneEntryCatalogue(text: string): string {
  const dir = `s${fileNo++}`;
  Deno.mkdirSync(`${root}/${dir}`);
  const lines = text.match(/.{1,64}/gs) ?? [""];
  Deno.writeTextFileSync(
    `${root}/${dir}/one.po`,
    `${HEADER}msgid "big"\nmsgstr ""\n${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
  );
  return dir;
}

/** A catalogue of n entries in its own directory (searched with `under`). */
function manyEntriesCatalogue(n: number): string {
  const dir = `s${fileNo++}`;
  Deno.mkdirSync(`${root}/${dir}`);
  const parts = [HEADER];
  for (let i = 0; i < n; i++) parts.push(`msgid "été numéro ${i} du texte"\nmsgstr "été ${i} étéétéété"\n\n`);
  Deno.writeTextFileSync(`${root}/${dir}/many.po`, parts.join(""));
  return dir;
}

/** A tree of n tiny catalogues (ten per directory) served by its own app, with the listing cap `cap`. */
function listedTree(n: number, cap: number, path: string, body: Record<string, unknown>): Run {
  const dir = `${root}/tree${fileNo++}`;
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0) Deno.mkdirSync(`${dir}/d${i / 10}`, { recursive: true });
    Deno.writeTextFileSync(
      `${dir}/d${Math.floor(i / 10)}/f${i}.po`,
      `${HEADER}msgid "Open"\nmsgstr "Ouvrir"\n`,
    );
  }
  const treeApp = createApp({
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, poMaxListedFiles: cap },
    log: () => {},
    catalogues: new CatalogueStore({ roots: [dir], codec: PO_CODEC }),
    gpss: { search: () => Promise.reject(new Error("the benchmark reaches no GPSS")) },
  });
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  // A file changed within 2 s of its reading is verified again at each listing (tree.ts, "racy"):
  // the runs start once the tree is older than that, as a tree in use is.
  const settled = Date.now() + 2100;
  return async () => {
    if (Date.now() < settled) await new Promise((r) => setTimeout(r, settled - Date.now()));
    const res = await treeApp.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    await res.arrayBuffer();
  };
}

/** A plural entry whose msgid_plural is `n` characters dense in markup, with `forms` short forms. */
function longPluralEntry(n: number, forms: number) {
  const unit = "See `os.path <https://docs.python.org/x>`_ and %(n)d <b>x</b> :ref:`foo` :term:`bar` " +
    "a@b.org http://e.com/ \t";
  return {
    msgid: "%(n)d file",
    msgid_plural: unit.repeat(Math.ceil(n / unit.length)).slice(0, n),
    msgstr: "",
    msgstr_plural: Object.fromEntries(Array.from({ length: forms }, (_, i) => [String(i), `x${i} <b>`])),
    flags: ["python-format"],
    occurrences: ["library/os.rst:1"],
  };
}

const filter = Deno.args[0] ?? "";
const sections: [string, number[], (n: number) => Run][] = [
  [
    "422: N bad `databases` codes",
    [25e3, 1e5, 4e5],
    (n) =>
      post(
        "codes",
        "/tools/search_patents",
        JSON.stringify({ keywords: "a", databases: Array(n).fill("XX") }),
      ),
  ],
  [
    "422: N bad `search_field` names",
    [25e3, 1e5, 4e5],
    (n) =>
      post(
        "fields",
        "/tools/search_patents",
        JSON.stringify({ keywords: "a", search_field: Array(n).fill("xx") }),
      ),
  ],
  [
    "422: /po/write with `entries: [0, …]` × N",
    [25e3, 1e5, 4e5],
    (n) =>
      post("entries", "/po/write", JSON.stringify({ file_path: `${root}/w.po`, entries: Array(n).fill(0) })),
  ],
  [
    "422: JSON syntax error after N numbers",
    [25e4, 1e6, 4e6],
    (n) => post("json", "/new/endpoint/", "[" + "1,".repeat(n) + "x]"),
  ],
  [
    "422: a string of N characters where a list is expected",
    [25e4, 1e6, 4e6],
    (n) => post("string", "/po/write", JSON.stringify({ file_path: `${root}/w.po`, entries: "é".repeat(n) })),
  ],
  [
    "MCP: tools/call with N bad codes",
    [25e3, 1e5, 4e5],
    (n) =>
      post(
        "mcp",
        "/mcp",
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "search_patents", arguments: { keywords: "a", databases: Array(n).fill("XX") } },
        }),
        { "mcp-protocol-version": "2025-06-18" },
      ),
  ],
  [
    "/po/read of N tiny entries (cold)",
    [1e4, 4e4, 16e4],
    (n) => {
      const path = tinyCatalogue(n);
      return post("read", "/po/read", JSON.stringify({ file_path: path }));
    },
  ],
  [
    "/po/read_context of N tiny entries, context_size N (cold)",
    [1e4, 4e4, 16e4],
    (n) => {
      const path = tinyCatalogue(n);
      return post(
        "context",
        "/po/read_context",
        JSON.stringify({ file_path: path, msgid: "0", context_size: n }),
      );
    },
  ],
  [
    "/po/search regex (weight 21) over one msgstr of N characters (warm)",
    [4000, 16e3, 64e3],
    (n) => {
      const dir = oneEntryCatalogue("été étéé ".repeat(Math.ceil(n / 9)).slice(0, n));
      return settled(post(
        "regex-long",
        "/po/search",
        JSON.stringify({ query: "(?:é|e)t[a-z]{2,8} needle", regex: true, in: ["msgstr"], under: dir }),
      ));
    },
  ],
  [
    "/po/search regex (weight 21) over N entries (warm)",
    [1e4, 4e4, 16e4],
    (n) => {
      const dir = manyEntriesCatalogue(n);
      return settled(post(
        "regex-many",
        "/po/search",
        JSON.stringify({
          query: "(?:é|e)t[a-z]{2,8} needle",
          regex: true,
          in: ["msgid", "msgstr"],
          under: dir,
        }),
      ));
    },
  ],
  [
    "/po/search case-insensitive regex, non-ASCII, over N entries (warm)",
    [1e4, 4e4, 16e4],
    (n) => {
      const dir = manyEntriesCatalogue(n);
      return settled(post(
        "regex-i",
        "/po/search",
        JSON.stringify({ query: "ÉTÉ \\d+ X", regex: true, case_insensitive: true, under: dir }),
      ));
    },
  ],
  [
    "/po/search 256-character literal regex over one msgstr of N characters (warm)",
    [25e4, 1e6, 4e6],
    (n) => {
      const dir = oneEntryCatalogue("a".repeat(n));
      return settled(post(
        "literal",
        "/po/search",
        JSON.stringify({ query: "a".repeat(255) + "b", regex: true, in: ["msgstr"], under: dir }),
      ));
    },
  ],
  [
    "/po/check one entry, 100 forms, msgid_plural of N characters",
    [5e4, 2e5, 8e5],
    (n) => post("check-long", "/po/check", JSON.stringify({ entry: longPluralEntry(n, 100) })),
  ],
  [
    "/po/check one entry, msgid_plural of 200,000 characters, N forms",
    [6, 25, 100],
    (n) => post("check-forms", "/po/check", JSON.stringify({ entry: longPluralEntry(200_000, n) })),
  ],
  [
    "/po/write dry_run one entry, 100 forms, msgid_plural of N characters",
    [5e4, 2e5, 8e5],
    (n) => {
      const path = tinyCatalogue(10);
      return post(
        "write-long",
        "/po/write",
        JSON.stringify({ file_path: path, dry_run: true, entries: [longPluralEntry(n, 100)] }),
      );
    },
  ],
  [
    "/po/catalogues of N catalogues (warm), listing cap 1,000",
    [1250, 5000, 20e3],
    (n) => listedTree(n, 1000, "/po/catalogues", { limit: 1000 }),
  ],
  [
    "/po/search of N catalogues (warm), listing cap 1,000",
    [1250, 5000, 20e3],
    (n) => listedTree(n, 1000, "/po/search", { query: "Ouvrir", limit: 100 }),
  ],
];

const rows: Measurement[] = [];
try {
  for (const [name, steps, make] of sections) {
    if (!name.includes(filter)) continue;
    if (!name.includes("(warm)")) {
      rows.push(await measure(name, steps, make, (run) => run()));
      continue;
    }
    // Each size's files read once, untimed: a warm listing or search is what is measured.
    const runs = new Map(steps.map((n) => [n, make(n)]));
    for (const run of runs.values()) await run();
    rows.push(await measure(name, steps, (n) => runs.get(n)!, (run) => run()));
  }
} finally {
  await Deno.remove(root, { recursive: true });
}
printTable(rows);
console.log("\n| section | request bytes → answer bytes, per size |\n| --- | --- |");
for (const [name, list] of sizes) {
  console.log(`| ${name} | ${list.map(([req, ans]) => `${req} → ${ans}`).join("; ")} |`);
}
