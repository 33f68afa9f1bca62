/**
 * Drafts with provenance (issue 37.1): the mark a write with `draft: true` leaves in the PO file,
 * what it keeps of the translation it replaces, that no author string can break the file, and that
 * the mark survives gettext's msgcat and msgmerge, 0.21 and 0.23.1, as the oracles print it.
 */
import assert from "node:assert/strict";
import {
  applyWrite,
  catalogueDrafts,
  encodePo,
  formatPo,
  mayHoldDrafts,
  parsePo,
  type PoCatalog,
  readDraft,
} from "../lib/po/mod.ts";
import { InvalidInputError } from "../lib/errors.ts";
import { countCatalogue } from "../lib/workbench/mod.ts";
import { HAS_MSGCAT, lacks } from "./_prerequisites.ts";

const NOW = new Date("2026-11-28T19:40:05.123Z");
const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
  '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n';
const SOURCE = HEADER +
  '# A note of the team\n#, python-format\nmsgid "Hello %s"\nmsgstr "Bonjour %s"\n\n' +
  '#, fuzzy\n#| msgid "Old text"\nmsgid "New text"\nmsgstr "Ancien texte"\n\n' +
  'msgid "Empty"\nmsgstr ""\n\n' +
  'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichier"\nmsgstr[1] "%d fichiers"\n';

function catalogue(text = SOURCE): PoCatalog {
  return parsePo(new TextEncoder().encode(text), "fr.po");
}

function entry(cat: PoCatalog, msgid: string) {
  return cat.messages.find((m) => m.msgid === msgid && !m.obsolete)!;
}

/** The catalogue as a file holds it: written, then read again. */
function reread(cat: PoCatalog): PoCatalog {
  return parsePo(encodePo(cat), "fr.po");
}

Deno.test("a draft write marks the entry fuzzy, with its author, date and the translation it replaced", () => {
  const { catalog } = applyWrite(catalogue(), [
    { msgid: "Hello %s", msgstr: "Salut %s", draft: true, draft_author: "claude-opus-4" },
    { msgid: "New text", msgstr: "Nouveau texte", draft: true, draft_author: "claude-opus-4" },
    { msgid: "Empty", msgstr: "Vide", draft: true },
    { msgid: "%d file", msgstr: "", msgstr_plural: { "0": "%d doc", "1": "%d docs" }, draft: true },
    { msgid: "Brand new", msgstr: "Tout neuf", draft: true, draft_author: "a" },
  ], { now: NOW });
  const text = formatPo(catalog);
  assert.ok(
    text.includes(
      '# A note of the team\n# draft: "claude-opus-4" 2026-11-28T19:40:05Z\n# draft-previous: "Bonjour %s"\n' +
        '#, fuzzy, python-format\nmsgid "Hello %s"\nmsgstr "Salut %s"\n',
    ),
    text,
  );
  assert.ok(
    text.includes(
      '# draft: "claude-opus-4" 2026-11-28T19:40:05Z\n# draft-previous: fuzzy "Ancien texte"\n#, fuzzy\n' +
        '#| msgid "Old text"\nmsgid "New text"\n',
    ),
    text,
  );
  assert.ok(
    text.includes('# draft: null 2026-11-28T19:40:05Z\n#, fuzzy\nmsgid "Empty"\nmsgstr "Vide"\n'),
    text,
  );
  assert.ok(
    text.includes('# draft-previous: ["%d fichier","%d fichiers"]\n#, fuzzy\nmsgid "%d file"\n'),
    text,
  );
  const back = reread(catalog);
  assert.deepEqual(readDraft(entry(back, "Hello %s")), {
    author: "claude-opus-4",
    date: "2026-11-28T19:40:05Z",
    previous: { msgstr: "Bonjour %s", msgstrPlural: null, fuzzy: false },
  });
  assert.deepEqual(readDraft(entry(back, "%d file"))!.previous, {
    msgstr: null,
    msgstrPlural: ["%d fichier", "%d fichiers"],
    fuzzy: false,
  });
  assert.equal(readDraft(entry(back, "Brand new"))!.previous, null);
  assert.deepEqual(catalogueDrafts(back).map((d) => d.message.msgid), [
    "Hello %s",
    "New text",
    "Empty",
    "%d file",
    "Brand new",
  ]);
  assert.deepEqual(catalogueDrafts(back, null).map((d) => d.message.msgid), ["Empty", "%d file"]);
  // Drafts count as fuzzy in progress, as msgfmt --statistics counts them (they are not compiled).
  assert.deepEqual(countCatalogue(back).entries, { translated: 0, fuzzy: 5, untranslated: 0, obsolete: 0 });
});

