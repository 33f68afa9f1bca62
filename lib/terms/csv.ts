/**
 * The terminology file's CSV: RFC 4180 as spreadsheets write it (fields quoted with `"`, a `""`
 * inside a quoted field, CRLF or LF line ends, a UTF-8 byte order mark tolerated), read in one
 * forward pass. The first row names the columns.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";

/** One row: its fields by column name, and its line in the file (for messages). */
export interface CsvRow {
  line: number;
  fields: Record<string, string>;
}

/**
 * The rows of a CSV text whose first row names the columns; blank lines and lines starting with
 * `#` are skipped. At most `maxRows` rows and `maxFieldChars` characters per field.
 *
 * @throws {InvalidInputError} a quote left open, a field too long, too many rows, a header without
 *   the `required` columns.
 */
export function parseCsv(
  text: string,
  required: readonly string[],
  limits: { maxRows: number; maxFieldChars: number },
): CsvRow[] {
  if (text.startsWith("\ufeff")) text = text.slice(1);
  const records: { line: number; fields: string[] }[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const startLine = line;
    if (text[i] === "\n" || text[i] === "\r") {
      if (text[i] === "\n") line++;
      i++;
      continue;
    }
    if (text[i] === "#") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      let field = "";
      if (text[i] === '"') {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) throw new InvalidInputError(`line ${startLine}: a quoted field is not closed`);
          const chunk = text.slice(i, q);
          for (let k = chunk.indexOf("\n"); k >= 0; k = chunk.indexOf("\n", k + 1)) line++;
          field += chunk;
          if (text[q + 1] === '"') {
            field += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
      } else {
        let j = i;
        while (j < text.length && text[j] !== "," && text[j] !== "\n" && text[j] !== "\r") j++;
        field = text.slice(i, j);
        i = j;
      }
      if (field.length > limits.maxFieldChars) {
        throw new InvalidInputError(
          `line ${startLine}: a field longer than ${limits.maxFieldChars} characters`,
        );
      }
      fields.push(field);
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === "\r") i++;
      if (text[i] === "\n") {
        i++;
        line++;
      }
      break;
    }
    records.push({ line: startLine, fields });
    if (records.length > limits.maxRows + 1) {
      throw new InvalidInputError(`more than ${limits.maxRows} rows`);
    }
  }
  const header = records.shift();
  if (header === undefined) return [];
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const missing = required.filter((r) => !names.includes(r));
  if (missing.length > 0) {
    throw new InvalidInputError(
      `line ${header.line}: the first row must name the columns (${required.join(",")}): ${
        missing.join(", ")
      } missing`,
    );
  }
  return records.map((r) => {
    const fields: Record<string, string> = Object.create(null);
    names.forEach((name, k) => {
      if (name !== "" && !(name in fields)) fields[name] = (r.fields[k] ?? "").trim();
    });
    return { line: r.line, fields };
  });
}
