/**
 * The catalogue header (the entry with msgid "" and no context) as fields: read them in order,
 * set or remove some, validate `Plural-Forms` as gettext does, and stamp `PO-Revision-Date`.
 *
 * An update keeps every line it does not change exactly as it was (spacing, case of the name,
 * unknown lines), so the file is written with msgcat's layout and a diff shows only the changed
 * fields. A new field goes where `msgmerge` would put it (after the known fields that precede it
 * in gettext's order), an unknown one at the end.
 *
 * @module
 */
import { InvalidInputError } from "../../errors.ts";
import { evaluatePlural, parsePluralExpression, type PluralExpression } from "./_plural_forms.ts";
import { NEW_CATALOG_HEADER } from "./apply_write.ts";
import { EMPTY_MESSAGE, isHeader, type PoCatalog, type PoMessage } from "../types.ts";
import { canonicalCatalog } from "../write/canonical.ts";
import { catalogCharset } from "../charsets/_output_charset.ts";

/** One line of the header: `Name: value` (name "" for a line without a colon, kept as its value). */
export interface HeaderField {
  name: string;
  value: string;
}

/** The header as {@link readHeader} gives it. */
export interface HeaderInfo {
  /** False when the catalogue has no header entry (then `fields` is empty). */
  present: boolean;
  /** Every line of the header's msgstr, in order. */
  fields: HeaderField[];
  /** True when the header entry is flagged fuzzy (as a fresh template's is). */
  fuzzy: boolean;
  /** `nplurals` of a valid Plural-Forms field, else null. */
  nplurals: number | null;
  /** Why the Plural-Forms field is invalid (as msgfmt would say), or null (valid or absent). */
  pluralFormsProblem: string | null;
}

/**
 * The known header fields in the order msgmerge writes them (msgmerge.c, `known_fields`), then
 * Plural-Forms, which msginit and xgettext put after them.
 */
export const HEADER_FIELD_ORDER: readonly string[] = [
  "Project-Id-Version",
  "Report-Msgid-Bugs-To",
  "POT-Creation-Date",
  "PO-Revision-Date",
  "Last-Translator",
  "Language-Team",
  "Language",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "Plural-Forms",
];

/** Most fields one update may name. */
export const MAX_HEADER_UPDATES = 64;

/** Longest value one field may be given. */
export const MAX_HEADER_VALUE_CHARS = 4096;

/**
 * True for the catalogue's own header: {@link isHeader}'s, in the default domain (a file with
 * `domain` sections has one header per domain; the one read and updated here is the default's).
 */
export function isDefaultDomainHeader(m: PoMessage): boolean {
  return isHeader(m) && m.domain === undefined;
}

/** The catalogue's header entry, or null. */
export function headerMessage(cat: PoCatalog): PoMessage | null {
  for (const m of cat.messages) if (isDefaultDomainHeader(m)) return m;
  return null;
}

/**
 * The header msgstr split into lines, each as a name and a value (the text after the colon and
 * the blanks after it).
 *
 * @example
 * ```ts
 * parseHeaderFields("Language: fr\nX-Generator: Poedit\n");
 * // [{ name: "Language", value: "fr" }, { name: "X-Generator", value: "Poedit" }]
 * ```
 */
export function parseHeaderFields(msgstr: string): HeaderField[] {
  return headerLines(msgstr).map(fieldOf);
}

