/**
 * Issue 27: identical holdings (same asset id) are one position before the largest are taken,
 * and the position's row and every one of its lines carry the figures.
 */
import { describe, expect, it } from 'vitest';
import { buildPortfolioReport } from '../../reports/build/portfolio-report';
import type { BuildContext } from '../../reports/build/context';
import { groupPositions, largestPositions } from '../../reports/run/positions';
import { validationByValue } from '../../reports/build/validation';
import { translator } from '../../src/i18n';

const en = translator('en');
import type { PortfolioResults, ValuedItem } from '../../reports/run/results';
import type { Holding as ReportHolding } from '../../reports/report-data';
import type { Holding, PortfolioInput } from '../../src/holdings/types';
import type { ExitStrategy } from '../../src/wire';

describe('groupPositions', () => {
  it('groups lines by asset id in the order each asset first appears, summing their value', () => {
    const ids = ['A', 'B', 'A', 'C', 'A'];
    const values = [10, 20, 11, 5, 12];
    expect(groupPositions([0, 1, 2, 3, 4], (i) => ids[i]!, (i) => values[i]!)).toEqual([
      { asset_id: 'A', lines: [0, 2, 4], value: 33 },
      { asset_id: 'B', lines: [1], value: 20 },
      { asset_id: 'C', lines: [3], value: 5 },
    ]);
  });

  it('groups before cutting: three identical lines, each smaller than the fifth largest line, are one of the five largest positions', () => {
    // Five single lines of 100..60, and three identical lines of 50 (150 together).
    const ids = ['S1', 'S2', 'S3', 'S4', 'S5', 'B', 'B', 'B'];
    const values = [100, 90, 80, 70, 60, 50, 50, 50];
    const top = largestPositions(groupPositions(ids.keys(), (i) => ids[i]!, (i) => values[i]!), 5);
    expect(top.map((p) => [p.asset_id, p.lines.length, p.value])).toEqual([
      ['B', 3, 150],
      ['S1', 1, 100],
      ['S2', 1, 90],
      ['S3', 1, 80],
      ['S4', 1, 70],
    ]);
  });
});

describe('a position in the report', () => {
  const ctx: BuildContext = { asOf: '2026-10-31', currency: 'USD', generatedAt: '2026-11-01T06:00:00.000Z', sandbox: true };
  const line = (row: number, assetId: string): Holding => ({
    portfolio: 'P', source: { file: 'p.csv', row }, segment: 'art', assetId, brand: 'Banksy', model: 'Girl with Balloon', quantity: 1, purchasePrice: 200_000, purchaseDate: '2024-10-31',
  });
  const valued = (assetId: string, mid: number): ValuedItem => ({ ok: true, asset_id: assetId, low: mid, mid, high: mid, currency: 'USD', confidence: 0.8, service_score: 70, momentum: 'neutral', market_validated: true });
  const input: PortfolioInput = { name: 'P', files: ['p.csv'], holdings: [line(2, 'ART-B'), line(3, 'ART-X'), line(4, 'ART-B'), line(5, 'ART-B')], problems: [] };
  const exit = {
    asset_id: 'ART-B', current_value: 900_000, currency: 'USD', confidence: 0.8, market_validated: true, generated_at: '2026-10-31T00:00:00Z',
    timing: { signal: 'favourable', optimal_window: 'now', recommendation: 'sell_now' },
    channels: { primary: { name: 'Auction', commission_percent: 10, estimated_net: 810_000, timeline_days: '30-60' }, secondary: { name: 'Dealer', commission_percent: 15, estimated_net: 765_000, timeline_days: '7-14' } },
    alternatives: { lease_back: { available: false, yield_percent: 0, provider: '' }, hold_12_months: { projected_roi_percent: 4, recommendation: 'consider' } },
  } as unknown as ExitStrategy;
  const results: PortfolioResults = {
    valuations: [valued('ART-B', 300_000), valued('ART-X', 50_000), valued('ART-B', 300_000), valued('ART-B', 300_000)],
    scores: [null, null, null, null],
    performance: { included: false, note: 'Omitted: test.' },
    projections: { included: false, note: 'Omitted: test.' },
    exits: { included: true, data: [{ index: 0, exit }] },
    problems: [],
  };
  const report = buildPortfolioReport(input, results, ctx);

  it('is one exit row with the count of its lines and their total value', () => {
    expect(report.exit_analysis.included && report.exit_analysis.data.map((e) => [e.asset_id, e.holding_count, e.current_value])).toEqual([['ART-B', 3, 900_000]]);
  });

  it('fills the net realisable value of every one of its lines, and of no other', () => {
    const nrv = ([...report.holdings] as ReportHolding[]).map((h) => [h.row, h.net_realisable_value]);
    expect(nrv).toEqual([
      [2, expect.closeTo(270_000, 6)],
      [3, null],
      [4, expect.closeTo(270_000, 6)],
      [5, expect.closeTo(270_000, 6)],
    ]);
  });
});

describe('validationByValue', () => {
  const row = (description: string, current_value: number, market_validated: boolean) => ({ description, current_value, market_validated }) as ReportHolding;
  const rows = [row('Watch A', 10, true), row('House B', 500, false), row('Bag C', 5, false), row('House D', 300, false), row('Car E', 100, false), row('Ring F', 85, true)];

  it('gives the share of value market validated, not of count', () => {
    expect(validationByValue(rows, 80, en).market_validated_percent).toBeCloseTo(9.5, 9);
  });

  it('names the largest holdings not validated, by value, when the share is under the threshold', () => {
    expect(validationByValue(rows, 80, en).validation_warning).toBe(
      'Only 9.5 % of the value in this report is market validated. Most of the rest is in House B (50.0 %); House D (30.0 %); Car E (10.0 %); and 1 other. ' +
        'The model values these with less market evidence, so treat their values with extra caution.',
    );
    expect(validationByValue(rows, 9, en).validation_warning).toBeNull();
    expect(validationByValue([row('Watch A', 10, true)], 80, en)).toEqual({ market_validated_percent: 100, validation_warning: null });
  });
});
