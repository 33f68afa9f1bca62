import assert from "node:assert/strict";
import { poFixture } from "./_helpers.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';

const SAMPLE = HEADER + `#. Greeting
#: src/app.py:10 src/app.py:20
#, fuzzy, python-format
msgid "Hello %s"
msgstr "Bonjour %s"

# Translator note
msgid "10"
msgstr "dix"

msgid "2"
msgstr "deux"

msgctxt "verb"
msgid "Open"
msgstr "Ouvrir"

msgid "Open"
msgstr "Ouvert"

#, fuzzy
msgid "Fuzzy two"
msgstr "Flou deux"

#~ msgid "Old"
#~ msgstr "Vieux"
`;

Deno.test("POST /po/read returns every entry in file order, header excluded, obsolete included", async () => {
  await using f = await poFixture({ "fr/app.po": SAMPLE });
  const r = await f.post("/po/read", { file_path: f.path("fr/app.po") });
  assert.equal(r.status, 200);
  assert.match(r.type ?? "", /^application\/json/);
  assert.deepEqual(r.body.entries.map((e: { msgid: string }) => e.msgid), [
    "Hello %s",
    "10",
    "2",
    "Open",
    "Open",
    "Fuzzy two",
    "Old",
  ]);
  assert.deepEqual(r.body.entries[0], {
    index: 0,
    line: 8,
    state: "fuzzy",
    msgid: "Hello %s",
    msgstr: "Bonjour %s",
    msgctxt: null,
    comment: "Greeting",
    tcomment: "",
    occurrences: ["src/app.py:10", "src/app.py:20"],
    flags: ["fuzzy", "python-format"],
    msgid_plural: null,
    msgstr_plural: {},
    previous_msgid: null,
    previous_msgctxt: null,
    obsolete: false,
  });
  assert.equal(r.body.entries[6].obsolete, true);
});

Deno.test("POST /po/read keeps duplicate entries (polib reads them too)", async () => {
  await using f = await poFixture({ "d.po": HEADER + 'msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n' });
  const r = await f.post("/po/read", { file_path: f.path("d.po") });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.entries.map((e: { msgstr: string }) => e.msgstr), ["1", "2"]);
  const w = await f.post("/po/write", { file_path: f.path("d.po"), entries: [{ msgid: "b", msgstr: "x" }] });
  assert.equal(w.status, 422, "msgcat refuses duplicates, so the write is refused");
  assert.match(w.body.detail, /^Invalid PO file: /);
});

Deno.test("POST /po/write updates in place and keeps what the request omits", async () => {
  await using f = await poFixture({ "app.po": SAMPLE });
  const file = f.path("app.po");
  const w = await f.post("/po/write", {
    file_path: file,
    entries: [
      { msgid: "Hello %s", msgstr: "Salut %s" },
      { msgid: "Open", msgstr: "Ouvrir (verbe)", msgctxt: "verb", comment: null },
      { msgid: "Fuzzy two", msgstr: "Deux", flags: [] },
      { msgid: "New one", msgstr: "Nouveau", occurrences: ["src/new.py:1", "README"] },
    ],
    layout: "full",
  });
  assert.equal(w.status, 200);
  const { revision, layout, ...rest } = w.body;
  assert.deepEqual(layout, {
    mode: "full",
    file_in_layout: true,
    full_relayout_changed_lines: 0,
    gettext: "0.21",
  });
  assert.deepEqual(rest, {
    success: true,
    message: `Successfully wrote to ${file}, laid out as GNU msgcat 0.21 lays it out`,
    created: 1,
    updated: 3,
    unchanged: 0,
    revived: 0,
    deleted: 0,
    outcomes: ["updated", "updated", "updated", "created"],
    written: true,
    entries: rest.entries,
    problems: [],
    similar_existing: [],
  });
  assert.match(revision, /^[A-Za-z0-9_-]{22}$/);
  // Each entry where the written file has it, with its state.
  const lines = (await Deno.readTextFile(file)).split("\n");
  for (const e of rest.entries) {
    const keyword = e.msgctxt === null
      ? `msgid ${JSON.stringify(e.msgid)}`
      : `msgctxt ${JSON.stringify(e.msgctxt)}`;
    assert.equal(lines[e.line - 1], keyword, e.msgid);
  }
  assert.deepEqual(rest.entries.map((e: { state: string }) => e.state), [
    "fuzzy",
    "translated",
    "translated",
    "translated",
  ]);
  const entries = (await f.post("/po/read", { file_path: file })).body.entries;
  const hello = entries[0];
  assert.equal(hello.msgstr, "Salut %s");
  assert.deepEqual(hello.occurrences, ["src/app.py:10", "src/app.py:20"], "omitted occurrences are kept");
  assert.deepEqual(hello.flags, ["fuzzy", "python-format"], "omitted flags are kept");
  assert.equal(hello.comment, "Greeting");
  const verb = entries.find((e: { msgctxt: string | null }) => e.msgctxt === "verb");
  assert.equal(verb.msgstr, "Ouvrir (verbe)");
  assert.equal(
    entries.find((e: { msgid: string }) => e.msgid === "Fuzzy two").flags.length,
    0,
    "flags: [] clears fuzzy",
  );
  assert.deepEqual(entries.map((e: { msgid: string }) => e.msgid), [
    "Hello %s",
    "10",
    "2",
    "Open",
    "Open",
    "Fuzzy two",
    "New one",
    "Old",
  ]);
  assert.deepEqual(entries[6].occurrences, ["src/new.py:1", "README"]);
});

