/**
 * Delete and purge (issue 34.3): `delete: true` per entry in write_po removes a live entry (or,
 * with `obsolete: true`, an obsolete one), never the header, only an entry that is there, only if it
 * still holds its expected_msgstr; purge_obsolete removes obsolete entries (all, those already
 * obsolete before the last merge, or the fuzzy ones) with a dry run's diff, a compare-and-swap and
 * counts. Over a real socket, over MCP through the official SDK client (told it is destructive), and
 * with msgcat as the oracle of the bytes written.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { HAS_MSGCAT } from "./_prerequisites.ts";
import { servedCatalogues } from "./_catalogue_server.ts";

const CATALOGUE = `msgid ""
msgstr ""
"Language: fr\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Save the file"
msgstr ""

msgid "Save the fiel"
msgstr "Enregistrer le fichier"

msgid "Open"
msgstr "Ouvrir"

#~ msgid "Close"
#~ msgstr "Fermer"

#, fuzzy
#~| msgid "Quit now"
#~ msgid "Quit"
#~ msgstr "Quitter maintenant"

#~ msgid "Print"
#~ msgstr "Imprimer"
`;

/** The file as msgcat lays it out: what the server must write. */
async function msgcat(text: string): Promise<string | null> {
  if (!HAS_MSGCAT) return null;
  const child = new Deno.Command("msgcat", { args: ["-"], stdin: "piped", stdout: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  assert.ok(out.success);
  return new TextDecoder().decode(out.stdout);
}

Deno.test("write_po delete: true removes the stray entry a typo made, and refuses what it must", async () => {
  await using po = await servedCatalogues({ "fr/app.po": CATALOGUE });
  const file = po.path("fr/app.po");
  const original = await Deno.readTextFile(file);

  // The header: 422, nothing written.
  const header = await po.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "", msgstr: "", delete: true }],
  });
  assert.equal(header.status, 422);
  assert.match(JSON.stringify(header.body.detail), /header/);
  // An entry that is not there: 409 naming the closest msgid, nothing written.
  const missing = await po.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Save the fiel!", msgstr: "", delete: true }],
  });
  assert.equal(missing.status, 409);
  assert.match(missing.body.detail.message ?? JSON.stringify(missing.body.detail), /no entry to delete/);
  assert.equal(missing.body.detail.conflicts[0].closest[0].msgid, "Save the fiel");
  // A translation changed since it was read: 409 with the current one.
  const changed = await po.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Save the fiel", msgstr: "", delete: true, expected_msgstr: "Enregistrer" }],
  });
  assert.equal(changed.status, 409);
  assert.equal(changed.body.detail.conflicts[0].msgstr, "Enregistrer le fichier");
  assert.equal(await Deno.readTextFile(file), original, "every refusal left the file as it was");

  // The stray entry goes, the real one gets its translation, in one write; an obsolete one goes too.
  const w = await po.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [
      { msgid: "Save the fiel", msgstr: "", delete: true, expected_msgstr: "Enregistrer le fichier" },
      { msgid: "Save the file", msgstr: "Enregistrer le fichier", expected_msgstr: "" },
      { msgid: "Close", msgstr: "", delete: true, obsolete: true },
    ],
  });
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.equal(w.body.deleted, 2);
  assert.equal(w.body.updated, 1);
  assert.deepEqual(w.body.outcomes, ["deleted", "updated", "deleted"]);
  assert.deepEqual(w.body.entries.map((e: { state: string | null }) => e.state), [null, "translated", null]);
  const text = await Deno.readTextFile(file);
  assert.ok(!text.includes('Save the fiel"'), "the stray entry is gone");
  assert.ok(!text.includes("Close"), "the obsolete entry is gone");
  const expected = original
    .replace('msgid "Save the fiel"\nmsgstr "Enregistrer le fichier"\n\n', "")
    .replace('msgid "Save the file"\nmsgstr ""', 'msgid "Save the file"\nmsgstr "Enregistrer le fichier"')
    .replace('#~ msgid "Close"\n#~ msgstr "Fermer"\n\n', "");
  assert.equal(text, expected);
  const gettext = await msgcat(expected);
  if (gettext !== null) assert.equal(text, gettext, "what msgcat writes");

  // A dry run shows the diff of a removal and writes nothing.
  const dry = await po.post("/po/write", {
    file_path: file,
    dry_run: true,
    entries: [{ msgid: "Open", msgstr: "", delete: true }],
  });
  assert.equal(dry.status, 200);
  assert.match(dry.body.diff, /^-msgid "Open"$/m);
  assert.equal(await Deno.readTextFile(file), text);
});

