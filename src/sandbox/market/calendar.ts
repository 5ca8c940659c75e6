/** Days as integers (days since 1970-01-01 UTC), the unit every series is indexed by. */

const DAY_MS = 86_400_000;

/** Series cover this span; days outside it read the nearest end. */
export const SERIES_FIRST_DAY = Date.UTC(1990, 0, 1) / DAY_MS;
export const SERIES_LAST_DAY = Date.UTC(2050, 11, 31) / DAY_MS;

/** The day the catalogue's reference prices describe (trend level, USD). */
export const REFERENCE_DAY = Date.UTC(2026, 0, 1) / DAY_MS;

const parsed = new Map<string, number>();

/** "2026-03-01" -> day number. Cached: the HTTP layer asks for the same few days all the time. */
export function dayNumber(day: string): number {
  const hit = parsed.get(day);
  if (hit !== undefined) return hit;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const n = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(day, n);
  return n;
}

export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function dayOfDate(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

const endOfDayTexts = new Map<number, string>();

/** The last second of the day, UTC: valuations are valid until the day ends. */
export function endOfDayIso(day: number): string {
  let text = endOfDayTexts.get(day);
  if (text === undefined) {
    text = `${dayText(day)}T23:59:59Z`;
    if (endOfDayTexts.size > 10_000) endOfDayTexts.clear();
    endOfDayTexts.set(day, text);
  }
  return text;
}

/** The day before 1 January of the day's year: the base of year-to-date figures. */
export function lastDayOfPreviousYear(day: number): number {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  return Date.UTC(year, 0, 1) / DAY_MS - 1;
}

/**
 * The same day `months` calendar months earlier, the way a monthly report counts: the last day of
 * a month maps to the last day of the earlier month (31 Oct -> 30 Sep), other days are clamped to
 * the earlier month's length (30 Mar -> 28 Feb, 29 Feb -> 28 Feb a year earlier).
 */
export function monthsBefore(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const dom = d.getUTCDate();
  const monthLength = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const targetLength = new Date(Date.UTC(y, m - months + 1, 0)).getUTCDate();
  return Date.UTC(y, m - months, dom === monthLength ? targetLength : Math.min(dom, targetLength)) / DAY_MS;
}

export function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

export function dayStartMs(day: number): number {
  return day * DAY_MS;
}

export { DAY_MS };
