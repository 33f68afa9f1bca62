/**
 * The catalogue path a tool was given, made absolute: a path relative to a catalogue root (as
 * list_catalogues answers it) is taken by every tool that takes a catalogue (see
 * `lib/store/relative_path.ts`).
 *
 * @module
 */
import { z } from "zod";
import { absoluteCataloguePath } from "../lib/store/mod.ts";

/**
 * What every tool's `file_path` means. Said once in the MCP server's instructions, so MCP's tool list
 * leaves it out of each schema (routes/mcp.ts); OpenAPI keeps it on every field.
 */
export const CATALOGUE_PATH_DESCRIPTION = "A catalogue (.po/.pot): absolute, or relative to a root.";

/** A request's `file_path`: a catalogue. */
export const FilePath = z.string().max(4096).meta({ description: CATALOGUE_PATH_DESCRIPTION });

/** `path` (absolute, or relative to a root of `store`) as an absolute path. */
export function cataloguePath(
  store: { readonly roots: readonly string[] },
  path: string,
  kind: "file" | "directory" = "file",
): string {
  return absoluteCataloguePath(store.roots, path, { kind });
}

/** As {@link cataloguePath}, for an optional path. */
export function optionalCataloguePath<T extends string | null | undefined>(
  store: { readonly roots: readonly string[] },
  path: T,
  kind: "file" | "directory" = "file",
): T | string {
  return typeof path === "string" ? cataloguePath(store, path, kind) : path;
}
