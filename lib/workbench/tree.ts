/**
 * The catalogues under the roots and their progress, kept fresh cheaply: the one module that owns
 * the workbench's per-file records (the rule of that cache is stated here).
 *
 * - **Walk.** Each root (or one directory below it) is walked depth-first, in code-unit order of
 *   names: `.po`/`.pot` regular files are taken; names starting with `.` are skipped; symbolic links
 *   are never followed (a directory is `lstat`ed right before it is listed); at most
 *   {@link WorkbenchOptions.maxFiles} files, ten times as many names in all, and
 *   {@link WorkbenchOptions.maxDepth} levels. Past a bound the walk stops and the listing is the
 *   files met so far, marked truncated with what to do (list one directory with `under`, or raise
 *   the bound): a tree that grew past it degrades the listings, it does not disable them.
 * - **Reads go through the store.** A file whose record is missing or stale is read with
 *   `CatalogueStore.readBytes` (the path policy, size limit and shared load allowance) and counted
 *   from its bytes (`_count_scan.ts`, several times faster than a parse); a file not in the plain
 *   layout that scanner reads is parsed with `CatalogueStore.read`. A file the policy refuses is
 *   left out of the listing, one that cannot be parsed is listed with `error`.
 * - **Stat-keyed records.** A record is kept per real path with the `lstat` key (device, inode, size,
 *   mtime, ctime) of the file it was read from; a listing `lstat`s every file and re-reads only those
 *   whose key changed. A record read within {@link RACY_WINDOW_MS} of the file's last change is
 *   "racy" (a second write in the same clock tick would keep every stat field): it is verified by a
 *   store read (the store re-reads racy files and compares bytes) and replaced when its revision
 *   differs. So a listing never serves counts of bytes that are no longer on disk, whoever wrote them.
 * - **Memory.** A listing keeps counts only. A search needs the texts: it reads and parses each
 *   file once (the store's bytes and codec, not its cache), keeps the entries in columns
 *   (`_columns.ts`: the texts and a few bytes per entry) and drops the parse, while the kept files'
 *   bytes stay within {@link WorkbenchOptions.maxKeptBytes}; past it, a search reads the others again
 *   as it goes. Measured in bench/README.md. A record whose file changed drops its columns with it.
 * - **One refresh at a time.** Concurrent listings share one walk, so many requests cost one file's
 *   load at a time, not one each.
 *
 * @module
 */
import { relative } from "node:path";
import { abortable } from "../abortable.ts";
import {
  BusyError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  OutsideRootsError,
  TimeoutError,
} from "../errors.ts";
import { entryKind, mayHoldDrafts, type PoCatalog, type TreeWalkIo, walkTree } from "../po/mod.ts";
import { type CatalogueStore, statKey } from "../store/mod.ts";
import { SearchColumns } from "./_columns.ts";
import { scanCounts } from "./_count_scan.ts";
import { type CatalogueCounts, catalogueLanguage, countCatalogue, pathLanguage } from "./stats.ts";

/** One catalogue as listed. */
export interface CatalogueSummary {
  /** The configured root it is under (as configured). */
  root: string;
  /** Its path relative to the root, with `/`. */
  path: string;
  /** "template" for a `.pot` file (outside progress totals), "catalogue" for a `.po` file. */
  kind: "catalogue" | "template";
  /** The `Language:` of its header, or a locale named in its path, or null. */
  language: string | null;
  /** Entries and words by state, percentages (null when the file could not be read). */
  counts: CatalogueCounts | null;
  /** Size in bytes. */
  size: number;
  /** Last modification, ISO 8601. */
  modified: string | null;
  /** The revision of the bytes counted (see `lib/store/revision.ts`). */
  revision: string | null;
  /** Why the file has no counts (e.g. a syntax error), else null. */
  error: string | null;
}

/** A catalogue file, fresh as of the listing that returned it. */
export interface CatalogueFile {
  readonly summary: CatalogueSummary;
  /** The absolute path to hand to the store (root spelling + relative path). */
  readonly filePath: string;
  /** False when the bytes counted hold no draft mark (see `mayHoldDrafts`); absent: not known. */
  readonly mayHoldDrafts?: boolean;
}

/** The catalogues a walk found, and why it stopped early (null: it saw the whole tree). */
export interface CatalogueListingFiles {
  files: CatalogueFile[];
  truncated: string | null;
}

/** Options of a {@link Workbench}. */
export interface WorkbenchOptions {
  /** Most catalogue files a walk takes (default 20,000): past it a listing is truncated. */
  maxFiles?: number;
  /** Deepest directory level walked below a root (default 32). */
  maxDepth?: number;
  /** Bytes of files whose search columns are kept (default 256 MiB). */
  maxKeptBytes?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
}

