/**
 * The history tools (issue 37.3–4) on generated git histories: entry_history equals a brute-force
 * history (every commit's catalogue parsed whole, each entry compared with the commit before),
 * through re-wraps (msgcat's, when it is on PATH), moves, renames and several authors;
 * changes_since on a working tree; next_to_translate with a priority list; and all three over a
 * real socket and over MCP with the SDK client.
 */
import assert from "node:assert/strict";
import { entryHistory, indexEntries, parseRawLog, VersionCache } from "../lib/history/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { gitRunner } from "../routes/git_runner.ts";
import { generateHistory, git } from "./_git_history.ts";
import { servedOnLoopback, testApp } from "./_helpers.ts";
import { mcpOverSocket } from "./_mcp_socket.ts";
import { HAS_MSGCAT } from "./_prerequisites.ts";

const MAX = 64 * 1024 * 1024;

type Snap = { msgstr: string; msgstr_plural: Record<string, string>; flags: string[]; obsolete: boolean };

async function repoWithHistory(commits: number, seed: number, rewrap = false) {
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-history-" }));
  // msgcat is asynchronous to call; the generator's re-wrap hook is synchronous, so the re-wrapped
  // versions are made by a first pass that records widths, then replaced by msgcat's output.
  const rewraps = new Map<string, string>();
  const plan = {
    commits,
    seed,
    rewrap: rewrap
      ? (text: string, width: number) => {
        const key = `${width}\0${text}`;
        const done = rewraps.get(key);
        if (done !== undefined) return done;
        rewraps.set(key, text);
        return text;
      }
      : undefined,
  };
  if (rewrap) {
    // First pass (into a throwaway repository) to learn the texts, then msgcat each.
    const scratch = await Deno.makeTempDir({ prefix: "h6-scratch-" });
    await generateHistory(scratch, plan);
    await Deno.remove(scratch, { recursive: true });
    for (const key of [...rewraps.keys()]) {
      const [width, text] = [Number(key.slice(0, key.indexOf("\0"))), key.slice(key.indexOf("\0") + 1)];
      const child = new Deno.Command("msgcat", {
        args: [`--width=${width}`, "-", "-o", "-"],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(text));
      await writer.close();
      const out = await child.output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
      rewraps.set(key, new TextDecoder().decode(out.stdout));
    }
  }
  const { paths } = await generateHistory(repo, plan);
  return { repo, path: paths[0]!, rewraps: rewraps.size };
}

function snap(m: ReturnType<typeof indexEntries> extends Map<string, infer M> ? M : never): Snap {
  const plural: Record<string, string> = {};
  (m.msgstrPlural ?? []).forEach((s, i) => plural[String(i)] = s);
  return {
    msgstr: m.msgidPlural !== null ? "" : m.msgstr,
    msgstr_plural: m.msgidPlural !== null ? plural : {},
    flags: [...m.flags],
    obsolete: m.obsolete,
  };
}

function same(a: Snap | null, b: Snap | null): boolean {
  const norm = (s: Snap | null) => s === null ? null : { ...s, flags: [...new Set(s.flags)].sort() };
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/**
 * The brute force: every commit of the branch, oldest first; the catalogue (the one .po file of the
 * tree, wherever it was moved) parsed whole; for every entry, the commits where it differs from the
 * commit before. Independent of the walker: no --follow, no raw diffs, no blob ids.
 */
async function bruteForce(repo: string) {
  const commits = (await git(repo, ["rev-list", "--reverse", "main"])).trim().split("\n");
  const history = new Map<
    string,
    { commit: string; author: string; before: Snap | null; after: Snap | null }[]
  >();
  const names = new Map<string, { msgctxt: string | null; msgid: string }>();
  let previous = new Map<string, Snap>();
  for (const commit of commits) {
    const files = (await git(repo, ["ls-tree", "-r", "-z", "--name-only", commit])).split("\0");
    const po = files.filter((f) => f.endsWith(".po"));
    assert.equal(po.length, 1);
    const bytes = new TextEncoder().encode(await git(repo, ["show", `${commit}:${po[0]}`]));
    const current = new Map<string, Snap>();
    for (const [key, m] of indexEntries(PO_CODEC.parse(bytes, po[0]!))) {
      current.set(key, snap(m));
      names.set(key, { msgctxt: m.msgctxt, msgid: m.msgid });
    }
    const author = (await git(repo, ["show", "-s", "--format=%an", commit])).trim();
    for (const key of new Set([...previous.keys(), ...current.keys()])) {
      const before = previous.get(key) ?? null;
      const after = current.get(key) ?? null;
      if (same(before, after)) continue;
      const list = history.get(key) ?? [];
      list.unshift({ commit, author, before, after });
      history.set(key, list);
    }
    previous = current;
  }
  for (const key of names.keys()) if (!history.has(key)) history.set(key, []);
  return { history, names, commits };
}

async function assertHistoriesEqual(repo: string, path: string) {
  const { history, names } = await bruteForce(repo);
  const runner = gitRunner();
  const versions = new VersionCache();
  const dir = `${repo}/${path.slice(0, path.lastIndexOf("/"))}`;
  const fileName = path.slice(path.lastIndexOf("/") + 1);
  let changes = 0;
  for (const [key, expected] of history) {
    const name = names.get(key)!;
    const got = await entryHistory(runner, versions, { cwd: dir, fileName, ...name }, {
      limit: 200,
      maxBlobBytes: MAX,
    });
    assert.equal(got.truncated, false);
    assert.deepEqual(
      got.commits.map((c) => ({ commit: c.commit, author: c.author, before: c.before, after: c.after })),
      expected,
      `history of ${JSON.stringify(name)}`,
    );
    changes += expected.length;
  }
  return { changes, entries: history.size, parses: versions.parses };
}

Deno.test("entry_history equals the brute-force history over every commit (moves, renames, authors, re-wraps)", async () => {
  const { repo, path } = await repoWithHistory(120, 7);
  try {
    const log = await git(repo, ["log", "--format=%s", "main"]);
    for (const kind of ["Re-wrap", "Move an entry", "Move to", "Obsolete", "Translate", "Unrelated"]) {
      assert.match(log, new RegExp(kind), `the history has a "${kind}" commit`);
    }
    const { changes, entries, parses } = await assertHistoriesEqual(repo, path);
    assert.ok(changes > 50 && entries > 30, `${changes} changes of ${entries} entries`);
    // Each version parsed once, however many entries were asked about.
    assert.ok(parses <= 2 * 120, `${parses} parses`);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("entry_history: re-wraps by msgcat --width are no change of an entry", {
  ignore: !HAS_MSGCAT,
}, async () => {
  const { repo, path, rewraps } = await repoWithHistory(80, 11, true);
  try {
    assert.ok(rewraps > 3, `${rewraps} msgcat re-wraps`);
    await assertHistoriesEqual(repo, path);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
if (!HAS_MSGCAT) console.log("msgcat is not on PATH: the msgcat re-wrap history is not tested");

Deno.test("entry_history is bounded: limit, commits examined, and says truncated", async () => {
  const { repo, path } = await repoWithHistory(60, 3);
  try {
    const { history, names } = await bruteForce(repo);
    const [key, expected] = [...history].sort((a, b) => b[1].length - a[1].length)[0]!;
    assert.ok(expected.length >= 3);
    const dir = `${repo}/${path.slice(0, path.lastIndexOf("/"))}`;
    const request = { cwd: dir, fileName: path.slice(path.lastIndexOf("/") + 1), ...names.get(key)! };
    const two = await entryHistory(gitRunner(), new VersionCache(), request, { limit: 2, maxBlobBytes: MAX });
    assert.equal(two.truncated, true);
    assert.deepEqual(two.commits.map((c) => c.commit), expected.slice(0, 2).map((c) => c.commit));
    const few = await entryHistory(gitRunner(), new VersionCache(), request, {
      maxCommits: 5,
      maxBlobBytes: MAX,
    });
    assert.equal(few.truncated, true);
    assert.equal(few.examined, 5);
    assert.match(few.reason!, /newest 5 commits/);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("git log parsing: a subject or author holding the separators cannot forge a commit", async () => {
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-hostile-" }));
  try {
    await git(repo, ["init", "-q", "-b", "main"]);
    await Deno.writeTextFile(`${repo}/fr.po`, 'msgid "a"\nmsgstr ""\n');
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-qm", "one"]);
    const fake = "\x1e" + "f".repeat(40) + "\x1f2020-01-01\x1fMallory\x1fforged";
    await Deno.writeTextFile(`${repo}/fr.po`, 'msgid "a"\nmsgstr "b"\n');
    await git(repo, ["-c", `user.name=Eve\x1fX`, "commit", "-qam", `real${fake}`]);
    const got = await entryHistory(gitRunner(), new VersionCache(), {
      cwd: repo,
      fileName: "fr.po",
      msgctxt: null,
      msgid: "a",
    }, { maxBlobBytes: MAX });
    const head = (await git(repo, ["rev-parse", "HEAD"])).trim();
    assert.deepEqual(got.commits.map((c) => c.commit), [
      head,
      (await git(repo, ["rev-parse", "HEAD~"])).trim(),
    ]);
    assert.equal(got.commits[0]!.after!.msgstr, "b");
    assert.equal(got.commits[1]!.before, null);
    assert.throws(() => parseRawLog("\x1enot-a-commit\x1f\0"), /unexpected record/);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

/** A repository root served by an app with git. */
async function servedRepo(files: Record<string, string>) {
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-served-" }));
  await git(repo, ["init", "-q", "-b", "main"]);
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(`${repo}/${name}`.slice(0, `${repo}/${name}`.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(`${repo}/${name}`, text);
  }
  await git(repo, ["add", "."]);
  await git(repo, ["commit", "-qm", "first"]);
  const catalogues = new CatalogueStore({ roots: [repo], codec: PO_CODEC });
  const { app } = testApp({ catalogues, git: gitRunner() });
  return { repo, app, catalogues };
}

const PO = (entries: string) =>
  `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n${entries}`;

Deno.test("changes_since HEAD: added, removed, translated, retranslated, fuzzied; a re-wrap is no change", async () => {
  const { repo, app } = await servedRepo({
    "fr/a.po": PO(
      'msgid "one"\nmsgstr ""\n\nmsgid "two"\nmsgstr "deux"\n\nmsgid "three"\nmsgstr "trois"\n\n' +
        'msgid "gone"\nmsgstr "parti"\n\nmsgctxt "menu"\nmsgid "long text that will be wrapped"\nmsgstr "un"\n',
    ),
    "fr/b.po": PO('msgid "same"\nmsgstr "pareil"\n'),
  });
  try {
    await Deno.writeTextFile(
      `${repo}/fr/a.po`,
      PO(
        'msgid "one"\nmsgstr "un"\n\nmsgid "two"\nmsgstr "DEUX"\n\n#, fuzzy\nmsgid "three"\nmsgstr "trois"\n\n' +
          'msgid "new"\nmsgstr ""\n\nmsgctxt "menu"\nmsgid ""\n"long text that "\n"will be wrapped"\nmsgstr "un"\n',
      ),
    );
    // b.po re-wrapped only (another layout of the same entries): not listed.
    await Deno.writeTextFile(`${repo}/fr/b.po`, PO('msgid ""\n"same"\nmsgstr ""\n"pareil"\n'));
    await Deno.writeTextFile(`${repo}/fr/c.po`, PO('msgid "fresh"\nmsgstr ""\n'));
    const { server, post } = servedOnLoopback(app);
    try {
      const r = await post("/po/changes", { ref: "HEAD" });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const byPath = Object.fromEntries(
        // deno-lint-ignore no-explicit-any
        r.body.catalogues.map((c: any) => [c.file_path.slice(repo.length + 1), c]),
      );
      assert.deepEqual(Object.keys(byPath).sort(), ["fr/a.po", "fr/c.po"]);
      const a = byPath["fr/a.po"];
      assert.deepEqual(a.added, [{ msgctxt: null, msgid: "new" }]);
      assert.deepEqual(a.removed, [{ msgctxt: null, msgid: "gone" }]);
      assert.deepEqual(a.translated, [{ msgctxt: null, msgid: "one" }]);
      assert.deepEqual(a.retranslated, [{ msgctxt: null, msgid: "two" }]);
      assert.deepEqual(a.fuzzied, [{ msgctxt: null, msgid: "three" }]);
      assert.deepEqual(a.counts, { added: 1, removed: 1, translated: 1, retranslated: 1, fuzzied: 1 });
      assert.deepEqual(byPath["fr/c.po"].added, [{ msgctxt: null, msgid: "fresh" }]);
      // One catalogue only.
      const one = await post("/po/changes", { ref: "main", file_path: "fr/b.po" });
      assert.equal(one.status, 200);
      assert.deepEqual(one.body.catalogues, []);
      // Hostile and unknown refs.
      for (const ref of ["--output=/tmp/h6-pwned", "-p", "HEAD..main", "a b", "x\ny"]) {
        const bad = await post("/po/changes", { ref });
        assert.equal(bad.status, 400, `${JSON.stringify(ref)}: ${JSON.stringify(bad.body)}`);
      }
      const unknown = await post("/po/changes", { ref: "no-such-branch" });
      assert.equal(unknown.status, 404);
      const outside = await post("/po/history", { file_path: "/etc/fr.po", msgid: "x" });
      assert.equal(outside.status, 403);
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("next_to_translate ranks by the priority list, then by words left", async () => {
  const untranslated = (n: number, words: number) =>
    PO(
      Array.from({ length: n }, (_, i) =>
        `msgid "${Array.from({ length: words }, () => `w${i}`).join(" ")}"\nmsgstr ""\n`)
        .join("\n"),
    );
  const { repo, app } = await servedRepo({
    "library/os.po": untranslated(2, 3),
    "library/big.po": untranslated(5, 10),
    "tutorial/intro.po": untranslated(1, 1),
    "faq/general.po": untranslated(8, 10),
    "done.po": PO('msgid "x"\nmsgstr "y"\n'),
    ".po-priority.txt": "# most important first\ntutorial/\nlibrary/*.po\n",
  });
  try {
    await using mcp = await mcpOverSocket(app);
    const result = await mcp.client.callTool({ name: "next_to_translate", arguments: { limit: 10 } });
    assert.ok(!result.isError, JSON.stringify(result));
    const body = result.structuredContent as {
      catalogues: { path: string; words_left: number; entries_left: number; priority: number | null }[];
      total: number;
    };
    assert.deepEqual(body.catalogues.map((c) => [c.path, c.priority, c.words_left, c.entries_left]), [
      ["tutorial/intro.po", 0, 1, 1],
      ["library/big.po", 1, 50, 5],
      ["library/os.po", 1, 6, 2],
      ["faq/general.po", null, 80, 8],
    ]);
    assert.equal(body.total, 4);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("entry_history over MCP (SDK client) and HTTP on a real socket", async () => {
  const { repo, app } = await servedRepo({ "fr.po": PO('msgid "Hello"\nmsgstr ""\n') });
  try {
    await Deno.writeTextFile(`${repo}/fr.po`, PO('msgid "Hello"\nmsgstr "Bonjour"\n'));
    await git(repo, ["-c", "user.name=Zoé", "commit", "-qam", "Translate Hello"]);
    await Deno.writeTextFile(`${repo}/fr.po`, PO('#, fuzzy\nmsgid "Hello"\nmsgstr "Salut"\n'));
    await git(repo, ["commit", "-qam", "Less formal"]);
    await using mcp = await mcpOverSocket(app);
    const result = await mcp.client.callTool({
      name: "entry_history",
      arguments: { file_path: "fr.po", msgid: "Hello" },
    });
    assert.ok(!result.isError, JSON.stringify(result));
    const body = result.structuredContent as {
      commits: { author: string; subject: string; before: Snap | null; after: Snap | null }[];
      truncated: boolean;
    };
    assert.deepEqual(
      body.commits.map((c) => [c.subject, c.author, c.before?.msgstr ?? null, c.after?.flags]),
      [
        ["Less formal", "Test", "Bonjour", ["fuzzy"]],
        ["Translate Hello", "Zoé", "", []],
        ["first", "Test", null, []],
      ],
    );
    assert.equal(body.truncated, false);
    const http = await mcp.post("/po/history", { file_path: `${repo}/fr.po`, msgid: "Hello", limit: 1 });
    assert.equal(http.status, 200);
    assert.equal(http.body.commits.length, 1);
    assert.equal(http.body.truncated, true);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("without git, the history tools say so; next_to_translate still works", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "h6-nogit-" }));
  try {
    await Deno.writeTextFile(`${root}/fr.po`, PO('msgid "a"\nmsgstr ""\n'));
    const { app } = testApp({
      catalogues: new CatalogueStore({ roots: [root], codec: PO_CODEC }),
      git: null,
    });
    const { server, post } = servedOnLoopback(app);
    try {
      const r = await post("/po/history", { file_path: "fr.po", msgid: "a" });
      assert.equal(r.status, 400);
      assert.match(r.body.detail, /git is not available/);
      const next = await post("/po/next", {});
      assert.equal(next.status, 200);
      assert.equal(next.body.catalogues[0].words_left, 1);
    } finally {
      await server.shutdown();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
