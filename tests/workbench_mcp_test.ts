/**
 * The agent session of docs/mcp.md ("translate the rest of this file": list → untranslated page → write
 * with expected_msgstr → progress), run over MCP from that page's own examples, on a copy of the
 * shipped French catalogue; and what a second agent with a stale read gets.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { poFixture, REPO_ROOT } from "./_helpers.ts";

const GLOSSARY = Deno.readTextFileSync(new URL("examples/fr/glossary.po", REPO_ROOT));

/** The session steps of docs/mcp.md: [tool, arguments], in order, with `/srv/po` replaced by `root`. */
function readmeSession(root: string): [string, Record<string, unknown>][] {
  const readme = Deno.readTextFileSync(new URL("docs/mcp.md", REPO_ROOT));
  const start = readme.indexOf("**A whole session");
  assert.ok(start > 0, "docs/mcp.md has the session");
  const section = readme.slice(start, readme.indexOf("\n## ", start));
  return [...section.matchAll(/```jsonc\n\/\/ \d+\. (\w+):[^\n]*\n([\s\S]*?)```/g)].map((m) => [
    m[1] ?? "",
    JSON.parse((m[2] ?? "").replaceAll("/srv/po", root)),
  ]);
}

function mcpClient(
  app: { request: (input: string | Request, init?: RequestInit) => Response | Promise<Response> },
) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(app.request(url instanceof Request ? url : String(url), init)),
  });
  return { client: new Client({ name: "workbench-agent", version: "1.0.0" }), transport };
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };

Deno.test("the agent session of docs/mcp.md runs over MCP: list, untranslated page, write with expected_msgstr, progress", async () => {
  await using po = await poFixture({ "fr/glossary.po": GLOSSARY });
  const steps = readmeSession(po.root);
  assert.deepEqual(steps.map(([tool]) => tool), [
    "list_catalogues",
    "list_entries",
    "write_po",
    "list_catalogues",
  ]);
  const { client, transport } = mcpClient(po.app);
  await client.connect(transport);
  try {
    // The tool descriptions say how to go from one step to the next.
    const { tools } = await client.listTools();
    const described = (name: string) => tools.find((t) => t.name === name)!.description ?? "";
    assert.match(described("list_catalogues"), /list_entries/);
    assert.match(described("list_entries"), /expected_msgstr/);
    assert.match(described("list_entries"), /next_cursor/);

    const call = async (name: string, args: Record<string, unknown>) =>
      await client.callTool({ name, arguments: args }) as Result;

    const listed = await call(...steps[0]!);
    assert.notEqual(listed.isError, true, JSON.stringify(listed.content));
    const [catalogue] = listed.structuredContent!.catalogues as {
      path: string;
      revision: string;
      counts: { entries: Record<string, number> };
    }[];
    assert.ok(catalogue);
    assert.equal(catalogue.path, "fr/glossary.po");
    assert.deepEqual(catalogue.counts.entries, { translated: 2, fuzzy: 1, untranslated: 1, obsolete: 0 });

    const page = await call(...steps[1]!);
    assert.notEqual(page.isError, true, JSON.stringify(page.content));
    const entries = page.structuredContent!.entries as { msgid: string; msgstr: string; state: string }[];
    assert.deepEqual(entries.map((e) => [e.msgid, e.state]), [
      ["abstract base class", "fuzzy"],
      ["annotation", "untranslated"],
    ]);
    assert.equal(page.structuredContent!.next_cursor, null);
    assert.equal(page.structuredContent!.revision, catalogue.revision);

    // Step 3 as docs/mcp.md gives it: its expected_msgstr is what step 2 showed.
    const [, writeArgs] = steps[2]!;
    const written = (writeArgs.entries as { msgid: string; expected_msgstr: string }[])[0]!;
    assert.equal(written.expected_msgstr, entries.find((e) => e.msgid === written.msgid)!.msgstr);
    const write = await call(...steps[2]!);
    assert.notEqual(write.isError, true, JSON.stringify(write.content));

    const progress = await call(...steps[3]!);
    const [after] = progress.structuredContent!.catalogues as {
      revision: string;
      counts: { entries: Record<string, number>; percent: number };
    }[];
    assert.ok(after);
    assert.deepEqual(after.counts.entries, { translated: 3, fuzzy: 1, untranslated: 0, obsolete: 0 });
    assert.equal(after.counts.percent, 75);
    assert.notEqual(after.revision, catalogue.revision);

    // A second agent that read before step 3 is refused, and the file keeps the first agent's text.
    const stale = await call("write_po", {
      file_path: po.path("fr/glossary.po"),
      mode: "update",
      entries: [{ msgid: "annotation", msgstr: "note", expected_msgstr: "" }],
    });
    assert.equal(stale.isError, true);
    assert.match(JSON.stringify(stale.content), /annotation/);
    const again = await call("list_entries", {
      path: "fr/glossary.po",
      states: ["translated"],
      fields: ["msgid", "msgstr"],
    });
    const annotation = (again.structuredContent!.entries as { msgid: string; msgstr: string }[])
      .find((e) => e.msgid === "annotation");
    assert.equal(annotation?.msgstr, "annotation");
  } finally {
    await client.close();
  }
});

Deno.test("over MCP, a list_entries cursor into a catalogue that changed is an isError result naming the conflict", async () => {
  await using po = await poFixture({ "fr/glossary.po": GLOSSARY });
  const { client, transport } = mcpClient(po.app);
  await client.connect(transport);
  try {
    const first = await client.callTool({
      name: "list_entries",
      arguments: { path: "fr/glossary.po", limit: 1 },
    }) as Result;
    const cursor = first.structuredContent!.next_cursor as string;
    await po.post("/po/write", {
      file_path: po.path("fr/glossary.po"),
      entries: [{ msgid: "new", msgstr: "nouveau" }],
    });
    const next = await client.callTool({
      name: "list_entries",
      arguments: { path: "fr/glossary.po", limit: 1, cursor },
    }) as Result;
    assert.equal(next.isError, true);
    assert.match(JSON.stringify(next.content), /changed since this cursor was made/);
  } finally {
    await client.close();
  }
});
