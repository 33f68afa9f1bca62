/**
 * Turning a tool's result into bounded JSON bytes: the one place that knows how large an answer
 * may be, how a large list answer is kept as bytes and reassembled after small changes, and how
 * kept bytes are handed out as a stream that holds its share of the shared allowance until taken.
 * Routes say *what* to answer; this module decides how it becomes bytes. No HTTP here: the stream
 * is a plain `ReadableStream`, the refusals are {@link AnswerTooLargeError}s.
 *
 * The caches below are keyed by object identity, and are right only because what they key on is
 * never changed after it is made (a catalogue version and its messages are immutable; a change
 * makes a new object). A cache never holds its keys alive (`WeakMap`).
 *
 * @module
 */
import type { ByteBudget } from "./byte_budget.ts";
import { type ByteItem, type BytePiece, compactRuns, encodePieces } from "./byte_runs.ts";
import { AnswerTooLargeError, TimeoutError } from "./errors.ts";

/** Default of the answer limit (MAX_RESPONSE_BYTES). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Default of the shared allowance for large answers and loads (MAX_INFLIGHT_BYTES). */
export const DEFAULT_MAX_INFLIGHT_BYTES = 128 * 1024 * 1024;

/** A hint for answers of tools that have no smaller form to offer. */
export const GENERIC_HINT = "Ask for fewer results.";

/**
 * The refusal of an answer over the limit: what it would have been, and how to ask for less.
 *
 * @example
 * ```ts
 * throw answerTooLarge(null, 1024, "Ask for fewer results.");
 * ```
 */
export function answerTooLarge(bytes: number | null, limit: number, hint: string): AnswerTooLargeError {
  const size = bytes === null ? "" : ` ${bytes} bytes,`;
  return new AnswerTooLargeError(
    `The answer would be${size} over the limit of ${limit} bytes (MAX_RESPONSE_BYTES). ${hint}`,
  );
}

/**
 * A JSON answer's text, refused when it is over `limit` bytes (a string of n UTF-16 units is at
 * least n bytes of UTF-8, so the check needs no encoding).
 *
 * @throws {AnswerTooLargeError} when it is over the limit (or too large for a string at all).
 */
export function jsonWithin(value: unknown, limit: number, hint: string): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // V8's "Invalid string length": past half a gigabyte, far over any limit.
    if (error instanceof RangeError) throw answerTooLarge(null, limit, hint);
    throw error;
  }
  if (text.length > limit) throw answerTooLarge(text.length, limit, hint);
  return text;
}

const utf8Decoder = new TextDecoder();

/**
 * An answer already serialised, for large answers that many requests share (a catalogue's
 * `read_po`): a stream hands out `chunks` (views of kept bytes, in order) as they are; a caller
 * that needs the object (MCP's structured content) calls `value()`.
 */
export class JsonAnswer {
  /** Bytes in all. */
  readonly length: number;
  constructor(readonly chunks: readonly Uint8Array[], readonly value: () => unknown) {
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    this.length = length;
  }

  /** The JSON as one string. */
  text(): string {
    const chunks = this.chunks;
    if (chunks.length === 1) return utf8Decoder.decode(chunks[0]);
    const decoder = new TextDecoder();
    return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
  }
}

/** How {@link streamAnswer} hands an answer out. */
export interface StreamOptions {
  /** Largest answer allowed, in bytes. */
  limit: number;
  /** How to ask for less, said when the answer is over `limit`. */
  hint: string;
  /** The allowance the answer holds its size of until it has been taken. */
  budget: ByteBudget;
  /** A reader that has not taken an answer of a megabyte or more within this time is cut off. */
  timeoutMs: number;
}

/** Largest view a stream hands out at once. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/** Answers smaller than this are not timed: they fit in the socket's buffers. */
const TIMED_ANSWER_BYTES = 1024 * 1024;

/**
 * A kept answer as a stream of views of its bytes (a Uint8Array body would be copied whole per
 * response), at most 64 KiB each, since megabyte-sized buffers in the server's write path are what
 * fragments the allocator and keeps resident memory high under load. A large answer holds its
 * size of the shared allowance until it is taken, so slow readers of many large answers cannot
 * hold more than that between them; and a reader too slow to take it within `timeoutMs` is cut off.
 *
 * @throws {AnswerTooLargeError} when the answer is over `options.limit`.
 * @throws {BusyError} when the allowance cannot hold it now.
 */
