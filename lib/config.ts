/**
 * Typed service configuration, parsed once from environment variables.
 *
 * `lib/` never reads `Deno.env`: `main.ts` collects the variables named in {@link CONFIG_ENV_NAMES}
 * and hands them to {@link parseConfig}. The same configuration also decides the Deno permission
 * flags the service runs with ({@link permissionFlags}), so the sandbox always follows the settings.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import {
  lockDirectorySetting,
  LOCKS_BESIDE_PLACEMENT,
  openLockDirectory,
  processUid,
  setLockPlacement,
  StoreSetupError,
} from "./store/lock_dir.ts";
import { checkRoots } from "./store/path_policy.ts";
import { DEFAULT_QUOTA_WINDOWS, parsePeakWindow, type QuotaWindows } from "./gpss/quota_window.ts";
import { openStateDirectory, StateDirError, stateDirSetting } from "./gpss/state_dir.ts";
import { type GettextGeneration, parseGeneration } from "./po/layout/generation.ts";
import { type Identity, loadTokensFile, TokensFileError } from "./auth/mod.ts";

/** The real GPSS endpoint (TIPO, Taiwan). */
export const DEFAULT_GPSS_API_URL = "https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpss_api";

/** Every environment variable the service reads (and nothing else: the env permission is this list). */
export const CONFIG_ENV_NAMES = [
  "PORT",
  "HOST",
  "MAX_CONNECTIONS",
  "HEADER_TIMEOUT_S",
  "KEEP_ALIVE_TIMEOUT_S",
  "SEND_TIMEOUT_S",
  "PO_ROOTS",
  "USER_CODE",
  "GPSS_API_URL",
  "GPSS_TIMEOUT_MS",
  "GPSS_CACHE_TTL_S",
  "API_TOKEN",
  "PO_MAX_FILE_BYTES",
  "PO_MAX_LISTED_FILES",
  "MAX_BODY_BYTES",
  "INIT_CWD",
  "ALLOWED_HOSTS",
  "ALLOWED_ORIGINS",
  "REQUEST_TIMEOUT_S",
  "MAX_RESPONSE_BYTES",
  "MAX_INFLIGHT_BYTES",
  "PO_LOCK_DIR",
  "GPSS_STATE_DIR",
  "GPSS_QUOTA_PEAK",
  "GPSS_QUOTA_PEAK_RECORDS",
  "GPSS_QUOTA_OFFPEAK_RECORDS",
  "PO_GETTEXT",
  "PO_TOKENS_FILE",
  "PO_AUDIT_DIR",
  "DATABASE_URL",
] as const;

/** The variables that decide permissions (all that `main.ts permissions` is allowed to read). */
export const PERMISSION_ENV_NAMES = [
  "PORT",
  "HOST",
  "PO_ROOTS",
  "GPSS_API_URL",
  "INIT_CWD",
  "PO_LOCK_DIR",
  "GPSS_STATE_DIR",
  "PO_TOKENS_FILE",
  "PO_AUDIT_DIR",
  "DATABASE_URL",
  "DATABASE_URL",
] as const;

/** Variables whose values are secrets: never echoed in a message. */
const SECRET_ENV_NAMES: ReadonlySet<string> = new Set(["API_TOKEN", "USER_CODE", "DATABASE_URL"]);

