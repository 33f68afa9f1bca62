/**
 * Write leases in PostgreSQL fence their writes (issue 39): a write whose lease was lost before its
 * rename renames nothing and answers 503; a writer killed between its rename and its record leaves
 * an intent that the next writer of the catalogue records; one killed between its claim and its
 * rename leaves one that the next writer drops once its writer can no longer rename. Needs
 * TEST_DATABASE_URL (.ci/run starts a PostgreSQL); ignored, saying so, without it.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { UnavailableError } from "../lib/errors.ts";
import {
  ConnectionWatch,
  ensureSchema,
  leftWritePaths,
  pgWriteLease,
  type Sql,
  type WriteLeaseOptions,
} from "../lib/pg/mod.ts";
import { CatalogueStore, type HeldWriteLease, type WrittenFile } from "../lib/store/mod.ts";
import { freshDatabase, startInstance, stopInstance } from "./_team_server.ts";
import { lineRecord } from "./_lease_writer_child.ts";
import { lineCodec, type LineDoc, lineFile } from "./_store_writer_child.ts";

const ignore = !Deno.env.get("TEST_DATABASE_URL");
if (ignore) console.log("write fencing tests not run: TEST_DATABASE_URL is not set (.ci/run starts one)");

const CHILD = new URL("./_lease_writer_child.ts", import.meta.url).pathname;

/** A fresh database with the schema, a root holding `a.po` (one line), and a store over both. */
async function setUp(options: WriteLeaseOptions = {}, wrap = (lease: HeldWriteLease) => lease) {
  const db = await freshDatabase();
  await ensureSchema(db.sql as unknown as Sql);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-fence-" }));
  await Deno.writeFile(`${root}/a.po`, lineFile(["zero"]));
  const watch = new ConnectionWatch();
  const sql = postgres(db.url, { ...watch.options, max: 4, onnotice: () => {} }) as unknown as Sql;
  const problems: string[] = [];
  const leases = pgWriteLease(sql, watch, 2, { onProblem: (line) => problems.push(line), ...options });
  const store = new CatalogueStore<LineDoc>({
    roots: [root],
    codec: lineCodec(),
    writeLease: async (key, signal) => wrap(await leases(key, signal)),
  });
  const append = (line: string, before?: () => Promise<void>) =>
    store.update(`${root}/a.po`, async (doc) => {
      await before?.();
      return { doc: { lines: [...(doc?.lines ?? []), line] }, result: null };
    }, { auditRecord: lineRecord("parent", line) });
  const audit = () =>
    db.sql<{ who: string; revision_before: string; revision_after: string; entries: { msgid: string }[] }[]>`
      select who, revision_before, revision_after, entries from po_audit order by id`;
  const intents = async () => (await db.sql`select id from po_write_intent`).length;
  return {
    db,
    sql,
    root,
    store,
    append,
    audit,
    intents,
    problems,
    lines: async () => lineCodec().parse(await Deno.readFile(`${root}/a.po`), "a.po").lines,
    async [Symbol.asyncDispose]() {
      await sql.end({ timeout: 1 });
      await db[Symbol.asyncDispose]();
      await Deno.remove(root, { recursive: true });
    },
  };
}

async function runChild(url: string, root: string, line: string, when: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-all", CHILD, url, root, `${root}/a.po`, line, when],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.equal(
    out.signal,
    "SIGKILL",
    new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout),
  );
}

const PG = { ignore, sanitizeResources: false, sanitizeOps: false };

Deno.test({
  ...PG,
  name: "a write under a lease is recorded once, from its intent, and leaves no intent behind",
  async fn() {
    await using t = await setUp();
    const told: WrittenFile[] = [];
    await t.store.update(
      `${t.root}/a.po`,
      (doc) => ({ doc: { lines: [...doc!.lines, "one"] }, result: null }),
      {
        auditRecord: lineRecord("parent", "one"),
        onWritten: (write) => void told.push(write),
      },
    );
    assert.deepEqual(await t.lines(), ["zero", "one"]);
    const rows = await t.audit();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.entries[0]!.msgid, "one");
    assert.equal(told[0]!.recorded, true, "the store tells the caller the record is made");
    assert.equal(await t.intents(), 0);
  },
});

Deno.test({
  ...PG,
  name: "a write whose lease's session ended before its rename renames nothing and answers 503",
  async fn() {
    await using t = await setUp();
    const before = await Deno.readFile(`${t.root}/a.po`);
    // What a database restart does to the lease's session while the write goes on.
    const endLeaseSession = async () => {
      await t.db.sql`
        select pg_terminate_backend(pid) from pg_locks
        where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`;
      await new Promise((r) => setTimeout(r, 300));
    };
    await assert.rejects(() => t.append("lost", endLeaseSession), (error: unknown) => {
      assert.ok(error instanceof UnavailableError, String(error));
      assert.match(error.message, /write lease was lost.*nothing was written/);
      return true;
    });
    assert.deepEqual(await Deno.readFile(`${t.root}/a.po`), before, "nothing renamed");
    assert.deepEqual(
      [...Deno.readDirSync(t.root)].filter((e) => e.name.endsWith(".tmp")),
      [],
      "no temp file left",
    );
    assert.equal((await t.audit()).length, 0);
    assert.equal(await t.intents(), 0);
    // The next write takes a new lease and goes through.
    await t.append("next");
    assert.deepEqual(await t.lines(), ["zero", "next"]);
    assert.equal((await t.audit()).length, 1);
  },
});

