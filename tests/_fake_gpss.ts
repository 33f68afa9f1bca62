/**
 * A fake GPSS upstream for tests: a `Deno.serve` on 127.0.0.1 that behaves like TIPO's
 * `gpss_api` as `docs/gpss-upstream.md` describes it (section numbers § below), over a small
 * corpus, with switchable faults. It deliberately does NOT import `lib/gpss`: its tables come from
 * the document, so a wrong alias or code in the library shows up as a failing test.
 *
 * What it reproduces:
 * - GET (and POST, whose body is ignored: §1); only the RAW query string is read, split on `&` and
 *   the first `=`; keys are taken literally (`+AB` is an OR, `%2BAB` an unknown key that is
 *   silently dropped: §2.2, §2.7), values are `%XX`-decoded (a `+` stays a `+`).
 * - No parameters at all → a 38-byte `text/plain` `usage:` stub (§1).
 * - `userCode` checked against known / expired codes; after `blockAfterInvalid` bad codes every
 *   request gets `IP blocked` (§4.1).
 * - Search conditions: the field codes of §2.2 with `+` (OR) / `-` (NOT) prefixes, applied left to
 *   right to the result so far; unknown keys ignored; none left → `No search command`; `*`, `?` or
 *   `[n,m]` → `Cannot use truncated and kerning`; values longer than `maxConditionLength` in total →
 *   `Exceeded search condition length`. Within a field: `and` / `or` / `not`, parentheses, quoted
 *   phrases; adjacent words form a phrase (§2.3). Dates: `YYYY[MM[DD]]`, `from:to`, open ends (§2.4).
 * - `patDB` / `patAG` / `patTY` filters; `expFld` (the 20 output codes of §2.6, others →
 *   `Unknow field`; default `PN,ID,AN,AD,TI`); `expFmt` json | xml (default xml); `expQty`
 *   (default 30, 1..10000); `expSkip` (≥ total → `expSkip too much`).
 * - Zero hits → `status success` + `No record found`; an optional record quota →
 *   `Over download quantity` (§4.3).
 * - JSON envelope `gpss-API` with `total-rec` as a string, `qty-rec` echoing expQty (or counting),
 *   `patent.patentcontent`, and every one-item list collapsed to the bare item (§3.4). XML with the
 *   same names, `@x` keys as attributes (§3.2, §3.8).
 *
 * @module
 */

import { FAKE_CORPUS, type FakeParty, type FakePatent } from "./_fake_gpss_corpus.ts";

export { FAKE_CORPUS, type FakeParty, type FakePatent };

/** A valid user code of the fake (16 mixed-case hex characters, like real codes: §1). */
export const FAKE_USER_CODE = "9fA3c27BdE41b6C0";
/** An expired user code of the fake. */
export const FAKE_EXPIRED_CODE = "0aB1c2D3e4F5a6B7";

/** A fault the fake injects into its next answers (see {@link FakeGpss.setFault}). */
export type FakeFault =
  /** Wait before answering normally. */
  | { kind: "slow"; delayMs: number }
  /** Answer with this HTTP status; `{query}` in the body is replaced by the raw query string. */
  | { kind: "status"; status: number; body?: string }
  /** Send only the first `keepBytes` bytes (default: half) of the normal answer, properly framed. */
  | { kind: "truncate"; keepBytes?: number }
  /** Send half of the answer, then break the connection. */
  | { kind: "drop" }
  /** Answer 200 with a body that is neither JSON nor XML; `{query}` is replaced by the raw query. */
  | { kind: "garbage"; body?: string }
  /** Answer with the usage stub, as for a request without parameters. */
  | { kind: "usage" }
  /** Answer with this in-band message (in the requested format). */
  | { kind: "message"; message: string; status?: string }
  /** Answer in this format whatever `expFmt` says. */
  | { kind: "format"; format: "json" | "xml" }
  /** JSON: send backslashes in the data unescaped (`\太`, invalid JSON: §3.4). */
  | { kind: "backslash" }
  /** JSON: drop the comma before the member `beforeKey` (default `f-term`, §3.4). */
  | { kind: "missing-comma"; beforeKey?: string }
  /** JSON: send newlines in the data as raw control characters. */
  | { kind: "control-char" }
  /**
   * Answer `render(rawQuery)` with `status` (default 200) and `contentType` (default text/plain):
   * an upstream that echoes the request (user code included) in whatever spelling `render` makes.
   */
  | { kind: "echo"; render: (rawQuery: string) => string; status?: number; contentType?: string }
  /**
   * Answer 200 with `prefix`, then `fill` (default `{},`) repeated up to `bytes` bytes in all, then
   * `suffix`: streamed, never held whole.
   */
  | { kind: "huge"; bytes: number; prefix?: string; fill?: string; suffix?: string }
  /** Answer 200 with `chunk` (default 64 KiB of spaces) every `intervalMs` (default 0), forever. */
  | { kind: "endless"; chunk?: string; intervalMs?: number };

