import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOfMonth, isLongerThanAYear, performanceOverPeriods, periodStart, subPeriodReturn, timeWeightedReturn, type DatedFlow, type ValuePoint } from '../../src/performance';
import { moneyWeightedPeriodReturn } from '../../src/returns';

describe('one month by Modified Dietz (a flow on day d of D weighted (D − d) / D)', () => {
  // April 2026 has 30 days: from the March month-end to the April month-end.
  it('a mid-month contribution', () => {
    // 10 000 in on 15 April: weight (30 − 15) / 30 = 0.5. Gain 115 000 − 100 000 − 10 000 = 5 000
    // over 100 000 + 0.5 × 10 000 = 105 000: 4.7619 %.
    const m = subPeriodReturn('2026-03-31', 100_000, '2026-04-30', 115_000, [{ date: '2026-04-15', amount: 10_000, kind: 'external' }]);
    expect(m.return_percent).toBeCloseTo((5_000 / 105_000) * 100, 10);
    expect(m.net_flows).toBe(10_000);
  });

  it('a withdrawal on the last day weighs nothing', () => {
    // 20 000 out (a sale) on 30 April: weight 0. Gain 90 000 − 100 000 + 20 000 = 10 000 over 100 000: 10 %.
    const m = subPeriodReturn('2026-03-31', 100_000, '2026-04-30', 90_000, [{ date: '2026-04-30', amount: -20_000, kind: 'external' }]);
    expect(m.return_percent).toBeCloseTo(10, 10);
  });

  it('a month with no flows is end over start', () => {
    expect(subPeriodReturn('2026-03-31', 100_000, '2026-04-30', 103_000, []).return_percent).toBeCloseTo(3, 10);
  });

  it('leaves out a flow on the start day (it is in the start value) and flows after the end', () => {
    const m = subPeriodReturn('2026-03-31', 100_000, '2026-04-30', 103_000, [
      { date: '2026-03-31', amount: 50_000, kind: 'external' },
      { date: '2026-05-01', amount: 50_000, kind: 'external' },
    ]);
    expect(m.return_percent).toBeCloseTo(3, 10);
    expect(m.net_flows).toBe(0);
  });

  it('a 100 % loss is −100 %, time- and money-weighted', () => {
    expect(subPeriodReturn('2026-03-31', 100_000, '2026-04-30', 0, []).return_percent).toBeCloseTo(-100, 10);
    expect(moneyWeightedPeriodReturn([{ date: '2026-03-31', amount: -100_000 }, { date: '2026-04-30', amount: 0 }])).toBe(-100);
  });

  it('an empty month (nothing held, no flows) is 0 %, and a month with value from nowhere has no base', () => {
    expect(subPeriodReturn('2026-03-31', 0, '2026-04-30', 0, []).return_percent).toBe(0);
    expect(subPeriodReturn('2026-03-31', 0, '2026-04-30', 10, []).return_percent).toBeNull();
  });

  it('chain-links the months: +10 %, +10 %, −10 % is +8.9 %', () => {
    const t = timeWeightedReturn(
      [
        { date: '2025-12-31', value: 1000 },
        { date: '2026-01-31', value: 1100 },
        { date: '2026-02-28', value: 1210 },
        { date: '2026-03-31', value: 1089 },
      ],
      [],
    );
    // 1.1 × 1.1 × 0.9 − 1 = 0.089
    expect(t.months.map((m) => m.return_percent)).toEqual([expect.closeTo(10, 10), expect.closeTo(10, 10), expect.closeTo(-10, 10)]);
    expect(t.return_percent).toBeCloseTo(8.9, 10);
  });
});

