/**
 * The catalogue path a tool was given, made absolute: a path relative to a catalogue root (as
 * list_catalogues answers it) is taken by every tool that takes a catalogue (see
 * `lib/store/relative_path.ts`).
 *
 * @module
 */
import { absoluteCataloguePath } from "../lib/store/mod.ts";

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