/** The parsed configuration. */
export interface Config {
  port: number;
  host: string;
  /** Most connections open at once; `undefined`: half the descriptor limit, at most 1024 (512 if unknown). */
  maxConnections: number | undefined;
  /** Time a new connection has to send a complete request head. */
  headerTimeoutMs: number;
  /** Time an answered connection may wait for its next request head. */
  keepAliveTimeoutMs: number;
  /** Time one request may hold its connection, answer included (a backstop for slow readers). */
  sendTimeoutMs: number;
  /** Catalogue roots, absolute, as configured (not symlink-resolved: Deno's allow-list is lexical). */
  poRoots: string[];
  userCode: string | undefined;
  gpssApiUrl: URL;
  gpssTimeoutMs: number;
  gpssCacheTtlS: number;
  apiToken: string | undefined;
  poMaxFileBytes: number;
  /** Most catalogues a listing walks (PO_MAX_LISTED_FILES); past it, listings are truncated. */
  poMaxListedFiles: number;
  maxBodyBytes: number;
  /** Host names accepted in `Host` (lower case, no port), or "*" for any. */
  allowedHosts: string[] | "*";
  /** Origins allowed besides the service's own (`scheme://host[:port]`, lower case), or "*". */
  allowedOrigins: string[] | "*";
  /** Longest time one request may take before it is answered 503 and abandoned. */
  requestTimeoutMs: number;
  /** Largest answer one request may get (HTTP body or MCP result). */
  maxResponseBytes: number;
  /** Bytes of large files being loaded and of large answers being sent, all requests together. */
  maxInflightBytes: number;
  /**
   * The directory of the cross-process lock files (`PO_LOCK_DIR`; default `/tmp/po-tools-locks-UID`),
   * or null for lock files beside each catalogue (`PO_LOCK_DIR=beside`). See `lib/store/lock_dir.ts`.
   */
  poLockDir: string | null;
  /**
   * The gettext layout every write uses (`PO_GETTEXT`: 0.21 or 0.23), or null: each root's
   * `.po-tools.toml`, else what its catalogues are laid out as (`cli/server_config.ts`).
   */
  poGettext: GettextGeneration | null;
  /**
   * The directory keeping the GPSS quota ledger across restarts (`GPSS_STATE_DIR`), or null (unset)
   * to keep it in memory only. See `lib/gpss/state_dir.ts`.
   */
  gpssStateDir: string | null;
  /** The GPSS quota windows and budgets (`GPSS_QUOTA_PEAK`, `GPSS_QUOTA_PEAK_RECORDS`, `…_OFFPEAK_RECORDS`). */
  gpssQuotaWindows: QuotaWindows;
  /** The tokens file (`PO_TOKENS_FILE`: identities and roles), or null for `API_TOKEN` alone. */
  tokensFile: string | null;
  /** Its identities by token hash, read by {@link loadTokens} at start-up (absent: none). */
  tokens?: ReadonlyMap<string, Identity>;
  /** The directory of the audit log (`PO_AUDIT_DIR`), or null to keep it in memory only. */
  auditDir: string | null;
  /**
   * The PostgreSQL shared by the instances (`DATABASE_URL`, `postgres://user:password@host:port/db`):
   * the audit log and the catalogue write leases live there. Null: none (one instance, embedded).
   */
  databaseUrl: URL | null;
}

