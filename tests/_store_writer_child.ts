/**
 * A small real codec for store tests (a line-based text format), and a child process that exercises
 * the store from another process:
 *
 *   _store_writer_child.ts append ROOT FILE ID N   N locked appends of the line "ID-i" (i = 1..N)
 *   _store_writer_child.ts crash ROOT FILE         appends crashLine(k + 1) forever (until killed),
 *                                                  printing "ready" after its first write
 *   _store_writer_child.ts probe ROOT PATH...      prints a JSON array: per path, the read result
 *                                                  ({lexicalPath, realPath, lines}) or the error
 *                                                  ({error, message}); "+PATH" appends the line
 *                                                  "probe" instead ({written: line count})
 *   _store_writer_child.ts swapdir DIR TARGET      forever: DIR moved aside and a symlink to TARGET put
 *                                                  in its place, then DIR back, each state held for a
 *                                                  random 1–2 ms; prints "ready" first
 *   _store_writer_child.ts flipfifo PATH FIFO FILE forever: PATH replaced (rename) by a hard link of
 *                                                  FIFO, then of FILE, each for 0–0.3 ms
 *
 * Run it with `--allow-read=ROOT --allow-write=ROOT` only: it then works under the same lexical
 * sandbox as the server.
 *
 * @module
 */
import { DomainError } from "../lib/errors.ts";
import { CatalogueStore, type DocumentCodec } from "../lib/store/mod.ts";

/** The test format's parse error. */
export class LineSyntaxError extends DomainError {}

/** A document of the test format: its lines. */
export interface LineDoc {
  lines: string[];
}

/** First line of every file in the test format. */
export const LINE_HEADER = "LINES v1";

/**
 * A strict line codec: `LINES v1\n` then one `\n`-terminated line per entry, UTF-8. Anything else
 * (missing header, missing final newline, invalid UTF-8, a CR) is a {@link LineSyntaxError}, so a
 * torn or mixed file cannot parse. `counter.parses` counts parse calls.
 */
export function lineCodec(
  counter: { parses: number } = { parses: 0 },
): Omit<DocumentCodec<LineDoc>, "encode"> & { encode(doc: LineDoc): Uint8Array } {
  return {
    parse(bytes: Uint8Array, path: string) {
      counter.parses++;
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new LineSyntaxError(`Invalid line file ${path}: not UTF-8`);
      }
      if (!text.startsWith(`${LINE_HEADER}\n`)) {
        throw new LineSyntaxError(`Invalid line file ${path}: missing header`);
      }
      const body = text.slice(LINE_HEADER.length + 1);
      if (body !== "" && !body.endsWith("\n")) {
        throw new LineSyntaxError(`Invalid line file ${path}: no final newline`);
      }
      if (body.includes("\r")) throw new LineSyntaxError(`Invalid line file ${path}: carriage return`);
      return { lines: body === "" ? [] : body.slice(0, -1).split("\n") };
    },
    encode(doc: LineDoc): Uint8Array {
      return new TextEncoder().encode(`${LINE_HEADER}\n${doc.lines.map((l) => `${l}\n`).join("")}`);
    },
  };
}

/** The bytes of a file in the test format. */
export function lineFile(lines: string[]): Uint8Array {
  return lineCodec().encode({ lines });
}

/** Line `n` of the crash test: long (≈ 1–4 KB) so that a write takes a while, and checkable. */
export function crashLine(n: number): string {
  return `${n}:${"0123456789abcdef".repeat(64 + (n % 5) * 48)}`;
}

/**
 * Starts this script in a child `deno run` with the given permission flags. The environment is
 * inherited whole (DENO_DIR, NODE_EXTRA_CA_CERTS, …), and the working directory is the repository,
 * so the child uses the same deno.json.
 */
export function spawnStoreChild(
  permissions: string[],
  args: string[],
  options: { stdout?: "piped" | "null" } = {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...permissions, new URL(import.meta.url).pathname, ...args],
    cwd: new URL("../", import.meta.url).pathname,
    env: { ...Deno.env.toObject(), NO_COLOR: "1", RUST_BACKTRACE: "0" },
    stdin: "null",
    stdout: options.stdout ?? "null",
    stderr: "piped",
  }).spawn();
}

async function append(root: string, file: string, id: string, n: number): Promise<void> {
  const store = new CatalogueStore({ roots: [root], codec: lineCodec() });
  for (let i = 1; i <= n; i++) {
    await store.update(
      file,
      (doc) => ({ doc: { lines: [...(doc?.lines ?? []), `${id}-${i}`] }, result: null }),
    );
  }
}

async function crash(root: string, file: string): Promise<void> {
  const store = new CatalogueStore({ roots: [root], codec: lineCodec(), staleTempAgeMs: 0 });
  for (let i = 0; i < 1_000_000; i++) {
    await store.update(file, (doc) => {
      const lines = doc?.lines ?? [];
      lines.forEach((line, j) => {
        if (line !== crashLine(j + 1)) throw new Error(`line ${j + 1} is not what was written`);
      });
      return { doc: { lines: [...lines, crashLine(lines.length + 1)] }, result: null };
    });
    if (i === 0) await Deno.stdout.write(new TextEncoder().encode("ready\n"));
  }
}

async function probe(root: string, paths: string[]): Promise<void> {
  const store = new CatalogueStore({ roots: [root], codec: lineCodec() });
  const results = [];
  for (const path of paths) {
    try {
      if (path.startsWith("+")) {
        const count = await store.update(path.slice(1), (doc) => {
          const lines = [...(doc?.lines ?? []), "probe"];
          return { doc: { lines }, result: lines.length };
        });
        results.push({ written: count });
        continue;
      }
      const { doc, path: resolved } = await store.read(path);
      results.push({ lexicalPath: resolved.lexicalPath, realPath: resolved.realPath, lines: doc.lines });
    } catch (error) {
      results.push({ error: (error as Error).name, message: (error as Error).message });
    }
  }
  console.log(JSON.stringify(results));
}

/** Sleeps `ms` (fractions too) without returning to the event loop: a tight, busy swapper. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function swapDir(dir: string, target: string): Promise<void> {
  const aside = `${dir}.aside`;
  await Deno.stdout.write(new TextEncoder().encode("ready\n"));
  for (;;) {
    Deno.renameSync(dir, aside);
    Deno.symlinkSync(target, dir);
    pause(1 + Math.random());
    Deno.removeSync(dir);
    Deno.renameSync(aside, dir);
    pause(1 + Math.random());
  }
}

async function flipFifo(path: string, fifo: string, file: string): Promise<void> {
  await Deno.stdout.write(new TextEncoder().encode("ready\n"));
  for (;;) {
    for (const source of [fifo, file]) {
      Deno.linkSync(source, `${path}.next`);
      Deno.renameSync(`${path}.next`, path);
      pause(Math.random() * 0.3);
    }
  }
}

async function main(args: string[]): Promise<void> {
  const [mode, root = "", file = "", ...rest] = args;
  if (mode === "swapdir") return await swapDir(root, file);
  if (mode === "flipfifo") return await flipFifo(root, file, rest[0] ?? "");
  if (mode === "append") return await append(root, file, rest[0] ?? "", Number(rest[1]));
  if (mode === "crash") return await crash(root, file);
  if (mode === "probe") return await probe(root, [file, ...rest]);
  throw new Error(`unknown mode ${mode}`);
}

if (import.meta.main) await main(Deno.args);