Deno.test("POST /po/write treats null, absent and empty msgctxt as no context", async () => {
  await using f = await poFixture({ "m.po": SAMPLE });
  for (const [i, ctx] of [{}, { msgctxt: null }, { msgctxt: "" }].entries()) {
    const w = await f.post("/po/write", {
      file_path: f.path("m.po"),
      entries: [{ msgid: "Open", msgstr: "X", ...ctx }],
    });
    // The first one changes the entry; the others find it as they would make it.
    assert.deepEqual(w.body.outcomes, [i === 0 ? "updated" : "unchanged"]);
    assert.equal(w.body.created, 0);
  }
  const entries = (await f.post("/po/read", { file_path: f.path("m.po") })).body.entries;
  assert.deepEqual(
    entries.filter((e: { msgid: string }) => e.msgid === "Open").map((
      e: { msgctxt: string | null; msgstr: string },
    ) => [e.msgctxt, e.msgstr]),
    [["verb", "Ouvrir"], [null, "X"]],
  );
});

Deno.test("POST /po/write: the last of duplicate request entries wins, and the message says so", async () => {
  await using f = await poFixture({ "x.po": SAMPLE });
  const w = await f.post("/po/write", {
    file_path: f.path("x.po"),
    entries: [{ msgid: "2", msgstr: "first" }, { msgid: "2", msgstr: "second" }],
  });
  assert.equal(w.status, 200);
  assert.match(
    w.body.message,
    /1 duplicate \(msgctxt, msgid\) entries in the request were merged, the last one wins/,
  );
  const entries = (await f.post("/po/read", { file_path: f.path("x.po") })).body.entries;
  assert.equal(entries.find((e: { msgid: string }) => e.msgid === "2").msgstr, "second");
});

Deno.test("POST /po/write creates a missing file with a UTF-8 header, laid out as msgcat does", async () => {
  await using f = await poFixture({ "fr/.keep": "" });
  const file = f.path("fr/new.po");
  const w = await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Hello", msgstr: "Bonjour 你好" }],
  });
  assert.equal(w.status, 200);
  assert.equal(w.body.created, 1);
  const text = await Deno.readTextFile(file);
  assert.match(text, /^msgid ""\nmsgstr ""\n"Content-Type: text\/plain; charset=UTF-8\\n"\n/);
  assert.ok(text.endsWith('msgid "Hello"\nmsgstr "Bonjour 你好"\n'));
  const missingDir = await f.post("/po/write", { file_path: f.path("nope/new.po"), entries: [] });
  assert.equal(missingDir.status, 404);
});

Deno.test("POST /po/write layout full lays the whole file out exactly as msgcat (golden bytes); keep only the new entry", async () => {
  const input = HEADER +
    '#: b.py:2\n#: a.py:1\n#, python-format, fuzzy\nmsgid "A long message that certainly needs to be wrapped because it is longer than the page"\nmsgstr "x"\n';
  await using f = await poFixture({ "g.po": input, "k.po": input });
  const kept = await f.post("/po/write", {
    file_path: f.path("k.po"),
    entries: [{ msgid: "z", msgstr: "y" }],
  });
  assert.equal(await Deno.readTextFile(f.path("k.po")), input + '\nmsgid "z"\nmsgstr "y"\n');
  assert.deepEqual(kept.body.layout, {
    mode: "keep",
    file_in_layout: false,
    full_relayout_changed_lines: 12,
    gettext: "0.21",
  });
  const full = await f.post("/po/write", {
    file_path: f.path("g.po"),
    entries: [{ msgid: "z", msgstr: "y" }],
    layout: "full",
  });
  assert.deepEqual(full.body.layout, {
    mode: "full",
    file_in_layout: true,
    full_relayout_changed_lines: 0,
    gettext: "0.21",
  });
  // msgcat 0.21's output for the same content (checked with /usr/bin/msgcat).
  assert.equal(
    await Deno.readTextFile(f.path("g.po")),
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
      '#: b.py:2 a.py:1\n#, fuzzy, python-format\nmsgid ""\n"A long message that certainly needs to be wrapped because it is longer than "\n"the page"\nmsgstr "x"\n\nmsgid "z"\nmsgstr "y"\n',
  );
});

