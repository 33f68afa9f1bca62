/**
 * A tool is one operation offered over HTTP (`POST path`) and over MCP (tool `name`), defined once:
 * its zod input schema validates HTTP bodies and MCP arguments and documents both, and `handle`
 * calls the domain (`lib/`) and shapes the JSON answer.
 *
 * Tools come in groups ({@link ToolGroup}); a group names the dependencies its tools use and picks
 * them out of the app's when the app is built ({@link serveTools}), so a missing one stops the
 * start-up instead of failing a request.
 *
 * @module
 */
import type { z } from "zod";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import {
  answerTooLarge,
  DEFAULT_MAX_RESPONSE_BYTES,
  GENERIC_HINT,
  JsonAnswer,
  jsonWithin,
  streamAnswer,
} from "../lib/json_answer.ts";
import { type Identity, type Role, roleAllows } from "../lib/auth/mod.ts";
import { RoleRefusedError } from "../lib/errors.ts";
import type { AuditLog, AuditRecord } from "../lib/audit/mod.ts";
import { type AppDeps, callAudit, inflightBudget, tokenConfigured } from "./deps.ts";
import { identityOf } from "./guard.ts";
import { toolOperationResponses } from "./openapi.ts";
import { PLACEHOLDER_EXAMPLES, type ToolExamples, toolExamples } from "./tool_examples.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, requestSignal } from "./timeout.ts";
import { TextAnswer } from "./text_answer.ts";
import { readJsonBody } from "./validation.ts";

/**
 * One tool. `input` is null for tools that take no body (FastAPI ignores any body sent); `D` is
 * what its group gives `handle` (see {@link ToolGroup}).
 */
export interface Tool<I extends z.ZodType | null = z.ZodType | null, D = unknown> {
  /** MCP tool name and OpenAPI operationId. */
  name: string;
  /** HTTP path (always POST). */
  path: string;
  summary: string;
  /** What it does, what each field means, an example: written for people and for agents. */
  description: string;
  /**
   * The weakest role that may call it (`lib/auth/roles.ts`): read tools "reader", writes and drafts
   * "translator", review, merge, compile, header and the audit log "reviewer", the rest "admin".
   * Enforced on HTTP (the dashboard's calls included) and MCP; shown in OpenAPI and tools/list.
   */
  role: Role;
  input: I;
  /**
   * The input over MCP when it differs from HTTP's (another default: write_po's mode is "update"
   * for agents, HTTP keeps the old service's create-or-update); `handle` gets either's output.
   */
  mcpInput?: z.ZodType;
  output: z.ZodType;
  /**
   * What calling it does, for MCP clients (and people): see {@link ToolAnnotations}. Every tool
   * the service offers states them; absent, MCP's defaults apply (may write, destroy, reach out).
   */
  annotations?: ToolAnnotations;
  /** A request body that works on this service (built from the configured roots). */
  example?: (examples: ToolExamples) => Record<string, unknown>;
  /** Statuses this tool answers besides those every tool may (e.g. 404 for a missing catalogue). */
  errors?: readonly ToolErrorStatus[];
  /**
   * HTTP request headers the tool reads (from {@link ToolCall.headers}), documented as OpenAPI
   * header parameters. Over MCP there are none: the tool takes the same from its input.
   */
  httpHeaders?: readonly { name: string; description: string }[];
  /**
   * HTTP response headers the tool may set (through {@link ToolCall.responseHeaders}), documented
   * as headers of the 200 answer. Over MCP there are none: what they say is in the answer or not sent.
   */
  httpResponseHeaders?: readonly { name: string; description: string }[];
  /**
   * Media types of text answers ({@link TextAnswer}) the tool may give over HTTP besides its JSON,
   * documented as further content of the 200 answer (e.g. `text/csv` for an export).
   */
  textResponses?: readonly { mediaType: string; description: string }[];
  /**
   * Does the work: `deps` are its group's dependencies, all present. A large answer may be a
   * {@link JsonAnswer} (kept bytes); anything else is serialised within the answer limit.
   */
  handle(
    input: I extends z.ZodType ? z.output<I> : undefined,
    deps: D,
    call: ToolCall,
  ): Promise<unknown> | unknown;
}

/** MCP's tool annotations (hints a client may show or act on; they are not enforced). */
export interface ToolAnnotations {
  /** True when the tool changes nothing. */
  readOnlyHint: boolean;
  /** True when an update may overwrite or remove what was there (meaningful when not read-only). */
  destructiveHint: boolean;
  /** True when calling it twice with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** True when it reaches outside this service (the GPSS upstream). */
  openWorldHint: boolean;
}

/** Statuses a tool may declare in {@link Tool.errors}. */
export type ToolErrorStatus = 403 | 404 | 409 | 429;

/** A tool as documented: everything but its handler. */
export type ToolInfo = Omit<Tool, "handle">;

