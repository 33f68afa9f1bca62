import assert from "node:assert/strict";
import {
  type ByteItem,
  type BytePiece,
  bytesLength,
  compactRuns,
  concatRuns,
  copyPrefix,
  encodePieces,
  equalAt,
  flatBytes,
  joinRuns,
  sameBytes,
  utf8Length,
} from "../lib/byte_runs.ts";

const enc = new TextEncoder();

Deno.test("utf8Length counts what TextEncoder writes, lone surrogates included", () => {
  for (
    const s of [
      "",
      "abc",
      "é",
      "訊息",
      "😀",
      "a\ud800b",
      "\udc00",
      "x\ud83d",
      "\u0000\u007f\u0080\u07ff\u0800\uffff",
    ]
  ) {
    assert.equal(utf8Length(s), enc.encode(s).length, JSON.stringify(s));
  }
});

Deno.test("encodePieces: one buffer, a piece per text, separators between them", () => {
  const texts = ["é", "", "訊息😀", "plain", "a\ud800"];
  const pieces = encodePieces(texts, ",");
  assert.ok(pieces.every((p) => p.buffer === pieces[0]?.buffer));
  pieces.forEach((p, i) => assert.deepEqual(p.buffer.subarray(p.start, p.end), enc.encode(texts[i])));
  assert.deepEqual(pieces[0]?.buffer, enc.encode(texts.join(",")));
  assert.deepEqual(encodePieces([]), []);
});

/** Pieces with literal "," bytes between them, as the JSON answers are assembled. */
const withCommas = (pieces: BytePiece[]): ByteItem[] => pieces.flatMap((p, i) => i === 0 ? [p] : [COMMA, p]);
const COMMA = enc.encode(",");

Deno.test("joinRuns gives the pieces with separators, merging what lies together", () => {
  const texts = Array.from({ length: 50 }, (_, i) => `{"n":${i},"s":"${"é".repeat(i % 7)}"}`);
  const pieces = encodePieces(texts, ",");
  const expected = (list: string[]) => enc.encode(list.join(","));
  // All from one encode, in order: one run (the separators are found in place).
  assert.equal(joinRuns(withCommas(pieces)).length, 1);
  assert.deepEqual(concatRuns(joinRuns(withCommas(pieces))), expected(texts));
  // One changed (encoded alone), one removed, one moved to the end, one added.
  const changed = encodePieces(['{"changed":true}'])[0]!; // a piece per text
  const added = encodePieces(['{"added":"訊息"}'])[0]!;
  const list = [...pieces];
  const listTexts = [...texts];
  list[10] = changed;
  listTexts[10] = '{"changed":true}';
  list.splice(20, 1);
  listTexts.splice(20, 1);
  list.push(...list.splice(3, 1), added);
  listTexts.push(...listTexts.splice(3, 1), '{"added":"訊息"}');
  const runs = joinRuns(withCommas(list));
  assert.deepEqual(concatRuns(runs), expected(listTexts));
  assert.ok(runs.length < 20, `${runs.length} runs`);
  assert.deepEqual(joinRuns([]), []);
  assert.deepEqual(concatRuns(joinRuns([changed])), enc.encode('{"changed":true}'));
  // Literal bytes that are not in place start a run of their own; empty ones vanish.
  assert.deepEqual(
    concatRuns(joinRuns([enc.encode("["), changed, enc.encode(""), enc.encode("]")])),
    enc.encode('[{"changed":true}]'),
  );
});

Deno.test("compactRuns copies scattered pieces into one buffer once, and says where they now lie", () => {
  const texts = Array.from({ length: 40 }, (_, i) => `{"n":${i},"訊":"${"x".repeat(i)}"}`);
  // Every other piece encoded separately: many runs.
  const pieces = texts.map((t, i) => (i % 2 ? encodePieces([t]) : encodePieces([t, "pad"], ","))[0]!);
  const items = withCommas(pieces);
  const few = compactRuns(items, 100);
  assert.equal(few.moved, null);
  assert.deepEqual(concatRuns(few.runs), enc.encode(texts.join(",")));
  const compact = compactRuns(items, 8);
  assert.equal(compact.runs.length, 1);
  assert.deepEqual(compact.runs[0], enc.encode(texts.join(",")));
  const moved = compact.moved!.filter((p): p is BytePiece => p !== null);
  moved.forEach((p, i) => assert.deepEqual(p.buffer.subarray(p.start, p.end), enc.encode(texts[i])));
  assert.equal(joinRuns(withCommas(moved)).length, 1, "kept, they make one run next time");
});

Deno.test("contents as runs compare, measure and copy as the bytes they hold", () => {
  const whole = enc.encode("abcdefghij");
  const cuts: Uint8Array[][] = [
    [whole],
    [whole.subarray(0, 1), whole.subarray(1, 9), whole.subarray(9)],
    [whole.subarray(0, 5), new Uint8Array(0), whole.subarray(5)],
    Array.from(whole, (_, i) => whole.subarray(i, i + 1)),
  ];
  for (const runs of cuts) {
    assert.equal(bytesLength(runs), 10);
    assert.deepEqual(flatBytes(runs), whole);
    for (const other of cuts) assert.ok(sameBytes(runs, other));
    assert.ok(sameBytes(runs, whole) && sameBytes(whole, runs));
    assert.ok(!sameBytes(runs, enc.encode("abcdefghiJ")));
    assert.ok(!sameBytes(runs, enc.encode("abcdefghi")));
    for (let at = 0; at <= 10; at++) {
      for (let n = 0; at + n <= 10; n++) {
        assert.ok(equalAt(runs, at, whole.subarray(at, at + n)), `${at}+${n}`);
        if (n > 0) {
          const wrong = whole.slice(at, at + n);
          wrong[n - 1] = wrong[n - 1]! ^ 1; // 0 < n <= wrong.length
          assert.ok(!equalAt(runs, at, wrong), `${at}+${n} wrong`);
        }
      }
      assert.ok(!equalAt(runs, at, enc.encode("x".repeat(11 - at))), "past the end");
      const target = new Uint8Array(10);
      copyPrefix(runs, at, target);
      assert.deepEqual(target.subarray(0, at), whole.subarray(0, at));
      assert.ok(target.subarray(at).every((b) => b === 0));
    }
  }
});