/** Options of {@link startFakeGpss}. */
export interface FakeGpssOptions {
  /** Valid user codes; default `[FAKE_USER_CODE]`. */
  userCodes?: readonly string[];
  /** Expired user codes; default `[FAKE_EXPIRED_CODE]`. */
  expiredCodes?: readonly string[];
  /** After this many requests with a bad code, every request gets `IP blocked`; default never. */
  blockAfterInvalid?: number;
  /** The corpus; default {@link FAKE_CORPUS}. */
  corpus?: readonly FakePatent[];
  /** `qty-rec` echoes expQty (default, as the doc's example suggests: §3.1) or counts the records. */
  qtyRec?: "echo" | "count";
  /** Send `total-rec` as a JSON number instead of a string. */
  totalRecAsNumber?: boolean;
  /** Collapse one-item lists to the bare item, as GPSS does (default true). */
  collapseSingles?: boolean;
  /** Records that may be downloaded before `Over download quantity`; default unlimited. */
  quota?: number;
  /** `status` sent with `Over download quantity` (disputed: §4.1); default `success`. */
  quotaStatus?: string;
  /** Longest total length of the condition values; default 1000 (§2.3). */
  maxConditionLength?: number;
  /** Shape of IPC/CPC items: `{keyValue}` objects (default) or plain text. */
  classificationShape?: "keyValue" | "text";
  /**
   * An upstream that ignores what it is asked: every query with a valid code and a condition is
   * answered with records of the corpus whatever its conditions and databases, from `expSkip` on
   * (cycling through the corpus, so even past `total` records come back), with `total` as
   * `total-rec` (default the corpus's size).
   */
  unrelated?: { total?: number };
}

/** A running fake. */
export interface FakeGpss {
  /** The endpoint URL (`http://127.0.0.1:PORT/gpss1/gpsskmc/gpss_api`). */
  url: string;
  /** Raw query strings received, in order (one per upstream call). */
  requests: string[];
  /** Upstream calls received so far (`requests.length`). */
  readonly calls: number;
  /** Records served so far (what the quota counts). */
  readonly served: number;
  /** Most requests the fake was answering at the same time (until each handler returned). */
  readonly maxInFlight: number;
  /** Injects `fault` into the next `times` requests (default: until changed); `null` clears it. */
  setFault(fault: FakeFault | null, times?: number): void;
  /** Stops the server (pending slow answers are cut short). */
  close(): Promise<void>;
}

const CONDITION_CODES = new Set(
  "PN ID AN AD AX AF AY AZ IV IY LX EX PR DR IC FC CS TS IQ FI FT IR UC TI AB CL CI TI/AB TI/AB/CL".split(
    " ",
  ),
);
const DATE_CODES = new Set(["ID", "AD", "DR"]);
const OUTPUT_CODES = new Set(
  "PN AN ID AD TI PA IN LX EX PR AB IC IQ CS UC FI FT IR CI CL".split(" "),
);
const KNOWN_PARAMS = new Set([
  "userCode",
  "patDB",
  "patAG",
  "patTY",
  "expFld",
  "expFmt",
  "expQty",
  "expSkip",
]);
/** Exactly 38 bytes, like the real stub (its text is unknown: §1). */
const USAGE_TEXT = "usage: ?userCode=<code>&<field>=<expr>";

type Json = string | number | Json[] | { [k: string]: Json };

