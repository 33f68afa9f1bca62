/**
 * The gettext generations whose msgcat the writer reproduces, and how a user names them. No
 * dependencies: the configuration reads it without loading the engine.
 *
 * @module
 */

/**
 * The gettext whose msgcat a layout reproduces: 0.21 (Debian 12, libunistring 1.0) or 0.23.1 (Debian
 * 13, libunistring 1.3, which breaks lines by Unicode 16's rules: no break after the `.` of `e.g.` or
 * `os.path`, nor after the `:` of `:class:`).
 */
export type GettextGeneration = "0.21" | "0.23";

/** The generations, oldest first. */
export const GETTEXT_GENERATIONS: readonly GettextGeneration[] = ["0.21", "0.23"];

/**
 * A generation named by a user ("0.21", "0.23", also "0.23.1", "0.22", "0.25"…), or null when unknown.
 *
 * @example
 * ```ts
 * parseGeneration("0.22.5"); // "0.23"
 * ```
 */
export function parseGeneration(text: string): GettextGeneration | null {
  const m = /^0\.(\d{1,3})(?:\.\d{1,3})?$/.exec(text.trim());
  if (m === null) return null;
  const minor = Number(m[1]);
  // 0.21 is libunistring 1.0's layout; 0.22 and later ship with (and Debian 13, Homebrew build
  // against) a libunistring whose line breaking 0.23.1's Unicode 16 rules stand for.
  if (minor === 21) return "0.21";
  if (minor >= 22) return "0.23";
  return null;
}
