/**
 * GPSS response bodies (JSON or XML) → {@link PatentRecord}s, and the in-band messages GPSS sends
 * instead of records.
 *
 * Both formats go through the same path: the XML is parsed by a small, safe parser of our own (no
 * DTD, no entity expansion beyond the five predefined entities and numeric references, bounded
 * depth) and turned into the same shape GPSS's JSON has (attributes as `@name` keys, repeated
 * elements as arrays, single ones as a bare value). The JSON is parsed strictly first and, only
 * when that fails, by a lenient reader that repairs GPSS's two known defects (§3.4: unescaped
 * backslashes, a missing comma between members) and tells a truncated body (it ends inside a
 * value) from a malformed one.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { boundedExcerpt, type ExcerptFrom } from "./_excerpt.ts";
import { parseGpssJson } from "./gpss_json.ts";
import { GpssResponseError } from "./response_error.ts";
import { parseXml, xmlToJsonShape } from "./xml.ts";
import { type OutputSection, type PatentSections, sectionsFromGpss } from "./sections.ts";
import { asList, collectTexts, get, isObj, MAX_NESTING_DEPTH, type Obj, textOf, textsOf } from "./_shape.ts";

export { MAX_NESTING_DEPTH };
export * from "./response_error.ts";
export { parseGpssJson } from "./gpss_json.ts";
export { parseXml, type XmlElement, xmlToJsonShape } from "./xml.ts";

/** A person or organisation named on a patent (applicant or inventor). */
export interface PatentParty {
  name: string | null;
  english_name: string | null;
  country_code: string | null;
}

/**
 * One patent, as this service reports it. Absent sections are `null` / `[]`; dates as GPSS gives
 * them. The extra sections ({@link PatentSections}) are present only when asked for.
 */
export interface PatentRecord extends PatentSections {
  /** Publication / announcement number as GPSS stores it (e.g. `US09415051B1`, `JP2003-55224A`). */
  patent_number: string | null;
  publication_date: string | null;
  application_number: string | null;
  application_date: string | null;
  /** Title in the original language. */
  title: string | null;
  english_title: string | null;
  /** Abstract paragraphs; TW/JP/CN records usually give `[native, English]`. */
  abstract: string[];
  applicants: PatentParty[];
  inventors: PatentParty[];
  ipc: string[];
  cpc: string[];
  /** The record's `@database` attribute (e.g. `TWA`), when present. */
  database: string | null;
}

/** A body GPSS sent instead of records: `message` (maybe empty) and `status` as given. */
export interface GpssMessageResponse {
  kind: "message";
  format: "json" | "xml";
  status: string | null;
  message: string;
}

/** A body with records. `totalCount` from `total-rec` (else the record count). */
export interface GpssRecordsResponse {
  kind: "records";
  format: "json" | "xml";
  status: string | null;
  totalCount: number;
  /** `total-rec` as sent, or null when the body had none (`totalCount` is then the record count). */
  declaredTotal: number | null;
  /** `qty-rec` as sent (may echo `expQty` rather than count the records: §3.1); informational only. */
  qtyRec: number | null;
  records: PatentRecord[];
}

/** What {@link parseGpssResponse} makes of a body. */
export type GpssResponse = GpssMessageResponse | GpssRecordsResponse;

/**
 * Most JSON objects and arrays accepted in one body, counted as `{` and `[` characters before
 * parsing (those inside strings too, so this errs on the side of counting more). A record has
 * about 30; 16 MiB of `{},` would be 5.6 million objects: 4 s of `JSON.parse` and 600 MB.
 */
export const MAX_JSON_CONTAINERS = 250_000;