/** Every text of a claims value, however nested (§3.4). */
function textsIn(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(textsIn);
  if (typeof v === "object" && v !== null) return Object.values(v).flatMap(textsIn);
  return [];
}

function claimTexts(p: FakePatent): string[] {
  return p.claimsRaw
    ? textsIn(p.claimsRaw.map((c) => (c as Record<string, unknown>)["claim-text"]))
    : p.claims ?? [];
}

/** The field text(s) a condition code searches. */
function fieldTexts(p: FakePatent, code: string): string[] {
  const titles = [p.title, ...[p.englishTitle ?? []].flat()];
  const names = (parties: FakeParty[]) => parties.flatMap((x) => [x.name, x.englishName ?? ""]);
  switch (code) {
    case "TI":
      return titles;
    case "AB":
      return p.abstract ?? [];
    case "CL":
      return claimTexts(p);
    case "TI/AB":
      return [...titles, ...(p.abstract ?? [])];
    case "TI/AB/CL":
      return [...titles, ...(p.abstract ?? []), ...claimTexts(p)];
    case "PN":
      return [p.pn];
    case "AN":
      return [p.an];
    case "AX":
      return names(p.applicants);
    case "AF":
      return names(p.applicants.slice(0, 1));
    case "AY":
      return p.applicants.map((x) => x.country);
    case "AZ":
      return p.applicants.slice(0, 1).map((x) => x.country);
    case "IV":
      return names(p.inventors);
    case "IY":
      return p.inventors.map((x) => x.country);
    case "LX":
      return p.agents ?? [];
    case "IC":
      return p.ipc ?? [];
    case "FC":
      return (p.ipc ?? []).slice(0, 1);
    case "CS":
      return p.cpc ?? [];
    case "TS":
      return (p.cpc ?? []).slice(0, 1);
    case "FT":
      return p.fterm ?? [];
    case "CI":
      return p.citations ?? [];
    case "EX":
      return p.examiners ?? [];
    case "PR":
      return (p.priority ?? []).map((x) => x.country + x.number);
    case "IQ":
      return p.loc ?? [];
    case "UC":
      return p.uspc ?? [];
    case "FI":
      return p.fi ?? [];
    case "IR":
      return p.dterm ?? [];
    default:
      return [];
  }
}

// ---- boolean expressions inside one field (§2.3) ----

type Expr = { op: "and" | "or" | "not"; a: Expr; b: Expr } | { phrase: string };

function tokenize(value: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:(\()|(\))|"([^"]*)"|([^\s()"]+))/y;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value)) !== null) {
    out.push(m[1] ?? m[2] ?? (m[3] !== undefined ? `"${m[3]}` : m[4] ?? ""));
  }
  return out;
}

function parseExpr(value: string): Expr | null {
  const tokens = tokenize(value);
  let i = 0;
  const isOp = (t: string | undefined) => t !== undefined && /^(and|or|not)$/i.test(t);
  const primary = (): Expr | null => {
    if (tokens[i] === "(") {
      i++;
      const e = orExpr();
      if (tokens[i] === ")") i++;
      return e;
    }
    const words: string[] = [];
    while (i < tokens.length && tokens[i] !== "(" && tokens[i] !== ")" && !isOp(tokens[i])) {
      const t = tokens[i++]!; // i < tokens.length
      words.push(t.startsWith('"') ? t.slice(1) : t);
    }
    return words.length ? { phrase: words.join(" ").toLowerCase() } : null;
  };
  const andExpr = (): Expr | null => {
    let a = primary();
    while (a && (tokens[i]?.toLowerCase() === "and" || tokens[i]?.toLowerCase() === "not")) {
      const op = tokens[i++]!.toLowerCase() as "and" | "not"; // the loop condition read it
      const b = primary();
      if (!b) return null;
      a = { op, a, b };
    }
    return a;
  };
  const orExpr = (): Expr | null => {
    let a = andExpr();
    while (a && tokens[i]?.toLowerCase() === "or") {
      i++;
      const b = andExpr();
      if (!b) return null;
      a = { op: "or", a, b };
    }
    return a;
  };
  const e = orExpr();
  return i === tokens.length ? e : null;
}