Deno.test("purge_obsolete: dry run, compare-and-swap, all, fuzzy, and those obsolete before the last merge", async () => {
  await using po = await servedCatalogues({
    "fr/app.po": CATALOGUE,
    // The catalogue before the merge that made "Print" obsolete: "Close" and "Quit" were already.
    "before/app.po": CATALOGUE.replace(
      '#~ msgid "Print"\n#~ msgstr "Imprimer"',
      'msgid "Print"\nmsgstr "Imprimer"',
    ),
  });
  const file = po.path("fr/app.po");
  const original = await Deno.readTextFile(file);
  const read = await po.post("/po/entries", { path: file, states: ["obsolete"] });
  const lines = Object.fromEntries(
    read.body.entries.map((e: { msgid: string; line: number }) => [e.msgid, e.line]),
  );

  const dry = await po.post("/po/purge", { file_path: file, dry_run: true });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.purged, 3);
  assert.equal(dry.body.kept, 0);
  assert.equal(dry.body.written, false);
  assert.deepEqual(dry.body.entries.map((e: { msgid: string; line: number }) => [e.msgid, e.line]), [
    ["Close", lines.Close],
    ["Quit", lines.Quit],
    ["Print", lines.Print],
  ]);
  assert.match(dry.body.diff, /^-#~ msgid "Close"$/m);
  assert.equal(await Deno.readTextFile(file), original, "a dry run writes nothing");

  const stale = await po.post("/po/purge", { file_path: file, if_revision: "AAAAAAAAAAAAAAAAAAAAAA" });
  assert.equal(stale.status, 409);
  assert.equal(stale.body.detail.revision, dry.body.revision);
  assert.equal(await Deno.readTextFile(file), original);

  // Those already obsolete before the merge go; the one the merge obsoleted stays for review.
  const before = await po.post("/po/purge", {
    file_path: file,
    which: "before",
    before_path: po.path("before/app.po"),
    if_revision: dry.body.revision,
  });
  assert.equal(before.status, 200, JSON.stringify(before.body));
  assert.deepEqual([before.body.purged, before.body.kept, before.body.written], [2, 1, true]);
  assert.deepEqual(before.body.entries.map((e: { msgid: string }) => e.msgid), ["Close", "Quit"]);
  const kept = await Deno.readTextFile(file);
  assert.ok(kept.endsWith('msgstr "Ouvrir"\n\n#~ msgid "Print"\n#~ msgstr "Imprimer"\n'), kept);
  const gettext = await msgcat(kept);
  if (gettext !== null) assert.equal(kept, gettext);
  const again = await po.post("/po/purge", { file_path: file, which: "fuzzy" });
  assert.deepEqual([again.body.purged, again.body.kept, again.body.written], [0, 1, false]);
  const all = await po.post("/po/purge", { file_path: file });
  assert.deepEqual([all.body.purged, all.body.kept, all.body.written], [1, 0, true]);
  assert.ok(!(await Deno.readTextFile(file)).includes("#~"));
  // The counts are what the file holds: no obsolete entry left, and list_entries agrees.
  const counts = (await po.post("/po/entries", { path: file })).body.counts.entries;
  assert.equal(counts.obsolete, 0);
});

Deno.test("purge_obsolete over MCP: told destructive, and the fuzzy ones only", async () => {
  await using po = await servedCatalogues({ "fr/app.po": CATALOGUE });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, po.app.fetch);
  const client = new Client({ name: "purge-test", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
    );
    const { tools } = await client.listTools();
    const purge = tools.find((t) => t.name === "purge_obsolete");
    assert.ok(purge, "purge_obsolete is listed");
    // MCP's defaults: a tool that is not read-only is destructive unless it says otherwise, and
    // tools/list leaves out the hints that only repeat a default (routes/mcp.ts).
    assert.notEqual(purge.annotations?.readOnlyHint, true);
    assert.notEqual(purge.annotations?.destructiveHint, false);
    const write = tools.find((t) => t.name === "write_po")!;
    assert.ok(JSON.stringify(write.inputSchema).includes('"delete"'), "write_po takes delete");
    const r = await client.callTool({
      name: "purge_obsolete",
      arguments: { file_path: po.path("fr/app.po"), which: "fuzzy" },
    }) as {
      isError?: boolean;
      structuredContent?: { purged: number; kept: number; entries: { msgid: string }[] };
    };
    assert.ok(!r.isError, JSON.stringify(r));
    assert.equal(r.structuredContent!.purged, 1);
    assert.equal(r.structuredContent!.kept, 2);
    assert.deepEqual(r.structuredContent!.entries.map((e) => e.msgid), ["Quit"]);
    assert.ok(!(await Deno.readTextFile(po.path("fr/app.po"))).includes("Quit"));
  } finally {
    await client.close();
    await server.shutdown();
  }
});
