/**
 * Writes never follow a symlink to a file the caller could not have named (issue 40, point 4):
 * over a real socket, for every output the server writes (compile, merge output, header update,
 * /po/write), a link inside the roots that leads to a file of another kind (a git hook, a text
 * file) is refused with the link named, and the file it leads to is left as it was. A link to a
 * file of the right kind inside the roots is still followed.
 */
import assert from "node:assert/strict";
import { servedCatalogues } from "./_catalogue_server.ts";

const CATALOGUE = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';
const HOOK = "#!/bin/sh\necho hook\n";

/** A root with a catalogue, a git hook (mode 0755) and an empty text file, the attacker's links to them. */
async function served() {
  const s = await servedCatalogues({ "app.po": CATALOGUE, ".git/hooks/pre-commit": HOOK, "notes.txt": "" });
  await Deno.chmod(s.path(".git/hooks/pre-commit"), 0o755);
  await Deno.symlink(".git/hooks/pre-commit", s.path("x.mo"));
  await Deno.symlink("notes.txt", s.path("notes.po"));
  await Deno.symlink("app.po", s.path("alias.po"));
  return s;
}

function untouched(s: { path(name: string): string }) {
  assert.equal(Deno.readTextFileSync(s.path(".git/hooks/pre-commit")), HOOK, "the hook is as it was");
  assert.equal(Deno.readTextFileSync(s.path("notes.txt")), "", "the text file is as it was");
}

Deno.test("POST /po/compile refuses an output_path that is a symlink to a git hook, naming the link", async () => {
  await using s = await served();
  const r = await s.post("/po/compile", { file_path: s.path("app.po"), output_path: s.path("x.mo") });
  assert.equal(r.status, 403);
  assert.match(r.body.detail, /^Refused: .*\/x\.mo is a symbolic link/);
  assert.ok(!r.body.detail.includes("pre-commit"), "where it leads is not told");
  untouched(s);
});

Deno.test("POST /po/compile refuses NAME.mo beside the catalogue when it is a committed link elsewhere", async () => {
  await using s = await served();
  await Deno.symlink("notes.txt", s.path("fr.mo"));
  await Deno.writeTextFile(s.path("fr.po"), CATALOGUE);
  const r = await s.post("/po/compile", { file_path: s.path("fr.po") });
  assert.equal(r.status, 403);
  assert.match(r.body.detail, /fr\.mo is a symbolic link/);
  untouched(s);
});

Deno.test("POST /po/merge refuses an output_path that is a symlink to a file of another kind", async () => {
  await using s = await served();
  const r = await s.post("/po/merge", {
    file_path: s.path("app.po"),
    template_path: s.path("app.po"),
    output_path: s.path("notes.po"),
  });
  assert.equal(r.status, 403);
  assert.match(r.body.detail, /notes\.po is a symbolic link/);
  untouched(s);
});

Deno.test("POST /po/header/update and /po/write refuse a catalogue path that is a link to a text file", async () => {
  await using s = await served();
  const header = await s.post("/po/header/update", {
    file_path: s.path("notes.po"),
    set: { Language: "fr" },
  });
  assert.equal(header.status, 403);
  assert.match(header.body.detail, /notes\.po is a symbolic link/);
  const write = await s.post("/po/write", {
    file_path: s.path("notes.po"),
    entries: [{ msgid: "x", msgstr: "y" }],
  });
  assert.equal(write.status, 403);
  untouched(s);
});

Deno.test("a link to a catalogue inside the roots is still followed, for reads and writes", async () => {
  await using s = await served();
  const write = await s.post("/po/write", {
    file_path: s.path("alias.po"),
    entries: [{ msgid: "x", msgstr: "y" }],
  });
  assert.equal(write.status, 200);
  assert.ok(Deno.readTextFileSync(s.path("app.po")).includes('msgid "x"'));
  assert.ok(Deno.lstatSync(s.path("alias.po")).isSymlink, "the link stays a link");
  const read = await s.post("/po/read", { file_path: s.path("alias.po") });
  assert.equal(read.status, 200);
});
