import { formatSignedPercent, type Breakdown, type ScoreObject } from '../../wire';
import { dayNumber } from './calendar';
import type { MarketAsset, MarketContext } from './market';
import { classification, factorTable } from './scoring';
import type { MarketState } from './state';
import { assetMomentum, isValidated } from './valuation';

/** POST /scores and /scores/breakdown: the same score the valuation carries, explained. */
export function scoreObject(state: MarketState, asset: MarketAsset, ctx: MarketContext): ScoreObject {
  const day = dayNumber(ctx.day);
  const p = state.profileFor(asset);
  const score = state.score(p, day).total;
  const peers = state.segmentScores(p.segment, day);
  let below = 0;
  let equal = 0;
  for (const s of peers.sorted) {
    if (s < score) below++;
    else if (s === score) equal++;
  }
  const percentile = Math.round(((below + equal / 2) / Math.max(1, peers.sorted.length)) * 100);
  return {
    asset_id: p.asset_id,
    service_score: score,
    classification: classification(score),
    momentum: assetMomentum(state, p, day),
    confidence: p.confidence,
    percentile: Math.min(100, Math.max(0, percentile)),
    vs_segment_avg: formatSignedPercent((score / peers.average - 1) * 100),
    market_validated: isValidated(p.confidence),
    generated_at: ctx.now.toISOString(),
  };
}

export function breakdown(state: MarketState, asset: MarketAsset, ctx: MarketContext): Breakdown {
  const day = dayNumber(ctx.day);
  const p = state.profileFor(asset);
  const parts = state.score(p, day);
  return {
    asset_id: p.asset_id,
    service_score: parts.total,
    factors: factorTable(parts),
    weighted_total: parts.total,
    market_validated: isValidated(p.confidence),
    generated_at: ctx.now.toISOString(),
  };
}
