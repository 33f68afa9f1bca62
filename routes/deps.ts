/**
 * What the app is built from. `main.ts` makes the real ones; each test makes its own.
 *
 * @module
 */
import { ByteBudget } from "../lib/byte_budget.ts";
import type { Config } from "../lib/config.ts";
import { DEFAULT_MAX_INFLIGHT_BYTES } from "../lib/json_answer.ts";
import type { QuotaStatus, SearchOutcome, SearchRequest } from "../lib/gpss/mod.ts";
import type { PoCatalog } from "../lib/po/mod.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";
import type { GitRunner } from "../lib/history/mod.ts";

/**
 * Everything the app's parts may use. A tool group takes what it needs when the app is built, and
 * an app built without it fails then (the PO tools need `catalogues`, the patent tools `gpss`).
 */
export interface AppDeps {
  config:
    & Pick<Config, "apiToken" | "maxBodyBytes">
    & Partial<
      Pick<
        Config,
        | "allowedHosts"
        | "allowedOrigins"
        | "requestTimeoutMs"
        | "maxResponseBytes"
        | "maxInflightBytes"
        | "poMaxListedFiles"
      >
    >;
  /** One line per call, to stderr in production. */
  log: (line: string) => void;
  /** The catalogue store (path policy, parse cache, locked atomic writes) with the PO codec. */
  catalogues?: CatalogueStore<PoCatalog>;
  /** The allowance large loads and answers share (made from `config.maxInflightBytes` if absent). */
  budget?: ByteBudget;
  /** Read-only git for the history tools (absent: `routes/git_runner.ts`'s; null: none, they answer so). */
  git?: GitRunner | null;
  /** The GPSS client (cache, coalescing, timeout, in-band errors). */
  gpss?: {
    search(request: SearchRequest): Promise<SearchOutcome>;
    /** The quota ledger's account (null: none kept); absent on test doubles that keep none. */
    quotaStatus?(): QuotaStatus | null;
  };
}

/** The shared allowance of an app's deps, made once per deps object. */
const BUDGETS = new WeakMap<AppDeps, ByteBudget>();

/** The allowance that large loads and large answers of these deps share. */
export function inflightBudget(deps: AppDeps): ByteBudget {
  let budget = deps.budget ?? BUDGETS.get(deps);
  if (budget === undefined) {
    budget = new ByteBudget(deps.config.maxInflightBytes ?? DEFAULT_MAX_INFLIGHT_BYTES);
    BUDGETS.set(deps, budget);
  }
  return budget;
}