function evalExpr(e: Expr, texts: string[]): boolean {
  if ("phrase" in e) return texts.some((t) => t.toLowerCase().includes(e.phrase));
  if (e.op === "and") return evalExpr(e.a, texts) && evalExpr(e.b, texts);
  if (e.op === "or") return evalExpr(e.a, texts) || evalExpr(e.b, texts);
  return evalExpr(e.a, texts) && !evalExpr(e.b, texts);
}

function dateMatches(value: string, date: string): boolean {
  const m = /^(\d{4}(?:\d{2}(?:\d{2})?)?)?(:)?(\d{4}(?:\d{2}(?:\d{2})?)?)?$/.exec(value.trim());
  if (!m || (!m[1] && !m[3])) return false;
  const from = m[1] ? m[1].padEnd(8, "0") : "00000000";
  const to = m[2] ? (m[3] ? m[3].padEnd(8, "9") : "99999999") : (m[1] ?? "").padEnd(8, "9");
  return from <= date && date <= to;
}

function conditionMatches(p: FakePatent, code: string, value: string): boolean {
  if (DATE_CODES.has(code)) {
    const date = code === "ID" ? p.pubDate : code === "AD" ? p.appDate : "";
    return date !== "" && dateMatches(value, date);
  }
  const e = parseExpr(value);
  return e !== null && evalExpr(e, fieldTexts(p, code));
}

// ---- output ----

function partiesJson(parties: FakeParty[]): Json[] {
  return parties.map((x) => ({
    name: x.name,
    ...(x.englishName ? { "english-name": x.englishName } : {}),
    "country-code": x.country,
  }));
}

function recordJson(p: FakePatent, fields: Set<string>, classShape: "keyValue" | "text"): Json {
  const cls = (values: string[]) => values.map((v) => (classShape === "keyValue" ? { keyValue: v } : v));
  const r: Record<string, Json> = { "@database": p.database };
  const pub: Record<string, Json> = {};
  if (fields.has("PN")) pub["doc-number"] = p.pn;
  if (fields.has("ID")) pub.date = p.pubDate;
  if (Object.keys(pub).length) r["publication-reference"] = pub;
  const app: Record<string, Json> = {};
  if (fields.has("AN")) app["doc-number"] = p.an;
  if (fields.has("AD")) app.date = p.appDate;
  if (Object.keys(app).length) r["application-reference"] = app;
  const parties: Record<string, Json> = {};
  if (fields.has("PA")) parties.applicants = { applicant: partiesJson(p.applicants) };
  if (fields.has("IN")) parties.inventors = { inventor: partiesJson(p.inventors) };
  if (fields.has("LX") && p.agents) parties.agents = { agent: p.agents };
  if (Object.keys(parties).length) r.parties = parties;
  if (fields.has("IC") && p.ipc) r["classifications-ipc"] = { ipc: cls(p.ipc) };
  if (fields.has("CS") && p.cpc) r["classifications-cpc"] = { cpc: cls(p.cpc) };
  if (fields.has("IQ") && p.loc) r["classifications-loc"] = { loc: cls(p.loc) };
  const national: Record<string, Json> = {};
  if (fields.has("UC") && p.uspc) national.uspc = p.uspc;
  if (fields.has("FI") && p.fi) national.fi = p.fi;
  // "fi" before "f-term", as in the JP records whose missing comma sits before "f-term" (§3.4).
  if (fields.has("FT") && p.fterm) national["f-term"] = p.fterm;
  if (fields.has("IR") && p.dterm) national["d-term"] = p.dterm;
  if (Object.keys(national).length) r["classifications-national"] = national;
  if (fields.has("PR") && p.priority) {
    r["priority-claims"] = {
      "priority-claim": p.priority.map((x) => ({ country: x.country, date: x.date, "doc-number": x.number })),
    };
  }
  // The inner shape of `examiners` is unknown (§3.3): the fake sends {examiner: [names]}.
  if (fields.has("EX") && p.examiners) r.examiners = { examiner: p.examiners };
  if (fields.has("TI")) {
    r["patent-title"] = {
      title: p.title,
      ...(p.englishTitle !== undefined ? { "english-title": p.englishTitle } : {}),
    };
  }
  if (fields.has("AB") && p.abstract) r.abstract = { p: p.abstract };
  if (fields.has("CL") && p.claimsRaw) r.claims = { claim: p.claimsRaw as Json[] };
  else if (fields.has("CL") && p.claims) {
    r.claims = { claim: p.claims.map((c, i) => ({ "@num": String(i + 1), "claim-text": c })) };
  }
  if (fields.has("CI") && p.citations) r["references-cited"] = { citation: p.citations };
  return r;
}