Deno.test({
  ...PG,
  name: "a write whose catalogue another writer claimed since its lease was taken renames nothing (503)",
  async fn() {
    await using t = await setUp();
    await t.append("one");
    const before = await Deno.readFile(`${t.root}/a.po`);
    // Another writer's claim, as one that took the lease anew after a restart makes it.
    const claimedByAnother = async () => {
      await t.db.sql`update po_write_head set intent = coalesce(intent, 0) + 1000`;
    };
    await assert.rejects(() => t.append("two", claimedByAnother), /Another writer claimed this catalogue/);
    assert.deepEqual(await Deno.readFile(`${t.root}/a.po`), before);
    assert.equal((await t.audit()).length, 1);
  },
});

Deno.test({
  ...PG,
  name: "a claim too old to rename under renames nothing (503) and leaves no intent",
  async fn() {
    await using t = await setUp({ renameWithinMs: -1 });
    const before = await Deno.readFile(`${t.root}/a.po`);
    await assert.rejects(() => t.append("late"), /took too long to rename/);
    assert.deepEqual(await Deno.readFile(`${t.root}/a.po`), before);
    assert.equal(await t.intents(), 0);
    assert.equal((await t.audit()).length, 0);
  },
});

Deno.test({
  ...PG,
  name:
    "kill -9 between the rename and the record: the next write of the catalogue records the killed one first",
  async fn() {
    await using t = await setUp();
    await runChild(t.db.url, t.root, "killed", "after-rename");
    assert.deepEqual(await t.lines(), ["zero", "killed"], "the killed writer's rename was made");
    assert.equal((await t.audit()).length, 0);
    assert.equal(await t.intents(), 1, "its intent is kept");
    await t.append("next");
    assert.deepEqual(await t.lines(), ["zero", "killed", "next"]);
    const rows = await t.audit();
    assert.deepEqual(rows.map((r) => [r.who, r.entries[0]!.msgid]), [["child", "killed"], [
      "parent",
      "next",
    ]]);
    assert.equal(rows[1]!.revision_before, rows[0]!.revision_after, "the records chain");
    assert.equal(await t.intents(), 0);
  },
});

Deno.test({
  ...PG,
  name: "kill -9 between the rename and the record: a server's start-up records it without another write",
  async fn() {
    await using t = await setUp();
    await runChild(t.db.url, t.root, "killed", "after-rename");
    assert.deepEqual(await leftWritePaths(t.sql), [`${t.root}/a.po`]);
    // A server started over the database settles it (routes/run.ts), before any write.
    const state = await Deno.makeTempDir({ prefix: "po-fence-state-" });
    const instance = await startInstance({
      PO_ROOTS: t.root,
      PO_LOCK_DIR: `${state}/locks`,
      DATABASE_URL: t.db.url,
    }, [
      t.root,
      state,
    ]);
    try {
      for (let i = 0; i < 100 && !/settled the writes left on 1 file/.test(instance.stderr()); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(instance.stderr(), /settled the writes left on 1 file/);
    } finally {
      await stopInstance(instance);
      await Deno.remove(state, { recursive: true });
    }
    const rows = await t.audit();
    assert.deepEqual(rows.map((r) => [r.who, r.entries[0]!.msgid]), [["child", "killed"]]);
    assert.equal(await t.intents(), 0);
    assert.deepEqual(await leftWritePaths(t.sql), []);
  },
});

Deno.test({
  ...PG,
  name:
    "kill -9 between the claim and the rename: the next writer drops the intent once it is too old, and writes",
  async fn() {
    await using t = await setUp({ claimGraceMs: 1500, renameWithinMs: 500 });
    await runChild(t.db.url, t.root, "never", "before-rename");
    assert.deepEqual(await t.lines(), ["zero"], "nothing renamed");
    assert.equal(await t.intents(), 1);
    await t.append("next");
    assert.deepEqual(await t.lines(), ["zero", "next"]);
    const rows = await t.audit();
    assert.deepEqual(rows.map((r) => r.entries[0]!.msgid), ["next"]);
    assert.equal(await t.intents(), 0);
    assert.ok(t.problems.some((p) => /never renamed: dropped/.test(p)), t.problems.join("\n"));
  },
});

Deno.test({
  ...PG,
  name:
    "a rename made after its claim was dropped (a writer paused past the grace) is logged as a possible loss",
  async fn() {
    const ref: { db?: postgres.Sql } = {};
    // Between the claim and the rename, a later writer drops the claim (as it does past the grace).
    await using t = await setUp({}, (lease) => {
      const claim = lease.claim.bind(lease);
      return Object.assign(lease, {
        claim: async (write: Parameters<typeof lease.claim>[0]) => {
          const check = await claim(write);
          await ref.db!`delete from po_write_intent`;
          return check;
        },
      });
    });
    ref.db = t.db.sql;
    await t.append("paused");
    assert.ok(
      t.problems.some((p) => /renamed after its claim had been dropped/.test(p)),
      t.problems.join("\n"),
    );
  },
});
