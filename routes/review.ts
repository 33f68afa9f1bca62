/**
 * The review lane (issue 37.2): `list_drafts` (POST /po/drafts) lists the drafts waiting for review
 * (a write with `draft: true` makes one) beside their previous translation and checks;
 * `review_draft` (POST /po/review) approves or rejects one, with the compare-and-swap of every write.
 * Request schemas first, then the tools: validate, call `lib/`, shape the JSON.
 *
 * @module
 */
import { auditedWrite } from "./audit.ts";
import { z } from "zod";
import { type PoCatalog, reviewDraft } from "../lib/po/mod.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";
import { DraftIndex, entryState, MAX_DRAFTS_PAGE } from "../lib/workbench/mod.ts";
import type { AppDeps } from "./deps.ts";
import { expectedRevision } from "./po.ts";
import { defineTool, defineToolGroup } from "./tool.ts";
import { pyInt } from "./validation.ts";
import { cataloguePath, FilePath } from "./_catalogue_path.ts";
import { type WorkbenchDeps, workbenchDeps } from "./workbench.ts";

const Forms = z.record(z.string(), z.string());

export const ListDraftsRequest = z.strictObject({
  file_path: z.string().max(4096).nullable().optional().meta({ description: "Absent: every catalogue." }),
  author: z.string().max(200).nullable().optional().meta({ description: "null: unnamed drafts." }),
  limit: pyInt({ ge: 1, le: MAX_DRAFTS_PAGE }).default(20),
  cursor: z.string().max(8192).nullable().optional().meta({
    description: "next_cursor of the previous page.",
  }),
}).meta({ id: "ListDraftsRequest" });

export const ReviewDraftRequest = z.strictObject({
  file_path: FilePath,
  msgctxt: z.string().nullable().optional(),
  msgid: z.string(),
  action: z.enum(["approve", "reject"]),
  msgstr: z.string().optional().meta({ description: "approve: this edit instead." }),
  msgstr_plural: Forms.optional(),
  expected_msgstr: z.string().optional(),
  expected_msgstr_plural: Forms.optional(),
  if_revision: z.string().optional(),
}).meta({ id: "ReviewDraftRequest" });

const Problem = z.object({
  path: z.string().nullable(),
  line: z.int().nullable(),
  msgctxt: z.string().nullable(),
  msgid: z.string(),
  check: z.string(),
  severity: z.enum(["error", "warning"]),
  message: z.string(),
});

const ListDraftsResponse = z.object({
  drafts: z.array(z.object({
    file_path: z.string(),
    revision: z.string(),
    msgctxt: z.string().nullable(),
    msgid: z.string(),
    msgstr: z.string(),
    msgid_plural: z.string().nullable(),
    msgstr_plural: Forms,
    previous_msgstr: z.string().nullable(),
    previous_msgstr_plural: Forms.nullable(),
    previous_fuzzy: z.boolean(),
    author: z.string().nullable(),
    date: z.string().nullable(),
    line: z.int().nullable(),
    checks: z.array(Problem),
  })),
  total: z.int().meta({ description: "Drafts in every page." }),
  next_cursor: z.string().nullable(),
}).meta({ id: "ListDraftsResponse" });

const ReviewDraftResponse = z.object({
  state: z.enum(["translated", "fuzzy", "untranslated", "obsolete"]),
  revision: z.string().nullable(),
  written: z.boolean(),
  message: z.string(),
  problems: z.array(Problem),
}).meta({ id: "ReviewDraftResponse" });

interface ReviewDeps extends WorkbenchDeps {
  drafts: DraftIndex;
}

/** One draft index per store (apps and MCP sessions over one store share it). */
const INDEXES = new WeakMap<CatalogueStore<PoCatalog>, DraftIndex>();