describe('the standard periods', () => {
  // A portfolio bought for 1 000 on 31 December 2025, 200 more bought on 14 February 2026.
  // Month-ends: Dec 1000, Jan 1100 (+10 %), Feb 1420, Mar 1278 (−10 %).
  // February: 200 on the 14th is more than 10 % of the book value 1100, so it splits the month:
  // 1100 → 1100 to the 14th (0 %), then 1300 → 1420: 120 / 1300 = +9.2308 %.
  // Three months linked: 1.1 × 1420 / 1300 × 0.9 − 1 = +8.1385 %.
  const quarterTwr = (1.1 * (1420 / 1300) * 0.9 - 1) * 100;
  const history: ValuePoint[] = [
    { asOf: '2025-12-31', value: 1000 },
    { asOf: '2026-01-31', value: 1100 },
    { asOf: '2026-02-28', value: 1420 },
    { asOf: '2026-03-31', value: 1278 },
  ];
  const flows: DatedFlow[] = [
    { date: '2025-12-31', amount: 1000, kind: 'external' },
    { date: '2026-02-14', amount: 200, kind: 'external' },
  ];
  const r = performanceOverPeriods(history, flows, '2026-03-31');
  // The quarter's IRR as its own return g: 1000 in on 31 Dec (90 days before the end), 200 on
  // 14 Feb (45 days: half the span), 1278 out on 31 Mar. With x = √(1 + g):
  // 1000 x² + 200 x = 1278 → x = (−200 + √(200² + 4 × 1000 × 1278)) / 2000 = 1.03490088; g = 7.10198 %.
  const x = (-200 + Math.sqrt(200 ** 2 + 4 * 1000 * 1278)) / 2000;
  const quarterMwr = (x * x - 1) * 100;

  it('says where each period starts', () => {
    expect(periodStart('mtd', '2026-03-31')).toBe('2026-02-28');
    expect(periodStart('qtd', '2026-03-31')).toBe('2025-12-31');
    expect(periodStart('qtd', '2026-04-30')).toBe('2026-03-31');
    expect(periodStart('qtd', '2026-12-31')).toBe('2026-09-30');
    expect(periodStart('ytd', '2026-03-31')).toBe('2025-12-31');
    expect(periodStart('ytd', '2026-12-31')).toBe('2025-12-31');
    expect(periodStart('1y', '2024-02-29')).toBe('2023-02-28');
    expect(periodStart('3y', '2026-03-31')).toBe('2023-03-31');
    expect(periodStart('since_inception', '2026-03-31', '2025-12-31')).toBe('2025-12-31');
  });

  it('month to date: March alone, −10 %, both returns', () => {
    expect(r.periods.mtd).toMatchObject({ from: '2026-02-28', to: '2026-03-31', start_value: 1420, end_value: 1278, net_flows: 0, annualised: false });
    expect(r.periods.mtd!.twr_percent).toBeCloseTo(-10, 10);
    expect(r.periods.mtd!.mwr_percent).toBeCloseTo(-10, 8);
  });

  it('quarter and year to date: three months chain-linked, +8.14 %, and the quarter’s IRR', () => {
    for (const key of ['qtd', 'ytd'] as const) {
      expect(r.periods[key]).toMatchObject({ from: '2025-12-31', start_value: 1000, end_value: 1278, net_flows: 200, days: 90 });
      expect(r.periods[key]!.twr_percent).toBeCloseTo(quarterTwr, 10);
      expect(r.periods[key]!.mwr_percent).toBeCloseTo(quarterMwr, 7);
    }
  });

  it('since inception: from the first flow with start value 0, its flows included', () => {
    // The first month starts from 0 with 1000 in on its first day (weight 1): 1100 / 1000 − 1 = 10 %.
    expect(r.periods.since_inception).toMatchObject({ from: '2025-12-31', start_value: 0, end_value: 1278, net_flows: 1200 });
    expect(r.periods.since_inception!.twr_percent).toBeCloseTo(quarterTwr, 10);
    expect(r.periods.since_inception!.mwr_percent).toBeCloseTo(quarterMwr, 7);
  });

  it('1 year and 3 years are null with the reason: the portfolio started after their start', () => {
    expect(r.periods['1y']).toBeNull();
    expect(r.periods['3y']).toBeNull();
    expect(r.unavailable['1y']).toMatch(/^not enough history: .*first flow is on 2025-12-31.*2025-03-31/);
    expect(r.unavailable.mtd).toBeUndefined();
  });

  it('a period whose start has no recorded value is null: not enough history', () => {
    const older: DatedFlow[] = [{ date: '2024-06-15', amount: 1000, kind: 'external' }, ...flows.slice(1)];
    const s = performanceOverPeriods(history, older, '2026-03-31');
    expect(s.periods['1y']).toBeNull();
    expect(s.unavailable['1y']).toBe('not enough history: no value recorded on 2025-03-31');
    expect(s.periods.ytd).not.toBeNull();
  });

  it('without a value at the as-of date, no period', () => {
    const s = performanceOverPeriods(history, flows, '2026-04-30');
    expect(Object.values(s.periods).every((p) => p === null)).toBe(true);
    expect(s.unavailable.mtd).toBe('not enough history: no value recorded on 2026-04-30');
  });

  it('a missing month-end in between leaves the money-weighted return and nulls the time-weighted one with a note', () => {
    const s = performanceOverPeriods(history.filter((p) => p.asOf !== '2026-01-31'), flows, '2026-03-31');
    expect(s.periods.qtd!.twr_percent).toBeNull();
    expect(s.periods.qtd!.note).toContain('2026-01-31');
    expect(s.periods.qtd!.mwr_percent).toBeCloseTo(quarterMwr, 7);
    expect(s.periods.mtd!.twr_percent).toBeCloseTo(-10, 10);
  });

  it('ignores flows and values after the as-of date, and counts a flow on the as-of date in the period', () => {
    const later = performanceOverPeriods(
      [...history, { asOf: '2026-04-30', value: 5000 }],
      [...flows, { date: '2026-04-10', amount: 3000, kind: 'external' }],
      '2026-03-31',
    );
    expect(later).toEqual(r);
    // A ledger whose only flow is after the as-of date has no inception yet.
    const notYet = performanceOverPeriods(history, [{ date: '2026-04-10', amount: 3000, kind: 'external' }], '2026-03-31');
    expect(notYet.periods.since_inception).toBeNull();
    expect(notYet.unavailable.since_inception).toBe('no flows in the ledger on or before 2026-03-31');
    // 100 in on the as-of date: weight 0 in March's Dietz, and in the net flows.
    const onAsOf = performanceOverPeriods(
      history.map((p) => (p.asOf === '2026-03-31' ? { ...p, value: 1378 } : p)),
      [...flows, { date: '2026-03-31', amount: 100, kind: 'external' }],
      '2026-03-31',
    );
    expect(onAsOf.periods.mtd!.net_flows).toBe(100);
    expect(onAsOf.periods.mtd!.twr_percent).toBeCloseTo(-10, 10);
  });
});

