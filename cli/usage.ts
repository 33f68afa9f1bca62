/**
 * What `main.ts --help` and `main.ts MODE --help` print.
 *
 * @module
 */

/** `main.ts --help`. */
export const USAGE = `po-tools: PO catalogues, greeting and patent search, over HTTP and MCP

Usage: main.ts [MODE] [OPTIONS]

Modes:
  serve              the HTTP server (default); configured by environment variables (README)
  mcp                the MCP server over stdio
  wrap [OPTS] PATH…  lay PO files out as msgcat does (powrap-compatible); main.ts wrap --help
  check [OPTS] PATH… check translations (placeholders, reST, plural forms…) like a linter; main.ts check --help
  merge DEF.po REF.pot  merge a catalogue with its template as msgmerge does; main.ts merge --help
  compile FILE.po    compile to a binary MO file as msgfmt does; main.ts compile --help
  permissions MODE   print the least-privilege deno flags for serve or mcp (used by deno.json tasks)

Options:
  --help, -h         this help (main.ts MODE --help: that mode's)
  --version, -V      the version

Run it with the tasks: deno task start | deno task mcp | deno task wrap (they grant exactly what the
mode needs). Docs: README.md; the running server's API: /docs.
`;

/** `main.ts MODE --help`, for the modes whose help is not their own (`wrap` prints its own). */
export const MODE_USAGE: Readonly<Record<string, string>> = {
  serve:
    "Usage: main.ts serve\n\nThe HTTP server (and MCP over HTTP at /mcp). Configured by environment variables\n" +
    "(PORT, HOST, PO_ROOTS, API_TOKEN, …: see README.md, Configuration). Run it as `deno task start`.\n",
  mcp:
    "Usage: main.ts mcp\n\nThe MCP server over stdio (newline-delimited JSON-RPC on stdin/stdout; logs on stderr).\n" +
    "Configured like serve. Run it as `deno task mcp`.\n",
  permissions:
    "Usage: main.ts permissions serve|mcp\n\nPrints the least-privilege deno flags the tasks use for that mode.\n",
};

/** The line for a mode `main.ts` does not know. */
export function unknownModeLine(mode: string): string {
  return `unknown mode ${
    JSON.stringify(mode)
  }; usage: main.ts [serve|mcp|wrap|check|merge|compile|permissions] (main.ts --help)`;
}
