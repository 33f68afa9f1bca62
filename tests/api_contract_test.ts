/**
 * The HTTP contract a new user meets first: misspelt fields are refused with the field meant,
 * `/health` answers without the token, and `/openapi.json` declares the version, the bearer
 * scheme, every status with its body, and examples that work on the served catalogues.
 *
 * @module
 */
import assert from "node:assert/strict";
import { closestName } from "../routes/_closest_name.ts";
import { poFixture, postJson } from "./_helpers.ts";

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const MENU = HEADER +
  'msgctxt "menu"\nmsgid "Quit"\nmsgstr "Quitter"\n\nmsgid "Quit"\nmsgstr "Quitter le jeu"\n';

Deno.test("POST /po/write with a misspelt msgctxt and flags is refused, names the fields meant, and writes nothing", async () => {
  await using f = await poFixture({ "fr.po": MENU });
  const before = await Deno.readFile(f.path("fr.po"));
  const res = await f.post("/po/write", {
    file_path: f.path("fr.po"),
    entries: [{ msgid: "Quit", msgctx: "menu", msgstr: "Fermer", flag: ["fuzzy"] }],
  });
  assert.equal(res.status, 422);
  assert.equal(res.type, "application/json");
  assert.deepEqual(res.body, {
    detail: [
      {
        type: "extra_forbidden",
        loc: ["body", "entries", 0, "msgctx"],
        msg: "Extra inputs are not permitted; did you mean 'msgctxt'?",
        input: "menu",
        ctx: { did_you_mean: "msgctxt" },
      },
      {
        type: "extra_forbidden",
        loc: ["body", "entries", 0, "flag"],
        msg: "Extra inputs are not permitted; did you mean 'flags'?",
        input: ["fuzzy"],
        ctx: { did_you_mean: "flags" },
      },
    ],
  });
  assert.deepEqual(await Deno.readFile(f.path("fr.po")), before, "the catalogue is untouched");
});

Deno.test("every PO request refuses unknown fields; a field with no near name gets pydantic's message alone", async (t) => {
  await using f = await poFixture({ "fr.po": MENU });
  const file = f.path("fr.po");
  const cases: [string, Record<string, unknown>, string, string | null][] = [
    ["/po/read", { file_path: file, filepath: file }, "filepath", "file_path"],
    ["/po/find_fuzzy", { file_path: file, FILE_PATH: file }, "FILE_PATH", "file_path"],
    ["/po/read_context", { file_path: file, msgid: "Quit", msgctx: "menu" }, "msgctx", "msgctxt"],
    ["/po/read_context", { file_path: file, msgid: "Quit", contextsize: 2 }, "contextsize", "context_size"],
    ["/po/write", { file_path: file, entries: [], dry_run: true }, "dry_run", null],
  ];
  for (const [path, body, key, meant] of cases) {
    await t.step(`${path} with ${key}`, async () => {
      const res = await f.post(path, body);
      assert.equal(res.status, 422);
      const [item] = res.body.detail;
      assert.equal(item.type, "extra_forbidden");
      assert.deepEqual(item.loc, ["body", key]);
      if (meant === null) {
        assert.equal(item.msg, "Extra inputs are not permitted");
        assert.equal(item.ctx, undefined);
      } else {
        assert.equal(item.msg, `Extra inputs are not permitted; did you mean '${meant}'?`);
        assert.deepEqual(item.ctx, { did_you_mean: meant });
      }
    });
  }
  await t.step("the greeting keeps FastAPI's lax model: extra fields are ignored", async () => {
    const res = await postJson(f.app, "/new/endpoint/", { name: "Ada", nmae: "x" });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { message: "Hello, Ada!" });
  });
});

Deno.test("closestName suggests by edit distance, ignores case, and does bounded work on long keys", async (t) => {
  const names = ["msgid", "msgstr", "msgctxt", "comment", "tcomment", "occurrences", "flags", "msgid_plural"];
  const table: [string, string | null][] = [
    ["msgctx", "msgctxt"],
    ["flag", "flags"],
    ["MSGID", "msgid"],
    ["msgsrt", "msgstr"],
    ["occurences", "occurrences"],
    ["msgid_plurl", "msgid_plural"],
    ["colour", null],
    ["", null],
    ["x".repeat(65), null],
  ];
  for (const [key, meant] of table) {
    await t.step(
      `${JSON.stringify(key.slice(0, 12))} → ${meant}`,
      () => assert.equal(closestName(key, names), meant),
    );
  }
  await t.step("1,000 unknown keys of 900 characters are answered at once", async () => {
    await using f = await poFixture({ "fr.po": MENU });
    const body: Record<string, unknown> = { file_path: f.path("fr.po") };
    for (let i = 0; i < 1000; i++) body[`${i}${"msgctxt".repeat(128)}`] = i;
    const started = performance.now();
    const res = await f.post("/po/read", body);
    const ms = performance.now() - started;
    assert.equal(res.status, 422);
    assert.equal(res.body.detail[0].type, "extra_forbidden");
    assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
  });
});
