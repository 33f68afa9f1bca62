/**
 * Issue 39.1: identities and roles. A tokens file names callers and their roles; every tool
 * declares the weakest role that may call it; HTTP (the dashboard's calls too) and MCP refuse a
 * caller whose role is weaker (403 / isError), before the input is read; OpenAPI and tools/list
 * show the role. Table-driven over every tool the service offers.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  type Identity,
  loadTokensFile,
  parseTokens,
  type Role,
  roleAllows,
  ROLES,
  tokenHash,
} from "../lib/auth/mod.ts";
import { ConfigError, loadTokens, parseConfig, permissionFlags } from "../lib/config.ts";
import { allTools } from "../routes/mod.ts";
import { poFixture, servedOnLoopback, testApp } from "./_helpers.ts";
import { PO_CODEC } from "../lib/po/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";

const TOKENS: Record<Role, string> = {
  reader: "reader-token-0123456789",
  translator: "translator-token-0123456789",
  reviewer: "reviewer-token-0123456789",
  admin: "admin-token-0123456789",
};

function tokensMap(): Map<string, Identity> {
  return parseTokens(ROLES.map((role) => `${role}-person ${role} ${tokenHash(TOKENS[role])}`).join("\n"));
}

Deno.test("the tokens file: one identity a line, checked strictly", () => {
  const map = parseTokens(
    `# team\n\nada translator ${tokenHash("secret-1")}\nbob\treader ${tokenHash("secret-2").toUpperCase()}\n`,
  );
  assert.deepEqual(map.get(tokenHash("secret-1")), { name: "ada", role: "translator" });
  assert.deepEqual(map.get(tokenHash("secret-2")), { name: "bob", role: "reader" });
  const bad: [string, RegExp][] = [
    [`ada translator`, /line 1: expected "name role sha256-hex", got 2 fields/],
    [`ada owner ${tokenHash("x")}`, /line 1: the role must be one of reader, translator, reviewer, admin/],
    [`ada reader abc`, /the hash must be 64 hex digits/],
    [`a/b reader ${tokenHash("x")}`, /a name is 1-64 letters/],
    [`ada reader ${tokenHash("x")}\nada admin ${tokenHash("y")}`, /line 2: the name ada is given twice/],
    [`ada reader ${tokenHash("x")}\nbob admin ${tokenHash("x")}`, /line 2: this hash is given twice/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseTokens(text), message, text);
});

Deno.test("the tokens file is trusted only when others can neither read nor write it, and is no symlink", async () => {
  const dir = await Deno.makeTempDir({ prefix: "h7-tokens-" });
  try {
    const path = `${dir}/tokens`;
    await Deno.writeTextFile(path, `ada admin ${tokenHash("secret")}\n`, { mode: 0o600 });
    await Deno.chmod(path, 0o600);
    assert.equal(loadTokensFile(path, Deno.uid()!).size, 1);
    await Deno.chmod(path, 0o644);
    assert.throws(
      () => loadTokensFile(path, Deno.uid()!),
      /others may read or write it \(mode 644\); chmod it to 600/,
    );
    await Deno.chmod(path, 0o600);
    await Deno.symlink(path, `${dir}/link`);
    assert.throws(() => loadTokensFile(`${dir}/link`, Deno.uid()!), /symbolic link/);
    assert.throws(() => loadTokensFile(`${dir}/missing`, Deno.uid()!), /does not exist/);
    // Through the configuration: one line naming the variable, and read permission for the file.
    const config = parseConfig({ PO_TOKENS_FILE: `${dir}/link` }, {
      defaultPoRoots: [dir],
      cwd: "/",
      uid: () => 0,
    });
    assert.throws(
      () => loadTokens(config, () => Deno.uid()),
      (e) => e instanceof ConfigError && /^PO_TOKENS_FILE: /.test(e.message),
    );
    const ok = parseConfig({ PO_TOKENS_FILE: path }, { defaultPoRoots: [dir], cwd: "/", uid: () => 0 });
    assert.equal(loadTokens(ok, () => Deno.uid())?.size, 1);
    const flags = permissionFlags(ok, "serve");
    assert.ok(flags.find((f) => f.startsWith("--allow-read="))!.includes(path));
    assert.ok(!flags.find((f) => f.startsWith("--allow-write="))!.includes(path));
    assert.throws(
      () => parseConfig({ PO_TOKENS_FILE: "tokens" }, { defaultPoRoots: [dir], cwd: "/" }),
      /PO_TOKENS_FILE/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every tool declares its role; the writes need more than reader", () => {
  const roles = Object.fromEntries(allTools().map((t) => [t.name, t.role]));
  for (const [name, role] of Object.entries(roles)) assert.ok(ROLES.includes(role), name);
  assert.equal(roles.read_po, "reader");
  assert.equal(roles.write_po, "translator");
  assert.equal(roles.merge_po, "reviewer");
  assert.equal(roles.compile_mo, "reviewer");
  assert.equal(roles.update_header, "reviewer");
  assert.equal(roles.purge_obsolete, "admin");
});

Deno.test("each role is refused on each tool it lacks, over HTTP and MCP; allowed ones are not refused", async () => {
  await using f = await poFixture({
    "fr.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
  });
  const catalogues = new CatalogueStore({ roots: [f.root], codec: PO_CODEC });
  const { app } = testApp({
    catalogues,
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, tokens: tokensMap() },
  });
  const { server, base } = servedOnLoopback(app);
  try {
    // Without a token, or with one not in the file: 401.
    const none = await fetch(`${base}/po/read`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(none.status, 401);
    await none.body?.cancel();
    const wrong = await fetch(`${base}/po/read`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer not-a-known-token" },
      body: "{}",
    });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    let refusals = 0;
    for (const role of ROLES) {
      const client = new Client({ name: `roles-${role}`, version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${TOKENS[role]}` } },
        }),
      );
      try {
        for (const tool of allTools()) {
          const allowed = roleAllows(role, tool.role);
          // An empty body: an allowed call gets past the role check (and then, maybe, a 422).
          const res = await fetch(base + tool.path, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${TOKENS[role]}` },
            body: "{}",
          });
          const body = await res.json();
          const mcp = await client.callTool({ name: tool.name, arguments: {} });
          const text = (mcp.content as { text?: string }[])[0]?.text ?? "";
          const refusal =
            `${role}-person (role ${role}) may not call ${tool.name}: it needs the ${tool.role} role`;
          if (allowed) {
            assert.notEqual(res.status, 403, `${role} on ${tool.name} over HTTP`);
            assert.ok(!text.includes("may not call"), `${role} on ${tool.name} over MCP`);
          } else {
            refusals++;
            assert.equal(res.status, 403, `${role} on ${tool.name} over HTTP`);
            assert.equal(body.detail, refusal);
            assert.equal(mcp.isError, true, `${role} on ${tool.name} over MCP`);
            assert.equal(text, refusal);
          }
        }
      } finally {
        await client.close();
      }
    }
    assert.ok(refusals >= 3 + 2 + 1, `${refusals} refusals`);
    // The catalogue is as it was: no refused write went through.
    assert.equal(
      await Deno.readTextFile(f.path("fr.po")),
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("a reader's write is refused before its body is read; a translator's goes through", async () => {
  await using f = await poFixture({
    "fr.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
  });
  const catalogues = new CatalogueStore({ roots: [f.root], codec: PO_CODEC });
  const { app } = testApp({
    catalogues,
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, tokens: tokensMap() },
  });
  const write = (role: Role, body: string) =>
    app.request("/po/write", {
      method: "POST",
      // As the dashboard sends it: its own origin, the tab's token.
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${TOKENS[role]}`,
        origin: "http://localhost",
        host: "localhost",
      },
      body,
    });
  const refused = await write("reader", "not json at all");
  assert.equal(refused.status, 403);
  const written = await write(
    "translator",
    JSON.stringify({ file_path: f.path("fr.po"), entries: [{ msgid: "a", msgstr: "c" }] }),
  );
  assert.equal(written.status, 200, await written.clone().text());
  assert.match(await Deno.readTextFile(f.path("fr.po")), /msgstr "c"/);
});

Deno.test("OpenAPI and tools/list show each tool's role; API_TOKEN alone is admin", async () => {
  const token = "the-single-api-token-0123";
  const { app } = testApp({ config: { apiToken: token, maxBodyBytes: 1 << 20 } });
  const spec = await (await app.request("/openapi.json")).json();
  for (const tool of allTools()) {
    const op = spec.paths[tool.path].post;
    assert.equal(op["x-required-role"], tool.role, tool.name);
    assert.match(op.description, new RegExp(`Role: ${tool.role}\\.`), tool.name);
  }
  const { server, base } = servedOnLoopback(app);
  const client = new Client({ name: "roles-list", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const { tools } = await client.listTools();
    for (const tool of allTools()) {
      const listed = tools.find((t) => t.name === tool.name)!;
      const role = (listed._meta as { role?: string } | undefined)?.role ?? "reader";
      assert.equal(role, tool.role, tool.name);
    }
    assert.match(client.getInstructions() ?? "", /has no role needs the reader role/);
    // The single token is admin: purge is not refused for its role.
    const purge = await client.callTool({ name: "purge_obsolete", arguments: {} });
    assert.ok(!JSON.stringify(purge.content).includes("may not call"));
  } finally {
    await client.close();
    await server.shutdown();
  }
});

Deno.test("a draft without draft_author is the token's person's, and its review is in the audit log", async () => {
  await using f = await poFixture({
    "fr.po": 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n',
  });
  const catalogues = new CatalogueStore({ roots: [f.root], codec: PO_CODEC });
  const { app } = testApp({
    catalogues,
    config: { apiToken: undefined, maxBodyBytes: 1 << 20, tokens: tokensMap() },
  });
  const { server, base } = servedOnLoopback(app);
  const post = async (role: Role, path: string, body: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKENS[role]}` },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
  try {
    const file_path = f.path("fr.po");
    const w = await post("translator", "/po/write", {
      file_path,
      entries: [{ msgid: "a", msgstr: "c", draft: true, expected_msgstr: "b" }],
    });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const drafts = await post("reader", "/po/drafts", { file_path });
    assert.equal(drafts.body.drafts[0].author, "translator-person");
    const review = await post("reviewer", "/po/review", {
      file_path,
      msgid: "a",
      action: "approve",
      expected_msgstr: "c",
    });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    const log = await post("reviewer", "/po/audit", { file_path });
    const actions = log.body.records.map((r: { action: string; who: string }) => `${r.action} ${r.who}`);
    assert.deepEqual(actions.toSorted(), ["review_approve reviewer-person", "write_po translator-person"]);
  } finally {
    await server.shutdown();
  }
});
