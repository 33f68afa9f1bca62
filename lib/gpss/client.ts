/**
 * The GPSS client: one upstream GET per search, with a timeout, one retry on a fresh connection,
 * in-band messages turned into outcomes, a small LRU cache and coalescing of identical in-flight
 * searches. The user code is never part of anything it returns or throws.
 *
 * What one search, and all of them together, may cost is bounded: a body is read up to
 * {@link DEFAULT_MAX_BODY_BYTES} (then dropped) within the timeout, an answer is no longer than
 * that, at most {@link DEFAULT_MAX_CONCURRENT} searches are upstream at once (the others wait
 * their turn), the cache holds at most {@link DEFAULT_CACHE_MAX_CHARS}, and every upstream text
 * quoted in an error is a masked excerpt of at most {@link QUOTED_UPSTREAM_LENGTH} characters
 * (twice that for a transport error, whose both ends are kept).
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { boundedExcerpt, type ExcerptFrom } from "./_excerpt.ts";
import { secretMasker } from "./_secret.ts";
import {
  buildQueryFromParams,
  normalizeSearchRequest,
  OffsetBeyondResultsError,
  paramsOf,
  type RequestParams,
  type SearchRequest,
} from "./query.ts";
import { codeKey, type QuotaKeeper, type QuotaStatus } from "./quota.ts";
import type { OutputSection } from "./sections.ts";
import { describeGpssMessage } from "./messages.ts";
import { GpssResponseError, parseGpssResponse, type PatentRecord } from "./response.ts";

/** The records of a successful search. `returned_count` counts `records` (not GPSS's `qty-rec`). */
export interface SearchData {
  total_count: number;
  returned_count: number;
  records: PatentRecord[];
  /** The search's results in all (`total_count`, under the name paging uses). */
  total: number;
  /** The `offset` of the next page, or null when this page reaches the last result. */
  next_offset: number | null;
}

/** A successful search (zero records included: GPSS's `No record found`). */
export interface SearchSuccess {
  success: true;
  data: SearchData;
  request_params: RequestParams;
  error: null;
}

/** A search that failed for a known reason (configuration, upstream message, transport). */
export interface SearchFailure {
  success: false;
  data: null;
  request_params: RequestParams;
  error: string;
}

/** What {@link GpssClient.search} resolves to. */
export type SearchOutcome = SearchSuccess | SearchFailure;

/** Options of {@link GpssClient}. */
export interface GpssClientOptions {
  /** The GPSS endpoint, e.g. `https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpss_api`. */
  baseUrl: string | URL;
  /** The GPSS API code (`userCode`); `undefined` or `""` makes every search fail without a call. */
  userCode: string | undefined;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Time allowed per attempt (headers and body), default 30,000 ms. */
  timeoutMs?: number;
  /** How long a successful answer is reused, default 300,000 ms; `0` disables the cache. */
  cacheTtlMs?: number;
  /** Most answers kept (least recently used dropped first), default 500. */
  cacheMaxEntries?: number;
  /**
   * Most characters of cached answers (their JSON length), default {@link DEFAULT_CACHE_MAX_CHARS};
   * least recently used answers are dropped first, and an answer over a quarter of it is not kept.
   */
  cacheMaxChars?: number;
  /**
   * Upstream searches in progress at once, default {@link DEFAULT_MAX_CONCURRENT}; the others wait
   * their turn in order. GPSS users are asked not to run concurrent fetchers (§4.3), and each
   * search in progress may hold up to `maxBodyBytes` of answer.
   */
  maxConcurrent?: number;
  /** How long a search waits for its turn, default `timeoutMs`; past it the search fails in-band. */
  queueTimeoutMs?: number;
  /** Largest response body accepted, default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** The clock for the cache (ms), default `Date.now`. */
  now?: () => number;
  /**
   * Makes the HTTP client of a retry, so it goes out on a new connection (GPSS sits behind
   * Cloudflare, and reused keep-alive connections gave truncated bodies: §1). Default:
   * `Deno.createHttpClient({})` when available; `null` = retry with the plain fetch.
   */
  createHttpClient?: (() => Deno.HttpClient) | null;
  /**
   * The quota ledger: each search reserves its `expQty` before it is sent and is charged the
   * records it got; default none (nothing is counted or refused).
   */
  quota?: QuotaKeeper | null;
  /**
   * Answers shared by several instances (PostgreSQL: `lib/pg`): a cache they all read, and one
   * upstream call for an identical search made by several at once. Default none (this process's
   * cache and coalescing only).
   */
  shared?: SharedSearches | null;
}

