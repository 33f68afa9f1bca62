/**
 * Compile a catalogue to a binary MO file as `msgfmt` 0.21 does: the same verdict, the same exit
 * status in the CLI, the same bytes (its hash table included).
 *
 * What goes in, as msgfmt: every non-obsolete entry whose first msgstr is not empty, fuzzy ones
 * only when asked (`useFuzzy`, msgfmt's `--use-fuzzy`), the header always (fuzzy or not) unless
 * it is empty, with its first `POT-Creation-Date:` line removed (msgfmt does, for reproducible
 * builds); plural entries with all their forms, context entries keyed `msgctxt EOT msgid`. With
 * nothing to put in (no header, nothing translated) msgfmt writes no file: `bytes` is null.
 *
 * Every string is encoded in the catalogue's charset by the codec the reader and the writer use
 * (`_string_encoder.ts`: glibc's tables, so the bytes are those msgfmt copies from the file), then
 * laid out by `_mo_layout.ts` as msgfmt lays them out: sorted in byte order, with msgfmt's hash
 * table, and C-format entries with `<inttypes.h>` directives (`%<PRIu32>`) or the `I` flag as
 * system-dependent strings (`_mo_sysdep.ts`, MO minor revision 1; like msgfmt 0.21, unlike 0.23's
 * default, no static expansions of them are added). No gettext-parser here: its iconv-lite tables
 * differ from glibc's (JOHAB, EUC-JP's 〜, …) and it sorts and keys strings otherwise.
 *
 * msgfmt's checks without `-c` ({@link CompileResult.errors}): an entry whose msgid and msgstr (or
 * msgid_plural, or a msgstr form) do not both begin, or both end, with `\n` is a fatal error: msgfmt
 * prints it, still writes the MO, and exits 1. A file whose header names no charset is read in the
 * charset its bytes are valid in and compiled as they are, with msgfmt's warning
 * ({@link readForCompile}).
 *
 * @module
 */
import { PoSyntaxError, UnwritableCatalogError } from "../../errors.ts";
import { messageLines, parsePo } from "../read/parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import { catalogCharset } from "../charsets/_output_charset.ts";
import { decodeUtf8 } from "../charsets/_charset.ts";
import { interpretFlags } from "../read/_flags.ts";
import { compareBytes, layoutMo, type MoPair, type MoSysdepPair } from "./_mo_layout.ts";
import { sysdepDirectives, type SysdepInterval } from "./_mo_sysdep.ts";
import { isAsciiText, stringEncoder } from "../charsets/_string_encoder.ts";

/** Options of {@link compileMo}. */
export interface CompileOptions {
  /** Include fuzzy entries (msgfmt --use-fuzzy). Default false. */
  useFuzzy?: boolean;
  /**
   * The line of each message's first `msgstr` keyword, parallel to `catalog.messages`
   * ({@link readForCompile}'s): msgfmt names that line in its errors. Absent: the msgid's line.
   */
  msgstrLines?: readonly number[];
  /**
   * The charset a catalogue whose header names none was read in ({@link readForCompile}'s
   * `missingCharset`), so its strings are written back as the bytes they were read from.
   */
  missingCharset?: string;
}

/** One fatal error msgfmt reports (as `FILE:LINE: message`). */
export interface CompileProblem {
  /** The line of the entry's first `msgstr` keyword, as msgfmt names it (0: made in memory). */
  line: number;
  message: string;
}

/** What {@link compileMo} returns. */
export interface CompileResult {
  /** The MO file's bytes; null when msgfmt writes no file (no message to put in it). */
  bytes: Uint8Array | null;
  /** Messages in the MO (the header included). */
  messages: number;
  /** Entries left out because they are fuzzy (without `useFuzzy`). */
  fuzzySkipped: number;
  /** Entries left out because their (first) msgstr is empty. */
  untranslatedSkipped: number;
  /**
   * The fatal errors msgfmt prints, in its order: one per entry (msgfmt prints one line per entry
   * and counts the others, see {@link CompileResult.fatalErrors}). Not empty: msgfmt exits 1,
   * though it writes the MO all the same.
   */
  errors: CompileProblem[];
  /** How many fatal errors msgfmt counts (`msgfmt: found N fatal errors`). */
  fatalErrors: number;
}

