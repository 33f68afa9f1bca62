/** The dashboard's shell: served by the app itself, public (it holds no data), with a strict policy. */
import assert from "node:assert/strict";
import { testApp } from "./_helpers.ts";
import { UI_CSP, UI_PATHS } from "../routes/ui.ts";

Deno.test("GET / and /ui/catalogue serve the dashboard with every asset from the app itself", async () => {
  const { app } = testApp({ config: { apiToken: "s3cret", maxBodyBytes: 1 << 20 } });
  for (const path of ["/", "/ui/catalogue", "/ui/review"]) {
    const res = await app.request(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("content-security-policy"), UI_CSP);
    const page = await res.text();
    const assets = [...page.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((m) => m[1]);
    // The style, the script modules preloaded (no import waterfall), the brand's link, the script.
    const scripts = UI_PATHS.filter((p) => p.endsWith(".js"));
    assert.deepEqual(assets, ["/ui/app.css", ...scripts, "/", "/ui/review", "/ui/app.js"]);
    assert.ok(!/https?:\/\//.test(page), "no address outside the service");
  }
  const assets = UI_PATHS.filter((p) => p.startsWith("/ui/app.") || p.endsWith(".js"));
  assert.ok(assets.length >= 3);
  for (const asset of assets) {
    const type = asset.endsWith(".css") ? "text/css" : "text/javascript";
    const res = await app.request(asset);
    assert.equal(res.status, 200, asset);
    assert.ok(res.headers.get("content-type")!.startsWith(type), asset);
    assert.ok(
      !/https?:\/\/(?!www\.w3\.org)/.test(await res.text()),
      `${asset}: no address outside the service`,
    );
  }
});

Deno.test("the dashboard's data stays behind the token: only the shell is public", async () => {
  const { app } = testApp({ config: { apiToken: "s3cret", maxBodyBytes: 1 << 20 } });
  assert.equal((await app.request("/")).status, 200);
  const res = await app.request("/po/read", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ file_path: "/x.po" }),
  });
  assert.equal(res.status, 401);
  // A page path answers nothing but its shell: any other method is refused.
  assert.equal((await app.request("/", { method: "POST" })).status, 405);
});

Deno.test("the dashboard's script never turns data into HTML", async () => {
  const dir = new URL("../routes/ui/", import.meta.url);
  const modules: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".js")) modules.push(e.name);
  assert.ok(modules.length >= 6, modules.join(", "));
  for (const name of modules) {
    // Every module is served (a page importing one that is not would break).
    assert.ok(UI_PATHS.includes(`/ui/${name}`), `${name} is served`);
    const script = await Deno.readTextFile(new URL(name, dir));
    for (
      const sink of [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
      ]
    ) {
      assert.ok(!script.includes(sink), `${name}: ${sink}`);
    }
  }
});