/** Raised for an invalid variable; the message names it and says what is expected. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
    this.variable = variable;
  }
}

const MIB = 1024 * 1024;

function intVar(min: number, max: number) {
  return z.string().trim().regex(/^\d+$/, { error: `must be a whole number between ${min} and ${max}` })
    .transform(Number).pipe(
      z.number().min(min, { error: `must be between ${min} and ${max}` }).max(max, {
        error: `must be between ${min} and ${max}`,
      }),
    );
}

const EnvSchema = z.object({
  PORT: intVar(1, 65535).default(8000),
  HOST: z.string().trim().regex(/^[A-Za-z0-9.:\-\[\]]+$/, { error: "must be a host name or IP address" })
    .default("127.0.0.1"),
  MAX_CONNECTIONS: intVar(1, 1_000_000).optional(),
  HEADER_TIMEOUT_S: intVar(1, 3600).default(15),
  KEEP_ALIVE_TIMEOUT_S: intVar(1, 3600).default(10),
  SEND_TIMEOUT_S: intVar(1, 86_400).default(300),
  PO_ROOTS: z.string().optional(),
  USER_CODE: z.string().min(1, { error: "must not be empty when set" }).optional(),
  GPSS_API_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default(
    DEFAULT_GPSS_API_URL,
  ),
  GPSS_TIMEOUT_MS: intVar(1, 600_000).default(30_000),
  GPSS_CACHE_TTL_S: intVar(0, 86_400).default(300),
  API_TOKEN: z.string().min(16, { error: "must be at least 16 characters when set" }).optional(),
  // A catalogue is parsed on the event loop, so this bounds how long one load holds other requests;
  // 16 MiB is 7× python-docs' largest catalogue (the 2.3 MB changelog).
  PO_MAX_FILE_BYTES: intVar(1, 1024 * MIB).default(16 * MIB),
  // A listing walks and counts at most this many catalogues (and ten times as many names); past
  // it, listings and searches answer the first ones, marked truncated (docs/security.md).
  PO_MAX_LISTED_FILES: intVar(1, 10_000_000).default(20_000),
  MAX_BODY_BYTES: intVar(1, 1024 * MIB).default(16 * MIB),
  INIT_CWD: z.string().optional(),
  ALLOWED_HOSTS: z.string().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  REQUEST_TIMEOUT_S: intVar(1, 86_400).default(60),
  MAX_RESPONSE_BYTES: intVar(1024, 1024 * MIB).default(32 * MIB),
  // Memory of large work, and so the heap V8 must collect: with twice this, garbage collection
  // pauses held up small requests under bench/abuse.ts's floods.
  MAX_INFLIGHT_BYTES: intVar(1024, 16 * 1024 * MIB).default(128 * MIB),
  PO_LOCK_DIR: z.string().optional(),
  PO_GETTEXT: z.string().optional(),
  GPSS_STATE_DIR: z.string().optional(),
  GPSS_QUOTA_PEAK: z.string().optional(),
  GPSS_QUOTA_PEAK_RECORDS: intVar(0, 10_000_000).default(DEFAULT_QUOTA_WINDOWS.peakRecords),
  GPSS_QUOTA_OFFPEAK_RECORDS: intVar(0, 10_000_000).default(DEFAULT_QUOTA_WINDOWS.offPeakRecords),
  PO_TOKENS_FILE: z.string().trim().refine((v) => isAbsolute(v) && !v.includes(","), {
    error: 'must be an absolute file name without ","',
  }).optional(),
  PO_AUDIT_DIR: z.string().optional(),
  DATABASE_URL: z.string().trim().refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, { error: "must be a postgres://user:password@host:port/database URL (TCP, with a host)" }).optional(),
});

/** Loopback names, always accepted in `Host` unless ALLOWED_HOSTS is "*". */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** A `Host` name as the request guard compares it: lower case, IPv6 in brackets. */
function asHostName(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

function allowedHosts(value: string | undefined, host: string): string[] | "*" {
  if (value?.trim() === "*") return "*";
  const names = new Set(LOOPBACK_NAMES);
  // The listening address is a name the service is reached by, unless it is a wildcard.
  if (!["0.0.0.0", "::", "[::]"].includes(host)) names.add(asHostName(host));
  for (const name of (value ?? "").split(",")) {
    const n = asHostName(name);
    if (n === "") continue;
    if (!/^(?:[a-z0-9.\-_~]+|\[[0-9a-f:.]+\])$/.test(n)) {
      throw new ConfigError(
        "ALLOWED_HOSTS",
        `not a host name: ${JSON.stringify(name.trim())} (names, no ports, comma-separated, or "*")`,
      );
    }
    names.add(n);
  }
  return [...names];
}

function allowedOrigins(value: string | undefined): string[] | "*" {
  if (value?.trim() === "*") return "*";
  const origins: string[] = [];
  for (const item of (value ?? "").split(",")) {
    const o = item.trim().toLowerCase().replace(/\/$/, "");
    if (o === "") continue;
    if (!/^https?:\/\/(?:[a-z0-9.\-_~]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(o)) {
      throw new ConfigError(
        "ALLOWED_ORIGINS",
        `not an origin: ${
          JSON.stringify(item.trim())
        } (like https://example.org or http://localhost:3000, comma-separated, or "*")`,
      );
    }
    origins.push(o);
  }
  return origins;
}

/**
 * Parses the configuration from environment variables.
 *
 * Unset and empty variables take their defaults. Relative `PO_ROOTS` entries are resolved against
 * `INIT_CWD` (the directory `deno task` was started from) or else `cwd`. The default `PO_LOCK_DIR` is
 * named after the user id, asked of `options.uid` (default `processUid`: `Deno.uid()`, which needs
 * `--allow-sys=uid`) only then.
 *
 * @throws {ConfigError} naming the first invalid variable.
 * @example
 * ```ts
 * const config = parseConfig({ PORT: "9000" }, { defaultPoRoots: ["/srv/po"], cwd: "/" });
 * config.port; // 9000
 * ```
 */
export function parseConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: { defaultPoRoots: string[]; cwd: string; uid?: () => number | null },
): Config {
  const present: Record<string, string> = {};
  for (const name of CONFIG_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== "") present[name] = value;
  }
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    // A failed parse has at least one issue.
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    // A secret is never echoed, not even when it is refused: only its length is.
    const shown = present[variable] === undefined
      ? ""
      : SECRET_ENV_NAMES.has(variable)
      ? ` (got ${present[variable].length} characters)`
      : ` (got ${JSON.stringify(present[variable])})`;
    throw new ConfigError(variable, `${issue.message}${shown}`);
  }
  const e = parsed.data;
  const base = e.INIT_CWD ?? options.cwd;
  const roots = e.PO_ROOTS === undefined
    ? options.defaultPoRoots
    : e.PO_ROOTS.split(":").filter((r) => r !== "");
  if (roots.length === 0) throw new ConfigError("PO_ROOTS", "must name at least one directory");
  for (const root of roots) {
    if (root.includes(",")) {
      throw new ConfigError(
        "PO_ROOTS",
        `a directory name must not contain "," (got ${JSON.stringify(root)})`,
      );
    }
  }
  let poLockDir: string | null;
  try {
    poLockDir = lockDirectorySetting(e.PO_LOCK_DIR, options.uid ?? processUid);
  } catch (error) {
    if (!(error instanceof StoreSetupError)) throw error;
    throw new ConfigError("PO_LOCK_DIR", error.message.replace(/^PO_LOCK_DIR: /, ""));
  }
  let poGettext: GettextGeneration | null = null;
  if (e.PO_GETTEXT !== undefined && e.PO_GETTEXT !== "") {
    poGettext = parseGeneration(e.PO_GETTEXT);
    if (poGettext === null) {
      throw new ConfigError(
        "PO_GETTEXT",
        `must be 0.21 or 0.23 (got ${JSON.stringify(e.PO_GETTEXT.slice(0, 40))})`,
      );
    }
  }
  let gpssStateDir: string | null;
  let peak: Pick<QuotaWindows, "peakDays" | "peakStart" | "peakEnd" | "utcOffsetMinutes"> =
    DEFAULT_QUOTA_WINDOWS;
  try {
    gpssStateDir = stateDirSetting(e.GPSS_STATE_DIR);
  } catch (error) {
    if (!(error instanceof StateDirError)) throw error;
    throw new ConfigError("GPSS_STATE_DIR", error.message.replace(/^GPSS_STATE_DIR: /, ""));
  }
  let auditDir: string | null;
  try {
    auditDir = stateDirSetting(e.PO_AUDIT_DIR, "PO_AUDIT_DIR");
  } catch (error) {
    if (!(error instanceof StateDirError)) throw error;
    throw new ConfigError("PO_AUDIT_DIR", error.reason);
  }
  if (e.GPSS_QUOTA_PEAK !== undefined) {
    try {
      peak = parsePeakWindow(e.GPSS_QUOTA_PEAK);
    } catch (error) {
      throw new ConfigError("GPSS_QUOTA_PEAK", (error as Error).message);
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    maxConnections: e.MAX_CONNECTIONS,
    headerTimeoutMs: e.HEADER_TIMEOUT_S * 1000,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_S * 1000,
    sendTimeoutMs: e.SEND_TIMEOUT_S * 1000,
    poRoots: roots.map((r) => (isAbsolute(r) ? resolve(r) : resolve(base, r))),
    userCode: e.USER_CODE,
    gpssApiUrl: new URL(e.GPSS_API_URL),
    gpssTimeoutMs: e.GPSS_TIMEOUT_MS,
    gpssCacheTtlS: e.GPSS_CACHE_TTL_S,
    apiToken: e.API_TOKEN,
    poMaxFileBytes: e.PO_MAX_FILE_BYTES,
    poMaxListedFiles: e.PO_MAX_LISTED_FILES,
    maxBodyBytes: e.MAX_BODY_BYTES,
    allowedHosts: allowedHosts(e.ALLOWED_HOSTS, e.HOST),
    allowedOrigins: allowedOrigins(e.ALLOWED_ORIGINS),
    requestTimeoutMs: e.REQUEST_TIMEOUT_S * 1000,
    maxResponseBytes: e.MAX_RESPONSE_BYTES,
    maxInflightBytes: e.MAX_INFLIGHT_BYTES,
    poLockDir,
    poGettext,
    gpssStateDir,
    gpssQuotaWindows: {
      ...peak,
      peakRecords: e.GPSS_QUOTA_PEAK_RECORDS,
      offPeakRecords: e.GPSS_QUOTA_OFFPEAK_RECORDS,
    },
    tokensFile: e.PO_TOKENS_FILE === undefined ? null : resolve(e.PO_TOKENS_FILE),
    auditDir,
    databaseUrl: e.DATABASE_URL === undefined ? null : new URL(e.DATABASE_URL),
  };
}

