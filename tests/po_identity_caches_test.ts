/**
 * Tests of the rule the PO engine's identity caches rest on (`lib/po/_identity_caches.ts`): a
 * message, message list or catalogue once handed out is never changed.
 */
import assert from "node:assert/strict";
import {
  applyWrite,
  canonicalCatalog,
  encodePo,
  parsePo,
  type PoCatalog,
  type PoMessage,
} from "../lib/po/mod.ts";
import { freezeHandedOut } from "../lib/po/_identity_caches.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);

const FILE = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' +
  '# note\n#. extracted\n#: src/a.c:1 src/b.c:2\n#, fuzzy, c-format\nmsgid "one %d"\nmsgid_plural "many %d"\n' +
  'msgstr[0] "un %d"\nmsgstr[1] "des %d"\n\n#~ msgid "old"\n#~ msgstr "ancien"\n';

/** Every change the caches forbid, each of which the compiler must refuse. Never called. */
function forbiddenChanges(cat: PoCatalog, m: PoMessage): void {
  // @ts-expect-error a message's fields are read-only
  m.msgstr = "changed";
  // @ts-expect-error a message's lists are read-only
  m.flags.push("fuzzy");
  // @ts-expect-error a message's lists are read-only
  m.translatorComments[0] = "changed";
  // @ts-expect-error plural forms are read-only
  m.msgstrPlural![0] = "changed";
  // @ts-expect-error a reference is read-only
  m.references[0].line = 3;
  // @ts-expect-error a catalogue's message list is read-only
  cat.messages.push(m);
  // @ts-expect-error a catalogue's message list is read-only
  cat.messages[0] = m;
  // @ts-expect-error a catalogue's fields are read-only
  cat.charset = "ASCII";
}

Deno.test("the compiler refuses to change a message, its lists and references, or a catalogue", () => {
  // The test is the type check of forbiddenChanges above (an unused @ts-expect-error is an error).
  assert.equal(typeof forbiddenChanges, "function");
});

/** Runs `fn` with everything handed out frozen. */
function frozen<T>(fn: () => T): T {
  freezeHandedOut(true);
  try {
    return fn();
  } finally {
    freezeHandedOut(false);
  }
}

Deno.test("in the checking mode, a catalogue from parsePo is frozen through and through", () => {
  const cat = frozen(() => parsePo(utf8(FILE)));
  const m = cat.messages[1]!;
  assert.equal(m.msgid, "one %d");
  for (const value of [cat, cat.messages, m, m.flags, m.references, m.references[0], m.msgstrPlural]) {
    assert.ok(Object.isFrozen(value));
  }
  assert.throws(() => {
    (m as { msgstr: string }).msgstr = "changed";
  }, TypeError);
  assert.throws(() => (m.flags as string[]).push("no-wrap"), TypeError);
  assert.throws(() => (cat.messages as PoMessage[]).push(m), TypeError);
});

Deno.test("in the checking mode, a write and a read-back change no message they were given", () => {
  frozen(() => {
    const cat = parsePo(utf8(FILE));
    const before = encodePo(cat);
    // Updates a message, revives the obsolete one, adds one: each a new object.
    const { catalog } = applyWrite(cat, [
      { msgid: "one %d", msgid_plural: "many %d", msgstr_plural: { "0": "une %d", "1": "des %d" } },
      { msgid: "old", msgstr: "vieux" },
      { msgid: "new", msgstr: "nouveau", occurrences: ["src/c.c:3"], flags: ["fuzzy"] },
    ]);
    assert.ok(catalog.messages.every((m) => Object.isFrozen(m)));
    assert.deepEqual(canonicalCatalog(catalog), catalog);
    // The catalogue read first is as it was, and still formats to the same bytes.
    assert.deepEqual(encodePo(cat), before);
    assert.equal(cat.messages[1]?.msgstrPlural?.[0], "un %d");
  });
});

Deno.test("every identity-keyed cache of lib/po lives in _identity_caches.ts", () => {
  const owners: string[] = [];
  // Every module of the engine: the folder and its subfolders (read/, write/, layout/, …). Not
  // checks/: its caches are keyed by a check run's own pairs and specs, never by what the engine
  // hands out, so the rule (a handed-out object is never changed) is not what they rest on.
  const walk = (dir: URL, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory && entry.name === "checks") continue;
      if (entry.isDirectory) walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(".ts")) {
        const text = Deno.readTextFileSync(new URL(entry.name, dir));
        if (/new Weak(Map|Set)\b/.test(text)) owners.push(prefix + entry.name);
      }
    }
  };
  walk(new URL("../lib/po/", import.meta.url), "");
  assert.deepEqual(owners, ["_identity_caches.ts"]);
});
