/**
 * Test helpers: an app per test, temp catalogue directories, the corpus location.
 *
 * @module
 */
import { createApp } from "../routes/mod.ts";
import type { AppDeps } from "../routes/deps.ts";
import { independentTools, type Tool } from "../routes/tool.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { PO_CODEC } from "../lib/po/operations/po_codec.ts";

/** The repository root. */
export const REPO_ROOT = new URL("../", import.meta.url);

/** `../shared` beside the repository (present on CI and developer machines, absent on a user's clone). */
export const SHARED_DIR = new URL("../../shared/", import.meta.url);

/** Every `.po` file under `dir` (recursively), sorted. */
export function poFilesIn(dir: URL): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) walk(child);
      else if (entry.name.endsWith(".po")) out.push(child);
    }
  };
  walk(dir.pathname.replace(/\/$/, ""));
  return out.sort();
}

/** True when `../shared` exists. */
export function sharedAvailable(): boolean {
  try {
    return Deno.statSync(SHARED_DIR).isDirectory;
  } catch {
    return false;
  }
}

/** A GPSS client for tests that reach no upstream: a search is a bug (an unexpected 500). */
export const NO_GPSS: NonNullable<AppDeps["gpss"]> = {
  search: () => Promise.reject(new Error("this test gave the app no GPSS client")),
};

/** A catalogue store with no roots: every catalogue path is outside them (403). */
export const NO_CATALOGUES: NonNullable<AppDeps["catalogues"]> = new CatalogueStore({
  roots: [],
  codec: PO_CODEC,
});

/**
 * Builds a fresh app with test defaults (a store with no roots, a GPSS client that is not to be
 * called, unless `overrides` give others); `lines` collects what it logs. Given `tools`, the app
 * serves those (needing nothing) instead of the service's.
 */
export function testApp(overrides: Partial<AppDeps> = {}, tools?: readonly Tool[]) {
  const lines: string[] = [];
  const deps: AppDeps = {
    config: { apiToken: undefined, maxBodyBytes: 1024 * 1024 },
    log: (line) => lines.push(line),
    catalogues: NO_CATALOGUES,
    gpss: NO_GPSS,
    ...overrides,
  };
  return { app: createApp(deps, tools ? [independentTools("test tools", tools)] : undefined), lines, deps };
}

/** POSTs a JSON value (or a raw string body) to an in-process app. */
export function postJson(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  path: string,
  body: unknown,
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<Response> {
  return Promise.resolve(app.request(path, {
    method: "POST",
    headers,
    // Bytes, not a string: a string body would make fetch add "text/plain" when no type is given.
    body: new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)),
  }));
}

/**
 * An app served on 127.0.0.1 (a free port): the server (shut it down when done), its base URL, and
 * a JSON POST to it over the socket.
 */
export function servedOnLoopback(app: { fetch: (request: Request) => Response | Promise<Response> }) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    server,
    base,
    /** POSTs a JSON body to the server over HTTP: the status and the JSON answer. */
    // deno-lint-ignore no-explicit-any
    async post(path: string, body: unknown): Promise<{ status: number; body: any }> {
      const res = await fetch(base + path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}

/** A temp catalogue root (real path) and an app whose store serves it; dispose to clean up. */
export async function poFixture(files: Record<string, string | Uint8Array> = {}) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "po-root-" }));
  for (const [name, content] of Object.entries(files)) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  const catalogues = new CatalogueStore({ roots: [root], codec: PO_CODEC });
  const { app, lines } = testApp({ catalogues });
  return {
    root,
    app,
    lines,
    path: (name: string) => `${root}/${name}`,
    post: async (path: string, body: unknown) => {
      const res = await postJson(app, path, body);
      return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Environment for a child `deno`: what it needs to find its caches (and this machine's registry CA). */
export function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "DENO_DIR", "NODE_EXTRA_CA_CERTS", "XDG_CACHE_HOME"]) {
    const v = Deno.env.get(name);
    if (v !== undefined) env[name] = v;
  }
  return { ...env, NO_COLOR: "1", RUST_BACKTRACE: "0", ...extra };
}

/** A loopback port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