/** True when `text` holds more than `max` `{` and `[` characters (stops counting there). */
function hasMoreContainers(text: string, max: number): boolean {
  let count = 0;
  for (const open of ["{", "["]) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) {
      if (++count > max) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Envelope and records
// ---------------------------------------------------------------------------------------------

function partiesOf(parties: unknown, group: string, item: string): PatentParty[] {
  const out: PatentParty[] = [];
  for (const g of asList(get(parties, group))) {
    const members = isObj(g) && get(g, item) !== undefined ? asList(get(g, item)) : asList(g);
    for (const m of members) {
      const party: PatentParty = isObj(m) && textOf(get(m, "#text")) === null
        ? {
          name: textOf(get(m, "name")),
          english_name: textOf(get(m, "english-name")),
          country_code: textOf(get(m, "country-code")),
        }
        : { name: textOf(m), english_name: null, country_code: null };
      if (party.name !== null || party.english_name !== null) out.push(party);
    }
  }
  return out;
}

function classificationsOf(rec: Obj, section: string, item: string): string[] {
  const out: string[] = [];
  for (const sec of asList(get(rec, section))) {
    const items = isObj(sec) && get(sec, item) !== undefined ? get(sec, item) : sec;
    collectTexts(items, out);
  }
  return out;
}

/**
 * One GPSS `patentcontent` item (JSON shape) → a {@link PatentRecord}. Tolerates single items in
 * place of lists, text as a string, a list or `{"#text"}`, and missing sections.
 *
 * @example
 * ```ts
 * recordFromGpss({ "publication-reference": { "doc-number": "TWI1", date: "20230101" } }).patent_number; // "TWI1"
 * ```
 */
export function recordFromGpss(rec: unknown, sections: readonly OutputSection[] = []): PatentRecord {
  const r: Obj = isObj(rec) ? rec : {};
  const pub = get(r, "publication-reference");
  const app = get(r, "application-reference");
  const title = get(r, "patent-title");
  const abs = get(r, "abstract");
  const parties = get(r, "parties");
  const titleIsText = !isObj(title) || textOf(get(title, "#text")) !== null;
  return {
    patent_number: textOf(get(pub, "doc-number")),
    publication_date: textOf(get(pub, "date")),
    application_number: textOf(get(app, "doc-number")),
    application_date: textOf(get(app, "date")),
    title: titleIsText ? textOf(title) : textOf(get(title, "title")),
    english_title: titleIsText ? null : textOf(get(title, "english-title")),
    abstract: isObj(abs) && get(abs, "p") !== undefined ? textsOf(get(abs, "p")) : textsOf(abs),
    applicants: partiesOf(parties, "applicants", "applicant"),
    inventors: partiesOf(parties, "inventors", "inventor"),
    ipc: classificationsOf(r, "classifications-ipc", "ipc"),
    cpc: classificationsOf(r, "classifications-cpc", "cpc"),
    database: textOf(get(r, "@database")),
    ...(sections.length > 0 ? sectionsFromGpss(r, sections) : {}),
  };
}

function countOf(v: unknown): number | null {
  const t = textOf(v);
  if (t === null || !/^\d+$/.test(t)) return null;
  return Number(t);
}

function envelopeOf(doc: unknown): Obj | null {
  const inner = get(doc, "gpss-API");
  if (isObj(inner)) return inner;
  if (isObj(doc) && ["status", "message", "total-rec", "patent"].some((k) => get(doc, k) !== undefined)) {
    return doc;
  }
  return null;
}

/**
 * A short, single-line excerpt of a body for error messages: whitespace runs collapsed, control
 * characters replaced by U+FFFD, at most `max` characters from the start, the end, or both ends
 * (`head…tail`). Only a bounded window of `body` is read, so this costs the same for any size.
 *
 * @example
 * ```ts
 * excerpt("usage:\n  x", 200); // "usage: x"
 * ```
 */
export function excerpt(body: string, max = 200, from: ExcerptFrom = "start"): string {
  return boundedExcerpt(body, max, from);
}

/**
 * Reads a GPSS body, JSON or XML (recognised by its first character, whatever was requested).
 * A `message` in the envelope wins over everything else (§4.1) and gives a `message` result;
 * otherwise the records are normalised with {@link recordFromGpss}. A `status` other than
 * `success` without a message gives a `message` result with an empty message.
 *
 * `options.sections` are the extra sections read into each record (see `sections.ts`).
 * At most `options.maxRecords` records are read (default: all): GPSS sends no more than `expQty`,
 * and a body that does is not allowed to make the answer grow past what was asked for.
 *
 * @throws {GpssResponseError} `empty`, `truncated`, `malformed` or `unrecognized` (see
 * {@link GpssResponseErrorKind}).
 * @example
 * ```ts
 * parseGpssResponse('{"gpss-API":{"status":"success","message":"No record found"}}');
 * // { kind: "message", format: "json", status: "success", message: "No record found" }
 * ```
 */
export function parseGpssResponse(
  body: string,
  options: { maxRecords?: number; sections?: readonly OutputSection[] } = {},
): GpssResponse {
  const trimmed = body.replace(/^[\uFEFF\s]+/, "");
  if (trimmed === "") throw new GpssResponseError("empty", "GPSS sent an empty body");
  let doc: unknown;
  let format: "json" | "xml";
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    format = "json";
    if (hasMoreContainers(trimmed, MAX_JSON_CONTAINERS)) {
      throw new GpssResponseError(
        "malformed",
        `JSON has more than ${MAX_JSON_CONTAINERS} objects and arrays`,
      );
    }
    doc = parseGpssJson(trimmed);
  } else if (trimmed[0] === "<" && !/^<(?:!doctype\s+html|html[\s>])/i.test(trimmed)) {
    format = "xml";
    const root = parseXml(trimmed);
    doc = { [root.name]: xmlToJsonShape(root) };
  } else {
    throw new GpssResponseError(
      "unrecognized",
      `not GPSS JSON or XML: ${JSON.stringify(excerpt(trimmed, 60))}`,
    );
  }
  const env = envelopeOf(doc);
  if (env === null) {
    throw new GpssResponseError(
      "unrecognized",
      `no gpss-API envelope in the ${format.toUpperCase()} body: ${JSON.stringify(excerpt(trimmed, 60))}`,
    );
  }
  const status = textOf(get(env, "status"));
  const message = textOf(get(env, "message"));
  if (message !== null) return { kind: "message", format, status, message };
  if (status !== null && status.toLowerCase() !== "success") {
    return { kind: "message", format, status, message: "" };
  }
  // Loops, not push(...list): spreading a list of a few hundred thousand items overflows the stack.
  const maxRecords = options.maxRecords ?? Infinity;
  const records: PatentRecord[] = [];
  let items = 0;
  const take = (list: unknown[]) => {
    for (const item of list) {
      if (!isObj(item)) continue;
      items++;
      if (records.length < maxRecords) records.push(recordFromGpss(item, options.sections));
    }
  };
  for (const p of asList(get(env, "patent"))) {
    take(asList(isObj(p) && get(p, "patentcontent") !== undefined ? get(p, "patentcontent") : p));
  }
  take(asList(get(env, "patentcontent")));
  return {
    kind: "records",
    format,
    status,
    totalCount: countOf(get(env, "total-rec")) ?? items,
    declaredTotal: countOf(get(env, "total-rec")),
    qtyRec: countOf(get(env, "qty-rec")),
    records,
  };
}
