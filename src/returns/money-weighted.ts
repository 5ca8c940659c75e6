/**
 * The money-weighted return: the annualised internal rate of return (IRR) of dated cash flows,
 * as XIRR computes it (actual days over 365). Money paid in is negative, money held or received
 * positive; the last flow is usually today's value.
 */

export interface CashFlow {
  /** YYYY-MM-DD. */
  date: string;
  /** Negative: invested (a purchase); positive: value held or received. */
  amount: number;
}

const DAY_MS = 86_400_000;
/** XIRR's year: actual days over 365. */
export const DAYS_PER_YEAR = 365;

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * The annualised IRR in percent (12.5 means 12.5 % a year), or null when it cannot be computed:
 * no money in or no value out, or every flow on one day (there is no time to annualise over).
 * A total loss (nothing left of what was invested) is −100 %.
 *
 * Flows that invest first and hold value last give a net present value that falls as the rate
 * rises, so the rate is found by bisection: slower than Newton's method but it cannot diverge
 * or jump to a second root.
 */
export function moneyWeightedReturn(flows: readonly CashFlow[]): number | null {
  return internalRate(flows, () => DAYS_PER_YEAR);
}

/**
 * The period's own money-weighted return in percent, not annualised: the IRR as a rate per the
 * span of the flows (first flow to last), so one that doubles the money over 40 days is 100 %.
 * The same root as {@link moneyWeightedReturn}, (1 + annual)^(days / 365) − 1, but solved in the
 * span's own unit so a large move over a few days cannot overflow the annual rate. Null and
 * −100 % as there.
 */
export function moneyWeightedPeriodReturn(flows: readonly CashFlow[]): number | null {
  return internalRate(flows, (span) => span);
}

/** Days from the first flow to the last (0 for none or one day). */
export function spanDays(flows: readonly CashFlow[]): number {
  return spanOfDates(flows.map((f) => f.date));
}

/** Days from the earliest of `dates` to the latest (0 for none or one day). */
export function spanOfDates(dates: Iterable<string>): number {
  // A loop, not Math.max(...days): a portfolio of 100,000 purchases is too many arguments.
  let first = Infinity;
  let last = -Infinity;
  for (const date of dates) {
    const d = dayNumber(date);
    if (!Number.isFinite(d)) continue;
    first = Math.min(first, d);
    last = Math.max(last, d);
  }
  return last > first ? last - first : 0;
}

/**
 * The money-weighted return as a report states it: annualised over a year or more, the period's
 * own return under a year. Annualising three weeks' gain into "+32 % a year" states a rate
 * nobody earned (GIPS forbids annualising periods under a year), so `annualised` says which.
 */
export function statedMoneyWeightedReturn(flows: readonly CashFlow[]): { percent: number | null; annualised: boolean; days: number } {
  const days = spanDays(flows);
  const annualised = isAnnualisedSpan(days);
  return { percent: annualised ? moneyWeightedReturn(flows) : moneyWeightedPeriodReturn(flows), annualised, days };
}

/** A return over this many days is stated a year (annualised); under a year it is the period's own (GIPS). */
export function isAnnualisedSpan(days: number): boolean {
  return days >= DAYS_PER_YEAR;
}

/** The IRR as a rate per `unit(span)` days, span being the days from the first flow to the last. */
function internalRate(flows: readonly CashFlow[], unit: (span: number) => number): number | null {
  const dated = flows.filter((f) => Number.isFinite(f.amount) && f.amount !== 0).map((f) => ({ day: dayNumber(f.date), amount: f.amount }));
  if (dated.some((f) => !Number.isFinite(f.day))) return null;
  const paidIn = dated.filter((f) => f.amount < 0);
  const out = dated.filter((f) => f.amount > 0);
  if (paidIn.length === 0) return null;
  if (out.length === 0) return -100;
  const last = Math.max(...dated.map((f) => f.day));
  const first = Math.min(...dated.map((f) => f.day));
  if (last === first) return null;
  const per = unit(last - first);
  // Value of every flow carried forward to the last day at a rate r per `per` days (in the log
  // domain so large growth over decades cannot overflow): positive means the rate is too low.
  const years = dated.map((f) => ({ t: (last - f.day) / per, amount: f.amount }));
  const futureValue = (r: number) => {
    const g = Math.log1p(r);
    let s = 0;
    for (const f of years) s += f.amount * Math.exp(g * f.t);
    return s;
  };
  let lo = -0.999_999_999;
  let hi = 1;
  if (futureValue(lo) < 0) return -100; // even a near-total loss is not enough: value is ~0
  while (futureValue(hi) > 0) {
    hi = hi * 2 + 1;
    if (hi > 1e12) return null; // beyond any meaningful rate
  }
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); i++) {
    const mid = (lo + hi) / 2;
    if (futureValue(mid) > 0) lo = mid;
    else hi = mid;
  }
  return ((lo + hi) / 2) * 100;
}
