/**
 * A child process for the pending-bodies memory test: it serves the test app, opens 20 connections
 * that declare 16 MiB bodies and send a few bytes, and prints what its own RSS did, as JSON.
 *
 * It runs alone in its process because `deno test --parallel` runs other test files in the same
 * process as the test that starts it: their allocations and collections moved a parent-side RSS
 * figure by 100 MiB and more (the test failed once in CI that way, with nothing of ours pending).
 *
 *   deno run --allow-net=127.0.0.1 tests/_pending_bodies_child.ts
 *   → {"grownMiB": 3.2, "statuses": [200, 200, 200], "lines": ["POST /new/endpoint/ 200 …", …]}
 *
 * @module
 */
import { testApp } from "./_helpers.ts";

const MIB = 1024 * 1024;
const LIMIT = 16 * MIB;
const utf8 = new TextEncoder();

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const { app, lines } = testApp({ config: { apiToken: undefined, maxBodyBytes: LIMIT } });
const statuses: number[] = [];
let grownMiB = Number.NaN;
{
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const port = server.addr.port;
  const small = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/new/endpoint/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"Ada"}',
    });
    statuses.push(res.status);
    await res.body?.cancel();
  };
  await small(); // the server's own first-request allocations are not counted
  const before = Deno.memoryUsage().rss;
  const conns: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(conn);
      await conn.write(utf8.encode(
        `POST /new/endpoint/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${LIMIT}\r\n\r\n{"na`,
      ));
    }
    // Every handler has started reading its body by now; a small request is still answered.
    await delay(500);
    await small();
    grownMiB = (Deno.memoryUsage().rss - before) / MIB;
  } finally {
    for (const conn of conns) conn.close();
  }
  // Waits for the 20 dropped bodies to be logged (as long as a loaded machine needs, 20 s at most).
  for (let i = 0; i < 400 && lines.filter((l) => / 400 /.test(l)).length < 20; i++) await delay(50);
  await small(); // and after they are gone
}
console.log(JSON.stringify({ grownMiB, statuses, lines }));
