/**
 * Ready-made search request bodies (the original service's examples), in the HTTP JSON shape, so
 * a caller can POST any of them to the search endpoint as is.
 *
 * @module
 */
import type { z } from "zod";
import type { SearchPatentsRequest } from "./patents.ts";

/** A search body as a caller writes it (defaults may be left out). */
type SearchBody = z.input<typeof SearchPatentsRequest>;

/**
 * Example search bodies by name. Every body is a valid search request: its fields, databases and
 * dates pass the request schema and `requestParams(searchRequestFromBody(body))`.
 *
 * @example
 * ```ts
 * SEARCH_EXAMPLES.basic_title_search.keywords; // "wireless charging"
 * ```
 */
export const SEARCH_EXAMPLES: Readonly<Record<string, Readonly<SearchBody>>> = Object.freeze({
  basic_title_search: {
    keywords: "wireless charging",
    search_field: "title",
    databases: ["TWA", "USA", "EPA"],
  },
  advanced_technical_search: {
    keywords: "lithium battery AND fast charging",
    search_field: ["title", "abstract", "claims"],
    databases: ["TWA", "USA", "EPA", "CNA"],
    publication_date_from: "20200101",
    publication_date_to: "20231231",
  },
  inventor_by_abstract: {
    keywords: "neural network AND image processing",
    search_field: "abstract",
    databases: ["USA", "EPA"],
  },
  recent_patents: {
    keywords: "quantum computing",
    search_field: ["title", "abstract", "cited_patents"],
    publication_date_from: "20230101",
  },
  granted_taiwan_inventions: {
    keywords: "(雷達 or 毫米波) and 跌倒",
    search_field: ["title", "abstract"],
    databases: ["TWB"],
    application_types: ["B"],
    patent_types: ["I"],
    max_results: 50,
  },
});

/** What each example in {@link SEARCH_EXAMPLES} shows (the original service's descriptions). */
export const SEARCH_EXAMPLE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  basic_title_search: "Search for patents with keyword in title",
  advanced_technical_search: "Search across title, abstract, and claims",
  inventor_by_abstract: "Search in abstract field for specific technology",
  recent_patents: "Find recently published patents",
  granted_taiwan_inventions:
    "Granted Taiwanese inventions whose title or abstract matches a boolean expression",
});
