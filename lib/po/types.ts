/**
 * The in-memory model of a gettext catalogue, shared by the reader, the writer and the store.
 *
 * The model keeps everything msgcat keeps (and in the order it keeps it), so that reading a file
 * and writing it back gives exactly what `msgcat FILE` prints. Strings are Unicode (decoded from
 * the file's charset); escapes are resolved.
 *
 * Messages, and a catalogue's list of messages, are treated as immutable values: the writer caches
 * each message's laid-out text by object identity (and remembers lists it found free of
 * duplicates), so code that changes a message or the list must make a new one (see `catalog.ts`).
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
  /**
   * Flag tokens of the entry's last `#,` line (msgcat 0.21: only the last line counts), as read:
   * split at spaces and commas, except that `range:` and its argument form one token
   * (`"range: 1..5"`). Unknown tokens are kept here; the writer drops them as msgcat does.
   */
  flags: string[];
  /** `#| msgctxt`, `#| msgid`, `#| msgid_plural`: null when absent. */
  previousMsgctxt: string | null;
  previousMsgid: string | null;
  previousMsgidPlural: string | null;
  /** True for a `#~` entry. */
  obsolete: boolean;
  /**
   * The domain the message belongs to, set by a preceding `domain "NAME"` directive; absent for the
   * default domain (`messages`). The writer groups messages by domain as msgcat does.
   */
  domain?: string;
}

/** A parsed catalogue: every message in file order (header included, obsolete ones included). */
export interface PoCatalog {
  messages: PoMessage[];
  /** Charset named by the header's Content-Type (as spelled there), or null when there is none. */
  charset: string | null;
  /**
   * True when the file started with a UTF-8 byte order mark that the reader was told to accept
   * (`allowBom`). msgcat 0.21 rejects such a file, so the writer refuses to format it.
   */
  bom?: boolean;
  /**
   * The file name the catalogue was read from, when known. Only its `.pot` ending matters: msgcat
   * accepts the `charset=CHARSET` placeholder in a `.pot` file only.
   */
  fileName?: string;
}

/** The name of gettext's default domain (a message in it has no `domain`). */
export const DEFAULT_DOMAIN = "messages";

/**
 * Whether `m` is a header entry as msgcat finds one (msgid "", no msgctxt, not obsolete): the one
 * whose msgstr names the charset.
 */
export function isHeader(m: PoMessage): boolean {
  return m.msgid === "" && m.msgctxt === null && !m.obsolete;
}