describe('annualisation: a period longer than a year is annualised, a year or shorter is its own return', () => {
  // Bought for 1000 on 31 March 2024, no other flow; +10 % a year, every month-end recorded
  // (values on a straight line between; the months telescope to end / start).
  const history: ValuePoint[] = [];
  for (let i = 0; i <= 24; i++) {
    const date = endOfMonth(2024, 3 + i);
    const value = i <= 12 ? 1000 + (100 * i) / 12 : 1100 + (110 * (i - 12)) / 12;
    history.push({ asOf: date, value });
  }
  const flows: DatedFlow[] = [{ date: '2024-03-31', amount: 1000, kind: 'external' }];

  it('exactly one year (31 March to 31 March) is not annualised: 1100 / 1000 − 1 = 10 %', () => {
    const r = performanceOverPeriods(history, flows, '2025-03-31');
    for (const key of ['1y', 'since_inception'] as const) {
      expect(r.periods[key]).toMatchObject({ from: '2024-03-31', annualised: false, days: 365 });
      expect(r.periods[key]!.twr_percent).toBeCloseTo(10, 9);
      expect(r.periods[key]!.mwr_percent).toBeCloseTo(10, 7);
    }
  });

  it('two years is annualised: 1210 / 1000 over 730 days is (1.21)^(365/730) − 1 = 10 % a year, not 21 %', () => {
    const r = performanceOverPeriods(history, flows, '2026-03-31');
    expect(r.periods.since_inception).toMatchObject({ from: '2024-03-31', annualised: true, days: 730 });
    expect(r.periods.since_inception!.twr_percent).toBeCloseTo(10, 9);
    expect(r.periods.since_inception!.mwr_percent).toBeCloseTo(10, 7);
    // The last year alone: 1210 / 1100 − 1 = 10 %, not annualised.
    expect(r.periods['1y']).toMatchObject({ annualised: false });
    expect(r.periods['1y']!.twr_percent).toBeCloseTo(10, 9);
  });

  it('draws the line at one calendar year, a month-end’s year ending at the same month’s end', () => {
    expect(isLongerThanAYear('2023-02-28', '2024-02-29')).toBe(false); // 366 days, one year of month-ends
    expect(isLongerThanAYear('2024-03-15', '2025-03-15')).toBe(false);
    expect(isLongerThanAYear('2024-03-15', '2025-03-16')).toBe(true);
    expect(isLongerThanAYear('2024-03-31', '2025-04-01')).toBe(true);
  });
});

describe('for a single purchase and no other flows, the time-weighted return equals the money-weighted one', () => {
  it('in every period the history covers (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 * 30 }),
        fc.double({ min: 1, max: 1e7, noNaN: true }),
        fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 1, maxLength: 48 }),
        (offset, cost, moves) => {
          // Bought `offset` days after 1 January 2020 for `cost`; each recorded month-end from the
          // purchase's month on is the one before times a random move (the first: the cost times it).
          const purchase = new Date(Date.UTC(2020, 0, 1 + offset)).toISOString().slice(0, 10);
          const y = Number(purchase.slice(0, 4));
          const m = Number(purchase.slice(5, 7));
          const history: ValuePoint[] = [];
          let value = cost;
          moves.forEach((move, i) => {
            value *= move;
            history.push({ asOf: endOfMonth(y, m + i), value });
          });
          const asOf = history[history.length - 1]!.asOf;
          fc.pre(asOf > purchase); // at least one day invested
          const r = performanceOverPeriods(history, [{ date: purchase, amount: cost, kind: 'external' }], asOf);
          expect(r.periods.since_inception).not.toBeNull();
          for (const p of Object.values(r.periods)) {
            if (p === null) continue;
            expect(p.twr_percent).not.toBeNull();
            expect(p.mwr_percent).not.toBeNull();
            expect(Math.abs(p.twr_percent! - p.mwr_percent!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(p.twr_percent!)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
