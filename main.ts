/**
 * The program's one impure edge: reads argv, then runs one mode. What each mode does lives in
 * `cli/` (every process edge: the log, the environment, start-up messages) and `routes/run.ts`.
 *
 *   main.ts [serve]            HTTP server (default)            routes/run.ts, cli/server_config.ts
 *   main.ts mcp                MCP server over stdio            routes/run.ts
 *   main.ts wrap [opts] FILE…  powrap-compatible formatter      cli/wrap/ (its tasks run cli/wrap/main.ts)
 *   main.ts merge DEF REF      msgmerge-compatible merge        cli/merge.ts
 *   main.ts compile FILE.po    msgfmt-compatible MO compiler    cli/compile.ts
 *   main.ts check [opts] PATH… quality checks as a linter       cli/check.ts
 *   main.ts permissions MODE   the least-privilege deno flags for MODE (used by deno.json tasks)
 *
 * Every module a mode needs is loaded by that mode with a literal `import("./…")` (statically
 * analysable, so `deno compile` bundles them all): `wrap` never loads zod, Hono, the MCP SDK or
 * routes/, and starts in a fraction of the time.
 *
 * @module
 */
import { batchedLog, writeAll } from "./cli/log.ts";
import { missingPermissionLine, StartupError } from "./cli/startup.ts";
import { MODE_USAGE, unknownModeLine, USAGE } from "./cli/usage.ts";
import { enterCallersDirectory, readEnv } from "./cli/process_env.ts";
import { loadNativeBytes } from "./lib/native_bytes.ts";

const { log, flush: flushLog } = batchedLog((bytes) => writeAll(Deno.stderr, bytes));
globalThis.addEventListener("unload", flushLog);

/** One line on stderr, exit status 2: how a start-up that cannot go on ends. */
function fail(line: string): never {
  flushLog();
  console.error(line);
  Deno.exit(2);
}

async function main(args: string[]): Promise<void> {
  const [mode = "serve", ...rest] = args;
  if (mode === "--help" || mode === "-h" || mode === "help") return console.log(USAGE);
  if (mode === "--version" || mode === "-V") {
    const { VERSION } = await import("./lib/version.ts");
    return console.log(`po-tools ${VERSION}`);
  }
  if (mode in MODE_USAGE && (rest.includes("--help") || rest.includes("-h"))) {
    return console.log(MODE_USAGE[mode]);
  }
  switch (mode) {
    case "serve":
    case "mcp": {
      const [cfg, run, server] = await Promise.all([
        import("./lib/config.ts"),
        import("./routes/run.ts"),
        import("./cli/server_config.ts"),
        loadNativeBytes(),
      ]);
      const start = mode === "serve" ? run.runHttpServer : run.runMcpStdio;
      const config = server.loadConfig(cfg);
      await server.prepareLayouts(config);
      return start(config, { log, unrestricted: server.unrestrictedPermissions() });
    }
    case "permissions": {
      const [cfg, server] = await Promise.all([import("./lib/config.ts"), import("./cli/server_config.ts")]);
      return console.log(server.permissionFlagsLine(cfg, rest[0] === "mcp" ? "mcp" : "serve"));
    }
    case "wrap": {
      // The tasks and the hook run cli/wrap/main.ts bundled: it starts faster than this file.
      const { wrapMain } = await import("./cli/wrap/main.ts");
      return Deno.exit(await wrapMain(rest));
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
      return Deno.exit(await run(rest, io));
    }
    case "check": {
      enterCallersDirectory(mode);
      await loadNativeBytes();
      const { checkCliIo, runCheck } = await import("./cli/check.ts");
      return Deno.exit(await runCheck(rest, checkCliIo()));
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