export function streamAnswer(answer: JsonAnswer, options: StreamOptions): ReadableStream<Uint8Array> {
  if (answer.length > options.limit) throw answerTooLarge(answer.length, options.limit, options.hint);
  const release = options.budget.take(answer.length, "answers");
  const chunks = answer.chunks;
  let k = 0;
  let at = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = () => {
    clearTimeout(timer);
    release();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (answer.length < TIMED_ANSWER_BYTES) return;
      const ms = options.timeoutMs;
      timer = setTimeout(() => {
        done();
        // The runtime logs why a body failed: one line, no stack (this is not a bug).
        const reason = new TimeoutError(`an answer was not taken within ${ms / 1000} s (REQUEST_TIMEOUT_S)`);
        reason.stack = `${reason.name}: ${reason.message}`;
        try {
          controller.error(reason);
        } catch {
          // already closed
        }
      }, ms);
    },
    pull(controller) {
      let chunk = chunks[k];
      while (chunk !== undefined && at >= chunk.length) {
        chunk = chunks[++k];
        at = 0;
      }
      if (chunk === undefined) {
        done();
        return controller.close();
      }
      controller.enqueue(chunk.subarray(at, at + STREAM_CHUNK_BYTES));
      at += STREAM_CHUNK_BYTES;
    },
    cancel: done,
  });
}

/**
 * Each item's JSON kept as UTF-8, made once per item: items are immutable and shared by many
 * collections (a message by every catalogue version that has it), so after a change only the
 * new items are serialised. One per JSON shape.
 */
export class KeptItemJson<T extends object> {
  readonly #pieces = new WeakMap<T, BytePiece>();

  /**
   * @param toJson the item's JSON value.
   * @param lowerBound a cheap lower bound of the item's JSON length with the comma after it,
   *   used to refuse a list of many tiny items without serialising any.
   */
  constructor(readonly toJson: (item: T) => unknown, readonly lowerBound: (item: T) => number) {}

  /** The kept piece of `item`, if it was serialised before. */
  get(item: T): BytePiece | undefined {
    return this.#pieces.get(item);
  }

  /** Keeps `piece` as the bytes of `item`. */
  set(item: T, piece: BytePiece): void {
    this.#pieces.set(item, piece);
  }
}

/** How a {@link ListAnswers} answers a collection. */
export interface ListAnswerOptions<C extends object, T extends object> {
  /** The answer's one key: the answer is `{"<key>": [...]}`. */
  key: string;
  /** The items of a collection to list, in order. */
  select: (collection: C) => readonly T[];
  /** Where the items' bytes are kept (shared by lists of the same items). */
  items: KeptItemJson<T>;
  /**
   * When pieces are copied together, keep the copies for later versions: right for a list of
   * every item, not for a filtered one (its copies would scatter the full list's runs).
   */
  keepCompacted: boolean;
  /** How to ask for less, said when the answer is over the limit. */
  hint: string;
  /**
   * Fields that depend on the collection, not on the item alone (an entry's position and its line
   * in the file): for each collection, the fields of its `i`-th item, put first in that item's
   * object (their bytes are made per collection; the item's own bytes stay kept and shared).
   */
  positions?: (collection: C) => (i: number) => Record<string, unknown>;
  /**
   * The JSON of {@link positions}' fields without braces (`"index":3,"line":40`), when the caller can
   * write it faster than `JSON.stringify` does; it must equal that JSON.
   */
  positionsJson?: (collection: C) => (i: number) => string;
}

/** A collection whose answer was found larger than `limit` bytes. */
class TooLarge {
  constructor(readonly limit: number) {}
}

/** Views an assembled answer may have before its bytes are copied together. */
const MAX_RUNS = 64;

/**
 * The JSON answers `{"<key>": [...]}` of collections (catalogue versions), assembled once per
 * collection from each item's kept bytes: after a change to a few items, only those are
 * serialised, and the answer is a few runs of existing bytes, not a new 5 MB buffer. A collection
 * found over a limit is remembered as such, and refused again without work under that limit.
 */
export class ListAnswers<C extends object, T extends object> {
  readonly #answers = new WeakMap<C, Uint8Array[] | TooLarge>();
  readonly #open: Uint8Array;
  readonly #close: Uint8Array;

  constructor(readonly options: ListAnswerOptions<C, T>) {
    this.#open = utf8.encode(`{${JSON.stringify(options.key)}:[`);
    this.#close = utf8.encode("]}");
  }

