/**
 * `wrap`'s own entry point. `deno task wrap`, `bin/wrap` and the pre-commit hook run this module, so
 * a run loads the formatter and nothing else: `main.ts wrap` does the same work, but `main.ts` names
 * every mode's modules, which Deno resolves when the process starts (`bench/wrap_startup.sh` times
 * both), and a pre-commit hook pays start-up once per commit.
 *
 *   deno run --allow-read [--allow-write --allow-sys=uid] cli/wrap/main.ts [OPTIONS] PATH…
 *
 * Options: `wrap --help` (`command.ts`).
 *
 * @module
 */
import { runWrap } from "./command.ts";
import { enterCallersDirectory, readEnv } from "../process_env.ts";
import { missingPermissionLine } from "../startup.ts";
import { wrapIo } from "./io.ts";

/** One line on stderr, exit status 2. */
function fail(line: string): never {
  console.error(line);
  Deno.exit(2);
}

/**
 * Runs `wrap ARGS` in the directory the user ran it from and returns its exit status (a missing
 * permission ends the process with status 2 and one line saying which).
 */
export async function wrapMain(args: string[]): Promise<number> {
  enterCallersDirectory("wrap");
  const io = wrapIo({
    args,
    lockDir: () => readEnv(["PO_LOCK_DIR"]).PO_LOCK_DIR,
    gettextEnv: () => readEnv(["PO_GETTEXT"]).PO_GETTEXT,
    fail,
  });
  try {
    return await runWrap(args, io);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) fail(missingPermissionLine(error));
    throw error;
  }
}

if (import.meta.main) Deno.exit(await wrapMain(Deno.args));
