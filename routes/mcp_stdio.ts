/**
 * MCP over stdio: newline-delimited JSON-RPC on a byte stream, as the MCP stdio transport says.
 *
 * The SDK's own stdio transport drops a line that is not JSON without a word to the client and
 * reports a line that is not JSON-RPC with a many-line message. JSON-RPC 2.0 asks for an answer to
 * both, so this transport gives one: `-32700 Parse error` (id null) for a line that is not JSON,
 * `-32600 Invalid Request` for one that is not a JSON-RPC message or is a batch (MCP has none since
 * 2025-06-18), and writes one short line to the log for each. A line longer than the body limit is
 * answered the same way without being kept.
 *
 * @module
 */
import { type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { concatRuns } from "../lib/byte_runs.ts";

/** Where the transport writes: one whole message per call, in order. */
export type WriteBytes = (bytes: Uint8Array) => Promise<void> | void;

/** The JSON-RPC answer to a line that could not be taken. */
function errorMessage(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

/** The id of a would-be request, when it has a usable one. */
function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * A `Transport` (in the MCP SDK's sense) over a byte stream.
 *
 * @example
 * ```ts
 * serveStdio(factory, { transport: new LineTransport(Deno.stdin.readable, (b) => writeAll(Deno.stdout, b), log, 16 << 20) });
 * ```
 */
export class LineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: ReadableStream<Uint8Array>;
  readonly #write: WriteBytes;
  readonly #log: (line: string) => void;
  readonly #maxLineBytes: number;
  #closed = false;
  #writing: Promise<void> = Promise.resolve();
  /** Ids of requests passed to the server and not answered yet. */
  readonly #pending = new Set<string | number>();
  #settled: (() => void) | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(
    input: ReadableStream<Uint8Array>,
    write: WriteBytes,
    log: (line: string) => void,
    maxLineBytes: number,
  ) {
    this.#input = input;
    this.#write = write;
    this.#log = log;
    this.#maxLineBytes = maxLineBytes;
  }

  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    this.#readLoop().catch((error) => this.onerror?.(error as Error));
    return Promise.resolve();
  }

  async #readLoop(): Promise<void> {
    const decoder = new TextDecoder();
    let parts: Uint8Array[] = [];
    let size = 0;
    let overlong = false;
    for (;;) {
      const { done, value } = await this.#reader!.read();
      if (done || this.#closed) break;
      let from = 0;
      for (let nl = value.indexOf(10); nl >= 0; nl = value.indexOf(10, from)) {
        const piece = value.subarray(from, nl);
        if (!overlong && size + piece.length <= this.#maxLineBytes) parts.push(piece);
        else overlong = true;
        this.#takeLine(overlong ? null : decoder.decode(concatRuns(parts)));
        parts = [];
        size = 0;
        overlong = false;
        from = nl + 1;
      }
      const rest = value.subarray(from);
      if (size + rest.length > this.#maxLineBytes) {
        overlong = true;
        parts = [];
      } else if (!overlong && rest.length > 0) {
        parts.push(rest.slice());
      }
      size += rest.length;
    }
    // The client closed its end: what it asked before still gets its answers, then the transport
    // closes (the process then exits).
    if (this.#pending.size > 0) await new Promise<void>((resolve) => this.#settled = resolve);
    await this.close();
  }

  /** One line: a message for the server, or an error answer. `null` is a line over the limit. */
  #takeLine(line: string | null): void {
    if (line === null) {
      this.#log(`MCP stdio: a line over ${this.#maxLineBytes} bytes, answered -32600`);
      this.#answer(
        errorMessage(null, -32600, `Invalid Request: a message is limited to ${this.#maxLineBytes} bytes`),
      );
      return;
    }
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#log(`MCP stdio: a line that is not JSON (${text.length} characters), answered -32700`);
      this.#answer(errorMessage(null, -32700, "Parse error"));
      return;
    }
    if (Array.isArray(value)) {
      this.#log("MCP stdio: a JSON-RPC batch, answered -32600");
      this.#answer(errorMessage(null, -32600, "Invalid Request: JSON-RPC batches are not supported"));
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.#log("MCP stdio: a line that is not a JSON-RPC message, answered -32600");
      this.#answer(errorMessage(idOf(value), -32600, "Invalid Request"));
      return;
    }
    const request = message as { id?: unknown; method?: unknown };
    if (
      typeof request.method === "string" && (typeof request.id === "string" || typeof request.id === "number")
    ) {
      this.#pending.add(request.id);
    }
    this.onmessage?.(message);
  }

  #answer(message: JSONRPCMessage): void {
    this.send(message).catch((error) => this.onerror?.(error as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the stdio transport is closed"));
    const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
    const answer = message as { id?: unknown; method?: unknown };
    if (answer.method === undefined && (typeof answer.id === "string" || typeof answer.id === "number")) {
      this.#pending.delete(answer.id);
      if (this.#pending.size === 0) this.#settled?.();
    }
    // One after the other: a message never interleaves with another.
    this.#writing = this.#writing.then(() => this.#write(bytes));
    return this.#writing;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writing.catch(() => {});
    try {
      await this.#reader?.cancel();
    } catch {
      // already gone
    }
    this.onclose?.();
  }
}