Deno.test("a draft over a draft keeps the first one's previous translation; draft: false unmarks", () => {
  const first =
    applyWrite(catalogue(), [{ msgid: "Hello %s", msgstr: "Salut %s", draft: true, draft_author: "a" }], {
      now: NOW,
    }).catalog;
  const second =
    applyWrite(first, [{ msgid: "Hello %s", msgstr: "Coucou %s", draft: true, draft_author: "b" }], {
      now: new Date("2026-11-29T00:00:00Z"),
    }).catalog;
  assert.deepEqual(readDraft(entry(reread(second), "Hello %s")), {
    author: "b",
    date: "2026-11-29T00:00:00Z",
    previous: { msgstr: "Bonjour %s", msgstrPlural: null, fuzzy: false },
  });
  // A write that leaves draft out keeps the mark while the entry stays fuzzy…
  const edited = applyWrite(second, [{ msgid: "Hello %s", msgstr: "Coucou, %s" }]).catalog;
  assert.equal(readDraft(entry(reread(edited), "Hello %s"))!.author, "b");
  // …and an entry no longer fuzzy is no longer a draft: its mark lines go.
  const unfuzzied = reread(
    applyWrite(second, [{ msgid: "Hello %s", msgstr: "Coucou %s", fuzzy: false }]).catalog,
  );
  assert.deepEqual(entry(unfuzzied, "Hello %s").translatorComments, ["A note of the team"]);
  const unmarked = reread(
    applyWrite(second, [{ msgid: "Hello %s", msgstr: "Coucou %s", draft: false }]).catalog,
  );
  assert.deepEqual(entry(unmarked, "Hello %s").translatorComments, ["A note of the team"]);
  assert.deepEqual(entry(unmarked, "Hello %s").flags, ["python-format"]);
  // draft: false on an entry fuzzy for another reason (its source changed) keeps it fuzzy.
  const other = reread(
    applyWrite(catalogue(), [{ msgid: "New text", msgstr: "Ancien texte", draft: false }]).catalog,
  );
  assert.deepEqual(entry(other, "New text").flags, ["fuzzy"]);
});

Deno.test("a tcomment sent back as read keeps the mark; a forged mark line is refused", () => {
  const drafted = reread(
    applyWrite(catalogue(), [{ msgid: "Hello %s", msgstr: "Salut %s", draft: true, draft_author: "a" }], {
      now: NOW,
    }).catalog,
  );
  const asRead = entry(drafted, "Hello %s").translatorComments.join("\n");
  const again = reread(
    applyWrite(drafted, [{ msgid: "Hello %s", msgstr: "Salut %s", tcomment: asRead + "\nChecked by Ann" }])
      .catalog,
  );
  assert.deepEqual(entry(again, "Hello %s").translatorComments, [
    "A note of the team",
    "Checked by Ann",
    'draft: "a" 2026-11-28T19:40:05Z',
    'draft-previous: "Bonjour %s"',
  ]);
  for (
    const [base, tcomment] of [
      [catalogue(), 'draft: "the boss" 2026-01-01T00:00:00Z'],
      [drafted, asRead.replace('"a"', '"the boss"')],
      [catalogue(), 'draft-previous: "x"'],
    ] as const
  ) {
    assert.throws(
      () => applyWrite(base, [{ msgid: "Hello %s", msgstr: "Salut %s", tcomment }]),
      (e: Error) =>
        e instanceof InvalidInputError && /is the draft mark, written by draft: true/.test(e.message),
    );
  }
});

