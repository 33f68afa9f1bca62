/**
 * A search's records as CSV or JSON Lines, row by row.
 *
 * CSV follows RFC 4180: a header row, CRLF line ends, a field quoted (`"…"`, inner quotes doubled)
 * when it holds a comma, a quote, CR or LF. Every cell is made safe to open in a spreadsheet: a
 * value starting with `=`, `+`, `-`, `@`, a tab or a CR (what spreadsheets read as a formula) gets a
 * leading `'` (OWASP's advice on CSV injection), so `=HYPERLINK(…)` in a title stays text. Lists
 * are joined with `; `, paragraphs and claims with a line break.
 *
 * JSON Lines: one record per line, as the JSON answer gives it (`JSON.stringify`: no raw line
 * break can occur inside a line).
 *
 * @module
 */
import type { PatentRecord } from "./response.ts";
import type { OutputSection } from "./sections.ts";

/** The export formats. */
export const EXPORT_FORMATS = ["csv", "jsonl"] as const;

/** An export format. */
export type ExportFormat = typeof EXPORT_FORMATS[number];

/** The media type of each format. */
export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = Object.freeze({
  csv: "text/csv; charset=utf-8; header=present",
  jsonl: "application/jsonl; charset=utf-8",
});

/** The CSV columns every export has, in order. */
export const CSV_COLUMNS = [
  "patent_number",
  "publication_date",
  "application_number",
  "application_date",
  "database",
  "title",
  "english_title",
  "applicants",
  "inventors",
  "ipc",
  "cpc",
  "abstract",
] as const;

/** The CSV columns each extra section adds (after {@link CSV_COLUMNS}, in section order). */
export const CSV_SECTION_COLUMNS: Readonly<Record<OutputSection, readonly string[]>> = Object.freeze({
  claims: ["claims", "independent_claims"],
  citations: ["citations"],
  classifications: ["loc", "uspc", "fi", "f_term", "d_term"],
  priority_claims: ["priority_claims"],
  agents: ["agents"],
  examiners: ["examiners"],
});

/** Characters that make a spreadsheet read a cell as a formula when they come first. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: formula-safe (a leading `'` before `=`, `+`, `-`, `@`, tab, CR) and quoted as RFC
 * 4180 asks when it holds a comma, a quote, CR or LF.
 *
 * @example
 * ```ts
 * csvField('=HYPERLINK("x")'); // "\"'=HYPERLINK(\"\"x\"\")\""
 * csvField("a, b"); // "\"a, b\""
 * ```
 */
export function csvField(value: string | null): string {
  if (value === null || value === "") return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function row(values: readonly (string | null)[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

/** The CSV columns of an export with these sections. */
export function csvColumns(sections: readonly OutputSection[]): string[] {
  return [
    ...CSV_COLUMNS,
    ...(Object.keys(CSV_SECTION_COLUMNS) as OutputSection[]).filter((s) => sections.includes(s))
      .flatMap((s) => CSV_SECTION_COLUMNS[s]),
  ];
}

const names = (parties: PatentRecord["applicants"]) =>
  parties.map((p) => p.name ?? p.english_name ?? "").filter((n) => n !== "").join("; ");

/** One record's CSV values, in {@link csvColumns} order. */
function csvValues(r: PatentRecord, sections: readonly OutputSection[]): (string | null)[] {
  const values: (string | null)[] = [
    r.patent_number,
    r.publication_date,
    r.application_number,
    r.application_date,
    r.database,
    r.title,
    r.english_title,
    names(r.applicants),
    names(r.inventors),
    r.ipc.join("; "),
    r.cpc.join("; "),
    r.abstract.join("\n"),
  ];
  for (const section of Object.keys(CSV_SECTION_COLUMNS) as OutputSection[]) {
    if (!sections.includes(section)) continue;
    switch (section) {
      case "claims": {
        const claims = r.claims ?? [];
        values.push(claims.map((c) => c.text).join("\n"));
        values.push(claims.filter((c) => c.independent).map((c) => String(c.number)).join("; "));
        break;
      }
      case "citations":
        values.push((r.citations ?? []).join("; "));
        break;
      case "classifications": {
        const c = r.classifications;
        for (const key of ["loc", "uspc", "fi", "f_term", "d_term"] as const) {
          values.push((c?.[key] ?? []).join("; "));
        }
        break;
      }
      case "priority_claims":
        values.push(
          (r.priority_claims ?? []).map((p) =>
            `${p.country ?? ""}${p.number ?? ""}${p.date ? ` (${p.date})` : ""}`
          )
            .join("; "),
        );
        break;
      case "agents":
        values.push((r.agents ?? []).join("; "));
        break;
      case "examiners":
        values.push((r.examiners ?? []).join("; "));
        break;
    }
  }
  return values;
}

/**
 * The export of `records`, as the chunks it is sent in: for CSV the header row, then one chunk
 * per record; for JSON Lines one line per record.
 *
 * @example
 * ```ts
 * exportChunks([record], "csv", []); // ["patent_number,…,abstract\r\n", "TWI800001B,…\r\n"]
 * ```
 */
export function exportChunks(
  records: readonly PatentRecord[],
  format: ExportFormat,
  sections: readonly OutputSection[],
): string[] {
  if (format === "jsonl") return records.map((r) => JSON.stringify(r) + "\n");
  return [row(csvColumns(sections)), ...records.map((r) => row(csvValues(r, sections)))];
}
