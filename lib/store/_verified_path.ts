/**
 * Opening, creating and renaming files below a catalogue root so that no directory on the way can be
 * swapped for a symlink between the check and the use.
 *
 * Deno has no `openat(2)`, so a file cannot be opened relative to a directory handle. Instead:
 * - the path policy hands out a path with no symlink below the root, and the identity (device and
 *   inode) of every directory on it ({@link VerifiedDirectory}), the root itself included;
 * - right before a use, every one of those directories is `lstat`ed again and must still be that
 *   directory (not a symlink, same device and inode);
 * - a file is opened with `O_NONBLOCK` (a FIFO never blocks the open) and `O_NOFOLLOW`, then its
 *   `fstat` must be a regular file on its directory's device whose device and inode are those the
 *   path names *after* the open (`lstat`); then the directories and the name are checked again, in
 *   {@link CHECK_ROUNDS} more rounds. Only then is a byte read.
 * - a file is created with `O_CREAT|O_EXCL|O_NOFOLLOW` and checked the same way; a file created
 *   through a swapped directory is removed again (see {@link createChecked}). A rename happens right
 *   after a check of the directories and of the file to rename, and its result is checked too.
 * - a cached document is served only for the very inode (and size and times) that was opened and
 *   checked, so a path that now leads elsewhere is a cache miss, which goes through the checks.
 *
 * The checks and the use run synchronously, one after the other, on the main thread: no other code
 * of this process runs in between, so the window left to another process is a few microseconds.
 * That window is the residual risk, stated plainly: path checks are samples, and a local user who
 * may write inside the roots and flips a directory between a real directory and a symlink
 * (rename, symlink, unlink, rename, or `renameat2(RENAME_EXCHANGE)`) in step with our system calls
 * can, with luck at every sample, make one open read a file outside or one create land outside.
 * In tests with another process flipping a directory every few microseconds (the worst case for
 * us), no read returned a byte from outside and no file was left outside in about 60 runs of 1.5 s,
 * except one run whose failure was not captured; flipping every 1–2 ms, none in any run. The rename
 * over an existing file cannot be redirected to replace a file outside unless its two path lookups
 * inside one `rename(2)` see different directories. Nothing the HTTP API accepts can create a
 * symlink or a directory; only local users with write access to the roots can try this, and the
 * service's OS user (not Deno's lexical sandbox) is what bounds what they could reach.
 *
 * Under Deno's sandbox (`--allow-read=DIR`), Deno resolves symlinks itself before opening (so
 * `O_NOFOLLOW` only guards the last component without a sandbox); the identity checks after the open
 * are what catch a swapped path in both cases. `FsFile.stat()` is not used: under a sandbox Deno checks
 * it against the file's real path, which a root configured through a symlink does not allow; the
 * `node:fs` descriptor's `fstat` has no such check.
 *
 * @module
 */
import * as fs from "node:fs";
import { join } from "node:path";
import { OutsideRootsError } from "../errors.ts";

/** A directory on a verified path, and the identity it had when checked. */
export interface VerifiedDirectory {
  /** The directory's path, as opened (the configured root's spelling, then real names below it). */
  readonly path: string;
  /** Its device number when checked. */
  readonly dev: number;
  /** Its inode number when checked. */
  readonly ino: number;
  /** True for the configured root: its own spelling may be a symlink (the operator's choice). */
  readonly isRoot: boolean;
}

/** Thrown (and retried by callers) when a path no longer names what was checked. */
export class PathChangedError extends OutsideRootsError {}

/** `O_*` flags of `node:fs` (Linux values on Linux, where this service runs). */
const O = fs.constants;
/** A descriptor of this process that never outlives the call that opened it. */
export type Fd = number;

/**
 * `lstat`s the directories from `root` (followed: the configured spelling may be a symlink) down
 * through `names`, each a real directory. Returns null when one is missing, not a directory or a
 * symlink (the caller resolves again).
 */
