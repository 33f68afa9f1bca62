/**
 * Choosing the gettext layout per repository: `wrap --gettext`, PO_GETTEXT, `.po-tools.toml`, and
 * detection from the catalogues (which generation they are fixed points of; a mixed tree noted).
 */
import assert from "node:assert/strict";
import { runWrap, type WrapIo } from "../cli/wrap/command.ts";
import { gettextChoice, repositoryVotes } from "../cli/gettext_choice.ts";
import {
  detectGeneration,
  electGeneration,
  encodePo,
  gettextSetting,
  parseGeneration,
  parsePo,
} from "../lib/po/mod.ts";
import { lacks } from "./_prerequisites.ts";
import { runMain } from "./_run_main.ts";

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const ID = "Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:" +
  "`collections.OrderedDict` docs, e.g. the os.path module of https://docs.python.org/3/library/os.path.html";
/** The same message as msgcat 0.21 and 0.23.1 print it (each checked against the real one). */
const AS_021 = HEADER +
  'msgid ""\n"Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:"\n' +
  '"`collections.OrderedDict` docs, e.g. the os.path module of https://docs."\n' +
  '"python.org/3/library/os.path.html"\nmsgstr ""\n';
const AS_023 = HEADER +
  'msgid ""\n"Use the :meth:`str.format` method; see :ref:`formatstrings` "\n' +
  '"and :class:`collections.OrderedDict` docs, e.g. the os.path module of "\n' +
  '"https://docs.python.org/3/library/os.path.html"\nmsgstr ""\n';
/** Laid out alike by both. */
const PLAIN = HEADER + 'msgid "a"\nmsgstr "b"\n';

type Choice = Awaited<ReturnType<NonNullable<WrapIo["gettextChoice"]>>>;

function fakeIo(files: Record<string, string>, choice: Choice = null) {
  const fs = new Map<string, Uint8Array>(
    Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)]),
  );
  const out: string[] = [];
  const err: string[] = [];
  const io: WrapIo = {
    readFile: (path) => {
      const b = fs.get(path);
      return b ? Promise.resolve(b) : Promise.reject(new Deno.errors.NotFound(path));
    },
    writeFile: (path, bytes) => {
      fs.set(path, bytes);
      return Promise.resolve();
    },
    gettextChoice: () => Promise.resolve(choice),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
  };
  const text = (path: string) => new TextDecoder().decode(fs.get(path));
  return { io, out, err, text };
}

Deno.test("the fixtures are what the two generations print", () => {
  const catalog = parsePo(new TextEncoder().encode(HEADER + `msgid "${ID}"\nmsgstr ""\n`));
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  assert.equal(decode(encodePo(catalog)), AS_021);
  assert.equal(decode(encodePo(catalog, { generation: "0.23" })), AS_023);
});

Deno.test("wrap --gettext lays out as the generation named, either spelling", async () => {
  for (
    const args of [["--gettext", "0.23"], ["--gettext=0.23"], ["--gettext=0.23.1"], ["--gettext", "0.25"]]
  ) {
    const f = fakeIo({ "a.po": AS_021 });
    assert.equal(await runWrap([...args, "a.po"], f.io), 0, args.join(" "));
    assert.equal(f.text("a.po"), AS_023);
  }
  const back = fakeIo({ "a.po": AS_023 });
  assert.equal(await runWrap(["--check", "--gettext=0.21", "a.po"], back.io), 1);
  assert.deepEqual(back.err, ["Would rewrap: a.po\n"]);
  for (const bad of [["--gettext=0.20"], ["--gettext", "latest"], ["--gettext"]]) {
    const f = fakeIo({ "a.po": AS_021 });
    assert.equal(await runWrap([...bad, "a.po"], f.io), 2, bad.join(" "));
    assert.match(f.err.join(""), /--gettext takes 0\.21 or 0\.23/);
  }
});

Deno.test("a repository's choice (PO_GETTEXT, .po-tools.toml) is taken unless --gettext says otherwise", async () => {
  const chosen = fakeIo({ "a.po": AS_021 }, { generation: "0.23", source: ".po-tools.toml" });
  assert.equal(await runWrap(["--check", "a.po"], chosen.io), 1);
  const flag = fakeIo({ "a.po": AS_021 }, { generation: "0.23", source: ".po-tools.toml" });
  assert.equal(await runWrap(["--check", "--gettext=0.21", "a.po"], flag.io), 0);
  const bad = fakeIo({ "a.po": AS_021 }, { error: 'PO_GETTEXT must be 0.21 or 0.23, not "x"' });
  assert.equal(await runWrap(["--check", "a.po"], bad.io), 2);
  assert.deepEqual(bad.err, ['wrap: PO_GETTEXT must be 0.21 or 0.23, not "x"\n']);
});

