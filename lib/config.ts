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

/** The real GPSS endpoint (TIPO, Taiwan). */
export const DEFAULT_GPSS_API_URL = "https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpss_api";

/** Every environment variable the service reads (and nothing else: the env permission is this list). */
export const CONFIG_ENV_NAMES = [
  "PORT",
  "HOST",
  "PO_ROOTS",
  "USER_CODE",
  "GPSS_API_URL",
  "GPSS_TIMEOUT_MS",
  "GPSS_CACHE_TTL_S",
  "API_TOKEN",
  "PO_MAX_FILE_BYTES",
  "MAX_BODY_BYTES",
  "INIT_CWD",
] as const;

/** The variables that decide permissions (all that `main.ts permissions` is allowed to read). */
export const PERMISSION_ENV_NAMES = ["PORT", "HOST", "PO_ROOTS", "GPSS_API_URL", "INIT_CWD"] as const;

/** The parsed configuration. */
export interface Config {
  port: number;
  host: string;
  /** Catalogue roots, absolute, as configured (not symlink-resolved: Deno's allow-list is lexical). */
  poRoots: string[];
  userCode: string | undefined;
  gpssApiUrl: URL;
  gpssTimeoutMs: number;
  gpssCacheTtlS: number;
  apiToken: string | undefined;
  poMaxFileBytes: number;
  maxBodyBytes: number;
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
  PO_ROOTS: z.string().optional(),
  USER_CODE: z.string().min(1, { error: "must not be empty when set" }).optional(),
  GPSS_API_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default(
    DEFAULT_GPSS_API_URL,
  ),
  GPSS_TIMEOUT_MS: intVar(1, 600_000).default(30_000),
  GPSS_CACHE_TTL_S: intVar(0, 86_400).default(300),
  API_TOKEN: z.string().min(16, { error: "must be at least 16 characters when set" }).optional(),
  PO_MAX_FILE_BYTES: intVar(1, 1024 * MIB).default(64 * MIB),
  MAX_BODY_BYTES: intVar(1, 1024 * MIB).default(16 * MIB),
  INIT_CWD: z.string().optional(),
});

/**
 * Parses the configuration from environment variables.
 *
 * Unset and empty variables take their defaults. Relative `PO_ROOTS` entries are resolved against
 * `INIT_CWD` (the directory `deno task` was started from) or else `cwd`.
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
  options: { defaultPoRoots: string[]; cwd: string },
): Config {
  const present: Record<string, string> = {};
  for (const name of CONFIG_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== "") present[name] = value;
  }
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0] ?? "environment");
    const shown = present[variable] === undefined ? "" : ` (got ${JSON.stringify(present[variable])})`;
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
  return {
    port: e.PORT,
    host: e.HOST,
    poRoots: roots.map((r) => (isAbsolute(r) ? resolve(r) : resolve(base, r))),
    userCode: e.USER_CODE,
    gpssApiUrl: new URL(e.GPSS_API_URL),
    gpssTimeoutMs: e.GPSS_TIMEOUT_MS,
    gpssCacheTtlS: e.GPSS_CACHE_TTL_S,
    apiToken: e.API_TOKEN,
    poMaxFileBytes: e.PO_MAX_FILE_BYTES,
    maxBodyBytes: e.MAX_BODY_BYTES,
  };
}

/** `host:port` of the GPSS endpoint, with the scheme's default port filled in. */
export function gpssNetAddress(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

/** True when the listening host only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The least-privilege `deno run` flags for a mode: read/write only the catalogue roots, net only
 * the listening address (serve) and the GPSS host, env only the variables the service reads.
 *
 * @example
 * ```ts
 * permissionFlags(config, "serve");
 * // ["--allow-read=/srv/po", "--allow-write=/srv/po", "--allow-net=127.0.0.1:8000,tiponet.tipo.gov.tw:443", "--allow-env=PORT,…"]
 * ```
 */
export function permissionFlags(config: Config, mode: "serve" | "mcp"): string[] {
  const roots = config.poRoots.join(",");
  const net = [gpssNetAddress(config.gpssApiUrl)];
  if (mode === "serve") net.unshift(`${config.host}:${config.port}`);
  return [
    `--allow-read=${roots}`,
    `--allow-write=${roots}`,
    `--allow-net=${net.join(",")}`,
    `--allow-env=${CONFIG_ENV_NAMES.join(",")}`,
  ];
}
