import { describe, expect, it } from 'vitest';
import { ExitChannel, ExitStrategy, Performance, PortfolioAnalytics, parseSignedPercent, type PortfolioAssetInput } from '../../src/wire';
import { dayNumber, dayText, monthsBefore } from '../../src/sandbox/market/calendar';
import { createMarket, type StoredPortfolio } from '../../src/sandbox/market';
import { ctxFor, DAYTONA, LAFITE_2010 } from './helpers';

const market = createMarket();
const ctx = ctxFor();

function portfolio(assets: PortfolioAssetInput[], currency: StoredPortfolio['currency'] = 'USD'): StoredPortfolio {
  return { id: 'port_test', name: 'Test', assets, currency, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-11-21T10:00:00Z' };
}

const HOLDINGS: PortfolioAssetInput[] = [
  { segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: '116500LN', purchase_price: 24_000, purchase_date: '2021-05-10' },
  { segment: 'watches', brand: 'Patek Philippe', model: 'Nautilus', reference: '5711/1A-010', purchase_price: 90_000, purchase_date: '2020-02-01' },
  { segment: 'wine', producer: 'Château Lafite Rothschild', vintage: 2010, quantity: 3, purchase_price: 21_000, purchase_date: '2019-09-30' },
  { segment: 'art', artist: 'Banksy', title: 'Girl with Balloon', purchase_price: 150_000, purchase_date: '2018-06-01' },
  { segment: 'sneakers', brand: 'Nike', model: 'SB Dunk Low Paris', size: '9', purchase_price: 12_000, purchase_date: '2026-10-01' },
  { segment: 'real_estate', brand: 'Nowhere Special', model: 'Cottage', purchase_price: 400_000, purchase_date: '2015-04-01' },
];

describe('portfolio', () => {
  it('allocation values sum to the current value and percentages to 100', () => {
    for (const currency of ['USD', 'EUR', 'GBP'] as const) {
      const a = PortfolioAnalytics.parse(market.portfolioAnalytics(portfolio(HOLDINGS, currency), ctxFor(undefined, currency)));
      const values = Object.values(a.allocation).map((x) => Math.round(x.value * 100));
      expect(values.reduce((x, y) => x + y, 0)).toBe(Math.round(a.summary.current_value * 100));
      const pct = Object.values(a.allocation).map((x) => Math.round(x.percentage * 100));
      expect(pct.reduce((x, y) => x + y, 0)).toBe(10_000);
      const assetCents = a.assets.map((x) => Math.round(x.current_value * 100)).reduce((x, y) => x + y, 0);
      expect(assetCents).toBe(Math.round(a.summary.current_value * 100));
      expect(a.summary.segment_count).toBe(Object.keys(a.allocation).length);
      expect(a.summary.currency).toBe(currency);
    }
  });

  it('values each holding as the valuation does, and scores it the same', () => {
    const a = market.portfolioAnalytics(portfolio(HOLDINGS.slice(0, 1)), ctx);
    const v = market.value(DAYTONA, ctx);
    expect(a.assets[0]!.current_value).toBe(v.estimated_value.mid);
    expect(a.assets[0]!.service_score).toBe(v.service_score);
    expect(a.assets[0]!.asset_id).toBe(v.asset_id);
    const wine = market.portfolioAnalytics(portfolio([HOLDINGS[2]!]), ctx);
    expect(wine.assets[0]!.current_value).toBeCloseTo(market.value({ ...LAFITE_2010, quantity: 3 }, ctx).estimated_value.mid, 1);
  });

  it('returns follow from invested and current values; created summary matches analytics', () => {
    const p = portfolio(HOLDINGS);
    const a = market.portfolioAnalytics(p, ctx);
    const created = market.portfolioCreated(p, ctx);
    expect(created.current_value).toBe(a.summary.current_value);
    expect(created.total_invested).toBe(a.summary.total_invested);
    expect(a.summary.total_invested).toBe(HOLDINGS.reduce((t, h) => t + h.purchase_price, 0));
    expect(a.summary.total_return_percent).toBeCloseTo((a.summary.current_value / a.summary.total_invested - 1) * 100, 2);
    for (const x of a.assets) expect(x.return_percent).toBeCloseTo((x.current_value / x.purchase_price - 1) * 100, 2);
    expect(a.metrics.diversification_score).toBeGreaterThan(market.portfolioAnalytics(portfolio(HOLDINGS.slice(0, 2)), ctx).metrics.diversification_score);
  });

  it('performance: best and worst performers bracket the holdings, benchmarks from their series', () => {
    const p = portfolio(HOLDINGS);
    const perf = Performance.parse(market.performance(p, ctx));
    const a = market.portfolioAnalytics(p, ctx);
    const returns = a.assets.map((x) => x.return_percent);
    expect(perf.best_performer.return_percent).toBe(Math.max(...returns));
    expect(perf.worst_performer.return_percent).toBe(Math.min(...returns));
    expect(perf.portfolio_id).toBe('port_test');
    // Deterministic, and a different day gives different period returns.
    expect(market.performance(p, ctx)).toEqual(perf);
    expect(market.performance(p, ctxFor('2026-09-01')).periods['1_month']).not.toEqual(perf.periods['1_month']);
  });
});

describe('performance periods', () => {
  it('are calendar periods: 1 month as of 31 October is the change since 30 September, as a monthly report reads it', () => {
    const held: PortfolioAssetInput[] = [{ segment: 'watches', brand: 'Rolex', model: 'Daytona', reference: '116500LN', purchase_price: 24_000, purchase_date: '2021-05-10' }];
    const perf = Performance.parse(market.performance(portfolio(held), ctxFor('2026-10-31')));
    const asset = { segment: 'watches' as const, brand: 'Rolex', model: 'Daytona', reference: '116500LN', quantity: 1 };
    const mid = (day: string) => market.value(asset, ctxFor(day)).estimated_value.mid;
    expect(perf.periods['1_month'].return_percent).toBeCloseTo((mid('2026-10-31') / mid('2026-09-30') - 1) * 100, 2);
    expect(perf.periods['1_year'].return_percent).toBeCloseTo((mid('2026-10-31') / mid('2025-10-31') - 1) * 100, 2);
  });

  it('the luxury benchmark of the 1-year period is the benchmark figure: return minus vs_benchmark gives it back', () => {
    for (const day of ['2026-10-31', '2026-11-21', '2026-02-28', '2026-03-31']) {
      const perf = Performance.parse(market.performance(portfolio(HOLDINGS), ctxFor(day)));
      const year = perf.periods['1_year'];
      // vs_benchmark is written with one decimal: agree within its rounding.
      expect(Math.abs(year.return_percent - parseSignedPercent(year.vs_benchmark)! - perf.benchmarks.luxury_index['1_year']), day).toBeLessThanOrEqual(0.06);
    }
  });

  it('month arithmetic: month ends map to month ends, other days are clamped', () => {
    const d = (t: string) => dayNumber(t);
    expect(dayText(monthsBefore(d('2026-10-31'), 1))).toBe('2026-09-30');
    expect(dayText(monthsBefore(d('2026-09-30'), 1))).toBe('2026-08-31');
    expect(dayText(monthsBefore(d('2026-03-30'), 1))).toBe('2026-02-28');
    expect(dayText(monthsBefore(d('2028-02-29'), 12))).toBe('2027-02-28');
    expect(dayText(monthsBefore(d('2026-11-21'), 3))).toBe('2026-08-21');
    expect(dayText(monthsBefore(d('2026-01-15'), 1))).toBe('2025-12-15');
  });
});

describe('exit strategy', () => {
  it('estimated_net is the value less the channel commission, with realistic commissions', () => {
    for (const urgency of ['flexible', 'standard', 'urgent'] as const) {
      const e = ExitStrategy.parse(market.exitStrategy(DAYTONA, 31_250.5, urgency, ctx));
      for (const c of [e.channels.primary, e.channels.secondary]) {
        expect(c.estimated_net).toBeCloseTo(e.current_value * (1 - c.commission_percent / 100), 2);
        expect(c.commission_percent).toBeGreaterThan(0);
        expect(c.commission_percent).toBeLessThan(30);
      }
    }
  });

  it('urgency picks faster channels', () => {
    const days = (t: string) => Number(t.split('-').pop());
    const flexible = market.exitStrategy(DAYTONA, 30_000, 'flexible', ctx);
    const urgent = market.exitStrategy(DAYTONA, 30_000, 'urgent', ctx);
    expect(days(urgent.channels.primary.timeline_days)).toBeLessThan(days(flexible.channels.primary.timeline_days));
    expect(urgent.channels.primary.commission_percent).toBeGreaterThanOrEqual(flexible.channels.primary.commission_percent);
  });

  it('hold_12_months is the projection’s expected 12-month ROI', () => {
    const e = market.exitStrategy(LAFITE_2010, 9_000, 'flexible', ctx);
    expect(e.alternatives.hold_12_months.projected_roi_percent).toBe(market.projection(LAFITE_2010, 9_000, [12], ctx).expected_roi['12_months']);
  });

  it('channels per segment: every segment has at least two, real estate agents charge a few percent', () => {
    for (const s of ['watches', 'art', 'wine', 'sneakers', 'bags', 'cards', 'jewellery', 'automobiles', 'spirits', 'real_estate'] as const) {
      const cs = market.exitChannels(s, ctx).map((c) => ExitChannel.parse(c));
      expect(cs.length, s).toBeGreaterThanOrEqual(2);
      for (const c of cs) expect(c.segments).toContain(s);
    }
    for (const c of market.exitChannels('real_estate', ctx)) expect(c.commission_percent).toBeLessThanOrEqual(5);
    expect(market.exitChannels(undefined, ctx).length).toBeGreaterThan(market.exitChannels('wine', ctx).length);
  });
});
