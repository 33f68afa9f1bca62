/**
 * The Plural-Forms msginit 0.21 writes for a language (issue 34.8): gettext's own table of
 * languages (`gettext-tools/src/plural-table.c`, "Formulas taken from the documentation, node
 * Plural forms", https://git.savannah.gnu.org/cgit/gettext.git/tree/gettext-tools/src/plural-table.c),
 * which msginit consults first, then, for a language that table lacks, the rule gettext's
 * `cldr-plurals` derives from the Unicode CLDR (msginit's second source; CLDR 41, Debian's
 * unicode-cldr-core). Each rule below is what
 * `GETTEXTCLDRDIR=/usr/share/unicode/cldr msginit --no-translator -l LANG` printed with gettext
 * 0.21; tests/po_plural_rules_test.ts compares them with msginit again where it is installed.
 *
 * @module
 */
import { evaluatePlural } from "./_plural_forms.ts";
import { checkPluralForms, type PluralForms } from "./header.ts";

/** Where a rule comes from: gettext's table, or CLDR through gettext's cldr-plurals. */
export type PluralRuleSource = "gettext" | "cldr";

/** Language (as msginit looks it up: `ll_CC` first, then `ll`) → its rule and the rule's source. */
const RULES: ReadonlyMap<string, readonly [string, PluralRuleSource]> = new Map([
  ["ja", ["nplurals=1; plural=0;", "gettext"]],
  ["vi", ["nplurals=1; plural=0;", "gettext"]],
  ["ko", ["nplurals=1; plural=0;", "gettext"]],
  ["en", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["de", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["nl", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["sv", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["da", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["no", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["nb", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["nn", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["fo", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["es", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["pt", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["it", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["bg", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["el", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["fi", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["et", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["he", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["eo", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["hu", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["tr", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["ca", ["nplurals=2; plural=(n != 1);", "gettext"]],
  ["pt_BR", ["nplurals=2; plural=(n > 1);", "gettext"]],
  ["fr", ["nplurals=2; plural=(n > 1);", "gettext"]],
  ["lv", ["nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);", "gettext"]],
  ["ga", ["nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;", "gettext"]],
  ["ro", ["nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;", "gettext"]],
  ["lt", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["ru", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["uk", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["be", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["sr", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["hr", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["cs", ["nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", "gettext"]],
  ["sk", ["nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", "gettext"]],
  ["pl", [
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "gettext",
  ]],
  ["sl", ["nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);", "gettext"]],
  ["zh", ["nplurals=1; plural=0;", "cldr"]],
  ["id", ["nplurals=1; plural=0;", "cldr"]],
  ["th", ["nplurals=1; plural=0;", "cldr"]],
  ["ar", [
    "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 && n%100<=99 ? 4 : 5);",
    "cldr",
  ]],
  ["cy", ["nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);", "cldr"]],
  ["fa", ["nplurals=2; plural=(n==0 || n==1);", "cldr"]],
  ["hi", ["nplurals=2; plural=(n==0 || n==1);", "cldr"]],
  ["bn", ["nplurals=2; plural=(n==0 || n==1);", "cldr"]],
  ["ms", ["nplurals=1; plural=0;", "cldr"]],
  ["ta", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["te", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["mr", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["ur", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["sq", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["hy", ["nplurals=2; plural=(n > 1);", "cldr"]],
  ["ka", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["kk", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["az", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["eu", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["gl", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["is", ["nplurals=2; plural=(n%10==1 && n%100!=11);", "cldr"]],
  ["mk", ["nplurals=2; plural=(n%10==1 && n%100!=11);", "cldr"]],
  ["mn", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["ne", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["si", ["nplurals=2; plural=(n > 1);", "cldr"]],
  ["sw", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["af", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["km", ["nplurals=1; plural=0;", "cldr"]],
  ["lo", ["nplurals=1; plural=0;", "cldr"]],
  ["my", ["nplurals=1; plural=0;", "cldr"]],
  ["pa", ["nplurals=2; plural=(n > 1);", "cldr"]],
  ["gu", ["nplurals=2; plural=(n==0 || n==1);", "cldr"]],
  ["kn", ["nplurals=2; plural=(n==0 || n==1);", "cldr"]],
  ["ml", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["bs", [
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);",
    "cldr",
  ]],
  ["ky", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["uz", ["nplurals=2; plural=(n != 1);", "cldr"]],
  ["tl", ["nplurals=2; plural=(n==1 || n==2 || n==3 || (n%10!=4 && n%10!=6 && n%10!=9));", "cldr"]],
]);

/** Every language the table knows (`ll`, or `ll_CC` where msginit has a rule for the territory). */
export const PLURAL_RULE_LANGUAGES: readonly string[] = /* @__PURE__ */ Array.from(
  /* @__PURE__ */ RULES.keys(),
);

/** The rule msginit writes for a language, and whence. */
export interface ExpectedPluralForms {
  /** The table's key that matched (`pt_BR`, or the language alone: `zh` for `zh_CN`). */
  language: string;
  /** The Plural-Forms value, as msginit writes it. */
  rule: string;
  nplurals: number;
  source: PluralRuleSource;
}

/**
 * The Plural-Forms msginit gives `language` (a header's `Language`: `zh_CN`, `pt-BR`, `sr@latin`),
 * or null when neither gettext's table nor CLDR (as listed here) knows it.
 *
 * @example
 * ```ts
 * expectedPluralForms("zh_CN")?.rule; // "nplurals=1; plural=0;"
 * ```
 */
export function expectedPluralForms(language: string): ExpectedPluralForms | null {
  const spelled = language.trim().replace(/@.*$/, "").replace(/\..*$/, "").replace("-", "_");
  const [ll = "", cc] = spelled.split("_");
  const keys = cc === undefined
    ? [ll.toLowerCase()]
    : [`${ll.toLowerCase()}_${cc.toUpperCase()}`, ll.toLowerCase()];
  for (const key of keys) {
    const found = RULES.get(key);
    if (found === undefined) continue;
    const [rule, source] = found;
    return { language: key, rule, nplurals: Number(/nplurals=(\d+)/.exec(rule)![1]), source };
  }
  return null;
}

/**
 * Whether two valid Plural-Forms say the same: as many forms, and the same form for every n of
 * 0..1000 (msgfmt's range) and a few large ones. So `plural=n != 1` equals `plural=(n != 1)`.
 */
export function samePluralForms(a: PluralForms, b: PluralForms): boolean {
  if (a.nplurals !== b.nplurals) return false;
  for (let n = 0n; n <= 1000n; n++) {
    if (evaluatePlural(a.plural, n) !== evaluatePlural(b.plural, n)) return false;
  }
  for (const n of [10_000n, 100_001n, 1_000_000n]) {
    if (evaluatePlural(a.plural, n) !== evaluatePlural(b.plural, n)) return false;
  }
  return true;
}

/**
 * When the header's Plural-Forms is valid but not the rule of its `Language`: the expected rule,
 * else null (no Language, a language not known here, no or an invalid Plural-Forms, or they agree).
 */
export function pluralFormsMismatch(
  language: string | null,
  pluralForms: string | null,
): ExpectedPluralForms | null {
  if (language === null || pluralForms === null) return null;
  const expected = expectedPluralForms(language);
  if (expected === null) return null;
  const have = checkPluralForms(pluralForms);
  if (typeof have === "string") return null;
  const want = checkPluralForms(expected.rule);
  if (typeof want === "string") return null;
  return samePluralForms(have, want) ? null : expected;
}
