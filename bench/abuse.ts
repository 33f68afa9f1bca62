/**
 * Floods against the real server (`main.ts serve` with the flags `deno task start` uses, under
 * `ulimit -n 1024`, a fresh process per flood), each bounded in time, loopback only. While a flood runs, a prober sends one small request
 * (`POST /new/endpoint/`) every 100 ms on a new connection; afterwards the process must still be
 * alive and answer. Prints, per flood: probes answered within 1 s, the longest probe, the server's
 * peak RSS (VmHWM), whether it survived, and what the flood's own requests got.
 *
 *   deno run -A bench/abuse.ts [NAME_FILTER]
 *
 * Targets (issue 14): during each flood a concurrent small request is answered within 1 s; peak RSS
 * stays under 1 GiB; the process never exits. Issue 40 added the regular-expression, check and
 * listing floods (each request repeated until the flood's time is up).
 *
 * @module
 */
import { rawRequest } from "../tests/_raw_http.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const FLOOD_SECONDS = 6;
const FD_LIMIT = 1024;

interface Server {
  port: number;
  pid: number;
  child: Deno.ChildProcess;
  root: string;
}

interface Flood {
  name: string;
  /** Files to put in the catalogue root first (generated once, shared by floods). */
  prepare?: (root: string) => Promise<void>;
  /** Runs the flood; returns a short summary of what its own requests got. */
  run: (server: Server, until: number) => Promise<string>;
  env?: Record<string, string>;
}

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

async function writeCatalogue(path: string, entries: number, entry: (i: number) => string): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  let batch = HEADER;
  for (let i = 0; i < entries; i++) {
    batch += entry(i);
    if (batch.length > 1 << 20) {
      await file.write(enc.encode(batch));
      batch = "";
    }
  }
  await file.write(enc.encode(batch));
  file.close();
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function startServer(root: string, extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = freePort();
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    PO_ROOTS: root,
    PO_LOCK_DIR: `${root}.locks`,
    GPSS_API_URL: "http://127.0.0.1:9/gpss",
    USER_CODE: "abuse-bench-code",
    NO_COLOR: "1",
    ...extraEnv,
  };
  // The least-privilege flags `deno task start` uses, from the same configuration.
  const permissions = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "--allow-env", "--allow-sys=uid", MAIN, "permissions", "serve"],
    env,
    stdout: "piped",
  }).output();
  const flags = [
    ...new TextDecoder().decode(permissions.stdout).trim().split(" "),
    // As `deno task start`: the search's regular expressions need the linear engine.
    "--v8-flags=--no-memory-reducer,--enable-experimental-regexp-engine",
  ];
  // exec keeps the pid: the lowered descriptor limit is the server's own.
  const command = `ulimit -n ${FD_LIMIT}; exec "${Deno.execPath()}" run --quiet --no-prompt ${
    flags.join(" ")
  } ${MAIN} serve`;
  const child = new Deno.Command("bash", {
    args: ["-c", command],
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      await res.body?.cancel();
      if (res.ok) return { port, pid: child.pid, child, root };
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

function alive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return !Deno.readTextFileSync(`/proc/${pid}/status`).includes("State:\tZ");
  } catch {
    return false;
  }
}

function peakRssMiB(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return NaN;
  }
}

/** One small request per 100 ms until `until`; the latency of each (Infinity: no answer in 5 s). */
async function probe(port: number, until: number): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  while (Date.now() < until) {
    const started = performance.now();
    pending.push(
      rawRequest(
        port,
        "POST /new/endpoint/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json",
        '{"name":"probe"}',
        5000,
      )
        .then((r) => void latencies.push(r.status === 200 ? performance.now() - started : Infinity))
        .catch(() => void latencies.push(Infinity)),
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all(pending);
  return latencies;
}

function post(port: number, path: string, body: string | Uint8Array, extra = ""): Promise<number> {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return rawRequest(
    port,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json${extra}`,
    text,
    60_000,
  )
    .then((r) => r.status)
    .catch(() => 0);
}

function statuses(list: number[]): string {
  const counts = new Map<number, number>();
  for (const s of list) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n}×${s === 0 ? "closed" : s}`).join(" ");
}

/** Opens `n` connections (as many as the bench's own limit allows) and runs `each` on them. */
async function holdConnections(port: number, n: number, until: number, first?: Uint8Array): Promise<string> {
  const conns: Deno.Conn[] = [];
  let failed = 0;
  for (let i = 0; i < n && Date.now() < until; i++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      if (first) await conn.write(first).catch(() => {});
      conns.push(conn);
    } catch {
      failed++;
    }
  }
  // Hold them; count those the server closed.
  const closedByServer = conns.map((conn) =>
    conn.read(new Uint8Array(1024)).then((r) => r === null).catch(() => true)
  );
  await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
  let closed = 0;
  await Promise.race([
    Promise.all(closedByServer.map((p) => p.then((c) => void (c && closed++)))),
    new Promise((r) => setTimeout(r, 200)),
  ]);
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
  return `${conns.length} opened, ${failed} refused at connect, ${closed} closed by the server during the hold`;
}

