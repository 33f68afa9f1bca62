/**
 * The two server modes, from a parsed configuration: `serve` (HTTP, with MCP at `/mcp`) and `mcp`
 * (MCP over stdio). `main.ts` reads argv and the environment and calls one of them; this module
 * builds the real dependencies and starts the server.
 *
 * @module
 */
import { gitRunner } from "./git_runner.ts";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ByteBudget } from "../lib/byte_budget.ts";
import { listenFailure, serveWarnings } from "../cli/startup.ts";
import { writeAll } from "../cli/log.ts";
import { type Config, isLoopbackHost } from "../lib/config.ts";
import { GpssClient, QuotaLedger } from "../lib/gpss/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { type AuditLog, FileAuditLog, MemoryAuditLog } from "../lib/audit/mod.ts";
import {
  ConnectionWatch,
  ensureSchema,
  leftWritePaths,
  PgAuditLog,
  PgQuotaLedger,
  PgSharedSearches,
  pgWriteLease,
  type Sql,
  type WriteLease,
} from "../lib/pg/mod.ts";
import { StartupError } from "../cli/startup.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import type { AppDeps } from "./deps.ts";
import { buildMcpServer, logLine } from "./mcp.ts";
import { startMemory } from "./memory.ts";
import { LineTransport } from "./mcp_stdio.ts";
import { createApp, serverFetch, serveTools, TOOL_GROUPS } from "./mod.ts";
import { type RunningServer, startServer } from "./server.ts";

/**
 * The production dependencies: a GPSS client, and a catalogue store that shares one allowance for
 * large work (catalogue loads and large answers being sent) with the answers.
 */
export function appDeps(
  config: Config,
  log: (line: string) => void,
  shared: SharedState | null = null,
): AppDeps {
  const gpss = new GpssClient({
    baseUrl: config.gpssApiUrl,
    userCode: config.userCode,
    timeoutMs: config.gpssTimeoutMs,
    cacheTtlMs: config.gpssCacheTtlS * 1000,
    // The quota ledger of this user code: in PostgreSQL when the instances share one, else kept in
    // GPSS_STATE_DIR (checked at start-up).
    quota: config.userCode === undefined ? null : shared
      ? new PgQuotaLedger(shared.sql, {
        userCode: config.userCode,
        windows: config.gpssQuotaWindows,
        onProblem: log,
      })
      : new QuotaLedger({
        userCode: config.userCode,
        windows: config.gpssQuotaWindows,
        stateDir: config.gpssStateDir,
      }),
    // Answers and identical searches in flight shared with the other instances.
    shared: shared
      ? new PgSharedSearches(shared.sql, { watch: shared.watch, maxHolders: 3, onProblem: log })
      : null,
  });
  const budget = new ByteBudget(config.maxInflightBytes);
  const catalogues = new CatalogueStore({
    loadAllowance: budget,
    roots: config.poRoots,
    codec: PO_CODEC,
    maxFileBytes: config.poMaxFileBytes,
    ...(shared ? { writeLease: shared.writeLease } : {}),
  });
  // The audit log in PostgreSQL, else in PO_AUDIT_DIR (checked at start-up), else in memory (said).
  const audit = shared?.audit ??
    (config.auditDir === null ? new MemoryAuditLog() : new FileAuditLog(config.auditDir));
  return { config, log, gpss, catalogues, budget, audit, git: gitRunner() };
}

/** What the instances share in PostgreSQL (DATABASE_URL). */
export interface SharedState {
  sql: Sql;
  /** Which pool connections closed (reserved ones are used only while alive). */
  watch: ConnectionWatch;
  audit: AuditLog;
  writeLease: WriteLease;
}

/**
 * Connects to DATABASE_URL (the client reconnects by itself after a drop) and makes the shared
 * tables when missing; null without DATABASE_URL.
 *
 * @throws {StartupError} when the database cannot be reached at start-up.
 */
export async function sharedState(config: Config, log: (line: string) => void): Promise<SharedState | null> {
  if (config.databaseUrl === null) return null;
  const { default: postgres } = await import("postgres");
  const watch = new ConnectionWatch();
  const sql = postgres(config.databaseUrl.href, {
    ...watch.options,
    // 6 for write leases, 3 for GPSS searches going upstream, the rest for the statements.
    max: 14,
    connect_timeout: 5,
    idle_timeout: 60,
    onnotice: () => {},
    // Idempotent statements only are retried by the client; the rest fail with a 503 (see lib/pg).
  }) as unknown as Sql;
  try {
    await ensureSchema(sql);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    const where = `${config.databaseUrl.hostname}:${config.databaseUrl.port || "5432"}`;
    throw new StartupError(
      `DATABASE_URL: cannot use the database at ${where}: ${
        String((error as Error)?.message ?? error).slice(0, 200)
      }`,
    );
  }
  log(
    `shared state in PostgreSQL at ${config.databaseUrl.hostname}: audit log, catalogue write leases, GPSS quota and answers`,
  );
  // Leases hold at most 6 of the 14 connections: the writers under them need some to record.
  return {
    sql,
    audit: new PgAuditLog(sql),
    writeLease: pgWriteLease(sql, watch, 6, { onProblem: log }),
    watch,
  };
}

