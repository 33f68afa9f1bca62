/**
 * Domain errors. `lib/` throws these; `routes/errors.ts` is the one place that maps them to HTTP
 * statuses. The messages are written for the caller: they say what was attempted, the value, and why.
 *
 * @module
 */

/** Base class of every error that `lib/` throws on purpose. */
export class DomainError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The caller's role does not allow what was asked (a tool needing a stronger role). */
export class RoleRefusedError extends DomainError {}

/** A requested thing (file, entry) does not exist. */
export class NotFoundError extends DomainError {}

/** A path resolves outside every configured catalogue root (symlinks included). */
export class OutsideRootsError extends DomainError {}

/** A path or argument is malformed: relative, wrong extension, NUL byte, a directory, … */
export class InvalidInputError extends DomainError {}

/** Input larger than a configured limit. */
export class TooLargeError extends DomainError {}

/** An answer that would be larger than the configured limit; the message says how to ask for less. */
export class AnswerTooLargeError extends DomainError {}

/** Shared capacity (memory for large work) is in use by other requests right now: try again later. */
export class BusyError extends DomainError {}

/**
 * A limit on use (the GPSS download quota of the current window) would be exceeded: nothing was
 * sent. `retryAfterS` is how long until the limit resets.
 */
export class QuotaExceededError extends DomainError {
  readonly retryAfterS: number;
  constructor(message: string, retryAfterS: number) {
    super(message);
    this.retryAfterS = retryAfterS;
  }
}

/** A shared service the work needs (the PostgreSQL of DATABASE_URL) cannot be reached now: try again. */
export class UnavailableError extends DomainError {}

/** The work took longer than the time allowed to one request, and was abandoned. */
export class TimeoutError extends DomainError {}

/**
 * A PO file that cannot be read (the same inputs `msgcat` rejects).
 *
 * @example
 * ```ts
 * throw new PoSyntaxError("unterminated string", 12, 8);
 * // message: "unterminated string at line 12, column 8"
 * ```
 */
export class PoSyntaxError extends DomainError {
  readonly reason: string;
  readonly line: number;
  readonly column: number;
  constructor(reason: string, line: number, column: number) {
    super(`${reason} at line ${line}, column ${column}`);
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}

/** A catalogue that can be read but not safely written (e.g. a non-UTF-8 charset). */
export class UnwritableCatalogError extends DomainError {}

/**
 * The request was made against a state of a file that is no longer the current one, or does not
 * fit the catalogue as it is now, and nothing was done: a page cursor into a catalogue that changed
 * since; an entry a write must update is missing (or one it must create exists), or the file or a
 * translation changed since the caller read it. `details` (optional) holds what the caller needs
 * to retry (the current revision, the current translations, the closest existing msgids),
 * answered beside the message.
 *
 * @example
 * ```ts
 * throw new ConflictError("The catalogue changed since revision r1", { revision: "r2" });
 * ```
 */
export class ConflictError extends DomainError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(message);
    this.details = details;
  }
}
