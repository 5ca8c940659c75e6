import { SCENARIOS, horizonKey, type Horizon, type Projection, type ScenarioName } from '../../wire';
import { dayNumber } from './calendar';
import type { MarketAsset, MarketContext } from './market';
import { clamp, round2 } from './money';
import type { AssetProfile } from './profiles';
import { SEGMENT_PROFILES, annualVolatility } from './segment-profiles';
import type { MarketState } from './state';
import { isValidated } from './valuation';

/** Scenario weights: a central case twice as likely as either tail. They sum to 1. */
export const SCENARIO_PROBABILITIES: Record<ScenarioName, number> = { conservative: 0.25, central: 0.5, optimistic: 0.25 };

/** Annual growth rates per scenario: trend plus partial return to trend, +/- most of a year's volatility. */
export function scenarioRates(state: MarketState, p: AssetProfile, day: number): Record<ScenarioName, number> {
  const sp = SEGMENT_PROFILES[p.segment];
  const seg = state.segmentDay(p.segment, day);
  const central = clamp(sp.drift + p.tilt - 0.3 * seg.deviation, -0.15, 0.25);
  const spread = 0.6 * annualVolatility(sp);
  return { conservative: Math.max(-0.5, central - spread), central, optimistic: central + spread };
}

export function projectionNumbers(state: MarketState, p: AssetProfile, currentValue: number, horizons: readonly Horizon[], day: number) {
  const current = round2(currentValue);
  const rates = scenarioRates(state, p, day);
  const scenarios = {} as Projection['scenarios'];
  const expected: Projection['expected_roi'] = {};
  for (const name of SCENARIOS) scenarios[name] = { probability: SCENARIO_PROBABILITIES[name] };
  for (const h of horizons) {
    const key = horizonKey(h);
    let exp = 0;
    for (const name of SCENARIOS) {
      const value = round2(current * Math.pow(1 + rates[name], h / 12));
      // ROI from the rounded value, so a reader recomputing it from the response agrees.
      const roi = round2((value / current - 1) * 100);
      scenarios[name][key] = { value, roi_percent: roi };
      exp += SCENARIO_PROBABILITIES[name] * roi;
    }
    expected[key] = round2(exp);
  }
  return { current, scenarios, expected };
}

export function projection(state: MarketState, asset: MarketAsset, currentValue: number, horizons: readonly Horizon[], ctx: MarketContext): Omit<Projection, 'id'> {
  const day = dayNumber(ctx.day);
  const p = state.profileFor(asset);
  const wanted = horizons.length > 0 ? [...new Set(horizons)].sort((a, b) => a - b) : ([12, 24, 36] as Horizon[]);
  const n = projectionNumbers(state, p, currentValue, wanted, day);
  return {
    asset_id: p.asset_id,
    current_value: n.current,
    currency: ctx.currency,
    scenarios: n.scenarios,
    expected_roi: n.expected,
    confidence: p.confidence,
    market_validated: isValidated(p.confidence),
    generated_at: ctx.now.toISOString(),
  };
}