function reviewDeps(app: AppDeps): ReviewDeps {
  const deps = workbenchDeps(app);
  let drafts = INDEXES.get(deps.catalogues);
  if (drafts === undefined) INDEXES.set(deps.catalogues, drafts = new DraftIndex(deps.catalogues));
  return { ...deps, drafts };
}

/** `/po/drafts`, `/po/review`: they need the catalogue store (`deps.catalogues`). */
export const reviewTools = defineToolGroup<ReviewDeps>({
  name: "the review tools",
  deps: reviewDeps,
  tools: [
    defineTool({
      name: "list_drafts",
      path: "/po/drafts",
      role: "reader",
      summary: "List drafts waiting for review",
      description:
        "Drafts (write_po draft: true), by catalogue or author, in pages: msgstr beside previous_msgstr, checks. Then review_draft.",
      input: ListDraftsRequest,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      example: () => ({ limit: 10 }),
      errors: [403, 404, 409],
      output: ListDraftsResponse,
      handle: async (input, { catalogues, workbench, drafts }, call) => {
        const request = {
          ...(input.author !== undefined ? { author: input.author } : {}),
          limit: input.limit,
          cursor: input.cursor ?? null,
        };
        if (input.file_path != null) {
          const filePath = cataloguePath(catalogues, input.file_path);
          const one = { filePath, summary: { kind: "catalogue" as const, revision: null } };
          return await drafts.page([one], { ...request, scope: filePath, strict: true }, call.signal);
        }
        const { files } = await workbench.listing({ signal: call.signal });
        return await drafts.page(files, { ...request, scope: "" }, call.signal);
      },
    }),
    defineTool({
      name: "review_draft",
      path: "/po/review",
      role: "reviewer",
      summary: "Approve or reject a draft",
      description:
        "Approve a draft of list_drafts (or your msgstr edit) or reject it (the previous translation back); 409 unless expected_msgstr matches.",
      input: ReviewDraftRequest,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      // Approving an entry that is no draft changes nothing: the example, sent as it is, writes nothing.
      example: ({ catalogue, msgid, msgstr }) => ({
        file_path: catalogue,
        msgid,
        action: "approve",
        expected_msgstr: msgstr,
      }),
      errors: [403, 404, 409],
      httpHeaders: [{ name: "If-Match", description: 'The revision the review expects ("REVISION").' }],
      output: ReviewDraftResponse,
      handle: async (input, { catalogues }, call) => {
        const filePath = cataloguePath(catalogues, input.file_path);
        const ifRevision = expectedRevision(input.if_revision, call.headers?.get("if-match") ?? null);
        const r = await reviewDraft(catalogues, filePath, {
          msgctxt: input.msgctxt ?? null,
          msgid: input.msgid,
          action: input.action,
          ...(input.msgstr !== undefined ? { msgstr: input.msgstr } : {}),
          ...(input.msgstr_plural !== undefined ? { msgstrPlural: input.msgstr_plural } : {}),
          ...(input.expected_msgstr !== undefined ? { expectedMsgstr: input.expected_msgstr } : {}),
          ...(input.expected_msgstr_plural !== undefined
            ? { expectedMsgstrPlural: input.expected_msgstr_plural }
            : {}),
          ...(ifRevision !== undefined ? { ifRevision } : {}),
        }, auditedWrite(call, input.action === "approve" ? "review_approve" : "review_reject", [input]));
        const state = entryState(r.message);
        const quoted = JSON.stringify(input.msgid.length > 60 ? input.msgid.slice(0, 60) + "…" : input.msgid);
        return {
          state,
          revision: r.revision,
          written: r.written,
          message: !r.written
            ? `Nothing to write: msgid ${quoted} in ${filePath} is no draft (approved already, or never one); ` +
              `it is ${state}`
            : `${
              input.action === "approve" ? "Approved" : "Rejected"
            } the draft of msgid ${quoted} in ${filePath}: ` +
              `the entry is ${state} now`,
          problems: r.problems,
        };
      },
    }),
  ],
});
