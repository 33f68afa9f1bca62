/**
 * The state directory that keeps the GPSS quota ledger across restarts (`GPSS_STATE_DIR`), and the
 * one of the audit log (`PO_AUDIT_DIR`), checked alike.
 *
 * Unset, the ledger lives in memory only. Set, the directory is trusted only when safe, as the
 * lock directory is (`lib/store/lock_dir.ts`): a real directory (a symlink at its name is
 * refused), owned by this user (or root), writable by nobody else unless sticky. It is created
 * with mode 0700 when missing (its parent must exist); one that fails the checks stops the
 * start-up with one line.
 *
 * @module
 */
import { dirname, isAbsolute, normalize } from "node:path";

/** A state directory that cannot be used: one line naming it and what to do. */
export class StateDirError extends Error {
  readonly variable: string;
  /** What the error says, without the variable's name. */
  readonly reason: string;
  constructor(message: string, variable = "GPSS_STATE_DIR") {
    super(`${variable}: ${message}`);
    this.name = "StateDirError";
    this.variable = variable;
    this.reason = message;
  }
}

/**
 * The directory a `GPSS_STATE_DIR` value names: unset or empty → null (the ledger is kept in
 * memory only, and starts at 0 after a restart), else an absolute path without a comma (Deno's
 * permission lists are comma-separated).
 *
 * @throws {StateDirError} a relative path or a comma.
 * @example
 * ```ts
 * stateDirSetting("/var/lib/po-tools/"); // "/var/lib/po-tools"
 * stateDirSetting(undefined); // null
 * ```
 */
export function stateDirSetting(value: string | undefined, variable = "GPSS_STATE_DIR"): string | null {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return null;
  if (!isAbsolute(trimmed)) {
    throw new StateDirError(`must be an absolute directory (got ${JSON.stringify(trimmed)})`, variable);
  }
  if (trimmed.includes(",")) {
    throw new StateDirError(
      `a directory name must not contain "," (got ${JSON.stringify(trimmed)})`,
      variable,
    );
  }
  const path = normalize(trimmed);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * Makes the state directory usable: creates it (0700; its parent must exist) when missing, then
 * checks it is a real directory owned by this user or root and not writable by others unless sticky.
 *
 * @throws {StateDirError} one line naming the directory and what to do.
 */
export function openStateDirectory(path: string, uid: number, variable = "GPSS_STATE_DIR"): string {
  const refuse = (why: string) =>
    new StateDirError(`cannot use the state directory ${path}: ${why}`, variable);
  for (const access of ["read", "write"] as const) {
    if (Deno.permissions.querySync({ name: access, path }).state !== "granted") {
      throw refuse(`this process may not ${access} it (run it with --allow-${access}=${path})`);
    }
  }
  let stat: Deno.FileInfo;
  try {
    try {
      stat = Deno.lstatSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      try {
        Deno.mkdirSync(path, { mode: 0o700 });
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) throw refuse(`its parent ${dirname(path)} does not exist`);
        if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      }
      stat = Deno.lstatSync(path);
    }
  } catch (error) {
    if (error instanceof StateDirError) throw error;
    throw refuse((error as Error).message.split("\n")[0]!);
  }
  if (stat.isSymlink) throw refuse("it is a symbolic link (give the real directory)");
  if (!stat.isDirectory) throw refuse("it is not a directory");
  if (stat.uid !== uid && stat.uid !== 0) throw refuse(`it belongs to another user (uid ${stat.uid})`);
  const mode = stat.mode ?? 0;
  if ((mode & 0o022) !== 0 && (mode & 0o1000) === 0) {
    throw refuse(
      `others may write it (mode ${(mode & 0o7777).toString(8)}) and it is not sticky; chmod it to 700`,
    );
  }
  return path;
}
