/**
 * The PO grammar, a recursive-descent version of gettext's: tokens from the {@link Lexer} →
 * messages, with their comments, references and flags, and what the reader needs next (lines,
 * fields still in bytes, which messages may hold non-ASCII text, header candidates).
 *
 * @module
 */
import { PoSyntaxError } from "../../errors.ts";
import { addReference, parseReferences, solarisReference } from "./_references.ts";
import { tokenizeFlags } from "./_flags.ts";
import { sampleKey } from "./_duplicates.ts";
import {
  concatValues,
  Lexer,
  ownString,
  type StringValue,
  T_COMMENT,
  T_DOMAIN,
  T_EOF,
  T_LBRACKET,
  T_MSGCTXT,
  T_MSGID,
  T_MSGID_PLURAL,
  T_MSGSTR,
  T_NUMBER,
  T_RBRACKET,
  T_REFERENCES,
  T_STRING,
  TOKEN_NAMES,
} from "./_lexer.ts";
import { DEFAULT_DOMAIN, type Draft, isHeader, type PoMessage, type PoReference } from "../types.ts";

/**
 * A message as the reader builds it: every field and list writable, for the decoding that
 * replaces its texts in place (`_decode.ts`). {@link parsePo} hands it out as a {@link PoMessage},
 * never to be changed again.
 */
export interface ParsedMessage extends Draft<PoMessage> {
  msgstrPlural: string[] | null;
  translatorComments: string[];
  extractedComments: string[];
  references: Draft<PoReference>[];
  flags: string[];
}

/** Fields whose value may still be bytes (UTF-8 mode, an escape produced a non-ASCII byte). */
export interface PendingField {
  message: ParsedMessage;
  field:
    | "msgctxt"
    | "msgid"
    | "msgidPlural"
    | "msgstr"
    | "previousMsgctxt"
    | "previousMsgid"
    | "previousMsgidPlural";
  index: number; // for msgstrPlural; -1 otherwise
  line: number;
  bytes: Uint8Array;
}

/** What {@link parseText} gives: the messages in file order, and what it learnt of them on the way. */
export interface RawParse {
  messages: ParsedMessage[];
  /** Line of each message's msgid keyword, parallel to `messages`. */
  lines: number[];
  pending: PendingField[];
  /**
   * Indices of the messages that may hold non-ASCII text (in a string, a comment, a reference or a
   * flag), ascending; the others are ASCII throughout and need no decoding or checking.
   */
  high: number[];
  /**
   * {@link sampleKey} of each message's msgid, parallel to `messages`, taken while the msgid was
   * fresh in the cache; a message whose msgid is decoded later (one in `high`) gets it again then.
   */
  keys: number[];
  /**
   * Indices of the messages that were header-like when read (msgid "", no msgctxt, not obsolete),
   * ascending: a message whose msgid is decoded later holds "" until then, so this may name a
   * few that are not headers in the end, never fewer.
   */
  headers: number[];
  /** Whether a `domain` directive put some message outside the default domain. */
  domains: boolean;
}

const NO_STRINGS = Object.freeze([]) as unknown as string[];
const NO_REFERENCES = Object.freeze([]) as unknown as Draft<PoReference>[];

/**
 * The parser state carried from one message to the next: comments waiting for their message
 * (exported for `laid_out.ts`, which reads comment lines through the same rules).
 */
export class Pending {
  // Most messages have no comment of some kind: they share one frozen empty list (a push to it
  // would throw), and a list is made only when a comment of its kind comes.
  translator: string[] = NO_STRINGS;
  extracted: string[] = NO_STRINGS;
  flags: string[] = NO_STRINGS;
  /**
   * The references read so far, in a list kept from message to message: {@link takeReferences}
   * copies them out at their exact size (a list grown by push holds room for 17).
   */
  references: Draft<PoReference>[] = [];

