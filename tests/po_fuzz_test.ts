/**
 * Fuzzing the PO reader and writer with mutated catalogues (fixed seed, bounded iterations): every
 * input parses or throws a typed error, quickly; what parses formats to a file that parses to the
 * same messages and is a fixed point; where msgcat is installed, our output equals msgcat's and we
 * reject what it rejects. Inputs that ever failed are kept in tests/fixtures/fuzz/ and replayed.
 */
import assert from "node:assert/strict";
import { DomainError } from "../lib/errors.ts";
import { formatPo, parsePo } from "../lib/po/mod.ts";
import type { PoCatalog } from "../lib/po/types.ts";
import { SHARED_DIR, sharedAvailable } from "./_helpers.ts";
import { HAS_MSGCAT } from "./_prerequisites.ts";

const ITERATIONS = 600;
const MSGCAT_SAMPLE = 150;

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function seeds(): Uint8Array[] {
  const out: Uint8Array[] = [];
  const dirs = [new URL("../examples/fr/", import.meta.url), new URL("../examples/zh_TW/", import.meta.url)];
  for (const dir of dirs) {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.endsWith(".po")) out.push(Deno.readFileSync(new URL(e.name, dir)));
    }
  }
  if (sharedAvailable()) {
    for (
      const name of [
        "polib__tests__test_msgctxt.po",
        "polib__tests__test_previous_msgid.po",
        "fr__about.po",
        "xz__po__fr.po",
      ]
    ) {
      const bytes = Deno.readFileSync(new URL(`corpus/po/${name}`, SHARED_DIR));
      out.push(bytes.subarray(0, Math.min(bytes.length, 40_000)));
    }
  }
  return out;
}

const INSERTS = [
  '"',
  "\\",
  "#~ ",
  "\n",
  "#, fuzzy\n",
  '#| msgid "x"\n',
  'msgctxt "c"\n',
  "\\n",
  "\\x41",
  "\\101",
  "#: a.c:1\n",
];

function mutate(input: Uint8Array, rnd: () => number): Uint8Array {
  const kind = Math.floor(rnd() * 5);
  if (kind === 0) { // random byte edits
    const out = input.slice();
    for (let n = 0; n < 1 + rnd() * 5; n++) out[Math.floor(rnd() * out.length)] = Math.floor(rnd() * 256);
    return out;
  }
  if (kind === 1) return input.subarray(0, Math.floor(rnd() * input.length)); // truncation
  const lines = dec.decode(input).split("\n");
  if (kind === 2) { // shuffle a few lines
    for (let n = 0; n < 1 + rnd() * 4; n++) {
      const i = Math.floor(rnd() * lines.length);
      const j = Math.floor(rnd() * lines.length);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!]; // i, j < lines.length
    }
    return enc.encode(lines.join("\n"));
  }
  const text = dec.decode(input); // insert quotes, backslashes, #~ and friends
  let out = text;
  for (let n = 0; n < 1 + rnd() * 3; n++) {
    const at = Math.floor(rnd() * out.length);
    out = out.slice(0, at) + INSERTS[Math.floor(rnd() * INSERTS.length)] + out.slice(at);
  }
  return enc.encode(out);
}

type Verdict = { ok: true; text: string; catalog: PoCatalog } | { ok: false; error: unknown };

function ours(bytes: Uint8Array): Verdict {
  try {
    const catalog = parsePo(bytes);
    return { ok: true, text: formatPo(catalog), catalog };
  } catch (error) {
    return { ok: false, error };
  }
}

function keyMap(cat: PoCatalog): Map<string, string> {
  const m = new Map<string, string>();
  for (const msg of cat.messages) {
    const forms = msg.msgstrPlural ?? [msg.msgstr];
    if (msg.obsolete && forms[0] === "") continue; // msgcat drops these
    if (msg.msgid === "" && msg.msgctxt === null) continue; // and a header left alone in its domain
    m.set(`${msg.obsolete}\u0004${msg.msgctxt}\u0004${msg.msgid}`, forms.join("\u0000"));
  }
  return m;
}

