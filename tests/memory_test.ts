/**
 * The translation memory (`suggest`): msgmerge's measure (over UTF-8 bytes) against a plain LCS table, earlier
 * translations found for an edited msgid of real catalogues, the same msgid in another language,
 * obsolete entries marked, and a write through the real server socket seen by the next query
 * without a rebuild.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { rootLanguage, TranslationMemory } from "../lib/memory/mod.ts";
import { parsePo, PO_CODEC, type PoMessage } from "../lib/po/mod.ts";
import { CatalogueStore } from "../lib/store/mod.ts";
import { Workbench } from "../lib/workbench/mod.ts";
import { servedCatalogues } from "./_catalogue_server.ts";
import { poFixture, SHARED_DIR } from "./_helpers.ts";
import { lacks } from "./_prerequisites.ts";

/** The textbook LCS table's similarity, 2·LCS / (|a| + |b|), over the UTF-8 bytes (fstrcmp's). */
function lcsSimilarity(a: string, b: string): number {
  const x = new TextEncoder().encode(a), y = new TextEncoder().encode(b);
  const row = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= y.length; j++) {
      const up = row[j]!;
      row[j] = x[i - 1] === y[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = up;
    }
  }
  return x.length + y.length === 0 ? 1 : (2 * row[y.length]!) / (x.length + y.length);
}

Deno.test("a suggestion's score is msgmerge's similarity over UTF-8 bytes, as an LCS table counts it", async () => {
  // Non-ASCII msgids: counted in UTF-16 code units (as the memory once did) most of these scores differ.
  const stored = [
    "Le module « unicodedata » donne accès à la base de données Unicode.",
    "Le module « unicodedata » donne accès aux données Unicode.",
    "Le module « codecs » définit les classes de base des codecs standards.",
    "標準ライブラリのモジュール unicodedata は Unicode データベースへのアクセスを提供します。",
    "標準ライブラリのモジュール codecs は基底クラスを定義します。",
    "Ce module donne accès à la base de données Unicode (UCD) ; voir aussi « codecs ».",
  ];
  const entries = stored.map((msgid, i) => `msgid ${JSON.stringify(msgid)}\nmsgstr "t${i}"\n`).join("\n");
  const f = await poFixture({
    "xx/a.po":
      `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: xx\\n"\n\n${entries}`,
  });
  await using _ = f;
  const queries = [
    "Le module « unicodedata » donne accès à la base de données « Unicode ».",
    "標準ライブラリのモジュール unicodedata は Unicode データベースを提供します。",
    "Le module « codecs » définit des classes de base pour les codecs.",
  ];
  let compared = 0;
  for (const msgid of queries) {
    const answer = await f.post("/po/suggest", { msgid, limit: 10 });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.suggestions.length > 0, msgid);
    for (const s of answer.body.suggestions as { msgid: string; score: number }[]) {
      const expected = Math.min(99, Math.floor(lcsSimilarity(msgid, s.msgid) * 100 + 1e-9));
      assert.equal(s.score, expected, `${msgid} | ${s.msgid}`);
      compared++;
    }
  }
  assert.ok(compared >= 4, `only ${compared} suggestions compared`);
});

Deno.test("a root's name may carry its language", () => {
  assert.equal(rootLanguage("/srv/python-docs-fr"), "fr");
  assert.equal(rootLanguage("/srv/python-docs-zh-tw"), "zh-tw");
  assert.equal(rootLanguage("/srv/po"), null);
  assert.equal(rootLanguage("/srv/locales"), null);
});

const CORPUS = new URL("corpus/po/", SHARED_DIR);

function corpus(name: string): Uint8Array {
  return Deno.readFileSync(new URL(name, CORPUS));
}

function translated(m: PoMessage): boolean {
  return !m.obsolete && m.msgid !== "" && m.msgstr !== "" && !m.flags.includes("fuzzy") &&
    m.msgidPlural === null;
}

