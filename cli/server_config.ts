/**
 * The server modes' configuration (`serve`, `mcp`, and `permissions`, which the tasks run first):
 * read once from the variables the process may read, checked, and said in one line when it is
 * wrong (exit status 2).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Config } from "../lib/config.ts";
import { readEnv } from "./process_env.ts";
import { terminalText } from "../lib/terminal_text.ts";

/** The configuration module (zod): loaded by the modes that read the environment, not by `wrap`. */
export type ConfigModule = typeof import("../lib/config.ts");

/** The catalogues served when PO_ROOTS is not set: this checkout's `examples/`. */
export const DEFAULT_PO_ROOTS: readonly string[] = [
  fileURLToPath(new URL("../examples/", import.meta.url)).replace(/\/$/, ""),
];

/**
 * The configuration from the environment, every root a readable directory and the lock directory
 * (PO_LOCK_DIR) checked and in use; an invalid one ends the process with one line and status 2.
 */
export function loadConfig(cfg: ConfigModule): Config {
  const { ConfigError, parseConfig } = cfg;
  try {
    const config = parseConfig(readEnv(cfg.CONFIG_ENV_NAMES), {
      defaultPoRoots: [...DEFAULT_PO_ROOTS],
      cwd: Deno.cwd(),
    });
    cfg.prepareStore(config);
    const tokens = cfg.loadTokens(config);
    return tokens === undefined ? config : { ...config, tokens };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    Deno.exit(2);
  }
}

/**
 * The least-privilege `--allow-*` flags for `target` (`main.ts permissions serve|mcp`). An invalid
 * configuration gives only the environment it needs: the real run then reports it once, clearly.
 */
export function permissionFlagsLine(cfg: ConfigModule, target: "serve" | "mcp"): string {
  const { CONFIG_ENV_NAMES, ConfigError, parseConfig, PERMISSION_ENV_NAMES, permissionFlags } = cfg;
  try {
    const config = parseConfig(readEnv(PERMISSION_ENV_NAMES), {
      defaultPoRoots: [...DEFAULT_PO_ROOTS],
      cwd: Deno.cwd(),
    });
    return permissionFlags(config, target, { git: config.poRoots.some(inGitCheckout) }).join(" ");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return `--allow-env=${CONFIG_ENV_NAMES.join(",")}`;
  }
}

/**
 * True when `dir` or a directory above it holds `.git` (a directory, or the file of a worktree):
 * the history tools then run git. When this process may not look (no read permission), true: the
 * tools are offered, and git is the one program allowed.
 */
export function inGitCheckout(dir: string): boolean {
  let at = dir.replace(/\/+$/, "") || "/";
  for (let depth = 0; depth < 64; depth++) {
    try {
      Deno.statSync(`${at === "/" ? "" : at}/.git`);
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
        return true;
      }
    }
    if (at === "/") return false;
    at = at.slice(0, at.lastIndexOf("/")) || "/";
  }
  return false;
}

/** The broad permissions this process was granted (the tasks grant narrower ones). */
export function unrestrictedPermissions(): string[] {
  return (["read", "write", "net", "env", "run"] as const)
    .filter((name) => Deno.permissions.querySync({ name }).state === "granted");
}

/**
 * Each root's gettext layout for the service's writes (`cli/gettext_choice.ts`), before the first
 * request; a mixed root or a bad `.po-tools.toml` is said on stderr, one line each.
 */
export async function prepareLayouts(config: Config): Promise<void> {
  const { chooseLayoutGenerations } = await import("./gettext_choice.ts");
  const { notes } = await chooseLayoutGenerations(config.poRoots, config.poGettext);
  for (const note of notes) console.error(`warning: ${terminalText(note)}`);
}
