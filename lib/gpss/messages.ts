/**
 * The in-band messages GPSS sends instead of records (§4.1), classified and worded for a caller.
 *
 * @module
 */
import { excerpt } from "./response.ts";

/** The kinds of in-band GPSS messages (§4.1). */
export type GpssMessageKind =
  | "no_record"
  | "auth"
  | "expired"
  | "ip_blocked"
  | "quota"
  | "no_search_command"
  | "too_long"
  | "truncation"
  | "skip"
  | "unknown_field"
  | "other";

/** A classified GPSS message: `kind`, whether it is worth retrying (never), and the error to show. */
export interface GpssMessageInfo {
  kind: GpssMessageKind;
  /** What the caller is told (for `no_record`, `null`: it is a success with no records). */
  error: string | null;
}

const MESSAGE_TABLE: readonly { needle: string; kind: GpssMessageKind; error: string | null }[] = [
  { needle: "no record found", kind: "no_record", error: null },
  {
    needle: "usercode not exist",
    kind: "auth",
    error: "GPSS rejected the API user code (userCode not exist): set USER_CODE to the GPSS API code " +
      "TIPO issued, exactly as issued. The request was not retried.",
  },
  {
    needle: "expired",
    kind: "expired",
    error: "GPSS API user code has expired (userCode expired; codes are valid for 365 days): apply for " +
      "a new code at https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpssapi and set USER_CODE to it. " +
      "The request was not retried.",
  },
  {
    needle: "ip blocked",
    kind: "ip_blocked",
    error: "GPSS has blocked this server's IP address (IP blocked), which it does after repeated " +
      "requests with an invalid user code: check USER_CODE and ask TIPO to lift the block. " +
      "The request was not retried.",
  },
  {
    needle: "over download quantity",
    kind: "quota",
    error: "GPSS download quota is used up (Over download quantity): the records allowed per time " +
      "window (10,000 on weekdays 08:00-18:00 Taipei time, 30,000 otherwise) have been fetched. " +
      "Try again after the window resets at 08:00 or 18:00 Taipei time.",
  },
  {
    needle: "over search quantity",
    kind: "quota",
    error: "GPSS search quota is used up (Over search quantity): try again after the time window " +
      "resets at 08:00 or 18:00 Taipei time.",
  },
  {
    needle: "no search command",
    kind: "no_search_command",
    error: "GPSS found no usable search condition (No search command): give non-empty keywords " +
      "and at least one search field.",
  },
  {
    needle: "exceeded search condition length",
    kind: "too_long",
    error: "The search is too long for GPSS (Exceeded search condition length; about 1,000 " +
      "characters are accepted): shorten the keywords or search fewer fields.",
  },
  {
    needle: "cannot use truncated and kerning",
    kind: "truncation",
    error: "GPSS API does not support truncation (*, ?) or proximity ([n,m]) operators (Cannot use " +
      "truncated and kerning): remove them from the keywords.",
  },
  {
    needle: "expskip too much",
    kind: "skip",
    error: "GPSS rejected the result offset (expSkip too much): it is beyond the results available.",
  },
  {
    needle: "unknow field",
    kind: "unknown_field",
    error: "GPSS rejected a field code (Unknow field): the search or output fields were not accepted.",
  },
];

/**
 * Classifies an in-band GPSS message, case-insensitively by substring (the official document's own
 * casing is inconsistent: §4.1), and words the error a caller sees. Unknown messages (and the
 * status of an empty one) are quoted through `quote`, by default a 200-character {@link excerpt};
 * the client passes one that also masks its user code.
 *
 * @example
 * ```ts
 * describeGpssMessage("no record found").kind; // "no_record"
 * describeGpssMessage("userCode not exist").error; // "GPSS rejected the API user code …"
 * ```
 */
export function describeGpssMessage(
  message: string,
  status: string | null = null,
  quote: (text: string) => string = (text) => excerpt(text),
): GpssMessageInfo {
  const lower = message.toLowerCase();
  for (const row of MESSAGE_TABLE) {
    if (lower.includes(row.needle)) return { kind: row.kind, error: row.error };
  }
  if (message.trim() === "") {
    return {
      kind: "other",
      error: `GPSS answered with status ${JSON.stringify(quote(status ?? ""))} and no records`,
    };
  }
  return { kind: "other", error: `GPSS reported: ${JSON.stringify(quote(message))}` };
}
