/**
 * Catalogue-level checks on the header: `Plural-Forms` valid (as msgfmt -c evaluates it), present
 * when the catalogue has plural entries, every plural entry with exactly `nplurals` forms, and a
 * declared charset.
 *
 * @module
 */
import type { PoCatalog, PoMessage } from "../types.ts";
import { parsePluralForms, pluralDistribution, type PluralForms } from "./_plural.ts";
import type { EntryCheck } from "./_types.ts";

/** The header message (msgid "" without context, not obsolete), or null. */
export function headerOf(catalog: PoCatalog): PoMessage | null {
  for (const m of catalog.messages) {
    if (m.msgid === "" && m.msgctxt === null && !m.obsolete) return m;
  }
  return null;
}

/** One header field's value (the last line `Name: value` with that name), or null. */
export function headerField(header: PoMessage | null, name: string): string | null {
  if (header === null) return null;
  let found: string | null = null;
  const lower = name.toLowerCase() + ":";
  for (const line of header.msgstr.split("\n")) {
    if (line.toLowerCase().startsWith(lower)) found = line.slice(lower.length).trim();
  }
  return found;
}

/** What the catalogue's header says about plural forms, read once per check run. */
export interface PluralInfo {
  forms: PluralForms;
  /** msgfmt's complaint about a valid expression (division by zero, values ≥ nplurals), or null. */
  problem: string | null;
  often: boolean[];
  histogram: ((min: number, max: number, form: number) => number) | null;
}

/** Reads and evaluates the header's Plural-Forms. */
export function pluralInfo(header: PoMessage | null): PluralInfo {
  const forms = parsePluralForms(headerField(header, "Plural-Forms"));
  if (!forms.ok) return { forms, problem: null, often: [], histogram: null };
  const d = pluralDistribution(forms);
  return { forms, problem: d.problem, often: d.often, histogram: d.histogram };
}

/** A catalogue-level problem: its check and message. */
export interface HeaderFinding {
  check: string;
  message: string;
}

/**
 * The header's own problems. `pluralLine` is the line of the first plural entry checked (or
 * null when there is none): Plural-Forms matters then even when it is merely absent.
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
    const present = headerField(header, "Plural-Forms") !== null;
    if (!info.forms.ok && (present || firstPlural !== null)) {
      out.push({
        check: "plural-forms",
        message:
          `${info.forms.reason}${
            firstPlural !== null ? ` but the catalogue has plural entries (${firstPlural})` : ""
          }: ` +
          `set it for the language, e.g. "nplurals=2; plural=(n != 1);"`,
      });
    } else if (info.problem !== null) {
      out.push({ check: "plural-forms", message: `Plural-Forms: ${info.problem}` });
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
