/**
 * The program's one impure edge: reads argv and the environment, then runs one mode.
 *
 *   main.ts [serve]            HTTP server (default)
 *   main.ts mcp                MCP server over stdio
 *   main.ts wrap [opts] FILE…  powrap-compatible formatter (its tasks run cli/wrap/main.ts)
 *   main.ts merge DEF REF      msgmerge-compatible merge (cli/merge.ts)
 *   main.ts compile FILE.po    msgfmt-compatible MO compiler (cli/compile.ts)
 *   main.ts check [opts] PATH… quality checks as a linter (cli/check.ts)
 *   main.ts permissions MODE   prints the least-privilege deno flags for MODE (used by deno.json tasks)
 *
 * What each mode does lives elsewhere: `routes/run.ts` (serve, mcp), `cli/` (the log, wrap's
 * file access, start-up messages), `cli/wrap/` (wrap).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { batchedLog, writeAll } from "./cli/log.ts";
import { missingPermissionLine, StartupError } from "./cli/startup.ts";
import { MODE_USAGE, unknownModeLine, USAGE } from "./cli/usage.ts";
import { enterCallersDirectory, readEnv } from "./cli/process_env.ts";
import { loadNativeBytes } from "./lib/native_bytes.ts";
// Types only: erased at run time. Every module a mode needs is loaded by that mode with a literal
// `import("./…")` (statically analysable, so `deno compile` bundles them all): `wrap` never loads
// zod, Hono, the MCP SDK or routes/, and starts in a fraction of the time.
import type { Config } from "./lib/config.ts";

const DEFAULT_PO_ROOTS = [fileURLToPath(new URL("./examples/", import.meta.url)).replace(/\/$/, "")];

const { log, flush: flushLog } = batchedLog((bytes) => writeAll(Deno.stderr, bytes));
globalThis.addEventListener("unload", flushLog);

/** The configuration module (zod): loaded by the modes that read the environment, not by `wrap`. */
type ConfigModule = typeof import("./lib/config.ts");

function loadConfig(cfg: ConfigModule): Config {
  const { ConfigError, parseConfig } = cfg;
  try {
    const config = parseConfig(readEnv(cfg.CONFIG_ENV_NAMES), {
      defaultPoRoots: DEFAULT_PO_ROOTS,
      cwd: Deno.cwd(),
    });
    // Every root a readable directory; the lock directory (PO_LOCK_DIR) checked and in use.
    cfg.prepareStore(config);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    Deno.exit(2);
  }
}

/** The broad permissions this process was granted (the tasks grant narrower ones). */
function unrestrictedPermissions(): string[] {
  return (["read", "write", "net", "env", "run"] as const)
    .filter((name) => Deno.permissions.querySync({ name }).state === "granted");
}

/** One line on stderr, exit status 2: how a start-up that cannot go on ends. */
function fail(line: string): never {
  flushLog();
  console.error(line);
  Deno.exit(2);
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
    case "serve":
    case "mcp": {
      const [cfg, run] = await Promise.all([
        import("./lib/config.ts"),
        import("./routes/run.ts"),
        loadNativeBytes(),
      ]);
      const start = mode === "serve" ? run.runHttpServer : run.runMcpStdio;
      return start(loadConfig(cfg), { log, unrestricted: unrestrictedPermissions() });
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
    case "wrap": {
      // The tasks and the hook run cli/wrap/main.ts itself: it starts faster than this file.
      const { wrapMain } = await import("./cli/wrap/main.ts");
      Deno.exit(await wrapMain(rest));
      return;
    }
    case "merge":
    case "compile": {
      enterCallersDirectory(mode);
      await loadNativeBytes();
      const { lockedFileIo } = await import("./cli/_locked_files.ts");
      const io = lockedFileIo(mode, () => readEnv(["PO_LOCK_DIR"]).PO_LOCK_DIR, fail);
      const run = mode === "merge"
        ? (await import("./cli/merge.ts")).runMerge
        : (await import("./cli/compile.ts")).runCompile;
      Deno.exit(await run(rest, io));
      return;
    }
    case "check": {
      enterCallersDirectory(mode);
      await loadNativeBytes();
      const { checkCliIo, runCheck } = await import("./cli/check.ts");
      Deno.exit(await runCheck(rest, checkCliIo()));
      return;
    }
    default:
      console.error(unknownModeLine(mode));
      Deno.exit(2);
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    if (error instanceof StartupError) fail(error.message);
    if (error instanceof Deno.errors.NotCapable) fail(missingPermissionLine(error));
    throw error;
  }
}
