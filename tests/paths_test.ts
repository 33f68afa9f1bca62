import assert from "node:assert/strict";
import posix from "node:path/posix";
import { POSIX_PATHS } from "../lib/po/_paths.ts";

/** Paths made of the pieces that matter to these functions: separators, ".", "..", names. */
function* samplePaths(count: number): Generator<string> {
  const pieces = ["/", "//", ".", "..", "a", "b.po", "..a", ".hidden", "x y", "é", "a/", "./", "../"];
  let x = 12345;
  for (let k = 0; k < count; k++) {
    let path = "";
    const n = k % 7;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      path += pieces[x % pieces.length];
    }
    yield path;
  }
}

Deno.test("the POSIX path functions give node:path/posix's results (normalize, join, isAbsolute, relative)", () => {
  const paths = [...samplePaths(3000), "", "/", "a/../..", "/..", "../../a/./b//c/"];
  for (const p of paths) {
    assert.equal(POSIX_PATHS.normalize(p), posix.normalize(p), `normalize ${JSON.stringify(p)}`);
    assert.equal(POSIX_PATHS.isAbsolute(p), posix.isAbsolute(p), `isAbsolute ${JSON.stringify(p)}`);
  }
  for (let i = 0; i + 1 < paths.length; i += 2) {
    const [a, b] = [paths[i]!, paths[i + 1]!];
    assert.equal(POSIX_PATHS.join(a, b), posix.join(a, b), `join ${JSON.stringify([a, b])}`);
    assert.equal(POSIX_PATHS.relative(a, b), posix.relative(a, b), `relative ${JSON.stringify([a, b])}`);
    assert.equal(POSIX_PATHS.relative(b, a), posix.relative(b, a), `relative ${JSON.stringify([b, a])}`);
  }
  assert.equal(POSIX_PATHS.join(), posix.join());
  assert.equal(POSIX_PATHS.join("", ""), posix.join("", ""));
});
