/**
 * The checks a check request did not run, and why: a check answer that says `"problems": []` must
 * also say what it did not look at (a reST check on an entry without a `.rst` reference, a
 * placeholder check on an entry without its format flag, a catalogue check on a lone entry, a
 * check off by default), so that silence is never read as "all good".
 *
 * @module
 */
import { interpretFlags } from "../read/_flags.ts";
import { FORMAT_LANGUAGES } from "../read/_flags.ts";
import type { PoMessage } from "../types.ts";
import { FORMAT_CHECKS } from "./_format.ts";
import { REST_CHECKS } from "./_rest.ts";
import { CHECKS, DEFAULT_CHECKS, isCheckable } from "./mod.ts";

/** One check that did not run. */
export interface NotRun {
  check: string;
  reason: string;
}

const REST = /* @__PURE__ */ new Set(/* @__PURE__ */ REST_CHECKS.map((c) => c.name));

/** The reST/Sphinx checks: by default they run only on entries from `.rst` files. */
export const REST_CHECK_NAMES: ReadonlySet<string> = REST;
const FORMAT = /* @__PURE__ */ new Set(/* @__PURE__ */ FORMAT_CHECKS.map((c) => c.name));
const CATALOGUE = /* @__PURE__ */ new Set(
  /* @__PURE__ */ CHECKS.filter((c) => c.catalogue).map((c) => c.name),
);

/** The format language index of a format check ("python-format" → FORMAT_LANGUAGES' "python"). */
function formatIndex(check: string): number {
  return FORMAT_LANGUAGES.indexOf(check.slice(0, -"-format".length));
}

function declares(m: PoMessage, check: string): boolean {
  const kind = interpretFlags(m.flags).formats[formatIndex(check)];
  return kind === "yes" || kind === "possible";
}

function fromRest(m: PoMessage): boolean {
  return m.references.some((r) => r.file.endsWith(".rst"));
}

/** The checks off by default that the request did not name (only when it named none). */
function offByDefault(named: readonly string[] | undefined): NotRun[] {
  if (named !== undefined) return [];
  return CHECKS.filter((c) => !DEFAULT_CHECKS.includes(c.name)).map((c) => ({
    check: c.name,
    reason: "off by default: name it in checks to run it",
  }));
}

/**
 * What a check of one entry did not run (`named`: the request's checks, undefined for the
 * defaults; `withCatalogue`: a file_path gave its header).
 */
export function notRunForEntry(
  m: PoMessage,
  named: readonly string[] | undefined,
  withCatalogue: boolean,
): NotRun[] {
  const selected = named ?? DEFAULT_CHECKS;
  const out: NotRun[] = [];
  const translated = isCheckable(m, true);
  for (const check of new Set(selected)) {
    if (CATALOGUE.has(check)) {
      out.push({
        check,
        reason: withCatalogue
          ? "checks a whole catalogue: send file_path without entry"
          : "checks a whole catalogue: send file_path (or directory) without entry",
      });
    } else if (!translated) {
      out.push({ check, reason: "the entry has no translation: there is nothing to check" });
    } else if (REST.has(check) && named === undefined && !fromRest(m)) {
      out.push({
        check,
        reason: "the entry has no reference to a .rst file (occurrences): reST checks run on those; " +
          "name the check in checks to run it anyway",
      });
    } else if (FORMAT.has(check) && !declares(m, check)) {
      out.push({
        check,
        reason: `the entry has no ${check} flag: placeholders are checked by the entry's flags, as msgfmt -c`,
      });
    }
  }
  return [...out, ...offByDefault(named)];
}

/**
 * What a check of whole catalogues did not run: a reST check when no entry checked comes from a
 * `.rst` file, a format check when no entry checked has its flag (`messages`: every catalogue's
 * messages, or null when they are not known, e.g. for a tree: then only the checks off by default).
 */
export function notRunForCatalogues(
  messages: Iterable<PoMessage> | null,
  named: readonly string[] | undefined,
  includeFuzzy: boolean,
): NotRun[] {
  const out: NotRun[] = [];
  if (messages !== null) {
    const selected = new Set(named ?? DEFAULT_CHECKS);
    let anyRest = false;
    let anyChecked = false;
    const formats = new Set<string>();
    for (const m of messages) {
      if (!isCheckable(m, includeFuzzy)) continue;
      anyChecked = true;
      if (fromRest(m)) anyRest = true;
      for (const check of FORMAT) if (!formats.has(check) && declares(m, check)) formats.add(check);
    }
    for (const check of selected) {
      if (CATALOGUE.has(check)) continue;
      if (!anyChecked) {
        out.push({
          check,
          reason: includeFuzzy
            ? "no entry has a translation: there is nothing to check"
            : "no entry has a translation that is not fuzzy (include_fuzzy checks fuzzy ones too)",
        });
      } else if (REST.has(check) && named === undefined && !anyRest) {
        out.push({
          check,
          reason: "no entry checked comes from a .rst file: reST checks run on those; name the check in " +
            "checks to run it on every entry",
        });
      } else if (FORMAT.has(check) && !formats.has(check)) {
        out.push({ check, reason: `no entry checked has the ${check} flag` });
      }
    }
  }
  return [...out, ...offByDefault(named)];
}
