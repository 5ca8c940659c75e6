import { chainLink, periodReturn, type PeriodFlow } from '../returns';
import { daysBetween } from './dates';
import type { DatedFlow } from './flows';

/**
 * The portfolio's time-weighted return from its recorded month-end values and its flows: each
 * calendar month by Modified Dietz, chain-linked (issue 23).
 */

/** A recorded value of the whole portfolio (reporting currency) on a day, normally a month-end. */
export interface ValuePoint {
  /** YYYY-MM-DD. */
  asOf: string;
  value: number;
}

export interface SubPeriod {
  from: string;
  to: string;
  start_value: number;
  end_value: number;
  /** Money in minus money out over the sub-period (positive: the client put money in). */
  net_flows: number;
  /** Modified Dietz in percent; null when nothing was invested to measure against. */
  return_percent: number | null;
}

/**
 * One sub-period (normally a calendar month) by Modified Dietz. Its flows are those dated after
 * `from` up to and including `to` (a flow on `from` is already in the start value, which is the
 * value recorded at the end of that day). A flow on day d of a sub-period of D days — d counted
 * from `from`, so the 10th of a month after a month-end is day 10 — is weighted (D − d) / D: a
 * flow on the last day weighs 0. With `inception`, flows dated on `from` itself are the
 * portfolio's first money: they are in it, weighted 1, and `startValue` is 0.
 *
 * A sub-period in which nothing was held (no start value, no flows, no end value) is 0 %: the
 * portfolio was empty, which neither gains nor loses.
 */
export function subPeriodReturn(
  from: string,
  startValue: number,
  to: string,
  endValue: number,
  flows: readonly DatedFlow[],
  inception = false,
): SubPeriod {
  const D = daysBetween(from, to);
  const inside = flows.filter((f) => (inception ? f.date >= from : f.date > from) && f.date <= to);
  const weighted: PeriodFlow[] = inside.map((f) => ({ amount: f.amount, remaining: D === 0 ? 1 : daysBetween(f.date, to) / D }));
  const net = inside.reduce((s, f) => s + f.amount, 0);
  const empty = startValue === 0 && endValue === 0 && inside.length === 0;
  return {
    from,
    to,
    start_value: startValue,
    end_value: endValue,
    net_flows: net,
    return_percent: empty ? 0 : periodReturn(startValue, endValue, weighted),
  };
}

/**
 * The time-weighted return in percent over `points` (in date order: the start, each month-end
 * between, the end), one sub-period between each two, chain-linked. Not annualised. With
 * `inception` the first point is the first flow's day with value 0 (see {@link subPeriodReturn}).
 * Null, with the month that has no base, when a sub-period cannot be measured.
 */
export function timeWeightedReturn(
  points: readonly { date: string; value: number }[],
  flows: readonly DatedFlow[],
  inception = false,
): { return_percent: number | null; months: SubPeriod[]; note?: string } {
  const months: SubPeriod[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    months.push(subPeriodReturn(a.date, a.value, b.date, b.value, flows, inception && i === 1));
  }
  const bad = months.find((m) => m.return_percent === null);
  if (bad) return { return_percent: null, months, note: `nothing invested to measure against from ${bad.from} to ${bad.to}` };
  return { return_percent: chainLink(months.map((m) => m.return_percent)), months };
}