/**
 * Makes the configured catalogue store usable before the first request, or says in one line why
 * it cannot be: every root must be a directory this process can list (a typo in `PO_ROOTS` would
 * otherwise make every path "outside the catalogue roots"), and the lock directory must be safe to
 * use (created, mode 0700, when missing; see `lib/store/lock_dir.ts`). Then it becomes this
 * process's lock placement. Nothing is created inside the roots.
 *
 * @throws {ConfigError} `PO_ROOTS: catalogue root /srv/po does not exist`, `PO_LOCK_DIR: …`.
 * @example
 * ```ts
 * const config = parseConfig(env, { defaultPoRoots: ["/srv/po"], cwd: "/" });
 * prepareStore(config); // before the first request
 * ```
 */
export function prepareStore(config: Config, uid: () => number | null = processUid): void {
  try {
    checkRoots(config.poRoots);
    if (config.gpssStateDir !== null) {
      const id = uid();
      if (id === null) {
        throw new StateDirError(
          `cannot tell whether ${config.gpssStateDir} is this user's: run with --allow-sys=uid`,
        );
      }
      openStateDirectory(config.gpssStateDir, id);
    }
    if (config.auditDir !== null) {
      const id = uid();
      if (id === null) {
        throw new StateDirError(
          `cannot tell whether ${config.auditDir} is this user's: run with --allow-sys=uid`,
          "PO_AUDIT_DIR",
        );
      }
      openStateDirectory(config.auditDir, id, "PO_AUDIT_DIR");
    }
    if (config.poLockDir === null) return setLockPlacement(LOCKS_BESIDE_PLACEMENT);
    const id = uid();
    if (id === null) {
      throw new StoreSetupError(
        `cannot tell whether the lock directory ${config.poLockDir} is this user's: run with --allow-sys=uid`,
      );
    }
    setLockPlacement(openLockDirectory(config.poLockDir, id));
  } catch (error) {
    if (error instanceof StateDirError) throw new ConfigError(error.variable, error.reason);
    if (!(error instanceof StoreSetupError)) throw error;
    throw new ConfigError(error.variable, error.message.slice(error.variable.length + 2));
  }
}

