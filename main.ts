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
import {
  type Config,
  CONFIG_ENV_NAMES,
  ConfigError,
  isLoopbackHost,
  parseConfig,
  PERMISSION_ENV_NAMES,
  permissionFlags,
} from "./lib/config.ts";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ByteBudget } from "./lib/byte_budget.ts";
import { GpssClient } from "./lib/gpss/mod.ts";
import { encodePo, parsePo, runWrap, type WrapIo } from "./lib/po/mod.ts";
import { PO_CODEC } from "./lib/po/po_codec.ts";
import { atomicUpdateFile, CatalogueStore, readRegularFileBytes } from "./lib/store/mod.ts";
import { buildMcpServer, logLine } from "./routes/mcp.ts";
import { LineTransport } from "./routes/mcp_stdio.ts";
import { allTools, createApp, serverFetch } from "./routes/mod.ts";
import type { AppDeps } from "./routes/deps.ts";
import { startServer } from "./routes/server.ts";

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

function loadConfig(names: readonly string[]): Config {
  try {
    return parseConfig(readEnv(names), { defaultPoRoots: DEFAULT_PO_ROOTS, cwd: Deno.cwd() });
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
function wrapIo(args: string[]): WrapIo {
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
      await atomicUpdateFile(path, (current) => {
        if (current === null) return null;
        const before = read.get(path);
        return before && sameBytes(before, current)
          ? bytes
          : encodePo(parsePo(current, { fileName: path }), { noWrap });
      });
    },
    stdout: (text) => writeAll(Deno.stdout, new TextEncoder().encode(text)),
    stdoutBytes: (bytes) => writeAll(Deno.stdout, bytes),
    stderr: (text) => writeAll(Deno.stderr, new TextEncoder().encode(text)),
  };
}

function buildDeps(config: Config): AppDeps {
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

function mcpStdio(config: Config): void {
  // stdout carries protocol messages only; every log line goes to stderr.
  const deps = buildDeps(config);
  const transport = new LineTransport(
    Deno.stdin.readable,
    (bytes) => writeAll(Deno.stdout, bytes),
    log,
    config.maxBodyBytes,
  );
  serveStdio(() => buildMcpServer(allTools(), deps), {
    transport,
    onerror: (error) => log(`MCP: ${logLine(error)}`),
  });
}

function serve(config: Config): void {
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
  const app = createApp(buildDeps(config));
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
}

function main(args: string[]): void {
  const [mode = "serve", ...rest] = args;
  switch (mode) {
    case "serve":
      return serve(loadConfig(CONFIG_ENV_NAMES));
    case "permissions": {
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
    case "mcp":
      return mcpStdio(loadConfig(CONFIG_ENV_NAMES));
    case "wrap":
      runWrap(rest, wrapIo(rest)).then((code) => Deno.exit(code));
      return;
    default:
      console.error(`unknown mode ${JSON.stringify(mode)}; usage: main.ts [serve|mcp|wrap|permissions]`);
      Deno.exit(2);
  }
}

if (import.meta.main) main(Deno.args);
