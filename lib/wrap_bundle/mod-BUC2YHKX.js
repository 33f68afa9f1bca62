import {
  DEFAULT_MAX_FILE_BYTES,
  NotRegularFileError,
  bytesLength,
  copyPrefix,
  equalAt,
  fileKind,
  flatBytes,
  sameBytes
} from "./chunk-YI4PQYAT.js";
import {
  InvalidInputError,
  NotFoundError,
  OutsideRootsError,
  TooLargeError
} from "./chunk-3FRGNG6M.js";

// lib/store/atomic_write.ts
import { basename as basename4, dirname as dirname4, join as join5, resolve } from "node:path";

// lib/store/_verified_path.ts
import * as fs from "node:fs";
import { join } from "node:path";
var PathChangedError = class extends OutsideRootsError {
};
var O = fs.constants;
function walkDirectories(root, names) {
  const dirs = [];
  let path = root;
  try {
    const rootStat = Deno.statSync(root);
    if (!rootStat.isDirectory) return null;
    dirs.push({
      path,
      dev: rootStat.dev,
      ino: rootStat.ino,
      isRoot: true
    });
    for (const name of names) {
      path = join(path, name);
      const stat = Deno.lstatSync(path);
      if (!stat.isDirectory || stat.isSymlink) return null;
      dirs.push({
        path,
        dev: stat.dev,
        ino: stat.ino,
        isRoot: false
      });
    }
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  return dirs;
}
function directoriesUnchanged(dirs) {
  if (dirs === void 0) return true;
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
function openChecked(path, displayPath, options) {
  for (let attempt = 0; attempt < 4; attempt++) {
    if (!directoriesUnchanged(options.directories)) continue;
    let fd;
    try {
      fd = fs.openSync(path, O.O_RDONLY | O.O_NONBLOCK | (options.follow ? 0 : O.O_NOFOLLOW));
    } catch (error) {
      const code = error.code;
      if (code === "ENOENT" || code === "ENOTDIR") {
        if (directoriesUnchanged(options.directories)) return {
          kind: "missing"
        };
        continue;
      }
      if (code === "ELOOP" && !options.follow) return {
        kind: "not-regular",
        what: "a symbolic link"
      };
      throw error;
    }
    let keep = false;
    try {
      const opened = fs.fstatSync(fd);
      let named;
      try {
        named = options.follow ? Deno.statSync(path) : Deno.lstatSync(path);
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      if (named.dev !== opened.dev || named.ino !== opened.ino) {
        if (!options.follow && named.isSymlink) return {
          kind: "not-regular",
          what: "a symbolic link"
        };
        continue;
      }
      if (!onDeviceOf(opened.dev, options.directories) || !stillNamed(() => statOrNull(path, options.follow), opened, options.directories)) continue;
      if (!opened.isFile()) return {
        kind: "not-regular",
        what: nodeKind(opened)
      };
      keep = true;
      return {
        kind: "open",
        fd,
        size: opened.size,
        stat: named
      };
    } finally {
      if (!keep) fs.closeSync(fd);
    }
  }
  throw changed(displayPath);
}
async function createChecked(path, displayPath, mode, directories) {
  if (!directoriesUnchanged(directories)) throw changed(displayPath);
  let fd;
  try {
    fd = fs.openSync(path, O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW, mode);
  } catch (error) {
    const code = error.code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    if (directories !== void 0) throw changed(displayPath);
    throw new Deno.errors.NotFound(`No such directory: ${displayPath}`);
  }
  let opened;
  try {
    opened = fs.fstatSync(fd);
    if (sameIdentity(lstatOrNull(path), opened) && onDeviceOf(opened.dev, directories) && stillNamed(() => lstatOrNull(path), opened, directories)) {
      return {
        fd,
        dev: opened.dev,
        ino: opened.ino
      };
    }
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  fs.closeSync(fd);
  await removeStray(path, opened);
  throw changed(displayPath);
}
var STRAY_CLEANUP_MS = 200;
async function removeStray(path, id) {
  const until = Date.now() + STRAY_CLEANUP_MS;
  while (Date.now() < until) {
    try {
      if (sameIdentity(lstatOrNull(path), id)) Deno.removeSync(path);
    } catch {
    }
    await new Promise((resolve2) => setTimeout(resolve2, 0));
  }
}
function renameChecked(from, id, to, displayPath, directories) {
  const before = lstatOrNull(from);
  if (before === null || before.dev !== id.dev || before.ino !== id.ino || !directoriesUnchanged(directories)) {
    throw changed(displayPath);
  }
  try {
    Deno.renameSync(from, to);
  } catch (error) {
    if (directories !== void 0 && isMissing(error)) throw changed(displayPath);
    throw error;
  }
  const after = lstatOrNull(to);
  if (after === null || after.dev !== id.dev || after.ino !== id.ino || !directoriesUnchanged(directories)) {
    throw changed(displayPath);
  }
  return after;
}
function removeChecked(path, id, directories) {
  try {
    const stat = lstatOrNull(path);
    if (stat === null || stat.dev !== id.dev || stat.ino !== id.ino || !directoriesUnchanged(directories)) {
      return;
    }
    Deno.removeSync(path);
  } catch {
  }
}
function readFd(fd, buffer, offset, length) {
  return new Promise((resolve2, reject) => fs.read(fd, buffer, offset, length, null, (error, n) => error ? reject(error) : resolve2(n)));
}
async function writeFd(fd, bytes) {
  let offset = 0;
  while (offset < bytes.length) {
    offset += await new Promise((resolve2, reject) => fs.write(fd, bytes, offset, bytes.length - offset, null, (error, n) => error ? reject(error) : resolve2(n)));
  }
}
function syncFd(fd) {
  return new Promise((resolve2, reject) => fs.fsync(fd, (error) => error ? reject(error) : resolve2()));
}
function chmodFd(fd, mode) {
  fs.fchmodSync(fd, mode);
}
function openDirectory(path) {
  return fs.openSync(path, O.O_RDONLY | O.O_DIRECTORY | O.O_NONBLOCK);
}
function closeFd(fd) {
  fs.closeSync(fd);
}
var CHECK_ROUNDS = 1;
function stillNamed(stat, id, directories) {
  if (!directoriesUnchanged(directories)) return false;
  for (let round = 0; round < CHECK_ROUNDS; round++) {
    if (!sameIdentity(stat(), id) || !directoriesUnchanged(directories)) return false;
  }
  return true;
}
function sameIdentity(stat, id) {
  return stat !== null && stat.dev === id.dev && stat.ino === id.ino;
}
function onDeviceOf(dev, directories) {
  return directories === void 0 || directories.length === 0 || directories.at(-1).dev === dev;
}
function statOrNull(path, follow) {
  try {
    return follow ? Deno.statSync(path) : Deno.lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
function lstatOrNull(path) {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
function nodeKind(stat) {
  if (stat.isDirectory()) return "a directory";
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}
function changed(displayPath) {
  return new PathChangedError(`Path changed while it was being opened, refused: ${displayPath}`);
}
function isMissing(error) {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

// lib/store/file_lock.ts
import { basename as basename2, dirname as dirname2, join as join3 } from "node:path";

// lib/store/lock_dir.ts
import { createHash } from "node:crypto";
import { basename, dirname, isAbsolute, join as join2, normalize } from "node:path";
var LOCKS_BESIDE = "beside";
var LOCKS_BESIDE_PLACEMENT = Object.freeze({
  kind: "beside"
});
var StoreSetupError = class extends Error {
  /** The environment variable to fix. */
  variable;
  /**
   * @param message what is wrong and what to do, one line.
   * @param variable the variable the operator sets to fix it (default `PO_LOCK_DIR`).
   * @param options the error's cause.
   */
  constructor(message, variable = "PO_LOCK_DIR", options) {
    super(`${variable}: ${message}`, options);
    this.name = "StoreSetupError";
    this.variable = variable;
  }
};
function defaultLockDirectoryPath(uid) {
  return `/tmp/po-tools-locks-${uid}`;
}
function lockDirectorySetting(value, uid) {
  const trimmed = value?.trim() ?? "";
  if (trimmed === LOCKS_BESIDE) return null;
  if (trimmed === "") {
    let id;
    try {
      id = uid();
      if (id === null) throw new Error("no user id on this system");
    } catch (error) {
      throw new StoreSetupError(`the default lock directory is named after the user id, which this process may not read (run it with --allow-sys=uid, or set PO_LOCK_DIR)`, "PO_LOCK_DIR", {
        cause: error
      });
    }
    return defaultLockDirectoryPath(id);
  }
  if (!isAbsolute(trimmed)) {
    throw new StoreSetupError(`must be an absolute directory or "${LOCKS_BESIDE}" (got ${JSON.stringify(trimmed)})`);
  }
  if (trimmed.includes(",")) {
    throw new StoreSetupError(`a directory name must not contain "," (got ${JSON.stringify(trimmed)})`);
  }
  const path = normalize(trimmed);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
function openLockDirectory(path, uid) {
  const refuse = (why) => new StoreSetupError(`cannot use the lock directory ${path}: ${why}`);
  for (const access of [
    "read",
    "write"
  ]) {
    if (Deno.permissions.querySync({
      name: access,
      path
    }).state !== "granted") {
      throw refuse(`this process may not ${access} it (run it with --allow-${access}=${path})`);
    }
  }
  let stat;
  try {
    stat = lstatOrNull(path);
    if (stat === null) {
      try {
        Deno.mkdirSync(path, {
          mode: 448
        });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) throw refuse(`its parent ${dirname(path)} does not exist`);
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      stat = lstatOrNull(path);
    }
  } catch (error) {
    if (error instanceof StoreSetupError) throw error;
    throw refuse(`${error.message.split("\n")[0]}`);
  }
  if (stat === null) throw refuse("it disappeared while it was being created");
  if (stat.isSymlink) throw refuse("it is a symbolic link (give the real directory)");
  if (!stat.isDirectory) throw refuse("it is not a directory");
  if (stat.uid !== uid && stat.uid !== 0) {
    throw refuse(`it belongs to another user (uid ${stat.uid}); remove it, or set PO_LOCK_DIR to another`);
  }
  const mode = stat.mode ?? 0;
  if ((mode & 18) !== 0 && (mode & 512) === 0) {
    throw refuse(`others may write it (mode ${(mode & 4095).toString(8)}) and it is not sticky; chmod it to 700 (or 1777 for a shared one)`);
  }
  return {
    kind: "directory",
    path,
    identity: {
      path,
      dev: stat.dev,
      ino: stat.ino,
      isRoot: false
    }
  };
}
function lockFileOf(placement, path, key, directories) {
  if (placement.kind === "beside") {
    return {
      lockPath: join2(dirname(path), `.${basename(path)}.lock`),
      directories
    };
  }
  const name = `${createHash("sha256").update(key).digest("hex")}.lock`;
  return {
    lockPath: join2(placement.path, name),
    directories: [
      placement.identity
    ]
  };
}
function processUid() {
  try {
    const id = Deno.uid();
    if (id !== null) return id;
  } catch {
  }
  try {
    return Deno.statSync("/proc/self").uid;
  } catch {
    return null;
  }
}
var processPlacement = LOCKS_BESIDE_PLACEMENT;
function setLockPlacement(placement) {
  processPlacement = placement;
}
function lockPlacement() {
  return processPlacement;
}
function useLockDirectory(value, uid = processUid) {
  const path = lockDirectorySetting(value, uid);
  let placement = LOCKS_BESIDE_PLACEMENT;
  if (path !== null) {
    let id = null;
    try {
      id = uid();
    } catch {
    }
    if (id === null) {
      throw new StoreSetupError(`cannot tell whether the lock directory ${path} is this user's: run with --allow-sys=uid`);
    }
    placement = openLockDirectory(path, id);
  }
  setLockPlacement(placement);
  return placement;
}

// lib/store/file_lock.ts
var queues = /* @__PURE__ */ new Map();
function lockFilePath(path) {
  return join3(dirname2(path), `.${basename2(path)}.lock`);
}
function withFileLock(path, fn, options = {}) {
  return withInProcessTurn(options.key ?? path, () => withOsLock(path, fn, options), options.signal);
}
async function withInProcessTurn(key, fn, signal) {
  signal?.throwIfAborted();
  const previous = queues.get(key);
  let release;
  const mine = new Promise((resolve2) => release = resolve2);
  queues.set(key, mine);
  const done = () => {
    release();
    if (queues.get(key) === mine) queues.delete(key);
  };
  try {
    if (previous) await abortable(previous, signal);
  } catch (error) {
    previous.then(done);
    throw error;
  }
  try {
    signal?.throwIfAborted();
    return await fn();
  } finally {
    done();
  }
}
async function withOsLock(path, fn, options = {}) {
  options.signal?.throwIfAborted();
  const placement = options.locks ?? lockPlacement();
  const where = lockFileOf(placement, path, options.key ?? path, options.directories);
  const lock = await openLockFile(where.lockPath, {
    ...options,
    directories: where.directories
  });
  try {
    await acquire(lock, options.signal);
    try {
      options.signal?.throwIfAborted();
      return await fn();
    } finally {
      await lock.unlock();
    }
  } finally {
    lock.close();
  }
}
async function acquire(lock, signal) {
  if (signal === void 0) return await lock.lock(true);
  for (let wait = 1; !await lock.tryLock(true); wait = Math.min(wait * 2, 50)) {
    signal.throwIfAborted();
    await new Promise((resolve2) => setTimeout(resolve2, wait));
    signal.throwIfAborted();
  }
}
function abortable(promise, signal) {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise((resolve2, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, {
      once: true
    });
    promise.then(resolve2, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
async function openLockFile(lockPath, options) {
  const display = options.displayPath ?? lockPath;
  for (; ; ) {
    const existing = lstatOrNull(lockPath);
    if (existing === null) {
      try {
        const created = await createChecked(lockPath, display, options.lockFileMode ?? 420, options.directories);
        closeFd(created.fd);
      } catch (error) {
        if (error.code !== "EEXIST") throw error;
      }
      continue;
    }
    if (!existing.isFile) {
      throw new InvalidInputError(`Cannot lock ${display}: its lock file is not a regular file`);
    }
    if (!directoriesUnchanged(options.directories)) {
      throw new PathChangedError(`Path changed while it was being opened, refused: ${display}`);
    }
    try {
      return Deno.openSync(lockPath, {
        read: true,
        write: true
      });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
      return Deno.openSync(lockPath, {
        read: true
      });
    }
  }
}

// lib/store/path_policy.ts
import { basename as basename3, dirname as dirname3, isAbsolute as isAbsolute2, join as join4, normalize as normalize2, relative } from "node:path";
var CATALOGUE_EXTENSIONS = [
  ".po",
  ".pot"
];
async function resolveCataloguePath(roots, userPath, options) {
  const normalised = checkCataloguePathSyntax(userPath, options.extensions);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await resolveOnce(roots, normalised, userPath, options.mustExist, maxBytes);
      if (found !== null) return found;
    }
    throw new PathChangedError(`Path changed while it was being opened, refused: ${userPath}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw outside(roots, userPath, error);
    throw error;
  }
}
async function resolveOnce(roots, normalised, userPath, mustExist, maxBytes) {
  const [realRoots, real] = await Promise.all([
    resolveRoots(roots),
    realPathOrNull(normalised)
  ]);
  if (real !== null) {
    const inside2 = findRoot(realRoots, real);
    if (!inside2) throw outside(roots, userPath);
    const names = relative(inside2.realRoot, real).split("/");
    const lexicalPath2 = join4(inside2.root, ...names);
    const directories2 = walkDirectories(inside2.root, names.slice(0, -1));
    const stat = directories2 && lstatOrNull(lexicalPath2);
    if (!stat || stat.isSymlink || !directoriesUnchanged(directories2)) return null;
    checkRegularFile(stat, userPath, maxBytes);
    return {
      userPath,
      lexicalPath: lexicalPath2,
      realPath: real,
      ...inside2,
      stat,
      directories: directories2
    };
  }
  const parent = dirname3(normalised);
  const anchor = await nearestExistingAncestor(normalised);
  const inside = anchor && (findRoot(realRoots, anchor.real) ?? exactRoot(realRoots, anchor.real));
  if (!anchor || !inside) throw outside(roots, userPath);
  if (mustExist) throw new NotFoundError(`File not found: ${userPath}`);
  const dirNames = anchor.real === inside.realRoot ? [] : relative(inside.realRoot, anchor.real).split("/");
  const anchorLexical = join4(inside.root, ...dirNames);
  const anchorStat = dirNames.length === 0 ? Deno.statSync(anchorLexical) : lstatOrNull(anchorLexical);
  if (anchorStat === null || anchorStat.isSymlink) return null;
  if (!anchorStat.isDirectory) throw new InvalidInputError(`Not a directory: ${anchor.path}`);
  if (anchor.path !== parent) throw new NotFoundError(`Directory not found: ${parent}`);
  const directories = walkDirectories(inside.root, dirNames);
  if (directories === null) return null;
  const lexicalPath = join4(anchorLexical, basename3(normalised));
  const leaf = lstatOrNull(lexicalPath);
  if (leaf !== null && !leaf.isSymlink) return null;
  if (leaf !== null) throw new NotRegularFileError(userPath, "a symbolic link");
  const realPath = join4(anchor.real, basename3(normalised));
  return {
    userPath,
    lexicalPath,
    realPath,
    ...inside,
    stat: null,
    directories
  };
}
function checkCataloguePathSyntax(userPath, extensions = CATALOGUE_EXTENSIONS) {
  if (typeof userPath !== "string") throw new InvalidInputError("Invalid file path: expected a string");
  if (userPath === "") throw new InvalidInputError("Invalid file path: must not be empty");
  if (userPath.includes("\0")) {
    throw new InvalidInputError(`Invalid file path: contains a NUL byte: ${JSON.stringify(userPath)}`);
  }
  if (!userPath.isWellFormed()) {
    throw new InvalidInputError(`Invalid file path: contains a lone UTF-16 surrogate: ${JSON.stringify(userPath)}`);
  }
  if (!isAbsolute2(userPath)) {
    throw new InvalidInputError(`Invalid file path: must be absolute: ${userPath}`);
  }
  const normalised = normalize2(userPath);
  const name = basename3(normalised);
  const ext = extensions.find((e) => name.endsWith(e) && name.length > e.length);
  if (normalised.endsWith("/") || ext === void 0) {
    const endings = extensions.length === 1 ? extensions[0] : `${extensions.slice(0, -1).join(", ")} or ${extensions.at(-1)}`;
    throw new InvalidInputError(`Invalid file path: must end in ${endings}: ${userPath}`);
  }
  return normalised;
}
function checkRegularFile(stat, displayPath, maxBytes) {
  if (!stat.isFile) throw new NotRegularFileError(displayPath, fileKind(stat));
  if (stat.size > maxBytes) {
    throw new TooLargeError(`File too large: ${displayPath} is ${stat.size} bytes, the limit is ${maxBytes} bytes`);
  }
}
function checkRoots(roots) {
  for (const root of roots) {
    const fail = (why, cause) => new StoreSetupError(`catalogue root ${root} ${why}`, "PO_ROOTS", {
      cause
    });
    try {
      if (!Deno.statSync(root).isDirectory) throw fail("is not a directory");
      for (const _ of Deno.readDirSync(root)) break;
    } catch (error) {
      if (error instanceof StoreSetupError) throw error;
      if (isMissing2(error)) throw fail("does not exist", error);
      if (error instanceof Deno.errors.NotCapable) {
        throw fail(`may not be read by this process (run it with --allow-read=${root})`, error);
      }
      if (error instanceof Deno.errors.PermissionDenied) {
        throw fail("cannot be read (permission denied)", error);
      }
      if (error instanceof Deno.errors.FilesystemLoop) throw fail("is a symlink loop", error);
      throw fail(`cannot be read: ${error.message.split("\n")[0]}`, error);
    }
  }
}
function outsideRootsError(roots, userPath, cause) {
  const shown = roots.map((r) => stripTrailingSlash(normalize2(r))).join(", ");
  return new OutsideRootsError(`Path is outside the catalogue roots (${shown}): ${userPath}`, {
    cause
  });
}
var outside = outsideRootsError;
async function resolveRoots(roots) {
  const found = await Promise.all(roots.map(async (configured) => {
    if (!isAbsolute2(configured)) throw new TypeError(`catalogue root must be absolute: ${configured}`);
    const root = stripTrailingSlash(normalize2(configured));
    try {
      return {
        root,
        realRoot: await Deno.realPath(root)
      };
    } catch (error) {
      if (!isMissing2(error) && !(error instanceof Deno.errors.NotCapable)) throw error;
      return null;
    }
  }));
  return found.filter((r) => r !== null);
}
function stripTrailingSlash(p) {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}
function findRoot(realRoots, real) {
  return realRoots.find(({ realRoot }) => real.startsWith(realRoot.endsWith("/") ? realRoot : `${realRoot}/`));
}
function exactRoot(realRoots, real) {
  return realRoots.find(({ realRoot }) => realRoot === real);
}
function isMissing2(error) {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}
async function realPathOrNull(p) {
  try {
    return await Deno.realPath(p);
  } catch (error) {
    if (isMissing2(error) || error instanceof Deno.errors.FilesystemLoop) return null;
    throw error;
  }
}
async function nearestExistingAncestor(missing) {
  let p = missing;
  while (p !== dirname3(p)) {
    p = dirname3(p);
    const real = await realPathOrNull(p);
    if (real !== null) return {
      path: p,
      real
    };
  }
  return null;
}

// lib/store/atomic_write.ts
var DEFAULT_STALE_TEMP_AGE_MS = 10 * 60 * 1e3;
var DEFAULT_NEW_FILE_MODE = 420;
async function atomicReplaceFile(path, bytes, options = {}) {
  const { directories, signal } = options;
  const display = options.displayPath ?? path;
  signal?.throwIfAborted();
  const dir = dirname4(path);
  const tmp = join5(dir, `.${basename4(path)}.${randomHex(8)}.tmp`);
  const createMode = options.mode === void 0 ? options.newFileMode ?? DEFAULT_NEW_FILE_MODE : 384;
  const created = await createChecked(tmp, display, createMode, directories);
  let fd = created.fd;
  let written;
  try {
    await writeAll(fd, bytes, signal);
    if (options.mode !== void 0) chmodFd(fd, options.mode);
    await syncFd(fd);
    closeFd(fd);
    fd = null;
    signal?.throwIfAborted();
    written = renameChecked(tmp, created, path, display, directories);
  } catch (error) {
    if (fd !== null) closeFd(fd);
    removeChecked(tmp, created, directories);
    throw error;
  }
  await syncDirectory(dir);
  return written;
}
async function updateFileUnderLock(target, compute, options = {}) {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const staleAge = options.staleTempAgeMs === void 0 ? DEFAULT_STALE_TEMP_AGE_MS : options.staleTempAgeMs;
  const { signal } = options;
  const { openPath, displayPath, directories } = target;
  const read2 = (expected) => readRegularFile(openPath, displayPath, maxBytes, {
    followSymlinks: target.followSymlinks,
    expected,
    directories,
    signal
  });
  const computeChecked = async (current) => {
    const next = await compute(current);
    signal?.throwIfAborted();
    if (next === null || current !== null && sameBytes(current.bytes, next)) return null;
    if (bytesLength(next) > maxBytes) {
      throw new TooLargeError(`Cannot write ${displayPath}: the new contents are ${bytesLength(next)} bytes, the limit is ${maxBytes} bytes`);
    }
    return next;
  };
  try {
    return await withInProcessTurn(target.key, async () => {
      let previous = await read2(target.expected?.());
      let next = await computeChecked(previous);
      if (next === null) return {
        previous,
        written: null
      };
      return await withOsLock(openPath, async () => {
        const current = await read2(previous === null ? void 0 : previous.bytes);
        if (!sameContents(previous, current)) {
          previous = current;
          next = await computeChecked(current);
          if (next === null) return {
            previous,
            written: null
          };
        } else previous = current;
        if (staleAge !== null) removeStaleTemps(openPath, staleAge, directories);
        const mode = previous && previous.stat.mode !== null ? previous.stat.mode & 4095 : void 0;
        const written = await atomicReplaceFile(openPath, next, {
          mode,
          newFileMode: options.newFileMode,
          directories,
          signal,
          displayPath
        });
        return {
          previous,
          written
        };
      }, {
        signal,
        directories,
        displayPath,
        key: target.key,
        locks: options.locks
      });
    }, signal);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && !await exists(dirname4(openPath))) {
      throw new NotFoundError(`Directory not found: ${dirname4(displayPath)}`);
    }
    throw error;
  }
}
function sameContents(a, b) {
  if (a === null || b === null) return a === b;
  return a.bytes === b.bytes || sameBytes(a.bytes, b.bytes);
}
async function atomicUpdateFile(path, fn, options = {}) {
  const absolute = resolve(path);
  let real;
  try {
    real = await Deno.realPath(absolute);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) throw error;
    const dir = await Deno.realPath(dirname4(absolute)).catch(() => null);
    if (dir === null) throw new NotFoundError(`Directory not found: ${dirname4(path)}`);
    real = join5(dir, basename4(absolute));
  }
  const outcome = await updateFileUnderLock({
    openPath: real,
    key: real,
    displayPath: path
  }, (current) => fn(current ? flatBytes(current.bytes) : null), options);
  return {
    written: outcome.written !== null
  };
}
async function readRegularFile(path, displayPath, maxBytes, options = {}) {
  options.signal?.throwIfAborted();
  const opened = openChecked(path, displayPath, {
    follow: options.followSymlinks ?? true,
    directories: options.directories
  });
  if (opened.kind === "missing") return null;
  if (opened.kind === "not-regular") throw new NotRegularFileError(displayPath, opened.what);
  try {
    if (opened.size > maxBytes) {
      throw new TooLargeError(`File too large: ${displayPath} is ${opened.size} bytes, the limit is ${maxBytes} bytes`);
    }
    const bytes = await readAllBounded(opened.fd, opened.size, maxBytes, displayPath, options.expected, options.signal);
    return {
      bytes,
      stat: opened.stat
    };
  } finally {
    closeFd(opened.fd);
  }
}
async function readRegularFileBytes(path, maxBytes = DEFAULT_MAX_FILE_BYTES) {
  const file = await readRegularFile(path, path, maxBytes);
  if (file === null) throw new Deno.errors.NotFound(`No such file: ${path}`);
  return flatBytes(file.bytes);
}
function bytesEqual(a, b) {
  return sameBytes(a, b);
}
var COMPARE_CHUNK_BYTES = 1 << 18;
var COMPARE_CHUNKS = [];
async function readAllBounded(fd, sizeHint, maxBytes, displayPath, expected, signal) {
  let buffer = null;
  let total = 0;
  const expectedLength = expected === void 0 ? -1 : bytesLength(expected);
  if (expected !== void 0 && expectedLength === sizeHint) {
    const chunk = COMPARE_CHUNKS.pop() ?? new Uint8Array(COMPARE_CHUNK_BYTES);
    try {
      for (; ; ) {
        signal?.throwIfAborted();
        const n = await readFd(fd, chunk, 0, chunk.length);
        if (n === 0) return total === expectedLength ? expected : flatBytes(expected).slice(0, total);
        const read2 = chunk.subarray(0, n);
        if (total + n <= expectedLength && equalAt(expected, total, read2)) {
          total += n;
          continue;
        }
        buffer = new Uint8Array(Math.min(Math.max(sizeHint, total + n), maxBytes) + 1);
        copyPrefix(expected, total, buffer);
        if (total + n > buffer.length) {
          throw new TooLargeError(`File too large: ${displayPath} is over ${maxBytes} bytes`);
        }
        buffer.set(read2, total);
        total += n;
        break;
      }
    } finally {
      if (COMPARE_CHUNKS.length < 4) COMPARE_CHUNKS.push(chunk);
    }
  }
  return await readRest(fd, buffer ?? new Uint8Array(Math.min(sizeHint, maxBytes) + 1), total, maxBytes, displayPath, signal);
}
async function readRest(fd, buffer, total, maxBytes, displayPath, signal) {
  while (true) {
    if (total === buffer.length) {
      if (total > maxBytes) {
        throw new TooLargeError(`File too large: ${displayPath} is over ${maxBytes} bytes`);
      }
      const bigger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    signal?.throwIfAborted();
    const n = await readFd(fd, buffer, total, Math.min(buffer.length - total, READ_CALL_BYTES));
    if (n === 0) break;
    total += n;
  }
  return buffer.subarray(0, total);
}
var READ_CALL_BYTES = 1 << 20;
async function writeAll(file, bytes, signal) {
  if (bytes instanceof Uint8Array) return await writeRun(file, bytes, signal);
  const stage = STAGES.pop() ?? new Uint8Array(STAGE_BYTES);
  try {
    let filled = 0;
    for (const run of bytes) {
      const direct = run.length >= stage.length >> 2;
      if (filled > 0 && (direct || filled + run.length > stage.length)) {
        await writeRun(file, stage.subarray(0, filled), signal);
        filled = 0;
      }
      if (direct) await writeRun(file, run, signal);
      else {
        stage.set(run, filled);
        filled += run.length;
      }
    }
    await writeRun(file, stage.subarray(0, filled), signal);
  } finally {
    if (STAGES.length < 4) STAGES.push(stage);
  }
}
var STAGE_BYTES = 1 << 20;
var STAGES = [];
async function writeRun(file, run, signal) {
  signal?.throwIfAborted();
  await writeFd(file, run);
}
async function syncDirectory(dir) {
  try {
    const fd = openDirectory(dir);
    try {
      await syncFd(fd);
    } finally {
      closeFd(fd);
    }
  } catch {
  }
}
var TEMP_SUFFIX = /^[0-9a-f]{16}\.tmp$/;
function removeStaleTemps(path, olderThanMs, directories) {
  const dir = dirname4(path);
  const prefix = `.${basename4(path)}.`;
  try {
    if (!directoriesUnchanged(directories)) return;
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !TEMP_SUFFIX.test(entry.name.slice(prefix.length))) {
        continue;
      }
      const full = join5(dir, entry.name);
      const stat = Deno.lstatSync(full);
      if (stat.isFile && Date.now() - (stat.mtime?.getTime() ?? 0) >= olderThanMs) {
        removeChecked(full, {
          dev: stat.dev,
          ino: stat.ino
        }, directories);
      }
    }
  } catch {
  }
}
async function exists(path) {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
function randomHex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// lib/store/revision.ts
import { createHash as createHash2 } from "node:crypto";
var known = /* @__PURE__ */ new WeakMap();
function revisionOf(bytes) {
  const seen = known.get(bytes);
  if (seen !== void 0) return seen;
  const hash = createHash2("sha256");
  if (bytes instanceof Uint8Array) hash.update(bytes);
  else for (const part of bytes) hash.update(part);
  const revision = hash.digest().subarray(0, 16).toString("base64url");
  known.set(bytes, revision);
  return revision;
}
function isRevision(text) {
  return /^[A-Za-z0-9_-]{22}$/.test(text);
}

// lib/store/catalogue_store.ts
var LOAD_WEIGHT = 4;
var DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024;
var DEFAULT_RACY_WINDOW_MS = 2e3;
var CatalogueStore = class {
  /** The configured catalogue roots, as given. */
  roots;
  #codec;
  #maxFileBytes;
  #cacheMaxBytes;
  #racyWindowMs;
  #now;
  #writeOptions;
  #loadAllowance;
  /** Settles when the last large parse queued so far is done (see {@link CatalogueStore.#turnToParse}). */
  #parsing = Promise.resolve();
  #cache = /* @__PURE__ */ new Map();
  #loading = /* @__PURE__ */ new Map();
  /** Where recently read paths resolved to, oldest first (see {@link CatalogueStore.#resolveForRead}). */
  #resolved = /* @__PURE__ */ new Map();
  /** Per real path, the document an update is writing right now and its bytes. */
  #writing = /* @__PURE__ */ new Map();
  #cachedBytes = 0;
  /**
   * The cache's clock. A hit records its tick in the entry instead of moving it to the end of the
   * Map: for a Map that lives in the old generation, a delete and a set make V8 allocate the Map's
   * new hash table there too, so each cached read left garbage in the old generation.
   */
  #tick = 0;
  #stats = {
    hits: 0,
    revalidations: 0,
    parses: 0,
    evictions: 0
  };
  /**
   * Makes a store over `options.roots` (nothing is read until the first call).
   *
   * @throws {TypeError} a root is not absolute.
   */
  constructor(options) {
    for (const root of options.roots) {
      if (!root.startsWith("/")) throw new TypeError(`catalogue root must be absolute: ${root}`);
    }
    this.roots = [
      ...options.roots
    ];
    this.#codec = options.codec;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#racyWindowMs = options.racyWindowMs ?? DEFAULT_RACY_WINDOW_MS;
    this.#now = options.now ?? Date.now;
    this.#loadAllowance = options.loadAllowance;
    this.#writeOptions = {
      maxBytes: this.#maxFileBytes,
      newFileMode: options.newFileMode,
      staleTempAgeMs: options.staleTempAgeMs,
      locks: options.locks
    };
  }
  /**
   * Applies the path policy with this store's roots and size limit.
   *
   * @throws see {@link resolveCataloguePath}.
   */
  resolve(userPath, options) {
    return resolveCataloguePath(this.roots, userPath, {
      ...options,
      maxBytes: this.#maxFileBytes
    });
  }
  /**
   * Reads and parses a catalogue, from the cache when the file is unchanged (one `stat`, no read, no
   * parse). Concurrent reads of the same uncached file share one parse.
   *
   * @throws {InvalidInputError} malformed path (a name too long included), or not a regular file
   *   (`NotRegularFileError`: a FIFO or device is refused at once, never waited on).
   * @throws {OutsideRootsError} outside every root (symlinks resolved), or refused by the sandbox;
   *   `PathChangedError` when a directory on the path changed while it was opened.
   * @throws {NotFoundError} `File not found: PATH`.
   * @throws {TooLargeError} larger than `maxFileBytes`.
   * @throws the codec's error (e.g. PoSyntaxError) for an unparsable file.
   * @throws `options.signal.reason` once the signal is aborted.
   */
  async read(userPath, options = {}) {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = await this.#resolveForRead(userPath);
      signal?.throwIfAborted();
      const key = statKey(path.stat);
      const entry = this.#cache.get(path.realPath);
      if (entry && entry.key === key && !entry.racy) {
        entry.used = ++this.#tick;
        this.#stats.hits++;
        return {
          doc: entry.doc,
          path,
          fromCache: true,
          revision: revisionOf(entry.bytes)
        };
      }
      const loadKey = `${path.realPath}\0${key}`;
      let loading = this.#loading.get(loadKey);
      if (!loading) {
        const controller = new AbortController();
        const started = {
          key: loadKey,
          promise: this.#load(path, entry?.key === key ? entry : void 0, controller.signal),
          waiters: 0,
          controller
        };
        this.#loading.set(loadKey, started);
        started.promise.finally(() => {
          if (this.#loading.get(loadKey) === started) this.#loading.delete(loadKey);
        }).catch(() => {
        });
        loading = started;
      }
      const loaded = await this.#wait(loading, signal);
      return {
        doc: loaded.doc,
        path,
        fromCache: false,
        revision: revisionOf(loaded.bytes)
      };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }
  /**
   * Reads a catalogue's bytes through the path policy and the load allowance, without parsing or
   * caching them: for a caller that keeps what it derives from them (the workbench's counts). The
   * stat is the opened file's, checked as {@link CatalogueStore.read} checks it.
   *
   * @throws the same path, size and abort errors as {@link CatalogueStore.read}.
   */
  async readBytes(userPath, options = {}) {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = await this.#resolveForRead(userPath);
      const release = this.#take(path.stat?.size ?? 0);
      try {
        const current = await readRegularFile(path.lexicalPath, path.userPath, this.#maxFileBytes, {
          followSymlinks: false,
          directories: path.directories,
          signal
        });
        if (current === null) throw new NotFoundError(`File not found: ${path.userPath}`);
        return {
          bytes: flatBytes(current.bytes),
          revision: revisionOf(current.bytes),
          stat: current.stat,
          path
        };
      } finally {
        release();
      }
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }
  /**
   * Locked read-modify-write of one catalogue. Under the file's lock (in-process queue + `flock`), the
   * current file is read and parsed (null when it does not exist yet; its directory must exist in a
   * root), `fn` computes the new document and a result, and the encoded document replaces the file
   * atomically, unless the bytes are unchanged (then nothing is written). Existing files keep their
   * permission bits; new ones get `newFileMode` minus the umask. The written document is cached.
   *
   * @returns what `fn` returned as `result`.
   * @throws the same path errors as {@link CatalogueStore.read} (a missing file is fine; a missing
   *   directory is `NotFoundError("Directory not found: DIR")`).
   * @throws {TooLargeError} the current file or the encoded document exceeds `maxFileBytes`.
   * @throws whatever `fn` or the codec throws; the file is then untouched.
   * @throws `options.signal.reason` once the signal is aborted before the rename; the file is then
   *   untouched, no temp file remains and the lock is released.
   * @throws {PathChangedError} (an OutsideRootsError) a directory on the path changed under the update.
   *
   * `fn` is called a second time, under the cross-process lock, when another process changed the file
   * after the first call saw it: it must have no effect besides its return value.
   */
  async update(userPath, fn, options = {}) {
    return (await this.updateWithRevision(userPath, fn, options)).result;
  }
  /**
   * {@link CatalogueStore.update}, telling also the file's revision after it and whether it was written.
   * `fn` is told the file's revision under the lock, so a compare-and-swap decided there cannot race
   * another writer.
   */
  async updateWithRevision(userPath, fn, options = {}) {
    const { signal } = options;
    let release = NOTHING_HELD;
    try {
      signal?.throwIfAborted();
      const path = await this.resolve(userPath, {
        mustExist: false
      });
      const cachedNow = this.#cache.get(path.realPath);
      if (path.stat && !(cachedNow && cachedNow.key === statKey(path.stat))) {
        release = this.#take(path.stat.size);
      }
      let next;
      let written = false;
      let revision = null;
      try {
        const outcome = await updateFileUnderLock({
          openPath: path.lexicalPath,
          key: path.realPath,
          displayPath: userPath,
          followSymlinks: false,
          directories: path.directories,
          // Asked under the lock: an update queued before this one may have changed it.
          expected: () => this.#cache.get(path.realPath)?.bytes
        }, async (current) => {
          const cached = this.#cache.get(path.realPath);
          const doc = current === null ? null : cached && bytesEqual(cached.bytes, current.bytes) ? cached.doc : this.#parse(flatBytes(current.bytes), userPath);
          const out = await fn(doc, {
            revision: current === null ? null : revisionOf(current.bytes),
            bytes: current?.bytes ?? null
          });
          next = {
            ...out,
            bytes: this.#codec.encode(out.doc)
          };
          this.#writing.set(path.realPath, next);
          return next.bytes;
        }, signal ? {
          ...this.#writeOptions,
          signal
        } : this.#writeOptions);
        const stat = outcome.written ?? outcome.previous?.stat;
        if (stat) this.#remember(path.realPath, next.doc, stat, next.bytes, this.#now());
        written = outcome.written !== null;
        const bytesNow = written ? next.bytes : outcome.previous?.bytes;
        revision = bytesNow === void 0 ? null : revisionOf(bytesNow);
      } finally {
        if (next && this.#writing.get(path.realPath) === next) this.#writing.delete(path.realPath);
      }
      return {
        result: next.result,
        revision,
        written
      };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    } finally {
      release();
    }
  }
  /**
   * Writes `bytes` to a file that is not a catalogue (a compiled `.mo`) inside the roots, with
   * the same path policy (checked at the moment of use), lock and atomic replacement as
   * {@link update}; nothing is written when the file already holds these bytes. The directory
   * must exist. The file is not cached.
   *
   * @param extensions endings the file name must have, e.g. `[".mo"]`.
   * @returns whether the file was written.
   * @throws the path errors of {@link update}.
   */
  async writeFile(userPath, bytes, extensions, options = {}) {
    const { signal } = options;
    try {
      signal?.throwIfAborted();
      const path = await resolveCataloguePath(this.roots, userPath, {
        mustExist: false,
        maxBytes: this.#maxFileBytes,
        extensions
      });
      const outcome = await updateFileUnderLock({
        openPath: path.lexicalPath,
        key: path.realPath,
        displayPath: userPath,
        followSymlinks: false,
        directories: path.directories
      }, () => bytes, signal ? {
        ...this.#writeOptions,
        signal
      } : this.#writeOptions);
      return {
        written: outcome.written !== null
      };
    } catch (error) {
      throw mapSandboxError(error, userPath, this.roots);
    }
  }
  /** Takes a load of `size` file bytes from the allowance, if there is one. */
  #take(size) {
    return this.#loadAllowance?.take(LOAD_WEIGHT * size, "catalogue loads") ?? NOTHING_HELD;
  }
  /**
   * {@link resolve} for a read, reusing for {@link RESOLVED_TTL_MS} where a path resolved to: a
   * cached read is then one `lstat` (two `realPath`s and an `lstat` per directory otherwise). The
   * place was inside a root when it was resolved, so a symlink the caller named, retargeted since,
   * can only delay, by that much, which file inside the roots a read sees. A directory on the
   * resolved path swapped for a symlink since is not followed: the `lstat` then names another file
   * (a cache miss), and the load checks every directory before it opens anything (a
   * `PathChangedError`). Writes always resolve afresh.
   */
  async #resolveForRead(userPath) {
    const now = this.#now();
    const known2 = this.#resolved.get(userPath);
    if (known2 !== void 0 && now - known2.at < RESOLVED_TTL_MS) {
      let stat = null;
      try {
        stat = lstatOrNull(known2.path.lexicalPath);
      } catch {
      }
      if (stat !== null && stat.isFile && stat.size <= this.#maxFileBytes) return {
        ...known2.path,
        stat
      };
    }
    const path = await this.resolve(userPath, {
      mustExist: true
    });
    this.#resolved.delete(userPath);
    if (this.#resolved.size >= RESOLVED_MAX) this.#resolved.delete(this.#resolved.keys().next().value);
    this.#resolved.set(userPath, {
      path,
      at: now
    });
    return path;
  }
  /** Cache counters (for tests and metrics). */
  cacheStats() {
    return {
      entries: this.#cache.size,
      bytes: this.#cachedBytes,
      ...this.#stats
    };
  }
  /** Drops every cached document. */
  clearCache() {
    this.#cache.clear();
    this.#cachedBytes = 0;
  }
  /**
   * Parses bytes that {@link CatalogueStore.readBytes} returned, as a read parses them: through the
   * codec, holding the load allowance, one large parse at a time. Nothing is cached: for a caller
   * that keeps what it derives from the document (the workbench's search columns), not the document.
   *
   * @throws {BusyError} when the load allowance cannot hold the parse now.
   * @throws the codec's error (e.g. PoSyntaxError) for unparsable bytes.
   * @throws `options.signal.reason` once the signal is aborted.
   */
  async parseBytes(bytes, userPath, options = {}) {
    const signal = options.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    const release = this.#take(bytes.length);
    try {
      const done = await this.#turnToParse(bytes.length, signal);
      try {
        return this.#parse(bytes, userPath);
      } finally {
        done();
      }
    } finally {
      release();
    }
  }
  /**
   * A parse holds the event loop (~30 ms per MiB). Reads of large files parse one at a time, each
   * after a turn of the event loop, so requests that arrived meanwhile are served between two
   * large parses instead of after all of them. Small files go straight through.
   */
  async #turnToParse(size, signal) {
    if (size < LARGE_PARSE_BYTES) return NOTHING_HELD;
    const previous = this.#parsing;
    let done;
    this.#parsing = new Promise((resolve2) => done = resolve2);
    try {
      await previous;
      await new Promise((resolve2) => setTimeout(resolve2, 0));
      signal.throwIfAborted();
    } catch (error) {
      done();
      throw error;
    }
    return done;
  }
  #parse(bytes, userPath) {
    this.#stats.parses++;
    return this.#codec.parse(bytes, userPath);
  }
  /** Waits for a shared load; giving up (abort) leaves it, and the last one to leave stops it. */
  #wait(loading, signal) {
    loading.waiters++;
    if (!signal) return loading.promise;
    return new Promise((resolve2, reject) => {
      const leave = () => {
        if (--loading.waiters === 0) {
          if (this.#loading.get(loading.key) === loading) this.#loading.delete(loading.key);
          loading.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener("abort", leave, {
        once: true
      });
      loading.promise.then(resolve2, reject).finally(() => signal.removeEventListener("abort", leave));
    });
  }
  /** Reads the file; reuses `racy`'s document when the bytes are the ones it was parsed from. Stops
   * (throws the abort reason) between chunks and before the parse once `signal` is aborted. */
  async #load(path, racy, signal) {
    const release = this.#take(path.stat?.size ?? 0);
    try {
      return await this.#loadHeld(path, racy, signal);
    } finally {
      release();
    }
  }
  async #loadHeld(path, racy, signal) {
    const startedAt = this.#now();
    const writing = this.#writing.get(path.realPath);
    const entryBefore = this.#cache.get(path.realPath);
    const current = await readRegularFile(path.lexicalPath, path.userPath, this.#maxFileBytes, {
      followSymlinks: false,
      directories: path.directories,
      signal,
      // Compared chunk by chunk with the bytes it most likely has, without a copy of the file.
      expected: writing?.bytes ?? racy?.bytes ?? this.#cache.get(path.realPath)?.bytes
    });
    if (current === null) throw new NotFoundError(`File not found: ${path.userPath}`);
    signal.throwIfAborted();
    const writingNow = this.#writing.get(path.realPath);
    const cached = this.#cache.get(path.realPath);
    let doc;
    if (writing && bytesEqual(current.bytes, writing.bytes)) {
      this.#stats.revalidations++;
      doc = writing.doc;
    } else if (writingNow && writingNow !== writing && bytesEqual(current.bytes, writingNow.bytes)) {
      this.#stats.revalidations++;
      doc = writingNow.doc;
    } else if (racy?.racy && bytesEqual(current.bytes, racy.bytes)) {
      this.#stats.revalidations++;
      doc = racy.doc;
    } else if (cached && bytesEqual(current.bytes, cached.bytes)) {
      this.#stats.revalidations++;
      doc = cached.doc;
    } else {
      const bytes = flatBytes(current.bytes);
      const done = await this.#turnToParse(bytes.length, signal);
      try {
        doc = this.#parse(bytes, path.userPath);
      } finally {
        done();
      }
    }
    if (this.#cache.get(path.realPath) === entryBefore) {
      this.#remember(path.realPath, doc, current.stat, current.bytes, startedAt);
    }
    return {
      doc,
      bytes: current.bytes
    };
  }
  /** Caches `doc` as the parse of `bytes`, whose file had `stat` when read at `readAt`. */
  #remember(realPath, doc, stat, bytes, readAt) {
    const lastChange = Math.max(stat.mtime?.getTime() ?? 0, stat.ctime?.getTime() ?? 0);
    const racy = lastChange > readAt - this.#racyWindowMs;
    const old = this.#cache.get(realPath);
    if (old) {
      this.#cache.delete(realPath);
      this.#cachedBytes -= old.size;
    }
    if (this.#cacheMaxBytes === 0 || stat.size > this.#cacheMaxBytes) return;
    this.#cache.set(realPath, {
      doc,
      key: statKey(stat),
      size: stat.size,
      used: ++this.#tick,
      racy,
      bytes
    });
    this.#cachedBytes += stat.size;
    while (this.#cachedBytes > this.#cacheMaxBytes) {
      let oldest = null;
      let oldestUse = Infinity;
      for (const [path, entry2] of this.#cache) {
        if (entry2.used < oldestUse) {
          oldest = path;
          oldestUse = entry2.used;
        }
      }
      const entry = this.#cache.get(oldest);
      this.#cache.delete(oldest);
      this.#cachedBytes -= entry.size;
      this.#stats.evictions++;
    }
  }
};
var NOTHING_HELD = () => {
};
var LARGE_PARSE_BYTES = 1024 * 1024;
var RESOLVED_TTL_MS = 1e3;
var RESOLVED_MAX = 1024;
function statKey(stat) {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtime?.getTime()}:${stat.ctime?.getTime()}`;
}
function mapSandboxError(error, userPath, roots) {
  if (error instanceof Deno.errors.NotCapable) return outsideRootsError(roots, userPath, error);
  if (error instanceof Error && error.code === "ENAMETOOLONG") {
    return new InvalidInputError(`Invalid file path: a name in it is too long: ${userPath}`, {
      cause: error
    });
  }
  return error;
}
export {
  CATALOGUE_EXTENSIONS,
  CatalogueStore,
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_NEW_FILE_MODE,
  DEFAULT_RACY_WINDOW_MS,
  DEFAULT_STALE_TEMP_AGE_MS,
  LOCKS_BESIDE,
  LOCKS_BESIDE_PLACEMENT,
  NotRegularFileError,
  PathChangedError,
  StoreSetupError,
  atomicReplaceFile,
  atomicUpdateFile,
  checkCataloguePathSyntax,
  checkRegularFile,
  checkRoots,
  defaultLockDirectoryPath,
  isRevision,
  lockDirectorySetting,
  lockFilePath,
  lockPlacement,
  openLockDirectory,
  outsideRootsError,
  readRegularFile,
  readRegularFileBytes,
  resolveCataloguePath,
  revisionOf,
  setLockPlacement,
  updateFileUnderLock,
  useLockDirectory,
  withFileLock,
  withInProcessTurn,
  withOsLock
};
