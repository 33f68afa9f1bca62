/**
 * Text from a file or a catalogue made safe to print: a file name or a msgstr may hold a newline
 * (which forges a line of a linter's output, or a GitHub Actions `::error` command), ESC (terminal
 * escape sequences), BEL or CR (which overwrites what a line said). Every command prints names and
 * catalogue text through {@link terminalText}, and GitHub annotations through
 * {@link githubAnnotation}.
 *
 * Pure functions: no I/O.
 *
 * @module
 */

/**
 * What {@link terminalText} escapes: the C0 controls (U+0000–U+001F, TAB, LF, CR, ESC and BEL
 * among them), DEL, the C1 controls (U+0080–U+009F, CSI U+009B among them), and the line and
 * paragraph separators U+2028 and U+2029 (which some terminals and viewers break lines at).
 */
// deno-lint-ignore no-control-regex -- the control characters are what it looks for
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;
// deno-lint-ignore no-control-regex -- the control characters are what it looks for
const UNSAFE_ALL = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/g;

/** One unsafe character as an escape that reads like a C or JSON string's. */
function escapeOne(c: string): string {
  switch (c) {
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
  }
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character, DEL and U+2028/U+2029 written as an escape (`\n`, `\r`,
 * `\t`, `\x1b`, `\x07`, `\x9b`, `\u2028`…), so it prints on one line and sends the terminal nothing
 * but visible characters. Other characters, the backslash included, are left as they are: text
 * without a control character comes back unchanged (the same string), so text already quoted
 * (`JSON.stringify`) is not escaped twice. Linear in the text.
 *
 * @example
 * ```ts
 * terminalText("fr.po\n::error file=x::forged"); // "fr.po\\n::error file=x::forged"
 * terminalText("\x1b[2Jcleared"); // "\\x1b[2Jcleared"
 * terminalText("Entrée"); // "Entrée" (unchanged)
 * ```
 */
export function terminalText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, escapeOne) : text;
}

/**
 * `text`'s lines, each made safe by {@link terminalText}, joined by "\n" again: for multi-line
 * output whose line breaks are its own (a diff), whose lines' contents come from a file.
 *
 * @example
 * ```ts
 * terminalLines("-a\x1b[31m\n+b\n"); // "-a\\x1b[31m\n+b\n"
 * ```
 */
export function terminalLines(text: string): string {
  return UNSAFE.test(text) ? text.split("\n").map(terminalText).join("\n") : text;
}

/** The kinds of GitHub Actions annotation. */
export type AnnotationLevel = "error" | "warning" | "notice";

/** Where an annotation points, and its title. */
export interface AnnotationProperties {
  file?: string;
  line?: number;
  col?: number;
  endLine?: number;
  endColumn?: number;
  title?: string;
}

/**
 * A GitHub Actions workflow command's data, escaped as GitHub's own toolkit escapes it
 * (`@actions/core`'s `escapeData`: `%` → `%25`, CR → `%0D`, LF → `%0A`), after the other controls
 * were made visible ({@link terminalText}, which turns CR and LF into `\r`, `\n` as well: a
 * message stays one line).
 */
function annotationData(text: string): string {
  return terminalText(text).replace(/%/g, "%25");
}

/**
 * A property value, escaped as `@actions/core`'s `escapeProperty` does (`%`, CR, LF, `:` and `,`
 * percent-encoded), so GitHub reads back the exact value (a file name with a newline still names
 * that file); the other controls are made visible first.
 */
function annotationProperty(text: string): string {
  // deno-lint-ignore no-control-regex -- the control characters are what it looks for
  const visible = text.replace(/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]/g, escapeOne);
  return visible.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/:/g, "%3A")
    .replace(/,/g, "%2C");
}

/**
 * One GitHub Actions annotation line (a workflow command, without its line break):
 * `::error file=F,line=L,title=T::MESSAGE`. Whatever the file name and the message hold, the line
 * is one command: nothing in them can end it or start another.
 *
 * @example
 * ```ts
 * githubAnnotation("error", { file: "a,b.po", line: 3, title: "format" }, "50% done\nthen");
 * // "::error file=a%2Cb.po,line=3,title=format::50%25 done\\nthen"
 * ```
 */
export function githubAnnotation(
  level: AnnotationLevel,
  properties: AnnotationProperties,
  message: string,
): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${annotationProperty(String(v))}`)
    .join(",");
  return `::${level}${props === "" ? "" : ` ${props}`}::${annotationData(message)}`;
}
