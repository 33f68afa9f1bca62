import assert from "node:assert/strict";
import { ByteBudget } from "../lib/byte_budget.ts";
import { AnswerTooLargeError } from "../lib/errors.ts";
import { JsonAnswer, jsonWithin, KeptItemJson, ListAnswers, streamAnswer } from "../lib/json_answer.ts";

type Item = { id: number; text: string };
type Collection = { items: Item[] };

function lists(calls: Item[]) {
  const items = new KeptItemJson<Item>((item) => {
    calls.push(item);
    return { id: item.id, text: item.text };
  }, (item) => item.text.length + 10);
  return new ListAnswers<Collection, Item>({
    key: "items",
    select: (c) => c.items,
    items,
    keepCompacted: true,
    hint: "Ask for less.",
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

Deno.test("a list answer is the JSON of its items, and a new version serialises only its new items", () => {
  const calls: Item[] = [];
  const answers = lists(calls);
  const a = { id: 1, text: "é" };
  const b = { id: 2, text: 'say "hi"' };
  const first = answers.answer({ items: [a, b] }, 1000);
  assert.deepEqual(calls, [a, b]);
  const c = { id: 3, text: "new" };
  const second = answers.answer({ items: [a, c, b] }, 1000);
  assert.deepEqual(calls, [a, b, c], "a and b were kept, only c was serialised");
  assert.equal(first.text(), JSON.stringify({ items: [{ id: 1, text: "é" }, { id: 2, text: 'say "hi"' }] }));
  assert.equal(first.length, new TextEncoder().encode(first.text()).length);
  assert.deepEqual(first.value(), JSON.parse(first.text()));
  assert.deepEqual(JSON.parse(second.text()).items.map((i: Item) => i.id), [1, 3, 2]);
});

Deno.test("a list over the limit is refused, and refused again without work under the same limit", () => {
  const calls: Item[] = [];
  const answers = lists(calls);
  const collection = { items: [{ id: 1, text: "x".repeat(100) }] };
  assert.throws(() => answers.answer(collection, 50), AnswerTooLargeError);
  assert.throws(
    () => answers.answer(collection, 50),
    {
      name: "AnswerTooLargeError",
      // Refused by a lower bound, so no size is given ("would be more than over the limit" once).
      message: /^The answer would be over the limit of 50 bytes \(MAX_RESPONSE_BYTES\)\. Ask for less\./,
    },
  );
  assert.equal(calls.length, 0, "the lower bound refused it without serialising");
  assert.equal(
    answers.answer(collection, 1000).length,
    JSON.stringify({ items: [{ id: 1, text: "x".repeat(100) }] }).length,
  );
});

Deno.test("jsonWithin gives the JSON text, or refuses it past the limit with the size and the hint", () => {
  assert.equal(jsonWithin({ a: 1 }, 100, "Ask."), '{"a":1}');
  assert.throws(() => jsonWithin({ a: "x".repeat(20) }, 10, "Ask."), {
    name: "AnswerTooLargeError",
    message: "The answer would be 28 bytes, over the limit of 10 bytes (MAX_RESPONSE_BYTES). Ask.",
  });
});

Deno.test("a streamed answer comes in views of at most 64 KiB and holds the allowance until taken", async () => {
  const big = new Uint8Array(3 * 1024 * 1024 + 5).fill(0x20);
  const answer = new JsonAnswer([big.subarray(0, 100), big.subarray(100)], () => null);
  const budget = new ByteBudget(16 * 1024 * 1024);
  const stream = streamAnswer(answer, { limit: 1 << 30, hint: "", budget, timeoutMs: 60_000 });
  assert.equal(budget.used, answer.length);
  const chunks = await bytesOf(stream);
  assert.equal(budget.used, 0);
  assert.equal(chunks.reduce((n, c) => n + c.length, 0), answer.length);
  assert.ok(chunks.every((c) => c.length <= 64 * 1024));
});

Deno.test("a streamed answer cancelled by its reader gives its allowance back", async () => {
  const answer = new JsonAnswer([new Uint8Array(2 * 1024 * 1024)], () => null);
  const budget = new ByteBudget(16 * 1024 * 1024);
  const stream = streamAnswer(answer, { limit: 1 << 30, hint: "", budget, timeoutMs: 60_000 });
  const reader = stream.getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(budget.used, 0);
});

Deno.test("a kept answer over the limit is refused before any allowance is taken", () => {
  const answer = new JsonAnswer([new Uint8Array(2 * 1024 * 1024)], () => null);
  const budget = new ByteBudget(16 * 1024 * 1024);
  assert.throws(
    () => streamAnswer(answer, { limit: 1024, hint: "Read less.", budget, timeoutMs: 60_000 }),
    {
      name: "AnswerTooLargeError",
      message: /would be 2097152 bytes, over the limit of 1024 bytes .* Read less\.$/,
    },
  );
  assert.equal(budget.used, 0);
});
