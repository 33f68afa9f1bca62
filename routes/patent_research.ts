/**
 * `/tools/get_patent` and `/tools/get_quota_status`: one patent by its number, and what is left of
 * the GPSS download quota. Request schemas first (the HTTP contract and the MCP tool schemas), then
 * the tools. Like search_patents, known upstream failures are answered in-band (`success: false`).
 *
 * @module
 */
import { z } from "zod";
import {
  DEFAULT_MAX_CHARS,
  getPatent,
  MAX_MAX_CHARS,
  MAX_NUMBER_LENGTH,
  OUTPUT_SECTIONS,
} from "../lib/gpss/mod.ts";
import type { AppDeps } from "./deps.ts";
import { listOf, PatentRecord, UPSTREAM } from "./patents.ts";
import { defineTool, defineToolGroup, requireDep } from "./tool.ts";
import { pyInt } from "./validation.ts";

/** The `get_patent` body. */
export const GetPatentRequest = z.strictObject({
  number: z.string().min(1).max(MAX_NUMBER_LENGTH).meta({
    description:
      "A number as people write it (TWI123456B, US 2023/0081319 A1, JP2003-055224A); a kind code " +
      "picks the database.",
    example: "TWI800001B",
  }),
  fields: listOf(z.enum(OUTPUT_SECTIONS), OUTPUT_SECTIONS.length).optional().meta({
    description: "Extra sections (default: all).",
    example: ["claims", "citations"],
  }),
  max_chars: pyInt({ ge: 100, le: MAX_MAX_CHARS }).default(DEFAULT_MAX_CHARS).meta({
    description: `Most characters of abstract + claims (default ${DEFAULT_MAX_CHARS}).`,
  }),
}).meta({ id: "GetPatentRequest" });

const GetPatentResponse = z.object({
  success: z.boolean(),
  patent: PatentRecord.nullable(),
  matched_as: z.enum(["publication", "application"]).optional(),
  other_matches: z.array(z.string()).optional(),
  normalized: z.object({ variants: z.array(z.string()), databases: z.array(z.string()) }).optional(),
  truncated: z.object({ omitted_chars: z.int(), omitted_claims: z.int() }).nullable().optional(),
  request_params: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
  error: z.string().nullable(),
}).meta({ id: "GetPatentResponse" });

const QuotaStatusSchema = z.object({
  window: z.object({ kind: z.enum(["peak", "off_peak"]), start: z.string(), end: z.string() }),
  budget: z.int(),
  used: z.int(),
  reserved: z.int(),
  remaining: z.int(),
  resets_at: z.string(),
  exhausted_upstream: z.boolean(),
  persisted: z.boolean(),
  ledger_problem: z.string().nullable(),
}).meta({ id: "QuotaStatus" });

/** The lists are answered from the service's own state, without asking GPSS. */
const LOCAL_STATE = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** What these tools use: the GPSS client. */
interface ResearchDeps {
  gpss: NonNullable<AppDeps["gpss"]>;
}

/** `/tools/get_patent` and `/tools/get_quota_status`. */
export const patentResearchTools = defineToolGroup<ResearchDeps>({
  name: "the patent research tools",
  deps: (app) => ({ gpss: requireDep(app.gpss, "gpss", "the patent research tools") }),
  tools: [
    defineTool({
      name: "get_patent",
      role: "reader",
      path: "/tools/get_patent",
      summary: "One patent by its number",
      description: "One patent by number (every section by default; another number answered: 404); " +
        "upstream failures: success=false. By topic: search_patents.",
      input: GetPatentRequest,
      annotations: UPSTREAM,
      errors: [404, 429],
      example: () => ({ number: "TWI800001B", fields: ["claims", "citations"], max_chars: 5000 }),
      output: GetPatentResponse,
      handle: (body, { gpss }) =>
        getPatent(gpss, { number: body.number, fields: body.fields, maxChars: body.max_chars }),
    }),
    defineTool({
      name: "get_quota_status",
      role: "reader",
      path: "/tools/get_quota_status",
      summary: "What is left of the GPSS download quota",
      description: "Records fetched in this quota window, what is left, when it resets.",
      input: null,
      annotations: LOCAL_STATE,
      output: z.object({
        success: z.boolean(),
        quota: QuotaStatusSchema.nullable(),
        note: z.string().nullable(),
      }),
      handle: async (_body, { gpss }) => {
        const quota = (await gpss.quotaStatus?.()) ?? null;
        return {
          success: true,
          quota,
          note: quota === null
            ? "No quota ledger is kept: USER_CODE is not set, so nothing is sent to GPSS."
            : null,
        };
      },
    }),
  ],
});
