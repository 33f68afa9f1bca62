/**
 * `charset=CHARSET` outside a `.pot`: msgcat refuses such a file, msgmerge and msgfmt read it as
 * ASCII after a warning. The readers that follow msgmerge ask `parsePo` for `placeholderCharset`
 * and show this warning when the catalogue comes back marked so.
 *
 * @module
 */

/**
 * msgmerge 0.21's warning (both lines, as it prints them on stderr) for `path` read with
 * `charset=CHARSET`.
 *
 * @example
 * ```ts
 * placeholderCharsetWarning("fr.po"); // 'fr.po: warning: Charset "CHARSET" is not a portable encoding name.\n ...'
 * ```
 */
export function placeholderCharsetWarning(path: string): string {
  return `${path}: warning: Charset "CHARSET" is not a portable encoding name.\n` +
    "               Message conversion to user's charset might not work.";
}
