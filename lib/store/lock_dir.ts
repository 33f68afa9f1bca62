/**
 * Where the cross-process lock files of catalogue writes live.
 *
 * By default they live in a **lock directory** of their own, never in the catalogue's directory: the
 * lock file of a catalogue is `<sha256 of its real path>.lock` there, so every spelling of one file
 * (and every process that resolves it the same way) takes the same `flock`, and nothing is written
 * beside the user's catalogues (no `.NAME.po.lock` in `git status`). The default is
 * {@link defaultLockDirectoryPath}: `/tmp/po-tools-locks-UID`, one per user and per host.
 *
 * The directory is trusted only when it is safe: a real directory (a symlink at its name is refused),
 * owned by this user (or by root, for a directory an administrator shares), and writable by nobody
 * else unless it has the sticky bit (then others cannot remove or rename our lock files). A default
 * directory is created with mode 0700 when missing; one that exists but fails these checks (say,
 * created by another user to squat the name) stops the start-up with one line. Its identity (device
 * and inode) is kept and checked again right before each lock file is created or opened, so a
 * directory swapped in later is noticed, not used.
 *
 * **Which processes exclude each other**: exactly those that use the same lock directory (or the
 * same placement `beside`) and resolve the catalogue to the same real path. So:
 * - on one host, every writer of the same catalogues (the HTTP server, the MCP server, `wrap`) must
 *   run as the same user with the default, or all be given the same `PO_LOCK_DIR`. A process with a
 *   private `/tmp` (systemd `PrivateTmp=`, a container) does not share the default: give it and the
 *   other writers a `PO_LOCK_DIR` they all see, or `PO_LOCK_DIR=beside`.
 * - several users writing the same catalogues: a shared `PO_LOCK_DIR` owned by root with the sticky
 *   bit (e.g. `install -d -m 1777 /run/lock/po-tools`, or 3770 with a group), or `beside`.
 * - several hosts on a shared (NFS) file system: the default is per host, so hosts do **not** exclude
 *   each other. Either set `PO_LOCK_DIR=beside` on every host (the old lock file `.NAME.po.lock` in
 *   the catalogue's directory: `flock` over NFS is emulated with POSIX byte-range locks on Linux ≥
 *   2.6.12 and needs a working lock manager, `lockd`/NLM for NFSv3 or NFSv4's own locking), or set
 *   every host's `PO_LOCK_DIR` to one directory on that shared file system with the same requirement,
 *   *and* mount the catalogues at the same path on every host (the lock name is the hash of the real
 *   path). Some network file systems keep `flock` local to one client: there, only one host may write.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { basename, dirname, isAbsolute, join, normalize } from "node:path";
import { lstatOrNull, type VerifiedDirectory } from "./_verified_path.ts";

/** The `PO_LOCK_DIR` value that keeps the old placement: `.NAME.lock` beside each file. */
export const LOCKS_BESIDE = "beside";

/** Lock files beside each file, in its directory (the placement before lock directories). */
export interface LocksBeside {
  readonly kind: "beside";
}

/** A lock directory that passed {@link openLockDirectory}'s checks. */
export interface LockDirectory {
  readonly kind: "directory";
  /** Its path, as configured (absolute, normalised). */
  readonly path: string;
  /** Its identity when checked: checked again right before each lock file is created or opened. */
  readonly identity: VerifiedDirectory;
}

/** Where lock files are put. */
export type LockPlacement = LocksBeside | LockDirectory;

/** The placement `beside`. */
export const LOCKS_BESIDE_PLACEMENT: LocksBeside = Object.freeze({ kind: "beside" });

/**
 * A setting the store cannot start with (a catalogue root, the lock directory): the message is one
 * line, `VARIABLE: what is wrong and what to do`, for `main.ts` to print before it exits 2.
 */
