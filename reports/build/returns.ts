import { statedMoneyWeightedReturn } from '../../src/returns';
import type { Coverage, Holding } from '../report-data';
import { percentOf, sum } from './figures';

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

/** A holding of the input that has no value in this report, with its cost in the reporting currency when known. */
export interface UnvaluedHolding {
  asset_id: string;
  cost: number | null;
}

/**
 * How much of the portfolio the totals rest on: value valued now; the previous month-end's value
 * of holdings not valued now; and the cost of the rest (no value is known for them).
 */
export function coverage(rows: readonly Holding[], unvalued: readonly UnvaluedHolding[], previous: readonly { asset_id: string; current_value: number }[]): Coverage {
  // Previous values by asset, consumed first by the holdings valued now, then by the others.
  const left = new Map<string, number[]>();
  for (const p of previous) left.set(p.asset_id, [...(left.get(p.asset_id) ?? []), p.current_value]);
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