/** GPSS sends a one-item list as the bare item (§3.4). */
function collapse(v: Json): Json {
  if (Array.isArray(v)) return v.length === 1 ? collapse(v[0]!) : v.map(collapse);
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, collapse(x)]));
  return v;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function toXml(name: string, v: Json): string {
  if (Array.isArray(v)) return v.map((x) => toXml(name, x)).join("");
  if (typeof v !== "object") return `<${name}>${escapeXml(String(v))}</${name}>`;
  let attrs = "";
  let inner = "";
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith("@")) attrs += ` ${k.slice(1)}="${escapeXml(String(x))}"`;
    else inner += toXml(k, x);
  }
  return `<${name}${attrs}>${inner}</${name}>`;
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>';

function render(format: "json" | "xml", envelope: Record<string, Json>): { body: string; type: string } {
  if (format === "json") {
    return { body: JSON.stringify({ "gpss-API": envelope }), type: "application/json;charset=utf-8" };
  }
  return { body: XML_DECL + toXml("gpss-API", envelope), type: "text/xml;charset=UTF-8" };
}

/** An in-band message. XML: the doc's 96-byte candidate form (no status) unless a status is given. */
function messageBody(format: "json" | "xml", message: string, status: string | undefined) {
  if (format === "json") return render("json", { status: status ?? "fail", message });
  return render("xml", status === undefined ? { message } : { status, message });
}

function parseRawQuery(raw: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    let value: string;
    try {
      value = decodeURIComponent(rawValue); // %XX only; a "+" stays "+"
    } catch {
      value = rawValue;
    }
    out.push([key, value]);
  }
  return out;
}

function sleep(ms: number, signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener("abort", done, { once: true });
  });
}

/** The body of a `huge` or `endless` fault, made chunk by chunk as the client reads. */
function streamBody(
  f: Extract<FakeFault, { kind: "huge" | "endless" }>,
  signals: AbortSignal[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const endless = f.kind === "endless";
  const unit = encoder.encode(endless ? (f.chunk ?? " ".repeat(65536)) : (f.fill ?? "{},"));
  // A fill chunk of whole units, about 64 KiB (or one unit if that is larger).
  const fill = endless ? unit : (() => {
    const k = Math.max(1, Math.floor(65536 / unit.length));
    const out = new Uint8Array(k * unit.length);
    for (let i = 0; i < k; i++) out.set(unit, i * unit.length);
    return out;
  })();
  let left = endless ? Infinity : f.bytes;
  let first = !endless && f.prefix !== undefined;
  let suffix = !endless && f.suffix !== undefined ? encoder.encode(f.suffix) : null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signals.some((s) => s.aborted)) return controller.close();
      if (left <= 0) {
        if (suffix !== null) controller.enqueue(suffix);
        suffix = null;
        return controller.close();
      }
      if (endless && (f.intervalMs ?? 0) > 0) await sleep(f.intervalMs!, signals);
      const chunk = first ? encoder.encode(f.kind === "huge" ? f.prefix : "") : fill;
      first = false;
      const piece = chunk.length <= left ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      controller.enqueue(piece);
    },
  });
}

/**
 * Starts the fake on 127.0.0.1 (a free port). Close it at the end of the test.
 *
 * @example
 * ```ts
 * const gpss = await startFakeGpss();
 * try { ... fetch(`${gpss.url}?userCode=${FAKE_USER_CODE}&TI=battery&expFmt=json`) ... }
 * finally { await gpss.close(); }
 * ```
 */
