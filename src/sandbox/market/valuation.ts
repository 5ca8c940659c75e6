import { formatSignedPercent, type CanonicalAsset, type Valuation } from '../../wire';
import { particularsFactor } from './adjustments';
import { dayNumber, endOfDayIso } from './calendar';
import type { MarketAsset, MarketContext } from './market';
import { momentumOf } from './market-day';
import { round2 } from './money';
import type { AssetProfile } from './profiles';
import type { MarketState } from './state';

/** True when the model trusts its number enough to call it market-validated (docs/decisions.md). */
export function isValidated(confidence: number): boolean {
  return confidence >= 0.6;
}

/** Half-width of the low-high band relative to mid: narrow when confident. */
export function bandWidth(confidence: number): number {
  return 0.03 + 0.5 * Math.pow(1 - confidence, 1.3);
}

/** A holding's mid value on a day in a currency: unit price x particulars x quantity. */
export function holdingValue(state: MarketState, p: AssetProfile, asset: CanonicalAsset, day: number, currency: MarketContext['currency']): number {
  return state.priceUsd(p, day) * particularsFactor(asset, p.source === 'catalogue') * (asset.quantity ?? 1) * state.fx(currency, day);
}

export function vsSegmentAverage(state: MarketState, p: AssetProfile, score: number, day: number): string {
  const avg = state.segmentScores(p.segment, day).average;
  return formatSignedPercent((score / avg - 1) * 100);
}

export function assetMomentum(state: MarketState, p: AssetProfile, day: number) {
  return momentumOf(state.assetChange(p, day, 30));
}

export function valuation(state: MarketState, asset: MarketAsset, ctx: MarketContext): Omit<Valuation, 'id' | 'status'> {
  const day = dayNumber(ctx.day);
  const p = state.profileFor(asset);
  const mid = holdingValue(state, p, asset, day, ctx.currency);
  const w = bandWidth(p.confidence);
  const score = state.score(p, day).total;
  const out: Omit<Valuation, 'id' | 'status'> = {
    asset_id: p.asset_id,
    segment: asset.segment,
    brand: asset.brand,
    model: asset.model,
    estimated_value: { low: round2(mid * (1 - w)), mid: round2(mid), high: round2(mid * (1 + w)), currency: ctx.currency },
    confidence: p.confidence,
    data_points: p.dataPoints,
    service_score: score,
    momentum: assetMomentum(state, p, day),
    vs_segment_avg: vsSegmentAverage(state, p, score, day),
    market_validated: isValidated(p.confidence),
    generated_at: ctx.now.toISOString(),
    valid_until: endOfDayIso(day),
  };
  if (asset.reference !== undefined) out.reference = asset.reference;
  return out;
}
