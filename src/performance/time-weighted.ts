import { chainLink, periodReturn, type PeriodFlow } from '../returns';
import { daysBetween } from './dates';
import type { DatedFlow } from './flows';

/**
 * The portfolio's time-weighted return from its recorded month-end values and its flows (issues
 * 23 and 34): each calendar month split at its large external flows, each sub-period by Modified
 * Dietz, the sub-periods chain-linked into the month and the months into the period.
 *
 * Why split: Modified Dietz weights a purchase by the days left in its month, so a large purchase
 * late in a month leaves a small weighted capital to divide the month's gain by, and the month's
 * return is inflated; GIPS asks for a valuation at every large external flow. The service values
 * a portfolio as of today, never as of a past day, so the value at a split is the portfolio's
 * book value (below) and the market's movement inside a month falls in its last sub-period.
 */

/** A day's net external flow larger than this share of the book value just before it splits the month. */
export const LARGE_FLOW_SHARE = 0.1;

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

/** The span between two recorded values (normally a calendar month): its sub-periods chain-linked. */
export interface MonthPeriod extends SubPeriod {
  /** In date order; one when no day's external flows were large. */
  sub_periods: SubPeriod[];
}

/** Modified Dietz over flows already chosen for the sub-period: one on day d of D weighs (D − d) / D. */
function dietz(from: string, startValue: number, to: string, endValue: number, flows: readonly DatedFlow[]): SubPeriod {
  const D = daysBetween(from, to);
  const weighted: PeriodFlow[] = flows.map((f) => ({ amount: f.amount, remaining: D === 0 ? 1 : daysBetween(f.date, to) / D }));
  const empty = startValue === 0 && endValue === 0 && flows.length === 0;
  return {
    from,
    to,
    start_value: startValue,
    end_value: endValue,
    net_flows: flows.reduce((s, f) => s + f.amount, 0),
    return_percent: empty ? 0 : periodReturn(startValue, endValue, weighted),
  };
}

/** The flows a span from `from` to `to` holds: after `from` (from `from` on for an inception) up to and including `to`. */
function flowsWithin(from: string, to: string, flows: readonly DatedFlow[], inception: boolean): DatedFlow[] {
  return flows.filter((f) => (inception ? f.date >= from : f.date > from) && f.date <= to);
}

/**
 * One sub-period by plain Modified Dietz, not split. Its flows are those dated after `from` up to
 * and including `to` (a flow on `from` is already in the start value, which is the value recorded
 * at the end of that day). A flow on day d of a sub-period of D days — d counted from `from`, so
 * the 10th of a month after a month-end is day 10 — is weighted (D − d) / D: a flow on the last
 * day weighs 0. With `inception`, flows dated on `from` itself are the portfolio's first money:
 * they are in it, weighted 1, and `startValue` is 0.
 *
 * A sub-period in which nothing was held (no start value, no flows, no end value) is 0 %: the
 * portfolio was empty, which neither gains nor loses.
 */
export function subPeriodReturn(from: string, startValue: number, to: string, endValue: number, flows: readonly DatedFlow[], inception = false): SubPeriod {
  return dietz(from, startValue, to, endValue, flowsWithin(from, to, flows, inception));
}

/** True when `external` (a day's net external flow) is large against `book`, the book value just before it. */
function isLarge(external: number, book: number): boolean {
  if (external === 0) return false;
  if (!(book > 0)) return true; // nothing on the books: any purchase or sale starts anew
  // A flow of exactly 10 % does not split; the tolerance keeps a sum of converted amounts that lands a hair above it from splitting.
  return Math.abs(external) - LARGE_FLOW_SHARE * book > 1e-9 * book;
}

/** A part of a span as it is worked out: its ends, its flows and the net external flow of the day that opened it. */
interface Draft {
  from: string;
  start: number;
  to: string;
  end: number;
  flows: DatedFlow[];
  /** The net external flow of the day that opened it (0 for the month's first). */
  opening: number;
}

/**
 * The return between two recorded values (normally a month-end and the next), split at large
 * external flows (issue 34).
 *
 * The book value just before a day is `startValue` plus the external flows (purchases at cost,
 * sales at proceeds, transfers at their amounts) dated earlier in the span. A day whose net
 * external flow is larger than {@link LARGE_FLOW_SHARE} of that book value — or any such day while
 * the book value is nil, so an inception starts on its first flow's day — starts a sub-period: the
 * one before ends at the book value, the new one starts at the book value plus the day's external
 * flows and takes the day's fees and income as flows on its first day (weight 1). Fees and income
 * never split. The last sub-period ends at `endValue`.
 *
 * Where the book value cannot be right, it gives way to what is known (docs/decisions.md):
 * - a day's sales that take out at least the book value: the sub-period before ends at what they
 *   took out, and the new one starts at 0 (the book value was too low);
 * - a span that ends with nothing held (`endValue` 0) and whose last sub-period began with a sale
 *   and has no purchase or sale of its own: that sale emptied the portfolio, so likewise (a few
 *   cents between the book value and the proceeds are not a −100 % month);
 * - a sub-period with nothing held (start and end 0) has no capital for its fees and income: they
 *   move to the next sub-period's first day, else to the previous one's last day if it held
 *   something; with neither, they stay in the span's net flows and the money-weighted return, not in the time-weighted one.
 */
