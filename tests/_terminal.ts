/**
 * A command run on a real terminal: util-linux `script` gives it a pseudo-terminal, so what it draws
 * only for a terminal (a progress bar) can be seen. Tests that need it are ignored where `script` is
 * missing (`HAS_SCRIPT`).
 *
 * @module
 */
import { runs } from "./_prerequisites.ts";

/** True when util-linux `script` runs. */
export const HAS_SCRIPT: boolean = runs("script");

/** Runs `argv` on a pseudo-terminal; its stdout and stderr, as the terminal showed them, and its status. */
export async function onTerminal(
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; text: string }> {
  const command = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qefc", command, "/dev/null"],
    env: { TERM: "xterm", ...env },
  }).output();
  return { code: out.code, text: new TextDecoder().decode(out.stdout) };
}
