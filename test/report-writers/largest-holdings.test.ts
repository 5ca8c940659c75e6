import { describe, expect, it } from 'vitest';
import type { Holding } from '../../reports/report-data';
import { largestHoldings } from '../../reports/writers/largest-holdings';
import { makeReportData } from '../../fixtures/report-data';

describe('largestHoldings', () => {
  it('matches a full sort, and accounts for every holding it leaves out', () => {
    const data = makeReportData({ holdings: 3000, seed: 11 });
    const all = [...data.holdings] as Holding[];
    const { top, restCount, restValue, restCost } = largestHoldings(data.holdings, 100);
    const sorted = [...all].sort((a, b) => b.current_value - a.current_value);
    expect(top.map((h) => h.current_value)).toEqual(sorted.slice(0, 100).map((h) => h.current_value));
    expect(restCount).toBe(2900);
    expect(restValue + top.reduce((s, h) => s + h.current_value, 0)).toBeCloseTo(all.reduce((s, h) => s + h.current_value, 0), 2);
    expect(restCost + top.reduce((s, h) => s + h.purchase_price, 0)).toBeCloseTo(all.reduce((s, h) => s + h.purchase_price, 0), 2);
  });

  it('keeps everything when the limit is not reached', () => {
    const data = makeReportData({ holdings: 5 });
    const { top, restCount } = largestHoldings(data.holdings, 10);
    expect(top).toHaveLength(5);
    expect(restCount).toBe(0);
  });
});