function headerLines(msgstr: string): string[] {
  if (msgstr === "") return [];
  const lines = msgstr.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function fieldOf(line: string): HeaderField {
  const colon = line.indexOf(":");
  if (colon <= 0) return { name: "", value: line };
  let at = colon + 1;
  while (at < line.length && (line[at] === " " || line[at] === "\t")) at++;
  return { name: line.slice(0, colon), value: line.slice(at) };
}

/**
 * The header of a catalogue as fields, with the validity of its Plural-Forms.
 *
 * @example
 * ```ts
 * readHeader(parsePo(bytes)).fields.find((f) => f.name === "Language")?.value; // "fr"
 * ```
 */
export function readHeader(cat: PoCatalog): HeaderInfo {
  const header = headerMessage(cat);
  if (header === null) {
    return { present: false, fields: [], fuzzy: false, nplurals: null, pluralFormsProblem: null };
  }
  const fields = parseHeaderFields(header.msgstr);
  const plural = fields.find((f) => f.name.toLowerCase() === "plural-forms");
  const checked = plural === undefined ? null : checkPluralForms(plural.value);
  return {
    present: true,
    fields,
    fuzzy: header.flags.includes("fuzzy"),
    nplurals: checked !== null && typeof checked !== "string" ? checked.nplurals : null,
    pluralFormsProblem: typeof checked === "string" ? checked : null,
  };
}

/** A valid Plural-Forms value, parsed. */
export interface PluralForms {
  nplurals: number;
  plural: PluralExpression;
}

/**
 * Checks a Plural-Forms value as msgfmt does (msgl-check.c, `check_plural`): `nplurals=` a
 * positive number, `plural=` an expression gettext can parse, whose values for n = 0…1000 are
 * below nplurals and never a division by zero.
 *
 * @returns the parsed forms, or a message saying what is wrong.
 * @example
 * ```ts
 * checkPluralForms("nplurals=2; plural=(n > 1);"); // { nplurals: 2, plural: … }
 * checkPluralForms("nplurals=1; plural=n != 1;"); // "nplurals = 1 but plural expression can produce values as large as 1"
 * ```
 */
export function checkPluralForms(value: string): PluralForms | string {
  const nAt = value.indexOf("nplurals=");
  const pAt = value.indexOf("plural=");
  if (nAt < 0) return 'Plural-Forms has no "nplurals=" (expected e.g. "nplurals=2; plural=(n != 1);")';
  if (pAt < 0) return 'Plural-Forms has no "plural=" (expected e.g. "nplurals=2; plural=(n != 1);")';
  let at = nAt + 9;
  while (at < value.length && /\s/.test(value[at]!)) at++;
  let end = at;
  while (end < value.length && value[end]! >= "0" && value[end]! <= "9") end++;
  if (end === at) return 'Plural-Forms: "nplurals=" is not followed by a number';
  const nplurals = Number(value.slice(at, end));
  if (nplurals === 0) return "Plural-Forms: nplurals must be at least 1";
  if (!Number.isSafeInteger(nplurals) || nplurals > 1000) {
    return `Plural-Forms: nplurals = ${value.slice(at, end)} is not a plausible number of forms`;
  }
  const plural = parsePluralExpression(value, pAt + 7);
  if (typeof plural === "string") return `Plural-Forms: invalid plural expression (${plural})`;
  for (let n = 0n; n <= 1000n; n++) {
    const v = evaluatePlural(plural, n);
    if (v === null) return "Plural-Forms: plural expression can produce division by zero";
    if (BigInt.asIntN(64, v) < 0n) return "Plural-Forms: plural expression can produce negative values";
    if (v >= BigInt(nplurals)) {
      return `Plural-Forms: nplurals = ${nplurals} but plural expression can produce values as large as ${v}`;
    }
  }
  return { nplurals, plural };
}

/** What {@link updateHeader} changes. */
export interface HeaderUpdate {
  /** Field name → new value, or null to remove the field. Names match case-insensitively. */
  set?: Readonly<Record<string, string | null>>;
  /** When given, PO-Revision-Date is set to this time (after `set`). */
  stampRevisionDate?: Date;
}

/** What {@link updateHeader} returns. */
export interface HeaderUpdateResult {
  catalog: PoCatalog;
  /** Names of the fields set, added or removed, as written. */
  changed: string[];
}

/**
 * `date` as gettext writes PO-Revision-Date (`YYYY-MM-DD HH:MM+ZZZZ`), in UTC.
 *
 * @example
 * ```ts
 * revisionDate(new Date("2026-11-25T12:30:00Z")); // "2026-11-25 12:30+0000"
 * ```
 */
export function revisionDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getUTCFullYear()}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())} ` +
    `${p(date.getUTCHours())}:${p(date.getUTCMinutes())}+0000`;
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/**
 * The catalogue with its header fields set or removed. Lines not named are kept byte for byte; a
 * field present several times is set in its first line and removed from the others. A catalogue
 * without a header gets one ({@link NEW_CATALOG_HEADER}) first.
 *
 * @throws {InvalidInputError} a field name that is not `Letters-digits-dashes`, a value with a
 *   newline, NUL or carriage return, an invalid Plural-Forms, a Content-Type that changes the
 *   charset (a conversion, which is msgconv's job, not a header edit), too many or too long values.
 * @example
 * ```ts
 * const { catalog } = updateHeader(cat, { set: { Language: "fr", "X-Generator": null } });
 * ```
 */
export function updateHeader(cat: PoCatalog, update: HeaderUpdate): HeaderUpdateResult {
  const changes = new Map<string, { name: string; value: string | null }>();
  const set = Object.entries(update.set ?? {});
  if (set.length > MAX_HEADER_UPDATES) {
    throw new InvalidInputError(
      `Too many header fields in one update: ${set.length} (at most ${MAX_HEADER_UPDATES})`,
    );
  }
  for (const [name, value] of set) {
    if (!FIELD_NAME.test(name)) {
      throw new InvalidInputError(
        `Invalid header field name ${JSON.stringify(name)}: expected letters, digits, "-", "_" or "." ` +
          '(e.g. "Language")',
      );
    }
    if (value !== null) checkValue(name, value);
    changes.set(name.toLowerCase(), { name, value });
  }
  if (update.stampRevisionDate) {
    changes.set("po-revision-date", {
      name: "PO-Revision-Date",
      value: revisionDate(update.stampRevisionDate),
    });
  }

  const header = headerMessage(cat);
  const lines = headerLines(header === null ? NEW_CATALOG_HEADER : header.msgstr);
  const endsWithNewline = header === null || header.msgstr === "" || header.msgstr.endsWith("\n");
  const out: string[] = [];
  const done = new Set<string>();
  const changed: string[] = [];
  for (const line of lines) {
    const key = fieldOf(line).name.toLowerCase();
    const change = key === "" ? undefined : changes.get(key);
    if (change === undefined) {
      out.push(line);
      continue;
    }
    if (done.has(key) || change.value === null) {
      changed.push(change.name);
      done.add(key);
      continue;
    }
    done.add(key);
    const name = fieldOf(line).name;
    const next = `${name}: ${change.value}`;
    if (next !== line) changed.push(name);
    out.push(next);
  }
  for (const [key, change] of changes) {
    if (done.has(key) || change.value === null) continue;
    // A known field is added with gettext's spelling, whatever case the request used.
    const name = HEADER_FIELD_ORDER.find((f) => f.toLowerCase() === key) ?? change.name;
    out.splice(insertionPoint(out, key), 0, `${name}: ${change.value}`);
    changed.push(name);
  }
  let msgstr = out.join("\n");
  if (out.length > 0 && (endsWithNewline || out.length > lines.length)) msgstr += "\n";

  const before = catalogCharset(cat);
  const nextHeader: PoMessage = header === null ? newHeader(msgstr) : { ...header, msgstr };
  const messages = header === null
    ? [nextHeader, ...cat.messages]
    : cat.messages.map((m) => m === header ? nextHeader : m);
  const next = canonicalCatalog({ ...cat, messages }, { forcePo: true });
  const after = catalogCharset(next);
  if (header !== null && after.canonical !== before.canonical) {
    throw new InvalidInputError(
      `Cannot change the charset from ${before.spelled ?? "none"} to ${
        after.spelled ?? "none"
      } in the header: ` +
        "that is a conversion of every entry (msgconv), not a header edit",
    );
  }
  return { catalog: next, changed };
}

function checkValue(name: string, value: string): void {
  if (value.length > MAX_HEADER_VALUE_CHARS) {
    throw new InvalidInputError(
      `Header field ${name} is too long: ${value.length} characters (at most ${MAX_HEADER_VALUE_CHARS})`,
    );
  }
  if (/[\n\r\0]/.test(value)) {
    throw new InvalidInputError(
      `Header field ${name} must be one line: its value holds a newline, CR or NUL`,
    );
  }
  if (name.toLowerCase() === "plural-forms") {
    const checked = checkPluralForms(value);
    if (typeof checked === "string") throw new InvalidInputError(checked);
  }
}

/** Where a new field `key` (lowercase) goes: after the last present field that precedes it in gettext's order. */
function insertionPoint(lines: readonly string[], key: string): number {
  const rank = HEADER_FIELD_ORDER.findIndex((f) => f.toLowerCase() === key);
  if (rank < 0) return lines.length;
  let at = -1;
  let firstLater = -1;
  lines.forEach((line, i) => {
    const r = HEADER_FIELD_ORDER.findIndex((f) => f.toLowerCase() === fieldOf(line).name.toLowerCase());
    if (r >= 0 && r < rank) at = i;
    if (r > rank && firstLater < 0) firstLater = i;
  });
  if (at >= 0) return at + 1;
  return firstLater >= 0 ? firstLater : lines.length;
}

function newHeader(msgstr: string): PoMessage {
  return { ...EMPTY_MESSAGE, msgstr };
}