Deno.test("unchosen, wrap follows what most catalogues are laid out as, and notes a mixed tree", async () => {
  const newer = fakeIo({ "a.po": AS_023, "b.po": AS_023, "c.po": PLAIN });
  assert.equal(await runWrap(["--check", "a.po", "b.po", "c.po"], newer.io), 0);
  assert.deepEqual(newer.err, []);
  const older = fakeIo({ "a.po": AS_021, "b.po": PLAIN });
  assert.equal(await runWrap(["--check", "a.po", "b.po"], older.io), 0);
  const mixed = fakeIo({ "a.po": AS_023, "b.po": AS_023, "c.po": AS_021 });
  assert.equal(await runWrap(["--check", "a.po", "b.po", "c.po"], mixed.io), 1);
  assert.equal(mixed.err.length, 2);
  assert.match(
    mixed.err[0]!,
    /^wrap: gettext layout: the catalogues are mixed \(1 laid out by gettext 0\.21 only, 2 by 0\.22\+ only, 0 by both\); using 0\.23\./,
  );
  assert.equal(mixed.err[1], "Would rewrap: c.po\n");
  // No evidence either way: 0.21, as before.
  const none = fakeIo({ "a.po": PLAIN });
  assert.equal(await runWrap(["--check", "a.po"], none.io), 0);
});

Deno.test("detectGeneration counts fixed points of each generation", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const votes = detectGeneration([
    bytes(AS_023),
    bytes(AS_021),
    bytes(AS_023),
    bytes(PLAIN),
    bytes('garbage "'),
  ]);
  assert.deepEqual(votes, { generation: "0.23", only021: 1, only023: 2, both: 1, neither: 1, mixed: true });
  assert.equal(detectGeneration([]).generation, null);
});

Deno.test("detection picks each generation on the corpus laid out by it", {
  ignore: lacks(import.meta.url, "shared"),
}, () => {
  const dir = new URL("../../shared/corpus/msgcat-0.23/po/", import.meta.url);
  const newer = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".out.po")).map((e) =>
    Deno.readFileSync(new URL(e.name, dir))
  );
  const votes = detectGeneration(newer);
  assert.equal(votes.generation, "0.23");
  assert.equal(votes.mixed, false);
  assert.ok(votes.only023 >= 30, JSON.stringify(votes));
  const older = newer.map((b) => encodePo(parsePo(b, { placeholderCharset: true })));
  const back = detectGeneration(older);
  assert.equal(back.generation, "0.21");
  assert.equal(back.mixed, false);
});

Deno.test(".po-tools.toml: the top-level gettext key, quoted, with a comment; anything else refused", () => {
  assert.equal(gettextSetting('gettext = "0.23"\n'), "0.23");
  assert.equal(gettextSetting("# layout\n  gettext='0.21'   # the CI's\n"), "0.21");
  assert.equal(gettextSetting('[hooks]\ngettext = "0.23"\n'), null);
  assert.equal(gettextSetting('gettexts = "0.23"\nname = "x"\n'), null);
  assert.equal(gettextSetting(""), null);
  for (const bad of ["gettext = 0.23", 'gettext = "0.19"', 'gettext = "0.23" x', 'gettext = "0.23']) {
    const r = gettextSetting(bad);
    assert.ok(r !== null && typeof r === "object" && /gettext must be "0\.21" or "0\.23"/.test(r.error), bad);
  }
  assert.equal(parseGeneration("0.22"), "0.23");
  assert.equal(parseGeneration("1.0"), null);
});

