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
import { DomainError } from "../errors.ts";
import { boundedExcerpt, type ExcerptFrom } from "./_excerpt.ts";
import { type OutputSection, type PatentSections, sectionsFromGpss } from "./sections.ts";
import { asList, collectTexts, get, isObj, MAX_NESTING_DEPTH, type Obj, textOf, textsOf } from "./_shape.ts";

export { MAX_NESTING_DEPTH };

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
  /** `qty-rec` as sent (may echo `expQty` rather than count the records: §3.1); informational only. */
  qtyRec: number | null;
  records: PatentRecord[];
}

/** What {@link parseGpssResponse} makes of a body. */
export type GpssResponse = GpssMessageResponse | GpssRecordsResponse;

/**
 * Why a body could not be read:
 * `empty` (no bytes), `truncated` (ends inside a value: typical of a dropped keep-alive connection,
 * worth one retry), `malformed` (broken elsewhere), `unrecognized` (not GPSS JSON/XML at all, e.g.
 * the `usage:` stub or an HTML error page).
 */
export type GpssResponseErrorKind = "empty" | "truncated" | "malformed" | "unrecognized";

/** A GPSS body that cannot be read; `kind` says why, `offset` where (for truncated/malformed). */
export class GpssResponseError extends DomainError {
  readonly kind: GpssResponseErrorKind;
  readonly offset: number | null;
  constructor(kind: GpssResponseErrorKind, message: string, offset: number | null = null) {
    super(offset === null ? message : `${message} at offset ${offset}`);
    this.kind = kind;
    this.offset = offset;
  }
}

/**
 * Most XML elements, attributes and text nodes accepted in one body. A record has about 100
 * (more with long party or classification lists) and a search returns at most 500 records; the cap
 * keeps a hostile body of tiny elements (`<a/>` is 4 bytes, its object ~40 times more, and a
 * million of them take seconds) from costing far more than a real answer.
 */
export const MAX_XML_NODES = 250_000;

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

/** A name from the body, shortened for an error message. */
function clip(name: string): string {
  return name.length <= 40 ? name : `${name.slice(0, 40)}…`;
}

