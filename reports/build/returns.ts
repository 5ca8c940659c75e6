import { chainLink, periodReturn, statedMoneyWeightedReturn, type PeriodFlow } from '../../src/returns';
import type { Coverage, Holding, MonthOnMonth } from '../report-data';
import { keyed, type PreviousReport } from './previous';
import { percentOf, sum } from './figures';

const DAY_MS = 86_400_000;
const days = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS;

/**
 * Money-weighted return of one holding: its purchase and today's value — annualised (its compound
 * annual growth rate) when held a year or more, else the return over the days held.
 */
export function holdingMoneyWeighted(h: Pick<Holding, 'purchase_price' | 'purchase_date' | 'current_value'>, asOf: string): number | null {
  return statedMoneyWeightedReturn([
    { date: h.purchase_date, amount: -h.purchase_price },
    { date: asOf, amount: h.current_value },
  ]).percent;
}

/**
 * The portfolio's money-weighted return: every purchase at its date, in the reporting currency,
 * and the total value today; annualised (IRR) when the first purchase is a year or more before
 * as_of, else the return over the period since it.
 */
export function portfolioMoneyWeighted(rows: readonly Holding[], asOf: string): number | null {
  if (rows.length === 0) return null;
  return statedMoneyWeightedReturn([...rows.map((h) => ({ date: h.purchase_date, amount: -h.purchase_price })), { date: asOf, amount: sum(rows.map((h) => h.current_value)) }]).percent;
}

/**
 * The gain split into what exchange rates did and what the assets did. A holding bought for P
 * in its own currency: at today's rate it cost P × rate_as_of, so the currency's move is
 * P × (rate_as_of − rate_purchase); the rest, value − P × rate_as_of, is the asset's own move.
 * The two add up to value − P × rate_purchase, the gain, exactly.
 */
export function fxSplit(rows: readonly Holding[]): { fx_effect: number; asset_effect: number } {
  const fx = sum(rows.map((h) => h.purchase_price_original * (h.fx_rate_as_of - h.fx_rate_purchase)));
  const gain = sum(rows.map((h) => h.current_value - h.purchase_price));
  return { fx_effect: fx, asset_effect: gain - fx };
}

/**
 * This month's return net of new money (Modified Dietz), over the holdings that were in the
 * previous report (at its values) and those bought since (each a flow on its purchase date).
 * Holdings bought before the previous report but missing from it have no starting value and
 * are left out of the period; so are holdings in it that are gone or not valued now.
 */
export function monthReturn(rows: readonly Holding[], previous: PreviousReport, asOf: string): number | null {
  const before = keyed(previous.holdings);
  const span = days(previous.as_of, asOf);
  if (!(span > 0)) return null;
  let start = 0;
  let end = 0;
  const flows: PeriodFlow[] = [];
  for (const [key, h] of keyed(rows)) {
    const p = before.get(key);
    if (p) {
      start += p.current_value;
      end += h.current_value;
    } else if (h.purchase_date > previous.as_of) {
      end += h.current_value;
      flows.push({ amount: h.purchase_price, remaining: days(h.purchase_date, asOf) / span });
    }
  }
  return periodReturn(start, end, flows);
}

/** The time-weighted return continued from the previous report's chain (or started at it). */
export function timeWeighted(month: MonthOnMonth | null, previous: PreviousReport | undefined): { time_weighted_return_percent: number | null; twr_from: string | null } {
  if (!month || !previous || month.return_percent === null) return { time_weighted_return_percent: null, twr_from: null };
  const before = previous.summary.time_weighted_return_percent;
  const from = previous.summary.twr_from;
  if (before !== null && before !== undefined && from) {
    return { time_weighted_return_percent: chainLink([before, month.return_percent]), twr_from: from };
  }
  return { time_weighted_return_percent: month.return_percent, twr_from: previous.as_of };
}

/** A holding of the input that has no value in this report, with its cost in the reporting currency when known. */
export interface UnvaluedHolding {
  asset_id: string;
  cost: number | null;
}

/**
 * How much of the portfolio the totals rest on: value valued now; the previous report's value of
 * holdings not valued now; and the cost of the rest (no value is known for them).
 */
export function coverage(rows: readonly Holding[], unvalued: readonly UnvaluedHolding[], previous: PreviousReport | undefined): Coverage {
  // Previous values by asset, consumed first by the holdings valued now, then by the others.
  const left = new Map<string, number[]>();
  for (const p of previous?.holdings ?? []) left.set(p.asset_id, [...(left.get(p.asset_id) ?? []), p.current_value]);
  for (const h of rows) left.get(h.asset_id)?.shift();
  let carriedCount = 0;
  let carried = 0;
  let notValuedCount = 0;
  let notValued = 0;
  for (const u of unvalued) {
    const prev = left.get(u.asset_id)?.shift();
    if (prev !== undefined) {
      carriedCount++;
      carried += prev;
    } else {
      notValuedCount++;
      notValued += u.cost ?? 0;
    }
  }
  const valued = sum(rows.map((h) => h.current_value));
  const total = valued + carried + notValued;
  const share = (x: number, count: number) => (total > 0 ? percentOf(x, total) : count > 0 && rows.length + unvalued.length === count ? 100 : 0);
  return {
    valued_count: rows.length,
    valued_percent: share(valued, rows.length),
    carried_over_count: carriedCount,
    carried_over_percent: share(carried, carriedCount),
    not_valued_count: notValuedCount,
    not_valued_percent: share(notValued, notValuedCount),
  };
}