  reset(): void {
    this.translator = NO_STRINGS;
    this.extracted = NO_STRINGS;
    // (Setting a list's length costs ~45 ns, a new empty list ~15: this runs for every message.)
    if (this.references.length !== 0) this.references = [];
    this.flags = NO_STRINGS;
  }

  /** The references read since the last reset, as a list of their own; none are left. */
  takeReferences(): Draft<PoReference>[] {
    const refs = this.references;
    if (refs.length === 0) return NO_REFERENCES;
    if (refs.length === 1) return [refs.pop()!];
    this.references = [];
    return refs.slice();
  }

  comment(s: string): void {
    const c = s.charCodeAt(0);
    if (c === 46) { // '.'
      if (this.extracted === NO_STRINGS) this.extracted = [];
      this.extracted.push(ownString(s.charCodeAt(1) === 32 ? s.slice(2) : s.slice(1)));
    } else if (c === 44 || c === 33) { // ',' '!': only the last flag line counts
      this.flags = tokenizeFlags(s.slice(1));
    } else {
      const ref = solarisReference(s);
      if (ref) {
        addReference(this.references, ref.file, ref.line);
      } else {
        if (this.translator === NO_STRINGS) this.translator = [];
        this.translator.push(ownString(c === 32 ? s.slice(1) : s));
      }
    }
  }
}

/**
 * Parses every message of the lexer's text (gettext's grammar: comments, `domain` directives,
 * messages); strings with non-ASCII bytes from escapes are left in `pending`, to be decoded.
 *
 * @throws {PoSyntaxError} at the first syntax error.
 */
export function parseText(lex: Lexer): RawParse {
  const messages: ParsedMessage[] = [];
  const lines: number[] = [];
  const pending: PendingField[] = [];
  const high: number[] = [];
  const keys: number[] = [];
  const headers: number[] = [];
  let domains = false;
  const comments = new Pending();
  let domain: string | undefined;
  // Where the tokens of the next message start (its comments, or its keyword).
  let spanStart = 0;

  lex.advance();
  while (lex.kind !== T_EOF) {
    switch (lex.kind) {
      case T_COMMENT:
        comments.comment(lex.value as string);
        lex.advance();
        break;
      case T_REFERENCES:
        parseReferences(lex.text, comments.references, lex.refFrom, lex.refTo);
        lex.advance();
        break;
      case T_DOMAIN: {
        lex.advance();
        if (lex.kind !== T_STRING) throw lex.tokenError("syntax error: expected a string after domain");
        const v = lex.value;
        const name = typeof v === "string" ? v : new TextDecoder().decode(v);
        domain = name === DEFAULT_DOMAIN ? undefined : name;
        // gettext throws away comments that precede a domain directive.
        comments.reset();
        lex.advance();
        spanStart = lex.tokenOffset();
        break;
      }
      case T_MSGCTXT:
      case T_MSGID: {
        const line = lex.realLine(lex.tokLine, lex.start);
        const m = parseMessage(lex, pending, comments, line);
        if (domain !== undefined) {
          m.domain = domain;
          domains = true;
        }
        if (isHeader(m)) headers.push(messages.length);
        comments.reset();
        // The lexer is one token ahead, into the next message: at worst a message is counted in
        // for a character of the next one, never left out.
        if (lex.lastHighStart >= spanStart) high.push(messages.length);
        spanStart = lex.tokenOffset();
        messages.push(m);
        keys.push(sampleKey(m.msgid));
        lines.push(line);
        break;
      }
      default:
        throw lex.tokenError(
          lex.kind === T_STRING ? "syntax error: a string without a keyword" : "syntax error",
        );
    }
  }
  return { messages, lines, pending, high, keys, headers, domains };
}

/** Checks that the current token has the message's obsolete flag (gettext: "inconsistent use of #~"). */
function checkObsolete(lex: Lexer, obsolete: boolean): void {
  if (lex.obsolete !== obsolete) throw lex.tokenError("inconsistent use of #~");
}

