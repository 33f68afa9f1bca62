/**
 * A catalogue file's revision: a strong validator over its exact bytes (like an HTTP strong ETag),
 * so a client can say "change this only if the file is still the one I read".
 *
 * The token is the first 128 bits of the bytes' SHA-256 in base64url (22 characters): equal bytes
 * always give the same token, and any change of a byte gives another one.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Bytes } from "../byte_runs.ts";

/** Revisions already computed, by the identity of the bytes they were computed from. */
const known = new WeakMap<object, string>();

/**
 * The revision of a file whose contents are `bytes`.
 *
 * @example
 * ```ts
 * revisionOf(new TextEncoder().encode('msgid ""\nmsgstr ""\n')); // 22 base64url characters
 * ```
 */
export function revisionOf(bytes: Bytes): string {
  const seen = known.get(bytes);
  if (seen !== undefined) return seen;
  const hash = createHash("sha256");
  if (bytes instanceof Uint8Array) hash.update(bytes);
  else for (const part of bytes) hash.update(part);
  const revision = hash.digest().subarray(0, 16).toString("base64url");
  known.set(bytes, revision);
  return revision;
}

/** True for a string shaped like a revision (a client's `if_revision`, say): 22 base64url characters. */
export function isRevision(text: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(text);
}
