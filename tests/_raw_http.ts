/**
 * Test helper: HTTP/1.1 over a raw socket, for requests that `fetch` refuses to send (odd `Host`
 * headers, absolute-form targets, bytes that are not ASCII).
 *
 * @module
 */
import { concatRuns } from "../lib/byte_runs.ts";

/** A parsed answer. */
export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `head` (request line and headers, without the final blank line) and `body`, with
 * `Connection: close`, and reads the whole answer.
 */
export async function rawRequest(
  port: number,
  head: string | Uint8Array,
  body: string = "",
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => conn.close(), timeoutMs);
  try {
    const enc = new TextEncoder();
    const headBytes = typeof head === "string" ? enc.encode(head) : head;
    const bodyBytes = enc.encode(body);
    const tail = enc.encode(`\r\nContent-Length: ${bodyBytes.length}\r\nConnection: close\r\n\r\n`);
    const all = new Uint8Array(headBytes.length + tail.length + bodyBytes.length);
    all.set(headBytes);
    all.set(tail, headBytes.length);
    all.set(bodyBytes, headBytes.length + tail.length);
    for (let at = 0; at < all.length;) at += await conn.write(all.subarray(at));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (;;) {
      let n: number | null;
      try {
        n = await conn.read(buf);
      } catch {
        break;
      }
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    const text = new TextDecoder().decode(concatRuns(chunks));
    const split = text.indexOf("\r\n\r\n");
    const lines = text.slice(0, split).split("\r\n");
    const status = Number(lines[0]?.split(" ")[1]);
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let rest = text.slice(split + 4);
    if (headers.get("transfer-encoding") === "chunked") rest = unchunk(rest);
    return { status, headers, body: rest };
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer or the peer
    }
  }
}

function unchunk(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const nl = text.indexOf("\r\n", at);
    if (nl < 0) return out;
    const size = parseInt(text.slice(at, nl), 16);
    if (!(size > 0)) return out;
    out += text.slice(nl + 2, nl + 2 + size);
    at = nl + 2 + size + 2;
  }
}