// ---------------------------------------------------------------------------------------------
// Lenient JSON
// ---------------------------------------------------------------------------------------------

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const VALUE_START = /["{[\-0-9tfn]/;

/** Repairs listed by the lenient reader (the rest are only counted). */
const MAX_LISTED_REPAIRS = 20;

/** Reads JSON that GPSS got slightly wrong (§3.4). The first repairs are listed in `repairs`. */
class LenientJsonReader {
  readonly repairs: string[] = [];
  repairCount = 0;
  #s: string;
  #i = 0;
  #depth = 0;

  constructor(s: string) {
    this.#s = s;
  }

  read(): unknown {
    const value = this.#value();
    this.#ws();
    if (this.#i < this.#s.length) this.#fail("unexpected text after the JSON value");
    return value;
  }

  #repaired(what: string): void {
    if (++this.repairCount <= MAX_LISTED_REPAIRS) this.repairs.push(what);
  }

  #fail(what: string): never {
    if (this.#i >= this.#s.length) throw new GpssResponseError("truncated", "JSON body ends early", this.#i);
    throw new GpssResponseError("malformed", `invalid JSON: ${what}`, this.#i);
  }

  #ws(): void {
    const s = this.#s;
    while (this.#i < s.length) {
      const c = s.charCodeAt(this.#i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) this.#i++;
      else break;
    }
  }

  #value(): unknown {
    this.#ws();
    const c = this.#s[this.#i];
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string();
    if (c === "t") return this.#literal("true", true);
    if (c === "f") return this.#literal("false", false);
    if (c === "n") return this.#literal("null", null);
    NUMBER_RE.lastIndex = this.#i;
    const m = NUMBER_RE.exec(this.#s);
    if (m) {
      this.#i += m[0].length;
      return Number(m[0]);
    }
    return this.#fail("expected a value");
  }

  #literal<T>(word: string, value: T): T {
    const got = this.#s.slice(this.#i, this.#i + word.length);
    if (got === word) {
      this.#i += word.length;
      return value;
    }
    if (word.startsWith(got) && this.#i + got.length >= this.#s.length) {
      this.#i = this.#s.length;
    }
    return this.#fail(`expected ${word}`);
  }

  #enter(): void {
    if (++this.#depth > MAX_NESTING_DEPTH) {
      throw new GpssResponseError(
        "malformed",
        `JSON nested deeper than ${MAX_NESTING_DEPTH} levels`,
        this.#i,
      );
    }
  }

  #object(): Record<string, unknown> {
    this.#enter();
    this.#i++; // {
    const out: Record<string, unknown> = {};
    this.#ws();
    if (this.#s[this.#i] === "}") {
      this.#i++;
      this.#depth--;
      return out;
    }
    for (;;) {
      this.#ws();
      if (this.#s[this.#i] !== '"') this.#fail("expected a member name");
      const key = this.#string();
      this.#ws();
      if (this.#s[this.#i] !== ":") this.#fail("expected ':'");
      this.#i++;
      const value = this.#value();
      // Assign with defineProperty so a "__proto__" key stays plain data.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.#ws();
      const c = this.#s[this.#i];
      if (c === ",") {
        this.#i++;
      } else if (c === "}") {
        this.#i++;
        this.#depth--;
        return out;
      } else if (c === '"') {
        // GPSS sometimes omits the comma between two members (JP records, before "f-term": §3.4).
        this.#repaired(`missing comma inserted at offset ${this.#i}`);
      } else {
        this.#fail("expected ',' or '}'");
      }
    }
  }

  #array(): unknown[] {
    this.#enter();
    this.#i++; // [
    const out: unknown[] = [];
    this.#ws();
    if (this.#s[this.#i] === "]") {
      this.#i++;
      this.#depth--;
      return out;
    }
    for (;;) {
      out.push(this.#value());
      this.#ws();
      const c = this.#s[this.#i];
      if (c === ",") {
        this.#i++;
      } else if (c === "]") {
        this.#i++;
        this.#depth--;
        return out;
      } else if (c !== undefined && VALUE_START.test(c)) {
        this.#repaired(`missing comma inserted at offset ${this.#i}`);
      } else {
        this.#fail("expected ',' or ']'");
      }
    }
  }

  #string(): string {
    const s = this.#s;
    this.#i++; // opening quote
    let out = "";
    for (;;) {
      let j = this.#i;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (c === 0x22 || c === 0x5c) break;
        j++;
      }
      out += s.slice(this.#i, j);
      if (j >= s.length) {
        this.#i = s.length;
        this.#fail("unterminated string");
      }
      if (s.charCodeAt(j) === 0x22) {
        this.#i = j + 1;
        return out;
      }
      // backslash
      const e = s[j + 1];
      if (e === undefined) {
        this.#i = s.length;
        this.#fail("unterminated string");
      }
      if (e === "u") {
        const hex = s.slice(j + 2, j + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          this.#i = j + 6;
          continue;
        }
        if (j + 2 + hex.length >= s.length && /^[0-9a-fA-F]*$/.test(hex)) {
          this.#i = s.length;
          this.#fail("unterminated string");
        }
      } else if (Object.hasOwn(JSON_ESCAPES, e)) {
        out += JSON_ESCAPES[e];
        this.#i = j + 2;
        continue;
      }
      // A backslash GPSS did not escape (e.g. "毫米波\太赫兹": §3.4) is kept as text.
      this.#repaired(`unescaped backslash kept at offset ${j}`);
      out += "\\";
      this.#i = j + 1;
    }
  }
}

/**
 * Parses JSON as GPSS sends it: strict `JSON.parse` first; on failure a lenient reader that keeps
 * unescaped backslashes as text, accepts raw control characters inside strings and inserts
 * missing commas between members/elements.
 *
 * @throws {GpssResponseError} `truncated` when the text ends inside a value, `malformed` otherwise.
 * @example
 * ```ts
 * parseGpssJson('{"t": "毫米波\\太赫兹"}'); // { t: "毫米波\\太赫兹" } (one backslash kept)
 * ```
 */
