/**
 * The HTTP listener: Deno's own HTTP engine behind an accept loop of ours that bounds connections.
 *
 * `Deno.serve` has no connection limit and no header or idle timeout: a few hundred idle sockets past
 * the descriptor limit make its accept fail with EMFILE, which ends the process, and an idle or
 * half-sent request head keeps its socket for good. So the limit is kept out of reach:
 *
 * - Deno raises the soft descriptor limit to the hard one when it starts (its CLI does; the tests
 *   check it). At most {@link ConnectionLimits.maxConnections} connections are open at once: by
 *   default half the descriptor limit, never more than 1024 ({@link defaultMaxConnections}).
 *   Deno lets only `--allow-all` read the limit (`/proc/self/limits`); under narrower permissions
 *   the default is 512, safe down to a hard limit of ~600 (a shell's `ulimit -n 1024` sets the hard
 *   one too). Should accept still fail for lack of descriptors, the cap drops to half the
 *   connections then open and accepting resumes 100 ms later.
 * - A new connection past the cap closes the connection that has waited longest without a request
 *   in progress (idle, or still sending its head), so a flood of idle sockets cannot shut out a
 *   real client; accepting pauses (up to 1 s, new clients wait in the listen backlog) until that
 *   descriptor is back. With every connection busy the newcomer gets `503` with `Retry-After: 1`.
 * - A connection must complete its first request head within `headerTimeoutMs` of being accepted,
 *   and each next one within `keepAliveTimeoutMs` of the previous answer being sent; one request
 *   may hold its connection for at most `sendTimeoutMs`, answer included (a backstop for clients
 *   that read too slowly). A connection past its time is dropped. "Answer sent" is Deno's
 *   `info.completed`: for a streamed body (the tool routes stream their large answers) once the
 *   stream is done; for a body given whole, once Deno has taken it, so such a body must fit within
 *   the keep-alive time at the client's speed (the largest, the 1.4 MB /docs bundle, needs 140 KB/s).
 *
 * Each accepted connection is served by Deno's native HTTP/1.1 and HTTP/2 engine (the internal
 * per-connection entry behind `Deno.serve`), so a request costs what it costs under `Deno.serve`.
 * Where that entry is missing (another Deno version) the server falls back to plain `Deno.serve`
 * and logs that the limits are off.
 *
 * @module
 */

/** Limits on the connections the server holds. */
export interface ConnectionLimits {
  /** Most connections open at once (idle ones included); past it the longest-idle one is closed. */
  maxConnections: number;
  /** Time from accepting a connection until its first request head must be complete. */
  headerTimeoutMs: number;
  /** Time from an answer until the connection's next request head must be complete. */
  keepAliveTimeoutMs: number;
  /** Time one request may hold its connection, from its head until its answer is fully sent. */
  sendTimeoutMs: number;
}

/** How to listen and what to bound. */
export interface StartServerOptions {
  hostname: string;
  port: number;
  /** Limits; `maxConnections` defaults to {@link defaultMaxConnections} of this process's limit. */
  limits?: Partial<ConnectionLimits>;
  /** Called once, when the socket listens. */
  onListen?: (addr: Deno.NetAddr) => void;
  /** Where warnings go (refused connections, the descriptor limit, the fallback). */
  log?: (line: string) => void;
}

/** A running server. */
export interface RunningServer {
  readonly addr: Deno.NetAddr;
  /** The limits in force. */
  readonly limits: ConnectionLimits;
  /** Resolves when the server has stopped. */
  readonly finished: Promise<void>;
  /** Connections open now. */
  openConnections(): number;
  /** Stops accepting, closes idle connections, lets answers in progress finish. */
  shutdown(): Promise<void>;
}

/** A request handler, as `Deno.serve` takes it (the app's `fetch`). */
export type FetchHandler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/** The default time limits. */
export const DEFAULT_LIMITS: Readonly<Omit<ConnectionLimits, "maxConnections">> = {
  headerTimeoutMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  sendTimeoutMs: 300_000,
};

/**
 * The connection cap where none is configured: half the descriptor limit, at most 1024; 512 when
 * the limit is unknown.
 */
export function defaultMaxConnections(descriptorLimit: number | undefined): number {
  if (descriptorLimit === undefined) return 512;
  return Math.max(1, Math.min(1024, Math.floor(descriptorLimit / 2)));
}

/**
 * This process's open-file limit (the soft one, which Deno has raised to the hard one), read from
 * `/proc/self/limits` when the process may read it; `undefined` otherwise (not Linux, or not
 * `--allow-all`: Deno refuses `/proc/self` to any narrower read permission).
 */
