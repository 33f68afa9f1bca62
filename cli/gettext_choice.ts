/**
 * Which gettext layout a repository chose outside a command line: PO_GETTEXT, else a
 * `.po-tools.toml` from a directory up to the repository's top; and, for the servers, each root's
 * generation (chosen, or detected from a bounded sample of its catalogues), handed to the writer.
 *
 * @module
 */
import {
  detectGeneration,
  DETECTION_SAMPLE,
  type GenerationVotes,
  type GettextGeneration,
  gettextSetting,
  type LayoutVote,
  layoutVote,
  MAX_SETTINGS_BYTES,
  mixedNote,
  parseGeneration,
  useLayoutGenerations,
} from "../lib/po/mod.ts";
import { readRegularFileBytes } from "../lib/regular_read.ts";

/** How many directories up from the working directory `.po-tools.toml` is looked for. */
const SETTINGS_DEPTH = 16;

/**
 * The generation chosen by PO_GETTEXT (`env`), else by the `gettext` key of the first
 * `.po-tools.toml` found from the directory `start` up to the repository's top (the directory
 * holding `.git`), at most {@link SETTINGS_DEPTH} levels; null when neither says.
 */
export async function gettextChoice(
  env: string | undefined,
  start: string,
): Promise<{ generation: GettextGeneration; source: string } | { error: string } | null> {
  if (env !== undefined && env !== "") {
    const generation = parseGeneration(env);
    if (generation === null) {
      return { error: `PO_GETTEXT must be 0.21 or 0.23, not ${JSON.stringify(env.slice(0, 40))}` };
    }
    return { generation, source: "PO_GETTEXT" };
  }
  let dir = start;
  for (let depth = 0; depth < SETTINGS_DEPTH; depth++) {
    const path = `${dir === "/" ? "" : dir}/.po-tools.toml`;
    const here = markers(dir);
    let text: string | null = null;
    if (here.settings) {
      try {
        text = new TextDecoder().decode(await readRegularFileBytes(path, MAX_SETTINGS_BYTES));
      } catch {
        text = null; // not a regular file, or gone
      }
    }
    if (text !== null) {
      const setting = gettextSetting(text);
      if (setting !== null) {
        return typeof setting === "string" ? { generation: setting, source: path } : setting;
      }
    }
    const parent = dir.slice(0, Math.max(1, dir.lastIndexOf("/")));
    if (here.git || parent === dir) break;
    dir = parent;
  }
  return null;
}

/** Most entries of a directory {@link markers} lists; past them, it stats the two names instead. */
const LISTED_ENTRIES = 4096;

/**
 * Whether the directory `dir` holds a `.po-tools.toml` and a `.git` (file or directory), from one
 * listing: a stat of a missing name throws, and a short run (a hook's) pays more for its first
 * exception than for the listing. A directory that cannot be listed, or is too large to, has the
 * two names stat'ed; one that cannot be read holds neither.
 */
function markers(dir: string): { settings: boolean; git: boolean } {
  const found = { settings: false, git: false };
  try {
    let entries = 0;
    for (const e of Deno.readDirSync(dir)) {
      if (e.name === ".po-tools.toml") found.settings = true;
      else if (e.name === ".git") found.git = true;
      if (++entries >= LISTED_ENTRIES) return statMarkers(dir);
    }
    return found;
  } catch {
    return statMarkers(dir);
  }
}

/** {@link markers} by stat. */
function statMarkers(dir: string): { settings: boolean; git: boolean } {
  const exists = (name: string) => {
    try {
      Deno.statSync(`${dir === "/" ? "" : dir}/${name}`);
      return true;
    } catch {
      return false;
    }
  };
  return { settings: exists(".po-tools.toml"), git: exists(".git") };
}

/** Most directory entries one root's detection looks at. */
const DETECTION_ENTRIES = 4000;

/** Up to {@link DETECTION_SAMPLE} `.po` files under `root` (hidden entries and symlinks skipped), breadth first. */
export async function sampleCatalogues(root: string): Promise<Uint8Array[]> {
  const found: Uint8Array[] = [];
  for (const path of samplePaths(root)) {
    try {
      found.push(await readRegularFileBytes(path));
    } catch {
      // unreadable: the service says so when it is asked for
    }
  }
  return found;
}

