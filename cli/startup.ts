/**
 * How a start-up that cannot go on is said: one line, then exit status 2 (`main.ts` prints it), and
 * the warnings a server start gives.
 *
 * @module
 */
import { terminalText } from "../lib/terminal_text.ts";

/** A start-up that cannot go on; its message is the one line the user sees. */
export class StartupError extends Error {
  override name = "StartupError";
}

/** A missing permission, said in one line with what to do (Deno's message names what was refused). */
export function missingPermissionLine(error: Error): string {
  const what = String(error.message).split("\n", 1)[0]!.replace(/, run again with.*$/, "");
  return `missing permission: ${
    terminalText(what)
  }; run it through its task (deno task start | mcp | wrap), which grants what it needs`;
}

/**
 * A failure to listen on `host:port` said as a {@link StartupError}, or the error itself when it is
 * not one the user can fix by configuration.
 */
export function listenFailure(error: unknown, host: string, port: number): unknown {
  if (error instanceof Deno.errors.AddrInUse) {
    return new StartupError(
      `cannot listen on ${host}:${port}: the address is already in use (set PORT to another port)`,
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new StartupError(`cannot listen on ${host}:${port}: no such address on this machine (check HOST)`);
  }
  return error;
}

/** What the HTTP server's start warns of. */
export interface ServeWarningFacts {
  host: string;
  /** True when `host` is a loopback name or address. */
  loopback: boolean;
  apiToken: string | undefined;
  /** Permissions granted without restriction (of read, write, net, env, run). */
  unrestricted: readonly string[];
}

/** The warning lines of a server start: reachable without a token, or run with broad permissions. */
export function serveWarnings(facts: ServeWarningFacts): string[] {
  const lines: string[] = [];
  if (!facts.loopback && facts.apiToken === undefined) {
    lines.push(
      `warning: listening on ${facts.host} without API_TOKEN: anyone who can reach this port can use the API`,
    );
  }
  if (facts.unrestricted.length > 0) {
    lines.push(
      `warning: running with unrestricted ${
        facts.unrestricted.join(", ")
      } permission; \`deno task start\` runs least-privilege`,
    );
  }
  return lines;
}