Deno.test("draft writes that cannot be a draft are refused, naming why", async (t) => {
  const cases: [string, Parameters<typeof applyWrite>[1][number], RegExp][] = [
    [
      "an author without draft: true",
      { msgid: "Hello %s", msgstr: "x", draft_author: "a" },
      /send draft: true/,
    ],
    ["a draft without translation", { msgid: "Hello %s", msgstr: "", draft: true }, /needs a translation/],
    [
      "a draft with fuzzy: false",
      { msgid: "Hello %s", msgstr: "x", draft: true, fuzzy: false },
      /fuzzy: false/,
    ],
    ["an obsolete draft", { msgid: "Hello %s", msgstr: "x", draft: true, obsolete: true }, /obsolete/],
    ["an author past 200 characters", {
      msgid: "Hello %s",
      msgstr: "x",
      draft: true,
      draft_author: "a".repeat(201),
    }, /at most 200/],
    ["an author with a lone surrogate", {
      msgid: "Hello %s",
      msgstr: "x",
      draft: true,
      draft_author: "a\ud800",
    }, /surrogate/],
  ];
  for (const [name, write, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => applyWrite(catalogue(), [write]),
        (e: Error) => e instanceof InvalidInputError && message.test(e.message),
      );
    });
  }
});

/** Author strings crafted to end the comment line, start another, or read as something else. */
const HOSTILE_AUTHORS = [
  "two\nlines",
  'a\n# draft: "the boss" 2020-01-01T00:00:00Z',
  "carriage\rreturn",
  "ends with a backslash\\",
  'quote " and \\" escaped',
  "File: a.py, line: 12",
  "line\u2028separator\u2029paragraph",
  "next line\u0085 and C1 \u009b controls",
  "nul\u0000 and eot\u0004 and del\u007f",
  '\n#~ msgid "x"\n#~ msgstr "y"',
  '\nmsgid "injected"\nmsgstr ""',
  "Zoë 張三 🤖",
  "",
  " ",
  "a".repeat(200),
];

Deno.test("no author string makes a second comment line or breaks the file: each reads back as given", async (t) => {
  for (const author of HOSTILE_AUTHORS) {
    await t.step(JSON.stringify(author.slice(0, 40)), async () => {
      const { catalog } = applyWrite(catalogue(), [
        { msgid: "Hello %s", msgstr: "Salut %s", draft: true, draft_author: author },
      ], { now: NOW });
      const bytes = encodePo(catalog);
      const text = new TextDecoder().decode(bytes);
      const back = parsePo(bytes, "fr.po");
      // The same entries, the same comment lines: one line of mark per kind, nothing injected.
      assert.deepEqual(back.messages.map((m) => m.msgid), catalogue().messages.map((m) => m.msgid));
      const hello = entry(back, "Hello %s");
      assert.equal(hello.translatorComments.length, 3, text);
      assert.deepEqual(readDraft(hello)!.author, author);
      assert.equal(text.split("\n").filter((l) => l.startsWith("# draft: ")).length, 1, text);
      if (HAS_MSGCAT) {
        // gettext reads the file as written: msgcat prints the same bytes, msgfmt -c accepts it.
        assert.equal(await gettext(["msgcat", "-", "-o", "-"], bytes), text);
        await gettext(["msgfmt", "-c", "-", "-o", "/dev/null"], bytes);
      }
    });
  }
});