export function parseGpssJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return new LenientJsonReader(text).read();
}

// ---------------------------------------------------------------------------------------------
// Small safe XML
// ---------------------------------------------------------------------------------------------

/** An XML element: name, attributes, and children (elements and text, in document order). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const XML_NAME_RE = /[A-Za-z_:\u00C0-\uFFEF][-A-Za-z0-9_.:\u00B7\u00C0-\uFFEF]*/y;
const PREDEFINED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric references; anything else stays as written. */
function decodeXmlText(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const cp = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return whole;
      return String.fromCodePoint(cp);
    }
    return Object.hasOwn(PREDEFINED_ENTITIES, ref) ? PREDEFINED_ENTITIES[ref] : whole;
  });
}

/**
 * Parses an XML document into its root {@link XmlElement}. Refuses DTDs (`<!DOCTYPE`), so no
 * entity can be declared or expanded; decodes only `&lt; &gt; &amp; &quot; &apos;` and numeric
 * references; nesting is limited to {@link MAX_NESTING_DEPTH}.
 *
 * @throws {GpssResponseError} `truncated` when the document ends before the root element closes,
 * `malformed` for any other error (mismatched tags, a DTD, text outside the root, …).
 * @example
 * ```ts
 * parseXml("<a x='1'>b &amp; c</a>"); // { name: "a", attributes: { x: "1" }, children: ["b & c"] }
 * ```
 */
