import assert from "node:assert/strict";
import { boundedExcerpt, EXCERPT_WINDOW } from "../lib/gpss/_excerpt.ts";
import { secretMasker } from "../lib/gpss/_secret.ts";

const CODE = "9fA3c27BdE41b6C0";
const mask = secretMasker(CODE);

Deno.test("secretMasker masks the code in each spelling an echo may use, and only the code", async (t) => {
  const cases: [string, string, string][] = [
    ["verbatim", `code=${CODE}&TI=x`, "code=***&TI=x"],
    ["upper-cased", `code=${CODE.toUpperCase()}&TI=x`, "code=***&TI=x"],
    [
      "percent-encoded, mixed hex case",
      "code=%39%66%41%33%63%32%37%42%64%45%34%31%62%36%43%30;",
      "code=***;",
    ],
    ["percent-encoded twice", "code=%2539%2566A3c27BdE41b6C0!", "code=***!"],
    ["HTML entities with leading zeros", "&#0057;&#x66;&#X41;3c27BdE41b6C0<", "***<"],
    ["JSON escapes", '\\u0039\\u0066\\u0041\\u00333c27BdE41b6C0"', '***"'],
    ["a prefix cut by the upstream", `userCode=${CODE.slice(0, 6)}... rejected`, "userCode=***... rejected"],
    ["a suffix", `…${CODE.slice(-5)} end`, "…*** end"],
    ["two characters at the end of a text", "the last word: 9f", "the last word: ***"],
    ["two characters at the start of a text", "C0 and more", "*** and more"],
    ["three characters inside a text are kept", "a bde b", "a bde b"],
    [
      "an unrelated text is returned as is",
      "GPSS API returned HTTP status 500",
      "GPSS API returned HTTP status 500",
    ],
  ];
  for (const [label, input, expected] of cases) {
    await t.step(label, () => assert.equal(mask(input), expected));
  }
  await t.step("a code with a space matches the form encoding's +", () => {
    assert.equal(secretMasker("ab cd ef")("x=AB+CD+EF&y"), "x=***&y");
    assert.equal(secretMasker("ab+cd")("x=ab%2Bcd y"), "x=*** y");
  });
  await t.step("an empty code masks nothing", () => assert.equal(secretMasker("")("anything"), "anything"));
});

Deno.test("secretMasker is linear in the text (N, 4N, 16N)", () => {
  const unit = "%39%66A3 9fA3c27B lorem ipsum &#x39; \\u0066 ";
  // The fastest of five runs: a GC pause or a busy machine slows single runs, rarely all five.
  const time = (n: number) => {
    const text = unit.repeat(Math.ceil(n / unit.length));
    mask(text); // warm up
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      mask(text);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  const [a, b, c] = [time(16_384), time(65_536), time(262_144)];
  // Linear: ~4x per 4x step (quadratic would be 16x, then 256x overall).
  assert.ok(b / a < 10 && c / a < 48, `N ${a.toFixed(1)} ms, 4N ${b.toFixed(1)} ms, 16N ${c.toFixed(1)} ms`);
});

Deno.test("boundedExcerpt masks before cutting and reads only a window of a huge text", () => {
  const text = `${"z".repeat(195)}${CODE}${"y".repeat(20_000_000)}`;
  const started = performance.now();
  assert.equal(boundedExcerpt(text, 200, "start", mask), `${"z".repeat(195)}***yy…`);
  assert.equal(boundedExcerpt(text, 10, "end", mask), `…${"y".repeat(10)}`);
  assert.equal(boundedExcerpt(text, 10, "middle", mask), "zzzzz…yyyyy");
  assert.ok(performance.now() - started < 500);
  assert.equal(
    boundedExcerpt(`${" ".repeat(EXCERPT_WINDOW)}late`, 50),
    "…",
    "past the window: nothing shown",
  );
  assert.equal(boundedExcerpt("a\u0000b\n\n c", 50), "a\uFFFDb c");
});
