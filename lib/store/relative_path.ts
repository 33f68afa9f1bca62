/**
 * A catalogue path as a user gives it: absolute, or relative to a catalogue root (as
 * `list_catalogues` answers it: `{root, path}`). A relative path is resolved here, before the path
 * policy checks the absolute one it stands for: against the single root, or against the one root
 * that holds it; when it is ambiguous (in several roots) or names nothing and several roots could
 * take it, the error names the absolute paths it could have meant.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";

/** What a relative path is resolved for. */
export interface RelativePathOptions {
  /**
   * What the path names: a "file" (read or written: a missing one may be created in the one root
   * whose directory exists) or a "directory" (walked).
   */
  kind?: "file" | "directory";
}

function lexists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function joinRoot(root: string, rel: string): string {
  const base = root.replace(/\/+$/, "");
  return rel === "" ? (base === "" ? "/" : base) : `${base}/${rel}`;
}

/**
 * The absolute path `path` stands for: itself when absolute (or when there are no roots: the
 * policy then refuses it as it always did); else the path under a root, `..` and `.` folded
 * (a `..` that leaves the root is refused).
 *
 * @throws {InvalidInputError} the relative path leaves the root, exists under several roots, or
 *   exists under none while several roots could hold it (the message names the candidates).
 * @example
 * ```ts
 * absoluteCataloguePath(["/srv/po"], "fr/library/os.po"); // "/srv/po/fr/library/os.po"
 * ```
 */
export function absoluteCataloguePath(
  roots: readonly string[],
  path: string,
  options: RelativePathOptions = {},
): string {
  if (typeof path !== "string" || path === "" || path.startsWith("/") || roots.length === 0) return path;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) {
        throw new InvalidInputError(`Invalid file path: it leaves the catalogue root: ${path}`);
      }
      parts.pop();
    } else parts.push(part);
  }
  const rel = parts.join("/");
  const candidates = roots.map((root) => joinRoot(root, rel));
  if (candidates.length === 1) return candidates[0]!;
  const existing = candidates.filter(lexists);
  if (existing.length === 1) return existing[0]!;
  if (existing.length > 1) {
    throw new InvalidInputError(
      `Invalid file path: the relative path ${JSON.stringify(path)} is in several catalogue roots; ` +
        `give the absolute path of the one meant: ${existing.map((p) => JSON.stringify(p)).join(" or ")}`,
    );
  }
  // Nothing there yet (a file to create): the root whose directory would hold it, if only one has it.
  if ((options.kind ?? "file") === "file" && parts.length > 0) {
    const dirs = candidates.filter((c) => lexists(c.slice(0, c.lastIndexOf("/")) || "/"));
    if (dirs.length === 1) return dirs[0]!;
  }
  throw new InvalidInputError(
    `Invalid file path: the relative path ${JSON.stringify(path)} names nothing in the catalogue roots; ` +
      `give an absolute path, e.g. ${candidates.map((p) => JSON.stringify(p)).join(" or ")}`,
  );
}
