/**
 * The in-memory model of a gettext catalogue, shared by the reader, the writer and the store.
 *
 * The model keeps everything msgcat keeps (and in the order it keeps it), so that reading a file
 * and writing it back gives exactly what `msgcat FILE` prints. Strings are Unicode (decoded from
 * the file's charset); escapes are resolved.
 *
 * Messages, their lists and references, and catalogues are immutable values, and the types say so
 * (`readonly` fields, `ReadonlyArray`s): the engine caches what it learnt of each by object identity
 * (`_identity_caches.ts`), so code that changes a message or a list makes a new one (as
 * `apply_write.ts` does).
 *
 * @module
 */

/** One `#:` reference: a file name (as read, `./` prefixes included) and an optional line number. */
export interface PoReference {
  readonly file: string;
  readonly line: number | null;
}

/** One message of a catalogue (the header is the message with msgid "" and no msgctxt). */
export interface PoMessage {
  /** `msgctxt`, or null when the message has none (an empty `msgctxt ""` is "", not null). */
  readonly msgctxt: string | null;
  readonly msgid: string;
  /** `msgid_plural`, or null for a non-plural message. */
  readonly msgidPlural: string | null;
  /** `msgstr` of a non-plural message ("" for plural messages). */
  readonly msgstr: string;
  /** `msgstr[N]` in stored order, or null for a non-plural message. */
  readonly msgstrPlural: readonly string[] | null;
  /** Translator comments (`# text`), one string per line, leading space stripped as msgcat does. */
  readonly translatorComments: readonly string[];
  /** Extracted comments (`#. text`), one string per line. */
  readonly extractedComments: readonly string[];
  /** References from every `#:` line, in order, exact duplicates removed. */
  readonly references: readonly PoReference[];
  /**
   * Flag tokens of the entry's last `#,` line (msgcat 0.21: only the last line counts), as read:
   * split at spaces and commas, except that `range:` and its argument form one token
   * (`"range: 1..5"`). Unknown tokens are kept here; the writer drops them as msgcat does.
   */
  readonly flags: readonly string[];
  /** `#| msgctxt`, `#| msgid`, `#| msgid_plural`: null when absent. */
  readonly previousMsgctxt: string | null;
  readonly previousMsgid: string | null;
  readonly previousMsgidPlural: string | null;
  /** True for a `#~` entry. */
  readonly obsolete: boolean;
  /**
   * The domain the message belongs to, set by a preceding `domain "NAME"` directive; absent for the
   * default domain (`messages`). The writer groups messages by domain as msgcat does.
   */
  readonly domain?: string;
}

/** A parsed catalogue: every message in file order (header included, obsolete ones included). */
export interface PoCatalog {
  readonly messages: readonly PoMessage[];
  /** Charset named by the header's Content-Type (as spelled there), or null when there is none. */
  readonly charset: string | null;
  /**
   * True when the file started with a UTF-8 byte order mark that the reader was told to accept
   * (`allowBom`). msgcat 0.21 rejects such a file, so the writer refuses to format it.
   */
  readonly bom?: boolean;
  /**
   * The file name the catalogue was read from, when known. Only its `.pot` ending matters: msgcat
   * accepts the `charset=CHARSET` placeholder in a `.pot` file only.
   */
  readonly fileName?: string;
  /**
   * Set when the header says `charset=CHARSET` outside a `.pot`, which msgcat refuses: "read" when
   * the reader was told to read it as ASCII as msgmerge and msgfmt do (`placeholderCharset`); the
   * writer still refuses such a catalogue, as msgcat. "merged" on what `mergeCatalogs` makes of one:
   * the writer writes it as ASCII, as msgmerge does.
   */
  readonly placeholderCharset?: "read" | "merged";
}

/**
 * A message with nothing in it: msgid "", no context, translation, comments, references or flags,
 * in the default domain. A new message is this with its own fields spread over it (its lists are
 * shared and frozen: give a message a new list, never push to these).
 *
 * @example
 * ```ts
 * const m: PoMessage = { ...EMPTY_MESSAGE, msgid: "Hello", msgstr: "Bonjour" };
 * ```
 */
export const EMPTY_MESSAGE: PoMessage = Object.freeze({
  msgctxt: null,
  msgid: "",
  msgidPlural: null,
  msgstr: "",
  msgstrPlural: null,
  translatorComments: Object.freeze([]),
  extractedComments: Object.freeze([]),
  references: Object.freeze([]),
  flags: Object.freeze([]),
  previousMsgctxt: null,
  previousMsgid: null,
  previousMsgidPlural: null,
  obsolete: false,
});

/** The name of gettext's default domain (a message in it has no `domain`). */
export const DEFAULT_DOMAIN = "messages";

/**
 * Whether `m` is a header entry as msgcat finds one (msgid "", no msgctxt, not obsolete): the one
 * whose msgstr names the charset.
 */
export function isHeader(m: PoMessage): boolean {
  return hasHeaderKey(m) && !m.obsolete;
}

/**
 * Whether `m` has the header's key (msgid "", no msgctxt), obsolete or not: gettext's own
 * `is_header` (message.h), which msgmerge applies to every entry of both files, so an obsolete
 * `#~ msgid ""` counts there as a header and is never merged as a message. Everywhere else the
 * header is {@link isHeader}'s.
 */
export function hasHeaderKey(m: PoMessage): boolean {
  return m.msgid === "" && m.msgctxt === null;
}

/**
 * `T` with writable fields (its lists stay read-only): for code that builds a new message or
 * catalogue, before it hands it out. A value handed out is never changed (see above).
 *
 * @example
 * ```ts
 * const m: Draft<PoMessage> = { ...old };
 * m.msgstr = "new"; // a new message: `old` is untouched
 * ```
 */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };
