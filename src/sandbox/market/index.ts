import { dayNumber } from './calendar';
import { exitChannels, exitStrategy } from './exit';
import type { Market } from './market';
import { performance, portfolioAnalytics, portfolioCreated } from './portfolio';
import { projection } from './projection';
import { breakdown, scoreObject } from './score-report';
import { segmentDetail, segmentList } from './segments';
import { activeAlerts } from './alerts';
import { segmentSignals, signalsOverview } from './signals';
import { catalogue } from './catalogue';
import { MarketState } from './state';
import { valuation } from './valuation';

export type { Market, MarketAsset, MarketContext, StoredPortfolio } from './market';
export { withParticulars } from './resolve';

/** The seed used when none is given: the sandbox's default market. */
export const DEFAULT_SEED = 20260101;

/**
 * The sandbox's market model: deterministic for a seed (same request, same day, same answer),
 * prices moving day to day along seeded per-segment series. Building it computes the series
 * once (a few milliseconds); every call after that is arithmetic and map lookups.
 */
export function createMarket(options: { seed?: number } = {}): Market {
  const state = new MarketState(options.seed ?? DEFAULT_SEED);
  return {
    value: (asset, ctx) => valuation(state, asset, ctx),
    assetForId: (id) => state.assetForId(id),
    isIssued: (id) => state.isIssued(id),
    issuedExamples: (segment) => catalogue().bySegment[segment].slice(0, 3).map((a) => a.asset_id),
    score: (asset, ctx) => scoreObject(state, asset, ctx),
    breakdown: (asset, ctx) => breakdown(state, asset, ctx),
    projection: (asset, currentValue, horizons, ctx) => projection(state, asset, currentValue, horizons, ctx),
    signalsOverview: (ctx) => signalsOverview(state, ctx),
    segmentSignals: (segment, ctx) => segmentSignals(state, segment, ctx),
    alerts: (ctx) => activeAlerts(state, ctx),
    portfolioCreated: (p, ctx) => portfolioCreated(state, p, ctx),
    portfolioAnalytics: (p, ctx) => portfolioAnalytics(state, p, ctx),
    performance: (p, ctx) => performance(state, p, ctx),
    exitStrategy: (asset, currentValue, urgency, ctx) => exitStrategy(state, asset, currentValue, urgency, ctx),
    exitChannels: (segment) => exitChannels(segment),
    segmentList: () => segmentList(state),
    segmentDetail: (segment, ctx) => segmentDetail(state, segment, ctx),
    segmentIndex: (segment, day) => state.series.segment[segment].at(dayNumber(day)),
  };
}

