/**
 * A tool's answer that is not JSON (a CSV or JSON Lines export): over HTTP its chunks are streamed
 * as they are with their own media type; over MCP the text is the result's text content and
 * `value()` its structured content.
 *
 * @module
 */

/** A text answer: chunks sent in order, within the answer limit. */
export class TextAnswer {
  /** UTF-8 bytes of all chunks. */
  readonly length: number;
  readonly #encoded: Uint8Array[];
  constructor(
    readonly contentType: string,
    readonly chunks: readonly string[],
    readonly value: () => Record<string, unknown>,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const encoder = new TextEncoder();
    this.#encoded = chunks.map((chunk) => encoder.encode(chunk));
    this.length = this.#encoded.reduce((n, bytes) => n + bytes.length, 0);
  }

  /** The whole text. */
  text(): string {
    return this.chunks.join("");
  }

  /** The chunks as a byte stream, one chunk per read. */
  stream(): ReadableStream<Uint8Array> {
    let k = 0;
    const encoded = this.#encoded;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (k >= encoded.length) return controller.close();
        controller.enqueue(encoded[k++]);
      },
    });
  }
}
