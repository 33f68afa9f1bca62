import assert from "node:assert/strict";
import { Lexer, T_EOF, T_STRING } from "../lib/po/read/_lexer.ts";

/** A deterministic generator (a linear congruential one), so a failure can be replayed. */
function generator(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
}

/** Lines of quoted strings whose content mixes what the fast path looks for and what it must leave. */
function randomText(seed: number, lines: number): string {
  const next = generator(seed);
  const pieces = [
    "a",
    "b c",
    "é",
    "\u00ff",
    "\\n",
    "\\\\",
    '\\"',
    "\\303\\251",
    "\0",
    "\x04",
    "\x01",
    "\t",
    "\u20ac",
  ];
  let text = "";
  for (let l = 0; l < lines; l++) {
    let s = "";
    const n = next() % 6;
    for (let k = 0; k < n; k++) s += pieces[next() % pieces.length];
    // Now and then a string left open to the end of its line (an error).
    text += next() % 17 === 0 ? `msgid "${s}\n` : `msgstr "${s}" "${s.slice(0, 2)}"\n`;
  }
  return text;
}

/** What lexing every string of `text` gives: each value, where it ended, the last non-ASCII token, or the error. */
function lexAll(text: string, reference: boolean, chunkLines: number): unknown[] {
  // In chunks of `chunkLines` lines, as the reader hands a file over (the fast path keeps
  // positions per chunk).
  const lines = text.split(/(?<=\n)/);
  const chunks: string[] = [];
  for (let k = 0; k < lines.length; k += chunkLines) chunks.push(lines.slice(k, k + chunkLines).join(""));
  const lex = new Lexer(chunks[0] ?? "", false, null, [], chunks.slice(1));
  const out: unknown[] = [];
  if (reference) {
    // The slow path alone (it handles every string), then what lexString adds to it.
    lex.lexString = function (i: number) {
      const value = this.lexStringSlow(i);
      if (typeof value !== "string" || /[^\0-\x7f]/.test(value)) this.lastHighStart = this.base + this.start;
      return value;
    };
  }
  for (;;) {
    try {
      lex.advance();
    } catch (e) {
      out.push(`error ${(e as Error).message}`);
      return out;
    }
    if (lex.kind === T_EOF) return out;
    if (lex.kind === T_STRING) out.push([lex.value, lex.i, lex.lastHighStart]);
  }
}

Deno.test("the lexer's fast path for strings gives what the careful path gives, value, end and non-ASCII mark", () => {
  let strings = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const text = randomText(seed, 1 + (seed % 40));
    const chunkLines = 1 + (seed % 5);
    const fast = lexAll(text, false, chunkLines);
    assert.deepEqual(fast, lexAll(text, true, chunkLines), `seed ${seed}: ${JSON.stringify(text)}`);
    strings += fast.length;
  }
  assert.ok(strings > 1000, `${strings} strings`);
});
