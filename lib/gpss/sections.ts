/**
 * The extra sections a caller may ask of a patent record (`fields`): claims, cited references,
 * classifications, priority claims, agents and examiners, each read from GPSS's JSON shape into
 * typed fields, and each mapped to the output codes (`expFld`) that make GPSS send it.
 *
 * Claims need the most care (§3.4): `claim-text` is a string, a list of strings, or a list of
 * nested objects with their own `claim-text`; US records open with a preamble block ("What is
 * claimed is:") that takes `@num` 1, so `@num` is not the claim number; some records hold only
 * the preamble (US20230081319A1); canceled claims keep their place. Claim numbers are read from
 * the text (`1. …`) when it has one, else counted; a claim is dependent when its opening words
 * refer to an earlier claim (`claim 1`, `any one of claims 1 to 3`, `請求項1`, `权利要求1`,
 * `請求項1に記載`, `청구항 1`), independent otherwise.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { asList, collectTexts, get, isObj, MAX_NESTING_DEPTH, type Obj, textOf } from "./_shape.ts";

/** The extra sections, in the order they are documented and sent. */
export const OUTPUT_SECTIONS = [
  "claims",
  "citations",
  "classifications",
  "priority_claims",
  "agents",
  "examiners",
] as const;

/** An extra section a caller may ask for. */
export type OutputSection = typeof OUTPUT_SECTIONS[number];

/**
 * The `expFld` codes each section needs (§2.6). IPC and CPC are always requested (they are part of
 * every record); `classifications` adds Locarno (`IQ`) and the national schemes (`UC` USPC, `FI`,
 * `FT` F-term, `IR` D-term).
 */
export const SECTION_CODES: Readonly<Record<OutputSection, readonly string[]>> = Object.freeze({
  claims: ["CL"],
  citations: ["CI"],
  classifications: ["IQ", "UC", "FI", "FT", "IR"],
  priority_claims: ["PR"],
  agents: ["LX"],
  examiners: ["EX"],
});

/** One claim. */
export interface PatentClaim {
  /** The claim's number: from its text (`3. …`) when written there, else its place in order. */
  number: number;
  /** The claim's text; parts of a nested `claim-text` joined by line breaks. */
  text: string;
  /** True when the claim refers to no earlier claim (and is not canceled). */
  independent: boolean;
  /** The earlier claims this one refers to, ascending (empty for an independent claim). */
  depends_on: number[];
  /** True for a claim whose whole text is "(canceled)" (or "(deleted)", 刪除). */
  canceled: boolean;
}

/** A priority claim. */
export interface PriorityClaim {
  country: string | null;
  number: string | null;
  date: string | null;
}

/** Classifications besides IPC and CPC (which every record has). */
export interface NationalClassifications {
  /** Locarno (designs). */
  loc: string[];
  uspc: string[];
  fi: string[];
  f_term: string[];
  d_term: string[];
}

/** The extra fields of a record; a key is present exactly when its section was asked for. */
export interface PatentSections {
  claims?: PatentClaim[];
  /** The claims' preamble block ("What is claimed is:"), or null; present with `claims`. */
  claims_preamble?: string | null;
  citations?: string[];
  classifications?: NationalClassifications;
  priority_claims?: PriorityClaim[];
  agents?: string[];
  examiners?: string[];
}

/** Most claims read from one record (GPSS's longest known are a few hundred). */
export const MAX_CLAIMS = 1_000;

/** Characters at the start of a claim searched for references to earlier claims. */
const REFERENCE_WINDOW = 400;

/**
 * Longest text tested for being a preamble or a canceled claim ("What is claimed is:", "3.
 * (canceled)" are short). The patterns have neighbouring `\s*`, which backtrack quadratically on a
 * long run of spaces: 160,000 spaces took 38 s before this bound.
 */
const SHORT_TEXT = 80;

/** Most earlier claims one claim is recorded as depending on (a range `1 to 999` is cut here). */
const MAX_DEPENDS = 50;

const PREAMBLE_RE =
  /^(?:what\s+is\s+claimed\s+is|the\s+invention\s+claimed\s+is|what\s+we\s+claim\s+is|we\s+claim|i\s+claim|it\s+is\s+claimed|claims?)\s*[:.：]?$/i;
