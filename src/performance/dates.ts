/**
 * Calendar arithmetic on YYYY-MM-DD days, in UTC (a day is a date, never a moment): month-ends,
 * the days between two dates, a year later.
 */

const DAY_MS = 86_400_000;

const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** Days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

const parts = (date: string) => ({ year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) });

/** The last day of `month` (1–12) of `year`; month 0 is the December before, month 13 the January after, and so on. */
export function endOfMonth(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

export function isMonthEnd(date: string): boolean {
  const { year, month } = parts(date);
  return endOfMonth(year, month) === date;
}

/** The month-end `months` months before the end of `date`'s month (0: its own month-end; 1: the previous month-end). */
export function monthEndBefore(date: string, months: number): string {
  const { year, month } = parts(date);
  return endOfMonth(year, month - months);
}

/** The month-ends strictly between `from` and `to`, in order. */
export function monthEndsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const { year, month } = parts(from);
  for (let i = 0; ; i++) {
    const m = endOfMonth(year, month + i);
    if (m >= to) break;
    if (m > from) out.push(m);
  }
  return out;
}

/**
 * The same day `years` years later. A month-end stays a month-end (2023-02-28 + 1 = 2024-02-29,
 * so a year from one month-end is the same month's end); a 29 February that does not exist
 * becomes the 28th.
 */
export function addYears(date: string, years: number): string {
  const { year, month } = parts(date);
  // Only a month's last day can be missing a year later (29 February), and it is a month-end.
  if (isMonthEnd(date)) return endOfMonth(year + years, month);
  return `${String(year + years).padStart(4, '0')}${date.slice(4)}`;
}