/** What {@link readForCompile} returns. */
export interface CompileInput {
  catalog: PoCatalog;
  /** Set when the header names no charset and the text is not ASCII: pass it to {@link compileMo}. */
  missingCharset?: string;
  /** msgfmt's warnings about the file (without its `FILE: ` prefix). */
  warnings: string[];
  /** The line of each message's first `msgstr` keyword (pass it to {@link compileMo}). */
  msgstrLines: number[];
}

/** msgfmt's warning for a header without `charset=` (one line here; msgfmt breaks it in two). */
export const CHARSET_MISSING_WARNING =
  "warning: Charset missing in header. Message conversion to user's charset will not work.";

/**
 * Reads a PO file as msgfmt reads it to compile it: as {@link parsePo} does, except that a file
 * with non-ASCII text and no charset in its header (which msgcat refuses) is read in UTF-8 when its
 * bytes are valid UTF-8, else byte for byte (ISO-8859-1), so {@link compileMo} writes its strings
 * back as the bytes they were, as msgfmt does; a header without `charset=` gets msgfmt's warning.
 *
 * @throws {PoSyntaxError} the file is not one msgfmt reads.
 */
export function readForCompile(bytes: Uint8Array, fileName: string): CompileInput {
  const warnings: string[] = [];
  let catalog: PoCatalog;
  let missingCharset: string | undefined;
  try {
    catalog = parsePo(bytes, { fileName });
  } catch (error) {
    if (!(error instanceof PoSyntaxError) || !/no header entry with a charset/.test(error.message)) {
      throw error;
    }
    missingCharset = decodeUtf8(bytes) !== null ? "UTF-8" : "ISO-8859-1";
    catalog = parsePo(bytes, { fileName, missingCharset });
  }
  const header = catalog.messages.find(isHeader);
  if (header !== undefined && catalog.charset === null && !fileName.endsWith(".pot")) {
    warnings.push(CHARSET_MISSING_WARNING);
  }
  const msgstrLines = findMsgstrLines(bytes, messageLines(catalog) ?? []);
  return missingCharset === undefined
    ? { catalog, warnings, msgstrLines }
    : { catalog, missingCharset, warnings, msgstrLines };
}

/**
 * For each message's msgid line, the first line from it on that starts (after blanks) with
 * `msgstr` or `#~ msgstr`: one pass over the file, as the messages come in file order.
 */
function findMsgstrLines(bytes: Uint8Array, msgidLines: readonly number[]): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  const isMsgstr = (line: number) => {
    let at = starts[line - 1]!;
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at++;
    if (bytes[at] === 0x23 && bytes[at + 1] === 0x7e) { // "#~"
      at += 2;
      while (bytes[at] === 0x20 || bytes[at] === 0x09) at++;
    }
    for (let k = 0; k < 6; k++) if (bytes[at + k] !== "msgstr".charCodeAt(k)) return false;
    return true;
  };
  let line = 1;
  return msgidLines.map((from) => {
    line = Math.max(line, from);
    while (line < starts.length && !isMsgstr(line)) line++;
    return line;
  });
}

/**
 * The MO file msgfmt would write for `cat` (`msgfmt -o OUT FILE`, or `--use-fuzzy`), byte for byte,
 * and the fatal errors msgfmt would report.
 *
 * @throws {InvalidInputError} the MO would pass 4 GiB.
 * @throws {UnwritableCatalogError} a string holds a character the catalogue's charset cannot hold,
 *   or non-ASCII text in a charset this service cannot encode (EUC-TW…).
 * @throws {PoSyntaxError} two entries with the same context and msgid (msgfmt refuses them too).
 * @example
 * ```ts
 * const { bytes } = compileMo(parsePo(await Deno.readFile("fr.po"), "fr.po"));
 * if (bytes !== null) await Deno.writeFile("fr.mo", bytes);
 * ```
 */
