import assert from "node:assert/strict";
import { compactRuns, encodePieces, joinRuns, utf8Length } from "../lib/byte_runs.ts";

const enc = new TextEncoder();
const concat = (chunks: Uint8Array[]) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

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
  assert.ok(pieces.every((p) => p.buffer === pieces[0].buffer));
  pieces.forEach((p, i) => assert.deepEqual(p.buffer.subarray(p.start, p.end), enc.encode(texts[i])));
  assert.deepEqual(pieces[0].buffer, enc.encode(texts.join(",")));
  assert.deepEqual(encodePieces([]), []);
});

Deno.test("joinRuns gives the pieces with separators, merging what lies together", () => {
  const texts = Array.from({ length: 50 }, (_, i) => `{"n":${i},"s":"${"é".repeat(i % 7)}"}`);
  const pieces = encodePieces(texts, ",");
  const expected = (list: string[]) => enc.encode(list.join(","));
  // All from one encode, in order: one run.
  assert.equal(joinRuns(pieces, 0x2c).length, 1);
  assert.deepEqual(concat(joinRuns(pieces, 0x2c)), expected(texts));
  // One changed (encoded alone), one removed, one moved to the end, one added.
  const changed = encodePieces(['{"changed":true}'])[0];
  const added = encodePieces(['{"added":"訊息"}'])[0];
  const list = [...pieces];
  const listTexts = [...texts];
  list[10] = changed;
  listTexts[10] = '{"changed":true}';
  list.splice(20, 1);
  listTexts.splice(20, 1);
  list.push(list.splice(3, 1)[0], added);
  listTexts.push(listTexts.splice(3, 1)[0], '{"added":"訊息"}');
  const runs = joinRuns(list, 0x2c);
  assert.deepEqual(concat(runs), expected(listTexts));
  assert.ok(runs.length < 15, `${runs.length} runs`);
  assert.deepEqual(joinRuns([], 0x2c), []);
  assert.deepEqual(concat(joinRuns([changed], 0x2c)), enc.encode('{"changed":true}'));
});

Deno.test("compactRuns copies scattered pieces into one buffer once, and says where they now lie", () => {
  const texts = Array.from({ length: 40 }, (_, i) => `{"n":${i},"訊":"${"x".repeat(i)}"}`);
  // Every other piece encoded separately: 40 runs.
  const pieces = texts.map((t, i) => i % 2 ? encodePieces([t])[0] : encodePieces([t, "pad"], ",")[0]);
  const few = compactRuns(pieces, 0x2c, 100);
  assert.equal(few.pieces, null);
  assert.deepEqual(concat(few.runs), enc.encode(texts.join(",")));
  const compact = compactRuns(pieces, 0x2c, 8);
  assert.equal(compact.runs.length, 1);
  assert.deepEqual(compact.runs[0], enc.encode(texts.join(",")));
  compact.pieces!.forEach((p, i) =>
    assert.deepEqual(p.buffer.subarray(p.start, p.end), enc.encode(texts[i]))
  );
  assert.equal(joinRuns(compact.pieces!, 0x2c).length, 1, "kept, they make one run next time");
});