/** Checks one input; returns a failure description or null. */
function check(bytes: Uint8Array): string | null {
  const started = performance.now();
  const v = ours(bytes);
  const elapsed = performance.now() - started;
  // A hang guard, not a speed target: inputs are < 64 KB and take milliseconds.
  if (elapsed > 5000) return `took ${elapsed.toFixed(0)} ms`;
  if (!v.ok) return v.error instanceof DomainError ? null : `untyped error: ${String(v.error)}`;
  const again = ours(enc.encode(v.text));
  if (!again.ok) return `our output does not parse again: ${String(again.error)}`;
  const a = keyMap(v.catalog);
  const b = keyMap(again.catalog);
  // Compared as sets: the writer moves obsolete entries after the others, as msgcat does.
  if (JSON.stringify([...a].sort()) !== JSON.stringify([...b].sort())) {
    return "our output parses to other messages";
  }
  const third = ours(enc.encode(again.text));
  if (!third.ok || third.text !== again.text) return "formatting is not idempotent";
  return null;
}

function msgcat(bytes: Uint8Array, dir: string): { ok: boolean; text: string } {
  const path = `${dir}/input.po`;
  Deno.writeFileSync(path, bytes);
  const out = new Deno.Command("msgcat", { args: [path], stdout: "piped", stderr: "null" }).outputSync();
  return { ok: out.success, text: dec.decode(out.stdout) };
}

const FIXTURES = new URL("./fixtures/fuzz/", import.meta.url);

Deno.test("inputs that once broke the reader or writer stay fixed", () => {
  let n = 0;
  for (const e of Deno.readDirSync(FIXTURES)) {
    if (!e.name.endsWith(".po")) continue;
    n++;
    const input = Deno.readFileSync(new URL(e.name, FIXTURES));
    assert.equal(check(input), null, e.name);
    // msgcat's bytes for the input, committed, so the layout is checked without msgcat too.
    const golden = new URL(e.name.replace(/\.po$/, ".msgcat-out"), FIXTURES);
    const v = ours(input);
    assert.equal(v.ok ? v.text : null, Deno.readTextFileSync(golden), e.name);
  }
  console.log(`${n} regression inputs replayed`);
});

Deno.test("mutated catalogues parse or fail with a typed error; what parses round-trips and is a fixed point", () => {
  const rnd = random(1122);
  const base = seeds();
  const useMsgcat = HAS_MSGCAT;
  const dir = Deno.makeTempDirSync();
  const failures: string[] = [];
  let parsed = 0;
  let compared = 0;
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      const input = mutate(base[i % base.length]!, rnd);
      const problem = check(input);
      if (problem) {
        failures.push(`#${i}: ${problem}`);
        if (Deno.env.get("KEEP_FUZZ_FAILURES")) Deno.writeFileSync(new URL(`case-${i}.po`, FIXTURES), input);
        continue;
      }
      const v = ours(input);
      if (v.ok) parsed++;
      if (useMsgcat && i % Math.ceil(ITERATIONS / MSGCAT_SAMPLE) === 0) {
        compared++;
        const m = msgcat(input, dir);
        const before = failures.length;
        if (m.ok !== v.ok) {
          failures.push(
            `#${i}: msgcat ${m.ok ? "accepts" : "rejects"} it, we ${v.ok ? "accept" : "reject"} it`,
          );
        } else if (v.ok && m.text !== v.text) failures.push(`#${i}: output differs from msgcat's`);
        if (failures.length > before && Deno.env.get("KEEP_FUZZ_FAILURES")) {
          Deno.writeFileSync(new URL(`case-${i}.po`, FIXTURES), input);
        }
      }
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  console.log(
    `${ITERATIONS} mutated inputs, ${parsed} parsed, ${compared} compared with msgcat${
      useMsgcat ? "" : " (msgcat not installed: none)"
    }`,
  );
  assert.deepEqual(failures, []);
});