/** Two languages of python-docs' library/stdtypes, laid out as the teams keep them. */
async function twoLanguages() {
  const fr = corpus("fr__library__stdtypes.po");
  const es = corpus("es__library__stdtypes.po");
  const f = await poFixture({
    "fr/LC_MESSAGES/library/stdtypes.po": fr,
    "es/LC_MESSAGES/library/stdtypes.po": es,
    // Another French catalogue: the one being translated, where the query comes from.
    "fr/LC_MESSAGES/library/new.po":
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n',
  });
  const frMessages = parsePo(fr, "fr.po").messages;
  const esMessages = parsePo(es, "es.po").messages;
  return { f, frMessages, esMessages };
}

Deno.test("suggest finds the earlier translation of an edited msgid of a real catalogue", {
  ignore: lacks(import.meta.url, "shared"),
}, async () => {
  const { f, frMessages, esMessages } = await twoLanguages();
  await using _ = f;
  const esById = new Map(esMessages.filter(translated).map((m) => [m.msgid, m]));
  const counts = new Map<string, number>();
  for (const m of frMessages) counts.set(m.msgid, (counts.get(m.msgid) ?? 0) + 1);
  // A sentence of some length, translated in both languages, once in the French file.
  const original = frMessages.find((m) =>
    translated(m) && counts.get(m.msgid) === 1 && esById.has(m.msgid) && m.msgid.length > 120 &&
    m.msgid.split(" ").length > 20
  )!;
  assert.ok(original, "a long msgid translated in fr and es");
  // One word edited, as upstream does between two versions of the documentation.
  const words = original.msgid.split(" ");
  const at = words.findIndex((w, i) => i > 3 && /^[a-z]{5,}$/.test(w));
  words[at] = "zebra";
  const edited = words.join(" ");

  const newPo = f.path("fr/LC_MESSAGES/library/new.po");
  const answer = await f.post("/po/suggest", { file_path: newPo, msgid: edited, limit: 5 });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const top = answer.body.suggestions[0];
  assert.equal(top.msgid, original.msgid);
  assert.equal(top.msgstr, original.msgstr);
  assert.equal(top.language, "fr");
  assert.equal(top.file_path, f.path("fr/LC_MESSAGES/library/stdtypes.po"));
  assert.equal(top.same_msgid, false);
  assert.equal(top.obsolete, false);
  assert.ok(top.score >= 90 && top.score < 100, String(top.score));
  // Same language first: no Spanish among the close ones (the edited msgid has no exact twin).
  assert.ok(answer.body.suggestions.every((s: { language: string }) => s.language === "fr"));
  assert.deepEqual(answer.body.terms, []);

  // The msgid itself, asked from the French catalogue being translated: its French translation
  // (score 100), then the same msgid's Spanish one.
  const exact = await f.post("/po/suggest", { file_path: newPo, msgid: original.msgid, limit: 5 });
  const suggestions = exact.body.suggestions as {
    score: number;
    language: string;
    msgstr: string;
    same_msgid: boolean;
  }[];
  assert.deepEqual(
    { score: suggestions[0]!.score, language: suggestions[0]!.language, same: suggestions[0]!.same_msgid },
    { score: 100, language: "fr", same: true },
  );
  const spanish = suggestions.find((s) => s.language === "es");
  assert.ok(spanish, JSON.stringify(suggestions));
  assert.equal(spanish.msgstr, esById.get(original.msgid)!.msgstr);
  assert.equal(spanish.same_msgid, true);
  assert.ok(suggestions.indexOf(spanish) > 0, "the other language after the same one");

  // Asked for the entry itself, the memory does not offer it its own translation.
  const frPo = f.path("fr/LC_MESSAGES/library/stdtypes.po");
  const itself = await f.post("/po/suggest", { file_path: frPo, msgid: original.msgid, msgctxt: null });
  assert.ok(
    itself.body.suggestions.every((s: { file_path: string; msgid: string; language: string }) =>
      !(s.file_path === frPo && s.msgid === original.msgid)
    ),
  );
  assert.ok(itself.body.suggestions.some((s: { language: string }) => s.language === "es"));

  // Without a catalogue: every language alike, the exact ones first.
  const anywhere = await f.post("/po/suggest", { msgid: original.msgid, limit: 10 });
  const languages = new Set(
    anywhere.body.suggestions.filter((s: { score: number }) => s.score === 100).map((
      s: { language: string },
    ) => s.language),
  );
  assert.deepEqual([...languages].sort(), ["es", "fr"]);
});

