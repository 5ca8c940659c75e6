import { describe, expect, it } from 'vitest';
import { buildConsolidatedReport } from '../../reports/build/consolidated';
import { annualisedReturn } from '../../reports/build/figures';
import type { BuildContext } from '../../reports/build/context';
import { buildPortfolioReport } from '../../reports/build/portfolio-report';
import type { Holding, PortfolioInput } from '../../src/holdings/types';
import type { Holding as ReportHolding } from '../../reports/report-data';
import type { PortfolioResults, ValuedItem } from '../../reports/run/results';
import type { ExitStrategy, Projection } from '../../src/wire';
import { holdingAsBuy } from '../../src/ledger/read-ledger';
import { portfolioPast } from '../../reports/run/history-store';

const ctx: BuildContext = { asOf: '2026-10-31', currency: 'USD', generatedAt: '2026-11-01T06:00:00.000Z', sandbox: true };
const omitted = { included: false as const, note: 'Omitted: test.' };

function holding(row: number, brand: string, price: number, segment: Holding['segment'] = 'watches'): Holding {
  return { portfolio: 'P', source: { file: 'p.csv', row }, segment, assetId: `SVC-WAT-${brand.toUpperCase()}-X`, brand, model: 'M', quantity: 1, purchasePrice: price, purchaseDate: '2024-10-31' };
}
const valued = (mid: number): ValuedItem => ({ ok: true, low: mid * 0.9, mid, high: mid * 1.1, currency: 'USD', confidence: 0.8, service_score: 70, momentum: 'positive', market_validated: false });

function portfolio(name: string, holdings: Holding[]): PortfolioInput {
  return { name, files: ['p.csv'], holdings, problems: [{ portfolio: name, file: 'p.csv', row: 9, field: 'segment', value: 'boats', reason: 'segment must be one of …' }] };
}

