/**
 * For the team-server tests (issue 39): a fresh database on the test PostgreSQL
 * (`TEST_DATABASE_URL`, started by `.ci/run`), N `main.ts serve` instances sharing it and one
 * catalogue root, and nginx on loopback in front of them. Every process is on 127.0.0.1 and is
 * stopped by the dispose.
 *
 * @module
 */
import postgres from "postgres";
import { childEnv, freePort } from "./_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Why the team-server tests cannot run here, or null. */
export function teamServerMissing(): string | null {
  if (!Deno.env.get("TEST_DATABASE_URL")) return "TEST_DATABASE_URL is not set (.ci/run starts a PostgreSQL)";
  try {
    new Deno.Command("nginx", { args: ["-v"], stderr: "null", stdout: "null" }).outputSync();
  } catch {
    return "nginx is not installed (.ci/run installs it)";
  }
  return null;
}

/**
 * A turn at the test PostgreSQL across test files (`deno test --parallel` runs files side by side):
 * the restart test takes it alone (`exclusive`), every other test that uses the server shares it, so
 * no test sees the server restart under it. A `flock` on a file named after the server's port.
 */
export async function pgTurn(exclusive: boolean) {
  const port = new URL(Deno.env.get("TEST_DATABASE_URL")!).port || "5432";
  const dir = Deno.env.get("TMPDIR") ?? "/tmp";
  const file = await Deno.open(`${dir}/po-tools-test-pg-${port}.lock`, {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  await file.lock(exclusive);
  return {
    [Symbol.asyncDispose]() {
      file.close();
      return Promise.resolve();
    },
  };
}

/**
 * A database of its own on the test server, with a turn at the server ({@link pgTurn}: shared, or
 * the server alone with `exclusive`); dispose drops it and ends the turn.
 */
export async function freshDatabase(options: { exclusive?: boolean } = {}) {
  const turn = await pgTurn(options.exclusive ?? false);
  const admin = postgres(Deno.env.get("TEST_DATABASE_URL")!, { max: 1, onnotice: () => {} });
  const name = `po_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  try {
    await admin`create database ${admin(name)}`;
  } catch (error) {
    await admin.end({ timeout: 1 });
    await turn[Symbol.asyncDispose]();
    throw error;
  }
  const url = new URL(Deno.env.get("TEST_DATABASE_URL")!);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 2, onnotice: () => {} });
  return {
    url: url.href,
    sql,
    async [Symbol.asyncDispose]() {
      try {
        await sql.end({ timeout: 1 });
        await admin`drop database if exists ${admin(name)} with (force)`;
        await admin.end({ timeout: 1 });
      } finally {
        await turn[Symbol.asyncDispose]();
      }
    },
  };
}

/**
 * The command that restarts the test PostgreSQL: `TEST_PG_RESTART` when set, else `pg_ctl restart`
 * of the cluster `TEST_DATABASE_URL` names, found from the database itself (its data directory and
 * its programs' directory, which a superuser may read), run as the data directory's owner. Null,
 * with the reason, when it cannot be found (not a local superuser, say).
 */
export async function pgRestartCommand(): Promise<{ command: string } | { missing: string }> {
  const given = Deno.env.get("TEST_PG_RESTART");
  if (given) return { command: given };
  const url = new URL(Deno.env.get("TEST_DATABASE_URL")!);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    return { missing: `the test database is not on this machine (${url.hostname}): set TEST_PG_RESTART` };
  }
  const admin = postgres(url.href, { max: 1, onnotice: () => {} });
  try {
    const [dir] = await admin<
      { setting: string }[]
    >`select setting from pg_settings where name = 'data_directory'`;
    const [bin] = await admin<{ setting: string }[]>`select setting from pg_config where name = 'BINDIR'`;
    if (!dir?.setting || !bin?.setting) {
      return { missing: "the data directory is not readable: set TEST_PG_RESTART" };
    }
    const owner = (await Deno.stat(dir.setting)).uid;
    const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
    const pgCtl = `${quote(`${bin.setting}/pg_ctl`)} -D ${quote(dir.setting)} -l ${
      quote(`${dir.setting}/restart.log`)
    } -w -t 60 -m fast restart`;
    if (owner === Deno.uid()) return { command: pgCtl };
    if (Deno.uid() !== 0) return { missing: "the data directory is another user's: set TEST_PG_RESTART" };
    return { command: `runuser -u "$(id -nu ${owner})" -- ${pgCtl}` };
  } catch (error) {
    return { missing: `cannot find how to restart it (${(error as Error).message}): set TEST_PG_RESTART` };
  } finally {
    await admin.end({ timeout: 1 });
  }
}

/** One `main.ts serve` instance. */
export interface Instance {
  port: number;
  child: Deno.ChildProcess;
  /** What it logged so far. */
  stderr: () => string;
}

/** Starts an instance and waits until it listens. */
export async function startInstance(env: Record<string, string>, read: string[]): Promise<Instance> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--v8-flags=--enable-experimental-regexp-engine",
      `--allow-read=${read.join(",")}`,
      `--allow-write=${read.join(",")}`,
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-sys=uid",
      MAIN,
      "serve",
    ],
    env: childEnv({ ...env, PORT: String(port), HOST: "127.0.0.1" }),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      text += value;
    }
  })();
  for (let i = 0; i < 300 && !text.includes("listening on"); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!text.includes("listening on")) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    throw new Error(`instance did not start: ${text.slice(0, 2000)}`);
  }
  return { port, child, stderr: () => text };
}

/** nginx on a loopback port, round robin over `ports`; dispose stops it. */
export async function startNginx(ports: number[]) {
  const dir = await Deno.makeTempDir({ prefix: "po-nginx-" });
  const port = freePort();
  const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream po_tools {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 16m;
    location / {
      proxy_pass http://po_tools;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host localhost;
    }
  }
}
`;
  await Deno.writeTextFile(`${dir}/nginx.conf`, conf);
  const user = Deno.uid() === 0 ? "user root;\n" : "";
  if (user) await Deno.writeTextFile(`${dir}/nginx.conf`, user + conf);
  const child = new Deno.Command("nginx", {
    args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return await proxyListening(child, port, dir);
}

/** A proxy started as `child`, once it accepts on `port`: its base URL; dispose stops it and removes `dir`. */
async function proxyListening(child: Deno.ChildProcess, port: number, dir: string) {
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    base: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.stderr.cancel();
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Whether HAProxy is installed (.ci/run installs it); null when it is, else why not. */
export function haproxyMissing(): string | null {
  try {
    new Deno.Command("haproxy", { args: ["-v"], stderr: "null", stdout: "null" }).outputSync();
    return null;
  } catch {
    return "haproxy is not installed (.ci/run installs it)";
  }
}

/** HAProxy on a loopback port, round robin over `ports` (docs/team-server.md's example); dispose stops it. */
export async function startHaproxy(ports: number[]) {
  const dir = await Deno.makeTempDir({ prefix: "po-haproxy-" });
  const port = freePort();
  const conf = `
global
  maxconn 1024
defaults
  mode http
  timeout connect 5s
  timeout client 90s
  timeout server 90s
frontend po
  bind 127.0.0.1:${port}
  default_backend po_tools
backend po_tools
  balance roundrobin
  http-request set-header Host localhost
${ports.map((p, k) => `  server s${k} 127.0.0.1:${p}`).join("\n")}
`;
  await Deno.writeTextFile(`${dir}/haproxy.cfg`, conf);
  const child = new Deno.Command("haproxy", {
    args: ["-db", "-f", `${dir}/haproxy.cfg`],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return await proxyListening(child, port, dir);
}

/** Stops an instance (SIGTERM) and waits for it. */
export async function stopInstance(instance: Instance): Promise<void> {
  try {
    instance.child.kill("SIGTERM");
  } catch { /* gone */ }
  await instance.child.status;
}
