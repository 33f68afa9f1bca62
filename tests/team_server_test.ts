/**
 * Issue 39 proof with a real PostgreSQL and a real proxy: three `main.ts serve` instances behind
 * nginx on loopback, sharing one catalogue root and one database (DATABASE_URL). Each instance has
 * a lock directory of its own, so only the database's write leases keep them from writing one
 * catalogue at once. Needs TEST_DATABASE_URL and nginx (.ci/run provides both); ignored, saying so,
 * without them. The PostgreSQL restart needs TEST_PG_RESTART (a command that restarts it), which
 * .ci/run does not set: that test FAILS today (after a restart under concurrent writes, the
 * instances answer 503 and do not recover; see docs/team-server.md, "Not done").
 */
import assert from "node:assert/strict";
import { tokenHash } from "../lib/auth/mod.ts";
import {
  freshDatabase,
  type Instance,
  startInstance,
  startNginx,
  stopInstance,
  teamServerMissing,
} from "./_team_server.ts";

const missing = teamServerMissing();
if (missing !== null) console.log(`team server tests not run: ${missing}`);

const TOKEN = "translator-token-0123456789";
const N = 300;

function catalogue(n: number): string {
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  for (let i = 0; i < n; i++) out += `msgid "message ${i}"\nmsgstr ""\n\n`;
  return out;
}

/** POSTs a write until it is answered 200 (a 502/503 from a dead instance or a database away is retried). */
async function writeUntilDone(
  base: string,
  i: number,
  msgstr: string,
): Promise<{ tries: number; revision: string }> {
  for (let tries = 1; tries <= 60; tries++) {
    let status = 0;
    let body: { revision?: string; detail?: unknown } = {};
    try {
      const res = await fetch(`${base}/po/write`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ file_path: "fr.po", entries: [{ msgid: `message ${i}`, msgstr }] }),
      });
      status = res.status;
      body = await res.json().catch(() => ({}));
    } catch {
      status = 0;
    }
    if (status === 200) return { tries, revision: body.revision! };
    if (![0, 502, 503, 504].includes(status)) {
      throw new Error(`write ${i}: ${status} ${JSON.stringify(body)}`);
    }
    await new Promise((r) => setTimeout(r, 100 * Math.min(tries, 10)));
  }
  throw new Error(`write ${i}: never done`);
}

async function setUp(dbUrl: string) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-team-root-" }));
  const state = await Deno.makeTempDir({ prefix: "po-team-state-" });
  await Deno.writeTextFile(`${root}/fr.po`, catalogue(N));
  await Deno.writeTextFile(`${state}/tokens`, `tr translator ${tokenHash(TOKEN)}\n`, { mode: 0o600 });
  await Deno.chmod(`${state}/tokens`, 0o600);
  const instances: Instance[] = [];
  for (let k = 0; k < 3; k++) {
    const locks = `${state}/locks-${k}`;
    instances.push(
      await startInstance({
        PO_ROOTS: root,
        PO_LOCK_DIR: locks,
        PO_TOKENS_FILE: `${state}/tokens`,
        DATABASE_URL: dbUrl,
      }, [root, state]),
    );
  }
  return {
    root,
    instances,
    async [Symbol.asyncDispose]() {
      for (const instance of instances) await stopInstance(instance);
      await Deno.remove(root, { recursive: true });
      await Deno.remove(state, { recursive: true });
    },
  };
}

