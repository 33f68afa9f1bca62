import assert from "node:assert/strict";
import { NotRegularFileError, openInTime, readRegularFileBytes } from "../lib/regular_read.ts";
import { TooLargeError } from "../lib/errors.ts";

Deno.test("readRegularFileBytes reads a regular file's exact bytes, through a symlink too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    await Deno.writeFile(`${dir}/a.po`, bytes);
    await Deno.symlink(`${dir}/a.po`, `${dir}/link.po`);
    assert.deepEqual(await readRegularFileBytes(`${dir}/a.po`), bytes);
    assert.deepEqual(await readRegularFileBytes(`${dir}/link.po`), bytes);
    await Deno.writeFile(`${dir}/empty.po`, new Uint8Array());
    assert.equal((await readRegularFileBytes(`${dir}/empty.po`)).length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRegularFileBytes refuses a directory, a FIFO and /dev/zero without hanging, and a file over the limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      readRegularFileBytes(dir),
      (e) => e instanceof NotRegularFileError && e.what === "a directory",
    );
    await assert.rejects(
      readRegularFileBytes("/dev/zero"),
      (e) => e instanceof NotRegularFileError && e.what === "a character device",
    );
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/f.po`] }).output().catch(() => null);
    if (made?.success) {
      await assert.rejects(
        readRegularFileBytes(`${dir}/f.po`),
        (e) => e instanceof NotRegularFileError && e.what === "a FIFO",
      );
    } else console.log("mkfifo unavailable: FIFO case skipped");
    await Deno.writeFile(`${dir}/big.po`, new Uint8Array(101));
    await assert.rejects(readRegularFileBytes(`${dir}/big.po`, 100), TooLargeError);
    // The commands' one reader (wrap, check, merge, compile) says a missing file the way merge and
    // compile print it: `merge: No such file: PATH`.
    await assert.rejects(readRegularFileBytes(`${dir}/none.po`), (e) => {
      assert.ok(e instanceof Deno.errors.NotFound);
      assert.equal(e.message, `No such file: ${dir}/none.po`);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRegularFileBytes reads a file that writers keep replacing by atomic rename, never refusing it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/busy.po`;
    await Deno.writeFile(path, new Uint8Array([1]));
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        await Deno.writeFile(`${dir}/tmp`, new Uint8Array([i % 200 + 1]));
        await Deno.rename(`${dir}/tmp`, path);
      }
    })();
    try {
      for (let i = 0; i < 400; i++) {
        const bytes = await readRegularFileBytes(path);
        assert.equal(bytes.length, 1);
      }
    } finally {
      stop = true;
      await writer;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an open that blocks (a FIFO with no writer, as after a swap) is refused at the time limit, and a quick one is not", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A regular file opens well within the limit.
    await Deno.writeTextFile(`${dir}/a.po`, "x");
    (await openInTime(`${dir}/a.po`, "a.po", 50)).close();
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/f.po`] }).output().catch(() => null);
    if (!made?.success) {
      console.log("mkfifo unavailable: the blocked open is not tested");
      return;
    }
    const started = performance.now();
    await assert.rejects(
      openInTime(`${dir}/f.po`, "f.po", 200),
      (e) => e instanceof NotRegularFileError && e.what === "not openable in time (a FIFO?)",
    );
    // A lower bound only: it waited for the limit (a slow machine can only make it later).
    assert.ok(performance.now() - started >= 150);
    // The open still waits in the background: a writer releases it, and it is closed when it ends.
    const writer = await Deno.open(`${dir}/f.po`, { write: true });
    writer.close();
    // Let the released open settle (its handle is closed by openInTime) before the op sanitizer looks.
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 10));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("opens in progress share one watch: a short limit is kept while a longer one is armed, and two blocked opens are both refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.po`, "x");
    // Arms the watch for a long limit first.
    (await openInTime(`${dir}/a.po`, "a.po", 60_000)).close();
    for (const name of ["f.po", "g.po"]) {
      const made = await new Deno.Command("mkfifo", { args: [`${dir}/${name}`] }).output().catch(() => null);
      if (!made?.success) {
        console.log("mkfifo unavailable: the blocked opens are not tested");
        return;
      }
    }
    const started = performance.now();
    const refused = (e: unknown) =>
      e instanceof NotRegularFileError && e.what === "not openable in time (a FIFO?)";
    await Promise.all([
      assert.rejects(openInTime(`${dir}/f.po`, "f.po", 200), refused),
      assert.rejects(openInTime(`${dir}/g.po`, "g.po", 400), refused),
    ]);
    // Refused at their own limits, not the first open's minute (an upper bound a slow machine keeps).
    assert.ok(performance.now() - started < 30_000);
    for (const name of ["f.po", "g.po"]) (await Deno.open(`${dir}/${name}`, { write: true })).close();
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 10));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process whose opens have all ended is not held open by their time limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.po`, "x");
    // Reads with a ten-minute limit, then has nothing left to do: it must end at once, not when
    // the limit's timer fires (it did, holding a server that should exit for the limit).
    const script = `${dir}/read.ts`;
    await Deno.writeTextFile(
      script,
      `import { readRegularFileBytes } from ${
        JSON.stringify(new URL("../lib/regular_read.ts", import.meta.url).href)
      };\n` +
        `console.log((await readRegularFileBytes(${
          JSON.stringify(`${dir}/a.po`)
        }, 1024, 600_000)).length);\n`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        `--allow-read=${dir},${new URL("..", import.meta.url).pathname}`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // A hang, not a speed: killed only if it is still there long after any start-up.
    const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    const out = await child.output();
    clearTimeout(killer);
    assert.equal(new TextDecoder().decode(out.stdout), "1\n", new TextDecoder().decode(out.stderr));
    assert.equal(out.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
