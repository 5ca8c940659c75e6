import { FACTOR_NAMES, FACTOR_WEIGHTS, type Breakdown, type FactorName } from '../../wire';
import type { SegmentDay } from './market-day';
import { clamp, round2 } from './money';
import { idiosyncratic, type AssetProfile } from './profiles';
import { SEGMENT_PROFILES } from './segment-profiles';

/**
 * The six-factor investment score. Rarity and recognition are properties of the asset;
 * desirability, liquidity, history and potential also read the segment's market that day,
 * so scores drift slowly with the market. The service score is always the rounded weighted
 * total of these six, computed here and nowhere else.
 */
export interface ScoreParts {
  factors: Record<FactorName, number>;
  total: number;
}

export function computeScore(p: AssetProfile, seg: SegmentDay, day: number): ScoreParts {
  const drift = SEGMENT_PROFILES[p.segment].drift;
  const ownThreeYears = idiosyncratic(p, day) / idiosyncratic(p, day - 1095);
  const annual3y = Math.pow((1 + seg.change3y) * ownThreeYears, 1 / 3) - 1;
  const factors: Record<FactorName, number> = {
    rarity_edition: Math.round(p.rarity),
    market_desirability: Math.round(clamp(p.desirability + 12 * (seg.sentimentScore - 0.5), 0, 100)),
    historical_valorisation: Math.round(clamp(50 + 450 * annual3y, 5, 98)),
    liquidity_profile: Math.round(clamp(p.liquidity + 16 * clamp(seg.volumeRatio - 1, -0.5, 0.5), 0, 100)),
    institutional_recognition: Math.round(p.recognition),
    appreciation_potential: Math.round(clamp(50 + 400 * (drift + p.tilt) - 120 * seg.deviation + 0.15 * (p.rarity - 50), 5, 98)),
  };
  return { factors, total: weightedTotal(factors) };
}

export function contribution(name: FactorName, score: number): number {
  return round2(score * FACTOR_WEIGHTS[name]);
}

export function weightedTotal(factors: Record<FactorName, number>): number {
  let sum = 0;
  for (const name of FACTOR_NAMES) sum += contribution(name, factors[name]);
  return Math.round(sum);
}

export function factorTable(parts: ScoreParts): Breakdown['factors'] {
  const out = {} as Breakdown['factors'];
  for (const name of FACTOR_NAMES) {
    out[name] = { score: parts.factors[name], weight: FACTOR_WEIGHTS[name], contribution: contribution(name, parts.factors[name]) };
  }
  return out;
}

export function classification(score: number): 'exceptional' | 'strong' | 'moderate' | 'speculative' {
  return score >= 85 ? 'exceptional' : score >= 70 ? 'strong' : score >= 50 ? 'moderate' : 'speculative';
}
