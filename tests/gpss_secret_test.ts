import assert from "node:assert/strict";
import { boundedExcerpt, EXCERPT_WINDOW } from "../lib/gpss/_excerpt.ts";
import { secretMasker } from "../lib/gpss/_secret.ts";
import { countReads } from "./_work.ts";

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

Deno.test("secretMasker reads each character of the text a fixed number of times (N, 4N, 16N)", () => {
  // Characters read, not milliseconds: the same count on any machine at any load (timings are
  // bench/'s). A rescan from each position would read more per character as the text grows.
  const unit = "%39%66A3 9fA3c27B lorem ipsum &#x39; \\u0066 ";
  const perCharacter = [16_384, 65_536, 262_144].map((n) => {
    const text = unit.repeat(Math.ceil(n / unit.length));
    const { result, reads } = countReads(() => mask(text));
    assert.ok(result.includes("***") && result.length < text.length);
    return reads / text.length;
  });
  const [a, b, c] = perCharacter as [number, number, number];
  assert.ok(a <= 4, `${a.toFixed(2)} characters read per character`);
  assert.ok(b <= a * 1.05 && c <= a * 1.05, `reads per character at N, 4N, 16N: ${perCharacter.join(", ")}`);
});

Deno.test("boundedExcerpt masks before cutting and reads only a window of a huge text", () => {
  const text = `${"z".repeat(195)}${CODE}${"y".repeat(20_000_000)}`;
  // What the mask is given, and what is read, stays within the window however long the text.
  const given: number[] = [];
  const seen = (t: string) => {
    given.push(t.length);
    return mask(t);
  };
  const { reads } = countReads(() => {
    assert.equal(boundedExcerpt(text, 200, "start", seen), `${"z".repeat(195)}***yy…`);
    assert.equal(boundedExcerpt(text, 10, "end", seen), `…${"y".repeat(10)}`);
    assert.equal(boundedExcerpt(text, 10, "middle", seen), "zzzzz…yyyyy");
  });
  assert.ok(Math.max(...given) <= EXCERPT_WINDOW, `the mask was given ${Math.max(...given)} characters`);
  assert.ok(reads < 40 * EXCERPT_WINDOW, `${reads} characters read of a ${text.length}-character text`);
  assert.equal(
    boundedExcerpt(`${" ".repeat(EXCERPT_WINDOW)}late`, 50),
    "…",
    "past the window: nothing shown",
  );
  assert.equal(boundedExcerpt("a\u0000b\n\n c", 50), "a\uFFFDb c");
});
