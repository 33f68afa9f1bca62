/**
 * Each tool group takes the dependencies it uses when the app is built: an app (or an MCP server)
 * built without one fails then, with a message naming it, never as a 500 at the first request.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "../routes/mod.ts";
import { greetingTools } from "../routes/greeting.ts";
import { NO_CATALOGUES, NO_GPSS, postJson } from "./_helpers.ts";

const config = { apiToken: undefined, maxBodyBytes: 1 << 20 };
const log = () => {};

Deno.test("building the app without a catalogue store fails at once, naming deps.catalogues", () => {
  assert.throws(() => createApp({ config, log, gpss: NO_GPSS }), {
    name: "MissingDependencyError",
    message: "the PO tools need deps.catalogues, and the app was built without it",
  });
});

Deno.test("building the app without a GPSS client fails at once, naming deps.gpss", () => {
  assert.throws(() => createApp({ config, log, catalogues: NO_CATALOGUES }), {
    name: "MissingDependencyError",
    message: "the patent tools need deps.gpss, and the app was built without it",
  });
});

Deno.test("an app serving only the tools that need nothing is built without a store or a client", async () => {
  const app = createApp({ config, log }, [greetingTools]);
  const res = await postJson(app, "/new/endpoint/", { name: "Ada" });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
  const missing = await postJson(app, "/po/read", { file_path: "/x.po" });
  assert.equal(missing.status, 404);
});
