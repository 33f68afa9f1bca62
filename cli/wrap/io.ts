/**
 * The file access of the `wrap` command: reads that refuse what is not a regular file, rewrites
 * under the lock the servers take, and, when a file changed between its read and its rewrite (a
 * server write landed), the current content re-formatted instead, so that update is kept.
 *
 * Loads no zod, Hono or MCP SDK (the `wrap` mode starts without them), and the store (`node:fs`,
 * `node:crypto`, slow to start) only at the first write: reads go through Deno's own API.
 *
 * @module
 */
import { sameBytes } from "../../lib/byte_runs.ts";
import { encodePo, parsePo } from "../../lib/po/mod.ts";
import type { WrapIo } from "./command.ts";
import { gitModifiedFiles, gitStagedFiles, pathKind, readDirEntries } from "../tree_host.ts";
import { readRegularFileBytes } from "../../lib/regular_read.ts";
import { gettextChoice, repositoryVotes } from "../gettext_choice.ts";
import { writeAll } from "../log.ts";
import { terminalProgress } from "../progress.ts";

/** What the `wrap` command's file access is given by `main.ts`. */
export interface WrapHost {
  /** The command's arguments (`--no-wrap` changes how a changed file is re-formatted). */
  args: readonly string[];
  /** The lock directory the servers use (PO_LOCK_DIR), read when the first write needs it. */
  lockDir: () => string | undefined;
  /** PO_GETTEXT, when it is set and may be read. */
  gettextEnv?: () => string | undefined;
  /** Ends the run with one line on stderr and status 2. */
  fail: (line: string) => never;
}

/**
 * The `wrap` command's {@link WrapIo} on the real file system, stdout and stderr.
 *
 * @example
 * ```ts
 * const io = wrapIo({ args, lockDir: () => env.PO_LOCK_DIR, fail });
 * Deno.exit(await runWrap(args, io));
 * ```
 */
export function wrapIo(host: WrapHost): WrapIo {
  /**
   * The store with the lock directory the servers use, so a wrap and a server take the same lock.
   * Loaded and opened at the first write only: `--check`, `--diff` and `--stdout` take no lock, so
   * they run with read permission alone (as the msgcat differential check runs `wrap --stdout`)
   * and without the store's modules.
   */
  let store: Promise<typeof import("../../lib/store/mod.ts")> | undefined;
  const prepareLocks = () =>
    store ??= import("../../lib/store/mod.ts").then((mod) => {
      try {
        mod.useLockDirectory(host.lockDir());
      } catch (error) {
        if (!(error instanceof mod.StoreSetupError)) throw error;
        host.fail(`wrap: ${error.message}`);
      }
      return mod;
    });
  const read = new Map<string, Uint8Array>();
  const noWrap = host.args.includes("--no-wrap");
  const encoder = new TextEncoder();
  return {
    readFile: async (path) => {
      // Not Deno.readFile: it blocks forever on a FIFO and reads /dev/zero without end.
      const bytes = await readRegularFileBytes(path);
      read.set(path, bytes);
      return bytes;
    },
    writeFile: async (path, bytes, tree, generation = "0.21") => {
      const { atomicUpdateFile, confinedUpdateFile } = await prepareLocks();
      const compute = (current: Uint8Array | null) => {
        if (current === null) return null;
        const before = read.get(path);
        return before && sameBytes(before, current)
          ? bytes
          : encodePo(parsePo(current, { fileName: path, placeholderCharset: generation === "0.23" }), {
            noWrap,
            once: true,
            generation,
          });
      };
      // A file found by a walk stays a .po inside the tree walked; a PATH named is followed.
      if (tree === undefined) await atomicUpdateFile(path, compute);
      else await confinedUpdateFile(path, compute, { within: tree, extensions: [".po"] });
      read.delete(path);
    },
    gettextChoice: () => gettextChoice(host.gettextEnv?.(), Deno.cwd()),
    repositoryVotes: () => repositoryVotes(Deno.cwd(), votesCacheFile()),
    fileSize: (path) => {
      try {
        return Deno.statSync(path).size;
      } catch {
        return 0; // the read reports it
      }
    },
    forget: (path) => read.delete(path),
    pathKind,
    readDir: readDirEntries,
    modifiedFiles: gitModifiedFiles,
    changedFiles: gitStagedFiles,
    // Workers only when asked (--jobs=N): on this project's 2 shared CPUs they did not pay off
    // (bench/README.md#wrap), and each pays the engine's module load again.
    layoutPool: async (_files, jobs) => {
      const size = jobs ?? 1;
      if (size < 2) return null;
      const { startLayoutPool } = await import("./pool.ts");
      return startLayoutPool(size);
    },
    // A bar on a terminal's stderr; nothing in pipes and CI.
    progress: (files) => terminalProgress(files),
    stdout: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    stdoutBytes: (bytes) => writeAll(Deno.stdout, bytes),
    stderr: (text) => writeAll(Deno.stderr, encoder.encode(text)),
  };
}

/**
 * Where detection keeps each sampled catalogue's layout vote: beside the wrap bundle, in this
 * checkout's `.cache/wrap/` (the bundle runs from `.cache/wrap/KEY/`; the sources from `cli/wrap/`,
 * and `repositoryVotes` makes the directory when it first writes there); null when that is not a
 * local directory.
 */
function votesCacheFile(): string | null {
  const here = new URL(".", import.meta.url);
  if (here.protocol !== "file:") return null;
  const dir = here.pathname.includes("/.cache/wrap/")
    ? new URL("..", here)
    : new URL("../../.cache/wrap/", here);
  return decodeURIComponent(new URL("layout-votes.json", dir).pathname);
}