export function descriptorLimit(): number | undefined {
  const path = "/proc/self/limits";
  try {
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return undefined;
    const line = Deno.readTextFileSync(path).split("\n").find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/** What `Deno[Deno.internal]` offers in Deno 2.9: `Deno.serve` for one accepted connection. */
type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal | undefined,
  handler: FetchHandler,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => { finished: Promise<void>; shutdown(): Promise<void> };

function serveOnConnection(): ServeOnConnection | undefined {
  // deno-lint-ignore no-explicit-any
  const internal = (Deno as any)[(Deno as any).internal];
  const serve = internal?.serveHttpOnConnection;
  return typeof serve === "function" ? serve : undefined;
}

/** True when this Deno can serve single connections natively (so the limits can be enforced). */
export function connectionLimitsSupported(): boolean {
  return serveOnConnection() !== undefined;
}

/** One open connection. It sits in at most one of the waiting lists, each ordered by `since`. */
interface Tracked {
  /** Requests in progress (HTTP/2 may have several). */
  active: number;
  /** When it was accepted, went idle or went busy. */
  since: number;
  closing: boolean;
  /** Aborting it drops the connection at once (Deno's forceful close of that one connection). */
  abort: AbortController;
  /** Ends the connection once the answers in progress are sent (Deno's graceful close of it). */
  finish?: () => Promise<void>;
}

const BUSY_ANSWER = new TextEncoder().encode(
  "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\n" +
    'Connection: close\r\nContent-Length: 49\r\n\r\n{"detail":"Too many connections; retry shortly"}\n',
);
/**
 * Closed connections give their descriptor back a moment later: up to `cap / 8` of them may still
 * be held while newcomers are let in (so a flood is let through at the pace of accept, not of
 * closing). Past that a newcomer waits up to `SLOT_WAIT_MS` for descriptors to come back.
 */
const CLOSING_SHARE = 8;
const SLOT_WAIT_MS = 1_000;
/** Pause after a failed accept (a descriptor shortage, say) before accepting again. */
const ACCEPT_BACKOFF_MS = 100;
/** Shortest interval between two log lines about refused or evicted connections. */
const REPORT_INTERVAL_MS = 10_000;

function internalError(): Response {
  return Response.json({ detail: "Internal Server Error" }, { status: 500 });
}

/**
 * Deno's per-connection abort handler throws `BadResource` from inside the abort event when the
 * connection has just ended on its own, and an error thrown by an event listener ends the process.
 * Such an error is expected here and harmless (the connection is gone), so while one of our aborts
 * runs, and only then, it is kept from becoming fatal.
 */
let aborting = false;
let guardInstalled = false;

function abortConnection(controller: AbortController): void {
  if (!guardInstalled) {
    guardInstalled = true;
    globalThis.addEventListener("error", (event) => {
      if (aborting && event.error instanceof Deno.errors.BadResource) event.preventDefault();
    });
  }
  aborting = true;
  try {
    controller.abort();
  } finally {
    aborting = false;
  }
}

/**
 * Listens on `hostname:port` and serves `handler` within {@link ConnectionLimits}.
 *
 * @example
 * ```ts
 * const server = startServer(app.fetch, { hostname: "127.0.0.1", port: 8000, limits: { maxConnections: 256 } });
 * await server.shutdown();
 * ```
 */
export function startServer(handler: FetchHandler, options: StartServerOptions): RunningServer {
  const log = options.log ?? (() => {});
  const limits: ConnectionLimits = {
    ...DEFAULT_LIMITS,
    maxConnections: defaultMaxConnections(descriptorLimit()),
    ...Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined)),
  };
  const serveOn = serveOnConnection();
  if (serveOn === undefined) {
    log("warning: this Deno cannot serve single connections: connection limits and timeouts are off");
    const server = Deno.serve({
      hostname: options.hostname,
      port: options.port,
      onListen: (addr) => options.onListen?.(addr as Deno.NetAddr),
    }, handler);
    return {
      addr: server.addr,
      limits,
      finished: server.finished,
      openConnections: () => NaN,
      shutdown: () => server.shutdown(),
    };
  }

  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const all = new Set<Tracked>();
  /** Accepted, no request head yet. */
  const fresh = new Set<Tracked>();
  /** Answered, waiting for the next request head. */
  const idle = new Set<Tracked>();
  /** A request in progress (ordered by when the connection became busy). */
  const busy = new Set<Tracked>();
  /** Connections closed by us whose descriptor is not yet given back. */
  let closed = 0;
  /** Refused connections still being answered 503 (each holds a descriptor too). */
  let refusing = 0;
  /** Wakes the accept loop when a descriptor comes back. */
  let slotFreed: (() => void) | undefined;
  let cap = limits.maxConnections;
  let stopping = false;
  const counts = { evicted: 0, refused: 0, timedOut: 0 };
  let lastReport = -Infinity;

  function report(): void {
    const now = performance.now();
    if (now - lastReport < REPORT_INTERVAL_MS) return;
    lastReport = now;
    log(
      `connections: ${all.size} open (limit ${cap}, MAX_CONNECTIONS); so far ${counts.evicted} waiting ones ` +
        `closed for newcomers, ${counts.refused} refused with 503, ${counts.timedOut} timed out`,
    );
  }

  function close(t: Tracked): void {
    fresh.delete(t);
    idle.delete(t);
    busy.delete(t);
    if (t.closing) return;
    t.closing = true;
    closed++;
    abortConnection(t.abort);
  }

  /** Closes the connection that has waited longest for a request head; false when there is none. */
  function evictOne(): boolean {
    const a = first(fresh);
    const b = first(idle);
    const victim = a === undefined ? b : b === undefined ? a : a.since <= b.since ? a : b;
    if (victim === undefined) return false;
    counts.evicted++;
    close(victim);
    return true;
  }

  function refuse(conn: Deno.Conn): void {
    counts.refused++;
    refusing++;
    report();
    conn.write(BUSY_ANSWER).catch(() => {}).finally(() => {
      refusing--;
      try {
        conn.close();
      } catch {
        // already closed
      }
    });
  }

  function held(): number {
    return all.size + refusing;
  }

  function heldLimit(): number {
    return cap + Math.max(1, Math.floor(cap / CLOSING_SHARE));
  }

  /** Waits until fewer than `heldLimit()` descriptors are held, or `ms` passed; true when there is room. */
  async function roomWithin(ms: number): Promise<boolean> {
    if (held() < heldLimit()) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      slotFreed = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    slotFreed = undefined;
    return held() < heldLimit();
  }

  function admit(conn: Deno.Conn): void {
    const t: Tracked = { active: 0, since: performance.now(), closing: false, abort: new AbortController() };
    all.add(t);
    fresh.add(t);
    const done = () => {
      if (--t.active > 0 || t.closing) return;
      busy.delete(t);
      // Stopping: a graceful close, which sends what is left of the answer (an abort could drop it).
      if (stopping) {
        t.finish?.().catch(() => {});
        return;
      }
      t.since = performance.now();
      idle.add(t);
    };
    const tracked: FetchHandler = (request, info) => {
      if (t.active++ === 0) {
        fresh.delete(t);
        idle.delete(t);
        if (!t.closing) {
          t.since = performance.now();
          busy.add(t);
        }
      }
      // Settles once the answer is fully sent, or the connection failed.
      info.completed.then(done, done);
      return handler(request, info);
    };
    const onError = (error: unknown) => {
      log(`unhandled error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return internalError();
    };
    const served = serveOn!(conn, t.abort.signal, tracked, onError, () => {});
    t.finish = () => served.shutdown();
    served.finished.catch(() => {}).finally(() => {
      all.delete(t);
      fresh.delete(t);
      idle.delete(t);
      busy.delete(t);
      if (t.closing) closed--;
      if (held() < heldLimit()) slotFreed?.();
    });
  }

  function sweep(): void {
    const now = performance.now();
    const expire = (list: Set<Tracked>, ms: number) => {
      for (const t of list) {
        if (now - t.since < ms) break;
        counts.timedOut++;
        close(t);
      }
    };
    expire(fresh, limits.headerTimeoutMs);
    expire(idle, limits.keepAliveTimeoutMs);
    expire(busy, limits.sendTimeoutMs);
  }

  const tick = Math.min(1000, Math.max(50, Math.min(limits.headerTimeoutMs, limits.keepAliveTimeoutMs) / 4));
  const sweeper = setInterval(sweep, tick);

  async function acceptLoop(): Promise<void> {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (
          stopping || error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted
        ) {
          return;
        }
        // Out of descriptors all the same (other files open, a limit we could not read): hold fewer
        // connections from now on and wait before accepting again.
        const message = error instanceof Error ? error.message : String(error);
        if (/os error 2[34]\b/.test(message)) {
          cap = Math.max(1, Math.min(cap, Math.floor(all.size / 2)));
          while (all.size - closed >= cap && evictOne());
        }
        log(`accept failed (${message}); connection limit now ${cap}`);
        await new Promise((resolve) => setTimeout(resolve, ACCEPT_BACKOFF_MS));
        continue;
      }
      if (stopping) {
        conn.close();
        continue;
      }
      // At the limit: close the longest-waiting connection to make room; with every connection
      // busy, refuse. Too many closed ones still holding descriptors: wait for them (new
      // connections wait in the listen backlog meanwhile).
      if (all.size - closed >= cap) {
        report();
        if (!evictOne()) {
          refuse(conn);
          continue;
        }
      }
      if (!(await roomWithin(SLOT_WAIT_MS))) {
        refuse(conn);
        continue;
      }
      admit(conn);
    }
  }

  const accepting = acceptLoop();
  options.onListen?.(listener.addr as Deno.NetAddr);

  let finishedResolve: () => void;
  const finished = new Promise<void>((resolve) => finishedResolve = resolve);

  return {
    addr: listener.addr as Deno.NetAddr,
    limits: { ...limits },
    finished,
    openConnections: () => all.size,
    async shutdown() {
      if (!stopping) {
        stopping = true;
        try {
          listener.close();
        } catch {
          // already closed
        }
        await accepting;
        // Waiting connections close now; busy ones once their answer is sent (or `sendTimeoutMs` passed).
        for (const t of [...fresh, ...idle]) close(t);
        while (all.size > 0) {
          sweep();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        clearInterval(sweeper);
        finishedResolve();
      }
      await finished;
    },
  };
}

function first<T>(set: Set<T>): T | undefined {
  for (const item of set) return item;
  return undefined;
}
