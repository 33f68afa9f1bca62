/**
 * A shared allowance of bytes: what large file loads and large answers may hold at once, all
 * requests together. Each holder takes its size before it allocates and gives it back when done;
 * one that does not fit is refused at once (the caller tells its client to come back later), so a
 * flood of large requests costs memory up to the allowance and no more, and small ones, which
 * never take any, keep being served.
 *
 * @module
 */
import { BusyError } from "./errors.ts";

/** Sizes below this are not counted: small work is never held back. */
export const SMALL_BYTES = 1024 * 1024;

/**
 * @example
 * ```ts
 * const budget = new ByteBudget(256 * 1024 * 1024);
 * const release = budget.take(file.size, "catalogue loads");
 * try { ... } finally { release(); }
 * ```
 */
export class ByteBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Bytes held now. */
  get used(): number {
    return this.#used;
  }

  /**
   * Takes `bytes` (nothing under {@link SMALL_BYTES}), or throws.
   *
   * @returns the function that gives them back (calling it twice gives back once).
   * @throws {BusyError} when they do not fit now; `what` names the work in its message.
   */
  take(bytes: number, what: string): () => void {
    if (bytes < SMALL_BYTES) return () => {};
    // A single holder larger than the whole allowance is let through alone, not refused forever.
    if (this.#used > 0 && this.#used + bytes > this.limit) {
      throw new BusyError(
        `The server is busy with other large ${what} (${this.#used} of ${this.limit} bytes in use); ` +
          "try again in a few seconds",
      );
    }
    this.#used += bytes;
    let held = true;
    return () => {
      if (held) this.#used -= bytes;
      held = false;
    };
  }
}
