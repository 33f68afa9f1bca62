/**
 * Break opportunities of Unicode line breaking (UAX #14 of Unicode 16) as libunistring 1.3 computes
 * them (`u8_possible_linebreaks_v2`), which is what GNU msgcat 0.23.1 wraps with in Debian trixie.
 * Unlike 1.0's (`_linebreak.ts`), its rules look at the East-Asian width of neighbours (LB19a, LB30)
 * and up to two characters ahead (LB15b, LB15c, LB25, LB28a), and a break after `.` `,` `:` `;` before
 * a letter is gone (LB29): a per-character automaton no longer holds it, so the scan keeps the state
 * the library keeps. Data: `_unicode_data_023.ts`, read from the library itself; the rules were
 * checked against the library on random strings (`tests/po_layout_023_test.ts`).
 *
 * @module
 */
import { astralValue, type CodePointTable, codePointTable } from "./_code_point_runs.ts";
import { LINE_BREAK_RUNS_023, PAIR_TABLE_023, WIDTH_RUNS_023 } from "./_unicode_data_023.ts";
import { BREAK_MANDATORY, BREAK_POSSIBLE, BREAK_PROHIBITED } from "./_linebreak.ts";

// The library's property numbers (`PROPERTY_NAMES_023`).
const WJ = 0, GL = 1, BA = 3, HY = 5, CL = 6, CP1 = 7, CP2 = 8, EX = 9, OP1 = 12, OP2 = 13;
const QU1 = 14, QU2 = 15, QU3 = 16, IS = 17, NU = 18, PO = 19, PR = 20, SY = 21, AL1 = 22, AL2 = 23;
const ID1 = 26, HL = 31, AK = 33, AS = 34, VI = 35, VF = 36, RI = 37, ZWJ = 38;
const BK = 41, CR = 42, LF = 43, CM = 44, ZW = 45, SP = 46, CB = 47, AI = 48, SA = 49, XX = 50;
/** Run-time only: a virama after a consonant (LB28a), Hebrew then a hyphen (LB21a). */
const AKLS_VI = 100, HL_BA = 101; // deno-fmt-ignore
const PAIR_COUNT = 41;

const P = 0, I = 1, D = 2; // deno-fmt-ignore
/**
 * The tables, built on first use: a catalogue laid out as 0.21 (the default) never pays for them,
 * which matters to `wrap`'s start-up (a pre-commit hook pays it on every commit).
 */
interface Tables023 {
  pairs: Uint8Array;
  props: CodePointTable;
  widths: CodePointTable;
}
let tables: Tables023 | null = null;

function tables023(): Tables023 {
  return tables ??= {
    pairs: Uint8Array.from(PAIR_TABLE_023, (c) => c === "D" ? D : c === "I" ? I : P),
    props: codePointTable(LINE_BREAK_RUNS_023, (v) => v),
    widths: codePointTable(WIDTH_RUNS_023, (w) => Math.max(0, w)),
  };
}

/** Property × 2 + East-Asian bit of every BMP code point. */
export function bmpProps023(): Uint8Array {
  return tables023().props.bmp;
}

/** Column width of every BMP code point as libunistring 1.3's `uc_width` counts it (controls 0). */
export function bmpWidths023(): Uint8Array {
  return tables023().widths.bmp;
}

/** Property × 2 + East-Asian bit of a code point. */
export function propertyOf023(codePoint: number): number {
  const props = (tables ?? tables023()).props;
  return codePoint < 0x10000 ? props.bmp[codePoint]! : astralValue(props, codePoint);
}

/** Column width of a code point above U+FFFF (libunistring 1.3). */
export function astralWidth023(codePoint: number): number {
  return astralValue(tables023().widths, codePoint);
}

/** The property of the artificial "end of text" that the lookahead reads past the last character. */
const END = BK * 2;

function isQuote(prop: number): boolean {
  return prop === QU1 || prop === QU2 || prop === QU3;
}

/**
 * For the characters `codePoints[0..n)` whose properties (× 2 + East-Asian bit, {@link propertyOf023})
 * are `props[0..n)`, sets `out[i]` to whether a line may begin at character i ({@link BREAK_POSSIBLE},
 * {@link BREAK_PROHIBITED}, or {@link BREAK_MANDATORY} for a BK/LF/CR character), as
 * `u8_possible_linebreaks_v2` does for the whole text (no CR LF pairs: msgcat escapes both).
 * `cjk`: the file is in a CJK encoding (ambiguous characters break as ideographs).
 */
