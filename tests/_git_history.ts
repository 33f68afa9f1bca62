/**
 * A generated git history of one catalogue, for the history tests and bench: seeded random edits by
 * several authors (translations, fuzzy marks, flags, plural forms, entries added, removed and made
 * obsolete), layout-only commits (re-wraps at another width, entries moved, references changed),
 * renames of the file, and commits that touch another file only. Written with `git fast-import`
 * (thousands of commits in a second or two).
 *
 * @module
 */

/** One entry of the generated catalogue. */
interface GenEntry {
  msgctxt: string | null;
  msgid: string;
  msgidPlural: string | null;
  msgstr: string;
  plural: string[];
  flags: string[];
  obsolete: boolean;
  line: number;
}

/** What to generate. */
export interface HistoryPlan {
  commits: number;
  seed: number;
  /** Live entries at the start (default 30). */
  entries?: number;
  /** Lays a version out again at `width` (e.g. through msgcat); default: this file's own wrapping. */
  rewrap?: (text: string, width: number) => string;
}

const AUTHORS = ["Alice Martin", "Bob Chen", "Carol Díaz"];
const WORDS = ("the a file module function returns value list of when this is used to call with an " +
  "object string number error open close read write path name type default option each new old").split(" ");

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quoteLines(keyword: string, text: string, width: number, prefix = ""): string {
  const full = `${prefix}${keyword} "${text}"`;
  if (full.length <= width || !text.includes(" ")) return `${full}\n`;
  const lines = [`${prefix}${keyword} ""`];
  let line = "";
  for (const word of text.split(/(?<= )/)) {
    if (line !== "" && line.length + word.length + prefix.length + 2 > width) {
      lines.push(`${prefix}"${line}"`);
      line = "";
    }
    line += word;
  }
  if (line !== "") lines.push(`${prefix}"${line}"`);
  return `${lines.join("\n")}\n`;
}

/** The catalogue's text at `width`. */
function render(entries: readonly GenEntry[], width: number): string {
  let out = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
    '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n';
  for (const e of entries) {
    out += "\n";
    const p = e.obsolete ? "#~ " : "";
    if (!e.obsolete) out += `#: src/${e.msgid.split(" ")[0]}.py:${e.line}\n`;
    if (e.flags.length > 0) out += `#, ${e.flags.join(", ")}\n`;
    if (e.msgctxt !== null) out += quoteLines("msgctxt", e.msgctxt, width, p);
    out += quoteLines("msgid", e.msgid, width, p);
    if (e.msgidPlural !== null) {
      out += quoteLines("msgid_plural", e.msgidPlural, width, p);
      e.plural.forEach((s, i) => out += quoteLines(`msgstr[${i}]`, s, width, p));
    } else {
      out += quoteLines("msgstr", e.msgstr, width, p);
    }
  }
  return out;
}

