/**
 * The text side of terminology: which characters make words, where words may be glued to their
 * neighbours (Chinese, Japanese, Korean and Thai are written without spaces between words, so a
 * rendering there needs no word boundary), the words of a msgid with its code left out, and the
 * plural forms an English term takes. Every function is one forward pass over its text.
 *
 * @module
 */

const WORD = /[\p{L}\p{M}\p{N}]/u;

/** Per UTF-16 code unit above ASCII: 0 not looked up yet, 1 a word character, 2 not one. */
const WORD_TABLE = new Uint8Array(0x10000);

/** {@link isWordChar} of a code unit (a table filled as characters are met: no expression per character). */
export function isWordCode(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) ||
      code === 0x5f;
  }
  if (code >= 0xd800 && code <= 0xdfff) return true; // a supplementary character: Han extensions, mostly
  let v = WORD_TABLE[code]!;
  if (v === 0) WORD_TABLE[code] = v = WORD.test(String.fromCharCode(code)) ? 1 : 2;
  return v === 1;
}

/** True for a character of a word: a letter, a mark, a digit, or `_`. */
export function isWordChar(c: string | undefined): boolean {
  return c !== undefined && c !== "" && isWordCode(c.charCodeAt(0));
}

/**
 * True for a word character of a script written without spaces between words (Han, kana, Hangul
 * syllables and jamo, Thai, Lao, Khmer, Myanmar, full-width forms): a rendering there matches
 * inside a run of letters (a Korean particle is glued to its noun, 이터러블을).
 */
export function isUnspaced(c: string | undefined): boolean {
  if (c === undefined || c === "") return false;
  const code = c.charCodeAt(0);
  return (code >= 0x0e00 && code <= 0x0eff) || // Thai, Lao
    (code >= 0x1000 && code <= 0x109f) || // Myanmar
    (code >= 0x1100 && code <= 0x11ff) || // Hangul jamo
    (code >= 0x1780 && code <= 0x17ff) || // Khmer
    (code >= 0x2e80 && code <= 0xa4cf) || // CJK radicals, kana, Hangul compatibility, CJK, Yi
    (code >= 0xac00 && code <= 0xd7ff) || // Hangul syllables
    (code >= 0xd800 && code <= 0xdfff) || // supplementary (CJK extensions)
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility
    (code >= 0xff00 && code <= 0xffef); // full-width and half-width forms
}

/** True when a rendering edge at `c` needs a non-word neighbour: a word character of a spaced script. */
export function needsBoundary(c: string | undefined): boolean {
  return isWordChar(c) && !isUnspaced(c);
}

/** One word of a text: its lower-case form and where it is. */
export interface Token {
  word: string;
  start: number;
  end: number;
}

/** The words of `text`, lower-cased, in order (a word is a run of {@link isWordChar}). */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  // Lower-cased once; per word only where lower-casing changes a length (İ → i̇).
  const lower = text.toLowerCase();
  const same = lower.length === text.length;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const word = i < text.length && isWordCode(text.charCodeAt(i));
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      out.push({ word: same ? lower.slice(start, i) : text.slice(start, i).toLowerCase(), start, end: i });
      start = -1;
    }
  }
  return out;
}

/** Longest role name looked back at (`c:function`, `py:meth` are far shorter). */
const MAX_ROLE_NAME = 64;

/** Where a msgid's words are: prose, code (not looked at), or the text of a `:term:` role. */
export interface MarkupSpans {
  /** Inline literals, roles other than `:term:`, link and `:term:` targets, `*name*` parameters. */
  code: [number, number][];
  /** The content of `:term:` roles (`:term:\`iterable\`` gives `iterable`). */
  termRoles: [number, number][];
}

/**
 * The spans of a reST msgid that are code or names, not prose: inline literals (``…``), the
 * content of every role but `:term:` (`:func:\`open\``), the `<target>` of a `:term:` role or a
 * hyperlink, and an emphasised identifier (`*iterable*`: python-docs' way to name a parameter). A
 * term met there is not a term the translation must render. And the `:term:` roles' contents.
 * `[start, end)` pairs in text order. One forward pass: each closing mark is found by `indexOf`
 * from where the last span ended.
 */
export function markupSpans(text: string): MarkupSpans {
  const code: [number, number][] = [];
  const termRoles: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "*" && text[i + 1] !== "*" && text[i - 1] !== "*" && !isWordChar(text[i - 1])) {
      // *name*: an identifier between single stars.
      let j = i + 1;
      while (j < text.length && (isWordChar(text[j]) || text[j] === ".")) j++;
      if (j > i + 1 && text[j] === "*" && text[j + 1] !== "*") {
        code.push([i, j + 1]);
        i = j + 1;
        continue;
      }
      i = j;
      continue;
    }
    if (c !== "`") {
      i++;
      continue;
    }
    if (text.startsWith("``", i)) {
      const close = text.indexOf("``", i + 2);
      if (close < 0) break;
      code.push([i, close + 2]);
      i = close + 2;
      continue;
    }
    const close = text.indexOf("`", i + 1);
    if (close < 0) break;
    const role = roleBefore(text, i);
    if (role !== null && role !== "term") {
      code.push([i - role.length - 2, close + 1]);
    } else {
      if (role === "term") termRoles.push([i + 1, close]);
      // `text <target>`_ or :term:`text <target>`: the target is a name, the text is prose.
      // Looked for inside this role only (a search back to the text's start would make the scan
      // quadratic in a paragraph of many roles).
      if (text[close - 1] === ">") {
        let lt = close - 2;
        while (lt > i && text[lt] !== "<") lt--;
        if (lt > i) code.push([lt, close]);
      }
    }
    i = close + 1;
  }
  code.sort((a, b) => a[0] - b[0]);
  return { code, termRoles };
}

/** The role name written just before the backtick at `at` (`:func:` gives `func`), or null. */
function roleBefore(text: string, at: number): string | null {
  if (text[at - 1] !== ":") return null;
  let j = at - 2;
  const stop = Math.max(0, at - 2 - MAX_ROLE_NAME);
  while (j >= stop && text[j] !== ":" && (isWordChar(text[j]) || "-.+".includes(text[j]!))) j--;
  if (j < 0 || text[j] !== ":" || j === at - 2) return null;
  // `:py:func:` gives `func`: the last part names the role, as Sphinx resolves it.
  return text.slice(j + 1, at - 1);
}

/**
 * The forms an English noun's last word takes in a msgid: itself, +s, +es, y → ies (iterable,
 * iterables; class, classes; dictionary, dictionaries). Verbs and irregular plurals are the terms'
 * own rows in the terminology file.
 */
export function englishForms(word: string): string[] {
  const forms = [word, `${word}s`, `${word}es`];
  if (word.length > 2 && word.endsWith("y") && !/[aeiou]y$/.test(word)) forms.push(`${word.slice(0, -1)}ies`);
  return forms;
}