Deno.test(
  "suggest offers obsolete entries, marked",
  { ignore: lacks(import.meta.url, "shared") },
  async () => {
    const { f, frMessages } = await twoLanguages();
    await using _ = f;
    const live = new Set(frMessages.filter((m) => !m.obsolete).map((m) => m.msgid));
    const gone = frMessages.find((m) =>
      m.obsolete && m.msgstr !== "" && !live.has(m.msgid) && m.msgid.length > 40
    )!;
    assert.ok(gone, "an obsolete entry with a translation");
    const answer = await f.post("/po/suggest", {
      file_path: f.path("fr/LC_MESSAGES/library/new.po"),
      msgid: gone.msgid + " Changed.",
      limit: 3,
    });
    const top = answer.body.suggestions[0];
    assert.equal(top.msgid, gone.msgid);
    assert.equal(top.msgstr, gone.msgstr);
    assert.equal(top.obsolete, true);
  },
);

const FR_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n';
const DE_HEADER = FR_HEADER.replace("Language: fr", "Language: de");

Deno.test("a write through the server socket is in the next suggestion, without a rebuild", async () => {
  await using served = await servedCatalogues({
    "fr/a.po": FR_HEADER +
      'msgid "Open the configuration file."\nmsgstr "Ouvrez le fichier de configuration."\n\n' +
      'msgid "Close the window."\nmsgstr ""\n',
    "de/a.po": DE_HEADER + 'msgid "Close the window."\nmsgstr "Schließen Sie das Fenster."\n',
  });
  const frPo = served.path("fr/a.po");
  const before = await served.post("/po/suggest", { file_path: frPo, msgid: "Close the windows." });
  assert.equal(before.status, 200);
  assert.deepEqual(before.body.suggestions, []);

  const write = await served.post("/po/write", {
    file_path: frPo,
    entries: [{ msgid: "Close the window.", msgstr: "Fermez la fenêtre." }],
  });
  assert.equal(write.status, 200, JSON.stringify(write.body));
  const after = await served.post("/po/suggest", {
    file_path: served.path("fr/b.po"),
    msgid: "Close the windows.",
  });
  // fr/b.po does not exist: the path is refused as any read's would be.
  assert.equal(after.status, 404);
  const seen = await served.post("/po/suggest", { msgid: "Close the windows.", file_path: frPo });
  assert.equal(seen.status, 200);
  // The German one is not French (same language first, and "Close the windows." has no exact twin).
  assert.deepEqual(
    seen.body.suggestions.map((
      s: { msgstr: string; language: string; score: number },
    ) => [s.msgstr, s.language]),
    [["Fermez la fenêtre.", "fr"]],
  );
  assert.ok(seen.body.suggestions[0].score >= 90);

  // Asked from the German catalogue: its own translation, then the French one of the same msgid.
  const german = await served.post("/po/suggest", {
    msgid: "Close the window.",
    file_path: served.path("de/a.po"),
  });
  assert.deepEqual(
    german.body.suggestions.map((s: { msgstr: string; same_msgid: boolean }) => [s.msgstr, s.same_msgid]),
    [["Fermez la fenêtre.", true]],
  );

  // A changed translation replaces the old one.
  await served.post("/po/write", {
    file_path: frPo,
    entries: [{ msgid: "Close the window.", msgstr: "Fermer la fenêtre." }],
  });
  const changed = await served.post("/po/suggest", { msgid: "Close the window." });
  assert.deepEqual(
    changed.body.suggestions.map((s: { msgstr: string }) => s.msgstr).sort(),
    ["Fermer la fenêtre.", "Schließen Sie das Fenster."],
  );
});

