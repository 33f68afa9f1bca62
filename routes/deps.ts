/**
 * What the app is built from. `main.ts` makes the real ones; each test makes its own.
 *
 * @module
 */
import type { Config } from "../lib/config.ts";

/** Everything a handler may use. Optional parts are added by the groups that need them. */
export interface AppDeps {
  config: Pick<Config, "apiToken" | "maxBodyBytes">;
  /** One line per call, to stderr in production. */
  log: (line: string) => void;
}
