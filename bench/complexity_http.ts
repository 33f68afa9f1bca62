/**
 * Growth of the service's request paths with the size of hostile inputs (issue 23): validation
 * errors, JSON syntax errors, answers of catalogues of many tiny entries, MCP errors. Each is sent
 * through the real app in-process (`app.request`, no socket) at sizes N, 4N and 16N; the table
 * gives the time per size and the ratio per 4× step (see `bench/complexity.ts`), then the size of
 * each answer against its request's.
 *
 *   deno run --allow-read --allow-write --allow-env [--v8-flags=--expose-gc] bench/complexity_http.ts [FILTER]
 *
 * @module
 */
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/po_codec.ts";
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
];

const rows: Measurement[] = [];
try {
  for (const [name, steps, make] of sections) {
    if (!name.includes(filter)) continue;
    rows.push(await measure(name, steps, make, (run) => run()));
  }
} finally {
  await Deno.remove(root, { recursive: true });
}
printTable(rows);
console.log("\n| section | request bytes → answer bytes, per size |\n| --- | --- |");
for (const [name, list] of sizes) {
  console.log(`| ${name} | ${list.map(([req, ans]) => `${req} → ${ans}`).join("; ")} |`);
}
