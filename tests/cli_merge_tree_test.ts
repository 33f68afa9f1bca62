/**
 * `main.ts merge --update PO_DIR POT_DIR`: every catalogue merged with its template of the same
 * relative name, as `msgmerge -U` would merge each pair; one without a template is reported.
 */
import assert from "node:assert/strict";
import { HAS_MSGCAT } from "./_prerequisites.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

const HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const po = (pairs: [string, string][]) =>
  HEADER + pairs.map(([id, str]) => `msgid "${id}"\nmsgstr "${str}"\n`).join("\n");
const pot = (ids: string[]) =>
  'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-11-25 12:00+0000\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  ids.map((id) => `msgid "${id}"\nmsgstr ""\n`).join("\n");

Deno.test("merge --update over a tree merges each catalogue with its template, as msgmerge -U does each pair", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "merge-tree-" }));
  try {
    await Deno.mkdir(`${dir}/po/library`, { recursive: true });
    await Deno.mkdir(`${dir}/pot/library`, { recursive: true });
    await Deno.writeTextFile(`${dir}/po/glossary.po`, po([["Glossary", "Glossaire"], ["gone", "parti"]]));
    await Deno.writeTextFile(`${dir}/pot/glossary.pot`, pot(["Glossary", "annotation"]));
    await Deno.writeTextFile(`${dir}/po/library/os.po`, po([["Files", "Fichiers"]]));
    await Deno.writeTextFile(`${dir}/pot/library/os.pot`, pot(["Files", "Directories"]));
    await Deno.writeTextFile(`${dir}/po/orphan.po`, po([["Alone", "Seul"]]));
    const copies = HAS_MSGCAT ? await Deno.makeTempDir({ prefix: "merge-tree-msgmerge-" }) : null;
    if (copies) {
      for (const name of ["glossary", "os"]) {
        await Deno.copyFile(`${dir}/po/${name === "os" ? "library/os" : name}.po`, `${copies}/${name}.po`);
      }
    }
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "--no-prompt",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-sys=uid",
        MAIN,
        "merge",
        "--update",
        `${dir}/po`,
        `${dir}/pot`,
      ],
      env: { PO_LOCK_DIR: "beside" },
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, err);
    assert.match(err, /orphan\.pot/, "the catalogue without a template is named");
    assert.match(err, /merge: 2 of 3 catalogues merged with their templates/);
    const glossary = await Deno.readTextFile(`${dir}/po/glossary.po`);
    assert.match(glossary, /msgid "annotation"\nmsgstr ""/);
    assert.match(glossary, /#~ msgid "gone"\n#~ msgstr "parti"/);
    assert.match(await Deno.readTextFile(`${dir}/po/library/os.po`), /msgid "Directories"/);
    assert.equal(await Deno.readTextFile(`${dir}/po/orphan.po`), po([["Alone", "Seul"]]), "left alone");
    if (copies) {
      // msgmerge -U on each pair: the same bytes.
      for (const [name, path] of [["glossary", "glossary"], ["os", "library/os"]]) {
        const r = await new Deno.Command("msgmerge", {
          args: ["-q", "-U", "--backup=off", `${copies}/${name}.po`, `${dir}/pot/${path}.pot`],
        }).output();
        assert.ok(r.success, new TextDecoder().decode(r.stderr));
        assert.equal(
          await Deno.readTextFile(`${dir}/po/${path}.po`),
          await Deno.readTextFile(`${copies}/${name}.po`),
        );
      }
      await Deno.remove(copies, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
