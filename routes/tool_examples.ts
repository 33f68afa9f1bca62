/**
 * Examples that work: the request examples shown in `/openapi.json`, `/docs` and the MCP tool
 * descriptions name a catalogue that exists inside the configured roots (the sample catalogues of
 * `examples/` when `start` serves them), not a made-up path the service would refuse with 403.
 *
 * @module
 */
import type { AppDeps } from "./deps.ts";

/** What tool examples are built from. */
export interface ToolExamples {
  /** The catalogue roots (PO_ROOTS), as configured; empty when the app serves no catalogues. */
  roots: readonly string[];
  /** An existing catalogue inside a root, or a path inside the first root when none was found. */
  catalogue: string;
  /** A msgid of that catalogue (its first one written on one line), or a plausible one. */
  msgid: string;
  /**
   * That entry's translation as the catalogue has it, so that the write example, sent as it is,
   * leaves the catalogue's translations as they were.
   */
  msgstr: string;
}

/** Directory entries looked at, in all, while searching the roots for a catalogue. */
const MAX_ENTRIES_SEEN = 500;

/** Directory levels below a root searched for a catalogue. */
const MAX_DEPTH = 3;

/** Bytes of the found catalogue read to find its first msgid. */
const MAX_HEAD_BYTES = 16 * 1024;

const FALLBACK_ENTRY = { msgid: "Hello", msgstr: "Bonjour" };

/** The first `.po` file found breadth-first under `roots`, within bounded work, or null. */
function findCatalogue(roots: readonly string[]): string | null {
  let seen = 0;
  let level = roots.map((root) => root.replace(/\/+$/, "") || "/");
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let names: { name: string; isFile: boolean; isDirectory: boolean }[];
      try {
        names = [];
        for (const entry of Deno.readDirSync(dir)) {
          if (++seen > MAX_ENTRIES_SEEN) break;
          names.push(entry);
        }
      } catch {
        continue; // unreadable, missing, or not allowed: the next root may do
      }
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of names) {
        if (entry.isFile && entry.name.endsWith(".po")) return `${dir === "/" ? "" : dir}/${entry.name}`;
      }
      for (const entry of names) {
        if (entry.isDirectory && !entry.name.startsWith(".")) {
          next.push(`${dir === "/" ? "" : dir}/${entry.name}`);
        }
      }
      if (seen > MAX_ENTRIES_SEEN) return null;
    }
    level = next;
  }
  return null;
}

/** The first entry written `msgid "…"` then `msgstr "…"` on one line each in the first bytes of `path`. */
function firstEntry(path: string): { msgid: string; msgstr: string } | null {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const buffer = new Uint8Array(MAX_HEAD_BYTES);
    let filled = 0;
    while (filled < buffer.length) {
      const n = file.readSync(buffer.subarray(filled));
      if (n === null || n === 0) break;
      filled += n;
    }
    const text = new TextDecoder().decode(buffer.subarray(0, filled));
    // An entry without context (no msgctxt line right before), so that the example finds it.
    const match =
      /(?:^|\n)(?!msgctxt)[^\n]*\nmsgid "((?:[^"\\\n]|\\.){1,80})"\nmsgstr "((?:[^"\\\n]|\\.){0,200})"\n/
        .exec(text);
    if (!match) return null;
    // PO's escapes that JSON reads the same way; any other (\a, octal) makes this throw: no example.
    const msgid = JSON.parse(`"${match[1]}"`);
    const msgstr = JSON.parse(`"${match[2]}"`);
    return typeof msgid === "string" && msgid.trim() !== "" && typeof msgstr === "string"
      ? { msgid, msgstr }
      : null;
  } catch {
    return null;
  } finally {
    file?.close();
  }
}

/** Examples made from a set of roots (a bounded look at the file system, once per app). */
export function examplesFor(roots: readonly string[]): ToolExamples {
  const found = findCatalogue(roots);
  if (found !== null) return { roots, catalogue: found, ...(firstEntry(found) ?? FALLBACK_ENTRY) };
  const first = roots[0]?.replace(/\/+$/, "") ?? "/path/inside/PO_ROOTS";
  return { roots, catalogue: `${first}/fr.po`, ...FALLBACK_ENTRY };
}

/** Examples that name no root and no catalogue data: `/path/inside/PO_ROOTS/fr.po`. */
export const PLACEHOLDER_EXAMPLES: ToolExamples = examplesFor([]);

const EXAMPLES = new WeakMap<AppDeps, ToolExamples>();

/** The examples of an app's deps, made once per deps object. */
export function toolExamples(deps: AppDeps): ToolExamples {
  let examples = EXAMPLES.get(deps);
  if (examples === undefined) {
    examples = examplesFor(deps.catalogues?.roots ?? []);
    EXAMPLES.set(deps, examples);
  }
  return examples;
}