Deno.test("POST /po/read_context returns the target and its neighbours, clipped", async (t) => {
  await using f = await poFixture({ "c.po": SAMPLE });
  const file = f.path("c.po");
  const ids = (r: { body: { context_before: { msgid: string }[]; context_after: { msgid: string }[] } }) => [
    r.body.context_before.map((e) => e.msgid),
    r.body.context_after.map((e) => e.msgid),
  ];
  await t.step("default size 1", async () => {
    const r = await f.post("/po/read_context", { file_path: file, msgid: "2" });
    assert.equal(r.body.target_entry.msgstr, "deux");
    assert.deepEqual(ids(r), [["10"], ["Open"]]);
  });
  await t.step("clipped at the start, header excluded", async () => {
    const r = await f.post("/po/read_context", { file_path: file, msgid: "Hello %s", context_size: 3 });
    assert.deepEqual(ids(r), [[], ["10", "2", "Open"]]);
  });
  await t.step("msgctxt selects the entry", async () => {
    const r = await f.post("/po/read_context", {
      file_path: file,
      msgid: "Open",
      msgctxt: "verb",
      context_size: 0,
    });
    assert.equal(r.body.target_entry.msgstr, "Ouvrir");
    assert.deepEqual(ids(r), [[], []]);
    const plain = await f.post("/po/read_context", { file_path: file, msgid: "Open", context_size: 0 });
    assert.equal(plain.body.target_entry.msgstr, "Ouvert");
  });
  await t.step("no match", async () => {
    const r = await f.post("/po/read_context", { file_path: file, msgid: "nope" });
    assert.deepEqual(r.body, {
      target_entry: null,
      context_before: [],
      context_after: [],
      closest: [],
      message: 'No entry has msgid "nope" without context; no msgid is near it',
    });
  });
  await t.step("negative size is a 422", async () => {
    const r = await f.post("/po/read_context", { file_path: file, msgid: "2", context_size: -1 });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.detail, [{
      type: "greater_than_equal",
      loc: ["body", "context_size"],
      msg: "Input should be greater than or equal to 0",
      input: -1,
      ctx: { ge: 0 },
    }]);
  });
});

Deno.test("POST /po/find_fuzzy lists fuzzy entries in file order", async () => {
  await using f = await poFixture({ "z.po": SAMPLE });
  const r = await f.post("/po/find_fuzzy", { file_path: f.path("z.po") });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.entries.map((e: { msgid: string }) => e.msgid), ["Hello %s", "Fuzzy two"]);
});

