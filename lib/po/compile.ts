/**
 * Compile a catalogue to a binary MO file as `msgfmt` 0.21 does, with `gettext-parser`'s MO
 * compiler. This module loads gettext-parser (and its iconv tables): it is not exported from
 * `mod.ts`, so the modes that do not compile (wrap, check) never load it.
 *
 * What goes in, as msgfmt: every non-obsolete entry whose first msgstr is not empty, fuzzy ones
 * only when asked (`useFuzzy`, msgfmt's `--use-fuzzy`), the header always (fuzzy or not) unless
 * it is empty, with its POT-Creation-Date line removed (msgfmt does, for reproducible builds);
 * plural entries with all their forms, context entries keyed `msgctxt EOT msgid`.
 *
 * Where gettext-parser 10.0.0 differs from msgfmt, fixed around it here (its code untouched):
 * - it rebuilds the header from a field map (lowercasing the charset, trimming values, losing
 *   lines without a colon and repeated fields): the header msgfmt writes is put back;
 * - it sorts the strings by UTF-16 code units, where libintl binary-searches them in byte order
 *   (an MO without hash table, as gettext-parser writes, is only searched that way): re-sorted
 *   by bytes, or a msgid with an emoji next to one with a CJK full-width character is not found;
 * - it treats an empty msgctxt as none, merging `msgctxt ""` entries with context-free ones:
 *   they are keyed with the EOT themselves;
 * - it keeps an entry when any plural form is translated, msgfmt only when the first is: the
 *   entries are chosen here before it sees them.
 * Left as they are: gettext-parser writes no hash table (msgfmt does; lookups then
 * binary-search, which libintl, Python's gettext and every other reader support), and no
 * system-dependent strings (MO revision 1): C-format entries with `<inttypes.h>` macros
 * (`%<PRIu32>`) are left out and counted in {@link CompileResult.sysdepSkipped} (xz's catalogues
 * have 2 to 4 such entries each).
 *
 * @module
 */
// @ts-types="@types/gettext-parser"
import { mo } from "gettext-parser";
import { InvalidInputError, PoSyntaxError } from "../errors.ts";
import { messageLine } from "./parse.ts";
import type { PoCatalog, PoMessage } from "./types.ts";
import { catalogCharset } from "./_output_charset.ts";
import { interpretFlags } from "./_flags.ts";
import { compareBytes, layoutMo, readMoPairs } from "./_mo_layout.ts";

/** Options of {@link compileMo}. */
export interface CompileOptions {
  /** Include fuzzy entries (msgfmt --use-fuzzy). Default false. */
  useFuzzy?: boolean;
}

/** What {@link compileMo} returns. */
export interface CompileResult {
  /** The MO file's bytes. */
  bytes: Uint8Array;
  /** Messages in the MO (the header included). */
  messages: number;
  /** Entries left out because they are fuzzy (without `useFuzzy`). */
  fuzzySkipped: number;
  /** Entries left out because their (first) msgstr is empty. */
  untranslatedSkipped: number;
  /**
   * C-format entries left out because they use `<inttypes.h>` macros (`%<PRIu32>`): msgfmt stores
   * them as system-dependent strings, which gettext-parser cannot write. Use msgfmt for those.
   */
  sysdepSkipped: number;
}

/** Pairs of a gettext-parser translation table, keyed as it keys them. */
type Table = Record<
  string,
  Record<string, { msgid: string; msgctxt?: string; msgid_plural?: string; msgstr: string[] }>
>;

/**
 * The MO file msgfmt would write for `cat` (`msgfmt -o OUT FILE`, or `--use-fuzzy`), as bytes
 * that `msgunfmt` reads back to the same messages as msgfmt's own.
 *
 * @throws {InvalidInputError} the catalogue has several domains (msgfmt writes one file per
 *   domain: compile them separately), or a charset gettext-parser cannot encode.
 * @throws {PoSyntaxError} two entries with the same context and msgid (msgfmt refuses them too).
 * @example
 * ```ts
 * const { bytes } = compileMo(parsePo(await Deno.readFile("fr.po"), "fr.po"));
 * await Deno.writeFile("fr.mo", bytes);
 * ```
 */
