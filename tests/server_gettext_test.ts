/**
 * The service writes each root in its gettext's layout: PO_GETTEXT, the root's `.po-tools.toml`, or
 * what its catalogues are laid out as (a mixed root is noted); writes and header updates follow it.
 */
import assert from "node:assert/strict";
import { chooseLayoutGenerations } from "../cli/gettext_choice.ts";
import { encodePo, layoutGenerationOf, parsePo, useLayoutGenerations } from "../lib/po/mod.ts";
import { poFixture, servedOnLoopback } from "./_helpers.ts";

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
const LONG = (n: number) =>
  `Entry ${n}: use the :meth:\`str.format\` method; see :ref:\`formatstrings\` and :class:` +
  "`collections.OrderedDict` docs, e.g. the os.path module of https://docs.python.org/3/library/os.path.html";
/** A catalogue of long reST entries as `generation`'s msgcat lays it out. */
function laidOut(generation: "0.21" | "0.23", count = 3): string {
  const text = HEADER +
    Array.from({ length: count }, (_, i) => `msgid "${LONG(i)}"\nmsgstr "${LONG(i)}"\n`).join("\n");
  return new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(text)), { generation }));
}

Deno.test("the fixtures differ between the generations", () => {
  assert.notEqual(laidOut("0.21"), laidOut("0.23"));
});

Deno.test("each root gets PO_GETTEXT, else its .po-tools.toml, else its catalogues' generation", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "h1-roots-" }));
  try {
    const files: Record<string, string> = {
      "pinned/.po-tools.toml": 'gettext = "0.23"\n',
      "pinned/a.po": laidOut("0.21"),
      "newer/fr/a.po": laidOut("0.23"),
      "newer/fr/b.po": laidOut("0.23", 2),
      "older/a.po": laidOut("0.21"),
      "mixed/a.po": laidOut("0.23"),
      "mixed/b.po": laidOut("0.21"),
      "mixed/c.po": laidOut("0.21", 2),
      "bad/.po-tools.toml": 'gettext = "1.0"\n',
    };
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(`${base}/${name.slice(0, name.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${base}/${name}`, text);
    }
    await Deno.mkdir(`${base}/bad/.git`); // the repository's top: nothing above it is read
    const roots = ["pinned", "newer", "older", "mixed", "bad"].map((r) => `${base}/${r}`);
    const { roots: chosen, notes } = await chooseLayoutGenerations(roots, null);
    assert.deepEqual(chosen.map((r) => [r.generation, r.source === "detected" ? "detected" : "file"]), [
      ["0.23", "file"],
      ["0.23", "detected"],
      ["0.21", "detected"],
      ["0.21", "detected"],
      ["0.21", "detected"],
    ]);
    assert.equal(notes.length, 2);
    assert.match(
      notes[0]!,
      /mixed: gettext layout: the catalogues are mixed \(2 laid out by gettext 0\.21 only, 1 by 0\.22\+ only/,
    );
    assert.match(notes[1]!, /bad: \.po-tools\.toml line 1: gettext must be "0\.21" or "0\.23"/);
    assert.equal(layoutGenerationOf(`${base}/newer/fr/a.po`), "0.23");
    assert.equal(layoutGenerationOf(`${base}/older/a.po`), "0.21");
    assert.equal(layoutGenerationOf(`${base}/pinned/x/y.po`), "0.23");
    const forced = await chooseLayoutGenerations(roots, "0.23");
    assert.ok(forced.roots.every((r) => r.generation === "0.23" && r.source === "PO_GETTEXT"));
    assert.equal(layoutGenerationOf(`${base}/older/a.po`), "0.23");
  } finally {
    useLayoutGenerations(() => "0.21");
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a write and a header update over HTTP keep a 0.23 root in 0.23's layout", async () => {
  await using f = await poFixture({ "fr/a.po": laidOut("0.23") });
  const { chooseLayoutGenerations: choose } = await import("../cli/gettext_choice.ts");
  await choose([f.root], null); // detected: 0.23
  const served = servedOnLoopback(f.app);
  try {
    const w = await served.post("/po/write", {
      file_path: f.path("fr/a.po"),
      entries: [{ msgid: LONG(1), msgstr: LONG(1) + " (revu)" }],
    });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    // The answer names the layout written: it once said 0.21 whatever the root's gettext.
    assert.equal(w.body.layout.gettext, "0.23");
    assert.match(w.body.message, /laid out as GNU msgcat 0\.23 lays it out/);
    const after = await Deno.readTextFile(f.path("fr/a.po"));
    // The whole file is 0.23's layout of what it now holds (0.21 would re-wrap every entry).
    const catalog = parsePo(new TextEncoder().encode(after));
    assert.equal(after, new TextDecoder().decode(encodePo(catalog, { generation: "0.23" })));
    assert.notEqual(after, new TextDecoder().decode(encodePo(catalog, { generation: "0.21" })));
    assert.ok(after.includes("(revu)"));
    const h = await served.post("/po/header/update", {
      file_path: f.path("fr/a.po"),
      set: { Language: "fr" },
    });
    assert.equal(h.status, 200, JSON.stringify(h.body));
    assert.match(h.body.message, /GNU msgcat 0\.23/);
    const updated = await Deno.readTextFile(f.path("fr/a.po"));
    assert.ok(updated.includes("Language: fr"));
    assert.equal(
      updated,
      new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(updated)), { generation: "0.23" })),
    );
  } finally {
    useLayoutGenerations(() => "0.21");
    await served.server.shutdown();
  }
});