Deno.test("path and file errors get their status and a clear message", async (t) => {
  await using f = await poFixture({
    "ok.po": SAMPLE,
    "bad.po": 'msgid "unterminated\nmsgstr ""\n',
    "notes.txt": "x",
    "dir.po/x": "",
  });
  const outside = await Deno.makeTempDir();
  await Deno.writeTextFile(`${outside}/secret.po`, SAMPLE);
  await Deno.symlink(`${outside}/secret.po`, f.path("link.po"));
  const cases: [string, string, number, RegExp][] = [
    ["relative path leaving the root", "../ok.po", 422, /leaves the catalogue root/i],
    ["not a .po file", f.path("notes.txt"), 422, /\.po/],
    ["missing file", f.path("missing.po"), 404, /^File not found: /],
    ["outside the roots", `${outside}/secret.po`, 403, /^Path is outside the catalogue roots/],
    ["a symlink pointing out", f.path("link.po"), 403, /^Path is outside the catalogue roots/],
    [
      "dot-dot escape",
      `${f.root}/../${outside.split("/").pop()}/secret.po`,
      403,
      /^Path is outside the catalogue roots/,
    ],
    ["a directory", f.path("dir.po"), 422, /regular file/i],
    ["NUL byte", `${f.root}/a\u0000.po`, 422, /NUL|null/i],
    ["invalid PO", f.path("bad.po"), 422, /^Invalid PO file: .* at line \d+, column \d+$/],
  ];
  try {
    for (const [label, path, status, detail] of cases) {
      await t.step(label, async () => {
        for (const endpoint of ["/po/read", "/po/find_fuzzy"]) {
          const r = await f.post(endpoint, { file_path: path });
          assert.equal(r.status, status, `${endpoint}: ${JSON.stringify(r.body)}`);
          assert.match(r.body.detail, detail);
          assert.ok(
            !JSON.stringify(r.body).includes(outside) || path.includes(outside),
            "no foreign path leaks",
          );
        }
      });
    }
    await t.step("an invalid file is left byte-identical by a write", async () => {
      const before = await Deno.readFile(f.path("bad.po"));
      const r = await f.post("/po/write", {
        file_path: f.path("bad.po"),
        entries: [{ msgid: "a", msgstr: "b" }],
      });
      assert.equal(r.status, 422);
      assert.deepEqual(await Deno.readFile(f.path("bad.po")), before);
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("writes to a single-byte catalogue keep its charset; a character it cannot hold is refused", async () => {
  const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));
  const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\n';
  await using f = await poFixture({ "l.po": latin1(header + 'msgid "cafe"\nmsgstr "café"\n') });
  const r = await f.post("/po/read", { file_path: f.path("l.po") });
  assert.equal(r.status, 200);
  assert.equal(r.body.entries[0].msgstr, "café");
  const w = await f.post("/po/write", {
    file_path: f.path("l.po"),
    entries: [{ msgid: "cafe", msgstr: "thé" }],
  });
  assert.equal(w.status, 200);
  const written = latin1(header + 'msgid "cafe"\nmsgstr "thé"\n');
  assert.deepEqual(await Deno.readFile(f.path("l.po")), written);
  const refused = await f.post("/po/write", {
    file_path: f.path("l.po"),
    entries: [{ msgid: "tea", msgstr: "茶" }],
  });
  assert.equal(refused.status, 422);
  assert.equal(
    refused.body.detail,
    'Cannot write PO file in charset "ISO-8859-1": the entry with msgid "tea" has the character U+8336 (茶), ' +
      "which ISO-8859-1 cannot hold",
  );
  assert.deepEqual(await Deno.readFile(f.path("l.po")), written, "the file is untouched");
});

Deno.test("/po/read and /po/find_fuzzy answers (serialised once per document) follow writes and outside edits", async () => {
  await using f = await poFixture({ "s.po": SAMPLE });
  const file = f.path("s.po");
  const ids = async (path: string) =>
    (await f.post(path, { file_path: file })).body.entries.map((e: { msgid: string }) => e.msgid);
  assert.deepEqual(await ids("/po/find_fuzzy"), ["Hello %s", "Fuzzy two"]);
  const first = await ids("/po/read");
  assert.deepEqual(await ids("/po/read"), first, "a repeated read gives the same answer");

  await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Fuzzy two", msgstr: "Deux", flags: [] }],
  });
  assert.deepEqual(await ids("/po/find_fuzzy"), ["Hello %s"], "the write is seen");
  await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "Added", msgstr: "Ajouté", flags: ["fuzzy"] }],
  });
  assert.deepEqual(await ids("/po/find_fuzzy"), ["Hello %s", "Added"]);
  assert.deepEqual(await ids("/po/read"), [...first.slice(0, 6), "Added", "Old"]);

  // Another program rewrites the file (a different size, so the stat changes at once).
  await Deno.writeTextFile(file, HEADER + '#, fuzzy\nmsgid "Only"\nmsgstr "Seul"\n');
  assert.deepEqual(await ids("/po/read"), ["Only"]);
  assert.deepEqual(await ids("/po/find_fuzzy"), ["Only"]);
});

Deno.test("a large /po/read answer arrives whole over a real socket, with its length, as the entries", async () => {
  const body = Array.from(
    { length: 3000 },
    (_, i) =>
      `#: src/m${i}.py:${i}\nmsgid "Message ${i} — ${"é".repeat(i % 50)}"\nmsgstr "Traduction ${i}"\n`,
  ).join("\n");
  await using f = await poFixture({ "big.po": HEADER + body });
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, f.app.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/po/read`;
  for (let round = 0; round < 2; round++) { // the second answer comes from the cached bytes
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ file_path: f.path("big.po") }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.ok(bytes.length > 4 * 64 * 1024, `${bytes.length} bytes: several 64 KiB pieces`);
    assert.equal(Number(res.headers.get("content-length")), bytes.length);
    const entries = JSON.parse(new TextDecoder().decode(bytes)).entries;
    assert.equal(entries.length, 3000);
    assert.equal(entries[2999].msgid, `Message 2999 — ${"é".repeat(2999 % 50)}`);
    assert.deepEqual(entries[1234].occurrences, ["src/m1234.py:1234"]);
  }
});