/** Reads one or more strings (of `#|` lines when `previous`) and concatenates them. */
function readStrings(lex: Lexer, obsolete: boolean, previous: boolean): StringValue {
  if (lex.kind !== T_STRING) {
    throw lex.tokenError(`syntax error: expected a string, found ${TOKEN_NAMES[lex.kind]}`);
  }
  // Text pieces are joined once, into a flat string: `a + b + …` would make a rope that every
  // later hash, scan and regular expression flattens (an allocation and a copy each time). The
  // first piece needs no list, and a list is made for the second.
  let first = "";
  let texts: string[] | null = null;
  let parts: StringValue[] | null = null;
  while (lex.kind === T_STRING) {
    checkObsolete(lex, obsolete);
    if (lex.previous !== previous) throw lex.tokenError("syntax error: misplaced #| string");
    const v = lex.value;
    if (parts !== null) parts.push(v);
    else if (typeof v !== "string") {
      parts = texts !== null ? [texts.join(""), v] : first === "" ? [v] : [first, v];
    } else if (v.length > 0) {
      if (texts !== null) texts.push(v);
      else if (first === "") first = v;
      else texts = [first, v];
    }
    lex.advance();
  }
  if (parts !== null) return concatValues(parts);
  // (Joined pieces are a new string; a single one is a slice of the lexer's chunk.)
  return texts !== null ? texts.join("") : ownString(first);
}

/** Consumes a keyword token of the expected kind. */
function takeKeyword(lex: Lexer, kind: number, obsolete: boolean, previous: boolean): void {
  if (lex.kind !== kind || lex.previous !== previous) {
    throw lex.tokenError(`syntax error: expected ${previous ? "#| " : ""}${TOKEN_NAMES[kind]}`);
  }
  checkObsolete(lex, obsolete);
  lex.advance();
}