export function compileMo(cat: PoCatalog, options: CompileOptions = {}): CompileResult {
  // `domain` directives: `msgfmt -o FILE` puts every domain's messages into FILE, as here (a msgid
  // in two domains is then a duplicate definition, as there).
  const charset = options.missingCharset ?? catalogCharset(cat).canonical;
  const encoder = stringEncoder(charset);
  const lines = messageLines(cat);
  const lineOf = (i: number) => lines?.[i] ?? 0;
  const msgstrLineOf = (i: number) => options.msgstrLines?.[i] ?? lineOf(i);
  const encode = (text: string, m: PoMessage): Uint8Array => {
    if (isAsciiText(text)) {
      const out = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
      return out;
    }
    if (encoder === null) {
      throw new UnwritableCatalogError(
        `Cannot compile: the charset ${charset} cannot be encoded by this service ` +
          "(convert the catalogue with msgconv --to-code=UTF-8 first)",
      );
    }
    const out = encoder(text);
    if (typeof out !== "number") return out;
    const cp = text.codePointAt(out)!;
    throw new UnwritableCatalogError(
      `Cannot compile: the entry with msgid ${JSON.stringify(m.msgid.slice(0, 60))} has the character U+${
        cp.toString(16).toUpperCase().padStart(4, "0")
      }, which ${charset} cannot hold`,
    );
  };
  const seen = new Map<string, number>();
  const pairs: MoPair[] = [];
  const sysdep: MoSysdepPair[] = [];
  const errors: CompileProblem[] = [];
  let fatalErrors = 0;
  let count = 0;
  let fuzzySkipped = 0;
  let untranslatedSkipped = 0;
  cat.messages.forEach((m, index) => {
    if (m.obsolete) return;
    const key = (m.msgctxt === null ? "" : m.msgctxt + "\u0004") + m.msgid;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new PoSyntaxError(
        `duplicate message definition (first at line ${lineOf(first) || "?"})`,
        lineOf(index),
        1,
      );
    }
    seen.set(key, index);
    const forms = m.msgidPlural !== null ? (m.msgstrPlural ?? [""]) : [m.msgstr];
    const isHeaderEntry = isHeader(m);
    if (forms[0] === "") {
      if (!isHeaderEntry) untranslatedSkipped++;
      return;
    }
    if (isHeaderEntry) {
      pairs.push({ id: new Uint8Array(0), str: encode(withoutCreationDate(m.msgstr), m) });
      count++;
      return;
    }
    if (!options.useFuzzy && interpretFlags(m.flags).fuzzy) {
      fuzzySkipped++;
      return;
    }
    count++;
    const found = newlineErrors(m, forms);
    if (found.length > 0) {
      // msgfmt prints one error per line of the file (gnulib's error_one_per_line) and counts all.
      errors.push({ line: msgstrLineOf(index), message: found[0]! });
      fatalErrors += found.length;
    }
    const context = m.msgctxt === null ? null : encode(m.msgctxt, m);
    const msgid = encode(m.msgid, m);
    const plural = m.msgidPlural === null ? null : encode(m.msgidPlural, m);
    const strs = forms.map((f) => encode(f, m));
    if (maySysdep(m, forms)) {
      const pair = sysdepPair(context, msgid, plural, strs);
      if (pair !== null) {
        sysdep.push(pair);
        return;
      }
    }
    const id = context === null ? msgid : join([context, EOT, msgid]);
    const zero = new Uint8Array(1);
    pairs.push({
      id: plural === null ? id : join([id, zero, plural]),
      str: join(strs.flatMap((s, i) => i === 0 ? [s] : [zero, s])),
    });
  });
  pairs.sort((a, b) => compareBytes(a.id, b.id));
  return {
    bytes: count === 0 ? null : layoutMo(pairs, sysdep),
    messages: count,
    fuzzySkipped,
    untranslatedSkipped,
    errors,
    fatalErrors,
  };
}

