/**
 * One patent by its number (`get_patent`): the number read in the forms users type
 * ({@link parsePatentNumber}), looked up as a publication or an application number in the
 * databases its country and kind point to, and its long texts (abstract, claims) cut to
 * `maxChars` so a caller controls the size of what it reads.
 *
 * @module
 */
import { NotFoundError } from "../errors.ts";
import type { SearchOutcome, SearchSuccess } from "./client.ts";
import { parsePatentNumber, type PatentNumber } from "./number.ts";
import type { RequestParams, SearchRequest } from "./query.ts";
import type { PatentRecord } from "./response.ts";
import { OUTPUT_SECTIONS, type OutputSection } from "./sections.ts";

/** A `get_patent` request. */
export interface PatentRequest {
  /** A publication or application number (`TWI123456B`, `US 2023/0081319 A1`, `TW105131793`). */
  number: string;
  /** Extra sections; default all of {@link OUTPUT_SECTIONS}. */
  fields?: readonly OutputSection[];
  /** Most characters of abstract and claims text together; default {@link DEFAULT_MAX_CHARS}. */
  maxChars?: number;
}

/** Default of {@link PatentRequest.maxChars}. */
export const DEFAULT_MAX_CHARS = 20_000;

/** Largest {@link PatentRequest.maxChars}. */
export const MAX_MAX_CHARS = 500_000;

/** Records asked for per look-up: a number can match a few (JP era prefixes, A1 + A2: §3.6). */
const LOOKUP_RECORDS = 10;

/** What was cut to fit `maxChars`. */
export interface Truncation {
  /** Characters of abstract and claims text left out. */
  omitted_chars: number;
  /** Claims left out whole (after the text budget ran out). */
  omitted_claims: number;
}

/** A patent found by number. */
export interface PatentFound {
  success: true;
  /** The record (its texts cut to `max_chars`). */
  patent: PatentRecord;
  /** Whether the number matched the publication or the application number. */
  matched_as: "publication" | "application";
  /** Other records the look-up returned (e.g. `JPS5725786B2` for `JP5725786B2`): their numbers. */
  other_matches: string[];
  /** The number as read: the spellings looked up and the databases searched. */
  normalized: { variants: string[]; databases: string[] };
  /** Null when nothing was cut. */
  truncated: Truncation | null;
  request_params: RequestParams;
  error: null;
}

/** A look-up that failed for a known upstream reason (in-band, as search_patents reports them). */
export interface PatentFailure {
  success: false;
  patent: null;
  request_params: RequestParams;
  error: string;
}

/** Anything with the client's `search`. */
export interface PatentSearcher {
  search(request: SearchRequest): Promise<SearchOutcome>;
}

/**
 * The search that looks a number up: every spelling of it OR-ed (`a or b`) in `PN`, and in `AN`
 * too when no kind code says it is a publication, in the databases its country and kind point to.
 */
export function lookupRequest(number: PatentNumber, fields: readonly OutputSection[]): SearchRequest {
  return {
    keywords: number.variants.join(" or "),
    searchFields: number.kind === null ? ["patent_number", "application_number"] : ["patent_number"],
    databases: number.databases,
    maxResults: LOOKUP_RECORDS,
    fields,
  };
}

/** A number as compared: upper case, no spaces or hyphens (GPSS writes JP's year hyphen). */
function plain(number: string): string {
  return number.replace(/[\s-]/g, "").toUpperCase();
}

/** True when GPSS stores `stored` under one of the number's spellings. */
function matches(stored: string | null, number: PatentNumber): boolean {
  return stored !== null && number.variants.some((v) => plain(v) === plain(stored));
}

/** Without the kind code: `TW105131793` is the application of `TW105131793A`'s family. */
function matchesWithoutKind(stored: string | null, number: PatentNumber): boolean {
  if (stored === null) return false;
  const bare = plain(stored).replace(/[A-Z]\d?$/, "");
  return number.variants.some((v) => plain(v) === bare);
}

/**
 * Cuts the abstract and the claims of `record` so their text holds at most `maxChars` characters
 * in all: abstract paragraphs first, then claims in order; the paragraph or claim that crosses the
 * limit is cut with `…`, the claims after it are left out and counted.
 *
 * @example
 * ```ts
 * capText({ ...record, abstract: ["x".repeat(50)] }, 10).truncated; // { omitted_chars: 40, omitted_claims: 0 }
 * ```
 */