function parseMessage(lex: Lexer, pending: PendingField[], comments: Pending, line: number): ParsedMessage {
  const obsolete = lex.obsolete;
  let prevCtxt: StringValue | null = null;
  let prevId: StringValue | null = null;
  let prevPlural: StringValue | null = null;
  if (lex.previous) {
    if (lex.kind === T_MSGCTXT) {
      takeKeyword(lex, T_MSGCTXT, obsolete, true);
      prevCtxt = readStrings(lex, obsolete, true);
    }
    takeKeyword(lex, T_MSGID, obsolete, true);
    prevId = readStrings(lex, obsolete, true);
    if (lex.kind === T_MSGID_PLURAL && lex.previous) {
      takeKeyword(lex, T_MSGID_PLURAL, obsolete, true);
      prevPlural = readStrings(lex, obsolete, true);
    }
    if ((lex.kind !== T_MSGCTXT && lex.kind !== T_MSGID) || lex.previous) {
      // Where msgcat and msgfmt say it: after the token (a comment's newline included).
      const reason = "syntax error: #| lines must come directly before msgctxt or msgid";
      if (lex.kind === T_EOF) throw lex.tokenError(reason);
      if (lex.kind === T_COMMENT) {
        throw new PoSyntaxError(reason, lex.realLine(lex.tokLine, lex.start) + 1, 1);
      }
      throw lex.error(reason, lex.i, lex.tokLine, lex.tokLineStart);
    }
  }
  let ctxt: StringValue | null = null;
  if (lex.kind === T_MSGCTXT) {
    takeKeyword(lex, T_MSGCTXT, obsolete, false);
    ctxt = readStrings(lex, obsolete, false);
  }
  const idStart = lex.start;
  const idTokLine = lex.tokLine;
  const idLineStart = lex.tokLineStart;
  takeKeyword(lex, T_MSGID, obsolete, false);
  const id = readStrings(lex, obsolete, false);
  let plural: StringValue | null = null;
  let msgstr: StringValue = "";
  let forms: StringValue[] | null = null;
  if (lex.kind === T_MSGID_PLURAL && !lex.previous) {
    takeKeyword(lex, T_MSGID_PLURAL, obsolete, false);
    plural = readStrings(lex, obsolete, false);
    forms = [];
    while (lex.kind === T_MSGSTR && !lex.previous) {
      takeKeyword(lex, T_MSGSTR, obsolete, false);
      if (lex.kind !== T_LBRACKET) {
        throw lex.tokenError("syntax error: expected [ after msgstr of a plural entry");
      }
      checkObsolete(lex, obsolete);
      lex.advance();
      if (lex.kind !== T_NUMBER) throw lex.tokenError("syntax error: expected a plural form index");
      checkObsolete(lex, obsolete);
      const index = lex.number;
      const indexError = index === forms.length ? null : lex.tokenError(
        forms.length === 0 ? "first plural form has nonzero index" : "plural form has wrong index",
      );
      lex.advance();
      if (lex.kind !== T_RBRACKET) throw lex.tokenError("syntax error: expected ]");
      checkObsolete(lex, obsolete);
      lex.advance();
      const s = readStrings(lex, obsolete, false);
      if (indexError) throw indexError;
      forms.push(s);
    }
    if (forms.length === 0) throw lex.error("missing 'msgstr[]' section", idStart, idTokLine, idLineStart);
  } else if (lex.kind === T_MSGSTR && !lex.previous) {
    takeKeyword(lex, T_MSGSTR, obsolete, false);
    if (lex.kind === T_LBRACKET) {
      throw lex.error("missing 'msgid_plural' section", idStart, idTokLine, idLineStart);
    }
    msgstr = readStrings(lex, obsolete, false);
  } else {
    throw lex.error("missing 'msgstr' section", idStart, idTokLine, idLineStart);
  }

  const m: ParsedMessage = {
    msgctxt: typeof ctxt === "string" || ctxt === null ? ctxt : "",
    msgid: typeof id === "string" ? id : "",
    msgidPlural: typeof plural === "string" || plural === null ? plural : "",
    msgstr: typeof msgstr === "string" ? msgstr : "",
    msgstrPlural: null,
    translatorComments: comments.translator,
    extractedComments: comments.extracted,
    references: comments.takeReferences(),
    flags: comments.flags,
    previousMsgctxt: typeof prevCtxt === "string" || prevCtxt === null ? prevCtxt : "",
    previousMsgid: typeof prevId === "string" || prevId === null ? prevId : "",
    previousMsgidPlural: typeof prevPlural === "string" || prevPlural === null ? prevPlural : "",
    obsolete,
  };
  if (typeof ctxt === "object" && ctxt !== null) {
    pending.push({ message: m, line, field: "msgctxt", index: -1, bytes: ctxt });
  }
  if (typeof id !== "string") pending.push({ message: m, line, field: "msgid", index: -1, bytes: id });
  if (typeof plural === "object" && plural !== null) {
    pending.push({ message: m, line, field: "msgidPlural", index: -1, bytes: plural });
  }
  if (typeof msgstr !== "string") {
    pending.push({ message: m, line, field: "msgstr", index: -1, bytes: msgstr });
  }
  if (typeof prevCtxt === "object" && prevCtxt !== null) {
    pending.push({ message: m, line, field: "previousMsgctxt", index: -1, bytes: prevCtxt });
  }
  if (typeof prevId === "object" && prevId !== null) {
    pending.push({ message: m, line, field: "previousMsgid", index: -1, bytes: prevId });
  }
  if (typeof prevPlural === "object" && prevPlural !== null) {
    pending.push({ message: m, line, field: "previousMsgidPlural", index: -1, bytes: prevPlural });
  }
  if (forms) {
    const list: string[] = [];
    for (let index = 0; index < forms.length; index++) {
      const v = forms[index]!;
      if (typeof v === "string") list.push(v);
      else {
        list.push("");
        pending.push({ message: m, line, field: "msgstr", index, bytes: v });
      }
    }
    m.msgstrPlural = list;
  }
  return m;
}