const EOT = /* @__PURE__ */ new Uint8Array([4]);

/**
 * The header without its first line that starts with `POT-Creation-Date:` (and that line's
 * newline): what msgfmt 0.21 writes (a second such line stays, as in msgfmt).
 */
export function withoutCreationDate(header: string): string {
  const field = "POT-Creation-Date:";
  const at = header.startsWith(field) ? 0 : header.indexOf("\n" + field) + 1;
  if (at === 0 && !header.startsWith(field)) return header;
  const end = header.indexOf("\n", at);
  return header.slice(0, at) + (end < 0 ? "" : header.slice(end + 1));
}

/**
 * msgfmt's newline checks of one kept entry (msgl-check.c's check_pair, which runs without `-c`),
 * in its order: first whether all strings begin with `\n` or none does, then whether all end with
 * one. A msgid "" (the header, or one with a context) is not checked.
 */
function newlineErrors(m: PoMessage, forms: readonly string[]): string[] {
  if (m.msgid === "") return [];
  const out: string[] = [];
  for (
    const [which, has] of [["begin", (s: string) => s[0] === "\n"], [
      "end",
      (s: string) => s.endsWith("\n"),
    ]] as const
  ) {
    const expected = has(m.msgid);
    const say = (other: string) => out.push(`'msgid' and '${other}' entries do not both ${which} with '\\n'`);
    if (m.msgidPlural !== null) {
      if (has(m.msgidPlural) !== expected) say("msgid_plural");
      forms.forEach((f, j) => {
        if (has(f) !== expected) say(`msgstr[${j}]`);
      });
    } else if (has(forms[0]!) !== expected) say("msgstr");
  }
  return out;
}

/** A C or Objective-C format entry, which msgfmt searches for system-dependent directives. */
const C_FORMAT = /^(possible-)?(c|objc)-format$/;

/**
 * A C or Objective-C format entry whose msgid or a msgstr form has a '%' followed, somewhere, by
 * '<' or 'I': the only ones {@link sysdepPair} can find directives in (a cheap, linear first look).
 */
function maySysdep(m: PoMessage, forms: readonly string[]): boolean {
  if (!m.flags.some((f) => C_FORMAT.test(f))) return false;
  const maybe = (t: string) => {
    const percent = t.indexOf("%");
    return percent >= 0 && (t.indexOf("<", percent) >= 0 || t.indexOf("I", percent) >= 0);
  };
  return maybe(m.msgid) || forms.some(maybe);
}

/**
 * The pair msgfmt 0.21 writes as system-dependent strings, from an entry's encoded strings, when
 * its msgid or a msgstr form has `<inttypes.h>` directives (or a form the `I` flag), each string a
 * valid C format string; null for a static pair. As write-mo.c, the msgid is searched without its
 * msgid_plural, which gettext never looks up.
 */
function sysdepPair(
  context: Uint8Array | null,
  msgid: Uint8Array,
  plural: Uint8Array | null,
  forms: readonly Uint8Array[],
): MoSysdepPair | null {
  const prefix = context === null ? [] : [context, new Uint8Array([4])];
  const idDirectives = shift(sysdepDirectives(msgid, false), context === null ? 0 : context.length + 1);
  const strDirectives: SysdepInterval[] = [];
  let at = 0;
  for (const form of forms) {
    strDirectives.push(...shift(sysdepDirectives(form, true), at));
    at += form.length + 1;
  }
  if (idDirectives.length === 0 && strDirectives.length === 0) return null;
  const zero = new Uint8Array(1);
  const id = join([...prefix, msgid, ...(plural === null ? [] : [zero, plural])]);
  const str = join(forms.flatMap((f, i) => i === 0 ? [f] : [zero, f]));
  return { id, str, idDirectives, strDirectives };
}

function shift(intervals: SysdepInterval[], by: number): SysdepInterval[] {
  return intervals.map(({ start, end }) => ({ start: start + by, end: end + by }));
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