export function startFakeGpss(options: FakeGpssOptions = {}): Promise<FakeGpss> {
  const valid = new Set(options.userCodes ?? [FAKE_USER_CODE]);
  const expired = new Set(options.expiredCodes ?? [FAKE_EXPIRED_CODE]);
  const corpus = options.corpus ?? FAKE_CORPUS;
  const maxLen = options.maxConditionLength ?? 1000;
  const classShape = options.classificationShape ?? "keyValue";
  const requests: string[] = [];
  const closing = new AbortController();
  let fault: FakeFault | null = null;
  let faultTimes = 0;
  let invalidCount = 0;
  let served = 0;

  function answer(
    rawQuery: string,
    forced: "json" | "xml" | null,
    injected: { message: string; status?: string } | null,
  ): { body: string; type: string } {
    const params = parseRawQuery(rawQuery);
    const known = params.filter(([k]) => KNOWN_PARAMS.has(k) || CONDITION_CODES.has(k.replace(/^[+-]/, "")));
    if (known.length === 0) return { body: USAGE_TEXT, type: "text/plain;charset=UTF-8" };
    const one = (k: string) => params.find(([key]) => key === k)?.[1];
    const format = forced ?? (one("expFmt")?.toLowerCase() === "json" ? "json" : "xml");
    const msg = (m: string, status?: string) => messageBody(format, m, status);

    if (options.blockAfterInvalid !== undefined && invalidCount >= options.blockAfterInvalid) {
      return msg("IP blocked");
    }
    const code = one("userCode") ?? "";
    if (expired.has(code)) return msg("userCode expired");
    if (!valid.has(code)) {
      invalidCount++;
      return msg("userCode not exist");
    }
    if (injected) return msg(injected.message, injected.status);

    const conditions = params
      .map(([k, v]) => ({ prefix: /^[+-]/.test(k) ? k[0] : "", code: k.replace(/^[+-]/, ""), value: v }))
      .filter((c) => CONDITION_CODES.has(c.code) && c.value.trim() !== "");
    const [first] = conditions;
    if (first === undefined) return msg("No search command");
    if (conditions.some((c) => /[*?]|\[\d*,\d*\]/.test(c.value))) {
      return msg("Cannot use truncated and kerning");
    }
    if (conditions.reduce((n, c) => n + c.value.length, 0) > maxLen) {
      return msg("Exceeded search condition length");
    }
    const fields = (one("expFld") ?? "PN,ID,AN,AD,TI").split(",").map((f) => f.trim()).filter((f) => f);
    if (fields.some((f) => !OUTPUT_CODES.has(f))) return msg("Unknow field");

    if (options.unrelated) {
      const qty = Math.min(corpus.length, Math.max(1, Number.parseInt(one("expQty") ?? "30", 10) || 30));
      const skip = Math.max(0, Number.parseInt(one("expSkip") ?? "0", 10) || 0);
      const page = Array.from({ length: qty }, (_, i) => corpus[(skip + i) % corpus.length]!);
      served += page.length;
      const outFields = new Set(fields);
      let patents: Json = page.map((p) => recordJson(p, outFields, classShape));
      if (options.collapseSingles !== false) patents = collapse(patents);
      return render(format, {
        status: "success",
        "total-rec": String(options.unrelated.total ?? corpus.length),
        "qty-rec": String(qty),
        patent: { patentcontent: patents },
      });
    }
    const list = (k: string) => one(k)?.split(",").map((x) => x.trim()).filter((x) => x);
    const dbs = list("patDB");
    const ags = list("patAG");
    const tys = list("patTY");
    const hits = corpus.filter((p) => {
      if (dbs && !dbs.includes(p.database)) return false;
      if (ags && !ags.includes(p.ag)) return false;
      if (tys && !tys.includes(p.ty)) return false;
      let ok = conditionMatches(p, first.code, first.value);
      for (const c of conditions.slice(1)) {
        const m = conditionMatches(p, c.code, c.value);
        ok = c.prefix === "+" ? ok || m : c.prefix === "-" ? ok && !m : ok && m;
      }
      return ok;
    });
    if (hits.length === 0) return msg("No record found", "success");
    const qty = Math.min(10000, Math.max(1, Number.parseInt(one("expQty") ?? "30", 10) || 30));
    const skip = Math.max(0, Number.parseInt(one("expSkip") ?? "0", 10) || 0);
    if (skip >= hits.length) return msg("expSkip too much");
    const remaining = (options.quota ?? Infinity) - served;
    if (remaining <= 0) return msg("Over download quantity", options.quotaStatus ?? "success");
    const page = hits.slice(skip, skip + Math.min(qty, remaining));
    served += page.length;
    const outFields = new Set(fields);
    let patents: Json = page.map((p) => recordJson(p, outFields, classShape));
    if (options.collapseSingles !== false) patents = collapse(patents);
    return render(format, {
      status: "success",
      "total-rec": options.totalRecAsNumber ? hits.length : String(hits.length),
      "qty-rec": String(options.qtyRec === "count" ? page.length : qty),
      patent: { patentcontent: patents },
    });
  }

  let inFlight = 0;
  let maxInFlight = 0;

  async function handle(req: Request): Promise<Response> {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await answerRequest(req);
    } finally {
      inFlight--;
    }
  }

  async function answerRequest(req: Request): Promise<Response> {
    const url = req.url;
    const q = url.indexOf("?");
    const rawQuery = q < 0 ? "" : url.slice(q + 1);
    requests.push(rawQuery);
    const f = fault;
    if (f !== null && --faultTimes <= 0) fault = null;
    if (f?.kind === "slow") await sleep(f.delayMs, [closing.signal, req.signal]);
    if (f?.kind === "status") {
      return new Response((f.body ?? "Internal Server Error").replaceAll("{query}", rawQuery), {
        status: f.status,
        headers: { "content-type": "text/plain;charset=UTF-8" },
      });
    }
    if (f?.kind === "garbage") {
      const body = (f.body ?? "\u0000\u0001\u00ff garbage from the fake upstream").replaceAll(
        "{query}",
        rawQuery,
      );
      return new Response(body, { headers: { "content-type": "application/octet-stream" } });
    }
    if (f?.kind === "usage") return new Response(USAGE_TEXT, { headers: { "content-type": "text/plain" } });
    if (f?.kind === "echo") {
      return new Response(f.render(rawQuery), {
        status: f.status ?? 200,
        headers: { "content-type": f.contentType ?? "text/plain;charset=UTF-8" },
      });
    }
    if (f?.kind === "huge" || f?.kind === "endless") {
      return new Response(streamBody(f, [closing.signal, req.signal]), {
        headers: { "content-type": "application/json;charset=utf-8" },
      });
    }

    const out = answer(rawQuery, f?.kind === "format" ? f.format : null, f?.kind === "message" ? f : null);
    let body = out.body;
    if (f?.kind === "backslash") body = body.replaceAll("\\\\", "\\");
    if (f?.kind === "control-char") body = body.replaceAll("\\n", "\n");
    if (f?.kind === "missing-comma") {
      body = body.replace(`,"${f.beforeKey ?? "f-term"}"`, `"${f.beforeKey ?? "f-term"}"`);
    }
    let bytes = new TextEncoder().encode(body);
    if (f?.kind === "truncate") bytes = bytes.slice(0, f.keepBytes ?? Math.floor(bytes.length / 2));
    if (f?.kind === "drop") {
      // Promise the whole length, send half, end: the client sees the connection close mid-body.
      const half = bytes.slice(0, Math.floor(bytes.length / 2));
      return new Response(half, {
        headers: { "content-type": out.type, "content-length": String(bytes.length) },
      });
    }
    return new Response(bytes, { headers: { "content-type": out.type } });
  }

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: closing.signal,
      onListen: ({ port }) => {
        resolve({
          url: `http://127.0.0.1:${port}/gpss1/gpsskmc/gpss_api`,
          requests,
          get calls() {
            return requests.length;
          },
          get served() {
            return served;
          },
          get maxInFlight() {
            return maxInFlight;
          },
          setFault(next: FakeFault | null, times = Infinity) {
            fault = next;
            faultTimes = next === null ? 0 : times;
          },
          async close() {
            closing.abort();
            await server.finished;
          },
        });
      },
    }, handle);
  });
}