/** Runs a gettext program with `input` on stdin; its stdout, or a thrown error with its stderr. */
async function gettext(
  command: string[],
  input: Uint8Array,
  env: Record<string, string> = {},
): Promise<string> {
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input);
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  if (!out.success) throw new Error(`${command.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** A catalogue with drafts of every kind, as the service writes it. */
function drafted(): PoCatalog {
  return applyWrite(catalogue(), [
    { msgid: "Hello %s", msgstr: "Salut %s", draft: true, draft_author: 'model "x"\n# y' },
    { msgid: "New text", msgstr: "Nouveau texte", draft: true, draft_author: "張三" },
    { msgid: "%d file", msgstr: "", msgstr_plural: { "0": "%d doc", "1": "%d docs" }, draft: true },
  ], { now: NOW }).catalog;
}

/** The drafts of a file's text as the review lane sees them (msgid, author, date, previous). */
function draftsOf(text: string) {
  return catalogueDrafts(catalogue(text)).map((d) => ({ msgid: d.message.msgid, ...d.mark }));
}

/** The template of {@link SOURCE}: "New text" became "New text!" upstream. */
const TEMPLATE = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '#, python-format\nmsgid "Hello %s"\nmsgstr ""\n\nmsgid "New text!"\nmsgstr ""\n\n' +
  'msgid "Empty"\nmsgstr ""\n\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';

Deno.test("drafts survive msgcat 0.21 byte for byte, and msgmerge 0.21 in their meaning", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async () => {
  const bytes = encodePo(drafted());
  const text = new TextDecoder().decode(bytes);
  assert.equal(await gettext(["msgcat", "-", "-o", "-"], bytes), text);
  const dir = await Deno.makeTempDir({ prefix: "h5-drafts-" });
  try {
    await Deno.writeFile(`${dir}/fr.po`, bytes);
    await Deno.writeTextFile(`${dir}/fr.pot`, TEMPLATE);
    const merged = await gettext(
      ["msgmerge", "-q", "--previous", `${dir}/fr.po`, `${dir}/fr.pot`, "-o", "-"],
      bytes,
    );
    // Every draft is still one, with the same author, date and previous translation, including
    // "New text", which msgmerge matched to the changed msgid "New text!" (fuzzy, #| kept).
    assert.deepEqual(
      draftsOf(merged),
      draftsOf(text).map((d) => d.msgid === "New text" ? { ...d, msgid: "New text!" } : d),
    );
    assert.equal(draftsOf(merged).length, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** gettext 0.23.1 (Debian trixie's) in its tree, when it has been built there. */
const GETTEXT23 = new URL("../../shared/tools/gettext-0.23", import.meta.url).pathname;
const HAS_GETTEXT23 = (() => {
  try {
    return Deno.statSync(GETTEXT23).isFile &&
      Deno.statSync(`${Deno.env.get("GETTEXT23_ROOT") ?? "/opt/gettext-0.23"}/usr/bin/msgmerge`).isFile;
  } catch {
    return false;
  }
})();
if (!HAS_GETTEXT23) {
  console.log(
    "not run in po_drafts_test.ts: tests that need gettext 0.23.1 (../shared/tools/gettext-0.23) are ignored (not found)",
  );
}

Deno.test("drafts survive msgcat 0.23.1 byte for byte, and msgmerge 0.23.1 in their meaning", {
  ignore: !HAS_GETTEXT23,
}, async () => {
  const bytes = encodePo(drafted());
  const text = new TextDecoder().decode(bytes);
  assert.equal(await gettext([GETTEXT23, "msgcat", "-", "-o", "-"], bytes), text);
  // Only stdin and stdout cross into gettext 0.23's tree: the template goes in the environment and
  // is written to a temp file inside it, the catalogue comes on stdin.
  const merged = await gettext(
    [
      GETTEXT23,
      "sh",
      "-c",
      't=$(mktemp) && printf "%s" "$POT" > "$t" && msgmerge -q --previous - "$t" -o -; s=$?; rm -f "$t"; exit $s',
    ],
    bytes,
    { POT: TEMPLATE },
  );
  assert.deepEqual(
    draftsOf(merged),
    draftsOf(text).map((d) => d.msgid === "New text" ? { ...d, msgid: "New text!" } : d),
  );
  assert.equal(draftsOf(merged).length, 3);
});

Deno.test("mayHoldDrafts tells the bytes that may hold a mark (the tree listing parses only those)", () => {
  const encode = (s: string) => new TextEncoder().encode(s);
  assert.equal(mayHoldDrafts(encodePo(drafted())), true);
  assert.equal(mayHoldDrafts(encodePo(catalogue())), false);
  for (
    const [text, expected] of [["draft:", true], ["xdraft:", true], ["draft :", false], ["raft:", false], [
      ":",
      false,
    ]] as const
  ) {
    assert.equal(mayHoldDrafts(encode(text)), expected, text);
  }
});
