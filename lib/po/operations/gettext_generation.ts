/**
 * Which gettext's layout a repository uses: the setting in its `.po-tools.toml` (`gettext = "0.23"`),
 * and, when nothing chose one, detection: which generation its catalogues are fixed points of
 * (`msgcat FILE` of that gettext prints them unchanged). Pure functions over text and file bytes; the
 * reading is the caller's (`cli/`).
 *
 * @module
 */
import { encodePo } from "../write/write.ts";
import { differsInEveryGeneration, LAID_OUT, laidOutVerdict, NOT_LAID_OUT } from "../write/laid_out.ts";
import { parsePo } from "../read/parse.ts";
import { type GettextGeneration, parseGeneration } from "../layout/generation.ts";
import { sameBytes } from "../../byte_runs.ts";

/** The most catalogues {@link detectGeneration} callers should sample (each is laid out twice at most). */
export const DETECTION_SAMPLE = 24;

/** The longest `.po-tools.toml` read: the setting is one line. */
export const MAX_SETTINGS_BYTES = 64 * 1024;

/**
 * The `gettext` key of a `.po-tools.toml` (top level, before any `[table]`): `gettext = "0.23"`.
 * Reads line by line (no regular expression over the whole text), the first `MAX_SETTINGS_BYTES`
 * only. Returns the generation, null when the key is absent, or an error line for a value that is
 * not a known generation.
 *
 * @example
 * ```ts
 * gettextSetting('# team layout\ngettext = "0.23"\n'); // "0.23"
 * ```
 */
export function gettextSetting(text: string): GettextGeneration | null | { error: string } {
  const lines = text.slice(0, MAX_SETTINGS_BYTES).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith("[")) return null; // a table: the key is top-level only
    if (!line.startsWith("gettext")) continue;
    const rest = line.slice("gettext".length).trimStart();
    if (!rest.startsWith("=")) continue;
    const value = rest.slice(1).trim();
    // A quoted string, then nothing or a comment.
    const quote = value[0];
    const close = quote === '"' || quote === "'" ? value.indexOf(quote, 1) : -1;
    const after = close < 0 ? "" : value.slice(close + 1).trim();
    const generation = close < 0 || (after !== "" && !after.startsWith("#"))
      ? null
      : parseGeneration(value.slice(1, close));
    if (generation === null) {
      return {
        error: `.po-tools.toml line ${i + 1}: gettext must be "0.21" or "0.23", not ${
          JSON.stringify(value.slice(0, 40))
        }`,
      };
    }
    return generation;
  }
  return null;
}

/** What {@link detectGeneration} found. */
export interface GenerationVotes {
  /** The generation the catalogues are laid out as, or null when none tells (none sampled, or ties). */
  generation: GettextGeneration | null;
  /** Catalogues that are fixed points of 0.21's msgcat only. */
  only021: number;
  /** Catalogues that are fixed points of 0.23.1's msgcat only. */
  only023: number;
  /** Fixed points of both (nothing that the two break differently). */
  both: number;
  /** Fixed points of neither (not laid out by msgcat, or unreadable). */
  neither: number;
  /** Both generations have catalogues only they lay out so: a team with both gettexts. */
  mixed: boolean;
}

/**
 * Whether `bytes` is what `msgcat` of `generation` prints for it. `everywhere` (optional) is told
 * whether the answer "no" holds for every generation (`differsInEveryGeneration`): then the other
 * generation's layout need not be made.
 */
function fixedPoint(bytes: Uint8Array, generation: GettextGeneration, everywhere?: { no: boolean }): boolean {
  const verdict = laidOutVerdict(bytes, false, generation);
  if (verdict === LAID_OUT) return true;
  if (verdict === NOT_LAID_OUT) {
    if (everywhere) everywhere.no = differsInEveryGeneration();
    return false;
  }
  try {
    return sameBytes(
      encodePo(parsePo(bytes, { placeholderCharset: generation === "0.23" }), { generation, once: true }),
      bytes,
    );
  } catch {
    return false;
  }
}

/**
 * Counts which generation each catalogue is a fixed point of; the majority of those only one of them
 * lays out so wins. Pass a bounded sample ({@link DETECTION_SAMPLE}).
 *
 * @example
 * ```ts
 * detectGeneration([bytesOfFrPo]).generation; // "0.21", "0.23" or null
 * ```
 */
export function detectGeneration(catalogues: readonly Uint8Array[]): GenerationVotes {
  return tallyVotes(catalogues.map(layoutVote));
}

/**
 * What {@link detectGeneration} elects, with less work: a catalogue that 0.21 lays out as it is is laid out
 * as 0.23 only when some other catalogue is 0.23's alone (only then does "0.21 only" or "both" change the
 * count that decides). The generation and `mixed` are always {@link detectGeneration}'s; the counts are
 * exact when `mixed` (what a note prints).
 */
export function electGeneration(catalogues: readonly Uint8Array[]): GenerationVotes {
  const neither = catalogues.map(() => ({ no: false }));
  const old = catalogues.map((bytes, i) => fixedPoint(bytes, "0.21", neither[i]));
  const now = catalogues.map((bytes, i) => !old[i]! && !neither[i]!.no && fixedPoint(bytes, "0.23"));
  if (now.includes(true)) return detectGeneration(catalogues);
  const only021 = old.filter(Boolean).length;
  return {
    generation: only021 > 0 ? "0.21" : null,
    only021,
    only023: 0,
    both: 0,
    neither: catalogues.length - only021,
    mixed: false,
  };
}

/** Which generations' msgcat print a catalogue as it is: one, both, or neither. */
export type LayoutVote = "0.21" | "0.23" | "both" | "neither";

/** The vote of one catalogue's bytes (see {@link detectGeneration}). */
export function layoutVote(bytes: Uint8Array): LayoutVote {
  const neither = { no: false };
  const old = fixedPoint(bytes, "0.21", neither);
  if (neither.no) return "neither";
  const now = fixedPoint(bytes, "0.23");
  return old && now ? "both" : old ? "0.21" : now ? "0.23" : "neither";
}

/** The count of votes (each from {@link layoutVote}) and the generation they elect. */
export function tallyVotes(each: readonly LayoutVote[]): GenerationVotes {
  const votes = { only021: 0, only023: 0, both: 0, neither: 0 };
  for (const vote of each) {
    if (vote === "both") votes.both++;
    else if (vote === "0.21") votes.only021++;
    else if (vote === "0.23") votes.only023++;
    else votes.neither++;
  }
  const generation = votes.only023 > votes.only021 ? "0.23" : votes.only021 > votes.only023 ? "0.21" : null;
  return { generation, ...votes, mixed: votes.only021 > 0 && votes.only023 > 0 };
}

/** One line describing a mixed tree, for a person (wrap's stderr, the server's health). */
export function mixedNote(votes: GenerationVotes, chosen: GettextGeneration): string {
  return `gettext layout: the catalogues are mixed (${votes.only021} laid out by gettext 0.21 only, ` +
    `${votes.only023} by 0.22+ only, ${votes.both} by both); using ${chosen}. ` +
    `Pin it with --gettext or gettext = "${chosen}" in .po-tools.toml`;
}
