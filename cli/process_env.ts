/**
 * What a command-line mode reads of its process: the environment variables it was allowed to read,
 * and the directory the user ran it from (`deno task` runs in the po-tools checkout).
 *
 * @module
 */

/** Reads the variables this process is allowed to read (the rest count as unset). */
export function readEnv(names: readonly string[]): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of names) {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state === "granted") {
      env[name] = Deno.env.get(name);
    }
  }
  return env;
}

/**
 * `deno task` runs in the po-tools checkout and sets `INIT_CWD` to the directory the user ran it
 * from: the file commands take their paths (and ask git) from there. Read only when the permission
 * is granted (the tasks grant `--allow-env=INIT_CWD`); a bare `deno run` stays where it is. Exits
 * with status 2 when that directory cannot be entered.
 */
export function enterCallersDirectory(mode: string): void {
  if (Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" }).state !== "granted") return;
  const dir = Deno.env.get("INIT_CWD");
  if (!dir) return;
  try {
    Deno.chdir(dir);
  } catch (error) {
    console.error(`${mode}: cannot enter INIT_CWD ${JSON.stringify(dir)}: ${(error as Error).message}`);
    Deno.exit(2);
  }
}
