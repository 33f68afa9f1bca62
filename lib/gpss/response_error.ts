/**
 * Why a GPSS body could not be read, shared by the JSON and XML readers and the envelope parser.
 *
 * @module
 */
import { DomainError } from "../errors.ts";

/**
 * Why a body could not be read:
 * `empty` (no bytes), `truncated` (ends inside a value: typical of a dropped keep-alive connection,
 * worth one retry), `malformed` (broken elsewhere), `unrecognized` (not GPSS JSON/XML at all, e.g.
 * the `usage:` stub or an HTML error page).
 */
export type GpssResponseErrorKind = "empty" | "truncated" | "malformed" | "unrecognized";

/** A GPSS body that cannot be read; `kind` says why, `offset` where (for truncated/malformed). */
export class GpssResponseError extends DomainError {
  readonly kind: GpssResponseErrorKind;
  readonly offset: number | null;
  constructor(kind: GpssResponseErrorKind, message: string, offset: number | null = null) {
    super(offset === null ? message : `${message} at offset ${offset}`);
    this.kind = kind;
    this.offset = offset;
  }
}

/**
 * Most XML elements, attributes and text nodes accepted in one body. A record has about 100
 * (more with long party or classification lists) and a search returns at most 500 records; the cap
 * keeps a hostile body of tiny elements (`<a/>` is 4 bytes, its object ~40 times more, and a
 * million of them take seconds) from costing far more than a real answer.
 */
export const MAX_XML_NODES = 250_000;

/** A name from the body, shortened for an error message. */
export function clip(name: string): string {
  return name.length <= 40 ? name : `${name.slice(0, 40)}…`;
}
