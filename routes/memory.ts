/**
 * `POST /po/suggest` / MCP `suggest`: the translation memory (issue 36.4): the translated msgids
 * closest to an entry's across the roots, and the glossary terms of its msgid. Request schema
 * first, then the tool: validate, call `lib/memory`, shape the JSON.
 *
 * @module
 */
import { terminologyFor } from "./_terminology.ts";
import { termsInMsgid } from "../lib/terms/mod.ts";
import { z } from "zod";
import { TranslationMemory } from "../lib/memory/mod.ts";
import type { PoCatalog } from "../lib/po/mod.ts";
import type { CatalogueStore } from "../lib/store/mod.ts";
import type { AppDeps } from "./deps.ts";
import { defineTool, defineToolGroup, requireDep, type ToolGroup } from "./tool.ts";
import { pyInt } from "./validation.ts";
import { workbenchDeps } from "./workbench.ts";
import { optionalCataloguePath } from "./_catalogue_path.ts";

/** Longest msgid a query may name (characters): a long paragraph of documentation is ~3,000. */
export const MAX_SUGGEST_MSGID = 20_000;
/** Most suggestions of each kind. */
export const MAX_SUGGEST_LIMIT = 50;

export const SuggestRequest = z.strictObject({
  file_path: z.string().optional().meta({
    description: "The entry's catalogue: its language first.",
  }),
  msgctxt: z.string().nullable().optional(),
  msgid: z.string().min(1).max(MAX_SUGGEST_MSGID),
  limit: pyInt({ ge: 1, le: MAX_SUGGEST_LIMIT }).default(10).meta({ description: "Per kind." }),
}).meta({ id: "SuggestRequest" });

const SuggestResponse = z.object({
  suggestions: z.array(z.object({
    score: z.int(),
    msgid: z.string(),
    msgctxt: z.string().nullable(),
    msgstr: z.string(),
    file_path: z.string(),
    language: z.string().nullable(),
    obsolete: z.boolean(),
    same_msgid: z.boolean(),
  })),
  terms: z.array(z.object({ term: z.string(), translation: z.string().nullable() })),
  unscored: z.int().optional().meta({
    description: "Close candidates not scored (the query's work bound, or msgids too long to compare): " +
      "there may be better matches than these.",
  }),
}).meta({ id: "SuggestResponse" });

/**
 * The glossary terms of a msgid with their agreed translations: the terminology of the root
 * `file_path` is in (glossary.po, .po-terms.csv; docs/terminology.md), else of the first root.
 */
async function termsOf(
  store: Pick<CatalogueStore<PoCatalog>, "roots" | "read" | "readBytes">,
  msgid: string,
  filePath: string | null,
  signal: AbortSignal,
): Promise<{ term: string; translation: string | null }[]> {
  const at = filePath ?? store.roots[0];
  if (at === undefined) return [];
  const loaded = await terminologyFor(store, at, signal);
  if (loaded === null) return [];
  return termsInMsgid(loaded.terminology, msgid).map(({ term, translation }) => ({ term, translation }));
}

/** One memory per store (apps and MCP sessions over one store share it). */
const MEMORIES = new WeakMap<CatalogueStore<PoCatalog>, TranslationMemory>();

/** The translation memory of the app's store (made once; built by {@link startMemory} or the first query). */
export function memoryOf(app: AppDeps): TranslationMemory {
  const catalogues = requireDep(app.catalogues, "catalogues", "the suggest tool");
  let memory = MEMORIES.get(catalogues);
  if (memory === undefined) {
    memory = new TranslationMemory(catalogues, workbenchDeps(app).workbench);
    MEMORIES.set(catalogues, memory);
  }
  return memory;
}

/** Starts building the memory in the background (the servers call it at start); failures are logged. */
export function startMemory(app: AppDeps): void {
  if (app.catalogues === undefined) return;
  memoryOf(app).start().catch((error) => {
    app.log(
      `translation memory: the build failed (the next suggest retries): ${String(error?.message ?? error)}`,
    );
  });
}

/** The suggest tool: similar msgids' translations, and the msgid's glossary terms. */
export const memoryTools: ToolGroup<{ memory: TranslationMemory; store: CatalogueStore<PoCatalog> }> =
  defineToolGroup({
    name: "the suggest tool",
    deps: (app) => ({ memory: memoryOf(app), store: app.catalogues! }),
    tools: [
      defineTool({
        name: "suggest",
        path: "/po/suggest",
        role: "reader",
        summary: "Earlier translations of similar msgids",
        description: "Earlier translations (obsolete too) of the msgids closest to msgid, msgmerge's score " +
          "0-100: file_path's language first, then other languages. Then write_po.",
        input: SuggestRequest,
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
        example: ({ catalogue, msgid }) => ({ file_path: catalogue, msgid, limit: 5 }),
        errors: [403, 404],
        output: SuggestResponse,
        handle: async (input, { memory, store }, call) => {
          const filePath = optionalCataloguePath(store, input.file_path) ?? null;
          const answer = await memory.suggest({
            msgid: input.msgid,
            filePath,
            msgctxt: input.msgctxt ?? null,
            limit: input.limit,
            signal: call.signal,
          });
          return {
            suggestions: answer.suggestions,
            terms: await termsOf(store, input.msgid, filePath, call.signal),
            ...(answer.unscored === undefined ? {} : { unscored: answer.unscored }),
          };
        },
      }),
    ],
  });