export function parseXml(text: string): XmlElement {
  const s = text;
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let nodes = 0;
  const counted = (): void => {
    if (++nodes > MAX_XML_NODES) {
      throw new GpssResponseError("malformed", `XML has more than ${MAX_XML_NODES} elements and texts`, i);
    }
  };

  const fail = (what: string): never => {
    if (i >= s.length) throw new GpssResponseError("truncated", "XML body ends early", i);
    throw new GpssResponseError("malformed", `invalid XML: ${what}`, i);
  };
  const name = (): string => {
    XML_NAME_RE.lastIndex = i;
    const m = XML_NAME_RE.exec(s);
    if (!m) return fail("expected a name");
    i += m[0].length;
    return m[0];
  };
  const ws = (): void => {
    for (
      let c = s.charCodeAt(i);
      c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
      c = s.charCodeAt(++i)
    );
  };
  const skipPast = (end: string, what: string): void => {
    const j = s.indexOf(end, i);
    if (j < 0) {
      i = s.length;
      fail(`unterminated ${what}`);
    }
    i = j + end.length;
  };

  while (i < s.length) {
    const lt = s.indexOf("<", i);
    const textEnd = lt < 0 ? s.length : lt;
    if (textEnd > i) {
      const chunk = s.slice(i, textEnd);
      if (stack.length > 0) {
        counted();
        stack[stack.length - 1].children.push(decodeXmlText(chunk));
      } else if (chunk.trim() !== "") fail("text outside the root element");
      i = textEnd;
      if (lt < 0) break;
    }
    if (s.startsWith("<!--", i)) {
      skipPast("-->", "comment");
    } else if (s.startsWith("<![CDATA[", i)) {
      if (stack.length === 0) fail("CDATA outside the root element");
      const j = s.indexOf("]]>", i + 9);
      if (j < 0) {
        i = s.length;
        fail("unterminated CDATA section");
      }
      counted();
      stack[stack.length - 1].children.push(s.slice(i + 9, j));
      i = j + 3;
    } else if (s.startsWith("<?", i)) {
      skipPast("?>", "processing instruction");
    } else if (s.startsWith("<!", i)) {
      fail("DTD declarations are not accepted");
    } else if (s[i + 1] === "/") {
      i += 2;
      const closing = name();
      ws();
      if (s[i] !== ">") fail("expected '>'");
      i++;
      const open = stack.pop();
      if (open === undefined) fail(`closing tag </${clip(closing)}> without an open element`);
      if (open!.name !== closing) fail(`</${clip(closing)}> closes <${clip(open!.name)}>`);
    } else {
      const tagStart = i++;
      counted();
      const el: XmlElement = { name: name(), attributes: {}, children: [] };
      for (;;) {
        const before = i;
        ws();
        if (s[i] === ">" || s[i] === "/") break;
        if (i >= s.length) fail("unterminated start tag");
        if (i === before) fail("expected whitespace before an attribute");
        const attr = name();
        counted();
        ws();
        if (s[i] !== "=") fail("expected '=' after an attribute name");
        i++;
        ws();
        const q = s[i];
        if (q !== '"' && q !== "'") fail("expected a quoted attribute value");
        const end = s.indexOf(q, i + 1);
        if (end < 0) {
          i = s.length;
          fail("unterminated attribute value");
        }
        const raw = s.slice(i + 1, end);
        if (raw.includes("<")) fail("'<' in an attribute value");
        Object.defineProperty(el.attributes, attr, {
          value: decodeXmlText(raw),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        i = end + 1;
      }
      const selfClosing = s[i] === "/";
      if (selfClosing) {
        i++;
        if (s[i] !== ">") fail("expected '>'");
      }
      i++;
      if (stack.length > 0) stack[stack.length - 1].children.push(el);
      else if (root !== null) {
        i = tagStart;
        fail("a second root element");
      } else root = el;
      if (!selfClosing) {
        if (stack.length >= MAX_NESTING_DEPTH) {
          throw new GpssResponseError("malformed", `XML nested deeper than ${MAX_NESTING_DEPTH} levels`, i);
        }
        stack.push(el);
      }
    }
  }
  if (stack.length > 0 || root === null) {
    i = s.length;
    fail(root === null ? "no root element" : `<${clip(stack[stack.length - 1].name)}> is not closed`);
  }
  return root!;
}

/**
 * The text of an element and its descendants, each element's computed once (`texts` memoises):
 * nested mixed content would otherwise be re-read at every level. Built with `+`, so V8 shares the
 * pieces instead of copying each level's text.
 */
function textContent(el: XmlElement, texts: Map<XmlElement, string>): string {
  const known = texts.get(el);
  if (known !== undefined) return known;
  let out = "";
  for (const c of el.children) out += typeof c === "string" ? c : textContent(c, texts);
  texts.set(el, out);
  return out;
}

/**
 * An {@link XmlElement} in GPSS's JSON shape: attributes become `@name` keys, child elements become
 * keys (an array when repeated, a bare value when single), a text-only element becomes its
 * string, and an element with both children and text keeps its full text in `#text`.
 *
 * @example
 * ```ts
 * xmlToJsonShape(parseXml("<p><q a='1'>x</q><q>y</q></p>")); // { q: [{ "@a": "1", "#text": "x" }, "y"] }
 * ```
 */
export function xmlToJsonShape(el: XmlElement): unknown {
  return jsonShape(el, new Map());
}

function jsonShape(el: XmlElement, texts: Map<XmlElement, string>): unknown {
  const elements = el.children.filter((c): c is XmlElement => typeof c !== "string");
  const attrs = Object.entries(el.attributes);
  if (elements.length === 0 && attrs.length === 0) return textContent(el, texts);
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of attrs) put(`@${k}`, v);
  const groups = new Map<string, unknown[]>();
  for (const child of elements) {
    const values = groups.get(child.name);
    if (values) values.push(jsonShape(child, texts));
    else groups.set(child.name, [jsonShape(child, texts)]);
  }
  for (const [key, values] of groups) put(key, values.length === 1 ? values[0] : values);
  // Mixed content (`<p>H<sub>2</sub>O</p>`): keep the element's whole text.
  if (el.children.some((c) => typeof c === "string" && c.trim() !== "")) put("#text", textContent(el, texts));
  return out;
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
    qtyRec: countOf(get(env, "qty-rec")),
    records,
  };
}
