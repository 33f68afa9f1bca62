/**
 * The program's one impure edge: reads argv and the environment, then runs one mode.
 *
 *   main.ts [serve]            HTTP server (default)
 *   main.ts mcp                MCP server over stdio
 *   main.ts wrap [opts] FILE…  powrap-compatible formatter
 *   main.ts permissions MODE   prints the least-privilege deno flags for MODE (used by deno.json tasks)
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// Types only: erased at run time. Every module a mode needs is loaded by that mode with a literal
// `import("./…")` (statically analysable, so `deno compile` bundles them all): `wrap` never loads
// zod, Hono, the MCP SDK or routes/, and starts in a fraction of the time.
import type { Config } from "./lib/config.ts";
import type { WrapIo } from "./lib/po/wrap_cli.ts";
import type { AppDeps } from "./routes/deps.ts";

const DEFAULT_PO_ROOTS = [fileURLToPath(new URL("./examples/", import.meta.url)).replace(/\/$/, "")];

/**
 * Log lines (one per request) go to stderr together, once per turn of the event loop: a write per
 * line was ~7 % of a cached read's time under load. `flushLog` runs at exit too.
 */
const pendingLog: string[] = [];
const logEncoder = new TextEncoder();

function log(line: string): void {
  if (pendingLog.push(line) === 1) setTimeout(flushLog, 0);
}

function flushLog(): void {
  if (pendingLog.length === 0) return;
  const bytes = logEncoder.encode(pendingLog.join("\n") + "\n");
  pendingLog.length = 0;
  try {
    for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
  } catch {
    // stderr closed: nothing to tell anyone
  }
}
globalThis.addEventListener("unload", flushLog);

/** Reads the variables this process is allowed to read (the rest count as unset). */
function readEnv(names: readonly string[]): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of names) {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state === "granted") {
      env[name] = Deno.env.get(name);
    }
  }
  return env;
}

/** The configuration module (zod): loaded by the modes that read the environment, not by `wrap`. */
type ConfigModule = typeof import("./lib/config.ts");

