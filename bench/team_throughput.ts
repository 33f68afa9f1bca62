/**
 * Throughput of 3 instances against 1, behind nginx, over one PostgreSQL (issue 39): the same
 * requests, the same concurrency, measured side by side in one run, as a ratio. Two loads: reads
 * (`read_po` of a 300-entry catalogue) and writes spread over 30 catalogues (each write under its
 * catalogue's lease, recorded in the audit log). Needs TEST_DATABASE_URL (a PostgreSQL where it
 * may create and drop a database) and nginx. Run:
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres \
 *     deno run -A bench/team_throughput.ts [requests=600] [concurrency=32]
 * The figures depend on the cores free: 3 instances on 2 busy cores cannot be 3 times one.
 */
import { tokenHash } from "../lib/auth/mod.ts";
import {
  freshDatabase,
  type Instance,
  startInstance,
  startNginx,
  stopInstance,
} from "../tests/_team_server.ts";

const requests = Number(Deno.args[0] ?? 600);
const concurrency = Number(Deno.args[1] ?? 32);
const TOKEN = "bench-token-0123456789abcdef";
const CATALOGUES = 30;

function catalogue(n: number): string {
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < n; i++) out += `msgid "message ${i}"\nmsgstr ""\n\n`;
  return out;
}

/** Runs `requests` calls of `body(i)` to `path`, `concurrency` at a time; requests per second. */
async function load(base: string, path: string, body: (i: number) => unknown): Promise<number> {
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < requests) {
      const i = next++;
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(body(i)),
      });
      await res.arrayBuffer();
      if (res.status !== 200) failed++;
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  if (failed > 0) throw new Error(`${failed} of ${requests} requests to ${path} failed`);
  return requests / seconds;
}

async function measure(instances: number, round: number): Promise<{ reads: number; writes: number }> {
  await using db = await freshDatabase();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-bench-team-" }));
  const state = await Deno.makeTempDir({ prefix: "po-bench-team-state-" });
  const running: Instance[] = [];
  try {
    for (let c = 0; c < CATALOGUES; c++) await Deno.writeTextFile(`${root}/c${c}.po`, catalogue(300));
    await Deno.writeTextFile(`${state}/tokens`, `bench translator ${tokenHash(TOKEN)}\n`, { mode: 0o600 });
    await Deno.chmod(`${state}/tokens`, 0o600);
    for (let k = 0; k < instances; k++) {
      running.push(
        await startInstance({
          PO_ROOTS: root,
          PO_LOCK_DIR: `${state}/locks-${k}`,
          PO_TOKENS_FILE: `${state}/tokens`,
          DATABASE_URL: db.url,
        }, [root, state]),
      );
    }
    await using proxy = await startNginx(running.map((i) => i.port));
    // Warm-up: every instance parses the catalogues once.
    await load(proxy.base, "/po/read", (i) => ({ file_path: `c${i % CATALOGUES}.po` }));
    const reads = await load(proxy.base, "/po/read", (i) => ({ file_path: `c${i % CATALOGUES}.po` }));
    const writes = await load(proxy.base, "/po/write", (i) => ({
      file_path: `c${i % CATALOGUES}.po`,
      entries: [{ msgid: `message ${i % 300}`, msgstr: `r${round} ${i}` }],
    }));
    return { reads, writes };
  } finally {
    for (const instance of running) await stopInstance(instance);
    await Deno.remove(root, { recursive: true });
    await Deno.remove(state, { recursive: true });
  }
}

// Alternated, twice each, so a change of the machine's load falls on both.
const one: { reads: number; writes: number }[] = [];
const three: { reads: number; writes: number }[] = [];
for (let round = 0; round < 2; round++) {
  one.push(await measure(1, round));
  three.push(await measure(3, round));
}
const best = (xs: { reads: number; writes: number }[], k: "reads" | "writes") =>
  Math.max(...xs.map((x) => x[k]));
for (const k of ["reads", "writes"] as const) {
  const [a, b] = [best(one, k), best(three, k)];
  console.log(
    `${k}: 1 instance ${a.toFixed(0)} req/s, 3 instances ${b.toFixed(0)} req/s, ratio ${
      (b / a).toFixed(2)
    } ` +
      `(${requests} requests, ${concurrency} at a time, best of 2, nproc ${navigator.hardwareConcurrency})`,
  );
}
