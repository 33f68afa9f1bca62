/**
 * Reading GPSS's JSON shape (and the XML turned into it): members by name, one-item lists that
 * collapsed to the item, text as a string, a number, `{"#text"}`, `{"keyValue"}` or lists of those
 * (§3.4). Private to `lib/gpss`.
 *
 * @module
 */
/** Nesting deeper than this is refused (GPSS records nest about 6 levels). */
export const MAX_NESTING_DEPTH = 64;

/** A JSON object as parsed. */
export type Obj = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A member by name: exact first, then ignoring case (GPSS's casing is not documented everywhere). */
export function get(o: unknown, key: string): unknown {
  if (!isObj(o)) return undefined;
  if (Object.hasOwn(o, key)) return o[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

/** GPSS collapses a one-item list to the item (§3.4): always give a list back. */
export function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * The text of a value that may be a string, a number, `{"#text"}`, `{"keyValue"}` or a list of
 * those. Nesting past {@link MAX_NESTING_DEPTH} is not looked into (`JSON.parse` accepts any depth).
 */
export function textOf(v: unknown, depth = 0): string | null {
  if (typeof v === "string") {
    const t = v.trim();
    return t === "" ? null : t;
  }
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (depth >= MAX_NESTING_DEPTH) return null;
  if (Array.isArray(v)) {
    for (const item of v) {
      const t = textOf(item, depth + 1);
      if (t !== null) return t;
    }
    return null;
  }
  if (isObj(v)) {
    for (const key of ["#text", "keyValue", "text"]) {
      const t = textOf(get(v, key), depth + 1);
      if (t !== null) return t;
    }
  }
  return null;
}

/** Every text in a value that may be a string or a (nested) list of texts, appended to `out`. */
export function collectTexts(v: unknown, out: string[], depth = 0): string[] {
  for (const item of asList(v)) {
    if (Array.isArray(item)) {
      if (depth < MAX_NESTING_DEPTH) collectTexts(item, out, depth + 1);
    } else {
      const t = textOf(item, depth + 1);
      if (t !== null) out.push(t);
    }
  }
  return out;
}

/** Every text in a value that may be a string or a (nested) list of texts. */
export function textsOf(v: unknown): string[] {
  return collectTexts(v, []);
}