/** The paths {@link sampleCatalogues} reads. */
function samplePaths(root: string): string[] {
  const found: string[] = [];
  const dirs = [root];
  let seen = 0;
  for (let d = 0; d < dirs.length && found.length < DETECTION_SAMPLE && seen < DETECTION_ENTRIES; d++) {
    let entries: Deno.DirEntry[] = [];
    try {
      // Synchronous: a hook's start-up pays every await of a walk over a few small directories.
      for (const e of Deno.readDirSync(dirs[d]!)) {
        entries.push(e);
        if (++seen >= DETECTION_ENTRIES) break;
      }
    } catch {
      entries = []; // unreadable: nothing from it
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".") || e.isSymlink) continue;
      const path = `${dirs[d]}/${e.name}`;
      if (e.isDirectory) dirs.push(path);
      else if (e.isFile && e.name.endsWith(".po") && found.length < DETECTION_SAMPLE) found.push(path);
    }
  }
  return found;
}

/** One root's generation and why. */
export interface RootGeneration {
  root: string;
  generation: GettextGeneration;
  /** "PO_GETTEXT", the `.po-tools.toml` path, or "detected". */
  source: string;
  /** What detection counted (absent when the generation was chosen). */
  votes?: GenerationVotes;
}

/**
 * Each root's generation (PO_GETTEXT, then its `.po-tools.toml`, then detection), made the one
 * every write of the service uses for a catalogue under that root; returns them, with a note for
 * each mixed root and each bad setting (which falls back to detection).
 */
export async function chooseLayoutGenerations(
  roots: readonly string[],
  env: GettextGeneration | null,
): Promise<{ roots: RootGeneration[]; notes: string[] }> {
  const chosen: RootGeneration[] = [];
  const notes: string[] = [];
  for (const root of roots) {
    if (env !== null) {
      chosen.push({ root, generation: env, source: "PO_GETTEXT" });
      continue;
    }
    const setting = await gettextChoice(undefined, root);
    if (setting !== null && "generation" in setting) {
      chosen.push({ root, generation: setting.generation, source: setting.source });
      continue;
    }
    if (setting !== null) notes.push(`${root}: ${setting.error}`);
    const votes = detectGeneration(await sampleCatalogues(root));
    const generation = votes.generation ?? "0.21";
    if (votes.mixed) notes.push(`${root}: ${mixedNote(votes, generation)}`);
    chosen.push({ root, generation, source: "detected", votes });
  }
  // The longest root holding a path decides (roots may nest).
  const byLength = [...chosen].sort((a, b) => b.root.length - a.root.length);
  useLayoutGenerations((fileName) => {
    if (fileName === undefined) return env ?? "0.21";
    for (const r of byLength) {
      if (fileName === r.root || fileName.startsWith(r.root.endsWith("/") ? r.root : `${r.root}/`)) {
        return r.generation;
      }
    }
    return env ?? "0.21";
  });
  return { roots: chosen, notes };
}

