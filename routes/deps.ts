/**
 * What the app is built from. `main.ts` makes the real ones; each test makes its own.
 *
 * @module
 */
import type { ByteBudget } from "../lib/byte_budget.ts";
import type { Config } from "../lib/config.ts";
import type { SearchOutcome, SearchRequest } from "../lib/gpss/mod.ts";
import type { PoCatalog } from "../lib/po/types.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";

/** Everything a handler may use. The PO and patent tools need `catalogues` and `gpss`. */
export interface AppDeps {
  config:
    & Pick<Config, "apiToken" | "maxBodyBytes">
    & Partial<
      Pick<
        Config,
        "allowedHosts" | "allowedOrigins" | "requestTimeoutMs" | "maxResponseBytes" | "maxInflightBytes"
      >
    >;
  /** One line per call, to stderr in production. */
  log: (line: string) => void;
  /** The catalogue store (path policy, parse cache, locked atomic writes) with the PO codec. */
  catalogues?: CatalogueStore<PoCatalog>;
  /** The allowance large loads and answers share (made from `config.maxInflightBytes` if absent). */
  budget?: ByteBudget;
  /** The GPSS client (cache, coalescing, timeout, in-band errors). */
  gpss?: { search(request: SearchRequest): Promise<SearchOutcome> };
}
