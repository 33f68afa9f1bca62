import assert from "node:assert/strict";
import { CONFIG_ENV_NAMES, ConfigError, parseConfig, permissionFlags } from "../lib/config.ts";

const defaults = { defaultPoRoots: ["/repo/examples"], cwd: "/home/me", uid: () => 1000 };
const MAIN = new URL("../main.ts", import.meta.url).pathname;

Deno.test("parseConfig applies the documented defaults", () => {
  const c = parseConfig({}, defaults);
  assert.equal(c.port, 8000);
  assert.equal(c.host, "127.0.0.1");
  assert.deepEqual(c.poRoots, ["/repo/examples"]);
  assert.equal(c.userCode, undefined);
  assert.equal(c.gpssApiUrl.href, "https://tiponet.tipo.gov.tw/gpss1/gpsskmc/gpss_api");
  assert.equal(c.apiToken, undefined);
  assert.equal(c.gpssTimeoutMs, 30000);
  assert.equal(c.gpssCacheTtlS, 300);
  assert.equal(c.poMaxFileBytes, 16 * 1024 * 1024);
  assert.equal(c.maxBodyBytes, 16 * 1024 * 1024);
});

Deno.test("parseConfig reads PO_ROOTS as a :-separated list, relative to INIT_CWD", () => {
  const c = parseConfig({ PO_ROOTS: "/srv/po:rel/dir:", INIT_CWD: "/work" }, defaults);
  assert.deepEqual(c.poRoots, ["/srv/po", "/work/rel/dir"]);
  assert.deepEqual(parseConfig({ PO_ROOTS: "x" }, defaults).poRoots, ["/home/me/x"]);
});

Deno.test("parseConfig names the invalid variable", async (t) => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PORT: "http" }, "PORT", /^PORT: must be a whole number between 1 and 65535 \(got "http"\)$/],
    [{ PORT: "70000" }, "PORT", /^PORT: must be between 1 and 65535/],
    [{ HOST: "a b" }, "HOST", /^HOST: must be a host name or IP address/],
    [{ GPSS_API_URL: "ftp://x" }, "GPSS_API_URL", /^GPSS_API_URL: must be an http\(s\) URL/],
    [{ API_TOKEN: "short" }, "API_TOKEN", /^API_TOKEN: must be at least 16 characters/],
    [{ GPSS_CACHE_TTL_S: "-1" }, "GPSS_CACHE_TTL_S", /^GPSS_CACHE_TTL_S: /],
    [{ PO_ROOTS: "/a,b" }, "PO_ROOTS", /^PO_ROOTS: a directory name must not contain ","/],
    [{ PO_ROOTS: ":" }, "PO_ROOTS", /^PO_ROOTS: must name at least one directory$/],
  ];
  for (const [env, variable, message] of cases) {
    await t.step(variable, () => {
      assert.throws(() => parseConfig(env, defaults), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.variable, variable);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

Deno.test("permission flags follow the configuration", () => {
  const c = parseConfig({
    PO_ROOTS: "/srv/po:/srv/other",
    PORT: "9000",
    GPSS_API_URL: "http://127.0.0.1:18090/api",
  }, defaults);
  assert.deepEqual(permissionFlags(c, "serve"), [
    "--allow-read=/srv/po,/srv/other,/tmp/po-tools-locks-1000",
    "--allow-write=/srv/po,/srv/other,/tmp/po-tools-locks-1000",
    "--allow-net=127.0.0.1:9000,127.0.0.1:18090",
    `--allow-env=${CONFIG_ENV_NAMES.join(",")}`,
    "--allow-sys=uid",
  ]);
  assert.equal(permissionFlags(parseConfig({}, defaults), "mcp")[2], "--allow-net=tiponet.tipo.gov.tw:443");
});

async function runMain(args: string[], env: Record<string, string>, perms: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...perms, MAIN, ...args],
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("main.ts exits 2 with one line naming the invalid variable", async () => {
  const r = await runMain(["serve"], { PORT: "eighty" }, ["--allow-env", "--allow-net=127.0.0.1"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    'configuration error: PORT: must be a whole number between 1 and 65535 (got "eighty")\n',
  );
});

Deno.test("main.ts permissions prints flags from only the variables it may read", async () => {
  const env = { PO_ROOTS: "/srv/po", PORT: "9000", USER_CODE: "never-read", PO_LOCK_DIR: "/run/po-locks" };
  // The flags of the `start` task's inner run (deno.json).
  const r = await runMain(["permissions", "serve"], env, [
    "--allow-env=PORT,HOST,PO_ROOTS,GPSS_API_URL,INIT_CWD,PO_LOCK_DIR",
    "--allow-sys=uid",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout.trim().split(" ").slice(0, 3).join(" "),
    "--allow-read=/srv/po,/run/po-locks --allow-write=/srv/po,/run/po-locks " +
      "--allow-net=127.0.0.1:9000,tiponet.tipo.gov.tw:443",
  );
  // Without PO_LOCK_DIR: the user's default lock directory, named after the uid.
  const byDefault = await runMain(["permissions", "mcp"], { PO_ROOTS: "/srv/po" }, [
    "--allow-env=PORT,HOST,PO_ROOTS,GPSS_API_URL,INIT_CWD,PO_LOCK_DIR",
    "--allow-sys=uid",
  ]);
  assert.match(byDefault.stdout, new RegExp(`^--allow-read=/srv/po,/tmp/po-tools-locks-${Deno.uid()} `));
  assert.match(byDefault.stdout, / --allow-sys=uid\n$/);
  const bad = await runMain(["permissions", "serve"], { PORT: "x" }, ["--allow-env=PORT"]);
  assert.equal(bad.code, 0);
  assert.match(bad.stdout, /^--allow-env=/);
});

Deno.test("an unknown mode exits 2", async () => {
  const r = await runMain(["frobnicate"], {}, []);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown mode "frobnicate"/);
});