/**
 * A cache and in-flight coalescing shared across instances. `once` answers `key` from the shared
 * cache, or waits while another instance fetches it, or runs `fetch` itself (and keeps its answer
 * for `ttlMs` when it is a success).
 */
export interface SharedSearches {
  once(key: string, ttlMs: number, fetch: () => Promise<SearchOutcome>): Promise<SearchOutcome>;
}

/**
 * Default {@link GpssClientOptions.maxBodyBytes}: 16 MiB. GPSS sends about 5 KB per record with
 * full text (§1: ~1.3 MB for 200 records), and this client asks for at most 500 records without
 * claims, so a real answer stays under ~3 MB; the rest of the body is not read (the search fails
 * in-band), so a huge or endless body costs at most this much memory (and the timeout).
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Default {@link GpssClientOptions.cacheMaxChars}: 32 Mi characters of JSON (about 64 MiB held),
 * a dozen answers of 500 records or a few hundred of the default 30.
 */
export const DEFAULT_CACHE_MAX_CHARS = 32 * 1024 * 1024;

/** Default {@link GpssClientOptions.maxConcurrent}. */
export const DEFAULT_MAX_CONCURRENT = 4;

/** Characters of an upstream text (body, message, transport error) quoted in an error. */
export const QUOTED_UPSTREAM_LENGTH = 200;

/** The error when no user code is configured. */
export const MISSING_USER_CODE_ERROR = "GPSS API authentication error: USER_CODE is not set. To search " +
  "patents, set USER_CODE in the service's environment to the GPSS API code TIPO issued (apply at " +
  "https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpssapi). No request was sent.";

/** A failed attempt: its message and whether one more attempt on a fresh connection may help. */
interface AttemptFailure {
  error: string;
  retry: boolean;
  /** Set when GPSS answered `expSkip too much`: the offset is past the last result. */
  skip?: true;
  /** With `skip`: the search's total, when GPSS said it (its `total-rec` was at most the offset). */
  total?: number;
  /** Records GPSS sent anyway (charged to the quota though they are not answered). */
  sent?: number;
  /** Set when GPSS answered that the download quota is used up. */
  quota?: true;
}

/** Searches whose totals are remembered (for refusing an offset past the end without a call). */
const MAX_KNOWN_TOTALS = 1_000;

/** The parameters that name a search, whatever page of it: all but `expQty`, `expSkip`, `expFld`. */
function searchKeyOf(params: RequestParams): string {
  return JSON.stringify(Object.entries(params).filter(([k]) => !["expQty", "expSkip", "expFld"].includes(k)));
}

