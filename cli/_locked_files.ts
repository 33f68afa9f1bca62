/**
 * File access of the `merge` and `compile` commands: reads that refuse what is not a regular file,
 * and writes under the lock the servers take (PO_LOCK_DIR), atomically (temp file, fsync, rename).
 *
 * @module
 */
import {
  atomicUpdateFile,
  confinedUpdateFile,
  type Confinement,
  StoreSetupError,
  useLockDirectory,
} from "../lib/store/mod.ts";
import { readRegularFileBytes } from "../lib/regular_read.ts";
import { pathKind, readDirEntries } from "./tree_host.ts";
import type { GettextGeneration, WrapTreeIo } from "../lib/po/mod.ts";
import { gettextChoice } from "./gettext_choice.ts";
import { terminalText } from "../lib/terminal_text.ts";
import { writeAll } from "./log.ts";
import { type Progress, terminalProgress } from "./progress.ts";

/** Reads, locked writes, stdout and stderr; directories walked as `wrap` walks them, when given. */
export interface LockedFileIo extends Partial<WrapTreeIo> {
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Locked, atomic read-modify-write of `path`. With `confinement` (a file the command found in a
   * tree, or named after one), the real file must be of the expected kind inside that tree: a
   * symlink leading elsewhere is refused (`TreeEscapeError`), naming the link.
   */
  updateFile(
    path: string,
    fn: (bytes: Uint8Array | null) => Uint8Array | null,
    confinement?: Confinement,
  ): Promise<{ written: boolean }>;
  stdout(bytes: Uint8Array): void;
  err(line: string): void;
  /** A progress bar over `files` files (drawn on a terminal only), when given. */
  progress?(files: number): Progress;
  /** The repository's gettext layout (`.po-tools.toml` from the working directory up), when given. */
  gettextChoice?(): Promise<{ generation: GettextGeneration; source: string } | { error: string } | null>;
}

/**
 * The real file system. The lock directory is opened at the first write, so a run that only
 * prints needs read permission alone.
 *
 * @param command the command's name, for the one line said when the lock directory is unusable.
 * @param lockDir the lock directory the servers use (PO_LOCK_DIR), if any.
 * @param fail ends the run with one line on stderr and status 2.
 */
export function lockedFileIo(
  command: string,
  lockDir: () => string | undefined,
  fail: (line: string) => never,
): LockedFileIo {
  let locksReady = false;
  const encoder = new TextEncoder();
  return {
    // Not Deno.readFile: it blocks forever on a FIFO and reads /dev/zero without end.
    readFile: (path) => readRegularFileBytes(path),
    gettextChoice: () => gettextChoice(undefined, Deno.cwd()),
    updateFile: (path, fn, confinement) => {
      if (!locksReady) {
        try {
          useLockDirectory(lockDir());
        } catch (error) {
          if (!(error instanceof StoreSetupError)) throw error;
          fail(`${command}: ${error.message}`);
        }
        locksReady = true;
      }
      return confinement ? confinedUpdateFile(path, fn, confinement) : atomicUpdateFile(path, fn);
    },
    stdout: (bytes) => writeAll(Deno.stdout, bytes),
    // One line each, naming files and quoting their text: escaped, so nothing in them ends the line.
    err: (line) => writeAll(Deno.stderr, encoder.encode(`${terminalText(line)}\n`)),
    pathKind,
    readDir: readDirEntries,
    progress: (files) => terminalProgress(files),
  };
}
