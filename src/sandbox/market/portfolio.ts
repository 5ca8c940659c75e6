import {
  SEGMENT_IDS,
  canonicalAsset,
  formatSignedPercent,
  type AssetDescriptor,
  type Performance,
  type PortfolioAnalytics,
  type PortfolioAssetInput,
  type SegmentId,
} from '../../wire';
import { dayNumber, lastDayOfPreviousYear, monthsBefore } from './calendar';
import type { MarketAsset, MarketContext, StoredPortfolio } from './market';
import { clamp, fromCents, percentagesSummingTo100, round2, toCents } from './money';
import type { AssetProfile } from './profiles';
import { withParticulars } from './resolve';
import { SEGMENT_PROFILES, annualVolatility } from './segment-profiles';
import type { MarketState } from './state';
import { assetMomentum, holdingValue, isValidated } from './valuation';

/** One line of a portfolio, resolved and valued on the analysis day (in the portfolio's currency). */
interface Holding {
  asset: MarketAsset;
  profile: AssetProfile;
  purchasePrice: number;
  purchaseDay: number;
  valueCents: number;
}

/** The asset a holding describes: the asset its asset_id names when it gives a valid one, else its descriptors. */
export function holdingAsset(state: MarketState, item: PortfolioAssetInput): MarketAsset {
  const descriptor = item as AssetDescriptor;
  const byId = item.asset_id !== undefined ? state.assetForId(item.asset_id) : undefined;
  if (byId) return withParticulars(byId, descriptor);
  const described = canonicalAsset(descriptor);
  return { ...described, brand: described.brand ?? '', model: described.model ?? '' };
}

function holdings(state: MarketState, p: StoredPortfolio, day: number): Holding[] {
  return p.assets.map((item) => {
    const asset = holdingAsset(state, item);
    const profile = state.profileFor(asset);
    return {
      asset,
      profile,
      purchasePrice: item.purchase_price,
      purchaseDay: dayNumber(item.purchase_date),
      valueCents: toCents(holdingValue(state, profile, asset, day, p.currency)),
    };
  });
}

function returnPercent(current: number, invested: number): number {
  return invested > 0 ? round2((current / invested - 1) * 100) : 0;
}

function totals(hs: Holding[]) {
  const investedCents = hs.reduce((t, h) => t + toCents(h.purchasePrice), 0);
  const currentCents = hs.reduce((t, h) => t + h.valueCents, 0);
  return { invested: fromCents(investedCents), current: fromCents(currentCents) };
}

export function portfolioCreated(state: MarketState, p: StoredPortfolio, ctx: MarketContext) {
  const hs = holdings(state, p, dayNumber(ctx.day));
  const t = totals(hs);
  return {
    asset_count: hs.length,
    segment_count: new Set(hs.map((h) => h.asset.segment)).size,
    total_invested: t.invested,
    current_value: t.current,
    total_return_percent: returnPercent(t.current, t.invested),
  };
}

/** Money-weighted holding period in years, so one old line does not dominate. */
function holdingYears(hs: Holding[], day: number): number {
  const weight = hs.reduce((t, h) => t + h.purchasePrice, 0);
  if (weight <= 0) return 0;
  return hs.reduce((t, h) => t + h.purchasePrice * Math.max(0, day - h.purchaseDay), 0) / weight / 365.25;
}

