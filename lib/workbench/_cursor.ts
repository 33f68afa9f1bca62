/**
 * Page cursors: opaque to clients, base64url of a small JSON record that says which list it pages
 * (`kind`), for which request (a digest of the request's other fields), the revision of the file it
 * points into, and the position there. A cursor is checked, never trusted: a malformed one or one
 * made for another request is refused (InvalidInputError); one whose file changed is a ConflictError
 * (HTTP 409), never a silently shifted page.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { ConflictError, InvalidInputError } from "../errors.ts";

/** Where a page ends: the next page starts at `index` of the file at `root`/`path` (its revision then). */
export interface CursorPosition {
  /** Index of the configured root. */
  root: number;
  /** Path relative to the root ("" where the list is one file's). */
  path: string;
  /** The file's revision when the page was made ("" for lists of files). */
  revision: string;
  /** The next entry's index in the file (or, for lists of files, 0). */
  index: number;
}

/** Longest cursor accepted (a cursor names one path: PATH_MAX and a few fields). */
const MAX_CURSOR_LENGTH = 8192;

/** A digest of the request's fields that decide what the list holds (not limit, cursor or fields). */
export function requestDigest(kind: string, request: unknown): string {
  return createHash("sha256").update(`${kind}\0${JSON.stringify(request)}`).digest().subarray(0, 9)
    .toString("base64url");
}

/** The cursor of `position` in the list `kind` of the request whose digest is `digest`. */
export function encodeCursor(kind: string, digest: string, position: CursorPosition): string {
  const record = [1, kind, digest, position.root, position.path, position.revision, position.index];
  return Buffer.from(JSON.stringify(record)).toString("base64url");
}

/**
 * The position a cursor names, after checking it belongs to this list and request.
 *
 * @throws {InvalidInputError} not a cursor of this service, or made for another list or request.
 */
export function decodeCursor(cursor: string, kind: string, digest: string): CursorPosition {
  const invalid = (why: string) =>
    new InvalidInputError(
      `Invalid cursor: ${why}. Pass next_cursor exactly as returned, with the same request.`,
    );
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]*$/.test(cursor)) throw invalid("not a cursor");
  let record: unknown;
  try {
    record = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid("not a cursor");
  }
  if (
    !Array.isArray(record) || record.length !== 7 || record[0] !== 1 || typeof record[1] !== "string" ||
    typeof record[2] !== "string" || !Number.isSafeInteger(record[3]) || record[3] < 0 ||
    typeof record[4] !== "string" || typeof record[5] !== "string" || !Number.isSafeInteger(record[6]) ||
    record[6] < 0
  ) {
    throw invalid("not a cursor");
  }
  if (record[1] !== kind) throw invalid(`it pages another list (${record[1]})`);
  if (record[2] !== digest) throw invalid("it was made for a request with other filters");
  return { root: record[3], path: record[4], revision: record[5], index: record[6] };
}

/** The 409 for a cursor into a file that changed since the page was made. */
export function staleCursor(path: string, was: string, now: string | null): ConflictError {
  return new ConflictError(
    `The catalogue ${path} changed since this cursor was made (revision ${was}, now ${now ?? "gone"}): ` +
      "its entries may have moved. Start again without a cursor.",
  );
}