Deno.test("gettextChoice: PO_GETTEXT first, then .po-tools.toml up to the repository's top", async () => {
  const root = await Deno.makeTempDir({ prefix: "h1-gettext-" });
  const cwd = Deno.cwd();
  try {
    await Deno.mkdir(`${root}/repo/.git`, { recursive: true });
    await Deno.mkdir(`${root}/repo/locales/fr`, { recursive: true });
    await Deno.writeTextFile(`${root}/.po-tools.toml`, 'gettext = "0.21"\n'); // outside the repository
    Deno.chdir(`${root}/repo/locales/fr`);
    assert.equal(await gettextChoice(undefined, Deno.cwd()), null);
    await Deno.writeTextFile(`${root}/repo/.po-tools.toml`, 'gettext = "0.23"\n');
    assert.deepEqual(await gettextChoice(undefined, Deno.cwd()), {
      generation: "0.23",
      source: `${await Deno.realPath(root)}/repo/.po-tools.toml`,
    });
    assert.deepEqual(await gettextChoice("0.21", Deno.cwd()), { generation: "0.21", source: "PO_GETTEXT" });
    assert.ok("error" in (await gettextChoice("new", Deno.cwd()))!);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("merge lays its result out as --gettext, .po-tools.toml or DEF.po's own generation says", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "h1-merge-" }));
  try {
    const translated = HEADER + `msgid "${ID}"\nmsgstr "${ID}"\n`;
    const layout = (generation: "0.21" | "0.23") =>
      new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(translated)), { generation }));
    await Deno.writeTextFile(`${dir}/new.po`, layout("0.23"));
    await Deno.writeTextFile(`${dir}/old.po`, layout("0.21"));
    await Deno.writeTextFile(`${dir}/ref.pot`, HEADER + `msgid "${ID}"\nmsgstr ""\n`);
    const merged = async (args: string[]) => {
      const r = await runMain(dir, "merge", ["-q", ...args]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    assert.equal(await merged(["new.po", "ref.pot"]), layout("0.23"));
    assert.equal(await merged(["old.po", "ref.pot"]), layout("0.21"));
    assert.equal(await merged(["--gettext=0.21", "new.po", "ref.pot"]), layout("0.21"));
    await Deno.writeTextFile(`${dir}/.po-tools.toml`, 'gettext = "0.23"\n');
    assert.equal(await merged(["old.po", "ref.pot"]), layout("0.23"));
    const bad = await runMain(dir, "merge", ["--gettext=2", "old.po", "ref.pot"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--gettext takes 0\.21 or 0\.23/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a hook given one staged file still judges by the repository's catalogues", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "h1-sample-" }));
  const cwd = Deno.cwd();
  try {
    await Deno.mkdir(`${root}/.git`);
    await Deno.mkdir(`${root}/library`, { recursive: true });
    for (const name of ["a", "b", "c"]) await Deno.writeTextFile(`${root}/library/${name}.po`, AS_023);
    await Deno.writeTextFile(`${root}/staged.po`, AS_021);
    await Deno.mkdir(`${root}/.hidden`);
    await Deno.writeTextFile(`${root}/.hidden/x.po`, AS_021); // hidden: not sampled
    Deno.chdir(`${root}/library`);
    const cacheFile = `${root}/.votes.json`;
    const votes = await repositoryVotes(Deno.cwd(), cacheFile);
    assert.deepEqual(votes?.toSorted(), ["0.21", "0.23", "0.23", "0.23"]);
    const f = fakeIo({ "staged.po": AS_021 });
    f.io.repositoryVotes = () => Promise.resolve(votes);
    // By the staged file alone it would pass as 0.21; the tree is 0.23, with a note that it is mixed.
    assert.equal(await runWrap(["--check", "staged.po"], f.io), 1);
    assert.match(f.err[0]!, /mixed \(1 laid out by gettext 0\.21 only, 3 by 0\.22\+ only/);
    // The votes are kept by path, size and time: an unchanged file is not judged again (its cached
    // vote, planted here, is what counts), a changed one is.
    const cached = JSON.parse(await Deno.readTextFile(cacheFile));
    assert.equal(Object.keys(cached).length, 4);
    cached[`${root}/library/a.po`].vote = "0.21";
    await Deno.writeTextFile(cacheFile, JSON.stringify(cached));
    assert.deepEqual((await repositoryVotes(Deno.cwd(), cacheFile))?.toSorted(), [
      "0.21",
      "0.21",
      "0.23",
      "0.23",
    ]);
    await Deno.writeTextFile(`${root}/library/a.po`, AS_021 + "\n");
    assert.deepEqual((await repositoryVotes(Deno.cwd(), cacheFile))?.toSorted(), [
      "0.21",
      "0.23",
      "0.23",
      "neither",
    ]);
    // A damaged cache is voted anew, never trusted.
    await Deno.writeTextFile(cacheFile, '{"x": ');
    assert.equal((await repositoryVotes(Deno.cwd(), cacheFile))?.length, 4);
    // Outside a repository there is no repository to judge by: the files given are.
    await Deno.remove(`${root}/.git`);
    assert.equal(await repositoryVotes(Deno.cwd(), null), null);
  } finally {
    Deno.chdir(cwd);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("electGeneration elects what detectGeneration elects, on every mix of the four kinds", () => {
  const NEITHER = AS_021 + "\n";
  // 0.21's only, 0.23's only, neither's, both's (short lines break alike).
  const BOTH = HEADER + 'msgid "a"\nmsgstr "b"\n';
  const kinds = [AS_021, AS_023, NEITHER, BOTH].map((t) => new TextEncoder().encode(t));
  assert.deepEqual(
    kinds.map((k) => detectGeneration([k])).map((v) => [v.only021, v.only023, v.neither, v.both]),
    [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ],
  );
  // Every sequence of up to four catalogues of the four kinds.
  for (let n = 0; n <= 4; n++) {
    for (let code = 0; code < 4 ** n; code++) {
      const sample: Uint8Array[] = [];
      for (let k = 0, c = code; k < n; k++, c = Math.floor(c / 4)) sample.push(kinds[c % 4]!);
      const full = detectGeneration(sample);
      const lazy = electGeneration(sample);
      assert.equal(lazy.generation ?? "0.21", full.generation ?? "0.21", `${n}:${code}`);
      assert.equal(lazy.mixed, full.mixed, `${n}:${code}`);
      if (full.mixed) assert.deepEqual(lazy, full);
    }
  }
});
