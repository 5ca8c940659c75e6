import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainLink, moneyWeightedReturn, moneyWeightedPeriodReturn, periodReturn, spanDays, statedMoneyWeightedReturn } from '../../src/returns';

describe('money-weighted return (IRR, XIRR convention)', () => {
  it('matches a textbook IRR: −1000 now, +100 after one year, +1100 after two years is 10 %', () => {
    // Dates 365 days apart so the XIRR year is exact.
    const r = moneyWeightedReturn([
      { date: '2021-01-01', amount: -1000 },
      { date: '2022-01-01', amount: 100 },
      { date: '2023-01-01', amount: 1100 },
    ]);
    expect(r).toBeCloseTo(10, 6);
  });

  it('matches Excel XIRR on its documentation example (37.34 %)', () => {
    const r = moneyWeightedReturn([
      { date: '2008-01-01', amount: -10000 },
      { date: '2008-03-01', amount: 2750 },
      { date: '2008-10-30', amount: 4250 },
      { date: '2009-02-15', amount: 3250 },
      { date: '2009-04-01', amount: 2750 },
    ]);
    expect(r).toBeCloseTo(37.3362535, 4);
  });

  it('is null when every purchase is on the as-of date (no time to annualise), and uses the other purchases when one is', () => {
    expect(moneyWeightedReturn([{ date: '2026-10-31', amount: -500 }, { date: '2026-10-31', amount: 520 }])).toBeNull();
    const withToday = moneyWeightedReturn([
      { date: '2025-10-31', amount: -1000 },
      { date: '2026-10-31', amount: -500 },
      { date: '2026-10-31', amount: 1600 },
    ]);
    // The purchase today is worth what was paid: the year-old 1000 grew to 1100.
    expect(withToday).toBeCloseTo(10, 6);
  });

  it('is −100 % for a total loss and null with nothing invested', () => {
    expect(moneyWeightedReturn([{ date: '2020-01-01', amount: -1000 }, { date: '2026-01-01', amount: 0 }])).toBe(-100);
    expect(moneyWeightedReturn([{ date: '2026-01-01', amount: 50 }])).toBeNull();
  });

  it('equals the compound annual growth rate for a single purchase (property)', () => {
    const day = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 30, max: 40 * 365 }),
        fc.double({ min: 1, max: 1e8, noNaN: true }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        (days, cost, multiple) => {
          // Rates beyond a billion-fold a year are not meaningful (the solver gives up at 10^12).
          fc.pre(Math.pow(multiple, 365 / days) < 1e9);
          const end = Date.parse('2026-10-31T00:00:00Z');
          const start = new Date(end - days * day).toISOString().slice(0, 10);
          const r = moneyWeightedReturn([{ date: start, amount: -cost }, { date: '2026-10-31', amount: cost * multiple }])!;
          const cagr = (Math.pow(multiple, 365 / days) - 1) * 100;
          expect(Math.abs(r - cagr)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(cagr)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('time-weighted return', () => {
  it('links two periods with a flow in the middle: 100 → 110, then +50 → 168 is +15.5 %', () => {
    const first = periodReturn(100, 110);
    const second = periodReturn(110 + 50, 168);
    expect(first).toBeCloseTo(10, 9);
    expect(second).toBeCloseTo(5, 9);
    expect(chainLink([first, second])).toBeCloseTo(15.5, 9);
  });

  it('takes a flow inside a period by the time it was invested (Modified Dietz)', () => {
    // 100 at the start, 50 added half-way, 165 at the end: gain 15 over 100 + 25.
    expect(periodReturn(100, 165, [{ amount: 50, remaining: 0.5 }])).toBeCloseTo(12, 9);
    // Money that arrives at the very end earns nothing and dilutes nothing.
    expect(periodReturn(100, 160, [{ amount: 50, remaining: 0 }])).toBeCloseTo(10, 9);
  });

  it('is −100 % over a total loss and null without a base or without periods', () => {
    expect(chainLink([periodReturn(100, 0)])).toBeCloseTo(-100, 9);
    expect(periodReturn(0, 10)).toBeNull();
    expect(chainLink([])).toBeNull();
    expect(chainLink([5, null])).toBeNull();
  });
});

describe('money-weighted return as a report states it (issue 27: not annualised under a year)', () => {
  const threeWeeks = [
    { date: '2026-10-10', amount: -6900 },
    { date: '2026-10-31', amount: 6948.46 },
  ];

  it('under a year: the period return (value / cost − 1 for one purchase), marked as not annualised', () => {
    expect(moneyWeightedPeriodReturn(threeWeeks)).toBeCloseTo((6948.46 / 6900 - 1) * 100, 6);
    const stated = statedMoneyWeightedReturn(threeWeeks);
    expect(stated).toEqual({ percent: expect.any(Number), annualised: false, days: 21 });
    expect(stated.percent).toBeCloseTo((6948.46 / 6900 - 1) * 100, 6);
    // What it replaced: the same three weeks as a yearly rate.
    expect(moneyWeightedReturn(threeWeeks)).toBeGreaterThan(stated.percent! * 10);
  });

  it('a year or more: the annualised IRR, as before', () => {
    const twoYears = [
      { date: '2024-10-31', amount: -1000 },
      { date: '2026-10-31', amount: 1210 },
    ];
    expect(statedMoneyWeightedReturn(twoYears)).toEqual({ percent: moneyWeightedReturn(twoYears), annualised: true, days: 730 });
    expect(spanDays(twoYears)).toBe(730);
  });
});
