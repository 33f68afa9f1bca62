/**
 * Catalogue write leases across instances: a write holds a PostgreSQL advisory lock named after the
 * catalogue's real path for as long as it writes. The lock lives on one reserved connection, so
 * when an instance dies (kill -9) the server ends its session and the lease is gone with it; no
 * lease outlives its holder, and none needs a timeout. It works where `flock` does not reach (a
 * file system shared over the network that has no working locks); the catalogue directory must be
 * mounted at the same path on every instance.
 *
 * @module
 */
import { type ConnectionWatch, shared, type Sql } from "./client.ts";

/** Takes the lease of `key`; the function returned gives it back. */
export type WriteLease = (key: string, signal?: AbortSignal) => Promise<() => Promise<void>>;

/**
 * Leases held in PostgreSQL (see the module's comment). Each lease holds a connection of the pool,
 * and a writer under its lease needs another (to record the write): so within one instance the
 * writers of one catalogue queue here, one at a time at the database, and at most `maxLeases`
 * (fewer than the pool's connections) are held or awaited at once; else writers holding every
 * connection would wait for one that none gives back.
 */
export function pgWriteLease(sql: Sql, watch: ConnectionWatch, maxLeases: number): WriteLease {
  const queues = new Map<string, Promise<void>>();
  let held = 0;
  const waiting: (() => void)[] = [];
  const slot = async (signal?: AbortSignal) => {
    while (held >= maxLeases) {
      await new Promise<void>((resolve) => waiting.push(resolve));
      signal?.throwIfAborted();
    }
    held++;
  };
  const freeSlot = () => {
    held--;
    waiting.shift()?.();
  };
  return async function takeLease(key, signal) {
    signal?.throwIfAborted();
    // This instance's turn for the key: the writers before it here go first.
    const before = queues.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => done = resolve);
    const tail = before.then(() => mine);
    queues.set(key, tail);
    const leave = () => {
      done();
      if (queues.get(key) === tail) queues.delete(key);
    };
    try {
      await untilAborted(before, signal);
      await slot(signal);
    } catch (error) {
      leave();
      throw error;
    }
    let giveBack: () => Promise<void>;
    try {
      giveBack = await atDatabase(sql, watch, key, signal);
    } catch (error) {
      freeSlot();
      leave();
      throw error;
    }
    return async () => {
      try {
        await giveBack();
      } finally {
        freeSlot();
        leave();
      }
    };
  };
}

/** Takes the advisory lock of `key` on a reserved connection; the function returned gives it back. */
async function atDatabase(
  sql: Sql,
  watch: ConnectionWatch,
  key: string,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  signal?.throwIfAborted();
  // A pool whose connections the server just dropped may take long to give one: bounded.
  const reserved = await watch.reserve(sql, "taking the catalogue's write lease", CONNECT_MS);
  const giveBack = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A connection the server closed is not used again: the lease is gone with its session. One
      // that closes now, or never answers, ends the same way.
      if (reserved.alive()) {
        await Promise.race([
          reserved.sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`,
          new Promise((_, reject) => timer = setTimeout(() => reject(new Error("unlock timed out")), 2000)),
        ]);
      }
    } catch {
      // The connection is gone, and the lease with it (the server ends the session's locks).
    } finally {
      clearTimeout(timer);
      reserved.release();
    }
  };
  let held = false;
  try {
    // Waits while another instance writes the catalogue; the request's time limit cancels the wait
    // (from another connection: this one is busy waiting).
    const onAbort = () => sql`select pg_cancel_backend(${reserved.pid})`.catch(() => {});
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await shared(
        "taking the catalogue's write lease",
        () => reserved.sql`select pg_advisory_lock(hashtextextended(${key}, 0))`,
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    held = true;
  } finally {
    if (!held) reserved.release();
  }
  if (signal?.aborted) {
    await giveBack();
    signal.throwIfAborted();
  }
  return giveBack;
}

/** How long taking a connection may take before the database counts as away. */
const CONNECT_MS = 5000;

/** Waits for `promise`, or throws the signal's reason once it is aborted. */
function untilAborted(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, reject);
  });
}
