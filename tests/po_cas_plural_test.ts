/**
 * Compare-and-set on plural entries, over a real socket and over MCP: `expected_msgstr` cannot
 * guard a plural entry (its msgstr is always "", its translation is in the forms), so it is
 * refused (422, naming `expected_msgstr_plural`) instead of letting a write overwrite forms
 * another writer changed; `expected_msgstr_plural` compares the forms.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { partlyTranslated, servedCatalogues } from "./_catalogue_server.ts";

const PLURAL = "%d file";

Deno.test("expected_msgstr on a plural entry is a 422 that names expected_msgstr_plural; the forms another writer changed stay", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  // Another writer changes the forms after our read ({0: "%d fichier", 1: "%d fichiers"}).
  const other = await s.post("/po/write", {
    file_path: file,
    entries: [{ msgid: PLURAL, msgstr: "", msgstr_plural: { 0: "%d document", 1: "%d documents" } }],
  });
  assert.equal(other.status, 200);
  const before = await Deno.readFile(file);
  const res = await s.post("/po/write", {
    file_path: file,
    mode: "update",
    entries: [{
      msgid: PLURAL,
      msgstr: "",
      msgstr_plural: { 0: "%d fichier (agent)", 1: "%d fichiers (agent)" },
      expected_msgstr: "",
    }],
  });
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.match(res.body.detail, /entries\[0\].*plural entry.*expected_msgstr_plural/);
  assert.deepEqual(await Deno.readFile(file), before, "the other writer's forms are kept");

  // With the forms it read, the caller gets the 409 that shows the current forms.
  const stale = await s.post("/po/write", {
    file_path: file,
    entries: [{
      msgid: PLURAL,
      msgstr: "",
      msgstr_plural: { 0: "%d fichier (agent)", 1: "%d fichiers (agent)" },
      expected_msgstr: "",
      expected_msgstr_plural: { 0: "%d fichier", 1: "%d fichiers" },
    }],
  });
  assert.equal(stale.status, 409);
  assert.deepEqual(stale.body.detail.conflicts[0].msgstr_plural, { 0: "%d document", 1: "%d documents" });
  assert.deepEqual(await Deno.readFile(file), before);

  // An entry as read (msgstr "" and the forms) can be sent back whole as the expected values.
  const ok = await s.post("/po/write", {
    file_path: file,
    entries: [{
      msgid: PLURAL,
      msgstr: "",
      msgstr_plural: { 0: "%d fichier", 1: "%d fichiers" },
      expected_msgstr: "",
      expected_msgstr_plural: { 0: "%d document", 1: "%d documents" },
    }],
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
});

Deno.test("expected_msgstr still guards a singular entry, and a request making it plural", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  const msgid = "Entry number 1 of the glossary: see the tutorial section 1";
  const res = await s.post("/po/write", {
    file_path: file,
    entries: [{
      msgid,
      msgstr: "",
      msgid_plural: "Entries",
      msgstr_plural: { 0: "a", 1: "b" },
      expected_msgstr: "Entrée numéro 1 du glossaire : voir la section 1 du tutoriel",
    }],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const stale = await s.post("/po/write", {
    file_path: file,
    entries: [{
      msgid: "Entry number 2 of the glossary: see the tutorial section 2",
      msgstr: "x",
      expected_msgstr: "",
    }],
  });
  assert.equal(stale.status, 409);
});

Deno.test("over MCP, write_po refuses expected_msgstr on a plural entry as an isError naming expected_msgstr_plural", async () => {
  await using s = await servedCatalogues({ "fr.po": partlyTranslated(10) });
  const file = s.path("fr.po");
  const before = await Deno.readFile(file);
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(s.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.callTool({
      name: "write_po",
      arguments: {
        file_path: file,
        mode: "update",
        entries: [{ msgid: PLURAL, msgstr: "", msgstr_plural: { 0: "x", 1: "y" }, expected_msgstr: "" }],
      },
    });
    assert.equal(result.isError, true);
    assert.match((result.content as { text: string }[])[0]?.text ?? "", /expected_msgstr_plural/);
    assert.deepEqual(await Deno.readFile(file), before);
  } finally {
    await client.close();
  }
});