const NUMBER_PREFIX_RE = /^\s*(\d{1,4})\s*[.)．、]\s*/;
const CANCELED_RE =
  /^\s*(?:\d{1,4}\s*[.)．、]\s*)?[([（]?\s*(?:canceled|cancelled|deleted|withdrawn|刪除|删除)\s*[)\]）]?\s*[.。]?\s*$/i;
/** `claim 2`, `claims 1 or 2`, `any one of claims 1 to 3`, `claims 1-3, 5`. */
const EN_REFERENCE_RE =
  /\bclaims?\s+(\d{1,4}(?:\s*(?:,|or|and|to|through|-|–)\s*(?:claims?\s+)?\d{1,4}){0,20})/gi;
/** 請求項1, 请求项1, 權利要求1, 权利要求1至3, 申請專利範圍第1項, 請求項1乃至3, 청구항 1. */
const CJK_REFERENCE_RE =
  /(?:請求項|请求项|權利要求|权利要求|申請專利範圍第|申请专利范围第|청구항)\s*(\d{1,4}(?:\s*(?:[、,，或及和至到~～\-]|乃至|ないし|내지)\s*\d{1,4}){0,20})/g;
const RANGE_SEPARATOR_RE = /^(?:to|through|-|–|至|到|~|～|乃至|ないし|내지)$/i;

/** Every text of a `claim-text` value, depth first (strings, lists, nested `claim-text`). */
function claimParts(v: unknown, out: string[], depth = 0): string[] {
  if (depth > MAX_NESTING_DEPTH) return out;
  if (typeof v === "string" || typeof v === "number") {
    const t = String(v).trim();
    if (t !== "") out.push(t);
  } else if (Array.isArray(v)) {
    for (const item of v) claimParts(item, out, depth + 1);
  } else if (isObj(v)) {
    const inner = get(v, "claim-text") ?? get(v, "#text");
    if (inner !== undefined) claimParts(inner, out, depth + 1);
  }
  return out;
}

/** The numbers one reference names: `1 to 3` → 1, 2, 3; `1, 4 or 5` → 1, 4, 5. */
function referencedNumbers(list: string, out: Set<number>): void {
  const tokens = list.match(/\d{1,4}|to|through|乃至|ないし|내지|[-–至到~～]/gi) ?? [];
  let previous: number | null = null;
  let range = false;
  for (const token of tokens) {
    if (RANGE_SEPARATOR_RE.test(token)) {
      range = previous !== null;
      continue;
    }
    const n = Number(token);
    if (range && previous !== null && n > previous) {
      for (let k = previous + 1; k <= n && out.size < MAX_DEPENDS; k++) out.add(k);
    } else if (out.size < MAX_DEPENDS) out.add(n);
    previous = n;
    range = false;
  }
}

/** The earlier claims a claim's opening words refer to. */
function dependsOn(text: string, number: number): number[] {
  const head = text.slice(0, REFERENCE_WINDOW);
  const found = new Set<number>();
  for (const re of [EN_REFERENCE_RE, CJK_REFERENCE_RE]) {
    re.lastIndex = 0;
    for (let m = re.exec(head); m !== null; m = re.exec(head)) referencedNumbers(m[1]!, found);
  }
  return [...found].filter((n) => n >= 1 && n < number).sort((a, b) => a - b);
}

/**
 * The claims of a record's `claims` section, with the preamble block set apart.
 *
 * @example
 * ```ts
 * parseClaims({ claim: [{ "@num": "1", "claim-text": "What is claimed is:" },
 *   { "@num": "2", "claim-text": ["1. A method comprising", "a step."] },
 *   { "@num": "3", "claim-text": "2. The method of claim 1." }] });
 * // { preamble: "What is claimed is:", claims: [{ number: 1, independent: true, … },
 * //   { number: 2, independent: false, depends_on: [1], … }] }
 * ```
 */