  /**
   * The answer for `collection`, at most `maxBytes` bytes.
   *
   * @throws {AnswerTooLargeError} when it would be larger.
   */
  answer(collection: C, maxBytes: number): JsonAnswer {
    const { select, key } = this.options;
    let chunks = this.#answers.get(collection);
    if (chunks instanceof TooLarge) {
      if (maxBytes <= chunks.limit) throw answerTooLarge(null, maxBytes, this.options.hint);
      chunks = undefined;
    }
    if (chunks === undefined) {
      chunks = this.#assemble(collection, maxBytes);
      this.#answers.set(collection, chunks);
    }
    const { toJson } = this.options.items;
    const positions = this.options.positions;
    if (positions === undefined) {
      return new JsonAnswer(chunks, () => ({ [key]: select(collection).map(toJson) }));
    }
    return new JsonAnswer(chunks, () => {
      const at = positions(collection);
      return { [key]: select(collection).map((item, i) => ({ ...at(i), ...(toJson(item) as object) })) };
    });
  }

  #tooLarge(collection: C, maxBytes: number): AnswerTooLargeError {
    this.#answers.set(collection, new TooLarge(maxBytes));
    return answerTooLarge(null, maxBytes, this.options.hint);
  }

  #assemble(collection: C, maxBytes: number): Uint8Array[] {
    const { select, items: kept, keepCompacted } = this.options;
    const items = select(collection);
    // A lower bound first, in one cheap pass: a collection of many tiny items is refused
    // without serialising any.
    let bound = 0;
    for (const item of items) bound += kept.lowerBound(item);
    if (bound > maxBytes) throw this.#tooLarge(collection, maxBytes);
    const fresh = items.filter((item) => kept.get(item) === undefined);
    // Counted while serialising, so a collection of many tiny items is refused before its whole
    // answer exists (a string of n UTF-16 units is at least n bytes of UTF-8).
    let size = 0;
    for (const item of items) {
      const piece = kept.get(item);
      if (piece !== undefined) size += piece.end - piece.start + 1;
    }
    const texts: string[] = [];
    for (const item of fresh) {
      const text = JSON.stringify(kept.toJson(item));
      texts.push(text);
      size += text.length + 1;
      if (size > maxBytes) throw this.#tooLarge(collection, maxBytes);
    }
    encodePieces(texts, ",").forEach((piece, i) => kept.set(fresh[i]!, piece)); // same length as fresh
    const parts: ByteItem[] = [this.#open];
    const heads = this.#heads(collection, items.length);
    if (heads !== null) {
      for (const head of heads) size += head.end - head.start - 1;
      if (size > maxBytes) throw this.#tooLarge(collection, maxBytes);
    }
    for (let i = 0; i < items.length; i++) {
      if (i > 0) parts.push(COMMA);
      const piece = kept.get(items[i]!)!; // every item was kept above
      if (heads === null) parts.push(piece);
      else parts.push(heads[i]!, { buffer: piece.buffer, start: piece.start + 1, end: piece.end });
    }
    parts.push(this.#close);
    // Pieces made at different times lie in different buffers: when they make too many runs,
    // they are copied together once (and, for the full list, kept there for later versions).
    const { runs, moved } = compactRuns(parts, MAX_RUNS);
    if (moved && keepCompacted && heads === null) {
      items.forEach((item, i) => kept.set(item, moved[2 * i + 1]!));
    }
    return runs;
  }

  /** Per item, `{` and its positions' fields with a comma after them: the start of its object. */
  #heads(collection: C, count: number): BytePiece[] | null {
    const { positions, positionsJson } = this.options;
    if (positions === undefined) return null;
    const texts: string[] = new Array(count);
    if (positionsJson !== undefined) {
      const json = positionsJson(collection);
      for (let i = 0; i < count; i++) texts[i] = `{${json(i)},`;
      // One buffer for all: ASCII (numbers, null and names) is one byte per character.
      const buffer = utf8.encode(texts.join(""));
      if (buffer.length === texts.reduce((n, t) => n + t.length, 0)) {
        const pieces: BytePiece[] = new Array(count);
        let at = 0;
        for (let i = 0; i < count; i++) pieces[i] = { buffer, start: at, end: at += texts[i]!.length };
        return pieces;
      }
    } else {
      const at = positions(collection);
      for (let i = 0; i < count; i++) texts[i] = JSON.stringify(at(i)).slice(0, -1) + ",";
    }
    return encodePieces(texts);
  }
}

const utf8 = new TextEncoder();
const COMMA = utf8.encode(",");
