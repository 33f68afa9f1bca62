/**
 * Plural-Forms known per language (issue 34.8): the table is msginit's (gettext's plural-table.c,
 * then CLDR through gettext's cldr-plurals), checked against msginit itself where it and the CLDR
 * data are installed; read_header names the expected rule, check_po warns on a mismatch, and
 * update_header sets it from the language. Over a real socket.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { HAS_MSGCAT } from "./_prerequisites.ts";
import { expectedPluralForms, PLURAL_RULE_LANGUAGES } from "../lib/po/operations/plural_rules.ts";
import { servedCatalogues } from "./_catalogue_server.ts";

const CLDR = "/usr/share/unicode/cldr";
const HAS_CLDR = existsSync(`${CLDR}/common/supplemental/plurals.xml`);

const ZH_CN = `msgid ""
msgstr ""
"Project-Id-Version: Python 3.13\\n"
"Language: zh_CN\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "one file"
msgid_plural "%d files"
msgstr[0] "%d 个文件"
msgstr[1] "%d 个文件"
`;

Deno.test({
  name: "every rule of the table is the one msginit writes for its language",
  ignore: !HAS_MSGCAT || !HAS_CLDR,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "plural-rules-" });
    try {
      await Deno.writeTextFile(
        `${dir}/t.pot`,
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a"\nmsgstr ""\n',
      );
      assert.ok(PLURAL_RULE_LANGUAGES.length >= 60, `${PLURAL_RULE_LANGUAGES.length} languages`);
      for (const language of [...PLURAL_RULE_LANGUAGES, "zh_CN", "zh_TW", "pt_PT", "sr_RS"]) {
        const out = await new Deno.Command("msginit", {
          args: ["--no-translator", "--no-wrap", "-l", language, "-i", `${dir}/t.pot`, "-o", "-"],
          env: { GETTEXTCLDRDIR: CLDR },
          stderr: "null",
        }).output();
        const text = new TextDecoder().decode(out.stdout);
        const rule = /"Plural-Forms: (.*)\\n"/.exec(text)?.[1];
        assert.equal(expectedPluralForms(language)?.rule, rule, language);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("read_header names zh_CN's rule, check_po warns on the mismatch, update_header sets it", async () => {
  await using po = await servedCatalogues({ "zh_CN/app.po": ZH_CN });
  const file = po.path("zh_CN/app.po");

  const header = await po.post("/po/header", { file_path: file });
  assert.equal(header.status, 200);
  assert.deepEqual(header.body.expected_plural_forms, {
    language: "zh",
    rule: "nplurals=1; plural=0;",
    nplurals: 1,
    source: "cldr",
  });
  assert.equal(header.body.plural_forms_matches_language, false);

  const checked = await po.post("/po/check", { file_path: file });
  assert.equal(checked.status, 200);
  const warning = checked.body.problems.find((p: { check: string }) => p.check === "plural-forms-language");
  assert.ok(warning, JSON.stringify(checked.body.problems));
  assert.equal(warning.severity, "warning");
  assert.equal(warning.line, 1);
  assert.match(warning.message, /nplurals=1; plural=0;/);

  // Set from the language: the rule, and then the plural entry has one form too many (plural-count).
  const updated = await po.post("/po/header/update", { file_path: file, plural_forms: "from_language" });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.deepEqual(updated.body.changed, ["Plural-Forms"]);
  assert.ok((await Deno.readTextFile(file)).includes('"Plural-Forms: nplurals=1; plural=0;\\n"'));
  const after = await po.post("/po/header", { file_path: file });
  assert.equal(after.body.plural_forms_matches_language, true);
  const again = await po.post("/po/check", { file_path: file });
  assert.ok(!again.body.problems.some((p: { check: string }) => p.check === "plural-forms-language"));

  // A Language set in the same request is the one used; an unknown one is refused, nothing written.
  const br = await po.post("/po/header/update", {
    file_path: file,
    set: { Language: "pt_BR" },
    plural_forms: "from_language",
  });
  assert.equal(br.status, 200);
  assert.ok((await Deno.readTextFile(file)).includes('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"'));
  const before = await Deno.readTextFile(file);
  const unknown = await po.post("/po/header/update", {
    file_path: file,
    set: { Language: "tlh" },
    plural_forms: "from_language",
  });
  assert.equal(unknown.status, 422);
  assert.match(JSON.stringify(unknown.body.detail), /no known Plural-Forms/);
  assert.equal(await Deno.readTextFile(file), before);
});