/** See the module doc: a record whose file changed less than this long before it was read is verified. */
export const RACY_WINDOW_MS = 2000;

/** Directory entries a walk may meet per catalogue it may take (other files, directories). */
const ENTRIES_PER_FILE = 10;

/** Default of {@link WorkbenchOptions.maxFiles}. */
export const DEFAULT_MAX_FILES = 20_000;

interface FileRecord {
  /** The file's stat key when read. */
  key: string;
  readAt: number;
  lastChange: number;
  file: CatalogueFile;
  /** The file's search columns, once a search has read it (while within `maxKeptBytes`). */
  columns: SearchColumns | null;
  keptBytes: number;
}

/**
 * The catalogues of one store's roots, listed with their progress.
 *
 * @example
 * ```ts
 * const workbench = new Workbench(store);
 * const files = await workbench.files({ signal });
 * files.map((f) => f.summary.counts?.percent);
 * ```
 */
export class Workbench {
  readonly #store: CatalogueStore<PoCatalog>;
  readonly #maxFiles: number;
  readonly #maxDepth: number;
  readonly #maxKeptBytes: number;
  readonly #now: () => number;
  readonly #records = new Map<string, FileRecord>();
  #keptBytes = 0;
  /** The walk in progress and what it was asked for, shared by listings that ask the same. */
  #refreshing: { under: string | null; promise: Promise<CatalogueListingFiles> } | null = null;

  /** A workbench over `store`'s roots (nothing is read until the first listing). */
  constructor(store: CatalogueStore<PoCatalog>, options: WorkbenchOptions = {}) {
    this.#store = store;
    this.#maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
    this.#maxDepth = options.maxDepth ?? 32;
    this.#maxKeptBytes = options.maxKeptBytes ?? 256 * 1024 * 1024;
    this.#now = options.now ?? Date.now;
  }

  /** The store's roots, as configured. */
  get roots(): readonly string[] {
    return this.#store.roots;
  }

  /**
   * Every catalogue under the roots (or under the directory `under`, absolute or relative to a
   * root), fresh: sorted by root (in configured order), then path in code-unit order.
   *
   * @throws {InvalidInputError} `under` is not a directory name inside a root.
   * @throws {NotFoundError} `under` does not exist.
   * @throws the signal's reason once aborted.
   */
  async files(options: { under?: string | null; signal?: AbortSignal } = {}): Promise<CatalogueFile[]> {
    return (await this.listing(options)).files;
  }

