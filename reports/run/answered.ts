import type { Holding } from '../../src/holdings/types';
import type { ItemResult } from './results';

/**
 * The holding as the service identified it: named by the asset_id its valuation answered with,
 * so every later call (score, projection, exit, portfolio) is about the asset that was valued.
 * An id spelt locally from the descriptors is not the service's for fuzzy descriptions, missing
 * years or aliases, and then names another asset (issue 16: another asset's confidence in
 * Projections and Exit). Unchanged when the holding was not valued or the answer kept no id.
 */
export function answeredHolding(h: Holding, v: ItemResult | null | undefined): Holding {
  return v?.ok && v.asset_id !== undefined ? { ...h, assetId: v.asset_id, assetIdGiven: true } : h;
}

/** The valued holdings of a portfolio, each named by its answered id (for portfolio analytics). */
export function valuedHoldings(holdings: readonly Holding[], valuations: readonly (ItemResult | null | undefined)[]): Holding[] {
  return holdings.flatMap((h, i) => (valuations[i]?.ok ? [answeredHolding(h, valuations[i])] : []));
}
