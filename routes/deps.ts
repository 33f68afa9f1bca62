/**
 * What the app is built from. `main.ts` makes the real ones; each test makes its own.
 *
 * @module
 */
import { ByteBudget } from "../lib/byte_budget.ts";
import { API_TOKEN_IDENTITY, Identities } from "../lib/auth/mod.ts";
import { type AuditLog, type AuditRecord, MemoryAuditLog } from "../lib/audit/mod.ts";
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
        | "tokens"
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
  /** Where writes are recorded (absent: in memory, the newest 10,000; see {@link auditLog}). */
  audit?: AuditLog;
  /** The GPSS client (cache, coalescing, timeout, in-band errors). */
  gpss?: {
    search(request: SearchRequest): Promise<SearchOutcome>;
    /** The quota ledger's account (null: none kept); absent on test doubles that keep none. */
    quotaStatus?(): QuotaStatus | null | Promise<QuotaStatus>;
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

const IDENTITIES = new WeakMap<AppDeps, Identities | null>();

/**
 * Who the accepted tokens are (the single `API_TOKEN`, admin, and the tokens file's), or null when
 * neither is configured: then no token is asked and every caller is `anonymous` (admin), as before.
 */
export function identities(deps: AppDeps): Identities | null {
  let found = IDENTITIES.get(deps);
  if (found === undefined) {
    const tokens = deps.config.tokens;
    found = deps.config.apiToken === undefined && (tokens === undefined || tokens.size === 0)
      ? null
      : new Identities({ tokens, apiToken: deps.config.apiToken, apiTokenIdentity: API_TOKEN_IDENTITY });
    IDENTITIES.set(deps, found);
  }
  return found;
}

/** True when a token is asked (API_TOKEN or a tokens file). */
export function tokenConfigured(deps: AppDeps): boolean {
  return identities(deps) !== null;
}

const AUDIT_LOGS = new WeakMap<AppDeps, AuditLog>();

/** The audit log of an app: `deps.audit`, or one in memory made once per deps object. */
export function auditLog(deps: AppDeps): AuditLog {
  let log = deps.audit ?? AUDIT_LOGS.get(deps);
  if (log === undefined) {
    log = new MemoryAuditLog();
    AUDIT_LOGS.set(deps, log);
  }
  return log;
}

/** What a tool call records its writes with (`ToolCall.audit`): the log, and a failure said in the log. */
export function callAudit(
  deps: AppDeps,
): { log: AuditLog; onError(record: AuditRecord, error: unknown): void } {
  return {
    log: auditLog(deps),
    onError: (record, error) =>
      deps.log(
        `audit log: could not record ${record.action} by ${record.who} on ${record.file_path} ` +
          `(revision ${record.revision_after}): ${String((error as Error)?.message ?? error).slice(0, 300)}`,
      ),
  };
}