export class StoreSetupError extends Error {
  /** The environment variable to fix. */
  readonly variable: string;
  /**
   * @param message what is wrong and what to do, one line.
   * @param variable the variable the operator sets to fix it (default `PO_LOCK_DIR`).
   * @param options the error's cause.
   */
  constructor(message: string, variable = "PO_LOCK_DIR", options?: ErrorOptions) {
    super(`${variable}: ${message}`, options);
    this.name = "StoreSetupError";
    this.variable = variable;
  }
}

/**
 * The default lock directory of user `uid`: `/tmp/po-tools-locks-UID`. Per user and per host (and
 * per `/tmp`: a process with a private `/tmp` has its own; see the module doc).
 *
 * @example
 * ```ts
 * defaultLockDirectoryPath(1000); // "/tmp/po-tools-locks-1000"
 * ```
 */
export function defaultLockDirectoryPath(uid: number): string {
  return `/tmp/po-tools-locks-${uid}`;
}

/**
 * The lock directory a `PO_LOCK_DIR` value names: unset or empty gives the default of the user
 * (`uid` is only called then), `beside` gives null (lock files beside each file), anything else must
 * be an absolute path without a comma (Deno's permission lists are comma-separated).
 *
 * @throws {StoreSetupError} a relative path or a comma; or `uid` failed (no `--allow-sys=uid`).
 * @example
 * ```ts
 * lockDirectorySetting(undefined, () => 1000); // "/tmp/po-tools-locks-1000"
 * lockDirectorySetting("beside", () => 1000); // null
 * ```
 */
export function lockDirectorySetting(
  value: string | undefined,
  uid: () => number | null,
): string | null {
  const trimmed = value?.trim() ?? "";
  if (trimmed === LOCKS_BESIDE) return null;
  if (trimmed === "") {
    let id: number | null;
    try {
      id = uid();
      if (id === null) throw new Error("no user id on this system");
    } catch (error) {
      throw new StoreSetupError(
        `the default lock directory is named after the user id, which this process may not read ` +
          `(run it with --allow-sys=uid, or set PO_LOCK_DIR)`,
        "PO_LOCK_DIR",
        { cause: error },
      );
    }
    return defaultLockDirectoryPath(id);
  }
  if (!isAbsolute(trimmed)) {
    throw new StoreSetupError(
      `must be an absolute directory or "${LOCKS_BESIDE}" (got ${JSON.stringify(trimmed)})`,
    );
  }
  if (trimmed.includes(",")) {
    throw new StoreSetupError(`a directory name must not contain "," (got ${JSON.stringify(trimmed)})`);
  }
  const path = normalize(trimmed);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * Opens the lock directory `path` for use: creates it (mode 0700, its parent must exist) when
 * missing, then checks it is a real directory (not a symlink), owned by this user or by root, and
 * not writable by group or others unless sticky, and that this process may read and write it.
 *
 * @param uid this process's user id (`Deno.uid()`).
 * @throws {StoreSetupError} one line naming the directory and what to do.
 * @example
 * ```ts
 * const locks = openLockDirectory("/tmp/po-tools-locks-1000", Deno.uid());
 * ```
 */
export function openLockDirectory(path: string, uid: number): LockDirectory {
  const refuse = (why: string) => new StoreSetupError(`cannot use the lock directory ${path}: ${why}`);
  for (const access of ["read", "write"] as const) {
    if (Deno.permissions.querySync({ name: access, path }).state !== "granted") {
      throw refuse(`this process may not ${access} it (run it with --allow-${access}=${path})`);
    }
  }
  let stat: Deno.FileInfo | null;
  try {
    stat = lstatOrNull(path);
    if (stat === null) {
      try {
        Deno.mkdirSync(path, { mode: 0o700 });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) throw refuse(`its parent ${dirname(path)} does not exist`);
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      stat = lstatOrNull(path);
    }
  } catch (error) {
    if (error instanceof StoreSetupError) throw error;
    throw refuse(`${(error as Error).message.split("\n")[0]}`);
  }
  if (stat === null) throw refuse("it disappeared while it was being created");
  if (stat.isSymlink) throw refuse("it is a symbolic link (give the real directory)");
  if (!stat.isDirectory) throw refuse("it is not a directory");
  if (stat.uid !== uid && stat.uid !== 0) {
    throw refuse(`it belongs to another user (uid ${stat.uid}); remove it, or set PO_LOCK_DIR to another`);
  }
  const mode = stat.mode ?? 0;
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) {
    throw refuse(
      `others may write it (mode ${(mode & 0o7777).toString(8)}) and it is not sticky; ` +
        `chmod it to 700 (or 1777 for a shared one)`,
    );
  }
  return { kind: "directory", path, identity: { path, dev: stat.dev, ino: stat.ino!, isRoot: false } };
}