export function capText(
  record: PatentRecord,
  maxChars: number,
): { patent: PatentRecord; truncated: Truncation | null } {
  let left = maxChars;
  let omittedChars = 0;
  let omittedClaims = 0;
  const cut = (text: string): string => {
    if (text.length <= left) {
      left -= text.length;
      return text;
    }
    const kept = Math.max(0, left);
    omittedChars += text.length - kept;
    left = 0;
    return kept === 0 ? "" : `${text.slice(0, kept)}…`;
  };
  const abstract = record.abstract.map(cut).filter((p) => p !== "");
  let claims = record.claims;
  if (claims !== undefined) {
    const kept: typeof claims = [];
    for (const claim of claims) {
      if (left <= 0) {
        omittedClaims++;
        omittedChars += claim.text.length;
        continue;
      }
      kept.push({ ...claim, text: cut(claim.text) });
    }
    claims = kept;
  }
  const patent: PatentRecord = { ...record, abstract, ...(claims !== undefined ? { claims } : {}) };
  return {
    patent,
    truncated: omittedChars === 0 && omittedClaims === 0
      ? null
      : { omitted_chars: omittedChars, omitted_claims: omittedClaims },
  };
}

/**
 * Finds one patent by its number.
 *
 * @throws {InvalidInputError} for a number that cannot be read (see {@link parsePatentNumber}).
 * @throws {NotFoundError} when GPSS has no record under any spelling of it (its message names the
 * numbers GPSS answered instead, if any).
 * @example
 * ```ts
 * const found = await getPatent(gpss, { number: "TW I800001 B", fields: ["claims"], maxChars: 5000 });
 * ```
 */
export async function getPatent(
  gpss: PatentSearcher,
  req: PatentRequest,
): Promise<PatentFound | PatentFailure> {
  const number = parsePatentNumber(req.number);
  const fields = req.fields ?? OUTPUT_SECTIONS;
  const outcome = await gpss.search(lookupRequest(number, fields));
  if (!outcome.success) {
    return { success: false, patent: null, request_params: outcome.request_params, error: outcome.error };
  }
  const { record, matchedAs } = pick(outcome, number);
  if (record === null) {
    const others = outcome.data.records.map((r) => r.patent_number ?? "").filter((n) => n !== "");
    throw new NotFoundError(
      `No patent numbered ${JSON.stringify(number.input)} in GPSS: looked up ${
        number.variants.join(", ")
      } as a ` +
        `${number.kind === null ? "publication or application" : "publication"} number in ${
          number.databases.length === 0 ? "every database" : number.databases.join(", ")
        }` +
        (others.length === 0
          ? "."
          : `; GPSS answered only other numbers (${others.length}): ${
            others.join(", ")
          } (look one of them up by its number if it is the one meant).`),
    );
  }
  const { patent, truncated } = capText(record, req.maxChars ?? DEFAULT_MAX_CHARS);
  return {
    success: true,
    patent,
    matched_as: matchedAs,
    other_matches: outcome.data.records.filter((r) => r !== record).map((r) => r.patent_number ?? "")
      .filter((n) => n !== ""),
    normalized: { variants: number.variants, databases: number.databases },
    truncated,
    request_params: outcome.request_params,
    error: null,
  };
}

/**
 * The record the number names: a publication match (any of the number's spellings; without a kind
 * code, any kind), then an application match; null when no record has the number asked for (GPSS
 * may answer a look-up with other records: they are never taken for it).
 */
function pick(
  outcome: SearchSuccess,
  number: PatentNumber,
): { record: PatentRecord | null; matchedAs: "publication" | "application" } {
  const records = outcome.data.records;
  const byPublication = records.find((r) => matches(r.patent_number, number)) ??
    (number.kind === null ? records.find((r) => matchesWithoutKind(r.patent_number, number)) : undefined);
  if (byPublication) return { record: byPublication, matchedAs: "publication" };
  const byApplication = records.find((r) => matches(r.application_number, number));
  if (byApplication) return { record: byApplication, matchedAs: "application" };
  return { record: null, matchedAs: "publication" };
}
