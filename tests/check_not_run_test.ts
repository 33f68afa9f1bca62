/**
 * Issue 34.4: checks see what the file knows. check_po for an entry of a catalogue (file_path +
 * entry) takes the entry's references and flags from the file when the request leaves them out
 * (and says so), and every check answer names the checks that did not run and why (not_run).
 * Over a real socket: HTTP, and MCP through the SDK client.
 */
import assert from "node:assert/strict";
import { poFixture } from "./_helpers.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";

const CATALOGUE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n' +
  '#: ../../library/os.rst:12\nmsgid "Use ``os.path`` here."\nmsgstr ""\n\n' +
  '#: src/app.py:3\n#, python-format\nmsgid "%(count)d files"\nmsgstr ""\n';

/** The reST entry translated with an unclosed inline literal: the strict write refuses it. */
const BROKEN = { msgid: "Use ``os.path`` here.", msgstr: "Utilisez ``os.path ici." };

type Answer = {
  problems: { check: string }[];
  not_run: { check: string; reason: string }[];
  from_file?: { occurrences?: string[]; flags?: string[] } | null;
  notes: string[];
};

Deno.test("check_po {file_path, entry} takes the entry's references from the file: the reST checks run", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  const r = await s.post("/po/check", { file_path: f.path("fr.po"), entry: BROKEN });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const answer = r.body as Answer;
  assert.ok(answer.problems.some((p) => p.check === "rest-literals"), JSON.stringify(answer));
  assert.deepEqual(answer.from_file, { occurrences: ["../../library/os.rst:12"] });
  assert.match(answer.notes.join(" "), /left out occurrences/);
  // The strict write refuses the same translation: the check and the write agree.
  const strict = await s.post("/po/write", {
    file_path: f.path("fr.po"),
    mode: "update",
    checks: "strict",
    entries: [BROKEN],
  });
  assert.equal(strict.status, 422);
  // The same over MCP.
  const mcp = await s.client.callTool({
    name: "check_po",
    arguments: { file_path: f.path("fr.po"), entry: BROKEN },
  });
  assert.notEqual(mcp.isError, true, textOf(mcp));
  assert.ok((mcp.structuredContent as Answer).problems.some((p) => p.check === "rest-literals"));
});

Deno.test("an entry check names what did not run: catalogue checks, checks off by default, a format it lacks", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  // On its own (no file): no .rst reference, no format flag.
  const alone = (await s.post("/po/check", { entry: BROKEN })).body as Answer;
  assert.deepEqual(alone.problems, []);
  const reasons = Object.fromEntries(alone.not_run.map((n) => [n.check, n.reason]));
  assert.match(reasons["rest-literals"] ?? "", /no reference to a \.rst file/);
  assert.match(reasons["python-format"] ?? "", /no python-format flag/);
  assert.match(reasons["duplicates"] ?? "", /whole catalogue/);
  assert.match(reasons["capitalisation"] ?? "", /off by default/);
  // The python-format entry of the file: its flag comes from the file, so python-format runs.
  const placeholder = (await s.post("/po/check", {
    file_path: f.path("fr.po"),
    entry: { msgid: "%(count)d files", msgstr: "%(nombre)d fichiers" },
  })).body as Answer;
  assert.ok(placeholder.problems.some((p) => p.check === "python-format"), JSON.stringify(placeholder));
  assert.deepEqual(placeholder.from_file, { occurrences: ["src/app.py:3"], flags: ["python-format"] });
  assert.ok(!placeholder.not_run.some((n) => n.check === "python-format"));
  // An entry the file does not have: said, and checked with what the request gives.
  const stray =
    (await s.post("/po/check", { file_path: f.path("fr.po"), entry: { msgid: "Nope", msgstr: "Non" } }))
      .body as Answer;
  assert.equal(stray.from_file, null);
  assert.match(stray.notes.join(" "), /has no entry with this msgctxt and msgid/);
  // Checks named by the request: only what could not run is listed, not the checks left out.
  const named = (await s.post("/po/check", { entry: BROKEN, checks: ["rest-literals", "urls"] }))
    .body as Answer;
  assert.ok(named.problems.some((p) => p.check === "rest-literals"));
  assert.deepEqual(named.not_run, []);
});

Deno.test("a file check names the checks that had nothing to look at", async () => {
  await using f = await poFixture({
    "fr.po": CATALOGUE.replace('msgstr ""\n\n#: src', 'msgstr "Utilisez ``os.path`` ici."\n\n#: src'),
  });
  await using s = await mcpOverSocket(f.app);
  const r = (await s.post("/po/check", { file_path: f.path("fr.po") })).body as Answer;
  const reasons = Object.fromEntries(r.not_run.map((n) => [n.check, n.reason]));
  // The one translated entry is reST, without a format flag.
  assert.match(reasons["python-format"] ?? "", /no entry checked has the python-format flag/);
  assert.equal(reasons["rest-literals"], undefined);
  assert.match(reasons["end-punctuation"] ?? "", /off by default/);
  const mcp = await s.client.callTool({ name: "check_po", arguments: { file_path: f.path("fr.po") } });
  assert.deepEqual((mcp.structuredContent as Answer).not_run, r.not_run);
});
