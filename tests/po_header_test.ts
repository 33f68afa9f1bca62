import assert from "node:assert/strict";
import { countReads } from "./_work.ts";
import { InvalidInputError } from "../lib/errors.ts";
import {
  checkPluralForms,
  parseHeaderFields,
  readHeader,
  revisionDate,
  updateHeader,
} from "../lib/po/operations/header.ts";
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { poFixture } from "./_helpers.ts";

const HEADER = `# Translators of the project.
msgid ""
msgstr ""
"Project-Id-Version: App 1.0\\n"
"PO-Revision-Date: 2023-02-16 12:02+0100\\n"
"Last-Translator: Ann <ann@example.org>\\n"
"Language-Team: French <fr@example.org>\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"X-Generator: Poedit 3.2\\n"
`;

const SAMPLE = HEADER + `
#: src/app.py:1
msgid "One file"
msgid_plural "%d files"
msgstr[0] "Un fichier"
msgstr[1] "%d fichiers"
`;

const text = new TextDecoder();
const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("readHeader gives every header line as a field, in order, with the Plural-Forms verdict", () => {
  const info = readHeader(parsePo(bytes(SAMPLE)));
  assert.equal(info.present, true);
  assert.deepEqual(info.fields.map((f) => f.name), [
    "Project-Id-Version",
    "PO-Revision-Date",
    "Last-Translator",
    "Language-Team",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
    "X-Generator",
  ]);
  assert.deepEqual(info.fields[2], { name: "Last-Translator", value: "Ann <ann@example.org>" });
  assert.equal(info.nplurals, null);
  assert.equal(info.pluralFormsProblem, null);
});

Deno.test("parseHeaderFields keeps a line without a colon as a nameless field", () => {
  assert.deepEqual(parseHeaderFields("Language: fr\nstray text\nX-A:b"), [
    { name: "Language", value: "fr" },
    { name: "", value: "stray text" },
    { name: "X-A", value: "b" },
  ]);
});

Deno.test("updateHeader sets, adds where msgmerge would and removes fields, other lines untouched", () => {
  const { catalog, changed } = updateHeader(parsePo(bytes(SAMPLE)), {
    set: {
      language: "fr",
      "Plural-Forms": "nplurals=2; plural=(n > 1);",
      "Last-Translator": "Bob <bob@example.org>",
      "X-Generator": null,
      "X-Reviewed": "yes",
    },
  });
  assert.deepEqual(
    changed.sort(),
    ["Language", "Last-Translator", "Plural-Forms", "X-Generator", "X-Reviewed"].sort(),
  );
  const out = text.decode(encodePo(catalog));
  assert.equal(
    out,
    `# Translators of the project.
msgid ""
msgstr ""
"Project-Id-Version: App 1.0\\n"
"PO-Revision-Date: 2023-02-16 12:02+0100\\n"
"Last-Translator: Bob <bob@example.org>\\n"
"Language-Team: French <fr@example.org>\\n"
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"
"X-Reviewed: yes\\n"

#: src/app.py:1
msgid "One file"
msgid_plural "%d files"
msgstr[0] "Un fichier"
msgstr[1] "%d fichiers"
`,
  );
  assert.equal(readHeader(catalog).nplurals, 2);
});

Deno.test("updateHeader stamps PO-Revision-Date only when asked, in gettext's format", () => {
  const cat = parsePo(bytes(SAMPLE));
  assert.equal(updateHeader(cat, {}).changed.length, 0);
  const stamped = updateHeader(cat, { stampRevisionDate: new Date("2026-11-25T09:05:00Z") });
  assert.deepEqual(stamped.changed, ["PO-Revision-Date"]);
  assert.equal(
    readHeader(stamped.catalog).fields.find((f) => f.name === "PO-Revision-Date")?.value,
    "2026-11-25 09:05+0000",
  );
  assert.equal(revisionDate(new Date("2026-01-02T03:04:59Z")), "2026-01-02 03:04+0000");
});

Deno.test("updateHeader refuses what would write a different or broken header", async (t) => {
  const cat = parsePo(bytes(SAMPLE));
  const cases: [string, Record<string, string | null>, RegExp][] = [
    ["a newline in a value", { Language: "fr\nX-Evil: 1" }, /must be one line/],
    ["a name with a colon", { "Lang:uage": "fr" }, /Invalid header field name "Lang:uage"/],
    ["Plural-Forms without plural=", { "Plural-Forms": "nplurals=2;" }, /has no "plural="/],
    ["Plural-Forms out of range", { "Plural-Forms": "nplurals=1; plural=n != 1;" }, /values as large as 1/],
    ["a division by zero", { "Plural-Forms": "nplurals=2; plural=n % 0;" }, /division by zero/],
    ["a charset change", { "Content-Type": "text/plain; charset=ISO-8859-1" }, /Cannot change the charset/],
  ];
  for (const [name, set, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => updateHeader(cat, { set }),
        (e: Error) => e instanceof InvalidInputError && message.test(e.message),
      );
    });
  }
});

