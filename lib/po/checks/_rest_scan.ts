/**
 * One pass over a reStructuredText paragraph (a msgid or msgstr of a Sphinx catalogue) that finds
 * what the reST checks compare: roles with their targets, inline literals, hyperlinks, emphasis
 * markers, and the markup mistakes sphinx-lint reports for translations (its checkers.py and
 * rst.py, sphinx-contrib/sphinx-lint). sphinx-lint uses backtracking regular expressions; this is
 * a hand-written scanner instead: every look-back is bounded ({@link MAX_NAME}), every search moves
 * forward, so a scan is linear in the text.
 *
 * @module
 */

/** Longest role name looked at (`c:function`, `py:meth` are far shorter). */
const MAX_NAME = 64;

/** One markup mistake: its kind (stable, for counting) and the text around it. */
export interface RestIssue {
  kind: RestIssueKind;
  text: string;
}

/** The mistakes the scanner reports. */
export type RestIssueKind =
  | "role-unclosed"
  | "role-no-backticks"
  | "role-missing-colon"
  | "role-glued-before"
  | "role-glued-after"
  | "role-double-backticks"
  | "role-extra-backtick"
  | "interpreted-unclosed"
  | "literal-unclosed"
  | "literal-glued"
  | "link-no-underscore"
  | "link-no-space"
  | "strong-unbalanced"
  | "emphasis-unbalanced";

/** What one scan found. */
export interface RestScan {
  /** Complete roles: name (`func`, `c:func`; a `py:` prefix dropped) and target (`open`, `label`). */
  roles: { name: string; target: string; text: string }[];
  /** Targets of hyperlink references: `` `text <URL>`_ `` gives URL. */
  links: string[];
  issues: RestIssue[];
}

const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  // ASCII first: most characters of a catalogue are, and a regular expression per character is slow.
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  return WORD.test(c);
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && (isWordChar(c) || c === "-" || c === "." || c === "+" || c === ":" || c === "_");
}

/** White space as docutils sees it (Python's Unicode `\s`: no-break spaces included, French uses them). */
function isSpace(c: string | undefined): boolean {
  if (c === undefined) return true;
  const code = c.charCodeAt(0);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return SPACE.test(c);
}

/** True when `name` is sphinx-lint's SIMPLENAME: word characters joined by single `-._+:`. */
function isSimpleName(name: string): boolean {
  if (name.length === 0) return false;
  let previousSeparator = true;
  for (const c of name) {
    if (c === "_" && previousSeparator) return false;
    const word = isWordChar(c);
    if (!word && !(c === "-" || c === "." || c === "+" || c === ":" || c === "_")) return false;
    if (!word && c !== "_") {
      if (previousSeparator) return false;
      previousSeparator = true;
    } else previousSeparator = false;
  }
  return !previousSeparator;
}

/** The role target of a role's content: `text <target>` gives target; `~a.b` and `!a` give a.b, a. */
export function roleTarget(content: string): string {
  let t = content.trim();
  if (t.endsWith(">")) {
    const open = t.lastIndexOf("<");
    if (open >= 0) t = t.slice(open + 1, -1);
  }
  // `~`, `!` and a leading `.` change how the target is shown or searched, not what it names.
  while (t.startsWith("~") || t.startsWith("!") || t.startsWith(".")) t = t.slice(1);
  return t.trim();
}

/** Shortens text for a message. */
function around(s: string, from: number, to: number): string {
  const a = Math.max(0, from);
  const b = Math.min(s.length, to, a + 60);
  return s.slice(a, b) + (b < to ? "…" : "");
}

/**
 * What precedes a backtick at `at`: a role head `:name:` (name returned), a broken one (an issue
 * kind), or nothing.
 */
function roleBefore(
  s: string,
  at: number,
): { name: string | null; issue: RestIssueKind | null; start: number } {
  let k = at;
  while (k > 0 && at - k < MAX_NAME && isNameChar(s[k - 1])) k--;
  const run = s.slice(k, at);
  if (run.length < 2) return { name: null, issue: null, start: at };
  const starts = run.startsWith(":");
  const ends = run.endsWith(":");
  if (starts && ends && run.length >= 3 && isSimpleName(run.slice(1, -1))) {
    return { name: run.slice(1, -1), issue: isWordChar(s[k - 1]) ? "role-glued-before" : null, start: k };
  }
  if (!starts && ends) {
    // "the:func:`x`" (no space before the role) or "issue:`123`" (no opening colon); sphinx-lint
    // looks at the same shape. A run that is only a word ("see:") is left alone unless it looks like a role.
    const inner = run.slice(0, -1);
    const colon = inner.lastIndexOf(":");
    if (colon >= 0 && isSimpleName(inner.slice(colon + 1))) {
      // "C-:term:`x`": punctuation may come right before a role (docutils' start-string rule).
      const before = inner.charAt(colon - 1);
      const allowed = colon > 0 && /[\p{Ps}\p{Pi}\p{Pf}\p{Pd}\p{Po}]/u.test(before);
      return { name: inner.slice(colon + 1), issue: allowed ? null : "role-glued-before", start: k + colon };
    }
    return { name: null, issue: null, start: at };
  }
  if (starts && !ends && isSimpleName(run.slice(1)) && isSpace(s[k - 1])) {
    return { name: null, issue: "role-missing-colon", start: k };
  }
  return { name: null, issue: null, start: at };
}

