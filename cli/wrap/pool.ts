/**
 * A pool of Web Workers (`worker.ts`) that lay out catalogues in parallel for `wrap` over many
 * files. The worker module is named with `new URL("./worker.ts", import.meta.url)`, the form
 * `deno compile` can follow, or `./worker.js` when this module runs bundled (`bundle.sh` builds
 * `worker.ts` as a second entry beside it). Workers get the permissions of the process (they only
 * compute: the files are read and written by the main thread).
 *
 * @module
 */
import { DomainError, PoSyntaxError } from "../../lib/errors.ts";
import type { LayoutAnswer, LayoutJob } from "./worker.ts";
import type { GettextGeneration } from "../../lib/po/mod.ts";

/** Lays out catalogue bytes somewhere else than the calling thread. */
export interface LayoutPool {
  /** msgcat's bytes for `bytes`; rejects with a `PoSyntaxError` or `DomainError` as `encodePo(parsePo())` would. */
  layOut(
    path: string,
    bytes: Uint8Array,
    noWrap: boolean,
    generation: GettextGeneration,
  ): Promise<Uint8Array>;
  /** How many files may be in flight at once (memory holds about this many catalogues). */
  readonly window: number;
  /** Ends the workers. */
  close(): void;
}

/**
 * Starts `size` workers. Jobs go to the worker with the fewest pending jobs.
 *
 * @example
 * ```ts
 * const pool = startLayoutPool(2);
 * const after = await pool.layOut("fr.po", await Deno.readFile("fr.po"), false);
 * pool.close();
 * ```
 */
export function startLayoutPool(size: number): LayoutPool {
  const pending = new Map<
    number,
    { bytes: Uint8Array; resolve: (b: Uint8Array) => void; reject: (e: unknown) => void }
  >();
  const load: number[] = [];
  const workers: Worker[] = [];
  let nextId = 0;
  const owner = new Map<number, number>();
  const bundled = import.meta.url.endsWith(".js");
  for (let i = 0; i < size; i++) {
    const worker = new Worker(
      bundled ? new URL("./worker.js", import.meta.url) : new URL("./worker.ts", import.meta.url),
      { type: "module" },
    );
    worker.onmessage = (event: MessageEvent<LayoutAnswer>) => {
      const answer = event.data;
      const job = pending.get(answer.id);
      if (!job) return;
      pending.delete(answer.id);
      const from = owner.get(answer.id)!; // every job sent has its owner
      load[from] = load[from]! - 1;
      owner.delete(answer.id);
      if ("after" in answer) job.resolve(answer.after);
      else if ("same" in answer) job.resolve(job.bytes);
      else if (answer.error.kind === "syntax") {
        job.reject(new PoSyntaxError(answer.error.reason, answer.error.line, answer.error.column));
      } else if (answer.error.kind === "domain") job.reject(new DomainError(answer.error.message));
      else job.reject(new Error(`${answer.error.name}: ${answer.error.message}`));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(`layout worker failed: ${event.message}`);
      for (const [id, job] of pending) {
        if (owner.get(id) === i) {
          pending.delete(id);
          job.reject(error);
        }
      }
    };
    workers.push(worker);
    load.push(0);
  }
  return {
    window: size * 2,
    layOut(path, bytes, noWrap, generation) {
      const id = nextId++;
      let target = 0;
      for (let i = 1; i < size; i++) if (load[i]! < load[target]!) target = i;
      load[target] = load[target]! + 1;
      owner.set(id, target);
      return new Promise((resolve, reject) => {
        pending.set(id, { bytes, resolve, reject });
        const job: LayoutJob = { id, path, bytes: bytes.slice(), noWrap, generation };
        workers[target]!.postMessage(job, [job.bytes.buffer as ArrayBuffer]);
      });
    },
    close() {
      for (const w of workers) w.terminate();
    },
  };
}