Deno.test("checkPluralForms accepts real rules and refuses gettext's syntax errors in linear time", () => {
  for (
    const ok of [
      "nplurals=1; plural=0;",
      "nplurals=2; plural=(n != 1);",
      "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
      "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
    ]
  ) assert.equal(typeof checkPluralForms(ok), "object", ok);
  for (const bad of ["nplurals=2; plural=n = 1;", "nplurals=x; plural=n;", "nplurals=0; plural=0;"]) {
    assert.equal(typeof checkPluralForms(bad), "string", bad);
  }
  assert.match(checkPluralForms("nplurals=2; plural=" + "(".repeat(500_000)) as string, /nested deeper/);
  assert.match(checkPluralForms("nplurals=2; plural=" + "n+".repeat(500_000) + "n") as string, /operators/);
  // Work counted, not timed: 16× the expression, at most ~16× the characters read.
  for (const make of [(k: number) => "(".repeat(k), (k: number) => "n+".repeat(k) + "n"]) {
    const a = countReads(() => checkPluralForms(`nplurals=2; plural=${make(31_250)}`)).reads;
    const b = countReads(() => checkPluralForms(`nplurals=2; plural=${make(500_000)}`)).reads;
    assert.ok(b <= 20 * a + 1000, `${a} → ${b} characters read`);
  }
});

Deno.test("POST /po/header answers the fields as a list and as an object", async () => {
  await using f = await poFixture({ "fr.po": SAMPLE });
  const r = await f.post("/po/header", { file_path: f.path("fr.po") });
  assert.equal(r.status, 200);
  assert.match(r.type ?? "", /^application\/json/);
  assert.equal(r.body.present, true);
  assert.equal(r.body.fields.length, 8);
  assert.equal(r.body.header["Language-Team"], "French <fr@example.org>");
  assert.equal(r.body.plural_forms_problem, null);
});

Deno.test("POST /po/header/update writes the fields with msgcat's layout and leaves entries alone", async () => {
  await using f = await poFixture({ "fr.po": SAMPLE });
  const r = await f.post("/po/header/update", {
    file_path: f.path("fr.po"),
    set: { Language: "fr", "Plural-Forms": "nplurals=2; plural=(n > 1);" },
    stamp_revision_date: true,
  });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.changed.sort(), ["Language", "PO-Revision-Date", "Plural-Forms"]);
  const written = text.decode(await Deno.readFile(f.path("fr.po")));
  assert.match(written, /"Language: fr\\n"\n"MIME-Version/);
  assert.match(written, /"PO-Revision-Date: \d{4}-\d\d-\d\d \d\d:\d\d\+0000\\n"/);
  assert.ok(written.endsWith(SAMPLE.slice(HEADER.length)), "the entries are as they were");
});

Deno.test("POST /po/header/update refuses an invalid Plural-Forms with 422 and leaves the file untouched", async () => {
  await using f = await poFixture({ "fr.po": SAMPLE });
  const r = await f.post("/po/header/update", {
    file_path: f.path("fr.po"),
    set: { "Plural-Forms": "nplurals=2; plural=n = 1;" },
  });
  assert.equal(r.status, 422);
  assert.match(r.body.detail, /^Plural-Forms: invalid plural expression/);
  assert.equal(text.decode(await Deno.readFile(f.path("fr.po"))), SAMPLE);
  const missing = await f.post("/po/header/update", {
    file_path: f.path("nope.po"),
    set: { Language: "fr" },
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.detail, `File not found: ${f.path("nope.po")}`);
});

Deno.test("POST /po/write stamps PO-Revision-Date only when asked and only when an entry changed", async () => {
  await using f = await poFixture({ "fr.po": SAMPLE });
  const file = f.path("fr.po");
  const date = () => /"PO-Revision-Date: ([^\\]*)\\n"/.exec(text.decode(Deno.readFileSync(file)))?.[1] ?? "";
  const plain = await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "New", msgstr: "Nouveau" }],
  });
  assert.equal(plain.status, 200);
  assert.equal(date(), "2023-02-16 12:02+0100", "off by default, as powrap");
  const same = await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "New", msgstr: "Nouveau" }],
    stamp_revision_date: true,
  });
  assert.equal(same.status, 200);
  assert.equal(date(), "2023-02-16 12:02+0100", "a write that changes no entry changes no date");
  const stamped = await f.post("/po/write", {
    file_path: file,
    entries: [{ msgid: "New", msgstr: "Neuf" }],
    stamp_revision_date: true,
  });
  assert.equal(stamped.status, 200);
  assert.equal(stamped.body.written, true);
  assert.match(date(), /^\d{4}-\d\d-\d\d \d\d:\d\d\+0000$/);
});