/**
 * Scans one text.
 *
 * @example
 * ```ts
 * scanRest("See :func:`open` and `docs <https://x.org>`_.").roles; // [{ name: "func", target: "open", … }]
 * ```
 */
export function scanRest(s: string): RestScan {
  const roles: RestScan["roles"] = [];
  const links: string[] = [];
  const issues: RestIssue[] = [];
  let strong = 0;
  let emOpen = 0;
  let emClose = 0;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "`") {
      let r = i;
      while (s[r] === "`") r++;
      const run = r - i;
      if (run === 2) {
        const head = s[i - 1] === ":" ? roleBefore(s, i) : null;
        if (head?.name) issues.push({ kind: "role-double-backticks", text: around(s, head.start, i + 20) });
        else if (isWordChar(s[i - 1])) {
          issues.push({ kind: "literal-glued", text: around(s, i - 10, i + 20) });
        }
        const close = s.indexOf("``", i + 2);
        if (close < 0) {
          issues.push({ kind: "literal-unclosed", text: around(s, i, i + 40) });
          break;
        }
        let after = close + 2;
        while (s[after] === "`") after++;
        if (isWordChar(s[after]) && !head?.name) {
          issues.push({ kind: "literal-glued", text: around(s, close - 10, after + 10) });
        }
        i = after;
        continue;
      }
      if (run >= 3) {
        i = r;
        continue;
      }
      // A single backtick: interpreted text, a role, or a hyperlink reference.
      const head = s[i - 1] === ":" || isNameChar(s[i - 1])
        ? roleBefore(s, i)
        : { name: null, issue: null, start: i };
      const close = s.indexOf("`", i + 1);
      if (close < 0) {
        issues.push({
          kind: head.name ? "role-unclosed" : "interpreted-unclosed",
          text: around(s, head.start, i + 40),
        });
        break;
      }
      if (head.issue) issues.push({ kind: head.issue, text: around(s, head.start, close + 1) });
      const content = s.slice(i + 1, close);
      let after = close + 1;
      if (s[after] === "`") {
        if (head.name) issues.push({ kind: "role-extra-backtick", text: around(s, head.start, after + 1) });
        while (s[after] === "`") after++;
      }
      let underscores = 0;
      while (s[after] === "_" && underscores < 2) {
        after++;
        underscores++;
      }
      if (head.name) {
        let name = head.name;
        if (name.startsWith("py:")) name = name.slice(3);
        roles.push({ name, target: roleTarget(content), text: s.slice(head.start, close + 1) });
      }
      const lt = content.lastIndexOf("<");
      const url = content.endsWith(">") && lt >= 0 ? content.slice(lt + 1, -1) : null;
      if (url !== null && /^https?:\/\//.test(url)) {
        if (underscores > 0) links.push(url);
        else if (!head.name) issues.push({ kind: "link-no-underscore", text: around(s, i, after) });
        if (lt > 0 && !isSpace(content[lt - 1])) {
          issues.push({ kind: "link-no-space", text: around(s, i, after) });
        }
      }
      if (isWordChar(s[after]) && (head.name || underscores > 0)) {
        issues.push({ kind: "role-glued-after", text: around(s, head.start, after + 10) });
      }
      i = after;
      continue;
    }
    if (c === "*") {
      let r = i;
      while (s[r] === "*") r++;
      if (r - i === 2) strong++;
      else if (r - i === 1) {
        const before = s[i - 1];
        const next = s[r];
        // docutils: a start-string follows white space or punctuation, an end-string precedes it.
        const opens = (isSpace(before) || /[\p{Ps}\p{Pi}\p{Pf}\p{Pd}\p{Po}<]/u.test(before!)) &&
          !isSpace(next);
        const closes = !isSpace(before) &&
          (isSpace(next) || /[\p{Pe}\p{Pi}\p{Pf}\p{Pd}\p{Po}>]/u.test(next!));
        if (opens && !closes) emOpen++;
        else if (closes && !opens) emClose++;
      }
      i = r;
      continue;
    }
    if (c === ":" && isSpace(s[i - 1])) {
      // ":func:open" — a role without backticks (sphinx-lint: ROLE_WITH_NO_BACKTICKS_RE).
      let end = i + 1;
      while (end < n && !isSpace(s[end])) end++;
      const token = s.slice(i, end);
      if (token.includes("`")) {
        // A role with its backticks (or a broken one): the backtick branch reads it.
        i++;
        continue;
      }
      let found = false;
      for (let p = token.indexOf(":", 1); p > 0 && p <= MAX_NAME; p = token.indexOf(":", p + 1)) {
        const next = token[p + 1];
        if (next !== undefined && next !== ":" && isSimpleName(token.slice(1, p))) {
          issues.push({ kind: "role-no-backticks", text: around(token, 0, token.length) });
          found = true;
          break;
        }
      }
      // A token without a role is read on, character by character (it may hold ** or *).
      i = found ? end : i + 1;
      continue;
    }
    i++;
  }
  if (strong % 2 === 1) issues.push({ kind: "strong-unbalanced", text: "**" });
  if (emOpen !== emClose) issues.push({ kind: "emphasis-unbalanced", text: "*" });
  return { roles, links, issues };
}
