/**
 * Compile a catalogue to a binary MO file as `msgfmt` 0.21 does, with `gettext-parser`'s MO
 * compiler. This module loads gettext-parser (and its iconv tables): `mod.ts` hands it out through
 * `loadMoCompiler` (`mo_compiler.ts`), so the modes that do not compile (wrap, check) never load it.
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
 * - it writes no hash table: the file is laid out again with msgfmt's (`_mo_layout.ts`);
 * - it cannot write system-dependent strings (MO minor revision 1): C-format entries with
 *   `<inttypes.h>` directives (`%<PRIu32>`) or the `I` flag are kept out of its table, cut at
 *   those directives as msgfmt 0.21 cuts them (`_mo_sysdep.ts`) and laid out by `_mo_layout.ts`
 *   in msgfmt's sysdep tables, in catalogue order. Like msgfmt 0.21 (unlike 0.23's default), no
 *   static expansions of them are added.
 *
 * @module
 */
// @ts-types="@types/gettext-parser"
import { mo } from "gettext-parser";
import { InvalidInputError, PoSyntaxError } from "../errors.ts";
import { messageLine } from "./parse.ts";
import { isHeader, type PoCatalog, type PoMessage } from "./types.ts";
import { catalogCharset } from "./_output_charset.ts";
import { interpretFlags } from "./_flags.ts";
import { compareBytes, layoutMo, type MoSysdepPair, readMoPairs } from "./_mo_layout.ts";
import { sysdepDirectives, type SysdepInterval } from "./_mo_sysdep.ts";

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
  // C-format entries that may hold system-dependent directives, in catalogue order.
  const candidates: { m: PoMessage; forms: readonly string[] }[] = [];
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
    const isHeaderEntry = isHeader(m);
    if (forms[0] === "") {
      if (!isHeaderEntry) untranslatedSkipped++;
      continue;
    }
    if (isHeaderEntry) {
      header = m;
      count++;
      continue;
    }
    if (!options.useFuzzy && interpretFlags(m.flags).fuzzy) {
      fuzzySkipped++;
      continue;
    }
    if (maySysdep(m, forms)) candidates.push({ m, forms });
    else addTo(translations, m, forms);
    count++;
  }
  const sysdep: MoSysdepPair[] = [];
  // Their strings encoded in one pass, then cut where msgfmt cuts them (on the encoded bytes).
  const texts = candidates.flatMap((
    { m, forms },
  ) => [m.msgctxt ?? "", m.msgid, m.msgidPlural ?? "", ...forms]);
  const encoded = encodeAll(texts, charset);
  let next = 0;
  for (const { m, forms } of candidates) {
    const [context, msgid, plural, ...strs] = encoded.slice(next, next += 3 + forms.length) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
      ...Uint8Array[],
    ];
    const pair = sysdepPair(
      m.msgctxt === null ? null : context,
      msgid,
      m.msgidPlural === null ? null : plural,
      strs,
    );
    if (pair !== null) sysdep.push(pair);
    else addTo(translations, m, forms);
  }
  const compiled = compileTable(translations, charset);
  // gettext-parser always writes a header entry (from the field map): replaced by the catalogue's
  // own, or dropped when msgfmt would write none.
  const pairs = readMoPairs(compiled).filter((p) => p.id.length > 0);
  if (header !== null) {
    const text = header.msgstr.split("\n").filter((line) => !line.startsWith("POT-Creation-Date:")).join(
      "\n",
    );
    pairs.push({ id: new Uint8Array(0), str: encodeAll([text], charset)[0]! });
  }
  pairs.sort((a, b) => compareBytes(a.id, b.id));
  return {
    bytes: layoutMo(pairs, sysdep),
    messages: count,
    fuzzySkipped,
    untranslatedSkipped,
  };
}

/** A C or Objective-C format entry, which msgfmt searches for system-dependent directives. */
const C_FORMAT = /^(possible-)?(c|objc)-format$/;

/** `m` in gettext-parser's table, keyed as it keys entries. */
function addTo(translations: Table, m: PoMessage, forms: readonly string[]): void {
  // gettext-parser drops the context when it is "": the EOT goes into the msgid itself then.
  const context = m.msgctxt ?? "";
  const msgid = m.msgctxt === "" ? "\u0004" + m.msgid : m.msgid;
  (translations[context] ??= {})[msgid] = {
    msgid,
    ...(context !== "" ? { msgctxt: context } : {}),
    ...(m.msgidPlural !== null ? { msgid_plural: m.msgidPlural } : {}),
    msgstr: [...forms],
  };
}

/** gettext-parser's MO of `translations`, its encoding failures as {@link InvalidInputError}. */
function compileTable(translations: Table, charset: string): Uint8Array {
  try {
    return mo.compile({ charset: charset.toLowerCase(), headers: {}, translations });
  } catch (error) {
    if (error instanceof Error && /encoding|charset|iconv/i.test(error.message)) {
      throw new InvalidInputError(
        `Cannot compile: the charset ${charset} cannot be encoded (${error.message})`,
      );
    }
    throw error;
  }
}

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

/** `texts` in the catalogue's charset, as gettext-parser encodes its strings. */
function encodeAll(texts: readonly string[], charset: string): Uint8Array[] {
  if (charset === "UTF-8" || charset === "ASCII") {
    const encoder = new TextEncoder();
    return texts.map((t) => encoder.encode(t));
  }
  if (texts.length === 0) return [];
  // gettext-parser's own encoder, all at once: text i as the translation of msgid "i".
  const table: Table = { "": {} };
  texts.forEach((t, i) => table[""]![String(i)] = { msgid: String(i), msgstr: [t] });
  const out: Uint8Array[] = texts.map(() => new Uint8Array(0));
  for (const p of readMoPairs(compileTable(table, charset))) {
    if (p.id.length > 0) out[Number(String.fromCharCode(...p.id))] = p.str;
  }
  return out;
}
