/**
 * The one computation every return figure is read from (src/performance/portfolio.ts), pure:
 * month-on-month against the latest recorded month-end, each holding matched to its own
 * counterpart (two identical watches each to theirs), the month's return the month-to-date
 * period's, and one reason for every figure that cannot be given.
 */
import { describe, expect, it } from 'vitest';
import { NO_EARLIER_MONTH_END, portfolioPerformance } from '../../src/performance';

const flows = [
  { date: '2026-07-10', amount: 10_000, kind: 'external' as const },
  { date: '2026-07-10', amount: 10_000, kind: 'external' as const },
  { date: '2026-08-20', amount: 5_000, kind: 'external' as const },
];
const watch = 'SVC-WAT-ROLEX-X';
const bag = 'SVC-BAG-HERMES-Y';

describe('portfolioPerformance', () => {
  it('compares with the previous month-end: the whole, each holding against its own, the month\'s return the mtd period\'s; the summary\'s returns the since-inception period\'s', () => {
    const p = portfolioPerformance({
      asOf: '2026-09-30',
      value: 28_600,
      recorded: [{ asOf: '2026-07-31', value: 20_400 }, { asOf: '2026-08-31', value: 26_000 }],
      flows,
      holdings: [{ key: watch, value: 11_000 }, { key: watch, value: 12_000 }, { key: bag, value: 5_600 }],
      previousHoldings: { asOf: '2026-08-31', holdings: [{ key: watch, value: 10_000 }, { key: watch, value: 11_000 }, { key: bag, value: 5_000 }] },
    });
    expect(p.monthOnMonth).toMatchObject({ previous_as_of: '2026-08-31', previous_value: 26_000, change: 2_600, return_unavailable: null });
    expect(p.monthOnMonth!.change_percent).toBeCloseTo(10, 9);
    // No flow in September: the month's return is the value's growth, and it is the mtd period's figure.
    expect(p.monthOnMonth!.return_percent).toBeCloseTo(10, 9);
    expect(p.monthOnMonth!.return_percent).toBe(p.periods.periods.mtd!.twr_percent);
    expect(p.holdingChanges).toEqual([{ change: 1_000, percent: 10 }, { change: 1_000, percent: (1_000 / 11_000) * 100 }, { change: 600, percent: 12 }]);
    const si = p.periods.periods.since_inception!;
    expect(p.sinceInception).toMatchObject({ from: '2026-07-10', mwr_percent: si.mwr_percent, twr_percent: si.twr_percent, annualised: false, mwr_unavailable: null, twr_unavailable: null });
    expect(p.sinceInception.twr_percent).not.toBeNull();
  });

  it('nothing recorded before: no month-on-month, in the words review prints; no holding matched', () => {
    const p = portfolioPerformance({ asOf: '2026-07-31', value: 20_400, recorded: [], flows: flows.slice(0, 2), holdings: [{ key: watch, value: 20_400 }] });
    expect(p.monthOnMonth).toBeNull();
    expect(p.monthOnMonthUnavailable).toBe(NO_EARLIER_MONTH_END);
    expect(p.holdingChanges).toEqual([null]);
  });

  it("a month not recorded: the change against the latest month-end is given, the month's return is not, saying why", () => {
    const p = portfolioPerformance({ asOf: '2026-09-30', value: 28_600, recorded: [{ asOf: '2026-07-31', value: 20_400 }], flows, holdings: [] });
    expect(p.monthOnMonth).toMatchObject({ previous_as_of: '2026-07-31', change: 8_200, return_percent: null });
    expect(p.monthOnMonth!.return_unavailable).toBe(p.periods.unavailable.mtd);
    expect(p.sinceInception.twr_percent).toBeNull();
    expect(p.sinceInception.twr_unavailable).toBe(p.periods.periods.since_inception!.note);
    expect(p.sinceInception.mwr_percent).not.toBeNull();
  });

  it("today's value unknown: every return null with the caller's reason, the same in every place", () => {
    const why = 'not every holding was valued on 2026-09-30';
    const p = portfolioPerformance({ asOf: '2026-09-30', value: { unknown: why }, recorded: [{ asOf: '2026-08-31', value: 26_000 }], flows, holdings: [{ key: watch, value: 11_000 }] });
    expect(p.sinceInception).toMatchObject({ mwr_percent: null, twr_percent: null, mwr_unavailable: why, twr_unavailable: why });
    expect(p.monthOnMonth).toMatchObject({ return_percent: null, return_unavailable: why, change: 11_000 - 26_000 });
    for (const reason of Object.values(p.periods.unavailable)) expect(reason).toBe(why);
  });
});
