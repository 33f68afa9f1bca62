/**
 * `POST /po/term_usage` / MCP `term_usage`: for a term (or every term of the roots' terminology),
 * which renderings the translations across the tree use, with counts and a few examples each, in
 * one small answer (lib/terms, docs/terminology.md). Request schema first, then the tool.
 *
 * @module
 */
import { z } from "zod";
import { TimeoutError } from "../lib/errors.ts";
import { type CheckTreeIo, walkTree } from "../lib/po/mod.ts";
import { catalogueStoreIo } from "../lib/store/mod.ts";
import {
  bareTerm,
  EMPTY_TERMINOLOGY,
  MAX_TERM_CHARS,
  singleTerm,
  type Term,
  type Terminology,
  termNamed,
  UsageTally,
} from "../lib/terms/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep } from "./tool.ts";
import { pyInt } from "./validation.ts";
import { rootOf, terminologyFor } from "./_terminology.ts";

/** Most catalogues one call reads. */
export const MAX_USAGE_FILES = 5_000;
/** Time one call may take before it stops starting files. */
const MAX_USAGE_MS = 20_000;
/** Most terms one answer lists. */
export const MAX_USAGE_TERMS = 500;

export const TermUsageRequest = z.strictObject({
  term: z.string().min(1).max(MAX_TERM_CHARS).optional().meta({ description: "Absent: every term." }),
  file_path_prefix: z.string().max(4096).optional().meta({ description: 'E.g. "library/".' }),
  limit: pyInt({ ge: 1, le: MAX_USAGE_TERMS }).default(50),
}).meta({ id: "TermUsageRequest" });

const Example = z.object({ file_path: z.string(), msgctxt: z.string().nullable(), msgid: z.string() });

const TermUsageResponse = z.object({
  terms: z.array(z.object({
    term: z.string(),
    agreed: z.string().nullable(),
    entries: z.int(),
    renderings: z.array(
      z.object({ rendering: z.string().nullable(), count: z.int(), examples: z.array(Example) }),
    ),
  })),
  files: z.int(),
  complete: z.boolean(),
  stopped_because: z.string().nullable(),
  notes: z.array(z.string()),
}).meta({ id: "TermUsageResponse" });

/** The term tools: they need the catalogue store (`deps.catalogues`). */
export const termTools = defineToolGroup<{ catalogues: NonNullable<AppDeps["catalogues"]> }>({
  name: "the term tools",
  deps: (app) => ({ catalogues: requireDep(app.catalogues, "catalogues", "the term tools") }),
  tools: [
    defineTool({
      name: "term_usage",
      path: "/po/term_usage",
      role: "reader",
      summary: "How a term is translated across the tree",
      description:
        "How a term (or each glossary term) is translated across the tree: renderings with counts, 3 entries each. check_po applies them.",
      input: TermUsageRequest,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      example: () => ({ term: "iterable" }),
      errors: [403, 404],
      output: TermUsageResponse,
      handle: async (body, { catalogues }, call) => {
        const io: CheckTreeIo = catalogueStoreIo(catalogues, call.signal);
        const prefix = body.file_path_prefix ?? "";
        const tally = new UsageTally();
        const notes: string[] = [];
        // Per root: what to look for (the one term, or the root's terminology).
        const lookups = new Map<string, { find: Terminology; wanted: Term[] }>();
        const lookupOf = async (root: string) => {
          let l = lookups.get(root);
          if (l === undefined) {
            const loaded = await terminologyFor(catalogues, root, call.signal);
            const terminology = loaded?.terminology ?? null;
            for (const w of terminology?.warnings ?? []) notes.push(`Terminology of ${root}: ${w}`);
            if (body.term !== undefined) {
              const term = (terminology && termNamed(terminology, body.term)) ?? bareTerm(body.term);
              l = term === null
                ? { find: EMPTY_TERMINOLOGY, wanted: [] }
                : { find: singleTerm(term), wanted: [term] };
            } else {
              l = { find: terminology ?? EMPTY_TERMINOLOGY, wanted: [...(terminology?.terms ?? [])] };
            }
            lookups.set(root, l);
          }
          return l;
        };
        let files = 0;
        let stoppedBecause: string | null = null;
        const deadline = Date.now() + MAX_USAGE_MS;
        walk: for (const root of catalogues.roots) {
          for await (const step of walkTree(root, io)) {
            if (!("file" in step)) {
              if ("unlisted" in step && step.error instanceof TimeoutError) throw step.error;
              continue;
            }
            const path = step.file;
            const base = rootOf(catalogues, path) ?? root;
            const relative = path.slice(base.length + 1);
            if (prefix !== "" && !path.startsWith(prefix) && !relative.startsWith(prefix)) continue;
            if (call.signal?.aborted) throw call.signal.reason;
            if (files >= MAX_USAGE_FILES) {
              stoppedBecause = `the limit of ${MAX_USAGE_FILES} catalogues was reached`;
              break walk;
            }
            if (Date.now() > deadline) {
              stoppedBecause = "the time limit of the count was reached";
              break walk;
            }
            let catalog;
            try {
              catalog = await io.read(path);
            } catch (error) {
              if (error instanceof TimeoutError || call.signal?.aborted) throw error;
              if (notes.length < 20) notes.push(`${path} was not read: ${(error as Error).message}`);
              continue;
            }
            files++;
            const lookup = await lookupOf(base);
            tally.add(path, catalog, lookup.find);
            // A turn for other requests every few catalogues.
            if (files % 16 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
          }
        }
        if (
          body.term === undefined && lookups.size > 0 &&
          [...lookups.values()].every((l) => l.wanted.length === 0)
        ) {
          notes.push(
            "No root read has a glossary.po or .po-terms.csv: there are no terms to count (docs/terminology.md)",
          );
        }
        // A term asked for is answered even where no catalogue was read (0 entries): with the first root's terms.
        if (body.term !== undefined && lookups.size === 0 && catalogues.roots.length > 0) {
          await lookupOf(rootOf(catalogues, catalogues.roots[0]!) ?? catalogues.roots[0]!);
        }
        const wanted = [...lookups.values()].flatMap((l) => l.wanted);
        let terms = tally.result(body.term === undefined ? [] : wanted.slice(0, 1));
        if (body.term === undefined) {
          terms = terms.sort((a, b) =>
            b.entries - a.entries || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)
          );
        }
        if (terms.length > body.limit) {
          notes.push(`${terms.length} terms were met: the ${body.limit} most used are listed (limit)`);
          terms = terms.slice(0, body.limit);
        }
        return { terms, files, complete: stoppedBecause === null, stopped_because: stoppedBecause, notes };
      },
    }),
  ],
});
