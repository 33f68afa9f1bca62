import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import {
  equalBytes,
  jsEqualBytes,
  jsLatin1String,
  latin1Bytes,
  latin1String,
  loadNativeBytes,
} from "../lib/native_bytes.ts";

/** A deterministic generator (xorshift32), so a failure can be replayed. */
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

Deno.test("the JavaScript Latin-1 decoding gives Node's strings: every byte value, long inputs, any slice", () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.equal(jsLatin1String(all), Buffer.from(all).toString("latin1"));
  for (const n of [0, 1, 8191, 8192, 8193, 100_000]) {
    const bytes = randomBytes(n, n + 7);
    const node = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    assert.equal(jsLatin1String(bytes), node.toString("latin1"), `length ${n}`);
    if (n > 10) assert.equal(jsLatin1String(bytes, 3, n - 5), node.toString("latin1", 3, n - 5));
  }
  // And back: the bytes of a byte string.
  const text = Buffer.from(all).toString("latin1");
  assert.deepEqual(latin1Bytes(text), all);
  assert.deepEqual(Uint8Array.from(Buffer.from(text, "latin1")), all);
  // A view that does not start its buffer.
  const view = randomBytes(20_000, 3).subarray(17, 19_001);
  assert.equal(jsLatin1String(view, 5, 9000), Buffer.from(view).toString("latin1", 5, 9000));
});

Deno.test("the JavaScript byte equality agrees with Buffer.compare at every alignment and at every differing byte", () => {
  const base = randomBytes(4099, 11);
  for (let offA = 0; offA < 4; offA++) {
    for (let offB = 0; offB < 4; offB++) {
      for (const length of [0, 1, 3, 4, 5, 63, 4000]) {
        const a = new Uint8Array(length + 8).subarray(offA, offA + length);
        const b = new Uint8Array(length + 8).subarray(offB, offB + length);
        a.set(base.subarray(0, length));
        b.set(base.subarray(0, length));
        assert.equal(jsEqualBytes(a, b), true, `${offA}/${offB}/${length}`);
        for (const at of length === 0 ? [] : [0, length >> 1, length - 1]) {
          b[at] = b[at]! ^ 0x80;
          assert.equal(jsEqualBytes(a, b), false, `${offA}/${offB}/${length} differs at ${at}`);
          assert.equal(Buffer.compare(a, b) === 0, false);
          b[at] = b[at]! ^ 0x80;
        }
      }
    }
  }
  assert.equal(jsEqualBytes(new Uint8Array(3), new Uint8Array(4)), false);
});

Deno.test("latin1String, latin1Bytes and equalBytes answer the same before and after node:buffer is loaded", async () => {
  const bytes = randomBytes(70_000, 5);
  const other = bytes.slice();
  other[69_999] = other[69_999]! ^ 1;
  const answers = () => {
    const text = latin1String(bytes, 1, 65_000);
    return [text, Array.from(latin1Bytes(text)), equalBytes(bytes, bytes.slice()), equalBytes(bytes, other)];
  };
  const before = answers();
  await loadNativeBytes();
  const after = answers();
  assert.deepEqual(after, before);
  assert.deepEqual(before.slice(2), [true, false]);
  assert.deepEqual(before[1], Array.from(bytes.subarray(1, 65_000)));
});