/** The repository's top (the directory holding `.git`) at or above `cwd`, within {@link SETTINGS_DEPTH} levels; null outside one. */
function repositoryTop(cwd: string): string | null {
  let dir = cwd;
  for (let depth = 0; depth < SETTINGS_DEPTH; depth++) {
    if (markers(dir).git) return dir;
    const parent = dir.slice(0, Math.max(1, dir.lastIndexOf("/")));
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/** Most bytes of the votes cache read back (a bound on what a damaged cache can cost). */
const MAX_VOTE_CACHE_BYTES = 256 * 1024;

/** Most files the votes cache keeps (every repository's together): well within its byte bound. */
const MAX_CACHED_VOTES = 1024;

type CachedVote = { size: number; mtime: number; vote: LayoutVote };
const VOTES = new Set<LayoutVote>(["0.21", "0.23", "both", "neither"]);

function readVoteCache(path: string): Map<string, CachedVote> {
  const cache = new Map<string, CachedVote>();
  try {
    const text = new TextDecoder().decode(Deno.readFileSync(path).subarray(0, MAX_VOTE_CACHE_BYTES));
    const json = JSON.parse(text) as unknown;
    if (json === null || typeof json !== "object" || Array.isArray(json)) return cache;
    for (const [file, v] of Object.entries(json as Record<string, unknown>)) {
      const e = v as Partial<CachedVote> | null;
      if (
        e !== null && typeof e === "object" && typeof e.size === "number" && typeof e.mtime === "number" &&
        typeof e.vote === "string" && VOTES.has(e.vote)
      ) cache.set(file, { size: e.size, mtime: e.mtime, vote: e.vote });
    }
  } catch {
    // none yet, unreadable or damaged: every vote is taken again
  }
  return cache;
}

/**
 * The layout votes of the repository's catalogues for a command run in `cwd` (detection judges the
 * tree, so that a hook given only the staged files cannot pass a file by its own layout): a sample
 * of up to {@link DETECTION_SAMPLE} `.po` files from its top, breadth first. Each file's vote is
 * kept in `cacheFile` (when given and writable) by path, size and modification time, so a commit
 * pays only for the sampled files it changed. Null outside a repository: the caller samples the
 * files it was given.
 */
export async function repositoryVotes(cwd: string, cacheFile: string | null): Promise<LayoutVote[] | null> {
  const top = repositoryTop(cwd);
  if (top === null) return null;
  const cache = cacheFile === null ? new Map<string, CachedVote>() : readVoteCache(cacheFile);
  // The sample of the last run while none of its files changed: no walk (a hook's every commit).
  // A catalogue added since joins the sample when one of them changes.
  const mine = [...cache].filter(([path]) => path.startsWith(`${top}/`));
  if (mine.length > 0) {
    const votes: LayoutVote[] = [];
    for (const [path, known] of mine) {
      let stat: Deno.FileInfo | null = null;
      try {
        stat = Deno.statSync(path);
      } catch {
        stat = null; // gone: the sample is taken again
      }
      const mtime = stat?.mtime?.getTime() ?? 0;
      if (stat === null || known.size !== stat.size || known.mtime !== mtime || mtime === 0) break;
      votes.push(known.vote);
    }
    if (votes.length === mine.length) return votes;
  }
  const paths = samplePaths(top);
  const votes: LayoutVote[] = [];
  const kept: Record<string, CachedVote> = {};
  let changed = false;
  for (const path of paths) {
    let stat: Deno.FileInfo;
    try {
      stat = Deno.statSync(path);
    } catch {
      continue; // gone since the walk
    }
    const mtime = stat.mtime?.getTime() ?? 0;
    const known = cache.get(path);
    let vote: LayoutVote;
    if (known !== undefined && known.size === stat.size && known.mtime === mtime && mtime !== 0) {
      vote = known.vote;
    } else {
      try {
        vote = layoutVote(await readRegularFileBytes(path));
      } catch {
        continue; // unreadable: the service says so when it is asked for
      }
      changed = true;
    }
    votes.push(vote);
    kept[path] = { size: stat.size, mtime, vote };
  }
  if (cacheFile !== null && (changed || mine.length !== Object.keys(kept).length)) {
    // Best effort (a read-only checkout keeps none): written whole, then renamed over the old one.
    try {
      const tmp = `${cacheFile}.${Deno.pid}`;
      Deno.mkdirSync(cacheFile.slice(0, cacheFile.lastIndexOf("/")) || "/", { recursive: true });
      // Other repositories' votes stay too, up to MAX_CACHED_VOTES files in all.
      const others = [...cache].filter(([path]) => !path.startsWith(`${top}/`));
      const all = { ...Object.fromEntries(others.slice(-(MAX_CACHED_VOTES - paths.length))), ...kept };
      Deno.writeTextFileSync(tmp, JSON.stringify(all));
      Deno.renameSync(tmp, cacheFile);
    } catch {
      // not kept: the next run votes again
    }
  }
  return votes;
}
