/**
 * Issue 34.11: did-you-mean on every unknown name a user types: the body fields of every tool
 * (`file` → `file_path`: 422 over HTTP, isError over MCP, both on a real socket) and the options
 * of the command-line tools (`--chek` → `--check`).
 */
import assert from "node:assert/strict";
import { poFixture } from "./_helpers.ts";
import { mcpOverSocket, textOf } from "./_mcp_socket.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const CATALOGUE =
  'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr "b"\n';

Deno.test("a mistyped body field of any tool is refused with the field meant, over HTTP and MCP", async () => {
  await using f = await poFixture({ "fr.po": CATALOGUE });
  await using s = await mcpOverSocket(f.app);
  const file = f.path("fr.po");
  const cases: [string, string, Record<string, unknown>, string, string][] = [
    ["read_po", "/po/read", { file }, "file", "file_path"],
    ["find_fuzzy", "/po/find_fuzzy", { file }, "file", "file_path"],
    ["write_po", "/po/write", { file, entries: [] }, "file", "file_path"],
    [
      "read_po_context",
      "/po/read_context",
      { file_path: file, msgid: "a", context: 1 },
      "context",
      "context_size",
    ],
    ["read_header", "/po/header", { file }, "file", "file_path"],
    [
      "update_header",
      "/po/header/update",
      { file_path: file, stamp_revision: true },
      "stamp_revision",
      "stamp_revision_date",
    ],
    ["merge_po", "/po/merge", { file_path: file, template: file }, "template", "template_path"],
    ["compile_mo", "/po/compile", { file_path: file, output: "x.mo" }, "output", "output_path"],
    ["check_po", "/po/check", { file }, "file", "file_path"],
    ["list_catalogues", "/po/catalogues", { max_percentage: 50 }, "max_percentage", "max_percent"],
    ["list_entries", "/po/entries", { file_path: file }, "file_path", "path"],
    ["search_entries", "/po/search", { query: "a", regexp: true }, "regexp", "regex"],
    ["search_patents", "/tools/search_patents", { keyword: "x" }, "keyword", "keywords"],
  ];
  for (const [tool, path, body, wrong, meant] of cases) {
    const r = await s.post(path, body);
    assert.equal(r.status, 422, `${path}: ${JSON.stringify(r.body)}`);
    const item = (r.body.detail as { loc: string[]; msg: string; ctx?: { did_you_mean?: string } }[])
      .find((d) => d.loc.at(-1) === wrong);
    assert.ok(item, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(item.ctx?.did_you_mean, meant, `${path}: ${item.msg}`);
    assert.match(item.msg, new RegExp(`did you mean '${meant}'\\?`));
    const m = await s.client.callTool({ name: tool, arguments: body });
    assert.equal(m.isError, true, tool);
    assert.match(textOf(m), new RegExp(`did you mean '${meant}'`), tool);
  }
});

async function run(args: string[]): Promise<{ code: number; err: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "--allow-read", "--allow-env", "--allow-sys", MAIN, ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, err: new TextDecoder().decode(out.stderr) };
}

Deno.test("a mistyped command-line option is refused with the option meant", async () => {
  const cases: [string[], RegExp][] = [
    [["wrap", "--chek", "x.po"], /unknown option "--chek"; did you mean --check\?/],
    [["wrap", "--wrap", "x.po"], /did you mean --no-wrap\?/],
    [["check", "--include-fuzy", "x.po"], /unknown option "--include-fuzy"; did you mean --include-fuzzy\?/],
    [["check", "--severty=error", "x.po"], /did you mean --severity\?/],
    [["merge", "--previus", "a.po", "b.pot"], /did you mean --previous\?/],
    [["compile", "--use-fuzy", "a.po"], /did you mean --use-fuzzy\?/],
    [["wrap", "--nothing-like-it", "x.po"], /unknown option "--nothing-like-it"\n/],
  ];
  for (const [args, expected] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, expected, args.join(" "));
  }
});