export function possibleLineBreaks023(
  codePoints: Int32Array,
  props: Uint8Array,
  n: number,
  cjk: boolean,
  out: Uint8Array,
): void {
  const pairs = tables023().pairs;
  const aiReplacement = cjk ? ID1 : AL1;
  let precedingProp = BK;
  let prevProp = BK;
  let prevEa = 0;
  let prev2Ea = 0;
  let prevInitialHyphen = false;
  let prevNus = false;
  let lastProp = BK;
  let seenSpace = false;
  let riCount = 0;
  for (let i = 0; i < n; i++) {
    const uc = codePoints[i]!;
    const propEa = props[i]!;
    let prop = propEa >> 1;
    const ea = propEa & 1;
    const ahead1 = i + 1 < n ? props[i + 1]! : END;
    const ahead2 = i + 2 < n ? props[i + 2]! : END;
    const ahead1Prop = ahead1 >> 1;
    const nus: boolean = prevProp === NU || (prevNus && (prevProp === SY || prevProp === IS));
    let brk = BREAK_PROHIBITED;
    if (prop === BK || prop === LF || prop === CR) {
      brk = BREAK_MANDATORY;
      lastProp = BK;
      seenSpace = false;
    } else {
      if (prop === AI) prop = aiReplacement;
      else if (prop === CB) prop = ID1;
      else if (prop === SA || prop === XX) prop = AL1;
      if (prop === SP) {
        seenSpace = true;
      } else if (prop === ZW) {
        lastProp = ZW;
        seenSpace = false;
      } else if (prop === CM || prop === ZWJ) {
        if (lastProp === BK) {
          lastProp = AL1;
          seenSpace = false;
        } else if (
          lastProp === ZW || (seenSpace && !(lastProp === OP1 || lastProp === OP2) && lastProp !== QU2)
        ) {
          brk = BREAK_POSSIBLE;
          lastProp = AL1;
          seenSpace = false;
        }
      } else {
        if (lastProp === BK) {
          brk = BREAK_PROHIBITED;
        } else if (lastProp === ZW) {
          brk = BREAK_POSSIBLE;
        } else if (precedingProp === ZWJ) {
          brk = BREAK_PROHIBITED;
        } else if (prop === IS && prevProp === SP && ahead1Prop === NU) {
          brk = BREAK_POSSIBLE; // LB15c
        } else if (
          (isQuote(prop) && (prevEa === 0 || (ahead1 & 1) === 0) && prevProp !== SP) ||
          (isQuote(prevProp) && (prev2Ea === 0 || ea === 0))
        ) {
          brk = BREAK_PROHIBITED; // LB19a
        } else if (prevInitialHyphen && (prop === AL1 || prop === AL2)) {
          brk = BREAK_PROHIBITED; // LB20a
        } else if (prevProp === HL_BA && prop !== HL) {
          brk = BREAK_PROHIBITED; // LB21a
        } else if (
          (prevNus && (prevProp === CL || prevProp === CP1 || prevProp === CP2) &&
            (prop === PO || prop === PR)) ||
          (nus && (prop === PO || prop === PR || prop === NU))
        ) {
          brk = BREAK_PROHIBITED; // LB25
        } else if (
          (prevProp === PO || prevProp === PR) && (prop === OP1 || prop === OP2) &&
          (ahead1Prop === NU || (ahead1Prop === IS && ahead2 >> 1 === NU))
        ) {
          brk = BREAK_PROHIBITED; // LB25
        } else if (prevProp === AKLS_VI && (prop === AK || prop === AL2)) {
          brk = BREAK_PROHIBITED; // LB28a
        } else if (
          ahead1Prop === VF && (prop === AK || prop === AL2 || prop === AS) &&
          (prevProp === AK || prevProp === AL2 || prevProp === AS)
        ) {
          brk = BREAK_PROHIBITED; // LB28a
        } else if (lastProp === IS && uc === 0x3c) {
          brk = BREAK_POSSIBLE; // LB29, except before "<"
        } else if (lastProp === RI && prop === RI) {
          brk = seenSpace || (riCount & 1) === 0 ? BREAK_POSSIBLE : BREAK_PROHIBITED; // LB30a
        } else {
          let thisProp = prop;
          if (prop === QU3) {
            // LB15b: a final quote is QU3 only before one of these.
            switch (ahead1Prop) {
              case BK:
              case CR:
              case LF:
              case SP:
              case GL:
              case WJ:
              case CL:
              case QU1:
              case QU2:
              case QU3: // deno-fmt-ignore
              case CP1:
              case CP2:
              case EX:
              case IS:
              case SY:
              case ZW: // deno-fmt-ignore
                break;
              default:
                thisProp = QU1;
            }
          }
          const cell = pairs[lastProp * PAIR_COUNT + thisProp];
          brk = cell === D || (cell === I && seenSpace) ? BREAK_POSSIBLE : BREAK_PROHIBITED;
        }
        if (prop === QU2) {
          // LB15a: an initial quote is QU2 only after one of these.
          switch (prevProp) {
            case BK:
            case CR:
            case LF:
            case OP1:
            case OP2:
            case QU1:
            case QU2:
            case QU3:
            case GL:
            case SP:
            case ZW: // deno-fmt-ignore
              break;
            default:
              prop = QU1;
          }
        }
        lastProp = prop;
        seenSpace = false;
      }
    }
    // LB9: X (CM | ZWJ)* is X, unless X is BK, CR, LF, SP or ZW.
    if (
      !((prop === CM || prop === ZWJ) &&
        !(prevProp === BK || prevProp === LF || prevProp === CR || prevProp === SP || prevProp === ZW))
    ) {
      prevInitialHyphen = (prop === HY || uc === 0x2010) &&
        (prevProp === BK || prevProp === CR || prevProp === LF || prevProp === SP || prevProp === ZW ||
          prevProp === CB || prevProp === GL);
      prevProp = prop === VI && (prevProp === AK || prevProp === AL2 || prevProp === AS)
        ? AKLS_VI
        : prevProp === HL && (prop === HY || (prop === BA && ea === 0))
        ? HL_BA
        : prop;
      prev2Ea = prevEa;
      prevEa = ea;
      prevNus = nus;
    }
    precedingProp = prop;
    riCount = prop === RI ? riCount + 1 : 0;
    out[i] = brk;
  }
}
