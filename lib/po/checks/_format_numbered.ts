/**
 * What gettext's format checks of numbered-argument languages share (format-tcl.c, format-php.c,
 * format-javascript.c, format-kde.c, …): a format string's arguments by number, each with a type
 * class; duplicates merged (two types for one number make the string invalid); and `format_check`,
 * which compares msgid's arguments with a msgstr's in number order. Each message names the first
 * difference, as msgfmt -c reports only the first.
 *
 * @module
 */
import { type FieldNames, type FormatSpec, InvalidFormat } from "./_format_common.ts";

/** One argument: its number (1-based), gettext's type class ("" when it has none), its directive. */
export interface NumberedArg {
  number: number;
  type: string;
  text: string;
}

/** A valid format string of a numbered-argument language: its arguments sorted, one per number. */
export interface NumberedSpec extends FormatSpec {
  numbered: NumberedArg[];
}

/**
 * One format language the checks know beyond C and Python: its flag (`tcl` for `tcl-format`), a
 * name for messages, its parser (gettext's `format_parse`: the spec or why the string is invalid)
 * and comparison (`format_check`: a message, or null when the msgstr fits).
 */
export interface FormatLanguage {
  flag: string;
  pretty: string;
  parse: (s: string) => FormatSpec | InvalidFormat;
  compare: (a: FormatSpec, b: FormatSpec, strict: boolean, names: FieldNames) => string | null;
  hint: string;
}

/** The spec whose arguments are `numbered` (sorted, one per number). */
export function specOf(numbered: NumberedArg[]): NumberedSpec {
  return { named: new Map(), positional: [], numbered };
}

/**
 * The spec of `args` (in any order): sorted by number, duplicates merged as format_parse does.
 * `merge` gives the type of two uses of one number, or null when they are incompatible (default:
 * the types must be equal).
 */
export function numberedSpec(
  args: NumberedArg[],
  merge: (first: string, next: string) => string | null = (x, y) => x === y ? x : null,
): NumberedSpec | InvalidFormat {
  const sorted = [...args].sort((a, b) => a.number - b.number);
  const out: NumberedArg[] = [];
  for (const arg of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.number === arg.number) {
      const type = merge(last.type, arg.type);
      if (type === null) {
        return new InvalidFormat(
          `the directives ${last.text} and ${arg.text} use argument ${arg.number} with incompatible types`,
        );
      }
      if (type !== last.type) out[out.length - 1] = { ...last, type };
      continue;
    }
    out.push(arg);
  }
  return specOf(out);
}

const MIXES = "the string mixes numbered and unnumbered arguments";

/** The string mixes `N$` and unnumbered directives where its language does not allow it. */
export function mixes(): InvalidFormat {
  return new InvalidFormat(MIXES);
}

/**
 * The arguments of a language whose `N$` and unnumbered arguments may not mix (format-javascript.c,
 * format-boost.c): the unnumbered ones are numbered in order.
 */
export class UnmixedArgs {
  readonly #numbered: NumberedArg[] = [];
  readonly #unnumbered: NumberedArg[] = [];

  /** Takes argument `number` (0: the next unnumbered one); the string is invalid if that mixes. */
  add(number: number, type: string, text: string): InvalidFormat | null {
    if (number > 0 ? this.#unnumbered.length > 0 : this.#numbered.length > 0) return mixes();
    if (number > 0) this.#numbered.push({ number, type, text });
    else this.#unnumbered.push({ number: this.#unnumbered.length + 1, type, text });
    return null;
  }

  /** The spec: the unnumbered arguments, or the numbered ones merged by {@link numberedSpec}. */
  spec(merge?: (first: string, next: string) => string | null): NumberedSpec | InvalidFormat {
    return this.#unnumbered.length > 0 ? specOf(this.#unnumbered) : numberedSpec(this.#numbered, merge);
  }
}

/** A directive that names an argument msgid does not have. */
export function extraArgument(arg: NumberedArg, names: FieldNames): string {
  return `${names.translation} has ${arg.text} for argument ${arg.number}, which ${names.original} does not ` +
    `have: remove it or use one of ${names.original}'s placeholders`;
}

/** An argument of msgid the msgstr leaves out. */
export function missingArgument(arg: NumberedArg, names: FieldNames): string {
  return `${names.translation} lacks argument ${arg.number} (${arg.text} in ${names.original}): keep every ` +
    `placeholder`;
}

/** An argument whose type differs. */
export function otherType(a: NumberedArg, b: NumberedArg, names: FieldNames): string {
  return `argument ${a.number} is ${b.text} in ${names.translation} but ${a.text} in ${names.original}: ` +
    `keep its conversion`;
}

/** How a language's `format_check` departs from {@link compareNumbered}'s. */
export interface NumberedCheck {
  /** Whether msgid's and msgstr's uses of one argument fit (default: equal type classes). */
  sameType?: (a: NumberedArg, b: NumberedArg, j: number) => boolean;
  /** When not strict, an argument of msgid the msgstr leaves out: a message, or null if that may be. */
  leftOut?: (a: NumberedArg) => string | null;
}

/**
 * gettext's `format_check` for numbered arguments: an argument of msgstr that msgid lacks is an
 * error; one of msgid that msgstr lacks is an error when `equality` (strict); then the types of the
 * arguments both have must be equal (`check.sameType` decides).
 */
export function compareNumbered(
  original: FormatSpec,
  translation: FormatSpec,
  equality: boolean,
  names: FieldNames,
  check: NumberedCheck = {},
): string | null {
  const a = (original as NumberedSpec).numbered;
  const b = (translation as NumberedSpec).numbered;
  const sameType = check.sameType ?? ((x, y) => x.type === y.type);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const cmp = i >= a.length ? 1 : j >= b.length ? -1 : Math.sign(a[i]!.number - b[j]!.number);
    if (cmp > 0) return extraArgument(b[j]!, names);
    if (cmp < 0) {
      if (equality) return missingArgument(a[i]!, names);
      const message = check.leftOut?.(a[i]!) ?? null;
      if (message !== null) return message;
      i++;
    } else {
      i++;
      j++;
    }
  }
  for (i = 0, j = 0; j < b.length;) {
    if (a[i]!.number === b[j]!.number) {
      if (!sameType(a[i]!, b[j]!, i)) return otherType(a[i]!, b[j]!, names);
      i++;
      j++;
    } else i++;
  }
  return null;
}

/**
 * A `%` language: its parser, and gettext's numbered `format_check` (or `compare`) between msgid's
 * and a msgstr's arguments.
 */
export function percentLanguage(
  flag: string,
  pretty: string,
  parse: (s: string) => NumberedSpec | InvalidFormat,
  compare: FormatLanguage["compare"] = compareNumbered,
): FormatLanguage {
  return { flag, pretty, parse, compare, hint: "write %% for a literal percent sign" };
}
