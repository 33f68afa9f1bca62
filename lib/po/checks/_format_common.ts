/**
 * What the format checks share: the arguments a format string takes, as gettext's `format_parse`
 * describes them, and the wording of their problems.
 *
 * @module
 */

/** One argument a format string consumes: its type class and the directive that takes it. */
export interface FormatArgument {
  /** gettext's type class, e.g. "string", "integer", "float"; "" when any type fits. */
  type: string;
  /** The directive as written, e.g. `%(name)s`, `{0}`, `%2$d`. */
  text: string;
}

/** The arguments of a valid format string. */
export interface FormatSpec {
  /** Named arguments (python `%(name)s`, python-brace `{name}` and `{0}`), by name. */
  named: Map<string, FormatArgument>;
  /** Positional arguments in argument order (python `%s`, C `%d` / `%2$d`); holes are not allowed. */
  positional: FormatArgument[];
}

/** A format string that its language rejects: the reason, in gettext's words. */
export class InvalidFormat {
  constructor(readonly reason: string) {}
}

/** A new, empty {@link FormatSpec}. */
export function emptySpec(): FormatSpec {
  return { named: new Map(), positional: [] };
}

/** `msgid`/`msgid_plural` and `msgstr`/`msgstr[N]`: the names msgfmt uses, for messages. */
export interface FieldNames {
  original: string;
  translation: string;
}

/** Lists directives for a message, at most five. */
export function listDirectives(args: readonly FormatArgument[]): string {
  const shown = args.slice(0, 5).map((a) => a.text);
  return args.length > 5 ? `${shown.join(" ")} …` : shown.join(" ");
}