describe('report figures', () => {
  const input = portfolio('P', [holding(2, 'Rolex', 10_000), holding(3, 'Omega', 5_000), holding(4, 'Tudor', 1_000)]);
  const results: PortfolioResults = {
    valuations: [valued(30_000), valued(6_000), { ok: false, field: 'brand', message: 'brand is longer than 100 characters', transient: false }],
    scores: [{ service_score: 81, momentum: 'neutral', market_validated: true }, null, undefined],
    performance: omitted,
    projections: omitted,
    exits: omitted,
    problems: [],
  };
  const report = buildPortfolioReport(input, results, ctx);
  const rows = [...report.holdings] as ReportHolding[];

  it('sums the valued holdings and lists the others as errors with their rows', () => {
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
    expect(report.summary).toMatchObject({ asset_count: 2, total_invested: 15_000, current_value: 36_000, gain: 21_000, total_return_percent: 140, market_validated_count: 1 });
    expect(report.summary.current_value_low).toBeCloseTo(32_400, 6);
    expect(report.errors.map((e) => [e.row, e.field])).toEqual([
      [4, 'brand'],
      [9, 'segment'],
    ]);
    expect(report.errors[0]!.message).toMatch(/^Not valued: brand is longer than 100 characters\. \[p\.csv\]$/);
  });

  it('takes score and validation from the score, weights and concentration from the values', () => {
    expect(rows[0]).toMatchObject({ service_score: 81, market_validated: true, return_percent: 200 });
    expect(rows[0]!.weight_percent).toBeCloseTo((30_000 / 36_000) * 100, 9);
    expect(report.allocation).toEqual([expect.objectContaining({ segment: 'watches', asset_count: 2, value: 36_000, percentage: 100 })]);
    expect(report.concentration.flags.map((f) => f.kind)).toEqual(['single_position']);
    expect(report.concentration.largest_position).toMatchObject({ row: 2, value: 30_000 });
    expect(report.disclaimer).toMatch(/16\.7 % of the value \(1 of 2 valuations\) is not market validated/);
  });

  it('gives the same report id for the same portfolio, day and holdings, and another for another day', () => {
    expect(buildPortfolioReport(input, results, ctx).cover.report_id).toBe(report.cover.report_id);
    expect(buildPortfolioReport(input, results, { ...ctx, asOf: '2026-09-30' }).cover.report_id).not.toBe(report.cover.report_id);
  });

  it('annualises over the cost-weighted holding period', () => {
    // Doubled in exactly two years (730.5 days of 365.25) → about 41.4 % a year.
    const h = [{ purchase_price: 100, current_value: 200, purchase_date: '2024-10-31' }] as ReportHolding[];
    expect(annualisedReturn(h, '2026-10-31')).toBeCloseTo((Math.SQRT2 - 1) * 100, 0);
    expect(annualisedReturn([{ purchase_price: 100, current_value: 200, purchase_date: '2026-10-20' }] as ReportHolding[], '2026-10-31')).toBeNull();
  });

  it('consolidates portfolios into an internal report: every holding and error with its portfolio', () => {
    const other = portfolio('Q', [holding(2, 'Cartier', 4_000, 'jewellery')]);
    const c = buildConsolidatedReport(
      [
        { input, results },
        { input: other, results: { ...results, valuations: [valued(4_000)], scores: [null] } },
      ],
      omitted,
      ctx,
    );
    expect(c.cover.portfolio_name).toBe('Consolidated');
    expect(c.cover).toMatchObject({ audience: 'internal', portfolios: ['P', 'Q'] });
    expect(c.cover.client_name).not.toContain('P, Q');
    expect(c.summary.current_value).toBe(40_000);
    expect(c.summary.segment_count).toBe(2);
    expect(([...c.holdings] as ReportHolding[]).map((h) => h.portfolio)).toEqual(['P', 'P', 'Q']);
    expect(c.errors.filter((e) => e.portfolio === 'Q')).toHaveLength(1);
  });

  it('shows one valuation per holding: projections and exits take the holding\'s value, confidence and validation, whatever the calls echoed', () => {
    const point = (value: number) => ({ value, roi_percent: 5 });
    const scenario = { probability: 0.5, '12_months': point(31_000), '36_months': point(33_000) };
    const projection = {
      id: 'proj_1', asset_id: input.holdings[0]!.assetId, current_value: 99_999, currency: 'USD', generated_at: '2026-10-31T00:00:00Z',
      scenarios: { conservative: scenario, central: scenario, optimistic: scenario }, expected_roi: { '12_months': 4 }, confidence: 0.52, market_validated: false,
    } as unknown as Projection;
    const exit = {
      asset_id: input.holdings[0]!.assetId, current_value: 99_999, currency: 'USD', confidence: 0.52, market_validated: false, generated_at: '2026-10-31T00:00:00Z',
      timing: { signal: 'favourable', optimal_window: 'now', recommendation: 'sell_now' },
      channels: { primary: { name: 'Auction', commission_percent: 10, estimated_net: 27_000, timeline_days: '30-60' }, secondary: { name: 'Dealer', commission_percent: 15, estimated_net: 25_500, timeline_days: '7-14' } },
      alternatives: { lease_back: { available: false, yield_percent: 0, provider: '' }, hold_12_months: { projected_roi_percent: 4, recommendation: 'consider' } },
    } as unknown as ExitStrategy;
    const r = buildPortfolioReport(input, { ...results, projections: { included: true, data: [{ index: 0, projection }] }, exits: { included: true, data: [{ index: 0, exit }] } }, ctx);
    const holding = ([...r.holdings] as ReportHolding[])[0]!;
    const one = { current_value: holding.current_value, confidence: holding.confidence, market_validated: holding.market_validated };
    expect(one).toEqual({ current_value: 30_000, confidence: 0.8, market_validated: true });
    expect(r.projections.included && r.projections.data[0]).toMatchObject(one);
    expect(r.exit_analysis.included && r.exit_analysis.data[0]).toMatchObject(one);
    // Net realisable value: the holding's value after the primary channel's commission.
    expect(holding.net_realisable_value).toBeCloseTo(27_000, 6);
  });

  it('with --previous alone: month-on-month, the month column and the month\'s return from the previous report, the summary\'s returns since inception; a holding the previous report valued is carried over', async () => {
    // Previous report (30 September): Rolex 25,000, Omega 5,500, Tudor 900.
    const [rolex, omega, tudor] = input.holdings.map((h) => h.assetId);
    const previous = {
      name: 'P', as_of: '2026-09-30', currency: 'USD',
      summary: { current_value: 31_400, time_weighted_return_percent: 10, twr_from: '2025-12-31' },
      holdings: [{ asset_id: rolex!, current_value: 25_000 }, { asset_id: omega!, current_value: 5_500 }, { asset_id: tudor!, current_value: 900 }],
    };
    const run = { byPortfolio: new Map([['P', previous]]) };
    // As the run builds it: no database, the holdings as the ledger's buys, the previous report's month-end.
    const ledger = { entries: input.holdings.map((h) => holdingAsBuy(h, 'USD')), realisations: [] };
    const past = await portfolioPast(undefined, ledger, { portfolio: 'P', asOf: ctx.asOf, currency: 'USD' }, run, () => {});
    expect(past.source).toBe('the previous report (--previous)');
    const all = { ...results, valuations: [valued(30_000), valued(6_000), valued(1_000)] };
    const r = buildPortfolioReport(input, all, { ...ctx, previous: run }, past);
    const s = r.summary;
    expect(s.month_on_month).toMatchObject({ previous_as_of: '2026-09-30', previous_value: 31_400, change: 5_600 });
    // The month's return is the month-to-date period's: no flow this month, so the value's own growth.
    expect(s.month_on_month!.return_percent).toBeCloseTo((37_000 / 31_400 - 1) * 100, 9);
    expect(s.month_on_month!.return_percent).toBe(r.history!.performance.periods.mtd!.twr_percent);
    expect(([...r.holdings] as ReportHolding[]).map((h) => h.month_on_month_change)).toEqual([5_000, 500, 100]);
    // The summary's returns are the since-inception period's: 16,000 paid on 2024-10-31, 37,000 two years later.
    const si = r.history!.performance.periods.since_inception!;
    expect(s.money_weighted_return_percent).toBe(si.mwr_percent);
    expect(s.money_weighted_return_percent).toBeCloseTo((Math.sqrt(37_000 / 16_000) - 1) * 100, 1);
    expect(s.returns_since).toEqual({ from: '2024-10-31', days: 730, annualised: true });
    // The chain the old report carried is not continued: without every month-end recorded there is no time-weighted return, and the same reason is given.
    expect(s.time_weighted_return_percent).toBeNull();
    expect(s.returns_unavailable.time_weighted).toBe(si.note);
    expect(s.returns_unavailable.time_weighted).toMatch(/^time-weighted return: not enough history: no value recorded for 22 month-ends/);
    expect(r.method_notes.join('\n')).toContain('with the same asset at the month-end of 2026-09-30, from the previous report (--previous)');

    // The Tudor refused by the service now but valued last month: carried over, outside the totals; today's value is not known, so no return is.
    const short = buildPortfolioReport(input, results, { ...ctx, previous: run }, past);
    expect(short.summary.coverage).toMatchObject({ valued_count: 2, carried_over_count: 1, not_valued_count: 0 });
    expect(short.summary.coverage.carried_over_percent).toBeCloseTo((900 / 36_900) * 100, 9);
    expect(short.summary.current_value).toBe(36_000);
    const why = "not every holding was valued on 2026-10-31, so the portfolio's value that day is not known";
    expect(short.summary).toMatchObject({ money_weighted_return_percent: null, time_weighted_return_percent: null, returns_unavailable: { money_weighted: why, time_weighted: why, month_return: why } });
    expect(short.history!.performance.unavailable.since_inception).toBe(why);
    // Without any history the holdings alone: no month-on-month, said in the words review prints.
    expect(report.summary).toMatchObject({ time_weighted_return_percent: null, twr_from: null, month_on_month: null });
    expect(report.summary.returns_unavailable.month_on_month).toBe('no earlier month-end recorded');
    // The report says where its earlier values came from (issue 34): here from nowhere, above from --previous.
    expect(report.summary.returns_source).toBe('this report alone (no earlier month-end recorded)');
    expect(s.returns_source).toBe('the previous report (--previous)');
    expect(report.summary.coverage).toMatchObject({ valued_count: 2, carried_over_count: 0, not_valued_count: 1 });
  });

  it('refuses to build a report for a portfolio with no readable holding', () => {
    expect(() => buildPortfolioReport({ ...input, holdings: [] }, { ...results, valuations: [], scores: [] }, ctx)).toThrow(/has no readable holding/);
  });
});