/**
 * At start-up, in the background: the writes an instance left claimed and unrecorded (killed between
 * its claim and its record) are settled, catalogue by catalogue, under each one's lease: recorded when
 * the file holds their bytes, dropped when it never will. The next write of a catalogue does the same.
 */
function settleLeftWrites(deps: AppDeps, shared: SharedState | null): void {
  const catalogues = deps.catalogues;
  if (shared === null || catalogues === undefined) return;
  (async () => {
    const paths = await leftWritePaths(shared.sql);
    let settled = 0;
    for (const path of paths) {
      try {
        await catalogues.settleLeftWrite(path, AbortSignal.timeout(60_000));
        settled++;
      } catch (error) {
        deps.log(`write lease: a write left on ${path} is not settled yet: ${logLine(error)}`);
      }
    }
    if (settled > 0) deps.log(`write lease: settled the writes left on ${settled} file(s)`);
  })().catch((error) => deps.log(`write lease: the writes left are not settled yet: ${logLine(error)}`));
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
export async function runHttpServer(config: Config, { log, unrestricted }: RunOptions): Promise<void> {
  const facts = { host: config.host, loopback: isLoopbackHost(config.host), apiToken: config.apiToken };
  for (const line of serveWarnings({ ...facts, unrestricted })) log(line);
  const shared = await sharedState(config, log);
  const deps = appDeps(config, log, shared);
  settleLeftWrites(deps, shared);
  const app = createApp(deps);
  // The translation memory is built in the background from the start: the first suggest waits
  // only for what is left of it.
  startMemory(deps);
  let server: RunningServer | undefined;
  // Before listening: Deno sets up its signal handling (a descriptor) on first use, and a flood of
  // connections past the descriptor limit must not be what makes it fail.
  stopOnSignals(async () => {
    await server?.shutdown();
    await shared?.sql.end({ timeout: 2 }).catch(() => {});
  }, log);
  try {
    server = startServer(serverFetch(app, log), {
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
        log(
          `listening on http://${hostname}:${port} (catalogue roots: ${config.poRoots.join(", ")}${
            // Said once: the audit log is lost on restart unless kept somewhere.
            config.auditDir === null && shared === null
              ? "; audit log in memory only: set PO_AUDIT_DIR"
              : ""})`,
        ),
    });
  } catch (error) {
    throw listenFailure(error, config.host, config.port);
  }
}

/** How long a stop on SIGTERM or SIGINT lets the answers in progress run. */
const STOP_GRACE_MS = 10_000;

/**
 * On SIGTERM or SIGINT: `stop` (no new connections; answers in progress finish, at most
 * {@link STOP_GRACE_MS}), then exit 0. A second signal exits at once (status 130).
 */
function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void): void {
  let stopping = false;
  const onSignal = (name: Deno.Signal) => () => {
    if (stopping) Deno.exit(130);
    stopping = true;
    log(
      `${name}: stopping: no new connections; answers in progress may finish (${
        STOP_GRACE_MS / 1000
      } s at most)`,
    );
    const grace = AbortSignal.timeout(STOP_GRACE_MS);
    const timedOut = new Promise<void>((resolve) =>
      grace.addEventListener("abort", () => resolve(), { once: true })
    );
    Promise.race([stop(), timedOut]).catch(() => {}).finally(() => Deno.exit(0));
  };
  for (const name of ["SIGTERM", "SIGINT"] as const) {
    try {
      Deno.addSignalListener(name, onSignal(name));
    } catch {
      // A platform without this signal (SIGTERM on Windows): its default stays.
    }
  }
}

/** Serves MCP over stdin/stdout: stdout carries protocol messages only, every log line goes to stderr. */
export async function runMcpStdio(config: Config, { log }: RunOptions): Promise<void> {
  const shared = await sharedState(config, log);
  const deps = appDeps(config, log, shared);
  settleLeftWrites(deps, shared);
  const tools = serveTools(TOOL_GROUPS, deps);
  startMemory(deps);
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