Deno.test({
  name:
    "3 instances behind nginx: 300 concurrent writes to one catalogue lose nothing, each in the audit log; kill -9 of one mid-run loses nothing",
  ignore: missing !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using db = await freshDatabase();
    await using team = await setUp(db.url);
    await using proxy = await startNginx(team.instances.map((i) => i.port));

    // 1. 300 writes at once, spread over the three by nginx.
    const first = await Promise.all(
      Array.from({ length: N }, (_, i) => writeUntilDone(proxy.base, i, `un ${i}`)),
    );
    const text = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < N; i++) {
      assert.ok(text.includes(`msgid "message ${i}"\nmsgstr "un ${i}"\n`), `message ${i}`);
    }
    const rows = await db.sql<
      {
        id: string;
        entries: { msgid: string }[];
        revision_before: string;
        revision_after: string;
        who: string;
      }[]
    >`
      select id, entries, revision_before, revision_after, who from po_audit where action = 'write_po' order by id`;
    assert.equal(rows.length, N);
    assert.deepEqual(new Set(rows.map((r) => r.entries[0]!.msgid)).size, N);
    assert.ok(rows.every((r) => r.who === "tr"));
    // One after the other: each write starts from the revision the one before it left.
    for (let k = 1; k < rows.length; k++) {
      assert.equal(rows[k]!.revision_before, rows[k - 1]!.revision_after, `row ${k}`);
    }
    // Every answered revision is one the log holds.
    const after = new Set(rows.map((r) => r.revision_after));
    assert.ok(first.every((w) => after.has(w.revision)));
    // nginx spread them: every instance served writes.
    for (const [k, instance] of team.instances.entries()) {
      assert.match(instance.stderr(), /POST \/po\/write 200/, `instance ${k} served writes`);
    }

    // 2. Another 300, and one instance killed (SIGKILL) in the middle of them.
    let answered = 0;
    const killer = (async () => {
      while (answered < N / 3) await new Promise((r) => setTimeout(r, 10));
      team.instances[2]!.child.kill("SIGKILL");
    })();
    const second = await Promise.all(Array.from({ length: N }, async (_, i) => {
      const w = await writeUntilDone(proxy.base, i, `deux ${i}`);
      answered++;
      return w;
    }));
    await killer;
    assert.equal((await team.instances[2]!.child.status).signal, "SIGKILL");
    const text2 = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < N; i++) {
      assert.ok(text2.includes(`msgid "message ${i}"\nmsgstr "deux ${i}"\n`), `message ${i}`);
    }
    const rows2 = await db.sql<{ revision_after: string; entries: { msgid: string }[] }[]>`
      select revision_after, entries from po_audit where action = 'write_po' and id > ${
      rows.at(-1)!.id
    } order by id`;
    // Every write answered 200 is in the log (an instance answers after recording).
    const logged = new Set(rows2.map((r) => r.revision_after));
    assert.ok(second.every((w) => logged.has(w.revision)), "every answered write is in the audit log");
    assert.ok(rows2.length >= N - 1 && rows2.length <= N, `${rows2.length} records for ${N} writes`);
  },
});

Deno.test({
  name: "a PostgreSQL restart mid-run: writes answer 503 while it is away, and none is lost once it is back",
  ignore: missing !== null || !Deno.env.get("TEST_PG_RESTART"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using db = await freshDatabase();
    await using team = await setUp(db.url);
    await using proxy = await startNginx(team.instances.map((i) => i.port));
    let answered = 0;
    let restarted = false;
    const restart = (async () => {
      while (answered < 50) await new Promise((r) => setTimeout(r, 10));
      const out = await new Deno.Command("sh", {
        args: ["-c", Deno.env.get("TEST_PG_RESTART")!],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      restarted = true;
    })();
    const writes = await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const w = await writeUntilDone(proxy.base, i, `trois ${i}`);
      answered++;
      return w;
    }));
    await restart;
    assert.ok(restarted);
    const text = await Deno.readTextFile(`${team.root}/fr.po`);
    for (let i = 0; i < 200; i++) assert.ok(text.includes(`msgstr "trois ${i}"\n`), `message ${i}`);
    const rows = await db.sql<
      { revision_after: string }[]
    >`select revision_after from po_audit where action = 'write_po'`;
    const logged = new Set(rows.map((r) => r.revision_after));
    assert.ok(writes.every((w) => logged.has(w.revision)), "every answered write is in the audit log");
  },
});