function loadConfig(cfg: ConfigModule, names: readonly string[]): Config {
  const { ConfigError, parseConfig } = cfg;
  try {
    const config = parseConfig(readEnv(names), { defaultPoRoots: DEFAULT_PO_ROOTS, cwd: Deno.cwd() });
    // Every root a readable directory; the lock directory (PO_LOCK_DIR) checked and in use.
    cfg.prepareStore(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    Deno.exit(2);
  }
}

function writeAll(file: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * File access of the `wrap` command. A rewrite happens under the lock the server takes; if the
 * file changed since it was read (a server write landed), the current content is re-formatted
 * instead, so that update is kept.
 */
async function wrapIo(args: string[]): Promise<WrapIo> {
  const [{ encodePo }, { parsePo }, store, tree] = await Promise.all([
    import("./lib/po/write.ts"),
    import("./lib/po/parse.ts"),
    import("./lib/store/mod.ts"),
    import("./lib/po/wrap_host.ts"),
  ]);
  const { atomicUpdateFile, readRegularFileBytes } = store;
  let locksReady = false;
  /**
   * The lock directory the servers use (PO_LOCK_DIR), so a wrap and a server take the same lock.
   * Opened at the first write only: `--check`, `--diff` and `--stdout` take no lock, so they run
   * with read permission alone (as the msgcat differential check runs `wrap --stdout`).
   */
  const prepareLocks = () => {
    if (locksReady) return;
    try {
      store.useLockDirectory(readEnv(["PO_LOCK_DIR"]).PO_LOCK_DIR);
    } catch (error) {
      if (!(error instanceof store.StoreSetupError)) throw error;
      console.error(`wrap: ${error.message}`);
      Deno.exit(2);
    }
    locksReady = true;
  };
  const read = new Map<string, Uint8Array>();
  const noWrap = args.includes("--no-wrap");
  return {
    readFile: async (path) => {
      // Not Deno.readFile: it blocks forever on a FIFO and reads /dev/zero without end.
      const bytes = await readRegularFileBytes(path);
      read.set(path, bytes);
      return bytes;
    },
    writeFile: async (path, bytes) => {
      prepareLocks();
      await atomicUpdateFile(path, (current) => {
        if (current === null) return null;
        const before = read.get(path);
        return before && sameBytes(before, current)
          ? bytes
          : encodePo(parsePo(current, { fileName: path }), { noWrap });
      });
      read.delete(path);
    },
    forget: (path) => read.delete(path),
    pathKind: tree.pathKind,
    readDir: tree.readDirEntries,
    modifiedFiles: tree.gitModifiedFiles,
    // Workers only when asked (--jobs=N): on this project's 2 shared CPUs they did not pay off
    // (bench/README.md#wrap), and each pays the engine's module load again.
    layoutPool: async (_files, jobs) => {
      const size = jobs ?? 1;
      if (size < 2) return null;
      const { startLayoutPool } = await import("./lib/po/wrap_pool.ts");
      return startLayoutPool(size);
    },
    stdout: (text) => writeAll(Deno.stdout, new TextEncoder().encode(text)),
    stdoutBytes: (bytes) => writeAll(Deno.stdout, bytes),
    stderr: (text) => writeAll(Deno.stderr, new TextEncoder().encode(text)),
  };
}

/** The modules the two servers need, loaded only by `serve` and `mcp`. */
async function loadServerModules() {
  const [gpss, budget, store, codec, routes, mcp, stdio, server, sdk] = await Promise.all([
    import("./lib/gpss/mod.ts"),
    import("./lib/byte_budget.ts"),
    import("./lib/store/mod.ts"),
    import("./lib/po/po_codec.ts"),
    import("./routes/mod.ts"),
    import("./routes/mcp.ts"),
    import("./routes/mcp_stdio.ts"),
    import("./routes/server.ts"),
    import("@modelcontextprotocol/server/stdio"),
  ]);
  return {
    GpssClient: gpss.GpssClient,
    ByteBudget: budget.ByteBudget,
    CatalogueStore: store.CatalogueStore,
    PO_CODEC: codec.PO_CODEC,
    TOOL_GROUPS: routes.TOOL_GROUPS,
    serveTools: routes.serveTools,
    createApp: routes.createApp,
    serverFetch: routes.serverFetch,
    buildMcpServer: mcp.buildMcpServer,
    logLine: mcp.logLine,
    LineTransport: stdio.LineTransport,
    startServer: server.startServer,
    serveStdio: sdk.serveStdio,
  };
}
type ServerModules = Awaited<ReturnType<typeof loadServerModules>>;

function buildDeps(
  config: Config,
  { GpssClient, ByteBudget, CatalogueStore, PO_CODEC }: ServerModules,
): AppDeps {
  const gpss = new GpssClient({
    baseUrl: config.gpssApiUrl,
    userCode: config.userCode,
    timeoutMs: config.gpssTimeoutMs,
    cacheTtlMs: config.gpssCacheTtlS * 1000,
  });
  // One allowance for large work: catalogue loads and large answers being sent.
  const budget = new ByteBudget(config.maxInflightBytes);
  const catalogues = new CatalogueStore({
    loadAllowance: budget,
    roots: config.poRoots,
    codec: PO_CODEC,
    maxFileBytes: config.poMaxFileBytes,
  });
  return { config, log, gpss, catalogues, budget };
}

function mcpStdio(config: Config, modules: ServerModules): void {
  const { LineTransport, serveStdio, buildMcpServer, TOOL_GROUPS, serveTools, logLine } = modules;
  // stdout carries protocol messages only; every log line goes to stderr.
  const deps = buildDeps(config, modules);
  const tools = serveTools(TOOL_GROUPS, deps);
  const transport = new LineTransport(
    Deno.stdin.readable,
    (bytes) => writeAll(Deno.stdout, bytes),
    log,
    config.maxBodyBytes,
  );
  serveStdio(() => buildMcpServer(tools, deps), {
    transport,
    onerror: (error) => log(`MCP: ${logLine(error)}`),
  });
}

function serve(config: Config, modules: ServerModules, isLoopbackHost: (host: string) => boolean): void {
  const { createApp, serverFetch, startServer } = modules;
  if (!isLoopbackHost(config.host) && config.apiToken === undefined) {
    log(
      `warning: listening on ${config.host} without API_TOKEN: anyone who can reach this port can use the API`,
    );
  }
  const broad = (["read", "write", "net", "env", "run"] as const)
    .filter((name) => Deno.permissions.querySync({ name }).state === "granted");
  if (broad.length > 0) {
    log(
      `warning: running with unrestricted ${
        broad.join(", ")
      } permission; \`deno task start\` runs least-privilege`,
    );
  }
  const app = createApp(buildDeps(config, modules));
  try {
    startServer(serverFetch(app, log), {
      hostname: config.host,
      port: config.port,
      limits: {
        maxConnections: config.maxConnections,
        headerTimeoutMs: config.headerTimeoutMs,
        keepAliveTimeoutMs: config.keepAliveTimeoutMs,
        sendTimeoutMs: config.sendTimeoutMs,
      },
      log,
      onListen: ({ hostname, port }) =>
        log(`listening on http://${hostname}:${port} (catalogue roots: ${config.poRoots.join(", ")})`),
    });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      fail(
        `cannot listen on ${config.host}:${config.port}: the address is already in use (set PORT to another port)`,
      );
    }
    if (error instanceof Deno.errors.AddrNotAvailable) {
      fail(`cannot listen on ${config.host}:${config.port}: no such address on this machine (check HOST)`);
    }
    throw error;
  }
}

/** One line on stderr, exit status 2: how a start-up that cannot go on ends. */
function fail(line: string): never {
  flushLog();
  console.error(line);
  Deno.exit(2);
}

const USAGE = `po-tools: PO catalogues, greeting and patent search, over HTTP and MCP

Usage: main.ts [MODE] [OPTIONS]

Modes:
  serve              the HTTP server (default); configured by environment variables (README)
  mcp                the MCP server over stdio
  wrap [OPTS] PATH…  lay PO files out as msgcat does (powrap-compatible); main.ts wrap --help
  permissions MODE   print the least-privilege deno flags for serve or mcp (used by deno.json tasks)

Options:
  --help, -h         this help (main.ts MODE --help: that mode's)
  --version, -V      the version

Run it with the tasks: deno task start | deno task mcp | deno task wrap (they grant exactly what the
mode needs). Docs: README.md; the running server's API: /docs.
`;

const MODE_USAGE: Record<string, string> = {
  serve:
    "Usage: main.ts serve\n\nThe HTTP server (and MCP over HTTP at /mcp). Configured by environment variables\n" +
    "(PORT, HOST, PO_ROOTS, API_TOKEN, …: see README.md, Configuration). Run it as `deno task start`.\n",
  mcp:
    "Usage: main.ts mcp\n\nThe MCP server over stdio (newline-delimited JSON-RPC on stdin/stdout; logs on stderr).\n" +
    "Configured like serve. Run it as `deno task mcp`.\n",
  permissions:
    "Usage: main.ts permissions serve|mcp\n\nPrints the least-privilege deno flags the tasks use for that mode.\n",
};

/** A missing permission, said in one line with what to do (Deno's message names what was refused). */
function permissionFailure(error: Deno.errors.NotCapable): never {
  const what = String(error.message).split("\n", 1)[0].replace(/, run again with.*$/, "");
  fail(
    `missing permission: ${what}; run it through its task (deno task start | mcp | wrap), which grants what it needs`,
  );
}

async function main(args: string[]): Promise<void> {
  const [mode = "serve", ...rest] = args;
  if (mode === "--help" || mode === "-h" || mode === "help") {
    console.log(USAGE);
    return;
  }
  if (mode === "--version" || mode === "-V") {
    const { VERSION } = await import("./lib/version.ts");
    console.log(`po-tools ${VERSION}`);
    return;
  }
  if (mode in MODE_USAGE && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(MODE_USAGE[mode]);
    return;
  }
  switch (mode) {
    case "serve": {
      const [cfg, modules] = await Promise.all([import("./lib/config.ts"), loadServerModules()]);
      return serve(loadConfig(cfg, cfg.CONFIG_ENV_NAMES), modules, cfg.isLoopbackHost);
    }
    case "permissions": {
      const { CONFIG_ENV_NAMES, ConfigError, parseConfig, PERMISSION_ENV_NAMES, permissionFlags } =
        await import(
          "./lib/config.ts"
        );
      const target = rest[0] === "mcp" ? "mcp" : "serve";
      // An invalid configuration prints no flags: the real run then reports it once, clearly.
      try {
        const config = parseConfig(readEnv(PERMISSION_ENV_NAMES), {
          defaultPoRoots: DEFAULT_PO_ROOTS,
          cwd: Deno.cwd(),
        });
        console.log(permissionFlags(config, target).join(" "));
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        console.log(`--allow-env=${CONFIG_ENV_NAMES.join(",")}`);
      }
      return;
    }
    case "mcp": {
      const [cfg, modules] = await Promise.all([import("./lib/config.ts"), loadServerModules()]);
      return mcpStdio(loadConfig(cfg, cfg.CONFIG_ENV_NAMES), modules);
    }
    case "wrap": {
      enterCallersDirectory();
      const [{ runWrap }, io] = await Promise.all([import("./lib/po/wrap_cli.ts"), wrapIo(rest)]);
      Deno.exit(await runWrap(rest, io));
      return;
    }
    default:
      console.error(
        `unknown mode ${JSON.stringify(mode)}; usage: main.ts [serve|mcp|wrap|permissions] (main.ts --help)`,
      );
      Deno.exit(2);
  }
}

/**
 * `deno task` runs in the po-tools checkout and sets `INIT_CWD` to the directory the user ran it
 * from: `wrap` takes its paths (and asks git) from there. Read only when the permission is granted
 * (the `wrap` task grants `--allow-env=INIT_CWD`); a bare `deno run` stays where it is.
 */
function enterCallersDirectory(): void {
  if (Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state !== "granted") return;
  const dir = Deno.env.get("INIT_CWD");
  if (!dir) return;
  try {
    Deno.chdir(dir);
  } catch (error) {
    console.error(`wrap: cannot enter INIT_CWD ${JSON.stringify(dir)}: ${(error as Error).message}`);
    Deno.exit(2);
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) permissionFailure(error);
    throw error;
  }
}