export function parseClaims(section: unknown): { claims: PatentClaim[]; preamble: string | null } {
  const claims: PatentClaim[] = [];
  let preamble: string | null = null;
  let last = 0;
  for (const group of asList(section)) {
    const items = isObj(group) && get(group, "claim") !== undefined
      ? asList(get(group, "claim"))
      : asList(group);
    for (const item of items) {
      if (claims.length >= MAX_CLAIMS) break;
      const text = claimParts(isObj(item) ? (get(item, "claim-text") ?? get(item, "#text")) : item, []).join(
        "\n",
      );
      if (text === "") continue;
      const short = text.length <= SHORT_TEXT;
      if (claims.length === 0 && preamble === null && short && PREAMBLE_RE.test(text)) {
        preamble = text;
        continue;
      }
      const written = NUMBER_PREFIX_RE.exec(text);
      const number = written ? Number(written[1]) : last + 1;
      last = number;
      const canceled = short && CANCELED_RE.test(text);
      const depends = canceled ? [] : dependsOn(text, number);
      claims.push({
        number,
        text,
        independent: !canceled && depends.length === 0,
        depends_on: depends,
        canceled,
      });
    }
  }
  return { claims, preamble };
}

function sectionTexts(rec: Obj, section: string, item: string): string[] {
  const out: string[] = [];
  for (const sec of asList(get(rec, section))) {
    collectTexts(isObj(sec) && get(sec, item) !== undefined ? get(sec, item) : sec, out);
  }
  return out;
}

/** Names from a list that may hold strings or `{name}` objects (agents, examiners: §3.3). */
function namesOf(v: unknown, item: string): string[] {
  const out: string[] = [];
  for (const group of asList(v)) {
    const members = isObj(group) && get(group, item) !== undefined ? asList(get(group, item)) : asList(group);
    for (const m of members) {
      const name = isObj(m)
        ? (textOf(get(m, "name")) ?? textOf(get(m, "english-name")) ?? textOf(m))
        : textOf(m);
      if (name !== null) out.push(name);
    }
  }
  return out;
}

/**
 * The requested extra sections of one record (JSON shape). A section asked for but absent from the
 * record is empty (`[]`), never left out, so a caller can tell "none" from "not asked".
 *
 * @example
 * ```ts
 * sectionsFromGpss({ "references-cited": { citation: "US1A" } }, ["citations"]); // { citations: ["US1A"] }
 * ```
 */
export function sectionsFromGpss(rec: Obj, sections: readonly OutputSection[]): PatentSections {
  const out: PatentSections = {};
  for (const section of sections) {
    switch (section) {
      case "claims": {
        const { claims, preamble } = parseClaims(get(rec, "claims"));
        out.claims = claims;
        out.claims_preamble = preamble;
        break;
      }
      case "citations":
        out.citations = sectionTexts(rec, "references-cited", "citation");
        break;
      case "classifications": {
        const national = get(rec, "classifications-national");
        const of = (key: string) => collectTexts(asList(national).map((n) => get(n, key)), []);
        out.classifications = {
          loc: sectionTexts(rec, "classifications-loc", "loc"),
          uspc: of("uspc"),
          fi: of("fi"),
          f_term: of("f-term"),
          d_term: of("d-term"),
        };
        break;
      }
      case "priority_claims":
        out.priority_claims = asList(get(rec, "priority-claims")).flatMap((g) =>
          isObj(g) && get(g, "priority-claim") !== undefined ? asList(get(g, "priority-claim")) : asList(g)
        ).filter(isObj).map((p) => ({
          country: textOf(get(p, "country")),
          number: textOf(get(p, "doc-number")),
          date: textOf(get(p, "date")),
        }));
        break;
      case "agents":
        out.agents = namesOf(get(get(rec, "parties"), "agents"), "agent");
        break;
      case "examiners":
        out.examiners = namesOf(get(rec, "examiners"), "examiner");
        break;
    }
  }
  return out;
}

/** The `expFld` codes for the sections asked for, each once, in {@link OUTPUT_SECTIONS} order. */
export function sectionCodes(sections: readonly OutputSection[]): string[] {
  return OUTPUT_SECTIONS.filter((s) => sections.includes(s)).flatMap((s) => SECTION_CODES[s]);
}
