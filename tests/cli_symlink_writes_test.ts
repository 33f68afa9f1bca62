/**
 * The CLIs never write through a symlink to a file they could not have named (issue 40, point 4):
 * `compile DIR` and `compile FILE.po` (FILE.mo beside it) refuse a committed link leading out of
 * the tree or to another kind of file, naming the link; `wrap DIR` and `merge --update DIR` refuse a
 * catalogue swapped for such a link after the walk listed it (simulated at the worst moment: right
 * after the directory was read). The files the links lead to are left as they were.
 */
import assert from "node:assert/strict";
import { runWrap } from "../cli/wrap/command.ts";
import { wrapIo } from "../cli/wrap/io.ts";
import { runMerge } from "../cli/merge.ts";
import { lockedFileIo } from "../cli/_locked_files.ts";
import { readDirEntries } from "../cli/tree_host.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const PERMISSIONS = ["--allow-read", "--allow-write", "--allow-env", "--allow-sys=uid"];
const CATALOGUE =
  'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "Bonjour"\n';
const KEY = "ssh-ed25519 AAAA owner@host\n";
/** A catalogue not laid out as msgcat lays it out (wrap would rewrite it). */
const UNWRAPPED =
  'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr ""\n"b"\n';

/** home/.ssh/authorized_keys beside a repository repo/locales/fr/ holding app.po. */
async function layout() {
  const top = await Deno.realPath(await Deno.makeTempDir({ prefix: "cli-links-" }));
  await Deno.mkdir(`${top}/home/.ssh`, { recursive: true });
  await Deno.mkdir(`${top}/repo/locales/fr`, { recursive: true });
  await Deno.writeTextFile(`${top}/home/.ssh/authorized_keys`, KEY);
  await Deno.writeTextFile(`${top}/repo/locales/fr/app.po`, CATALOGUE);
  return {
    top,
    keyUnchanged: () => assert.equal(Deno.readTextFileSync(`${top}/home/.ssh/authorized_keys`), KEY),
    async [Symbol.asyncDispose]() {
      await Deno.remove(top, { recursive: true });
    },
  };
}

function compile(args: string[], cwd: string) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--no-prompt", ...PERMISSIONS, MAIN, "compile", ...args],
    // INIT_CWD (set by `deno task`) would make main.ts resolve paths from the task's directory.
    env: { PO_LOCK_DIR: "beside", INIT_CWD: cwd },
    cwd,
  }).output();
}

Deno.test("compile DIR refuses a committed relative link app.mo -> ../../../home/.ssh/authorized_keys", async () => {
  await using l = await layout();
  await Deno.symlink("../../../home/.ssh/authorized_keys", `${l.top}/repo/locales/fr/app.mo`);
  const out = await compile(["locales"], `${l.top}/repo`);
  const err = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 1, err);
  assert.match(err, /locales\/fr\/app\.mo is a symbolic link .*outside locales/);
  assert.ok(!err.includes("authorized_keys"), "where the link leads is not told");
  l.keyUnchanged();
});

Deno.test("compile FILE.po refuses FILE.mo beside it when it is a link to a file of another kind", async () => {
  await using l = await layout();
  const dir = `${l.top}/repo/locales/fr`;
  await Deno.writeTextFile(`${dir}/notes.txt`, "notes\n");
  await Deno.symlink("notes.txt", `${dir}/app.mo`);
  const out = await compile(["app.po"], dir);
  assert.equal(out.code, 1);
  assert.match(new TextDecoder().decode(out.stderr), /app\.mo is a symbolic link .*does not end in \.mo/);
  assert.equal(Deno.readTextFileSync(`${dir}/notes.txt`), "notes\n");
  // A link to a .mo inside the tree is followed, and stays a link (a dangling one is refused).
  await Deno.remove(`${dir}/app.mo`);
  await Deno.writeFile(`${dir}/build.mo`, new Uint8Array());
  await Deno.symlink("build.mo", `${dir}/app.mo`);
  const ok = await compile(["app.po"], dir);
  assert.equal(ok.code, 0, new TextDecoder().decode(ok.stderr));
  assert.ok(Deno.lstatSync(`${dir}/app.mo`).isSymlink);
  assert.ok(Deno.statSync(`${dir}/build.mo`).size > 28);
});

/** `readDirEntries`, which then swaps `name` in `dir` for a link to the key file: the walk saw a file. */
function swappingReadDir(dir: string, name: string, target: string) {
  return async (path: string) => {
    const entries = await readDirEntries(path);
    if (path === dir) {
      await Deno.remove(`${dir}/${name}`);
      await Deno.symlink(target, `${dir}/${name}`);
    }
    return entries;
  };
}

Deno.test("wrap DIR refuses a catalogue swapped for a link out of the tree after the walk listed it", async () => {
  await using l = await layout();
  const dir = `${l.top}/repo/locales/fr`;
  // The victim parses as a catalogue that wrap would rewrite.
  await Deno.writeTextFile(`${l.top}/home/.ssh/authorized_keys`, UNWRAPPED);
  const said: string[] = [];
  const io = {
    ...wrapIo({
      args: [],
      lockDir: () => "beside",
      fail: (line) => {
        throw new Error(line);
      },
    }),
    readDir: swappingReadDir(dir, "app.po", "../../../home/.ssh/authorized_keys"),
    stderr: (text: string) => said.push(text),
    stdout: () => {},
    progress: undefined,
  };
  const status = await runWrap([`${l.top}/repo/locales`], io);
  assert.notEqual(status, 0);
  assert.match(said.join(""), /app\.po.*symbolic link/);
  assert.equal(
    Deno.readTextFileSync(`${l.top}/home/.ssh/authorized_keys`),
    UNWRAPPED,
    "the victim is untouched",
  );
});

Deno.test("merge --update DIR refuses a catalogue swapped for a link out of the tree after the walk listed it", async () => {
  await using l = await layout();
  const dir = `${l.top}/repo/locales/fr`;
  await Deno.mkdir(`${l.top}/repo/pot/fr`, { recursive: true });
  await Deno.writeTextFile(`${l.top}/repo/pot/fr/app.pot`, 'msgid ""\nmsgstr ""\n\nmsgid "New"\nmsgstr ""\n');
  await Deno.writeTextFile(`${l.top}/home/.ssh/authorized_keys`, CATALOGUE);
  const said: string[] = [];
  const io = {
    ...lockedFileIo("merge", () => "beside", (line) => {
      throw new Error(line);
    }),
    readDir: swappingReadDir(dir, "app.po", "../../../home/.ssh/authorized_keys"),
    err: (line: string) => said.push(line),
    progress: undefined,
  };
  const status = await runMerge(["--update", `${l.top}/repo/locales`, `${l.top}/repo/pot`], io);
  assert.equal(status, 1);
  assert.match(said.join("\n"), /app\.po is a symbolic link .*outside/);
  assert.equal(
    Deno.readTextFileSync(`${l.top}/home/.ssh/authorized_keys`),
    CATALOGUE,
    "the victim is untouched",
  );
});