/** Writes the history into the (new, empty) repository at `repo`, on branch main, and checks it out. */
export async function generateHistory(repo: string, plan: HistoryPlan): Promise<{ paths: string[] }> {
  const random = rng(plan.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const entries: GenEntry[] = [];
  let serial = 0;
  const newEntry = (): GenEntry => {
    const n = serial++;
    const plural = n % 7 === 3;
    return {
      msgctxt: n % 5 === 2 ? "menu" : null,
      // Every fifth has a twin without msgctxt: the key is (msgctxt, msgid).
      msgid: n % 5 === 2 ? `entry ${n - 1} ${sentence(3)}` : `entry ${n} ${sentence(2 + (n % 9))}`,
      msgidPlural: plural ? `entries ${n}` : null,
      msgstr: "",
      plural: plural ? ["", ""] : [],
      flags: n % 4 === 0 ? ["python-format"] : [],
      obsolete: false,
      line: 10 + n,
    };
  };
  for (let i = 0; i < (plan.entries ?? 30); i++) entries.push(newEntry());
  const paths = ["po/fr.po", "locale/fr/LC_MESSAGES/docs.po", "fr/docs v2.po"];
  let path = paths[0]!;
  let width = 79;
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const emit = (s: string | Uint8Array) => chunks.push(typeof s === "string" ? enc.encode(s) : s);
  const data = (text: string) => {
    const bytes = enc.encode(text);
    emit(`data ${bytes.length}\n`);
    emit(bytes);
    emit("\n");
  };
  const live = () => entries.filter((e) => !e.obsolete);
  for (let c = 0; c < plan.commits; c++) {
    const author = c === 0 ? AUTHORS[0]! : pick(AUTHORS);
    let subject = "Initial catalogue";
    let rename: [string, string] | null = null;
    let otherFile = false;
    if (c > 0) {
      const r = random();
      const e = pick(live());
      if (r < 0.3) {
        if (e.msgidPlural !== null) e.plural = [sentence(2), sentence(3)];
        else e.msgstr = sentence(1 + Math.floor(random() * 20));
        e.flags = e.flags.filter((f) => f !== "fuzzy");
        subject = `Translate ${e.msgid.slice(0, 20)}`;
      } else if (r < 0.4) {
        e.flags = e.flags.includes("fuzzy") ? e.flags.filter((f) => f !== "fuzzy") : ["fuzzy", ...e.flags];
        subject = "Toggle fuzzy";
      } else if (r < 0.47) {
        e.flags = e.flags.includes("python-format")
          ? e.flags.filter((f) => f !== "python-format")
          : [...e.flags, "python-format"];
        subject = "Flags";
      } else if (r < 0.57) {
        width = 30 + Math.floor(random() * 50);
        subject = `Re-wrap at ${width}`;
      } else if (r < 0.65) {
        const from = entries.indexOf(e);
        entries.splice(from, 1);
        entries.splice(Math.floor(random() * (entries.length + 1)), 0, e);
        subject = "Move an entry";
      } else if (r < 0.7) {
        e.line += 1 + Math.floor(random() * 5);
        subject = "References";
      } else if (r < 0.75) {
        const o = pick(entries);
        o.obsolete = !o.obsolete;
        if (!o.obsolete) entries.push(entries.splice(entries.indexOf(o), 1)[0]!);
        else entries.push(entries.splice(entries.indexOf(o), 1)[0]!);
        subject = "Obsolete or revive";
      } else if (r < 0.8) {
        entries.splice(Math.floor(random() * entries.length), 0, newEntry());
        subject = "New source string";
      } else if (r < 0.83 && live().length > 5) {
        entries.splice(entries.indexOf(e), 1);
        subject = "Remove a string";
      } else if (r < 0.85) {
        const next = paths[(paths.indexOf(path) + 1) % paths.length]!;
        rename = [path, next];
        subject = `Move to ${next}`;
      } else if (r < 0.9) {
        otherFile = true;
        subject = "Unrelated";
      } else {
        e.msgstr = e.msgidPlural === null ? `${e.msgstr} ${pick(WORDS)}`.trim() : e.msgstr;
        if (e.msgidPlural !== null) e.plural = [e.plural[0] ?? "", `${pick(WORDS)}`];
        subject = "Fix a typo";
      }
    }
    const email = author.split(" ")[0]!.toLowerCase();
    const when = 1_700_000_000 + c * 60;
    emit(`commit refs/heads/main\nmark :${c + 1}\n`);
    emit(`author ${author} <${email}@example.org> ${when} +0000\n`);
    emit(`committer ${author} <${email}@example.org> ${when} +0000\n`);
    data(subject);
    if (otherFile) {
      emit("M 100644 inline README\n");
      data(`commit ${c}\n`);
      continue;
    }
    if (rename !== null) {
      emit(`R "${rename[0]}" "${rename[1]}"\n`);
      path = rename[1];
      continue;
    }
    let text = render(entries, width);
    if (plan.rewrap && subject.startsWith("Re-wrap")) text = plan.rewrap(text, width);
    emit(`M 100644 inline "${path}"\n`);
    data(text);
  }
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const stream = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    stream.set(c, at);
    at += c.length;
  }
  await git(repo, ["init", "-q", "-b", "main"]);
  await git(repo, ["fast-import", "--quiet"], stream);
  await git(repo, ["checkout", "-q", "-f", "main"]);
  return { paths: [path] };
}

/** Runs git in `cwd` (test side), failing loudly. */
export async function git(cwd: string, args: string[], stdin?: Uint8Array): Promise<string> {
  const child = new Deno.Command("git", {
    args: ["-c", "user.name=Test", "-c", "user.email=test@example.org", ...args],
    cwd,
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin) {
    const w = child.stdin.getWriter();
    await w.write(stdin);
    await w.close();
  }
  const out = await child.output();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}
