/**
 * The history tools on a long history: `entry_history` (cold: a fresh version cache; warm: the
 * cache of the questions before), beside the brute force it is tested against (every commit's
 * version shown with `git show` and parsed whole), and `changes_since` over the tree.
 *
 *   deno run --allow-read --allow-write --allow-run=git --allow-env bench/history_bench.ts
 *     [--repo CHECKOUT --file PATH/IN/IT.po [--since REF]]
 *
 * Without --repo, a history of 3,000 commits (300 entries, re-wraps, moves, renames) is generated in
 * a temp directory. Figures: docs/history.md.
 *
 * @module
 */
import { changesSince, entryHistory, indexEntries, VersionCache } from "../lib/history/mod.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { gitRunner } from "../routes/git_runner.ts";
import { generateHistory, git } from "../tests/_git_history.ts";

const args = Deno.args;
const option = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? null : args[at + 1] ?? null;
};

let repo = option("--repo");
let file = option("--file");
const since = option("--since") ?? "HEAD~500";
let generated = false;
if (repo === null) {
  repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "history-bench-" }));
  const started = performance.now();
  const { paths } = await generateHistory(repo, { commits: 3000, seed: 1, entries: 300 });
  file = paths[0]!;
  generated = true;
  console.log(`generated 3000 commits in ${Math.round(performance.now() - started)} ms: ${file}`);
}
if (file === null) throw new Error("--file is needed with --repo");

const runner = gitRunner({ timeLimitMs: 120_000 });
const dir = `${repo}/${file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ""}`.replace(/\/$/, "");
const fileName = file.slice(file.lastIndexOf("/") + 1);
const current = indexEntries(PO_CODEC.parse(await Deno.readFile(`${repo}/${file}`), file));
const keys = [...current.values()].filter((m) => !m.obsolete);
const picks = [0, 0.25, 0.5, 0.75, 0.99].map((f) => keys[Math.floor(f * (keys.length - 1))]!);
const commitsOfFile = (await git(dir, ["log", "--no-merges", "--format=%H", "--", fileName])).trim()
  .split("\n").length;
console.log(`${file}: ${commitsOfFile} commits of the file, ${keys.length} live entries`);

const ms = (t: number) => `${Math.round(performance.now() - t)} ms`;
const warm = new VersionCache();
for (const [i, m] of picks.entries()) {
  const request = { cwd: dir, fileName, msgctxt: m.msgctxt, msgid: m.msgid };
  const options = { limit: 200, maxBlobBytes: 64 << 20, maxCommits: 5000, budgetMs: 600_000 };
  let t = performance.now();
  const cold = await entryHistory(runner, new VersionCache(), request, options);
  const coldMs = ms(t);
  t = performance.now();
  await entryHistory(runner, warm, request, options);
  const warmMs = ms(t);
  console.log(
    `entry ${i + 1}: ${cold.commits.length} changes in ${cold.examined} commits examined; ` +
      `cold ${coldMs}, warm ${warmMs}; truncated ${cold.truncated}; unreadable ${cold.unreadable}`,
  );
}
{
  // The default bounds an agent's call runs with (500 commits, 15 s).
  const m = picks[2]!;
  const t = performance.now();
  const r = await entryHistory(runner, new VersionCache(), {
    cwd: dir,
    fileName,
    msgctxt: m.msgctxt,
    msgid: m.msgid,
  }, {
    limit: 200,
    maxBlobBytes: 64 << 20,
  });
  console.log(
    `default bounds: ${r.examined} commits examined in ${ms(t)}, truncated ${r.truncated} (${r.reason})`,
  );
}

// The brute force, side by side: each commit's version shown and parsed whole.
{
  const hashes = (await git(dir, ["log", "--no-merges", "--format=%H", "--name-only", "-z", "--", fileName]))
    .split("\0").map((s) => s.trim()).filter((s) => s !== "");
  const t = performance.now();
  let versions = 0;
  for (let i = 0; i + 1 < hashes.length && versions < 500; i += 2) {
    const [commit, path] = [hashes[i]!.split("\n").pop()!, hashes[i + 1]!];
    const top = (await git(dir, ["rev-parse", "--show-toplevel"])).trim();
    const shown = await new Deno.Command("git", {
      args: ["show", `${commit}:${path}`],
      cwd: top,
      stdout: "piped",
    })
      .output();
    indexEntries(PO_CODEC.parse(shown.stdout, path));
    versions++;
  }
  console.log(`brute force: ${versions} versions shown and parsed in ${ms(t)} (one question's worth)`);
}

{
  const t = performance.now();
  const r = await changesSince(
    runner,
    new VersionCache(),
    [{ cwd: repo, pathspec: ".", filePath: (rel) => `${repo}/${rel}` }],
    generated ? "HEAD~1000" : since,
    async (path) => PO_CODEC.parse(await Deno.readFile(path), path),
    { maxBlobBytes: 64 << 20, budgetMs: 600_000, maxFiles: 5000 },
  );
  const total = (k: "added" | "translated" | "retranslated" | "fuzzied" | "removed") =>
    r.catalogues.reduce((n, c) => n + c.counts[k], 0);
  console.log(
    `changes_since ${generated ? "HEAD~1000" : since}: ${r.catalogues.length} catalogues in ${ms(t)}; ` +
      `added ${total("added")}, removed ${total("removed")}, translated ${total("translated")}, ` +
      `retranslated ${total("retranslated")}, fuzzied ${total("fuzzied")}; truncated ${r.truncated}`,
  );
}

if (generated) await Deno.remove(repo, { recursive: true });