Deno.test("the memory follows writes one catalogue at a time, and other processes' writes at its next check", async () => {
  await using f = await poFixture({
    "fr/a.po": FR_HEADER + 'msgid "Print a summary of the options."\nmsgstr "Ouvrez le fichier."\n',
    "fr/b.po": FR_HEADER + 'msgid "Save the file."\nmsgstr "Enregistrez le fichier."\n',
  });
  const store = new CatalogueStore({ roots: [f.root], codec: PO_CODEC });
  let clock = 1_000_000;
  const memory = new TranslationMemory(store, new Workbench(store), { refreshMs: 60_000, now: () => clock });
  try {
    await memory.start();
    assert.equal(memory.stats().entries, 2);
    const parses = store.cacheStats().parses;
    await store.update(f.path("fr/b.po"), (doc) => ({
      doc: {
        ...doc!,
        messages: doc!.messages.map((m) =>
          m.msgid === "Save the file." ? { ...m, msgstr: "Sauvez le fichier." } : m
        ),
      },
      result: null,
    }));
    // Re-indexed from the written document: nothing else read or parsed (the update's own parse only).
    assert.equal(store.cacheStats().parses, parses + 1);
    const q = (msgid: string) =>
      memory.suggest({ msgid, filePath: null, msgctxt: null, limit: 5 }).then((a) =>
        a.suggestions.map((s) => s.msgstr)
      );
    assert.deepEqual(await q("Save the file."), ["Sauvez le fichier."]);
    // Another process (an editor, git) changes a.po: seen once the check is due, not before.
    await Deno.writeTextFile(
      f.path("fr/a.po"),
      FR_HEADER + 'msgid "Print a summary of the options."\nmsgstr "Ouvre le fichier."\n',
    );
    assert.deepEqual(await q("Print a summary of the options."), ["Ouvrez le fichier."]);
    clock += 60_001;
    // The query that finds the check due starts it in the background and answers at once.
    assert.deepEqual(await q("Print a summary of the options."), ["Ouvrez le fichier."]);
    await memory.settled();
    assert.deepEqual(await q("Print a summary of the options."), ["Ouvre le fichier."]);
    await Deno.remove(f.path("fr/a.po"));
    clock += 60_001;
    await q("Print a summary of the options.");
    await memory.settled();
    assert.deepEqual(await q("Print a summary of the options."), []);
    assert.equal(memory.stats().catalogues, 1);
  } finally {
    memory.close();
  }
});

Deno.test("suggest's bounds: msgid length, limit, a path outside the roots", async () => {
  await using f = await poFixture({ "fr.po": FR_HEADER + 'msgid "a"\nmsgstr "b"\n' });
  assert.equal((await f.post("/po/suggest", { msgid: "x".repeat(20_001) })).status, 422);
  assert.equal((await f.post("/po/suggest", { msgid: "x", limit: 51 })).status, 422);
  assert.equal((await f.post("/po/suggest", { msgid: "" })).status, 422);
  assert.equal((await f.post("/po/suggest", { msgid: "a", file_path: "/etc/passwd.po" })).status, 403);
  // A long query over a tree is bounded by its work budget, and answers.
  const long = await f.post("/po/suggest", { msgid: "a ".repeat(9_999) });
  assert.equal(long.status, 200);
});

Deno.test("two msgids too long to compare within one query's bound are counted as unscored, not silently left out", async () => {
  // 2,500 words (~15,000 bytes) each: one comparison would cost more than MAX_COMPARISON_WORK (it
  // took ~0.3 s of the event loop, and a 20,000-character query could take more).
  const words = Array.from({ length: 2500 }, (_, i) => `word${i % 700}`);
  const stored = words.join(" ");
  const query = words.map((w, i) => (i === 1000 ? "zebra" : w)).join(" ");
  await using f = await poFixture({
    "fr.po": FR_HEADER + `msgid ${JSON.stringify(stored)}\nmsgstr "long"\n\n` +
      'msgid "Return the value."\nmsgstr "Renvoie la valeur."\n',
  });
  const long = await f.post("/po/suggest", { msgid: query });
  assert.equal(long.status, 200, JSON.stringify(long.body));
  assert.deepEqual(long.body.suggestions, []);
  assert.equal(long.body.unscored, 1);
  const short = await f.post("/po/suggest", { msgid: "Return the values." });
  assert.equal(short.body.suggestions[0].msgstr, "Renvoie la valeur.");
  assert.equal(short.body.unscored, undefined);
});