function isTimeout(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted ||
    (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError"));
}

/** The body as UTF-8 text, or `null` (and the rest discarded) once it exceeds `limit` bytes. */
async function readText(res: Response, limit: number): Promise<string | null> {
  if (res.body === null) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

function defaultCreateHttpClient(): (() => Deno.HttpClient) | null {
  return typeof Deno !== "undefined" && typeof Deno.createHttpClient === "function"
    ? () => Deno.createHttpClient({})
    : null;
}

/**
 * A GPSS search client. Each {@link GpssClient.search} sends at most two GET requests (the second
 * only after a network error, a truncated body or a 5xx, on a fresh connection); answers come back
 * as {@link SearchOutcome}s, never as exceptions, for every known failure. Invalid requests throw
 * `InvalidInputError`; anything else thrown is a bug and propagates.
 *
 * @example
 * ```ts
 * const gpss = new GpssClient({ baseUrl: config.gpssApiUrl, userCode: config.userCode });
 * const outcome = await gpss.search({ keywords: "lithium battery", searchFields: ["title", "abstract"] });
 * if (outcome.success) console.log(outcome.data.total_count);
 * ```
 */
export class GpssClient {
  readonly #baseUrl: string;
  readonly #userCode: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #maxBodyBytes: number;
  readonly #createHttpClient: (() => Deno.HttpClient) | null;
  readonly #mask: (text: string) => string;
  readonly #cache = new Map<string, { expires: number; outcome: SearchSuccess; chars: number }>();
  readonly #maxCacheChars: number;
  /** The JSON length of each answer, measured once when it is read. */
  readonly #answerChars = new WeakMap<SearchSuccess, number>();
  #cacheChars = 0;
  readonly #maxConcurrent: number;
  readonly #queueTimeoutMs: number;
  #running = 0;
  /** Searches waiting for a turn, in arrival order; each function hands it the turn. */
  readonly #waiting = new Set<() => void>();
  readonly #inFlight = new Map<string, Promise<SearchOutcome>>();
  /** Totals of searches answered lately, by {@link searchKeyOf} (least recently set dropped first). */
  readonly #totals = new Map<string, number>();
  /** Outcomes past the last result (GPSS's `expSkip too much`, or its total): the total, if known. */
  readonly #skipped = new WeakMap<SearchOutcome, number | null>();
  /** Records GPSS sent for an outcome that does not answer them all (all are charged to the quota). */
  readonly #sent = new WeakMap<SearchOutcome, number>();
  /** Outcomes that were GPSS's `Over download quantity` (or `Over search quantity`). */
  readonly #quotaUsedUp = new WeakSet<SearchOutcome>();
  readonly #quota: QuotaKeeper | null;
  readonly #shared: SharedSearches | null;
  #upstreamCalls = 0;

  constructor(options: GpssClientOptions) {
    this.#baseUrl = String(options.baseUrl);
    this.#userCode = options.userCode === "" ? undefined : options.userCode;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#ttlMs = options.cacheTtlMs ?? 300_000;
    this.#maxEntries = Math.max(1, options.cacheMaxEntries ?? 500);
    this.#maxCacheChars = options.cacheMaxChars ?? DEFAULT_CACHE_MAX_CHARS;
    this.#maxConcurrent = Math.max(1, options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
    this.#queueTimeoutMs = options.queueTimeoutMs ?? this.#timeoutMs;
    this.#now = options.now ?? Date.now;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#quota = options.quota ?? null;
    this.#shared = options.shared ?? null;
    this.#mask = secretMasker(this.#userCode ?? "");
    this.#createHttpClient = options.createHttpClient === undefined
      ? defaultCreateHttpClient()
      : options.createHttpClient;
  }

  /** The quota ledger's account of the current window, or null when none is kept. */
  quotaStatus(): QuotaStatus | null | Promise<QuotaStatus> {
    return this.#quota?.status() ?? null;
  }

  /** Upstream requests sent so far (retries included). */
  get upstreamCalls(): number {
    return this.#upstreamCalls;
  }

  /** Answers currently cached. */
  get cacheSize(): number {
    return this.#cache.size;
  }

  /** Characters (JSON length) of the answers currently cached. */
  get cacheChars(): number {
    return this.#cacheChars;
  }

  /**
   * Runs a search. Identical searches within the cache TTL are answered from the cache (successes
   * only); identical searches running at the same time share one upstream request.
   *
   * @throws {InvalidInputError} for an invalid request (see `normalizeSearchRequest`).
   */
  async search(req: SearchRequest): Promise<SearchOutcome> {
    const request = normalizeSearchRequest(req); // validated once, here
    const params = paramsOf(request);
    if (this.#userCode === undefined) {
      return { success: false, data: null, request_params: params, error: MISSING_USER_CODE_ERROR };
    }
    const offset = Number(params.expSkip);
    const searchKey = searchKeyOf(params);
    const known = this.#totals.get(searchKey);
    if (offset > 0 && known !== undefined && offset >= known) {
      throw new OffsetBeyondResultsError(offset, known);
    }
    const outcome = await this.#searchParams(params, request.fields);
    if (outcome.success) this.#knowTotal(searchKey, outcome.data.total);
    else if (offset > 0 && this.#skipped.has(outcome)) {
      const total = this.#skipped.get(outcome) ?? await this.#totalOf(params);
      if (total !== null) this.#knowTotal(searchKey, total);
      throw new OffsetBeyondResultsError(offset, total ?? 0);
    }
    return outcome;
  }

  /** Remembers a search's total (the latest answer's), so an offset past it is refused without a call. */
  #knowTotal(searchKey: string, total: number): void {
    this.#totals.delete(searchKey);
    this.#totals.set(searchKey, total);
    if (this.#totals.size > MAX_KNOWN_TOTALS) this.#totals.delete(this.#totals.keys().next().value!);
  }

  /**
   * The total of a search GPSS said `expSkip too much` to: asked with one record from offset 0
   * (GPSS sends no total with that message: §4.1). Null when the probe failed too (said as 0, not
   * remembered).
   */
  async #totalOf(params: RequestParams): Promise<number | null> {
    const probe = await this.#searchParams({ ...params, expQty: 1, expSkip: 0 }, []);
    return probe.success ? probe.data.total : null;
  }

  async #searchParams(params: RequestParams, sections: readonly OutputSection[]): Promise<SearchOutcome> {
    const key = JSON.stringify(Object.entries(params));
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      this.#cache.delete(key);
      this.#cacheChars -= cached.chars;
      if (this.#now() < cached.expires) {
        this.#cacheChars += cached.chars;
        this.#cache.set(key, cached); // most recently used
        return structuredClone(cached.outcome);
      }
    }
    let pending = this.#inFlight.get(key);
    if (pending === undefined) {
      const upstream = () => this.#upstream(params, sections);
      pending = (this.#shared === null
        ? upstream()
        // Named by the user code's hash and the request: the same search by the same account.
        : this.#shared.once(`${codeKey(this.#userCode!)}:${key}`, this.#ttlMs, upstream))
        .then((outcome) => {
          if (outcome.success) this.#remember(key, outcome);
          return outcome;
        }).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    const outcome = await pending;
    const copy = structuredClone(outcome);
    if (this.#skipped.has(outcome)) this.#skipped.set(copy, this.#skipped.get(outcome)!);
    return copy;
  }

  /** One upstream search, its quota reserved before it is sent (throws when short) and settled after. */
  async #upstream(params: RequestParams, sections: readonly OutputSection[]): Promise<SearchOutcome> {
    const settle = await this.#quota?.reserve(Number(params.expQty));
    let outcome: SearchOutcome;
    try {
      outcome = await this.#fetchOutcome(params, sections);
    } catch (error) {
      settle?.(0);
      throw error;
    }
    settle?.(this.#sent.get(outcome) ?? (outcome.success ? outcome.data.returned_count : 0));
    if (this.#quotaUsedUp.has(outcome)) await this.#quota?.markExhausted();
    return outcome;
  }

  #remember(key: string, outcome: SearchSuccess): void {
    if (this.#ttlMs <= 0) return;
    const chars = key.length + (this.#answerChars.get(outcome) ?? JSON.stringify(outcome.data).length);
    if (chars > this.#maxCacheChars / 4) return;
    const old = this.#cache.get(key);
    if (old !== undefined) {
      this.#cache.delete(key);
      this.#cacheChars -= old.chars;
    }
    this.#cache.set(key, { expires: this.#now() + this.#ttlMs, outcome: structuredClone(outcome), chars });
    this.#cacheChars += chars;
    while (this.#cache.size > this.#maxEntries || this.#cacheChars > this.#maxCacheChars) {
      const [oldest, entry] = this.#cache.entries().next().value!;
      this.#cache.delete(oldest);
      this.#cacheChars -= entry.chars;
    }
  }

  /** Waits for a turn to call GPSS: true once it has one, false after `queueTimeoutMs`. */
  #turn(): Promise<boolean> {
    if (this.#running < this.#maxConcurrent) {
      this.#running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const take = () => {
        clearTimeout(timer);
        this.#waiting.delete(take);
        resolve(true); // the finishing search's turn passes to this one
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(take);
        resolve(false);
      }, this.#queueTimeoutMs);
      this.#waiting.add(take);
    });
  }

  /** Ends a turn: the first waiting search gets it, or the count goes down. */
  #endTurn(): void {
    const next = this.#waiting.values().next();
    if (next.done) this.#running--;
    else next.value();
  }

  /**
   * A bounded excerpt of an upstream text with the user code masked in every spelling, before
   * the text is cut and again at the cut (see `_secret.ts`).
   */
  #quote(text: string, max = QUOTED_UPSTREAM_LENGTH, from: ExcerptFrom = "start"): string {
    return boundedExcerpt(text, max, from, this.#mask);
  }

  async #fetchOutcome(params: RequestParams, sections: readonly OutputSection[]): Promise<SearchOutcome> {
    if (!(await this.#turn())) {
      return this.#finish({
        error: `GPSS API is busy: this service sends it at most ${this.#maxConcurrent} searches at a ` +
          `time, and this one waited ${this.#queueTimeoutMs} ms for its turn. Try again shortly.`,
        retry: false,
      }, params);
    }
    try {
      const query = buildQueryFromParams(params, this.#userCode!);
      const url = `${this.#baseUrl}${this.#baseUrl.includes("?") ? "&" : "?"}${query}`;
      const first = await this.#attempt(url, false, params, sections);
      if (!("retry" in first) || !first.retry) return this.#finish(first, params);
      const second = await this.#attempt(url, true, params, sections);
      return this.#finish(second, params);
    } finally {
      this.#endTurn();
    }
  }

  #finish(result: SearchOutcome | AttemptFailure, params: RequestParams): SearchOutcome {
    if ("success" in result) return result;
    const outcome: SearchFailure = {
      success: false,
      data: null,
      request_params: params,
      error: result.error,
    };
    if (result.skip) this.#skipped.set(outcome, result.total ?? null);
    if (result.sent !== undefined) this.#sent.set(outcome, result.sent);
    if (result.quota) this.#quotaUsedUp.add(outcome);
    return outcome;
  }

  /**
   * Describes a transport error with its cause. Deno puts the URL (user code and keywords
   * included) in the middle of its message, so the excerpt keeps both ends: what failed and why.
   */
  #describe(err: unknown): string {
    const parts: string[] = [];
    let e: unknown = err;
    for (let depth = 0; e !== undefined && e !== null && depth < 3; depth++) {
      parts.push(e instanceof Error ? e.message : String(e));
      e = e instanceof Error ? e.cause : undefined;
    }
    return this.#quote(parts.filter((p) => p !== "").join(": "), 2 * QUOTED_UPSTREAM_LENGTH, "middle");
  }

  /** Rethrows a bug with the user code removed from its message and stack. */
  #rethrow(err: unknown): never {
    let e: unknown = err;
    for (let depth = 0; e instanceof Error && depth < 3; depth++, e = e.cause) {
      try {
        e.message = this.#mask(e.message);
        if (typeof e.stack === "string") e.stack = this.#mask(e.stack);
      } catch {
        // A read-only message (DOMException): nothing we can mask.
      }
    }
    throw err;
  }

  async #attempt(
    url: string,
    fresh: boolean,
    params: RequestParams,
    sections: readonly OutputSection[],
  ): Promise<SearchOutcome | AttemptFailure> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const client = fresh && this.#createHttpClient ? this.#createHttpClient() : undefined;
    const timedOut = (): AttemptFailure => ({
      error: `GPSS API did not answer within ${this.#timeoutMs} ms`,
      retry: false,
    });
    try {
      this.#upstreamCalls++;
      let res: Response;
      try {
        res = await this.#fetch(url, {
          method: "GET",
          signal,
          headers: { accept: "application/json, text/xml;q=0.9, */*;q=0.1" },
          ...(client ? { client } : {}),
        });
      } catch (err) {
        if (isTimeout(err, signal)) return timedOut();
        if (err instanceof TypeError) {
          return { error: `GPSS API request failed: ${this.#describe(err)}`, retry: true };
        }
        return this.#rethrow(err);
      }
      let body: string | null;
      try {
        body = await readText(res, this.#maxBodyBytes);
      } catch (err) {
        if (isTimeout(err, signal)) return timedOut();
        if (err instanceof TypeError) {
          return {
            error: `GPSS API connection broke while reading the response (HTTP ${res.status}): ${
              this.#describe(err)
            }`,
            retry: true,
          };
        }
        return this.#rethrow(err);
      }
      if (body === null) {
        return {
          error: `GPSS API response is larger than ${this.#maxBodyBytes} bytes (HTTP ${res.status}); ` +
            "ask for fewer results",
          retry: false,
        };
      }
      if (res.status !== 200) {
        return {
          error: `GPSS API returned HTTP status ${res.status}: ${this.#quote(body)}`,
          retry: res.status >= 500,
        };
      }
      return this.#interpret(body, params, sections);
    } finally {
      client?.close();
    }
  }

  #interpret(
    body: string,
    params: RequestParams,
    sections: readonly OutputSection[],
  ): SearchOutcome | AttemptFailure {
    let parsed;
    try {
      parsed = parseGpssResponse(body, { maxRecords: Number(params.expQty), sections });
    } catch (err) {
      if (!(err instanceof GpssResponseError)) throw err;
      const shown = this.#quote(body);
      switch (err.kind) {
        case "empty":
          return { error: "GPSS API returned an empty response", retry: true };
        case "truncated":
          return {
            error: `GPSS API response was cut off after ${body.length} characters (it ends with: ${
              this.#quote(body, 80, "end")
            })`,
            retry: true,
          };
        case "malformed":
          return {
            error: `GPSS API response could not be parsed (${this.#quote(err.message)}): ${shown}`,
            retry: false,
          };
        case "unrecognized":
          return {
            error: /^\s*usage:/i.test(body)
              ? `GPSS API answered with its usage text instead of results (HTTP 200): ${shown}`
              : `GPSS API returned a body that is neither GPSS JSON nor XML (HTTP 200): ${shown}`,
            retry: false,
          };
      }
    }
    if (parsed.kind === "message") {
      const info = describeGpssMessage(parsed.message, parsed.status, (text) => this.#quote(text));
      if (info.kind === "no_record") {
        return {
          success: true,
          data: { total_count: 0, returned_count: 0, records: [], total: 0, next_offset: null },
          request_params: params,
          error: null,
        };
      }
      if (info.kind === "skip") return { error: info.error!, retry: false, skip: true };
      if (info.kind === "quota") return { error: info.error!, retry: false, quota: true };
      return { error: info.error!, retry: false };
    }
    // One total per answer, in total_count and total alike: GPSS's `total-rec` when it sent one
    // (records it sent past it are not results of the search: an offset at or past it is past the
    // end, and a page is cut at it).
    const offset = Number(params.expSkip);
    const declared = parsed.declaredTotal;
    if (declared !== null && offset > 0 && offset >= declared) {
      return {
        error: `GPSS API says the search has ${declared} results, so offset ${offset} is past the end`,
        retry: false,
        skip: true,
        total: declared,
        sent: parsed.records.length,
      };
    }
    const records = declared === null
      ? parsed.records
      : parsed.records.slice(0, Math.max(0, declared - offset));
    // Without total-rec, the records GPSS sent (counted, if more than were read) from the offset on.
    const total = declared ?? Math.max(parsed.totalCount, offset + records.length);
    const next = offset + records.length;
    const data: SearchData = {
      total_count: total,
      returned_count: records.length,
      records,
      total,
      next_offset: records.length > 0 && next < total ? next : null,
    };
    // The answer is normally far smaller than the body, but JSON escapes control characters
    // (one raw byte becomes "\u0001", six): it may not outgrow the body limit.
    const chars = JSON.stringify(data).length;
    if (chars > this.#maxBodyBytes) {
      return {
        error: `GPSS API answer would be ${chars} characters of JSON, more than the ${this.#maxBodyBytes} ` +
          "allowed; ask for fewer results",
        retry: false,
      };
    }
    const outcome: SearchSuccess = { success: true, data, request_params: params, error: null };
    this.#answerChars.set(outcome, chars);
    if (records.length < parsed.records.length) this.#sent.set(outcome, parsed.records.length);
    return outcome;
  }
}
