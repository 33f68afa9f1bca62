/**
 * Issue 34.2: a typo cannot create an entry silently. Over MCP (the SDK client, a real socket)
 * write_po defaults to mode "update" and an upsert that would create an entry a few edits from an
 * existing msgid is refused; over HTTP the create-or-update stays, names such entries in
 * similar_existing, and refuses them with refuse_similar (what the dashboard sends).
 */
import assert from "node:assert/strict";
import { poFixture } from "./_helpers.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";

const CATALOGUE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  'msgid "Save the file"\nmsgstr ""\n\nmsgid "Open the settings"\nmsgstr "Ouvrir les réglages"\n\n' +
  'msgctxt "menu"\nmsgid "Quit"\nmsgstr ""\n';

Deno.test("over MCP, write_po defaults to update: a mistyped msgid is refused with the closest one, nothing added", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using mcp = await mcpOverSocket(f.app);
  const before = await Deno.readTextFile(f.path("fr.po"));
  const typo = await mcp.client.callTool({
    name: "write_po",
    arguments: { file_path: f.path("fr.po"), entries: [{ msgid: "Save the fle", msgstr: "Enregistrer" }] },
  });
  assert.equal(typo.isError, true, textOf(typo));
  const detail = JSON.parse(textOf(typo));
  assert.equal(detail.mode, "update");
  assert.equal(detail.conflicts[0].closest[0].msgid, "Save the file");
  assert.equal(await Deno.readTextFile(f.path("fr.po")), before, "nothing written");
});

Deno.test("over MCP, an upsert that would create an entry a typo away is refused; mode create adds it", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using mcp = await mcpOverSocket(f.app);
  const before = await Deno.readTextFile(f.path("fr.po"));
  const upsert = await mcp.client.callTool({
    name: "write_po",
    arguments: {
      file_path: f.path("fr.po"),
      mode: "upsert",
      entries: [{ msgid: "Open the setings", msgstr: "Ouvrir" }, {
        msgid: "Quit",
        msgctxt: "menus",
        msgstr: "Q",
      }],
    },
  });
  assert.equal(upsert.isError, true, textOf(upsert));
  const detail = JSON.parse(textOf(upsert));
  assert.match(detail.message, /a few edits away/);
  assert.deepEqual(detail.similar_existing, [
    {
      index: 0,
      msgctxt: null,
      msgid: "Open the setings",
      similar: [{ msgctxt: null, msgid: "Open the settings", distance: 1 }],
    },
    // The same msgid in another context: a mistyped msgctxt.
    { index: 1, msgctxt: "menus", msgid: "Quit", similar: [{ msgctxt: "menu", msgid: "Quit", distance: 0 }] },
  ]);
  assert.equal(await Deno.readTextFile(f.path("fr.po")), before, "nothing written");
  const create = await mcp.client.callTool({
    name: "write_po",
    arguments: {
      file_path: f.path("fr.po"),
      mode: "create",
      entries: [{ msgid: "Open the setings", msgstr: "O" }],
    },
  });
  assert.notEqual(create.isError, true, textOf(create));
  assert.equal((create.structuredContent as { created: number }).created, 1);
  // A msgid far from every other is created by an upsert, and none is similar.
  const fresh = await mcp.client.callTool({
    name: "write_po",
    arguments: {
      file_path: f.path("fr.po"),
      mode: "upsert",
      entries: [{ msgid: "Completely new", msgstr: "N" }],
    },
  });
  assert.notEqual(fresh.isError, true, textOf(fresh));
  assert.deepEqual((fresh.structuredContent as { similar_existing: unknown[] }).similar_existing, []);
});

Deno.test("over HTTP, create-or-update stays the default and says which created entries look like typos", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using http = await mcpOverSocket(f.app);
  const w = await http.post("/po/write", {
    file_path: f.path("fr.po"),
    entries: [{ msgid: "Save the fle", msgstr: "Enregistrer" }],
  });
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.equal(w.body.created, 1);
  assert.deepEqual(w.body.similar_existing, [{
    index: 0,
    msgctxt: null,
    msgid: "Save the fle",
    similar: [{ msgctxt: null, msgid: "Save the file", distance: 1 }],
  }]);
  assert.match(w.body.message, /similar_existing/);
  // The dashboard's flag refuses it: nothing written.
  const before = await Deno.readTextFile(f.path("fr.po"));
  const refused = await http.post("/po/write", {
    file_path: f.path("fr.po"),
    refuse_similar: true,
    entries: [{ msgid: "Open the setings", msgstr: "Ouvrir" }],
  });
  assert.equal(refused.status, 409, JSON.stringify(refused.body));
  assert.equal(refused.body.detail.similar_existing[0].similar[0].msgid, "Open the settings");
  assert.equal(await Deno.readTextFile(f.path("fr.po")), before);
});

Deno.test("the dashboard's write sends refuse_similar", async () => {
  const source = await Deno.readTextFile(new URL("../routes/ui/entry.js", import.meta.url));
  assert.match(source, /refuse_similar: true/);
});