Deno.test("a term finds its inflected forms: the words of one stem are looked up for a short query", async () => {
  await using f = await poFixture({
    "fr.po": FR_HEADER + 'msgid "annotation"\nmsgstr "annotation (nom)"\n\nmsgid "abstract base class"\n' +
      'msgstr "classe mère abstraite"\n\nmsgid "Return the value."\nmsgstr "Renvoie la valeur."\n',
  });
  const plural = await f.post("/po/suggest", { msgid: "annotations" });
  assert.equal(plural.status, 200, JSON.stringify(plural.body));
  // Words alone found nothing here: "annotations" is no word of the catalogue.
  assert.deepEqual(plural.body.suggestions.map((s: { msgid: string }) => s.msgid), ["annotation"]);
  const classes = await f.post("/po/suggest", { msgid: "abstract base classes" });
  assert.equal(classes.body.suggestions[0]?.msgid, "abstract base class");
});

Deno.test("suggest over MCP, as an agent calls it", async () => {
  await using f = await poFixture({
    "fr.po": FR_HEADER + 'msgid "Return the value."\nmsgstr "Renvoie la valeur."\n',
  });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    fetch: (url, init) => Promise.resolve(f.app.request(url instanceof Request ? url : String(url), init)),
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "suggest", arguments: { msgid: "Return the values." } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    const { suggestions } = result.structuredContent as { suggestions: { msgstr: string; score: number }[] };
    assert.equal(suggestions[0]!.msgstr, "Renvoie la valeur.");
    assert.ok(suggestions[0]!.score >= 90);
  } finally {
    await client.close();
  }
});

Deno.test("the score agrees with msgmerge's own fuzzy verdict, up to its 0.6 threshold", {
  ignore: lacks(import.meta.url, "shared", "msgcat"),
}, async () => {
  // Pairs of corpus msgids: one with a word edited, and one with an unrelated msgid of the file.
  const messages = parsePo(corpus("fr__library__os.po"), "os.po").messages.filter((m) =>
    translated(m) && m.msgid.length > 30 && m.msgid.length < 400 && !m.msgid.includes("\\")
  );
  const header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  const quote = (s: string) => JSON.stringify(s);
  let compared = 0;
  for (let i = 0; i < 40; i += 2) {
    const a = messages[i * 7]!.msgid;
    const words = a.split(" ");
    words[Math.floor(words.length / 2)] = "zebra";
    for (const b of [words.join(" "), messages[i * 7 + 3]!.msgid]) {
      const value = lcsSimilarity(a, b);
      const dir = await Deno.makeTempDir({ prefix: "memory-msgmerge-" });
      try {
        await Deno.writeTextFile(`${dir}/a.po`, `${header}msgid ${quote(a)}\nmsgstr "X"\n`);
        await Deno.writeTextFile(`${dir}/t.pot`, `${header}msgid ${quote(b)}\nmsgstr ""\n`);
        const out = await new Deno.Command("msgmerge", { args: ["-q", "a.po", "t.pot", "-o", "-"], cwd: dir })
          .output();
        const merged = new TextDecoder().decode(out.stdout);
        // Taken as a fuzzy translation of the new msgid (not only kept as an obsolete #~ entry).
        assert.equal(/^msgstr "X"$/m.test(merged), value >= 0.6, `${value}: ${a} | ${b}`);
        compared++;
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  }
  assert.ok(compared >= 20, String(compared));
});

Deno.test("suggest gives the msgid's glossary terms with their agreed translations (the root's glossary.po)", async () => {
  await using f = await poFixture({
    "glossary.po": FR_HEADER + 'msgid "built-in"\nmsgstr "natif"\n\nmsgid "iterable"\nmsgstr "itérable"\n',
    "library/functions.po": FR_HEADER +
      'msgid "Return a built-in value."\nmsgstr "Renvoie une valeur native."\n',
  });
  const at = await f.post("/po/suggest", {
    file_path: f.path("library/functions.po"),
    msgid: "Any built-in type.",
  });
  assert.equal(at.status, 200);
  assert.deepEqual(at.body.terms, [{ term: "built-in", translation: "natif" }]);
  // Without a catalogue: the first root's terminology.
  const bare = await f.post("/po/suggest", { msgid: "An iterable of built-in values." });
  assert.deepEqual(bare.body.terms.map((t: { term: string }) => t.term).sort(), ["built-in", "iterable"]);
});
