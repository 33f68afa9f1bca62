/**
 * The two server modes, from a parsed configuration: `serve` (HTTP, with MCP at `/mcp`) and `mcp`
 * (MCP over stdio). `main.ts` reads argv and the environment and calls one of them; this module
 * builds the real dependencies and starts the server.
 *
 * @module
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ByteBudget } from "../lib/byte_budget.ts";
import { listenFailure, serveWarnings } from "../cli/startup.ts";
import { writeAll } from "../cli/log.ts";
import { type Config, isLoopbackHost } from "../lib/config.ts";
import { GpssClient, QuotaLedger } from "../lib/gpss/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { FileAuditLog, MemoryAuditLog } from "../lib/audit/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import type { AppDeps } from "./deps.ts";
import { buildMcpServer, logLine } from "./mcp.ts";
import { LineTransport } from "./mcp_stdio.ts";
import { createApp, serverFetch, serveTools, TOOL_GROUPS } from "./mod.ts";
import { startServer } from "./server.ts";

/**
 * The production dependencies: a GPSS client, and a catalogue store that shares one allowance for
 * large work (catalogue loads and large answers being sent) with the answers.
 */
export function appDeps(config: Config, log: (line: string) => void): AppDeps {
  const gpss = new GpssClient({
    baseUrl: config.gpssApiUrl,
    userCode: config.userCode,
    timeoutMs: config.gpssTimeoutMs,
    cacheTtlMs: config.gpssCacheTtlS * 1000,
    // The quota ledger of this user code, kept in GPSS_STATE_DIR (checked at start-up).
    quota: config.userCode === undefined ? null : new QuotaLedger({
      userCode: config.userCode,
      windows: config.gpssQuotaWindows,
      stateDir: config.gpssStateDir,
    }),
  });
  const budget = new ByteBudget(config.maxInflightBytes);
  const catalogues = new CatalogueStore({
    loadAllowance: budget,
    roots: config.poRoots,
    codec: PO_CODEC,
    maxFileBytes: config.poMaxFileBytes,
  });
  // The audit log in PO_AUDIT_DIR (checked at start-up), else in memory (the start says so).
  const audit = config.auditDir === null ? new MemoryAuditLog() : new FileAuditLog(config.auditDir);
  return { config, log, gpss, catalogues, budget, audit };
}

/** How a server mode logs, and what `main.ts` found of its permissions. */
export interface RunOptions {
  /** One line per call, to stderr. */
  log: (line: string) => void;
  /** Permissions granted without restriction (warned of: the tasks grant less). */
  unrestricted: readonly string[];
}

/**
 * Starts the HTTP server on the configured host and port.
 *
 * @throws {StartupError} when the address is in use or not on this machine.
 */
export function runHttpServer(config: Config, { log, unrestricted }: RunOptions): void {
  const facts = { host: config.host, loopback: isLoopbackHost(config.host), apiToken: config.apiToken };
  for (const line of serveWarnings({ ...facts, unrestricted })) log(line);
  if (config.auditDir === null) {
    log(
      "audit log kept in memory only (the newest 10000 writes, lost on restart): set PO_AUDIT_DIR to keep it",
    );
  }
  const app = createApp(appDeps(config, log));
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
    throw listenFailure(error, config.host, config.port);
  }
}

/** Serves MCP over stdin/stdout: stdout carries protocol messages only, every log line goes to stderr. */
export function runMcpStdio(config: Config, { log }: RunOptions): void {
  const deps = appDeps(config, log);
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