/**
 * The identities of the tokens file (`PO_TOKENS_FILE`), its permissions checked (see
 * `lib/auth/tokens.ts`), or undefined when none is configured.
 *
 * @throws {ConfigError} `PO_TOKENS_FILE: cannot use the tokens file …: others may read or write it …`.
 */
export function loadTokens(
  config: Config,
  uid: () => number | null = processUid,
): ReadonlyMap<string, Identity> | undefined {
  if (config.tokensFile === null) return undefined;
  try {
    const id = uid();
    if (id === null) {
      throw new TokensFileError(
        `cannot tell whether ${config.tokensFile} is this user's: run with --allow-sys=uid`,
      );
    }
    return loadTokensFile(config.tokensFile, id);
  } catch (error) {
    if (!(error instanceof TokensFileError)) throw error;
    throw new ConfigError("PO_TOKENS_FILE", error.message.replace(/^PO_TOKENS_FILE: /, ""));
  }
}

/** `host:port` of the GPSS endpoint, with the scheme's default port filled in. */
export function gpssNetAddress(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

/** `host:port` of the shared database (5432 by default). */
export function databaseNetAddress(url: URL): string {
  return `${url.hostname}:${url.port || "5432"}`;
}

/** True when the listening host only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The least-privilege `deno run` flags for a mode: read/write only the catalogue roots and the lock
 * directory, net only the listening address (serve) and the GPSS host, env only the variables the
 * service reads, sys only the user id (the lock directory must be the user's own), and with
 * `options.git` (a root is in a git checkout) the one program the history tools run: `git`.
 *
 * @example
 * ```ts
 * permissionFlags(config, "serve");
 * // ["--allow-read=/srv/po,/tmp/po-tools-locks-1000", "--allow-write=/srv/po,/tmp/po-tools-locks-1000",
 * //  "--allow-net=127.0.0.1:8000,tiponet.tipo.gov.tw:443", "--allow-env=PORT,…", "--allow-sys=uid"]
 * ```
 */
export function permissionFlags(
  config: Config,
  mode: "serve" | "mcp",
  options: { git?: boolean } = {},
): string[] {
  const dirs = [
    ...config.poRoots,
    ...(config.poLockDir === null ? [] : [config.poLockDir]),
    ...(config.gpssStateDir === null ? [] : [config.gpssStateDir]),
    ...(config.auditDir === null ? [] : [config.auditDir]),
  ];
  const files = dirs.join(",");
  // The tokens file is read, never written.
  const readable = config.tokensFile === null ? files : [...dirs, config.tokensFile].join(",");
  const net = [gpssNetAddress(config.gpssApiUrl)];
  if (config.databaseUrl !== null) net.push(databaseNetAddress(config.databaseUrl));
  if (mode === "serve") net.unshift(`${config.host}:${config.port}`);
  return [
    `--allow-read=${readable}`,
    `--allow-write=${files}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${CONFIG_ENV_NAMES.join(",")}`,
    ...(options.git ? ["--allow-run=git"] : []),
    ...(config.poLockDir === null && config.gpssStateDir === null && config.auditDir === null &&
        config.tokensFile === null
      ? []
      : ["--allow-sys=uid"]),
  ];
}
