/**
 * For the MCP tests over a real socket: an app served on 127.0.0.1 and the official SDK client
 * connected to its `/mcp`, with the bytes of every answer counted.
 *
 * @module
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { servedOnLoopback } from "./_helpers.ts";

/** A served app and an SDK client on it; dispose to close both. */
export async function mcpOverSocket(app: { fetch: (request: Request) => Response | Promise<Response> }) {
  const { server, base, post } = servedOnLoopback(app);
  const received = { bytes: 0 };
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const body = new Uint8Array(await res.arrayBuffer());
      received.bytes += body.length;
      return new Response(res.status === 202 || res.status === 204 ? null : body, {
        status: res.status,
        headers: res.headers,
      });
    },
  });
  const client = new Client({ name: "socket-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    base,
    received,
    /** POSTs a JSON body to the same server over HTTP. */
    post,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.shutdown();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: unknown }): string {
  return (result.content as { text?: string }[] | undefined)?.[0]?.text ?? "";
}
