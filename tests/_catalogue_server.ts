/**
 * For the write tests: a catalogue like a partly translated python-docs file (python-format
 * entries, fuzzy ones, untranslated ones, a plural and an obsolete entry), laid out as msgcat
 * writes it, served by the app over a real socket on 127.0.0.1.
 *
 * @module
 */
import { encodePo, parsePo } from "../lib/po/mod.ts";
import { poFixture } from "./_helpers.ts";

/** The msgid of entry `i` of {@link partlyTranslated}. */
export function msgidOf(i: number): string {
  return i % 4 === 0
    ? `%(count)d item number ${i} was not found in %(place)s`
    : `Entry number ${i} of the glossary: see the tutorial section ${i % 97}`;
}

/**
 * A catalogue of `n` entries: every 4th is `python-format`, every 7th fuzzy (`fuzzy,
 * python-format, no-wrap` when also python-format), every 3rd untranslated; then one plural entry
 * ("%d file" / "%d files") and one obsolete entry ("Gone"). As msgcat prints it.
 */
export function partlyTranslated(n: number): string {
  const parts = [
    '# French translation.\nmsgid ""\nmsgstr ""\n"Project-Id-Version: Python 3.13\\n"\n"Language: fr\\n"\n' +
    '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
    '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n',
  ];
  for (let i = 0; i < n; i++) {
    const flags = [
      i % 7 === 0 && i % 3 !== 0 ? "fuzzy" : "",
      i % 4 === 0 ? "python-format" : "",
      i % 28 === 0 && i % 3 !== 0 ? "no-wrap" : "",
    ].filter((f) => f !== "");
    const msgstr = i % 3 === 0
      ? ""
      : i % 4 === 0
      ? `%(count)d élément numéro ${i} introuvable dans %(place)s`
      : `Entrée numéro ${i} du glossaire : voir la section ${i % 97} du tutoriel`;
    parts.push(
      `#: ../../glossary.rst:${10 + i}\n` + (flags.length > 0 ? `#, ${flags.join(", ")}\n` : "") +
        `msgid "${msgidOf(i)}"\nmsgstr "${msgstr}"\n`,
    );
  }
  parts.push(
    '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichier"\nmsgstr[1] "%d fichiers"\n',
  );
  parts.push('#~ msgid "Gone"\n#~ msgstr "Parti"\n');
  // As msgcat lays it out (the writer's output equals msgcat's: tests/po_write_test.ts).
  return new TextDecoder().decode(encodePo(parsePo(new TextEncoder().encode(parts.join("\n")))));
}

/** A JSON answer: status, content type, body. */
export interface Answer {
  status: number;
  type: string | null;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * A temp root holding `files`, and the app serving it on a real socket: `post` sends a JSON body
 * over HTTP (with extra headers if given). Dispose to stop the server and remove the root.
 */
export async function servedCatalogues(files: Record<string, string>) {
  const f = await poFixture(files);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, f.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    root: f.root,
    path: f.path,
    app: f.app,
    async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
      const res = await fetch(base + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await f[Symbol.asyncDispose]();
    },
  };
}
