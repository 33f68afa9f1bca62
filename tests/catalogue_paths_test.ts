/**
 * Issue 34.9: update_header takes dry_run and if_revision; read_po_context answers the closest
 * msgids when none matches; every tool that takes a catalogue accepts a path relative to a root
 * (or says the absolute paths it could have meant); write answers say what was done. Over a real
 * socket, HTTP and MCP (the SDK client).
 */
import assert from "node:assert/strict";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";
import { poFixture, testApp } from "./_helpers.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";

const CATALOGUE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n' +
  'msgid "Save the file"\nmsgstr "Enregistrer le fichier"\n\nmsgid "Open"\nmsgstr ""\n';

Deno.test("update_header: dry_run shows the diff and writes nothing; if_revision refuses a stale update", async () => {
  await using f = await poFixture({ "fr/app.po": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  const before = await Deno.readTextFile(f.path("fr/app.po"));
  const dry = await s.post("/po/header/update", {
    file_path: f.path("fr/app.po"),
    set: { "Language-Team": "French <fr@example.org>" },
    dry_run: true,
  });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.written, false);
  assert.match(dry.body.diff, /^\+"Language-Team: French <fr@example\.org>\\n"$/m);
  assert.equal(await Deno.readTextFile(f.path("fr/app.po")), before, "a dry run writes nothing");
  const stale = await s.post("/po/header/update", {
    file_path: f.path("fr/app.po"),
    set: { Language: "fr_FR" },
    if_revision: "AAAAAAAAAAAAAAAAAAAAAA",
  });
  assert.equal(stale.status, 409, JSON.stringify(stale.body));
  assert.equal(stale.body.detail.revision, dry.body.revision);
  assert.equal(await Deno.readTextFile(f.path("fr/app.po")), before);
  const done = await s.client.callTool({
    name: "update_header",
    arguments: { file_path: "fr/app.po", set: { Language: "fr_FR" }, if_revision: dry.body.revision },
  });
  assert.notEqual(done.isError, true, textOf(done));
  const answer = done.structuredContent as { written: boolean; revision: string; message: string };
  assert.equal(answer.written, true);
  assert.notEqual(answer.revision, dry.body.revision);
  assert.match(answer.message, /laid out as GNU msgcat 0\.21 lays it out/);
  assert.match(await Deno.readTextFile(f.path("fr/app.po")), /"Language: fr_FR\\n"/);
});

Deno.test("read_po_context with a mistyped msgid answers the closest msgids, not a bare null", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  const r = await s.post("/po/read_context", { file_path: f.path("fr.po"), msgid: "Save the fiel" });
  assert.equal(r.status, 200);
  assert.equal(r.body.target_entry, null);
  // "fiel" → "file" swaps two neighbours: one edit (lib/edit_distance.ts).
  assert.deepEqual(r.body.closest[0], { msgctxt: null, msgid: "Save the file", distance: 1 });
  assert.match(r.body.message, /closest: "Save the file"/);
  const mcp = await s.client.callTool({
    name: "read_po_context",
    arguments: { file_path: "fr.po", msgid: "Opn" },
  });
  assert.equal((mcp.structuredContent as { closest: { msgid: string }[] }).closest[0]?.msgid, "Open");
});

Deno.test("every catalogue tool takes a path relative to the root, as list_catalogues gives it", async () => {
  await using f = await poFixture({ "fr/app.po": CATALOGUE, "fr/app.pot": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  const rel = "fr/app.po";
  const calls: [string, Record<string, unknown>][] = [
    ["read_po", { file_path: rel }],
    ["find_fuzzy", { file_path: rel }],
    ["read_po_context", { file_path: rel, msgid: "Open" }],
    ["read_header", { file_path: rel }],
    ["check_po", { file_path: rel }],
    ["check_po", { directory: "fr" }],
    ["list_entries", { path: rel }],
    ["write_po", { file_path: rel, entries: [{ msgid: "Open", msgstr: "Ouvrir", expected_msgstr: "" }] }],
    ["update_header", { file_path: rel, set: {}, dry_run: true }],
    ["merge_po", { file_path: rel, template_path: "fr/app.pot", dry_run: true }],
    ["compile_mo", { file_path: rel, output_path: "fr/app.mo" }],
  ];
  for (const [name, args] of calls) {
    const r = await s.client.callTool({ name, arguments: args });
    assert.notEqual(r.isError, true, `${name}: ${textOf(r)}`);
  }
  assert.ok((await Deno.stat(f.path("fr/app.mo"))).isFile);
  assert.match(await Deno.readTextFile(f.path("fr/app.po")), /msgstr "Ouvrir"/);
  // Over HTTP too; the answer names the absolute path.
  const w = await s.post("/po/write", { file_path: rel, entries: [{ msgid: "Open", msgstr: "Ouvrir!" }] });
  assert.equal(w.status, 200, JSON.stringify(w.body));
  assert.ok(w.body.message.includes(f.path(rel)), w.body.message);
  assert.ok(!/powrap/.test(w.body.message), "no word of a tool that did not run");
});

Deno.test("a relative path in several roots, or in none of several, is refused naming the absolute paths", async () => {
  const a = await Deno.realPath(await Deno.makeTempDir());
  const b = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.writeTextFile(`${a}/fr.po`, CATALOGUE);
    await Deno.writeTextFile(`${b}/fr.po`, CATALOGUE);
    await Deno.writeTextFile(`${b}/de.po`, CATALOGUE);
    const { app } = testApp({ catalogues: new CatalogueStore({ roots: [a, b], codec: PO_CODEC }) });
    await using s = await mcpOverSocket(app);
    const both = await s.post("/po/read", { file_path: "fr.po" });
    assert.equal(both.status, 422);
    assert.ok(
      both.body.detail.includes(`"${a}/fr.po"`) && both.body.detail.includes(`"${b}/fr.po"`),
      both.body.detail,
    );
    const one = await s.post("/po/read", { file_path: "de.po" });
    assert.equal(one.status, 200, "unambiguous across roots");
    const none = await s.client.callTool({ name: "read_header", arguments: { file_path: "it/x.po" } });
    assert.equal(none.isError, true);
    assert.match(textOf(none), new RegExp(`"${a}/it/x\\.po" or "${b}/it/x\\.po"`));
    const escape = await s.post("/po/read", { file_path: "../etc/x.po" });
    assert.equal(escape.status, 422);
    assert.match(escape.body.detail, /leaves the catalogue root/);
  } finally {
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test("no answer of routes/ or lib/ claims powrap ran", async () => {
  for (const dir of ["routes", "lib/po", "lib/store"]) {
    for (const entry of Deno.readDirSync(new URL(`../${dir}/`, import.meta.url))) {
      if (!entry.name.endsWith(".ts")) continue;
      const text = await Deno.readTextFile(new URL(`../${dir}/${entry.name}`, import.meta.url));
      assert.ok(!/formatted with powrap/.test(text), `${dir}/${entry.name}`);
    }
  }
});
