/**
 * Which entry is "the header": one rule, `isHeader` (`lib/po/types.ts`: msgid "", no msgctxt, not
 * obsolete, as msgcat finds it), and two variants named for why they differ: msgmerge's
 * `hasHeaderKey` (gettext's own `is_header`: obsolete entries too) and the header the `/po/header`
 * tools read and update, `isDefaultDomainHeader` (the default domain's). Each variant is pinned by
 * a case where the rules disagree.
 */
import assert from "node:assert/strict";
import { encodePo, isHeader, mergeCatalogs, parsePo, readHeader } from "../lib/po/mod.ts";
import { EMPTY_MESSAGE, hasHeaderKey, type PoMessage } from "../lib/po/types.ts";
import { isDefaultDomainHeader } from "../lib/po/operations/header.ts";

const text = new TextDecoder();
const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("the header rules agree on the header and disagree only where their names say", async (t) => {
  const m = (over: Partial<PoMessage>): PoMessage => ({
    ...EMPTY_MESSAGE,
    msgstr: "Language: fr\n",
    ...over,
  });
  const cases: [string, PoMessage, boolean, boolean, boolean][] = [
    // name, message, isHeader, hasHeaderKey, isDefaultDomainHeader
    ["the header", m({}), true, true, true],
    ["an obsolete header", m({ obsolete: true }), false, true, false],
    ['msgid "" with a context', m({ msgctxt: "menu" }), false, false, false],
    ["a domain's header", m({ domain: "errors" }), true, true, false],
    ["a message", m({ msgid: "File" }), false, false, false],
  ];
  for (const [name, message, header, key, defaultDomain] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        [isHeader(message), hasHeaderKey(message), isDefaultDomainHeader(message)],
        [header, key, defaultDomain],
      );
    });
  }
});

const OBSOLETE_HEADER_POT = '#~ msgid ""\n#~ msgstr ""\n#~ "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  'msgid "a"\nmsgstr ""\n\nmsgid "b"\nmsgstr ""\n';
const DEF_PO = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n' +
  'msgid "a"\nmsgstr "A"\n';
/** `msgmerge def.po ref.pot` (GNU gettext 0.21): the template's obsolete header counts as its header. */
const MSGMERGE_OUT = 'msgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr ""\n\n' +
  '#~ msgid ""\n#~ msgstr ""\n#~ "Language: fr\\n"\n#~ "Content-Type: text/plain; charset=UTF-8\\n"\n';

Deno.test("merge takes a template's obsolete header as its header, as msgmerge does (hasHeaderKey, not isHeader)", async () => {
  const def = parsePo(bytes(DEF_PO), "def.po");
  const ref = parsePo(bytes(OBSOLETE_HEADER_POT), "ref.pot");
  // With isHeader's rule the template would get a second, made-up header: a duplicate msgid "".
  const ours = text.decode(encodePo(mergeCatalogs(def, ref, {}).catalog));
  assert.equal(ours, MSGMERGE_OUT);
  let oracle: Deno.CommandOutput | null = null;
  const dir = await Deno.makeTempDir({ prefix: "header_rules_" });
  try {
    await Deno.writeTextFile(`${dir}/def.po`, DEF_PO);
    await Deno.writeTextFile(`${dir}/ref.pot`, OBSOLETE_HEADER_POT);
    oracle = await new Deno.Command("msgmerge", {
      args: ["-q", `${dir}/def.po`, `${dir}/ref.pot`, "-o", "-"],
      stdout: "piped",
      stderr: "piped",
    }).output().catch(() => null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  if (oracle === null) console.log("msgmerge not found: compared with its recorded output only");
  else assert.equal(text.decode(oracle.stdout), MSGMERGE_OUT, text.decode(oracle.stderr));
});

Deno.test("the header read and updated is the default domain's: a file whose only header is a domain's has none", () => {
  const cat = parsePo(
    bytes(
      'msgid "a"\nmsgstr "A"\n\ndomain "errors"\n\nmsgid ""\nmsgstr "Language: fr\\n"\n\nmsgid "b"\nmsgstr "B"\n',
    ),
    "domains.po",
  );
  assert.ok(cat.messages.some(isHeader));
  assert.equal(readHeader(cat).present, false);
});