/** A tool's description, ending with the role it needs and a request example that works on this service. */
export function describeTool(tool: ToolInfo, examples: ToolExamples): string {
  const text = `${tool.description} Role: ${tool.role}.`;
  if (!tool.example) return text;
  return `${text} Example: ${JSON.stringify(tool.example(examples))}.`;
}

/**
 * Refuses a call whose caller's role is weaker than the tool's.
 *
 * @throws {RoleRefusedError} (403) naming the caller, the tool and the role it needs.
 */
export function checkRole(tool: Pick<ToolInfo, "name" | "role">, identity: Identity): void {
  if (roleAllows(identity.role, tool.role)) return;
  throw new RoleRefusedError(
    `${identity.name} (role ${identity.role}) may not call ${tool.name}: it needs the ${tool.role} role`,
  );
}

/** What a tool knows of the call it serves. */
export interface ToolCall {
  /** Fires when the request's time is up: work not yet done should be abandoned. */
  signal: AbortSignal;
  /** How the call came: HTTP (the API, the dashboard; the default) or MCP (an agent). */
  via?: "http" | "mcp";
  /** Who made it (absent: a call from inside the service or a test; the audit log says "unknown"). */
  identity?: Identity;
  /** Where its writes are recorded (see `routes/audit.ts` `auditedWrite`), and what to do when that fails. */
  audit?: { log: AuditLog; onError(record: AuditRecord, error: unknown): void };
  /** Largest answer the caller may get, in bytes of JSON. */
  maxAnswerBytes: number;
  /** The HTTP request's headers (absent over MCP); a tool reads only those of {@link Tool.httpHeaders}. */
  headers?: Headers;
  /**
   * Headers of the HTTP answer (absent over MCP): a tool sets only those of
   * {@link Tool.httpResponseHeaders}; they go on its 200 answer, whatever its kind.
   */
  responseHeaders?: Headers;
}

/**
 * The `ETag` response header of a tool that answers from one catalogue: the store's revision of the
 * bytes answered, as a strong entity tag, so that `If-Match` on `/po/write` can name it.
 */
export const REVISION_ETAG = {
  name: "ETag",
  description: 'The revision of the catalogue bytes answered, "REVISION": send it back as If-Match on ' +
    "/po/write to write only if nobody changed the file since.",
} as const;

/** Sets {@link REVISION_ETAG} on the call's HTTP answer (nothing over MCP). */
export function tagRevision(call: ToolCall, revision: string): void {
  call.responseHeaders?.set(REVISION_ETAG.name, `"${revision}"`);
}

/** Declares a tool (an identity function that keeps the input type tied to `handle`). */
export function defineTool<I extends z.ZodType | null, D = unknown>(tool: Tool<I, D>): Tool<I, D> {
  return tool;
}

/**
 * Tools that use the same dependencies: `deps` picks them out of the app's when the app is built,
 * and throws {@link MissingDependencyError} (through {@link requireDep}) when one is absent.
 *
 * @example
 * ```ts
 * export const patentTools = defineToolGroup({
 *   name: "patent tools",
 *   deps: (app) => ({ gpss: requireDep(app.gpss, "gpss", "the patent tools") }),
 *   tools: [defineTool({ ..., handle: (body, { gpss }) => gpss.search(...) })],
 * });
 * ```
 */
export interface ToolGroup<D = unknown> {
  /** The group's name, as start-up errors say it ("the PO tools"). */
  name: string;
  /** The group's dependencies, from the app's. */
  deps(app: AppDeps): D;
  // deno-lint-ignore no-explicit-any -- each tool has its own input schema
  tools: readonly Tool<any, D>[];
}

/** Declares a tool group (an identity function that ties its tools' `deps` to the group's). */
export function defineToolGroup<D>(group: ToolGroup<D>): ToolGroup<D> {
  return group;
}

/** A group of tools that need nothing but their input. */
export function independentTools(name: string, tools: readonly Tool[]): ToolGroup<undefined> {
  return { name, deps: () => undefined, tools };
}

/** A dependency the app was built without, though a tool group it serves uses it. */
export class MissingDependencyError extends Error {
  override name = "MissingDependencyError";
}

/**
 * `value`, or a {@link MissingDependencyError} naming what is missing and who needs it.
 *
 * @throws {MissingDependencyError} when `value` is undefined.
 */
export function requireDep<T>(value: T | undefined, key: keyof AppDeps, who: string): T {
  if (value === undefined) {
    throw new MissingDependencyError(`${who} need deps.${key}, and the app was built without it`);
  }
  return value;
}

/** A tool bound to its group's dependencies: what HTTP and MCP serve. */
export interface ServedTool extends ToolInfo {
  /** Runs the tool on a validated input. */
  run(input: unknown, call: ToolCall): Promise<unknown> | unknown;
}

