import assert from "node:assert/strict";
import { unifiedDiff } from "../lib/po/mod.ts";
import { changedLineCount } from "../lib/po/write/unified_diff.ts";
import { lacks } from "./_prerequisites.ts";

/** A catalogue-like text of `n` blocks (entries separated by empty lines). */
function blocks(n: number, change: (i: number) => boolean = () => false): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `#: src/m${i % 50}.py:${i}\n#, python-format\nmsgid "Entry %(n)s ${i}"\nmsgstr "${
        change(i) ? "New" : "Old"
      } ${i}"\n`,
  ).join("\n");
}

/** Applies the diff with GNU patch and returns the result. */
async function patched(before: string, diff: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "diff-" });
  try {
    await Deno.writeTextFile(`${dir}/f`, before);
    const child = new Deno.Command("patch", { args: ["--quiet", `${dir}/f`], stdin: "piped" }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(diff));
    await writer.close();
    assert.equal((await child.status).code, 0);
    return await Deno.readTextFile(`${dir}/f`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a bounded diff of a small change is the shortest one, as the unbounded diff", () => {
  const before = blocks(400);
  const after = blocks(400, (i) => i % 40 === 3);
  assert.equal(
    unifiedDiff(before, after, "f.po", { maxWork: 10_000_000 }),
    unifiedDiff(before, after, "f.po"),
  );
});

Deno.test("a large diff goes by blocks, then lines, and still applies", {
  ignore: lacks(import.meta.url, "patch"),
}, async (t) => {
  const before = blocks(3000);
  for (
    const [name, every, work] of [["spread changes", 7, 10_000_000], ["every entry", 1, 10_000_000], [
      "work spent at once",
      5,
      1000,
    ]] as const
  ) {
    await t.step(name, async () => {
      const after = blocks(3000, (i) => i % every === 0);
      const diff = unifiedDiff(before, after, "f.po", { maxWork: work });
      assert.equal(await patched(before, diff), after);
    });
  }
});

Deno.test("a bounded diff stays within its work on a text made to be slow (long runs of equal lines)", () => {
  const before = Array.from({ length: 60_000 }, (_, i) => (i % 9 === 0 ? "" : "#. same")).join("\n") + "\n";
  const after = before.split("\n").map((l, i) => (i % 29 === 5 ? `changed ${i}` : l)).join("\n");
  const started = performance.now();
  const diff = unifiedDiff(before, after, "f.po", { maxWork: 2_000_000 });
  const ms = performance.now() - started;
  assert.ok(diff.startsWith("--- f.po\n+++ f.po\n@@ "));
  console.log(`  60,000 lines, 2,069 changes, work bound 2,000,000: ${ms.toFixed(0)} ms`);
});

Deno.test(
  "bounded diffs of random edits apply with GNU patch",
  { ignore: lacks(import.meta.url, "patch") },
  async () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const lines = (n: number) =>
      Array.from({ length: n }, () => ["", "a", "b", 'msgstr "x"', "#, fuzzy", `${random(5)}`][random(6)]);
    for (let round = 0; round < 40; round++) {
      const a = lines(random(60));
      const b = a.slice();
      for (let e = random(6); e > 0; e--) {
        const at = random(b.length + 1);
        if (random(2) === 0) b.splice(at, 1);
        else b.splice(at, 0, `new ${round} ${e}`);
      }
      // Sometimes without a final newline, on either side.
      const before = a.join("\n") + (random(4) === 0 ? "" : "\n");
      const after = b.join("\n") + (random(4) === 0 ? "" : "\n");
      const diff = unifiedDiff(before, after, "f", { maxWork: round % 3 === 0 ? 50 : 1_000_000 });
      assert.equal(diff === "", before === after);
      if (diff !== "") assert.equal(await patched(before, diff), after, `round ${round}`);
    }
  },
);

Deno.test("changedLineCount: the - and + lines of the shortest diff, block for block, without the diff", () => {
  const counted = (a: string, b: string) =>
    unifiedDiff(a, b, "f").split("\n").filter((l) =>
      (l[0] === "-" && !l.startsWith("--- ")) || (l[0] === "+" && !l.startsWith("+++ "))
    ).length;
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let t = 0; t < 200; t++) {
    const n = 1 + Math.floor(random() * 30);
    const a = blocks(n, () => random() < 0.3);
    // As a re-layout does: the same blocks, some lines of some of them rewritten, split or joined.
    const b = a.split("\n\n").map((block) =>
      random() < 0.4
        ? block.replace(/msgstr "(\w+) /, 'msgstr ""\n"$1 ').replace("#, python-format\n", "")
        : block
    ).join("\n\n");
    assert.equal(changedLineCount(a, b, 1e9), counted(a, b), `${a}\n----\n${b}`);
  }
  assert.equal(changedLineCount("a\n", "a\n", 10), 0);
  // Blocks that do not pair (a block added): counted as the bounded diff counts.
  assert.equal(changedLineCount(blocks(3), blocks(4), 1e9), counted(blocks(3), blocks(4)));
});
