/**
 * What an agent reads through MCP: the bytes of `tools/list`, and of the task "translate 5
 * untranslated entries with checks" (initialize + tools/list + list_entries + 5 write_po with
 * checks), counted as the HTTP answer bodies the official SDK client receives from the service on
 * a real socket (127.0.0.1). The catalogue is generated (60 entries, every 13th untranslated). One
 * large result is measured apart: read_po of the whole catalogue.
 *
 *   deno run --allow-read --allow-write --allow-net=127.0.0.1 --allow-env --allow-sys bench/mcp_surface.ts
 *
 * Prints one JSON object: bytes per step and in all.
 *
 * @module
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { CatalogueStore } from "../lib/store/mod.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { createApp } from "../routes/mod.ts";
import { generatedCatalogue } from "./_generated_po.ts";

/** The bytes of every answer body, by the step that asked. */
export async function measureAgentTask(): Promise<Record<string, number>> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcp-surface-" }));
  const file = `${root}/library.po`;
  await Deno.writeFile(file, encodePo(parsePo(generatedCatalogue(60))));
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const app = createApp({
    config: { apiToken: undefined, maxBodyBytes: 1 << 20 },
    log: () => {},
    catalogues,
    // The patent tools are listed (their schemas are part of tools/list) but not called.
    gpss: { search: () => Promise.reject(new Error("not called")) },
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const counts: Record<string, number> = {};
  let step = "initialize";
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const body = new Uint8Array(await res.arrayBuffer());
      counts[step] = (counts[step] ?? 0) + body.length;
      return new Response(res.status === 204 || res.status === 202 ? null : body, {
        status: res.status,
        headers: res.headers,
      });
    },
  });
  const client = new Client({ name: "bench", version: "1" });
  try {
    await client.connect(transport);
    step = "tools/list";
    await client.listTools();
    step = "list_entries";
    const listed = await client.callTool({
      name: "list_entries",
      arguments: {
        path: file,
        states: ["untranslated"],
        limit: 5,
        fields: ["msgid", "msgstr", "msgctxt", "flags"],
      },
    });
    const entries = (listed.structuredContent as { entries: { msgid: string; msgctxt: string | null }[] })
      .entries;
    if (entries.length !== 5) throw new Error(`expected 5 untranslated entries, got ${entries.length}`);
    step = "5 write_po";
    for (const e of entries) {
      const w = await client.callTool({
        name: "write_po",
        arguments: {
          file_path: file,
          mode: "update",
          checks: "warn",
          entries: [{ msgid: e.msgid, msgctxt: e.msgctxt, msgstr: `翻譯 ${e.msgid}`, expected_msgstr: "" }],
        },
      });
      if (w.isError) throw new Error(JSON.stringify(w.content));
    }
    // Not part of the task: one large result (the whole catalogue), text and structured content.
    step = "read_po (whole catalogue, not in the total)";
    await client.callTool({ name: "read_po", arguments: { file_path: file } });
  } finally {
    await client.close();
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
  counts.total = Object.entries(counts).reduce((a, [k, b]) => k.includes("not in the total") ? a : a + b, 0);
  return counts;
}

if (import.meta.main) console.log(JSON.stringify(await measureAgentTask()));
