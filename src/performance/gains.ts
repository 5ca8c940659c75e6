import type { LedgerProblem, Lot, Realisation } from '../ledger/types';
import { convert, type RateFunction } from './flows';

/**
 * Realised and unrealised gains in the reporting currency (issue 23). Costs at the rate of the day
 * the lot was opened, proceeds at the rate of the sale's day, values as the caller gives them
 * (already in the reporting currency, on the as-of date).
 */

export interface RealisedGainLine extends Realisation {
  /** In the reporting currency: the cost at the opening day's rate, the proceeds at the sale day's. */
  costReporting: number;
  proceedsReporting: number;
  /** proceedsReporting − costReporting. */
  gain: number;
}

/**
 * Each realisation's gain and their total. A line whose rate cannot be had is refused (field
 * `currency`, the sale's row) and left out of the total.
 */
export function realisedGains(realisations: readonly Realisation[], rate: RateFunction): { lines: RealisedGainLine[]; total: number; problems: LedgerProblem[] } {
  const lines: RealisedGainLine[] = [];
  const problems: LedgerProblem[] = [];
  for (const r of realisations) {
    const cost = convert(rate, r.cost, r.costCurrency, r.opened);
    const proceeds = convert(rate, r.proceeds, r.proceedsCurrency, r.sold);
    if ('reason' in cost || 'reason' in proceeds) {
      const reason = 'reason' in cost ? cost.reason : 'reason' in proceeds ? proceeds.reason : '';
      problems.push({ portfolio: r.portfolio, source: r.source, field: 'currency', reason });
      continue;
    }
    lines.push({ ...r, costReporting: cost.value, proceedsReporting: proceeds.value, gain: proceeds.value - cost.value });
  }
  return { lines, total: lines.reduce((s, l) => s + l.gain, 0), problems };
}

export interface UnrealisedGainLine {
  portfolio: string;
  assetId: string;
  /** Units held, over all its lots. */
  quantity: number;
  /** What the held lots cost, each at its opening day's rate. */
  cost: number;
  /** The asset's value on the as-of date (reporting currency), as given. */
  value: number;
  gain: number;
}

/**
 * The gain on what is held: per asset, its value minus its lots' cost. `valueOf` gives an asset's
 * value (all of it, reporting currency) or undefined when it has none: such an asset is listed in
 * `unvalued` and left out of the total, as is one whose lot's rate cannot be had (a problem).
 */
export function unrealisedGain(
  lots: readonly Lot[],
  valueOf: (portfolio: string, assetId: string) => number | undefined,
  rate: RateFunction,
): { lines: UnrealisedGainLine[]; total: number; unvalued: { portfolio: string; assetId: string }[]; problems: LedgerProblem[] } {
  const byAsset = new Map<string, Lot[]>();
  for (const l of lots) {
    const k = `${l.portfolio}\u0000${l.assetId}`;
    byAsset.set(k, [...(byAsset.get(k) ?? []), l]);
  }
  const lines: UnrealisedGainLine[] = [];
  const unvalued: { portfolio: string; assetId: string }[] = [];
  const problems: LedgerProblem[] = [];
  for (const group of byAsset.values()) {
    const { portfolio, assetId } = group[0]!;
    const value = valueOf(portfolio, assetId);
    if (value === undefined || !Number.isFinite(value)) {
      unvalued.push({ portfolio, assetId });
      continue;
    }
    let cost = 0;
    let ok = true;
    for (const l of group) {
      const c = convert(rate, l.cost, l.currency, l.opened);
      if ('reason' in c) {
        problems.push({ portfolio, source: l.source, field: 'currency', reason: c.reason });
        ok = false;
      } else cost += c.value;
    }
    if (!ok) continue;
    lines.push({ portfolio, assetId, quantity: group.reduce((s, l) => s + l.quantity, 0), cost, value, gain: value - cost });
  }
  return { lines, total: lines.reduce((s, l) => s + l.gain, 0), unvalued, problems };
}
