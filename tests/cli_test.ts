/**
 * The command line's pieces in `cli/`: the batched log, and `wrap`'s file access (a file changed
 * between its read and its rewrite keeps that change). `main.ts` itself is run as a process by
 * main_cli_test.ts and start_task_test.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { batchedLog } from "../cli/log.ts";
import { wrapIo } from "../cli/wrap/io.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";

const decoder = new TextDecoder();

Deno.test("log lines of one turn of the event loop are written together, in order, one line each", async () => {
  const writes: string[] = [];
  const { log } = batchedLog((bytes) => void writes.push(decoder.decode(bytes)));
  log("a");
  log("b");
  assert.deepEqual(writes, [], "nothing is written before the turn ends");
  await new Promise((resolve) => setTimeout(resolve, 0));
  log("c");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(writes, ["a\nb\n", "c\n"]);
});

Deno.test("flush writes pending log lines at once, and a writer that fails is ignored", () => {
  const writes: string[] = [];
  const { log, flush } = batchedLog((bytes) => void writes.push(decoder.decode(bytes)));
  log("at exit");
  flush();
  flush();
  assert.deepEqual(writes, ["at exit\n"]);
  const closed = batchedLog(() => {
    throw new Error("stderr closed");
  });
  closed.log("lost");
  closed.flush();
});

class Failed extends Error {}
const fail = (line: string): never => {
  throw new Failed(line);
};

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

Deno.test("wrap rewrites a file with its new layout when nobody changed it since it was read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cli-wrap-" });
  try {
    const path = `${dir}/a.po`;
    await Deno.writeTextFile(path, `${HEADER}msgid "a"\nmsgstr "b"\n`);
    const io = wrapIo({ args: [path], lockDir: () => "beside", fail });
    await io.readFile(path);
    await io.writeFile(path, new TextEncoder().encode(`${HEADER}msgid "a"\nmsgstr "laid out"\n`));
    assert.equal(await Deno.readTextFile(path), `${HEADER}msgid "a"\nmsgstr "laid out"\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrap keeps a change that landed between its read and its rewrite, laid out as msgcat would", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cli-wrap-" });
  try {
    const path = `${dir}/a.po`;
    await Deno.writeTextFile(path, `${HEADER}msgid "a"\nmsgstr "b"\n`);
    const io = wrapIo({ args: [path], lockDir: () => "beside", fail });
    const before = await io.readFile(path);
    // A server write lands: its content, not the layout of what wrap read, is what must remain.
    const landed = `${HEADER}msgid "a"\nmsgstr ""\n"server's"\n\nmsgid "new"\nmsgstr "entry"\n`;
    await Deno.writeTextFile(path, landed);
    await io.writeFile(path, encodePo(parsePo(before, { fileName: path })));
    const expected = decoder.decode(encodePo(parsePo(new TextEncoder().encode(landed), { fileName: path })));
    assert.equal(await Deno.readTextFile(path), expected);
    assert.match(expected, /msgstr "server's"\n\nmsgid "new"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wrap with a lock directory it cannot use ends with one line naming the problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cli-wrap-" });
  try {
    const path = `${dir}/a.po`;
    await Deno.writeTextFile(path, `${HEADER}msgid "a"\nmsgstr "b"\n`);
    const io = wrapIo({ args: [path], lockDir: () => "relative/locks", fail });
    await io.readFile(path);
    await assert.rejects(
      () => io.writeFile(path, new Uint8Array()),
      (error) =>
        error instanceof Failed &&
        /^wrap: .*must be an absolute directory or "beside" \(got "relative\/locks"\)$/.test(error.message),
    );
    assert.equal(await Deno.readTextFile(path), `${HEADER}msgid "a"\nmsgstr "b"\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