export function portfolioAnalytics(state: MarketState, p: StoredPortfolio, ctx: MarketContext): PortfolioAnalytics {
  const day = dayNumber(ctx.day);
  const hs = holdings(state, p, day);
  const t = totals(hs);
  const total = t.current;
  const totalReturn = returnPercent(t.current, t.invested);
  const years = holdingYears(hs, day);
  // Under a year, annualising would blow small moves up: report the plain return.
  const annualised = years >= 1 && t.invested > 0 ? round2((Math.pow(t.current / t.invested, 1 / years) - 1) * 100) : totalReturn;

  const segCents = new Map<SegmentId, number>();
  for (const h of hs) segCents.set(h.asset.segment, (segCents.get(h.asset.segment) ?? 0) + h.valueCents);
  const segs = SEGMENT_IDS.filter((s) => segCents.has(s));
  const shares = percentagesSummingTo100(segs.map((s) => segCents.get(s)!));
  const allocation: PortfolioAnalytics['allocation'] = {};
  segs.forEach((s, i) => (allocation[s] = { value: fromCents(segCents.get(s)!), percentage: shares[i]! }));

  const w = (h: Holding) => (total > 0 ? fromCents(h.valueCents) / total : 1 / hs.length);
  const segHhi = segs.reduce((a, s) => a + Math.pow(total > 0 ? fromCents(segCents.get(s)!) / total : 1 / segs.length, 2), 0);
  const assetHhi = hs.reduce((a, h) => a + w(h) * w(h), 0);
  const diversification = Math.round(clamp(100 * (0.7 * ((1 - segHhi) / 0.9) + 0.3 * (1 - assetHhi)), 0, 100) * 10) / 10;
  const vol = hs.reduce((a, h) => a + w(h) * annualVolatility(SEGMENT_PROFILES[h.asset.segment]), 0) * Math.sqrt(Math.max(segHhi, 0.2));
  const drift = hs.reduce((a, h) => a + w(h) * state.assetChange(h.profile, day, 30), 0);
  const confidence = Math.round(hs.reduce((a, h) => a + w(h) * h.profile.confidence, 0) * 100) / 100;

  return {
    id: p.id,
    name: p.name,
    summary: {
      asset_count: hs.length,
      segment_count: segs.length,
      total_invested: t.invested,
      current_value: total,
      total_return_percent: totalReturn,
      annualised_return: annualised,
      currency: p.currency,
    },
    allocation,
    assets: hs.map((h) => ({
      asset_id: h.profile.asset_id,
      current_value: fromCents(h.valueCents),
      purchase_price: h.purchasePrice,
      return_percent: returnPercent(fromCents(h.valueCents), h.purchasePrice),
      service_score: state.score(h.profile, day).total,
      momentum: assetMomentum(state, h.profile, day),
    })),
    metrics: {
      diversification_score: diversification,
      risk_profile: vol < 0.08 ? 'conservative' : vol < 0.16 ? 'moderate' : 'aggressive',
      momentum: drift > 0.005 ? 'positive' : drift < -0.005 ? 'negative' : 'neutral',
      confidence,
    },
    market_validated: isValidated(confidence),
    updated_at: p.updated_at,
  };
}

/** Calendar periods, as a monthly report counts them: 1 month as of 31 October is since 30 September. */
const PERIOD_MONTHS = { '1_month': 1, '3_months': 3, '6_months': 6, '1_year': 12 } as const;

export function performance(state: MarketState, p: StoredPortfolio, ctx: MarketContext): Performance {
  const day = dayNumber(ctx.day);
  const hs = holdings(state, p, day).filter((h) => h.purchaseDay <= day);
  const lux = state.series.benchmark.luxury_index;
  const yearAgo = monthsBefore(day, PERIOD_MONTHS['1_year']);
  const periodReturn = (start: number) => {
    let from = 0;
    let to = 0;
    for (const h of hs) {
      // Bought during the period: it starts at what was paid for it.
      from += h.purchaseDay > start ? h.purchasePrice : holdingValue(state, h.profile, h.asset, start, p.currency);
      to += fromCents(h.valueCents);
    }
    return from > 0 ? round2((to / from - 1) * 100) : 0;
  };
  const period = (start: number) => {
    const r = periodReturn(start);
    return { return_percent: r, vs_benchmark: formatSignedPercent(r - lux.changeBetween(start, day) * 100) };
  };
  const perf = (h: Holding) => ({ asset_id: h.profile.asset_id, return_percent: returnPercent(fromCents(h.valueCents), h.purchasePrice) });
  const ranked = hs.map(perf).sort((a, b) => b.return_percent - a.return_percent || a.asset_id.localeCompare(b.asset_id));
  const none = { asset_id: '', return_percent: 0 };
  return {
    portfolio_id: p.id,
    periods: {
      '1_month': period(monthsBefore(day, PERIOD_MONTHS['1_month'])),
      '3_months': period(monthsBefore(day, PERIOD_MONTHS['3_months'])),
      '6_months': period(monthsBefore(day, PERIOD_MONTHS['6_months'])),
      '1_year': period(yearAgo),
      ytd: period(lastDayOfPreviousYear(day)),
    },
    // Over the same year as the 1_year period, so its vs_benchmark is the difference of the two figures.
    benchmarks: {
      equity_index: { '1_year': round2(state.series.benchmark.equity_index.changeBetween(yearAgo, day) * 100) },
      gold: { '1_year': round2(state.series.benchmark.gold.changeBetween(yearAgo, day) * 100) },
      luxury_index: { '1_year': round2(lux.changeBetween(yearAgo, day) * 100) },
    },
    best_performer: ranked[0] ?? none,
    worst_performer: ranked[ranked.length - 1] ?? none,
    generated_at: ctx.now.toISOString(),
  };
}
