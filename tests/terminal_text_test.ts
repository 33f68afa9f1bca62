// deno-lint-ignore-file no-control-regex -- control characters are what these tests look for
/**
 * The one escaping of what the commands print (`lib/terminal_text.ts`): controls made visible,
 * other text untouched; GitHub annotations escaped as GitHub's toolkit escapes them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { githubAnnotation, terminalLines, terminalText } from "../lib/terminal_text.ts";

Deno.test("terminalText: every C0 and C1 control, DEL and U+2028/U+2029 escaped; the rest kept", () => {
  assert.equal(terminalText("a\nb\rc\td"), "a\\nb\\rc\\td");
  assert.equal(terminalText("\x1b[2J\x07\x00\x7f"), "\\x1b[2J\\x07\\x00\\x7f");
  assert.equal(terminalText("\x85\x9b31m\u2028\u2029"), "\\x85\\x9b31m\\u2028\\u2029");
  for (let c = 0; c < 0x100; c++) {
    const s = String.fromCharCode(c);
    const control = c < 0x20 || (c >= 0x7f && c < 0xa0);
    assert.equal(terminalText(s) !== s, control, `U+${c.toString(16)}`);
    assert.ok(!/[\x00-\x1f\x7f-\x9f]/.test(terminalText(s)), `U+${c.toString(16)} escaped to visible text`);
  }
  const plain = 'Entrée "\\t" 中文 \u200f עברית ✓';
  assert.equal(terminalText(plain), plain, "backslashes, quotes and other scripts are kept");
  assert.equal(terminalText(JSON.stringify("a\nb")), '"a\\nb"', "JSON-quoted text is not escaped twice");
});

Deno.test("terminalLines keeps its own line breaks and escapes inside each line", () => {
  assert.equal(terminalLines("-a\x1b[31m\r\n+b\n"), "-a\\x1b[31m\\r\n+b\n");
  assert.equal(terminalLines("same\n"), "same\n");
});

Deno.test("githubAnnotation: one command whatever the name and the message hold, as GitHub escapes them", () => {
  assert.equal(
    githubAnnotation("error", { file: "a,b:c%.po", line: 3, title: "format" }, "50% done"),
    "::error file=a%2Cb%3Ac%25.po,line=3,title=format::50%25 done",
  );
  const forged = githubAnnotation(
    "warning",
    { file: "x\n::error file=evil.po::forged\r.po", line: undefined },
    "text\n::error::forged\x1b[31m",
  );
  assert.equal(
    forged,
    "::warning file=x%0A%3A%3Aerror file=evil.po%3A%3Aforged%0D.po::text\\n::error::forged\\x1b[31m",
  );
  assert.ok(!/[\r\n\x1b]/.test(forged));
  assert.equal(githubAnnotation("notice", {}, "plain"), "::notice::plain");
});
