/**
 * Issue 34.10: a cheaper MCP surface, through the official SDK client on a real socket:
 * tools/list within 25 KB; a large result sent once (structured content, a summary as text), a
 * small one mirrored as MCP's spec advises; every tool's description names the tool to use
 * instead for neighbouring work; the server's instructions name the workflow; the list of checks
 * is a tool of its own (list_checks), not text repeated in check_po's schema.
 */
import assert from "node:assert/strict";
import { MIRRORED_RESULT_BYTES } from "../routes/mcp.ts";
import { CHECKS } from "../lib/po/checks/mod.ts";
import { poFixture } from "./_helpers.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";

/** A catalogue whose whole read is well over the mirroring bound. */
function bigCatalogue(n: number): string {
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < n; i++) out += `msgid "Message number ${i} of the test"\nmsgstr "Message ${i}"\n\n`;
  return out;
}

Deno.test("tools/list costs at most 25 KB, and the instructions name the workflow tools", async () => {
  await using f = await poFixture({ "fr.po": bigCatalogue(3) });
  await using mcp = await mcpOverSocket(f.app);
  const before = mcp.received.bytes;
  const { tools } = await mcp.client.listTools();
  const bytes = mcp.received.bytes - before;
  assert.ok(bytes <= 25_000, `tools/list is ${bytes} bytes`);
  assert.ok(tools.length >= 19);
  const instructions = mcp.client.getInstructions() ?? "";
  for (const name of ["list_catalogues", "list_entries", "search_entries", "check_po", "write_po"]) {
    assert.ok(instructions.includes(name), `instructions name ${name}`);
  }
  // One example per tool (in its input schema), not a second in the description.
  for (const t of tools) {
    const examples = (t.inputSchema as { examples?: unknown[] }).examples;
    assert.ok(examples === undefined || examples.length === 1, t.name);
    assert.ok(!/Example: \{/.test(t.description ?? ""), `${t.name}: no example in the description`);
  }
  // The checks' descriptions are list_checks' answer, not check_po's schema.
  const check = tools.find((t) => t.name === "check_po")!;
  assert.ok(JSON.stringify(check).length < 3000, `check_po is ${JSON.stringify(check).length} characters`);
  const listed = await mcp.client.callTool({ name: "list_checks", arguments: {} });
  const checks = (listed.structuredContent as { checks: { name: string; description: string }[] }).checks;
  assert.deepEqual(checks.map((c) => c.name), CHECKS.map((c) => c.name));
});

Deno.test("every PO tool's description names a neighbouring tool to use instead", async () => {
  await using f = await poFixture({});
  await using mcp = await mcpOverSocket(f.app);
  const { tools } = await mcp.client.listTools();
  const names = tools.map((t) => t.name);
  for (const t of tools) {
    // One of a kind, or named by search_patents; get_patent's text is being rewritten with its
    // number check (issue 34.1), and search_patents names it.
    const exempt = [
      "new_endpoint",
      "get_available_databases",
      "get_search_examples",
      "get_quota_status",
      "get_patent",
    ];
    if (exempt.includes(t.name)) continue;
    const others = names.filter((n) => n !== t.name && (t.description ?? "").includes(n));
    assert.ok(others.length > 0, `${t.name}: ${t.description}`);
  }
});

Deno.test("a large result is sent once (structured content, a summary as text); a small one is mirrored", async () => {
  await using f = await poFixture({ "fr.po": bigCatalogue(400) });
  await using mcp = await mcpOverSocket(f.app);
  const before = mcp.received.bytes;
  const big = await mcp.client.callTool({ name: "read_po", arguments: { file_path: f.path("fr.po") } });
  const wire = mcp.received.bytes - before;
  const json = JSON.stringify(big.structuredContent);
  assert.ok(json.length > 10 * MIRRORED_RESULT_BYTES);
  assert.equal(
    (big.structuredContent as { entries: unknown[] }).entries.length,
    400,
    "all of it, structured",
  );
  const text = textOf(big);
  assert.ok(text.length < 1000, `the text is a summary (${text.length} characters)`);
  assert.match(text, /structuredContent/);
  assert.match(text, /"entries":"\[400 items/);
  assert.ok(wire < 1.2 * json.length, `sent once: ${wire} bytes on the wire for ${json.length} of JSON`);
  // A small result: the same JSON as text and as structured content.
  const small = await mcp.client.callTool({
    name: "read_po_context",
    arguments: { file_path: f.path("fr.po"), msgid: "Message number 3 of the test", context_size: 0 },
  });
  assert.deepEqual(JSON.parse(textOf(small)), small.structuredContent);
});
