/**
 * What a write may put in a comment, a reference or a flag so that gettext reads the file back as
 * written. Strings (msgid, msgstr, …) are escaped by the writer and always read back; comments,
 * references and flags are written as they are, and some values would be read back differently:
 *
 * - a comment or reference line ending with a backslash: gettext removes every backslash-newline
 *   before reading, so the next line of the file is glued to it (a `#, fuzzy` or a `msgctxt`
 *   vanishes, or the file no longer parses);
 * - a NUL: gettext cuts a comment or reference line there;
 * - a space, tab or newline in a reference: it separates references; and a reference after
 *   another may be read as the other's line number (`a :12`, `a: 12`);
 * - a comma or white space in a flag: it separates flags; a flag gettext does not know is dropped;
 * - a translator comment line `File: NAME, line: N`: gettext reads it as a reference (Solaris).
 *
 * Each function returns why a value is refused, or null. The tests prove every rule by a round trip
 * through the real msgcat (tests/security_po_test.ts).
 *
 * @module
 */
import { interpretFlags } from "../read/_flags.ts";
import { addReference, parseReferences, referenceLines, solarisReference } from "../read/_references.ts";
import type { PoReference } from "../types.ts";

const CONTINUATION =
  "which gettext reads as a line continuation (the next line of the file would be joined to it)";

/**
 * Why one line of a comment (`#` translator comment when `translator`, else `#.` extracted) would
 * not read back as written, or null. `line` holds no newline (comments are split at them).
 */
export function commentLineProblem(line: string, translator: boolean): string | null {
  if (line.endsWith("\\")) return `it ends with a backslash, ${CONTINUATION}`;
  if (translator && line !== "" && solarisReference(` ${line}`) !== null) {
    return 'it has the form "File: NAME, line: N", which gettext reads as a source reference (#:), not a comment';
  }
  return null;
}

/** Space, tab and newline: what separates references on a `#:` line. */
const REFERENCE_SEPARATOR = /[ \t\n]/;

/** The reason of a reference with a separator in it (the wording the API has always used). */
export const REFERENCE_WHITE_SPACE = "a PO reference cannot be empty or contain white space";

/**
 * Why an occurrence as the API gives it (`file:line` or `file`) would not be read back as one
 * reference, or null. {@link REFERENCE_WHITE_SPACE} for an empty one or one with a separator.
 */
export function occurrenceProblem(raw: string): string | null {
  if (raw === "" || REFERENCE_SEPARATOR.test(raw)) return REFERENCE_WHITE_SPACE;
  if (raw.includes("\0")) return "it contains a NUL character, where gettext cuts the line";
  return null;
}

/** Why a reference, once parsed from an occurrence, would not be printed and read back as it is. */
export function referenceProblem(r: PoReference): string | null {
  if (r.line === null && r.file.endsWith("\\")) return `it ends with a backslash, ${CONTINUATION}`;
  if (r.line !== null && !Number.isSafeInteger(r.line)) {
    return "its line number is too large (at most 9007199254740991)";
  }
  return null;
}

/**
 * The index in `refs` of the first reference that reading the entry's printed `#:` lines back
 * would not give as it is (once `./` prefixes are dropped and exact duplicates merged, as gettext
 * prints them), or -1 when every one reads back. Catches references read together: `a:b` then
 * `:12` print as `a:b :12`, which gettext reads as `a:b` line 12.
 */
export function unreadableReference(refs: readonly PoReference[]): number {
  // What the lines should read back as, and which reference of `refs` each one came from.
  const expected: PoReference[] = [];
  const origin: number[] = [];
  for (let i = 0; i < refs.length; i++) {
    let file = refs[i]!.file;
    while (file.startsWith("./")) file = file.slice(2);
    const before = expected.length;
    addReference(expected, file, refs[i]!.line);
    if (expected.length > before) origin.push(i);
  }
  const read: PoReference[] = [];
  for (const line of referenceLines(refs, false).split("\n")) {
    if (line !== "") parseReferences(line, read, 2);
  }
  const n = Math.min(read.length, expected.length);
  for (let k = 0; k < n; k++) {
    if (read[k]!.file !== expected[k]!.file || read[k]!.line !== expected[k]!.line) return origin[k]!; // an origin per expected reference
  }
  return read.length === expected.length ? -1 : origin[n] ?? origin[origin.length - 1] ?? -1;
}

/** `\n`, space, `\t`, `\r`, `\f`, `\v` and `,`: what separates flags on a `#,` line. */
const FLAG_SEPARATOR = /[\n \t\r\f\v,]/;
const RANGE = /^range: ([0-9]+)\.\.([0-9]+)$/;
/** gettext reads range bounds as ints. */
const INT_MAX = 2147483647;

/**
 * Why a flag as the API gives it would not be read back, or null. Flags gettext knows are
 * accepted even where it normalises them (order, `possible-X-format` printed as `X-format`, `fuzzy`
 * dropped from an entry without translation, `range` from an obsolete one): the answer of the write
 * shows them as the file does.
 */
export function flagProblem(flag: string): string | null {
  const range = RANGE.exec(flag);
  if (range !== null) {
    const valid = Number(range[1]) <= INT_MAX && Number(range[2]) <= INT_MAX &&
      interpretFlags([flag]).range !== null;
    return valid ? null : `it is not a valid range (range: MIN..MAX with MIN <= MAX <= ${INT_MAX})`;
  }
  if (flag === "") return "it is empty";
  if (FLAG_SEPARATOR.test(flag)) {
    return "it contains a comma or white space, which separate flags on a #, line (give each flag on its own)";
  }
  const state = interpretFlags([flag]);
  if (!state.fuzzy && state.formats.length === 0 && state.wrap === null) {
    return "gettext does not keep it: the flags are fuzzy, X-format, no-X-format, possible-X-format, " +
      "impossible-X-format (X a language gettext knows), range: MIN..MAX, wrap and no-wrap";
  }
  return null;
}
