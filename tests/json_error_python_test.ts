/**
 * `pythonJsonError` against CPython's own `json` module on thousands of generated broken bodies:
 * the same message and the same code-point offset. Runs when `python3` is on the PATH.
 */
import assert from "node:assert/strict";
import { pythonJsonError } from "../routes/json_body.ts";

function python(): string | null {
  try {
    return new Deno.Command("python3", { args: ["-c", "1"] }).outputSync().success ? "python3" : null;
  } catch {
    return null;
  }
}

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS = [
  "0",
  "-1",
  "12",
  "1.5",
  "2e10",
  "-0.25E-3",
  '"a"',
  '""',
  '"é"',
  '"😀"',
  "true",
  "false",
  "null",
  "01",
  "1.",
  "-",
  '"\\n"',
  '"\\u00e9"',
];
const JUNK = ["x", ",", "]", "}", ":", " ", "\n", '"', "\\", "[", "{", "1e", "NaN", "\u0001", "😀"];

function value(next: () => number, depth: number): string {
  const r = next();
  if (depth > 3 || r < 0.5) return SCALARS[Math.floor(next() * SCALARS.length)]!; // next() < 1
  const n = Math.floor(next() * 30);
  if (r < 0.75) {
    return "[" + Array.from({ length: n }, () =>
      (next() < 0.2 ? " " : "") + value(next, depth + 1)).join(",") +
      "]";
  }
  return "{" +
    Array.from({ length: n }, (_, i) => `"k${i}"${next() < 0.2 ? " " : ""}:${value(next, depth + 1)}`).join(
      ",",
    ) +
    "}";
}

Deno.test({
  name: "pythonJsonError gives CPython's message and offset on generated broken bodies",
  ignore: python() === null,
  fn() {
    const next = random(20261125);
    const texts: string[] = [];
    while (texts.length < 3000) {
      let text = value(next, 0);
      // Break it: insert, delete or replace a few characters.
      for (let k = 1 + Math.floor(next() * 2); k > 0; k--) {
        const at = Math.floor(next() * (text.length + 1));
        const junk = JUNK[Math.floor(next() * JUNK.length)];
        const op = next();
        text = op < 0.4
          ? text.slice(0, at) + junk + text.slice(at)
          : op < 0.7
          ? text.slice(0, at) + text.slice(at + 1)
          : text.slice(0, at) + junk + text.slice(at + 1);
      }
      try {
        JSON.parse(text);
      } catch {
        texts.push(text);
      }
    }
    const script = "import json,sys\n" +
      "for line in sys.stdin:\n" +
      "  t = json.loads(line)\n" +
      "  try:\n    json.loads(t); print(json.dumps(None))\n" +
      "  except json.JSONDecodeError as e:\n    print(json.dumps([e.msg, e.pos]))\n" +
      "  except RecursionError:\n    print(json.dumps(['recursion', 0]))\n";
    const child = new Deno.Command("python3", { args: ["-c", script], stdin: "piped", stdout: "piped" })
      .spawn();
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(texts.map((t) => JSON.stringify(t)).join("\n") + "\n"));
    writer.close();
    return child.output().then((out) => {
      const answers = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(answers.length, texts.length);
      let compared = 0;
      for (let k = 0; k < texts.length; k++) {
        const expected = answers[k];
        if (expected === null) continue; // Python accepts it (NaN and friends): not this function's case.
        const got = pythonJsonError(texts[k]!);
        assert.deepEqual([got.error, got.position], expected, JSON.stringify(texts[k]));
        compared++;
      }
      assert.ok(compared > 2000, `${compared} compared`);
    });
  },
});