export function monthReturn(from: string, startValue: number, to: string, endValue: number, flows: readonly DatedFlow[], inception = false): MonthPeriod {
  const inside = flowsWithin(from, to, flows, inception);
  const parts = splitAtLargeFlows(from, startValue, to, endValue, inside);
  settleEmptyParts(parts, endValue);
  const subPeriods = parts.map((d) => dietz(d.from, d.start, d.to, d.end, d.flows));
  return {
    from,
    to,
    start_value: startValue,
    end_value: endValue,
    net_flows: inside.reduce((s, f) => s + f.amount, 0),
    return_percent: chainLink(subPeriods.map((s) => s.return_percent)),
    sub_periods: subPeriods,
  };
}

/** The span's parts, walking its days with the book value (see {@link monthReturn}); `inside` are the span's flows. */
function splitAtLargeFlows(from: string, startValue: number, to: string, endValue: number, inside: readonly DatedFlow[]): Draft[] {
  const byDay = new Map<string, DatedFlow[]>();
  for (const f of inside) {
    const day = byDay.get(f.date);
    if (day) day.push(f);
    else byDay.set(f.date, [f]);
  }
  const parts: Draft[] = [];
  let current: Omit<Draft, 'to' | 'end'> = { from, start: startValue, flows: [], opening: 0 };
  let book = startValue;
  for (const [day, today] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const external = today.reduce((s, f) => s + (f.kind === 'external' ? f.amount : 0), 0);
    if (!isLarge(external, book)) {
      current.flows.push(...today);
      book += external;
      continue;
    }
    // Sales of more than the book value: it was too low; the part before ends at what they took out.
    const after = Math.max(0, book + external);
    // Only an inception's first day has nothing before it to close.
    if (day > current.from) parts.push({ ...current, to: day, end: after - external });
    current = { from: day, start: after, flows: today.filter((f) => f.kind !== 'external'), opening: external };
    book = after;
  }
  parts.push({ ...current, to, end: endValue });
  return parts;
}

/** The rules for parts where nothing is held (see {@link monthReturn}), applied in place. */
function settleEmptyParts(parts: Draft[], endValue: number): void {
  const last = parts.at(-1)!;
  const before = parts.at(-2);
  // The last part began with a sale and ends with nothing: that sale emptied the portfolio.
  if (before && endValue === 0 && last.opening < 0 && last.start > 0 && !last.flows.some((f) => f.kind === 'external')) {
    before.end -= last.start;
    last.start = 0;
  }
  // Fees and income of a part that holds nothing go where something is held.
  parts.forEach((d, i) => {
    if (d.start !== 0 || d.end !== 0 || d.flows.length === 0) return;
    const next = parts[i + 1];
    const previous = parts[i - 1];
    if (next) next.flows.unshift(...d.flows.map((f) => ({ ...f, date: next.from })));
    else if (previous && (previous.start !== 0 || previous.end !== 0)) previous.flows.push(...d.flows.map((f) => ({ ...f, date: previous.to })));
    d.flows = [];
  });
}

/**
 * The time-weighted return in percent over `points` (in date order: the start, each month-end
 * between, the end), one {@link monthReturn} between each two, chain-linked. Not annualised. With
 * `inception` the first point is the first flow's day with value 0. Null, with the sub-period that
 * has no base, when one cannot be measured.
 */
export function timeWeightedReturn(
  points: readonly { date: string; value: number }[],
  flows: readonly DatedFlow[],
  inception = false,
): { return_percent: number | null; months: MonthPeriod[]; note?: string } {
  const months: MonthPeriod[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    months.push(monthReturn(a.date, a.value, b.date, b.value, flows, inception && i === 1));
  }
  const bad = months.flatMap((m) => m.sub_periods).find((s) => s.return_percent === null);
  if (bad) return { return_percent: null, months, note: `nothing invested to measure against from ${bad.from} to ${bad.to}` };
  return { return_percent: chainLink(months.map((m) => m.return_percent)), months };
}
