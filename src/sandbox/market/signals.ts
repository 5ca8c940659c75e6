import { SEGMENT_IDS, formatSignedPercent, type SegmentId, type SegmentSignals, type SignalsOverview } from '../../wire';
import { activeAlerts } from './alerts';
import { catalogue, displayModel } from './catalogue';
import { dayNumber } from './calendar';
import type { MarketContext } from './market';
import type { MarketState } from './state';

/** Signals are read straight off the segment series: the 30-day change here is the index's. */
export function segmentSignals(state: MarketState, segment: SegmentId, ctx: MarketContext): SegmentSignals {
  const day = dayNumber(ctx.day);
  const d = state.segmentDay(segment, day);
  const movers = catalogue()
    .bySegment[segment].map((a) => ({ a, change: state.assetChange(state.profile(a.asset_id)!, day, 30) }))
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.a.order - y.a.order)
    .slice(0, 5);
  return {
    segment,
    signals: {
      price: {
        trend: d.priceTrend,
        change_7d: formatSignedPercent(d.change7 * 100),
        change_30d: formatSignedPercent(d.change30 * 100),
        change_90d: formatSignedPercent(d.change90 * 100),
      },
      volume: { level: d.volumeLevel, change_vs_avg: formatSignedPercent((d.volumeRatio - 1) * 100), transaction_count_30d: d.transactions30d },
      momentum: { direction: d.momentum, strength: d.momentumStrength, duration_days: d.momentumDays },
      sentiment: { overall: d.sentiment, score: d.sentimentScore, trend: d.sentimentTrend },
      top_movers: movers.map((m) => ({ brand: m.a.brand, model: displayModel(m.a), change_30d: formatSignedPercent(m.change * 100) })),
    },
    market_validated: true,
    generated_at: ctx.now.toISOString(),
  };
}

export function signalsOverview(state: MarketState, ctx: MarketContext): SignalsOverview {
  const day = dayNumber(ctx.day);
  const segments: SignalsOverview['segments'] = {};
  for (const s of SEGMENT_IDS) {
    const d = state.segmentDay(s, day);
    segments[s] = { momentum: d.momentum, volume: d.volumeLevel, sentiment: d.sentiment, signal_strength: d.signalStrength };
  }
  return {
    generated_at: ctx.now.toISOString(),
    segments,
    alerts: activeAlerts(state, ctx).map((a) => ({ type: a.type, segment: a.segment, message: a.message, severity: a.severity })),
    market_validated: true,
  };
}
