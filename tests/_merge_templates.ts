/**
 * Templates made from real catalogues for the merge tests: a catalogue's entries with the
 * translations stripped (what xgettext would extract), then changed the ways a new version of a
 * program changes them.
 *
 * @module
 */
import type { PoCatalog, PoMessage } from "../lib/po/types.ts";

/** How a template differs from the catalogue it was made from. */
export interface TemplateVariant {
  /** Drop every Nth entry (it becomes obsolete in the merge); 0 keeps all. */
  dropEvery: number;
  /** Add this many new entries (one in three plural), spread through the file. */
  add: number;
  /** Change the msgid of every Nth entry a little (for fuzzy matching); 0 changes none. */
  editEvery: number;
  /** Move every reference's line by this much, and replace extracted comments on every 3rd entry. */
  shiftLines: number;
}

function stripped(m: PoMessage): PoMessage {
  return {
    ...m,
    msgstr: "",
    msgstrPlural: m.msgidPlural !== null ? ["", ""] : null,
    translatorComments: [],
    flags: m.flags.filter((f) => f !== "fuzzy"),
    previousMsgctxt: null,
    previousMsgid: null,
    previousMsgidPlural: null,
  };
}

/** A small change to a msgid that keeps it similar (a word added, or a letter changed). */
function edited(msgid: string, i: number): string {
  if (i % 2 === 0) return msgid + " (updated)";
  const at = Math.floor(msgid.length / 2);
  return msgid.slice(0, at) + (msgid[at] === "x" ? "y" : "x") + msgid.slice(at + 1);
}

/** The template: header made a template's (fuzzy, new POT-Creation-Date), entries as `variant` says. */
export function makeTemplate(def: PoCatalog, variant: TemplateVariant): PoCatalog {
  const out: PoMessage[] = [];
  let n = 0;
  let added = 0;
  const live = def.messages.filter((m) => !m.obsolete && m.domain === undefined);
  const keys = new Set(def.messages.map((m) => `${m.msgctxt}\u0004${m.msgid}`));
  const spread = variant.add > 0 ? Math.max(1, Math.floor(live.length / variant.add)) : 0;
  for (const m of live) {
    if (m.msgid === "" && m.msgctxt === null) {
      const msgstr = m.msgstr
        .replace(/POT-Creation-Date:[^\n]*/, "POT-Creation-Date: 2099-01-02 03:04+0000")
        .replace(/Report-Msgid-Bugs-To:[^\n]*/, "Report-Msgid-Bugs-To: bugs@example.org");
      out.push({ ...m, msgstr, flags: ["fuzzy"], translatorComments: ["SOME DESCRIPTIVE TITLE."] });
      continue;
    }
    n++;
    if (variant.dropEvery > 0 && n % variant.dropEvery === 0) continue;
    let t = stripped(m);
    if (variant.editEvery > 0 && n % variant.editEvery === 0) {
      const msgid = edited(t.msgid, n);
      const key = `${t.msgctxt}\u0004${msgid}`;
      if (!keys.has(key)) {
        keys.add(key);
        t = { ...t, msgid };
      }
    }
    if (variant.shiftLines !== 0) {
      t = {
        ...t,
        references: t.references.map((r) => ({
          file: r.file,
          line: r.line === null ? null : r.line + variant.shiftLines,
        })),
        extractedComments: n % 3 === 0 ? [`Extracted note ${n}`] : t.extractedComments,
      };
    }
    out.push(t);
    if (spread > 0 && n % spread === 0 && added < variant.add) {
      added++;
      const plural = added % 3 === 0;
      out.push({
        ...stripped(m),
        msgctxt: null,
        msgid: `Brand new message number ${added}`,
        msgidPlural: plural ? `Brand new messages number ${added}` : null,
        msgstrPlural: plural ? ["", ""] : null,
        extractedComments: [],
        references: [{ file: "src/new.c", line: added }],
        flags: plural ? ["c-format"] : [],
      });
    }
  }
  return { ...def, messages: out, fileName: "template.pot" };
}