/** Sends `body` to `path` again and again (`parallel` at a time) until `until`; what they got. */
async function repeat(
  port: number,
  until: number,
  path: string,
  body: () => string,
  parallel = 2,
  extra = "",
): Promise<string> {
  const got: number[] = [];
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (Date.now() < until) got.push(await post(port, path, body(), extra));
  }));
  return statuses(got);
}

const MCP_HEADERS = "\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18";

/** Text dense in what the checks look at: roles, links, placeholders, tags, URLs, addresses, tabs. */
function markup(n: number): string {
  const unit = "See `os.path <https://docs.python.org/x>`_ and %(n)d <b>x</b> :ref:`foo` :term:`bar` " +
    "a@b.org http://e.com/ \t";
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

const floods: Flood[] = [
  {
    name: "idle connections past the descriptor limit",
    run: ({ port }, until) => holdConnections(port, FD_LIMIT + 500, until),
  },
  {
    name: "half-sent headers",
    run: ({ port }, until) =>
      holdConnections(
        port,
        400,
        until,
        new TextEncoder().encode("POST /po/read HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
      ),
  },
  {
    name: "bodies declared 16 MiB, never sent",
    run: ({ port }, until) =>
      holdConnections(
        port,
        50,
        until,
        new TextEncoder().encode(
          "POST /po/write HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 16777215\r\n\r\n",
        ),
      ),
  },
  {
    name: "invalid JSON of many numbers (4 × 16 MiB)",
    run: async ({ port }) => {
      const body = "[" + "1,".repeat(8 * 1024 * 1024 - 8) + "x]";
      return statuses(await Promise.all([0, 1, 2, 3].map(() => post(port, "/new/endpoint/", body))));
    },
  },
  {
    name: "MCP: a batch of 41 read_po, then 41 concurrent read_po, on a 3 MB catalogue",
    prepare: (root) =>
      writeCatalogue(
        `${root}/three.po`,
        30_000,
        (i) =>
          `#: src/file${
            i % 97
          }.py:${i}\nmsgid "Message number ${i} of the catalogue"\nmsgstr "Traduction ${i}"\n\n`,
      ),
    run: async ({ port, root }) => {
      const call = (id: number) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "read_po", arguments: { file_path: `${root}/three.po` } },
      });
      const extra = "\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18";
      const batch = await post(
        port,
        "/mcp",
        JSON.stringify(Array.from({ length: 41 }, (_, i) => call(i))),
        extra,
      );
      const singles = await Promise.all(
        Array.from({ length: 41 }, (_, i) => post(port, "/mcp", JSON.stringify(call(i)), extra)),
      );
      return `batch: ${batch}; singles: ${statuses(singles)}`;
    },
  },
  {
    name: "60 slow readers of 15 MB catalogues (6 files)",
    prepare: async (root) => {
      for (let f = 0; f < 6; f++) {
        await writeCatalogue(
          `${root}/big${f}.po`,
          250_000,
          (i) => `msgid "Entry ${f} ${i} with some text"\nmsgstr "Eintrag ${i}"\n\n`,
        );
      }
    },
    run: async ({ port, root }, until) => {
      const conns: Deno.Conn[] = [];
      for (let i = 0; i < 60; i++) {
        const body = JSON.stringify({ file_path: `${root}/big${i % 6}.po` });
        try {
          const conn = await Deno.connect({ hostname: "127.0.0.1", port });
          await conn.write(new TextEncoder().encode(
            `POST /po/read HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          ));
          conns.push(conn);
        } catch {
          // refused
        }
      }
      // Never read: the answers (or errors) wait in the server.
      await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
      const firstLines = await Promise.all(conns.map(async (conn) => {
        const buf = new Uint8Array(64);
        const n = await Promise.race([
          conn.read(buf).catch(() => null),
          new Promise<null>((r) => setTimeout(() => r(null), 2000)),
        ]);
        return n ? Number(new TextDecoder().decode(buf.subarray(0, n)).split(" ")[1]) : 0;
      }));
      for (const conn of conns) conn.close();
      return statuses(firstLines);
    },
  },
  {
    name: "validation errors: 5 MB of bad databases codes, 5 MB of bad search_field",
    run: async ({ port }) => {
      const codes = JSON.stringify({ keywords: "a", databases: Array(600_000).fill("XX") });
      const fields = JSON.stringify({ keywords: "a", search_field: Array(600_000).fill("xx") });
      return statuses(
        await Promise.all([
          post(port, "/tools/search_patents", codes),
          post(port, "/tools/search_patents", fields),
        ]),
      );
    },
  },
  {
    name: "one entry with 200k references (write, then cold read)",
    run: async ({ port, root }) => {
      const occurrences = Array.from({ length: 200_000 }, (_, i) => `f${i}.py:${i}`);
      const write = await post(
        port,
        "/po/write",
        JSON.stringify({ file_path: `${root}/refs.po`, entries: [{ msgid: "a", msgstr: "b", occurrences }] }),
      );
      const read = await post(port, "/po/read", JSON.stringify({ file_path: `${root}/refs.po` }));
      return `write ${write}, read ${read}`;
    },
  },
  {
    name: "cold read of 100k entries sharing one msgid",
    prepare: (root) =>
      writeCatalogue(`${root}/shared.po`, 100_000, (i) => `msgctxt "c${i}"\nmsgid "same"\nmsgstr "x"\n\n`),
    run: async ({ port, root }) =>
      statuses([await post(port, "/po/read", JSON.stringify({ file_path: `${root}/shared.po` }))]),
  },
  {
    name: "reads of a 15 MB catalogue of tiny entries (×2) and of a 27 MB one",
    prepare: async (root) => {
      await writeCatalogue(`${root}/tiny.po`, 700_000, (i) => `msgid "${i.toString(36)}"\nmsgstr ""\n\n`);
      await writeCatalogue(`${root}/tiny27.po`, 1_300_000, (i) => `msgid "${i.toString(36)}"\nmsgstr ""\n\n`);
    },
    run: async ({ port, root }) =>
      statuses(
        await Promise.all(
          ["tiny", "tiny", "tiny27"].map((f) =>
            post(port, "/po/read", JSON.stringify({ file_path: `${root}/${f}.po` }))
          ),
        ),
      ),
  },
  {
    name: "regex .?×22 + .{22} on a 20-character msgid (HTTP and MCP search_entries)",
    prepare: async (root) => {
      await Deno.mkdir(`${root}/r1`, { recursive: true });
      await writeCatalogue(`${root}/r1/short.po`, 1, () => 'msgid "aaaaaaaaaaaaaaaaaaaa"\nmsgstr "b"\n');
    },
    run: async ({ port }, until) => {
      const query = ".?".repeat(22) + ".{22}";
      const http = repeat(
        port,
        until,
        "/po/search",
        () => JSON.stringify({ query, regex: true, under: "r1" }),
        1,
      );
      const mcp = repeat(
        port,
        until,
        "/mcp",
        () =>
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name: "search_entries",
              arguments: { query: ".?".repeat(24) + ".{24}", regex: true, under: "r1" },
            },
          }),
        1,
        MCP_HEADERS,
      );
      return `HTTP: ${await http}; MCP: ${await mcp}`;
    },
  },
  {
    name: "regex (?:a?){16}b, case-insensitive ÉTÉ(?:a?){16}b over 20,000 entries of 400 characters",
    prepare: async (root) => {
      await Deno.mkdir(`${root}/r2`, { recursive: true });
      await writeCatalogue(
        `${root}/r2/wide.po`,
        20_000,
        (i) => `msgid "entry ${i}"\nmsgstr "${"a".repeat(400)}"\n\n`,
      );
    },
    run: ({ port }, until) =>
      repeat(port, until, "/po/search", () =>
        JSON.stringify({
          query: Math.random() < 0.5 ? "(?:a?){16}b" : "ÉTÉ(?:a?){16}b",
          regex: true,
          case_insensitive: true,
          in: ["msgstr"],
          under: "r2",
        })),
  },
  {
    name: "256-character literal regex, and a heavy regex, over one 1 MB msgstr",
    prepare: async (root) => {
      await Deno.mkdir(`${root}/r3`, { recursive: true });
      await writeCatalogue(
        `${root}/r3/mega.po`,
        1,
        () => `msgid "big"\nmsgstr ""\n${Array(16_384).fill(`"${"a".repeat(64)}"`).join("\n")}\n`,
      );
    },
    run: ({ port }, until) =>
      repeat(port, until, "/po/search", () =>
        JSON.stringify({
          query: Math.random() < 0.5 ? "a".repeat(255) + "b" : "(?:a?){16}b",
          regex: true,
          case_insensitive: Math.random() < 0.5,
          in: ["msgstr"],
          under: "r3",
        })),
  },
  {
    name: "/po/write dry_run: 640 plural forms, a 200 KB msgid_plural",
    run: ({ port, root }, until) =>
      repeat(port, until, "/po/write", () =>
        JSON.stringify({
          file_path: `${root}/plural.po`,
          dry_run: true,
          entries: [{
            msgid: "%d file",
            msgid_plural: markup(200_000),
            msgstr: "",
            msgstr_plural: Object.fromEntries(
              Array.from({ length: 640 }, (_, i) => [String(i), `x${i} <b>`]),
            ),
          }],
        })),
  },
  {
    name: "/po/check: 100 forms of 7.8 KB, a 780 KB msgid_plural (1.56 MB)",
    run: ({ port }, until) =>
      repeat(port, until, "/po/check", () =>
        JSON.stringify({
          entry: {
            msgid: "%(n)d file",
            msgid_plural: markup(780_000),
            msgstr_plural: Object.fromEntries(
              Array.from({ length: 100 }, (_, i) => [String(i), markup(7_800)]),
            ),
            flags: ["python-format"],
            occurrences: ["library/os.rst:1"],
          },
        }), 1),
  },
  {
    name: "listings past the cap: 20,001 catalogues, /po/catalogues, /po/search and the dashboard's listing",
    prepare: async (root) => {
      const po = new TextEncoder().encode(`${HEADER}msgid "Open"\nmsgstr "Ouvrir"\n`);
      for (let i = 0; i < 20_001; i++) {
        if (i % 100 === 0) await Deno.mkdir(`${root}/many/d${i / 100}`, { recursive: true });
        await Deno.writeFile(`${root}/many/d${Math.floor(i / 100)}/f${i}.po`, po);
      }
    },
    run: async ({ port }, until) => {
      const lists = repeat(port, until, "/po/catalogues", () => JSON.stringify({ limit: 1000 }), 1);
      const search = repeat(
        port,
        until,
        "/po/search",
        () => JSON.stringify({ query: "Ouvrir", limit: 50 }),
        1,
      );
      return `catalogues: ${await lists}; search: ${await search}`;
    },
  },
  {
    name: "1 MB of keywords over the search fields",
    run: async ({ port }) => {
      const body = JSON.stringify({
        keywords: "長".repeat(1_000_000),
        search_field: ["title", "abstract", "claims"],
      });
      return statuses(await Promise.all([0, 1, 2, 3].map(() => post(port, "/tools/search_patents", body))));
    },
  },
];

const filter = Deno.args[0];
const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "abuse-" }));
const rows: string[] = [];
try {
  for (const flood of floods) {
    if (filter && !flood.name.includes(filter)) continue;
    await flood.prepare?.(root);
    const server = await startServer(root, flood.env);
    const until = Date.now() + FLOOD_SECONDS * 1000;
    const [latencies, summary] = await Promise.all([
      probe(server.port, until + 1000),
      flood.run(server, until).catch((e) => `flood failed: ${e}`),
    ]);
    await new Promise((r) => setTimeout(r, 500));
    const survived = alive(server.pid);
    const after = survived ? await post(server.port, "/new/endpoint/", '{"name":"after"}') : 0;
    const peak = peakRssMiB(server.pid);
    const within = latencies.filter((ms) => ms <= 1000).length;
    const longest = Math.max(...latencies);
    rows.push(
      `| ${flood.name} | ${within}/${latencies.length} | ${
        Number.isFinite(longest) ? longest.toFixed(0) + " ms" : "none in 5 s"
      } | ${peak.toFixed(0)} MiB | ${survived ? "yes" : "**no**"} (after: ${after}) | ${summary} |`,
    );
    console.error(rows.at(-1));
    try {
      server.child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await server.child.status;
  }
} finally {
  await Deno.remove(root, { recursive: true });
  await Deno.remove(`${root}.locks`, { recursive: true }).catch(() => {});
}
console.log(
  "| flood | probes answered ≤ 1 s | longest probe | peak RSS | alive (probe after) | the flood's requests got |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
