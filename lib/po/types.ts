/**
 * The in-memory model of a gettext catalogue, shared by the reader, the writer and the store.
 *
 * The model keeps everything msgcat keeps (and in the order it keeps it), so that reading a file
 * and writing it back gives exactly what `msgcat FILE` prints. Strings are Unicode (decoded from
 * the file's charset); escapes are resolved.
 *
 * @module
 */

/** One `#:` reference: a file name (as read, `./` prefixes included) and an optional line number. */
export interface PoReference {
  file: string;
  line: number | null;
}

/** One message of a catalogue (the header is the message with msgid "" and no msgctxt). */
export interface PoMessage {
  /** `msgctxt`, or null when the message has none (an empty `msgctxt ""` is "", not null). */
  msgctxt: string | null;
  msgid: string;
  /** `msgid_plural`, or null for a non-plural message. */
  msgidPlural: string | null;
  /** `msgstr` of a non-plural message ("" for plural messages). */
  msgstr: string;
  /** `msgstr[N]` in stored order, or null for a non-plural message. */
  msgstrPlural: string[] | null;
  /** Translator comments (`# text`), one string per line, leading space stripped as msgcat does. */
  translatorComments: string[];
  /** Extracted comments (`#. text`), one string per line. */
  extractedComments: string[];
  /** References from every `#:` line, in order, exact duplicates removed. */
  references: PoReference[];
  /** Flag tokens of the entry's last `#,` line (msgcat 0.21: only the last line counts), as read. */
  flags: string[];
  /** `#| msgctxt`, `#| msgid`, `#| msgid_plural`: null when absent. */
  previousMsgctxt: string | null;
  previousMsgid: string | null;
  previousMsgidPlural: string | null;
  /** True for a `#~` entry. */
  obsolete: boolean;
  /** Set when a `domain "NAME"` directive precedes this message. */
  domain?: string;
}

/** A parsed catalogue: every message in file order (header included, obsolete ones included). */
export interface PoCatalog {
  messages: PoMessage[];
  /** Charset named by the header's Content-Type (as spelled there), or null when there is none. */
  charset: string | null;
  /** Messages with a `domain` directive after the last message (a file ending in `domain "x"`). */
  trailingDomain?: string;
}