export function compileMo(cat: PoCatalog, options: CompileOptions = {}): CompileResult {
  if (cat.messages.some((m) => m.domain !== undefined)) {
    throw new InvalidInputError(
      "Cannot compile a catalogue with domain directives into one MO file: msgfmt writes one file per domain",
    );
  }
  const charset = catalogCharset(cat).canonical ?? "ASCII";
  const translations: Table = {};
  const seen = new Map<string, PoMessage>();
  let header: PoMessage | null = null;
  let count = 0;
  let fuzzySkipped = 0;
  let untranslatedSkipped = 0;
  let sysdepSkipped = 0;
  for (const m of cat.messages) {
    if (m.obsolete) continue;
    const key = (m.msgctxt === null ? "" : m.msgctxt + "\u0004") + m.msgid;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new PoSyntaxError(
        `duplicate message definition (first at line ${messageLine(first) ?? "?"})`,
        messageLine(m) ?? 0,
        1,
      );
    }
    seen.set(key, m);
    const forms = m.msgidPlural !== null ? (m.msgstrPlural ?? [""]) : [m.msgstr];
    const isHeader = m.msgctxt === null && m.msgid === "";
    if (forms[0] === "") {
      if (!isHeader) untranslatedSkipped++;
      continue;
    }
    if (isHeader) {
      header = m;
      count++;
      continue;
    }
    if (!options.useFuzzy && interpretFlags(m.flags).fuzzy) {
      fuzzySkipped++;
      continue;
    }
    if (systemDependent(m, forms)) {
      sysdepSkipped++;
      continue;
    }
    // gettext-parser drops the context when it is "": the EOT goes into the msgid itself then.
    const context = m.msgctxt ?? "";
    const msgid = m.msgctxt === "" ? "\u0004" + m.msgid : m.msgid;
    (translations[context] ??= {})[msgid] = {
      msgid,
      ...(context !== "" ? { msgctxt: context } : {}),
      ...(m.msgidPlural !== null ? { msgid_plural: m.msgidPlural } : {}),
      msgstr: [...forms],
    };
    count++;
  }
  let compiled: Uint8Array;
  try {
    compiled = mo.compile({ charset: charset.toLowerCase(), headers: {}, translations });
  } catch (error) {
    if (error instanceof Error && /encoding|charset|iconv/i.test(error.message)) {
      throw new InvalidInputError(
        `Cannot compile: the charset ${charset} cannot be encoded (${error.message})`,
      );
    }
    throw error;
  }
  // gettext-parser always writes a header entry (from the field map): replaced by the catalogue's
  // own, or dropped when msgfmt would write none.
  const pairs = readMoPairs(compiled).filter((p) => p.id.length > 0);
  if (header !== null) {
    const text = header.msgstr.split("\n").filter((line) => !line.startsWith("POT-Creation-Date:")).join(
      "\n",
    );
    pairs.push({ id: new Uint8Array(0), str: encodeIn(text, charset) });
  }
  pairs.sort((a, b) => compareBytes(a.id, b.id));
  return { bytes: layoutMo(pairs), messages: count, fuzzySkipped, untranslatedSkipped, sysdepSkipped };
}

/** `%<PRIu32>` and the like: a directive naming an `<inttypes.h>` macro. */
const SYSDEP_DIRECTIVE = /%[-+ #0'I0-9.*$]*<PRI[A-Za-z0-9_]+>/;

/**
 * True for a C or Objective-C format entry with an `<inttypes.h>` macro, which msgfmt stores as a
 * system-dependent string (MO revision 1) that gettext-parser cannot write.
 */
function systemDependent(m: PoMessage, forms: readonly string[]): boolean {
  if (!m.flags.some((f) => /^(possible-)?(c|objc)-format$/.test(f))) return false;
  return SYSDEP_DIRECTIVE.test(m.msgid) || (m.msgidPlural !== null && SYSDEP_DIRECTIVE.test(m.msgidPlural)) ||
    forms.some((f) => SYSDEP_DIRECTIVE.test(f));
}

/** `text` in the catalogue's charset, as gettext-parser encodes the other strings. */
function encodeIn(text: string, charset: string): Uint8Array {
  if (charset === "UTF-8" || charset === "ASCII") return new TextEncoder().encode(text);
  // gettext-parser's own encoder, through a one-message table: the same bytes as its strings.
  const one = mo.compile({
    charset: charset.toLowerCase(),
    headers: {},
    translations: { "": { x: { msgid: "x", msgstr: [text] } } },
  });
  return readMoPairs(one).find((p) => p.id.length === 1)!.str;
}