/**
 * Binds every group's tools to its dependencies, once, when the app is built.
 *
 * @throws {MissingDependencyError} when a group's dependency is absent from `deps`.
 */
export function serveTools(groups: readonly ToolGroup[], deps: AppDeps): ServedTool[] {
  const served: ServedTool[] = [];
  for (const group of groups) {
    const groupDeps = group.deps(deps);
    for (const { handle, ...info } of group.tools) {
      served.push({ ...info, run: (input, call) => handle.call(info, input as never, groupDeps, call) });
    }
  }
  return served;
}

/** The answer limit of an app (MAX_RESPONSE_BYTES). */
export function maxAnswerBytes(deps: AppDeps): number {
  return deps.config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
}

/** What to say when a kept answer (a whole catalogue) is over the limit. */
const KEPT_ANSWER_HINT = "Read a part: /po/read_context gives one entry and its neighbours.";

/**
 * Mounts tools on the app: one POST route each, documented in `/openapi.json` from the same schemas.
 */
export function mountTools(app: OpenAPIHono, tools: readonly ServedTool[], deps: AppDeps): void {
  // `/openapi.json` is public: with a token, its examples name neither the roots nor catalogue
  // data (an authorised MCP client gets the real ones).
  const withToken = tokenConfigured(deps);
  const audit = callAudit(deps);
  const examples = withToken ? PLACEHOLDER_EXAMPLES : toolExamples(deps);
  const streamOptions = {
    limit: maxAnswerBytes(deps),
    hint: KEPT_ANSWER_HINT,
    budget: inflightBudget(deps),
    timeoutMs: deps.config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
  for (const tool of tools) {
    const example = tool.example?.(examples);
    app.openAPIRegistry.registerPath(createRoute({
      method: "post",
      path: tool.path,
      operationId: tool.name,
      summary: tool.summary,
      "x-required-role": tool.role,
      description: describeTool(tool, examples),
      ...(tool.input
        ? {
          request: {
            body: {
              required: true,
              content: { "application/json": { schema: tool.input, ...(example ? { example } : {}) } },
            },
          },
        }
        : {}),
      ...(tool.httpHeaders
        ? {
          parameters: tool.httpHeaders.map(({ name, description }) => ({
            in: "header" as const,
            name,
            required: false,
            description,
            schema: { type: "string" as const },
          })),
        }
        : {}),
      ...(withToken ? { security: [{ HTTPBearer: [] }] } : {}),
      responses: {
        200: {
          description: "Successful Response",
          ...(tool.httpResponseHeaders
            ? {
              headers: Object.fromEntries(
                tool.httpResponseHeaders.map(({ name, description }) => [
                  name,
                  { description, schema: { type: "string" as const } },
                ]),
              ),
            }
            : {}),
          content: {
            "application/json": { schema: tool.output },
            ...Object.fromEntries(
              (tool.textResponses ?? []).map(({ mediaType, description }) => [
                mediaType,
                { schema: { type: "string" as const, description } },
              ]),
            ),
          },
        },
        ...toolOperationResponses(tool, withToken),
      },
    }));
    app.post(tool.path, async function toolHandler(c) {
      // Before the body is read: a caller without the role learns nothing of the input's checks.
      const identity = identityOf(c);
      checkRole(tool, identity);
      const input = tool.input ? await readJsonBody(c, tool.input, deps.config.maxBodyBytes) : undefined;
      const responseHeaders = tool.httpResponseHeaders ? new Headers() : undefined;
      const answer = await tool.run(input, {
        via: "http",
        identity,
        audit,
        signal: requestSignal(c),
        maxAnswerBytes: streamOptions.limit,
        headers: tool.httpHeaders ? c.req.raw.headers : undefined,
        responseHeaders,
      });
      // Only the declared ones: a tool cannot set Content-Type or Content-Length this way.
      const declared: Record<string, string> = {};
      for (const { name } of tool.httpResponseHeaders ?? []) {
        const value = responseHeaders?.get(name);
        if (value !== null && value !== undefined) declared[name] = value;
      }
      if (answer instanceof JsonAnswer) {
        return c.body(streamAnswer(answer, streamOptions), 200, {
          ...declared,
          "Content-Type": "application/json",
          "Content-Length": String(answer.length),
        });
      }
      if (answer instanceof TextAnswer) {
        if (answer.length > streamOptions.limit) {
          throw answerTooLarge(answer.length, streamOptions.limit, GENERIC_HINT);
        }
        return c.body(answer.stream(), 200, {
          ...declared,
          ...answer.headers,
          "Content-Type": answer.contentType,
          "Content-Length": String(answer.length),
        });
      }
      return c.body(jsonWithin(answer, streamOptions.limit, GENERIC_HINT), 200, {
        ...declared,
        "Content-Type": "application/json",
      });
    });
  }
}