  /**
   * {@link files}, and whether the walk stopped at a bound (more than `maxFiles` catalogues, or ten
   * times as many names): then the files are the first ones met, and `truncated` says so and how to
   * narrow.
   *
   * @throws {InvalidInputError} `under` is not a directory name inside a root.
   * @throws {NotFoundError} `under` does not exist.
   * @throws the signal's reason once aborted.
   */
  async listing(
    options: { under?: string | null; signal?: AbortSignal } = {},
  ): Promise<CatalogueListingFiles> {
    const under = options.under ?? null;
    const running = this.#refreshing;
    if (running && running.under === under) return await abortable(running.promise, options.signal);
    if (running) await running.promise.catch(() => {});
    const promise = this.#refresh(under, options.signal);
    const mine = { under, promise };
    this.#refreshing = mine;
    try {
      return await promise;
    } finally {
      if (this.#refreshing === mine) this.#refreshing = null;
    }
  }

  /** Where a directory named by a request lies: its root and real path below it. */
  resolveDirectory(under: string): { root: string; dir: string } {
    return resolveDirectory(this.#store.roots, under);
  }

  async #refresh(under: string | null, signal: AbortSignal | undefined): Promise<CatalogueListingFiles> {
    const places = under === null
      ? this.#store.roots.map((root) => ({ root, dir: root }))
      : [this.resolveDirectory(under)];
    const out: CatalogueFile[] = [];
    const seen = new Set<string>();
    // One allowance of files and names for the whole listing, over every root.
    const allowance = { files: this.#maxFiles, names: this.#maxFiles * ENTRIES_PER_FILE };
    let truncated: string | null = null;
    for (const { root, dir } of places) {
      if (truncated !== null) break;
      const walked = await this.#walk(root, dir, under !== null, allowance, signal);
      truncated = walked.truncated;
      for (const path of walked.files) {
        signal?.throwIfAborted();
        const file = await this.#fresh(root, path, signal);
        if (file === null || seen.has(file.filePath)) continue;
        seen.add(file.filePath);
        out.push(file);
      }
    }
    // A truncated walk has not seen the others: their records stay (nothing re-read when it shrinks).
    if (under === null && truncated === null) this.#forgetOthers(seen);
    return { files: out, truncated };
  }

  /** Drops records of files no longer listed (deleted or renamed), so memory follows the tree. */
  #forgetOthers(listed: Set<string>): void {
    for (const [path, record] of this.#records) {
      if (listed.has(path)) continue;
      this.#keptBytes -= record.keptBytes;
      this.#records.delete(path);
    }
  }

  /**
   * The catalogue files under `dir` (absolute), in the walk's order, within `allowance` (what is
   * left of the listing's files and names, spent here); `truncated` says why the walk stopped early.
   */
  async #walk(
    root: string,
    dir: string,
    named: boolean,
    allowance: { files: number; names: number },
    signal: AbortSignal | undefined,
  ): Promise<{ files: string[]; truncated: string | null }> {
    const files: string[] = [];
    const narrow = "list one directory at a time (under), filter with glob, or raise PO_MAX_LISTED_FILES";
    const io: TreeWalkIo = {
      async readDir(path) {
        signal?.throwIfAborted();
        // Not followed when it became a symlink since it was listed (the root's own spelling may be one).
        if (path !== root) {
          const stat = lstatOrNull(path);
          if (stat === null || !stat.isDirectory) return [];
        }
        return (await Array.fromAsync(Deno.readDir(path))).map((e) => ({
          name: e.name,
          kind: entryKind(e),
        }));
      },
    };
    const take = (name: string) => name.endsWith(".po") || name.endsWith(".pot");
    for await (const step of walkTree(dir, io, { take, maxDepth: this.#maxDepth })) {
      if ("unlisted" in step) {
        const error = step.error;
        if (named && step.unlisted === dir && error instanceof Deno.errors.NotFound) {
          throw new NotFoundError(`Directory not found: ${relative(root, dir) || root}`);
        }
        if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) continue;
        if (error instanceof Deno.errors.NotCapable) continue;
        throw error;
      }
      if ("listed" in step) {
        allowance.names -= step.entries;
        if (allowance.names < 0) {
          return {
            files,
            truncated: `more than ${this.#maxFiles * ENTRIES_PER_FILE} names under the roots: the walk ` +
              `stopped in ${
                relative(root, step.listed) || "."
              }, and only the catalogues met before are listed; ${narrow}`,
          };
        }
        continue;
      }
      if (allowance.files === 0) {
        return {
          files,
          truncated: `more than ${this.#maxFiles} catalogues under the roots: only the first ` +
            `${this.#maxFiles} the walk met are listed; ${narrow}`,
        };
      }
      allowance.files--;
      files.push(step.file);
    }
    return { files, truncated: null };
  }

  /** The record of `path`, re-read when its stat changed or it is racy; null when the policy refuses it. */
  async #fresh(root: string, path: string, signal: AbortSignal | undefined): Promise<CatalogueFile | null> {
    const stat = lstatOrNull(path);
    if (stat === null || !stat.isFile) return null;
    const key = statKey(stat);
    const record = this.#records.get(path);
    if (record && record.key === key) {
      if (record.lastChange <= record.readAt - RACY_WINDOW_MS) return record.file;
    }
    return await this.#load(root, path, record, signal);
  }

