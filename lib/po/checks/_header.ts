/**
 * Catalogue-level checks on the header: `Plural-Forms` valid (as msgfmt -c evaluates it), present
 * when the catalogue has plural entries, every plural entry with exactly `nplurals` forms, and a
 * declared charset.
 *
 * @module
 */
import type { PoCatalog, PoMessage } from "../types.ts";
import { evaluatePlural } from "../operations/_plural_forms.ts";
import {
  checkPluralForms,
  headerMessage,
  parseHeaderFields,
  type PluralForms,
} from "../operations/header.ts";
import type { EntryCheck } from "./_types.ts";
import { pluralFormsMismatch } from "../operations/plural_rules.ts";

/** The header message (msgid "" without context, not obsolete, default domain), or null. */
export function headerOf(catalog: PoCatalog): PoMessage | null {
  return headerMessage(catalog);
}

/** One header field's value (the last line `Name: value` with that name, any case), or null. */
export function headerField(header: PoMessage | null, name: string): string | null {
  if (header === null) return null;
  let found: string | null = null;
  const lower = name.toLowerCase();
  for (const field of parseHeaderFields(header.msgstr)) {
    if (field.name.toLowerCase() === lower) found = field.value.trim();
  }
  return found;
}

/** What the catalogue's header says about plural forms, read once per check run. */
export interface PluralInfo {
  /** The valid forms, or why they cannot be used (null: the header has no Plural-Forms). */
  forms: PluralForms | string | null;
  /** Per form: does it apply to at least 5 of n = 0..1000 (msgfmt's "often")? */
  often: boolean[];
  /** How many of n = min..max (at most 1001 of them) select `form`. */
  histogram: ((min: number, max: number, form: number) => number) | null;
}

/**
 * Reads the header's Plural-Forms (as msgfmt checks it, `header.ts`) and, when valid, its
 * distribution as msgl-check.c derives it: form j is "often" when at least 5 of n = 0..1000
 * select it; there a translation must keep every placeholder.
 */
export function pluralInfo(header: PoMessage | null): PluralInfo {
  const value = headerField(header, "Plural-Forms");
  if (value === null) return { forms: null, often: [], histogram: null };
  const forms = checkPluralForms(value);
  if (typeof forms === "string") return { forms, often: [], histogram: null };
  const counts = new Array<number>(forms.nplurals).fill(0);
  for (let n = 0n; n <= 1000n; n++) {
    const v = Number(evaluatePlural(forms.plural, n));
    if (counts[v]! < 5) counts[v]!++;
  }
  return {
    forms,
    often: counts.map((c) => c === 5),
    histogram(min, max, form) {
      let count = 0;
      const top = Math.min(max, min + 1000);
      for (let n = min; n <= top; n++) if (evaluatePlural(forms.plural, BigInt(n)) === BigInt(form)) count++;
      return count;
    },
  };
}

/** A catalogue-level problem: its check and message. */
export interface HeaderFinding {
  check: string;
  message: string;
}

/**
 * The header's own problems. `firstPlural` says where the first plural entry is (null when there
 * is none): Plural-Forms matters then even when it is merely absent.
 */
export function headerFindings(
  catalog: PoCatalog,
  info: PluralInfo,
  firstPlural: string | null,
  enabled: (check: string) => boolean,
): HeaderFinding[] {
  const out: HeaderFinding[] = [];
  const header = headerOf(catalog);
  if (enabled("plural-forms")) {
    if (info.forms === null && firstPlural !== null) {
      out.push({
        check: "plural-forms",
        message:
          `the header has no Plural-Forms field but the catalogue has plural entries (${firstPlural}): ` +
          `set it for the language, e.g. "nplurals=2; plural=(n != 1);"`,
      });
    } else if (typeof info.forms === "string") {
      out.push({ check: "plural-forms", message: info.forms });
    }
  }
  // msgfmt -c's "PO file header missing or invalid": no live header entry it keeps (one whose
  // msgstr is not empty; its fuzziness does not matter).
  if (enabled("header") && (header === null || header.msgstr === "")) {
    out.push({
      check: "header",
      message: header === null
        ? 'the catalogue has no header entry (msgid ""): msgfmt -c refuses it; add one with ' +
          '"Content-Type: text/plain; charset=UTF-8\\n"'
        : "the header entry's msgstr is empty: msgfmt -c refuses it; give it at least " +
          '"Content-Type: text/plain; charset=UTF-8\\n"',
    });
  }
  if (
    enabled("plural-forms-language") && header !== null && info.forms !== null &&
    typeof info.forms !== "string"
  ) {
    const language = headerField(header, "Language");
    const expected = pluralFormsMismatch(language, headerField(header, "Plural-Forms"));
    if (expected !== null) {
      out.push({
        check: "plural-forms-language",
        message: `the header's Plural-Forms is not the rule for Language ${language}: msginit gives ` +
          `"${expected.rule}" (${expected.source === "gettext" ? "gettext's table" : "CLDR"}); ` +
          'update_header with plural_forms: "from_language" sets it',
      });
    }
  }
  if (enabled("charset") && header !== null) {
    const type = headerField(header, "Content-Type");
    const at = type === null ? -1 : type.toLowerCase().indexOf("charset=");
    const charset = at < 0 ? "" : type!.slice(at + 8).trim();
    if (charset === "" || charset === "CHARSET") {
      out.push({
        check: "charset",
        message: charset === "CHARSET"
          ? "the header's Content-Type still says \"charset=CHARSET\": set it to the file's encoding (UTF-8)"
          : 'the header declares no charset: add "Content-Type: text/plain; charset=UTF-8"',
      });
    }
  }
  return out;
}

/** The header family's per-entry check. */
export const HEADER_ENTRY_CHECKS: EntryCheck[] = [
  {
    name: "plural-count",
    severity: "error",
    defaultOn: true,
    description:
      "Every plural entry has exactly nplurals msgstr[N] forms (nplurals from the header's Plural-Forms).",
    run: ({ message, nplurals }) => {
      if (message.msgstrPlural === null || nplurals === null) return [];
      const count = message.msgstrPlural.length;
      if (count === nplurals) return [];
      return [
        `the entry has ${count} plural form${count === 1 ? "" : "s"} (msgstr[0]…msgstr[${
          count - 1
        }]) but the ` +
        `header says nplurals=${nplurals}: give exactly ${nplurals}`,
      ];
    },
  },
];
