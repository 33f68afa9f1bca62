/**
 * `next_to_translate`: catalogues ranked by what a team should translate next. A repository may
 * hold a priority list, `.po-priority.txt` at a catalogue root: one pattern per line, the first line
 * the most important; `#` starts a comment line, blank lines are skipped. A line with `*` or `?` is
 * a path glob (as list_catalogues' `glob`: `**` crosses directories); any other line is a prefix of
 * the path relative to the root (`tutorial/`, `library/functions`). A catalogue's priority is the
 * number of the first line it matches (0 = most important), null when none.
 *
 * Ranking: catalogues with something left (untranslated or fuzzy entries) only; those with a
 * priority first, by priority; then by words left (untranslated + fuzzy msgid words), most first;
 * then by path. Templates and unreadable files are left out.
 *
 * @module
 */
import type { CatalogueFile } from "../workbench/mod.ts";
import { globMatcher } from "../workbench/mod.ts";
import { OPEN_TIME_LIMIT_MS, openInTime } from "../regular_read.ts";

/** The priority file's name, at each catalogue root. */
export const PRIORITY_FILE = ".po-priority.txt";
/** Largest priority file read, and most patterns taken from it. */
export const MAX_PRIORITY_BYTES = 64 * 1024;
export const MAX_PRIORITY_LINES = 1000;
const MAX_PATTERN_CHARS = 512;

/** One ranked catalogue. */
export interface NextCatalogue {
  file_path: string;
  root: string;
  path: string;
  words_left: number;
  entries_left: number;
  /** Line of the priority list it matched (0 first), or null. */
  priority: number | null;
}

/** A parsed priority list: a matcher per line, in order. */
export type PriorityList = ((path: string) => boolean)[];

/**
 * Parses a priority file's text (lines past {@link MAX_PRIORITY_LINES}, and patterns longer than
 * 512 characters or that are not valid globs, are ignored: a bad line never stops the ranking).
 */
export function parsePriorityList(text: string): PriorityList {
  const list: PriorityList = [];
  for (const raw of text.split(/\r?\n/)) {
    if (list.length >= MAX_PRIORITY_LINES) break;
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.length > MAX_PATTERN_CHARS) {
      if (line !== "" && !line.startsWith("#")) list.push(() => false); // keeps the numbering
      continue;
    }
    const pattern = line.replace(/^\.\//, "");
    if (/[*?]/.test(pattern)) {
      try {
        list.push(globMatcher(pattern));
      } catch {
        list.push(() => false);
      }
    } else {
      list.push((path) => path.startsWith(pattern));
    }
  }
  return list;
}

/** The first line of `list` that `path` matches, or null. */
export function priorityOf(list: PriorityList | undefined, path: string): number | null {
  if (list === undefined) return null;
  const at = list.findIndex((match) => match(path));
  return at < 0 ? null : at;
}

/** The `limit` catalogues to translate next (see the module doc), and how many have work left. */
export function rankCatalogues(
  files: readonly CatalogueFile[],
  priorities: ReadonlyMap<string, PriorityList>,
  limit: number,
): { catalogues: NextCatalogue[]; total: number } {
  const ranked: NextCatalogue[] = [];
  for (const file of files) {
    const { summary } = file;
    if (summary.kind !== "catalogue" || summary.counts === null) continue;
    const { entries, words } = summary.counts;
    const entriesLeft = entries.untranslated + entries.fuzzy;
    if (entriesLeft === 0) continue;
    ranked.push({
      file_path: file.filePath,
      root: summary.root,
      path: summary.path,
      words_left: words.untranslated + words.fuzzy,
      entries_left: entriesLeft,
      priority: priorityOf(priorities.get(summary.root), summary.path),
    });
  }
  ranked.sort((a, b) => {
    if (a.priority !== b.priority) {
      if (a.priority === null) return 1;
      if (b.priority === null) return -1;
      return a.priority - b.priority;
    }
    if (a.words_left !== b.words_left) return b.words_left - a.words_left;
    return a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0;
  });
  return { catalogues: ranked.slice(0, limit), total: ranked.length };
}

/**
 * Reads the priority list at `root` (null when there is none). A symbolic link or anything but a
 * regular file is ignored, as is a file over {@link MAX_PRIORITY_BYTES}.
 */
export async function readPriorityList(root: string): Promise<PriorityList | null> {
  const path = `${root.replace(/\/+$/, "")}/${PRIORITY_FILE}`;
  let file: Deno.FsFile | null = null;
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile || info.size > MAX_PRIORITY_BYTES) return null;
    // Timed: a FIFO swapped in after the lstat would block a plain open.
    file = await openInTime(path, PRIORITY_FILE, OPEN_TIME_LIMIT_MS);
    const opened = await file.stat();
    if (!opened.isFile || opened.size > MAX_PRIORITY_BYTES) return null;
    const buffer = new Uint8Array(MAX_PRIORITY_BYTES);
    let length = 0;
    while (length < buffer.length) {
      const n = await file.read(buffer.subarray(length));
      if (n === null) break;
      length += n;
    }
    return parsePriorityList(new TextDecoder().decode(buffer.subarray(0, length)));
  } catch {
    return null;
  } finally {
    file?.close();
  }
}
