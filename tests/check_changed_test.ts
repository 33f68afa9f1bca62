/**
 * `check --changed` (issue 35.3): only the problems the staged change introduces, matched by entry
 * and check against the committed version. Here with the versions given in memory; the real git and
 * pre-commit runs are tests/check_changed_hook_test.ts.
 */
import assert from "node:assert/strict";
import { type ChangedIo, checkCliIo, runCheck } from "../cli/check.ts";
import { introducedByEntry } from "../lib/po/mod.ts";
import type { CheckProblem } from "../lib/po/mod.ts";

import { BROKEN_ROLE, OLD, ONE_WORD_FIXED } from "./_changed_fixtures.ts";

const encoder = new TextEncoder();

/** Runs `check ARGS` with `files` staged (and on disk) and `committed` as HEAD's versions. */
async function run(
  args: string[],
  files: Record<string, string>,
  committed: Record<string, string>,
): Promise<{ status: number; out: string[]; err: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "check_changed_" });
  try {
    for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, text);
    const out: string[] = [], err: string[] = [];
    const rel = (p: string) => p.startsWith(`${dir}/`) ? p.slice(dir.length + 1) : p;
    const changes: ChangedIo = {
      stagedFiles: () => Promise.resolve(Object.keys(files).map((f) => `${dir}/${f}`)),
      committed: (p) => Promise.resolve(rel(p) in committed ? encoder.encode(committed[rel(p)]) : null),
      staged: (p) => Promise.resolve(rel(p) in files ? encoder.encode(files[rel(p)]) : null),
    };
    const io = { ...checkCliIo(), out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    delete (io as { progress?: unknown }).progress;
    const status = await runCheck(
      args.map((a) => a === "DIR" ? dir : a.startsWith("FILE:") ? `${dir}/${a.slice(5)}` : a),
      { ...io, changes: () => Promise.resolve(changes) },
    );
    return { status, out: out.map((l) => l.replaceAll(`${dir}/`, "")), err };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("check --changed passes a one-word fix in a file with old warnings; check alone does not", async () => {
  const all = await run(["FILE:fr.po"], { "fr.po": ONE_WORD_FIXED }, { "fr.po": OLD });
  assert.equal(all.status, 1);
  assert.equal(all.out.length, 3, all.out.join("\n"));
  const changed = await run(["--changed", "FILE:fr.po"], { "fr.po": ONE_WORD_FIXED }, { "fr.po": OLD });
  assert.deepEqual([changed.status, changed.out], [0, []]);
  assert.match(changed.err.join("\n"), /no new problems; 3 problems the committed version had already/);
});

Deno.test("check --changed fails on a broken role the change introduces, and names only it", async () => {
  const r = await run(["--changed", "FILE:fr.po"], { "fr.po": BROKEN_ROLE }, { "fr.po": OLD });
  assert.equal(r.status, 1);
  assert.equal(r.out.length, 1, r.out.join("\n"));
  assert.match(r.out[0]!, /^fr\.po:19: rest-roles: msgstr: a role lacks its closing backtick/);
  // --severity stays: a new warning alone passes with --severity=error.
  const warned = ONE_WORD_FIXED.replace("la valeur.", "la valeur. ");
  const w = await run(["--changed", "--severity=error", "FILE:fr.po"], { "fr.po": warned }, { "fr.po": OLD });
  assert.equal(w.status, 0);
  const w2 = await run(["--changed", "FILE:fr.po"], { "fr.po": warned }, { "fr.po": OLD });
  assert.equal(w2.status, 1);
  assert.match(w2.out[0]!, /: whitespace: /);
});

Deno.test("check --changed: a new file's problems are all introduced; without PATH, the staged files", async () => {
  const r = await run(["--changed"], { "new.po": OLD }, {});
  assert.equal(r.status, 1);
  assert.equal(r.out.length, 3);
  const dir = await run(["--changed", "DIR"], { "a.po": ONE_WORD_FIXED, "b.po": BROKEN_ROLE }, {
    "a.po": OLD,
    "b.po": OLD,
  });
  assert.deepEqual(dir.out.map((l) => l.split(":")[0]), ["b.po"]);
});

Deno.test("introducedByEntry matches by entry and check, not by line or message, once each", () => {
  const p = (msgid: string, check: string, line: number, message = "m"): CheckProblem => ({
    path: "f.po",
    line,
    msgctxt: null,
    msgid,
    check,
    severity: "warning",
    message,
  });
  const before = [p("a", "urls", 10), p("b", "whitespace", 20)];
  const now = [p("a", "urls", 14, "other text"), p("a", "urls", 14), p("b", "double-space", 24)];
  assert.deepEqual(introducedByEntry(before, now), [p("a", "urls", 14), p("b", "double-space", 24)]);
  assert.deepEqual(introducedByEntry(null, now), now);
});

Deno.test("check --changed without --allow-run=git says which permission is missing", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      new URL("../main.ts", import.meta.url).pathname,
      "check",
      "--changed",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(out.code, 2);
  assert.match(
    new TextDecoder().decode(out.stderr),
    /^check: --changed: --changed runs git: allow it with --allow-run=git/,
  );
});