/**
 * The lock file of a file and the directories to check before opening it.
 *
 * @param placement where lock files live.
 * @param path the file as it is opened (its directory holds a lock file placed `beside`).
 * @param key the file's real path (the lock directory's file name is its SHA-256).
 * @param directories the file's verified directories (checked for a lock file placed `beside`).
 */
export function lockFileOf(
  placement: LockPlacement,
  path: string,
  key: string,
  directories: readonly VerifiedDirectory[] | undefined,
): { lockPath: string; directories: readonly VerifiedDirectory[] | undefined } {
  if (placement.kind === "beside") {
    return { lockPath: join(dirname(path), `.${basename(path)}.lock`), directories };
  }
  const name = `${createHash("sha256").update(key).digest("hex")}.lock`;
  return { lockPath: join(placement.path, name), directories: [placement.identity] };
}

/**
 * This process's user id: `Deno.uid()` (needs `--allow-sys=uid`), else the owner of `/proc/self`
 * (needs read access to it, which `wrap`'s `--allow-read` gives); null when neither may be asked.
 *
 * @example
 * ```ts
 * processUid(); // 1000
 * ```
 */
export function processUid(): number | null {
  try {
    const id = Deno.uid();
    if (id !== null) return id;
  } catch {
    // no --allow-sys=uid: asked of /proc below
  }
  try {
    return Deno.statSync("/proc/self").uid;
  } catch {
    return null;
  }
}

let processPlacement: LockPlacement = LOCKS_BESIDE_PLACEMENT;

/**
 * Sets where this process puts lock files when a call does not say (the store's and
 * `atomicUpdateFile`'s default). `main.ts` sets it once at start-up from `PO_LOCK_DIR`; until then
 * (a library user, most tests) lock files are placed `beside`.
 *
 * @example
 * ```ts
 * setLockPlacement(openLockDirectory("/tmp/po-tools-locks-1000", Deno.uid()));
 * ```
 */
export function setLockPlacement(placement: LockPlacement): void {
  processPlacement = placement;
}

/** Where this process puts lock files when a call does not say (see {@link setLockPlacement}). */
export function lockPlacement(): LockPlacement {
  return processPlacement;
}

/**
 * Reads a `PO_LOCK_DIR` value, opens the lock directory it names (see {@link openLockDirectory}) and
 * makes it this process's placement. What `main.ts` calls at start-up, before the first write.
 *
 * @param value `PO_LOCK_DIR` (unset: the default directory of this user; `beside`: no directory).
 * @param uid this process's user id, asked only when needed (default {@link processUid}).
 * @returns the placement now in use.
 * @throws {StoreSetupError} one line: the setting or the directory cannot be used.
 */
export function useLockDirectory(
  value: string | undefined,
  uid: () => number | null = processUid,
): LockPlacement {
  const path = lockDirectorySetting(value, uid);
  let placement: LockPlacement = LOCKS_BESIDE_PLACEMENT;
  if (path !== null) {
    let id: number | null = null;
    try {
      id = uid();
    } catch {
      // said below
    }
    if (id === null) {
      throw new StoreSetupError(
        `cannot tell whether the lock directory ${path} is this user's: run with --allow-sys=uid`,
      );
    }
    placement = openLockDirectory(path, id);
  }
  setLockPlacement(placement);
  return placement;
}