export function walkDirectories(root: string, names: readonly string[]): VerifiedDirectory[] | null {
  const dirs: VerifiedDirectory[] = [];
  let path = root;
  try {
    const rootStat = Deno.statSync(root);
    if (!rootStat.isDirectory) return null;
    dirs.push({ path, dev: rootStat.dev, ino: rootStat.ino!, isRoot: true });
    for (const name of names) {
      path = join(path, name);
      const stat = Deno.lstatSync(path);
      if (!stat.isDirectory || stat.isSymlink) return null;
      dirs.push({ path, dev: stat.dev, ino: stat.ino!, isRoot: false });
    }
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return dirs;
}

/** True when every directory is still the one that was checked (synchronous: a few `lstat`s). */
export function directoriesUnchanged(dirs: readonly VerifiedDirectory[] | undefined): boolean {
  if (dirs === undefined) return true;
  try {
    for (const dir of dirs) {
      const stat = dir.isRoot ? Deno.statSync(dir.path) : Deno.lstatSync(dir.path);
      if (!stat.isDirectory || stat.isSymlink || stat.dev !== dir.dev || stat.ino !== dir.ino) return false;
    }
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** What {@link openChecked} found. */
export type OpenOutcome =
  | { kind: "missing" }
  /** Not a regular file: nothing was read; `what` names the type ("a directory", "a FIFO"…). */
  | { kind: "not-regular"; what: string }
  | { kind: "open"; fd: Fd; size: number; stat: Deno.FileInfo };

/**
 * Opens `path` for reading without ever blocking on a FIFO and without reading a file other than
 * the one `path` names below verified directories. With `follow` false, a symlink at `path` is "not a
 * regular file". Retries a few times when the path changes between the open and the checks (an
 * atomic replacement by another writer does that); then throws {@link PathChangedError}.
 *
 * `stat` is taken by path after the open and has the descriptor's device and inode: it describes the
 * opened file, and is no newer than the bytes read afterwards.
 */
export function openChecked(
  path: string,
  displayPath: string,
  options: { follow: boolean; directories?: readonly VerifiedDirectory[] },
): OpenOutcome {
  for (let attempt = 0; attempt < 4; attempt++) {
    if (!directoriesUnchanged(options.directories)) continue;
    let fd: Fd;
    try {
      fd = fs.openSync(path, O.O_RDONLY | O.O_NONBLOCK | (options.follow ? 0 : O.O_NOFOLLOW));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        if (directoriesUnchanged(options.directories)) return { kind: "missing" };
        continue;
      }
      if (code === "ELOOP" && !options.follow) return { kind: "not-regular", what: "a symbolic link" };
      throw error;
    }
    let keep = false;
    try {
      const opened = fs.fstatSync(fd);
      let named: Deno.FileInfo;
      try {
        named = options.follow ? Deno.statSync(path) : Deno.lstatSync(path);
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      if (named.dev !== opened.dev || named.ino !== opened.ino) {
        if (!options.follow && named.isSymlink) return { kind: "not-regular", what: "a symbolic link" };
        continue;
      }
      // A file is on its directory's device; then more rounds of checks (see CHECK_ROUNDS).
      if (
        !onDeviceOf(opened.dev, options.directories) ||
        !stillNamed(() => statOrNull(path, options.follow), opened, options.directories)
      ) continue;
      if (!opened.isFile()) return { kind: "not-regular", what: nodeKind(opened) };
      keep = true;
      return { kind: "open", fd, size: opened.size, stat: named };
    } finally {
      if (!keep) fs.closeSync(fd);
    }
  }
  throw changed(displayPath);
}

/**
 * Creates `path` (which must not exist) for writing, below verified directories, and checks that
 * the descriptor is the file the path names. Returns the descriptor and the new file's identity.
 *
 * When the check fails, the new (empty) file may have been created through a swapped directory,
 * outside the roots: for {@link STRAY_CLEANUP_MS}, it is removed by its name whenever that name is
 * seen to be this very file (device and inode), which catches it while the swap is in place. The
 * name is ours (a random temp name, or a lock file name that did not exist a moment before); during
 * such an attack a removal may, in the worst case, hit the same name in the other place the path
 * flips to (a lock file there), which only weakens the locking of that file while the attack lasts.
 *
 * @throws {PathChangedError} a directory changed around the create.
 */
export async function createChecked(
  path: string,
  displayPath: string,
  mode: number,
  directories: readonly VerifiedDirectory[] | undefined,
): Promise<{ fd: Fd; dev: number; ino: number }> {
  if (!directoriesUnchanged(directories)) throw changed(displayPath);
  let fd: Fd;
  try {
    fd = fs.openSync(path, O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW, mode);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    // The directory was there a moment ago: it changed (or, without verified directories, it is
    // missing, which callers report as such).
    if (directories !== undefined) throw changed(displayPath);
    throw new Deno.errors.NotFound(`No such directory: ${displayPath}`);
  }
  let opened: fs.Stats;
  try {
    opened = fs.fstatSync(fd);
    if (
      sameIdentity(lstatOrNull(path), opened) && onDeviceOf(opened.dev, directories) &&
      stillNamed(() => lstatOrNull(path), opened, directories)
    ) {
      return { fd, dev: opened.dev, ino: opened.ino };
    }
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  fs.closeSync(fd);
  await removeStray(path, opened);
  throw changed(displayPath);
}

/** How long {@link createChecked} tries to remove a file it created through a swapped directory. */
export const STRAY_CLEANUP_MS = 200;

async function removeStray(path: string, id: { dev: number; ino: number }): Promise<void> {
  // Until the deadline, not until the first removal: the path may have flipped between the lstat
  // and the unlink, and then the stray is still there.
  const until = Date.now() + STRAY_CLEANUP_MS;
  while (Date.now() < until) {
    try {
      if (sameIdentity(lstatOrNull(path), id)) Deno.removeSync(path);
    } catch {
      // not ours to judge: try again
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * Renames `from` (the file of identity `id`) over `to`, both in the last verified directory, after
 * checking the directories and `from`; then checks that `to` names the renamed file.
 *
 * @returns the `lstat` of `to` after the rename (its ctime is the rename's).
 * @throws {PathChangedError} a check failed (before the rename: nothing was renamed).
 */
export function renameChecked(
  from: string,
  id: { dev: number; ino: number },
  to: string,
  displayPath: string,
  directories: readonly VerifiedDirectory[] | undefined,
): Deno.FileInfo {
  const before = lstatOrNull(from);
  if (
    before === null || before.dev !== id.dev || before.ino !== id.ino || !directoriesUnchanged(directories)
  ) {
    throw changed(displayPath);
  }
  try {
    Deno.renameSync(from, to);
  } catch (error) {
    if (directories !== undefined && isMissing(error)) throw changed(displayPath);
    throw error;
  }
  const after = lstatOrNull(to);
  if (after === null || after.dev !== id.dev || after.ino !== id.ino || !directoriesUnchanged(directories)) {
    throw changed(displayPath);
  }
  return after;
}

/** Removes `path` if it is still the file of identity `id` below unchanged directories. Best effort. */
export function removeChecked(
  path: string,
  id: { dev: number; ino: number },
  directories: readonly VerifiedDirectory[] | undefined,
): void {
  try {
    const stat = lstatOrNull(path);
    if (stat === null || stat.dev !== id.dev || stat.ino !== id.ino || !directoriesUnchanged(directories)) {
      return;
    }
    Deno.removeSync(path);
  } catch {
    // best effort: a racing remover, or the directory changed
  }
}

/** Reads up to `length` bytes at the descriptor's position into `buffer` at `offset`; 0 at the end. */
export function readFd(fd: Fd, buffer: Uint8Array, offset: number, length: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.read(fd, buffer, offset, length, null, (error, n) => error ? reject(error) : resolve(n))
  );
}

/** Writes all of `bytes` at the descriptor's position. */
export async function writeFd(fd: Fd, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    offset += await new Promise<number>((resolve, reject) =>
      fs.write(
        fd,
        bytes,
        offset,
        bytes.length - offset,
        null,
        (error, n) => error ? reject(error) : resolve(n),
      )
    );
  }
}

/** `fsync` of a descriptor. */
export function syncFd(fd: Fd): Promise<void> {
  return new Promise((resolve, reject) => fs.fsync(fd, (error) => error ? reject(error) : resolve()));
}

/** `fchmod` of a descriptor (no path: nothing to swap). */
export function chmodFd(fd: Fd, mode: number): void {
  fs.fchmodSync(fd, mode);
}

/** Opens a directory for `fsync`: `O_DIRECTORY|O_NONBLOCK`, so nothing else is ever waited on. */
export function openDirectory(path: string): Fd {
  return fs.openSync(path, O.O_RDONLY | O.O_DIRECTORY | O.O_NONBLOCK);
}

/** Closes a descriptor this module handed out. */
export function closeFd(fd: Fd): void {
  fs.closeSync(fd);
}

/**
 * Rounds of "the directories are unchanged, the path still names this file" after the first: a swap
 * that is undone between two samples must be redone and undone again before each next one, so an
 * attacker has to flip a directory in step with every one of these system calls, microseconds apart.
 * One more round: each costs an `lstat` per directory on every uncached read,
 * and with it no flipping test left anything behind.
 */
const CHECK_ROUNDS = 1;

function stillNamed(
  stat: () => Deno.FileInfo | null,
  id: { dev: number; ino: number },
  directories: readonly VerifiedDirectory[] | undefined,
): boolean {
  if (!directoriesUnchanged(directories)) return false;
  for (let round = 0; round < CHECK_ROUNDS; round++) {
    if (!sameIdentity(stat(), id) || !directoriesUnchanged(directories)) return false;
  }
  return true;
}

function sameIdentity(stat: { dev: number; ino: number | null } | null, id: { dev: number; ino: number }) {
  return stat !== null && stat.dev === id.dev && stat.ino === id.ino;
}

/** A file is on the same device as its directory (the last verified one). */
function onDeviceOf(dev: number, directories: readonly VerifiedDirectory[] | undefined): boolean {
  return directories === undefined || directories.length === 0 || directories.at(-1)!.dev === dev;
}

function statOrNull(path: string, follow: boolean): Deno.FileInfo | null {
  try {
    return follow ? Deno.statSync(path) : Deno.lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** The `lstat` of `path`, or null when it does not exist. */
export function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function nodeKind(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

function changed(displayPath: string): PathChangedError {
  return new PathChangedError(`Path changed while it was being opened, refused: ${displayPath}`);
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}