  async #load(
    root: string,
    path: string,
    previous: FileRecord | undefined,
    signal: AbortSignal | undefined,
  ): Promise<CatalogueFile | null> {
    const readAt = this.#now();
    const rel = relative(root, path);
    let summary: CatalogueSummary;
    let key: string;
    let lastChange = 0;
    let drafts: boolean | undefined;
    try {
      const read = await this.#store.readBytes(path, { signal });
      const stat = read.stat;
      key = statKey(stat);
      lastChange = Math.max(stat.mtime?.getTime() ?? 0, stat.ctime?.getTime() ?? 0);
      if (previous && previous.file.summary.revision === read.revision) {
        // Verified unchanged: the same record, no longer racy once the clock has moved on.
        previous.key = key;
        previous.readAt = readAt;
        previous.lastChange = lastChange;
        return previous.file;
      }
      // Counted from the bytes when they are in the plain layout; parsed (by the store's codec) otherwise.
      let scanned = scanCounts(read.bytes);
      const revision = read.revision;
      drafts = mayHoldDrafts(read.bytes);
      if (scanned === null) {
        const doc = await this.#store.parseBytes(read.bytes, path, { signal });
        scanned = { counts: countCatalogue(doc), language: catalogueLanguage(doc, rel) };
      }
      summary = {
        root,
        path: rel,
        kind: rel.endsWith(".pot") ? "template" : "catalogue",
        language: scanned.language ?? pathLanguage(rel),
        counts: scanned.counts,
        size: stat.size,
        modified: stat.mtime?.toISOString() ?? null,
        revision,
        error: null,
      };
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof OutsideRootsError || error instanceof NotFoundError) {
        this.#drop(path);
        return null;
      }
      // Only the file's own problems are listed; a busy service or a spent time limit fails the listing.
      if (!(error instanceof DomainError) || error instanceof BusyError || error instanceof TimeoutError) {
        throw error;
      }
      const stat = lstatOrNull(path);
      if (stat === null) return null;
      key = statKey(stat);
      lastChange = Math.max(stat.mtime?.getTime() ?? 0, stat.ctime?.getTime() ?? 0);
      summary = {
        root,
        path: rel,
        kind: rel.endsWith(".pot") ? "template" : "catalogue",
        language: null,
        counts: null,
        size: stat.size,
        modified: stat.mtime?.toISOString() ?? null,
        revision: null,
        error: error.name === "PoSyntaxError" ? `Invalid PO file: ${error.message}` : error.message,
      };
    }
    this.#drop(path);
    const record: FileRecord = {
      key,
      readAt,
      lastChange,
      file: drafts === undefined
        ? { summary, filePath: path }
        : { summary, filePath: path, mayHoldDrafts: drafts },
      columns: null,
      keptBytes: 0,
    };
    this.#records.set(path, record);
    return record.file;
  }

  /**
   * The search columns of a listed file and the revision they were made from: the kept ones, or
   * made from the file read again through the store (its bytes, not its cache: nothing else of the
   * parse is kept), and kept, within `maxKeptBytes`, while the file's record is unchanged. The
   * revision is the file's as read now; the caller compares it with the listed one.
   *
   * @throws the store's errors.
   */
  async columns(
    file: CatalogueFile,
    signal?: AbortSignal,
  ): Promise<{ columns: SearchColumns; revision: string }> {
    const record = this.#records.get(file.filePath);
    const listed = file.summary.revision;
    if (record !== undefined && record.file === file && record.columns !== null && listed !== null) {
      return { columns: record.columns, revision: listed };
    }
    const read = await this.#store.readBytes(file.filePath, { signal });
    const columns = SearchColumns.of(await this.#store.parseBytes(read.bytes, file.filePath, { signal }));
    const now = this.#records.get(file.filePath);
    if (
      now !== undefined && now.file === file && read.revision === listed && now.keptBytes === 0 &&
      this.#keptBytes + file.summary.size <= this.#maxKeptBytes
    ) {
      now.columns = columns;
      now.keptBytes = file.summary.size;
      this.#keptBytes += now.keptBytes;
    }
    return { columns, revision: read.revision };
  }

  #drop(path: string): void {
    const old = this.#records.get(path);
    if (!old) return;
    this.#keptBytes -= old.keptBytes;
    this.#records.delete(path);
  }
}

/**
 * Where a directory named in a request lies: absolute inside a root, or relative to the first root
 * that has it. No `..` may climb out, and the directory's real path must be inside that root.
 *
 * @throws {InvalidInputError} not a string path, NUL, or `..` leaving the root.
 * @throws {OutsideRootsError} outside every root.
 * @throws {NotFoundError} no root has it.
 */
export function resolveDirectory(roots: readonly string[], under: string): { root: string; dir: string } {
  if (under.includes("\0") || under.length > 4096) throw new InvalidInputError(`Invalid directory: ${under}`);
  const parts: string[] = [];
  const absolute = under.startsWith("/");
  for (const part of under.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0 && !absolute) {
        throw new InvalidInputError(`Invalid directory: it leaves the catalogue root: ${under}`);
      }
      parts.pop();
    } else parts.push(part);
  }
  const candidates: { root: string; rel: string }[] = [];
  if (absolute) {
    const normal = `/${parts.join("/")}`;
    for (const root of roots) {
      const r = root.endsWith("/") && root !== "/" ? root.slice(0, -1) : root;
      if (normal === r) candidates.push({ root, rel: "" });
      else if (normal.startsWith(r === "/" ? "/" : `${r}/`)) {
        candidates.push({ root, rel: normal.slice(r.length + 1) });
      }
    }
    if (candidates.length === 0) {
      throw new OutsideRootsError(`Directory is outside the catalogue roots: ${under}`);
    }
  } else {
    for (const root of roots) candidates.push({ root, rel: parts.join("/") });
  }
  for (const { root, rel } of candidates) {
    const dir = rel === "" ? root : `${root}/${rel}`;
    // Every level below the root must be a real directory (no symlink), so nothing leads outside.
    let at = root;
    let ok = true;
    for (const name of rel === "" ? [] : rel.split("/")) {
      at = `${at}/${name}`;
      const stat = lstatOrNull(at);
      if (stat === null || !stat.isDirectory) {
        ok = false;
        break;
      }
    }
    if (ok) return { root, dir };
  }
  throw new NotFoundError(`Directory not found: ${under}`);
}

/** `lstat`, or null when there is nothing there (or it cannot be looked at). */
function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}
