/**
 * The one bounded edit distance (`lib/edit_distance.ts`), against the textbook table it cuts short,
 * and the rule it pins for its two users: a swap of neighbouring characters is one edit, both for a
 * misspelt field name and for the msgids offered in place of one a catalogue lacks (before, the
 * msgid suggestions counted a swap as two edits, the field names as one).
 */
import assert from "node:assert/strict";
import { boundedEditDistance, editBandCost, type EditBudget } from "../lib/edit_distance.ts";
import { closestName } from "../lib/closest_name.ts";
import { ClosestBudget, closestEntries, closestIndex } from "../lib/po/operations/_closest.ts";

/** Optimal string alignment over the whole table, no band, no cut-off: the reference. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** A small deterministic generator (a test that fails must fail again the same way). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x80000000;
  };
}

Deno.test("boundedEditDistance is the optimal-string-alignment distance when within k, else -1", () => {
  const next = random(33);
  const word = (n: number) => Array.from({ length: n }, () => "abcab"[Math.floor(next() * 5)]).join("");
  for (let round = 0; round < 3000; round++) {
    const a = word(Math.floor(next() * 12));
    // b: a with a few random edits (swaps among them), or an unrelated word.
    let b = next() < 0.2 ? word(Math.floor(next() * 12)) : a;
    for (let e = Math.floor(next() * 4); e > 0; e--) {
      const at = Math.floor(next() * (b.length + 1));
      const op = Math.floor(next() * 4);
      if (op === 0) b = b.slice(0, at) + word(1) + b.slice(at);
      else if (op === 1) b = b.slice(0, at) + b.slice(at + 1);
      else if (op === 2) b = b.slice(0, at) + word(1) + b.slice(at + 1);
      else if (at + 1 < b.length) b = b.slice(0, at) + b[at + 1] + b[at] + b.slice(at + 2);
    }
    const expected = referenceDistance(a, b);
    for (const k of [0, 1, 2, 3, 5, 8]) {
      const budget: EditBudget = { cells: 1e9 };
      const got = boundedEditDistance(a, b, k, budget);
      assert.equal(got, expected <= k ? expected : -1, `${JSON.stringify(a)} ${JSON.stringify(b)} k=${k}`);
      assert.ok(1e9 - budget.cells <= editBandCost(a, b, k), "no more cells than its band");
    }
  }
});

Deno.test("a swap of neighbours is one edit for both users: field names and closest msgids", () => {
  // Two swaps in a five-letter name: 2 edits (within its limit of 2); counted as four otherwise.
  assert.equal(boundedEditDistance("smgdi", "msgid", 4), 2);
  assert.equal(closestName("smgdi", ["msgstr", "msgid"]), "msgid");
  const index = closestIndex([
    { msgctxt: null, msgid: "Open the file" },
    { msgctxt: null, msgid: "Open a fil" },
  ]);
  // "Opne the flie": two swaps from "Open the file", distance 2 (counting each swap as two edits
  // made it 4, the most its length allows).
  const { entries } = closestEntries(index, "Opne the flie", new ClosestBudget());
  assert.deepEqual(entries[0], { msgctxt: null, msgid: "Open the file", distance: 2 });
});
