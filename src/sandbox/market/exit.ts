import type { ExitChannel, ExitStrategy, SegmentId } from '../../wire';
import { dayNumber } from './calendar';
import { channelsFor, dayRange } from './exit-channels';
import type { MarketAsset, MarketContext } from './market';
import { round2 } from './money';
import { projectionNumbers } from './projection';
import type { MarketState } from './state';
import { isValidated } from './valuation';

type Urgency = 'flexible' | 'standard' | 'urgent';

/** How much a day of waiting costs, in commission points, for each urgency. */
const WAIT_COST: Record<Urgency, number> = { flexible: 0.02, standard: 0.1, urgent: 1 };

/** Lease-back yields where specialist lenders exist for the segment. */
const LEASE_BACK: Partial<Record<SegmentId, number>> = { art: 4.5, watches: 3.5, automobiles: 5, jewellery: 3, bags: 3.5, real_estate: 4.2 };
const LEASE_BACK_MIN_USD = 25_000;

function estimate(c: ExitChannel, value: number) {
  return { name: c.name, commission_percent: c.commission_percent, estimated_net: round2(value * (1 - c.commission_percent / 100)), timeline_days: c.timeline_days };
}

export function exitStrategy(state: MarketState, asset: MarketAsset, currentValue: number, urgency: Urgency, ctx: MarketContext): ExitStrategy {
  const day = dayNumber(ctx.day);
  const p = state.profileFor(asset);
  const seg = state.segmentDay(p.segment, day);
  const value = round2(currentValue);
  const cost = (c: ExitChannel) => {
    const [lo, hi] = dayRange(c.timeline_days);
    return c.commission_percent + WAIT_COST[urgency] * ((lo + hi) / 2);
  };
  const ranked = channelsFor(p.segment).sort((a, b) => cost(a) - cost(b) || a.commission_percent - b.commission_percent);
  const primary = ranked[0]!;
  const secondary = ranked[1] ?? ranked[0]!;

  const favourable = seg.momentum === 'positive' && seg.sentiment !== 'bearish';
  const unfavourable = seg.momentum === 'negative' || seg.sentiment === 'bearish';
  const signal = favourable ? 'favourable' : unfavourable ? 'unfavourable' : 'neutral';
  const window = favourable && seg.momentumStrength >= 0.5 ? 'now' : favourable ? 'approaching' : 'distant';
  const recommendation = urgency === 'urgent' || window === 'now' ? 'sell_now' : window === 'approaching' ? 'monitor_closely' : 'hold';

  const roi12 = projectionNumbers(state, p, value, [12], day).expected['12_months']!;
  const valueUsd = value / state.fx(ctx.currency, day);
  const leaseYield = LEASE_BACK[p.segment];
  return {
    asset_id: p.asset_id,
    current_value: value,
    currency: ctx.currency,
    timing: { signal, optimal_window: window, recommendation },
    channels: { primary: estimate(primary, value), secondary: estimate(secondary, value) },
    alternatives: {
      lease_back: {
        available: leaseYield !== undefined && valueUsd >= LEASE_BACK_MIN_USD,
        yield_percent: leaseYield ?? 0,
        provider: leaseYield !== undefined ? 'Specialist asset-backed lender' : 'none',
      },
      hold_12_months: { projected_roi_percent: roi12, recommendation: roi12 >= 6 ? 'recommended' : roi12 >= 2 ? 'consider' : 'not_recommended' },
    },
    confidence: p.confidence,
    market_validated: isValidated(p.confidence),
    generated_at: ctx.now.toISOString(),
  };
}

export function exitChannels(segment: SegmentId | undefined): ExitChannel[] {
  return channelsFor(segment).map((c) => ({ ...c, segments: [...c.segments] }));
}
