import {
  DomainError,
  PoSyntaxError
} from "./chunk-3FRGNG6M.js";

// lib/po/wrap_pool.ts
function startLayoutPool(size) {
  const pending = /* @__PURE__ */ new Map();
  const load = [];
  const workers = [];
  let nextId = 0;
  const owner = /* @__PURE__ */ new Map();
  for (let i = 0; i < size; i++) {
    const worker = new Worker(new URL("../po/wrap_worker.ts", import.meta.url), {
      type: "module"
    });
    worker.onmessage = (event) => {
      const answer = event.data;
      const job = pending.get(answer.id);
      if (!job) return;
      pending.delete(answer.id);
      const from = owner.get(answer.id);
      load[from] = load[from] - 1;
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
    layOut(path, bytes, noWrap) {
      const id = nextId++;
      let target = 0;
      for (let i = 1; i < size; i++) if (load[i] < load[target]) target = i;
      load[target] = load[target] + 1;
      owner.set(id, target);
      return new Promise((resolve, reject) => {
        pending.set(id, {
          bytes,
          resolve,
          reject
        });
        const job = {
          id,
          path,
          bytes: bytes.slice(),
          noWrap
        };
        workers[target].postMessage(job, [
          job.bytes.buffer
        ]);
      });
    },
    close() {
      for (const w of workers) w.terminate();
    }
  };
}
export {
  startLayoutPool
};
