/**
 * GPSS's quota windows (§4.3): records are counted per time window, 10,000 on weekdays 08:00–18:00
 * Taipei time and 30,000 in the other hours (one window from 18:00 to the next weekday's 08:00,
 * weekends included). Both the hours and the budgets are settings; this module finds the window a
 * moment falls in.
 *
 * Section numbers (§) refer to `docs/gpss-upstream.md`.
 *
 * @module
 */
import { InvalidInputError } from "../errors.ts";

/** How the quota windows fall and what each may fetch. */
export interface QuotaWindows {
  /** Minutes east of UTC of the clock the windows follow (Taipei: +480; Taiwan keeps no DST). */
  utcOffsetMinutes: number;
  /** Days with a peak window, 0 = Sunday … 6 = Saturday. */
  peakDays: readonly number[];
  /** Start of the peak window, minutes after local midnight. */
  peakStart: number;
  /** End of the peak window, minutes after local midnight (after `peakStart`). */
  peakEnd: number;
  /** Records a peak window allows. */
  peakRecords: number;
  /** Records an off-peak window (between two peak windows) allows. */
  offPeakRecords: number;
}

/** The publicly reported windows (§4.3): weekdays 08:00–18:00 Taipei, 10,000 / 30,000 records. */
export const DEFAULT_QUOTA_WINDOWS: QuotaWindows = Object.freeze({
  utcOffsetMinutes: 8 * 60,
  peakDays: Object.freeze([1, 2, 3, 4, 5]),
  peakStart: 8 * 60,
  peakEnd: 18 * 60,
  peakRecords: 10_000,
  offPeakRecords: 30_000,
});

/** One window: its kind, its bounds (ms since the epoch, end exclusive) and its budget. */
export interface QuotaWindow {
  kind: "peak" | "off_peak";
  start: number;
  end: number;
  budget: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/**
 * The window `time` falls in. Without peak days, the windows are local calendar days with the
 * off-peak budget.
 *
 * @example
 * ```ts
 * quotaWindowAt(Date.parse("2026-11-25T03:00:00Z")); // peak, 00:00Z–10:00Z (08:00–18:00 Taipei), 10,000
 * ```
 */
export function quotaWindowAt(time: number, windows: QuotaWindows = DEFAULT_QUOTA_WINDOWS): QuotaWindow {
  const shift = windows.utcOffsetMinutes * MINUTE_MS;
  const local = time + shift;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS; // local midnight, in shifted time
  const isPeakDay = (dayMs: number) => windows.peakDays.includes(new Date(dayMs).getUTCDay());
  const peakOf = (dayMs: number) => ({
    start: dayMs + windows.peakStart * MINUTE_MS,
    end: dayMs + windows.peakEnd * MINUTE_MS,
  });
  if (windows.peakDays.length === 0) {
    return {
      kind: "off_peak",
      start: dayStart - shift,
      end: dayStart + DAY_MS - shift,
      budget: windows.offPeakRecords,
    };
  }
  if (isPeakDay(dayStart)) {
    const p = peakOf(dayStart);
    if (local >= p.start && local < p.end) {
      return { kind: "peak", start: p.start - shift, end: p.end - shift, budget: windows.peakRecords };
    }
  }
  // Off peak: from the end of the last peak window before `time` to the start of the next one.
  let start = -Infinity;
  for (let d = dayStart; d >= dayStart - 8 * DAY_MS; d -= DAY_MS) {
    if (isPeakDay(d) && peakOf(d).end <= local) {
      start = peakOf(d).end;
      break;
    }
  }
  let end = Infinity;
  for (let d = dayStart; d <= dayStart + 8 * DAY_MS; d += DAY_MS) {
    if (isPeakDay(d) && peakOf(d).start > local) {
      end = peakOf(d).start;
      break;
    }
  }
  return { kind: "off_peak", start: start - shift, end: end - shift, budget: windows.offPeakRecords };
}

/**
 * Reads a peak-window setting: `DAYS HH:MM-HH:MM UTC±HH:MM`, e.g. the default
 * `mon-fri 08:00-18:00 +08:00`; days as a range (`mon-fri`) or a list (`mon,wed,fri`), or `none`
 * (no peak window: every local day is one off-peak window).
 *
 * @throws {InvalidInputError} saying what is expected.
 * @example
 * ```ts
 * parsePeakWindow("mon-fri 08:00-18:00 +08:00"); // { peakDays: [1,2,3,4,5], peakStart: 480, peakEnd: 1080, utcOffsetMinutes: 480 }
 * ```
 */
export function parsePeakWindow(
  spec: string,
): Pick<QuotaWindows, "peakDays" | "peakStart" | "peakEnd" | "utcOffsetMinutes"> {
  const bad = () =>
    new InvalidInputError(
      `not a peak window: ${JSON.stringify(spec.slice(0, 60))} (expected DAYS HH:MM-HH:MM ±HH:MM, ` +
        'like "mon-fri 08:00-18:00 +08:00", or "none")',
    );
  const text = spec.trim().toLowerCase();
  if (text === "none") return { peakDays: [], peakStart: 0, peakEnd: 0, utcOffsetMinutes: 0 };
  const m = /^([a-z,\-]+)\s+(\d{2}):(\d{2})-(\d{2}):(\d{2})\s+([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw bad();
  const days = new Set<number>();
  for (const part of m[1]!.split(",")) {
    const [from = "", to = from] = part.split("-");
    const a = DAYS.indexOf(from);
    const b = DAYS.indexOf(to);
    if (a < 0 || b < 0) throw bad();
    for (let d = a;; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  const start = Number(m[2]) * 60 + Number(m[3]);
  const end = Number(m[4]) * 60 + Number(m[5]);
  const offset = (m[6] === "-" ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8]));
  if (Number(m[3]) > 59 || Number(m[5]) > 59 || end > 24 * 60 || start >= end || Math.abs(offset) > 14 * 60) {
    throw bad();
  }
  return { peakDays: [...days].sort(), peakStart: start, peakEnd: end, utcOffsetMinutes: offset };
}
