/**
 * The audit log's edge: `auditedWrite` (what a writing tool passes to the store, so that each write
 * it makes is recorded with the caller, the entries and the revisions), and the `audit_log` tool
 * (`POST /po/audit`) that queries it by catalogue, entry, identity, action and time.
 *
 * A record is appended once the new bytes are in place and before the answer is sent. If the log
 * cannot take it (a full disk, a database down), the write stands and the failure is logged as one
 * line naming the write: the answer does not claim a failure for bytes that were written.
 *
 * @module
 */
import { z } from "zod";
import { type AuditAction, type AuditLog, auditRecord } from "../lib/audit/mod.ts";
import { InvalidInputError } from "../lib/errors.ts";
import type { CatalogueCallOptions, WrittenFile } from "../lib/store/mod.ts";
import { auditLog } from "./deps.ts";
import { cataloguePath } from "./_catalogue_path.ts";
import { defineTool, defineToolGroup, type ToolCall } from "./tool.ts";

/**
 * The store call options of a write made for `call`: its signal, and the recording of each write
 * it makes in the audit log (`action`, the entries it names, a note read once the write is done).
 * h5's review (approve/reject) passes `auditedWrite(call, "review_approve", [{ msgctxt, msgid }])`.
 *
 * @example
 * ```ts
 * await editCatalogue(catalogues, path, edit, auditedWrite(call, "write_po", entries));
 * ```
 */
export function auditedWrite(
  call: ToolCall,
  action: AuditAction,
  entries: readonly { msgctxt?: string | null; msgid: string }[],
  note?: () => string | null,
): CatalogueCallOptions {
  const audit = call.audit;
  if (audit === undefined) return { signal: call.signal };
  const recordOf = (write: WrittenFile) =>
    auditRecord({
      who: call.identity?.name ?? "unknown",
      role: call.identity?.role ?? null,
      via: call.via ?? null,
      action,
      file_path: write.path,
      entries: entries.map((e) => ({ msgctxt: e.msgctxt ?? null, msgid: e.msgid })),
      revision_before: write.revisionBefore,
      revision_after: write.revisionAfter,
      note: note?.() ?? null,
    });
  return {
    signal: call.signal,
    // With a write lease (PostgreSQL), the record is the write's intent, kept before the rename and
    // completed after it by the lease: nothing is appended here then.
    auditRecord: recordOf,
    onWritten: async (write: WrittenFile) => {
      if (write.recorded) return;
      const record = recordOf(write);
      try {
        await audit.log.append(record);
      } catch (error) {
        audit.onError(record, error);
      }
    },
  };
}

const ACTIONS = [
  "write_po",
  "update_header",
  "merge_po",
  "compile_mo",
  "purge_obsolete",
  "review_approve",
  "review_reject",
] as const;

// Bounds checked in the refinement, not as maxLength: tools/list stays small.
const isoTime = z.string().refine((v) => v.length <= 40 && !Number.isNaN(Date.parse(v)), {
  error: "an ISO 8601 time, e.g. 2026-01-31T12:00:00Z",
});

// Field descriptions left out: the names say it, and tools/list is read before the first call.
export const AuditLogRequest = z.strictObject({
  file_path: z.string().optional(),
  msgid: z.string().optional(),
  msgctxt: z.string().nullable().optional(),
  who: z.string().refine((v) => v.length <= 64, { error: "at most 64 characters" }).optional(),
  action: z.enum(ACTIONS).optional(),
  since: isoTime.optional(),
  until: isoTime.optional(),
  limit: z.int().min(1).max(1000).default(100),
}).meta({ id: "AuditLogRequest" });

const AuditRecordSchema = z.object({
  time: z.string(),
  who: z.string(),
  role: z.string().nullable(),
  via: z.string().nullable(),
  action: z.string(),
  file_path: z.string(),
  entries: z.array(z.object({ msgctxt: z.string().nullable(), msgid: z.string() })),
  entries_total: z.int(),
  revision_before: z.string().nullable(),
  revision_after: z.string(),
  note: z.string().nullable(),
}).meta({ id: "AuditRecord" });

const AuditLogResponse = z.object({
  records: z.array(AuditRecordSchema).meta({ description: "Newest first." }),
  truncated: z.boolean().meta({ description: "More matched than limit." }),
}).meta({ id: "AuditLogResponse" });

/** `audit_log`: it needs the audit log (made in memory if the app has none) and the store's roots. */
export const auditTools = defineToolGroup<{ log: AuditLog; roots: readonly string[] }>({
  name: "the audit tool",
  deps: (app) => ({ log: auditLog(app), roots: app.catalogues?.roots ?? [] }),
  tools: [
    defineTool({
      name: "audit_log",
      role: "reviewer",
      path: "/po/audit",
      summary: "Who wrote what, when",
      description: "Recorded writes (who, when, entries, revisions), newest first; since/until: ISO times. " +
        "Entries now: read_po.",
      input: AuditLogRequest,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      example: ({ catalogue }) => ({ file_path: catalogue }),
      output: AuditLogResponse,
      handle: async (input, { log, roots }) => {
        if (input.msgctxt !== undefined && input.msgid === undefined) {
          throw new InvalidInputError("Invalid request: msgctxt needs msgid");
        }
        const since = input.since === undefined ? undefined : new Date(input.since);
        const until = input.until === undefined ? undefined : new Date(input.until);
        return await log.query({
          ...(input.file_path !== undefined ? { file_path: cataloguePath({ roots }, input.file_path) } : {}),
          ...(input.msgid !== undefined ? { msgid: input.msgid } : {}),
          ...(input.msgctxt !== undefined ? { msgctxt: input.msgctxt } : {}),
          ...(input.who !== undefined ? { who: input.who } : {}),
          ...(input.action !== undefined ? { action: input.action } : {}),
          ...(since ? { since } : {}),
          ...(until ? { until } : {}),
        }, input.limit);
      },
    }),
  ],
});
