/**
 * Patent numbers as people type them (`TWI123456B`, `TW I123456`, `US 2023/0081319 A1`,
 * `US9,492,454 B2`, `EP 1 818 058 A3`, `JP2003-055224A`) → the forms GPSS stores, and the database
 * a number's country and kind code point to.
 *
 * What GPSS stores (§2.4, §3.6): country + number + kind, no spaces; US grants zero-padded to 8
 * digits (`US09415051B1`), US designs to 7 after the `D` (`USD0987654S`), US publications as
 * year + 7 digits (`US20230081319A1`), JP publications with a hyphen after the year
 * (`JP2003-55224A`), Taiwanese grants with their series letter (`TWI…B`, `TWM…U`, `TWD…S`). GPSS also
 * answers some other spellings (a PN query for `JP2003055224A` found `JP2003-55224A`), so a
 * number is looked up under every spelling made here at once (`a or b`), at most
 * {@link MAX_VARIANTS}.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import type { DatabaseCode } from "./codes.ts";

/** A number read from what a caller typed. */
export interface PatentNumber {
  /** As typed (trimmed). */
  input: string;
  /** Two-letter country (or `WO`, `EP`) in upper case. */
  country: string;
  /** The number proper, without country and kind (`I123456`, `20230081319`, `09492454`). */
  serial: string;
  /** The kind code (`A`, `B1`, `U`, …), or null when none was typed. */
  kind: string | null;
  /** The spellings looked up, the normalised one first. */
  variants: string[];
  /** The databases the country and kind point to; empty = every database. */
  databases: DatabaseCode[];
}

/** Longest number accepted, in characters (the longest real ones have about 20). */
export const MAX_NUMBER_LENGTH = 40;

/** Most spellings of one number sent upstream. */
export const MAX_VARIANTS = 4;

/** Countries with their own databases: kind letter → database (A publication, B grant, S design). */
const DATABASE_BY_KIND: Readonly<Record<string, Readonly<Record<string, DatabaseCode>>>> = {
  TW: { A: "TWA", B: "TWB", U: "TWB", S: "TWD" },
  US: { A: "USA", B: "USB", E: "USB", S: "USD" },
  JP: { A: "JPA", B: "JPB", S: "JPD" },
  EP: { A: "EPA", B: "EPB" },
  KR: { A: "KPA", B: "KPB", S: "KPD" },
  CN: { A: "CNA", B: "CNB", C: "CNB", U: "CNB", Y: "CNB", S: "CND" },
};

const KIND_RE = /([A-Z]\d?)$/;

/**
 * Reads a patent (publication or application) number in the forms users type.
 *
 * @throws {InvalidInputError} for an empty or over-long number, or one that does not start with a
 * two-letter country code followed by digits.
 * @example
 * ```ts
 * parsePatentNumber("TW I123456 B").variants; // ["TWI123456B"]
 * parsePatentNumber("US9,492,454 B2").variants[0]; // "US09492454B2"
 * parsePatentNumber("US 2023/0081319 A1").databases; // ["USA"]
 * ```
 */
export function parsePatentNumber(input: string): PatentNumber {
  const typed = input.trim();
  if (typed === "") throw new InvalidInputError("number must not be empty");
  if (typed.length > MAX_NUMBER_LENGTH) {
    throw new InvalidInputError(
      `number has ${typed.length} characters, more than the ${MAX_NUMBER_LENGTH} accepted`,
    );
  }
  // Spaces, commas, slashes, dots and hyphens are how people group digits: GPSS stores none (but
  // JP's year hyphen, which is put back below).
  const compact = typed.toUpperCase().replace(/[\s,./\-_]/g, "");
  const m = /^([A-Z]{2})([A-Z]?\d[0-9A-Z]*)$/.exec(compact);
  if (!m) {
    throw new InvalidInputError(
      `${
        JSON.stringify(typed)
      } is not a patent number: expected a country code and digits with an optional ` +
        "kind code, like TWI123456B, US20230081319A1 or JP2003-055224A",
    );
  }
  const country = m[1]!; // the regex's groups take part in every match
  let rest = m[2]!;
  let kind: string | null = null;
  const k = KIND_RE.exec(rest);
  // A kind code follows the digits; TW's leading series letter (I, M, D) and US's D are not one.
  if (k && k.index > 0 && /\d/.test(rest[k.index - 1]!)) {
    kind = k[1]!;
    rest = rest.slice(0, k.index);
  }
  if (!/^[A-Z]?\d+$/.test(rest)) {
    throw new InvalidInputError(`${JSON.stringify(typed)} is not a patent number: letters inside the digits`);
  }
  const serials = serialVariants(country, rest);
  const variants: string[] = [];
  for (const serial of serials) {
    const v = `${country}${serial}${kind ?? ""}`;
    if (!variants.includes(v) && variants.length < MAX_VARIANTS) variants.push(v);
  }
  return {
    input: typed,
    country,
    serial: serials[0] ?? rest,
    kind,
    variants,
    databases: databasesOf(country, rest, kind),
  };
}

/** The spellings of a number proper, the one GPSS stores first. */
function serialVariants(country: string, serial: string): string[] {
  if (country === "US") {
    if (/^D\d+$/.test(serial)) return [`D${serial.slice(1).padStart(7, "0")}`, serial];
    if (/^\d{1,8}$/.test(serial)) return [serial.padStart(8, "0"), serial.replace(/^0+(?=\d)/, "")];
    // 2023/81319 typed without the zeros: year + 7 digits.
    if (/^(19|20)\d{2}\d{1,7}$/.test(serial) && serial.length < 11) {
      return [serial.slice(0, 4) + serial.slice(4).padStart(7, "0"), serial];
    }
    return [serial];
  }
  if (country === "JP" && /^(19|20)\d{2}\d{1,6}$/.test(serial)) {
    // JP2003-55224A is stored with a hyphen and no leading zeros after the year (§3.6).
    const year = serial.slice(0, 4);
    const tail = serial.slice(4).replace(/^0+(?=\d)/, "");
    return [`${year}-${tail}`, `${year}${tail.padStart(6, "0")}`];
  }
  return [serial];
}

function databasesOf(country: string, serial: string, kind: string | null): DatabaseCode[] {
  if (country === "WO") return ["WO"];
  const table = DATABASE_BY_KIND[country];
  if (table === undefined) return [];
  if (kind !== null) {
    const db = table[kind[0]!];
    return db === undefined ? [] : [db];
  }
  // Without a kind code, the number's own form may still tell.
  if (country === "TW") {
    if (serial.startsWith("D")) return ["TWD"];
    if (/^[IM]/.test(serial)) return ["TWB"];
  }
  if (country === "US" && serial.startsWith("D")) return ["USD"];
  return [];
}
