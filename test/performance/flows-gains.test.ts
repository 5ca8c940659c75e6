import { describe, expect, it } from 'vitest';
import { buildLots } from '../../src/ledger';
import { ledgerFlows, performanceOverPeriods, realisedGains, unrealisedGain, valueHistory, type RateFunction } from '../../src/performance';
import { moneyWeightedPeriodReturn } from '../../src/returns';
import { entry } from './ledger-fixtures';

/** EUR is the reporting currency; USD and GBP at fixed rates per day (EUR per unit). */
const RATES: Record<string, Record<string, number>> = {
  USD: { '2024-01-10': 0.9, '2024-06-10': 0.95 },
  GBP: { '2024-02-01': 1.15, '2024-07-01': 1.2 },
};
const rate: RateFunction = (currency, date) => {
  if (currency === 'EUR') return 1;
  const r = RATES[currency]?.[date];
  if (r === undefined) throw new Error(`no ${currency} rate on ${date}`);
  return r;
};

describe('flows', () => {
  it('buy, fee and transfer_in are money in; sell, income and transfer_out money out; each at its own date’s rate', () => {
    const { flows, problems } = ledgerFlows(
      [
        entry(2, '2024-01-10', 'buy', 'w', 1, 10_000, 'USD'),
        entry(3, '2024-01-10', 'fee', undefined, undefined, 100, 'USD'),
        entry(4, '2024-02-01', 'transfer_in', 'c', 1, 1_000, 'GBP'),
        entry(5, '2024-06-10', 'sell', 'w', 1, 12_000, 'USD'),
        entry(6, '2024-07-01', 'income', 'c', undefined, 50, 'GBP'),
        entry(7, '2024-07-01', 'transfer_out', 'c', 1, 2_000, 'EUR'),
      ],
      rate,
    );
    expect(problems).toEqual([]);
    // 10 000 × 0.9; 100 × 0.9; 1 000 × 1.15; −12 000 × 0.95; −50 × 1.2; −2 000 × 1.
    // Purchases, sales and transfers are external (they can split a month); fees and income never do.
    expect(flows.map((f) => [f.date, f.amount, f.kind])).toEqual([
      ['2024-01-10', expect.closeTo(9_000, 9), 'external'],
      ['2024-01-10', expect.closeTo(90, 9), 'fee'],
      ['2024-02-01', expect.closeTo(1_150, 9), 'external'],
      ['2024-06-10', expect.closeTo(-11_400, 9), 'external'],
      ['2024-07-01', expect.closeTo(-60, 9), 'income'],
      ['2024-07-01', -2_000, 'external'],
    ]);
  });

  it('refuses a row whose rate is missing (field currency) and keeps the others', () => {
    const { flows, problems } = ledgerFlows([entry(2, '2024-01-11', 'buy', 'w', 1, 10_000, 'USD'), entry(3, '2024-01-11', 'buy', 'x', 1, 500)], rate);
    expect(problems).toEqual([{ portfolio: 'P', source: { file: 'ledger.csv', row: 2 }, field: 'currency', reason: 'no USD rate on 2024-01-11' }]);
    expect(flows).toEqual([{ date: '2024-01-11', amount: 500, kind: 'external' }]);
  });

  it('value history: each month-end with the net flows since the one before and the month’s return', () => {
    const h = valueHistory(
      [
        { asOf: '2026-02-28', value: 1420 },
        { asOf: '2026-01-31', value: 1100 },
        { asOf: '2026-03-31', value: 1278 },
      ],
      [
        { date: '2026-01-05', amount: 1000, kind: 'external' },
        { date: '2026-02-14', amount: 200, kind: 'external' },
        { date: '2026-04-02', amount: 7, kind: 'external' },
      ],
    );
    expect(h.map((p) => [p.as_of, p.value, p.net_flows])).toEqual([
      ['2026-01-31', 1100, 1000],
      ['2026-02-28', 1420, 200],
      ['2026-03-31', 1278, 0],
    ]);
    // The same split computation as every period's (time-weighted.ts monthReturn):
    // January from the first flow (the inception month starts on it): 1000 in, 1100 at the end: +10 %.
    // February: 200 on the 14th is more than 10 % of the book value 1100, so it splits the month:
    // 1100 → 1100 (0 %) to the 14th, then 1300 → 1420: 120 / 1300 = +9.2308 %; March −10 %.
    expect(h.map((p) => p.return_percent)).toEqual([expect.closeTo(10, 10), expect.closeTo((120 / 1300) * 100, 10), expect.closeTo(-10, 10)]);
  });
});

describe('gains in the reporting currency', () => {
  const ledger = [
    entry(2, '2024-01-10', 'buy', 'watch', 1, 10_000, 'USD'), // 9 000 EUR at 0.9
    entry(3, '2024-02-01', 'buy', 'wine', 12, 6_000, 'GBP'), // 6 900 EUR at 1.15
    entry(4, '2024-06-10', 'sell', 'watch', 1, 12_000, 'USD'), // 11 400 EUR at 0.95
    entry(5, '2024-07-01', 'sell', 'wine', 8, 3_200, 'GBP'), // 3 840 EUR at 1.2
  ];
  const lots = buildLots(ledger, '2024-12-31');

  it('realised: proceeds at the sale date’s rate minus cost at the purchase date’s, per sale and in total', () => {
    const g = realisedGains(lots.realisations, rate);
    expect(g.problems).toEqual([]);
    // A sale at a gain: 12 000 × 0.95 − 10 000 × 0.9 = 11 400 − 9 000 = 2 400.
    // A sale at a loss: 8 of 12 bottles cost 6 000 × 8/12 = 4 000 GBP × 1.15 = 4 600; sold 3 200 × 1.2 = 3 840: −760.
    expect(g.lines.map((l) => [l.assetId, l.costReporting, l.proceedsReporting, l.gain])).toEqual([
      ['watch', expect.closeTo(9_000, 9), expect.closeTo(11_400, 9), expect.closeTo(2_400, 9)],
      ['wine', expect.closeTo(4_600, 9), expect.closeTo(3_840, 9), expect.closeTo(-760, 9)],
    ]);
    expect(g.total).toBeCloseTo(1_640, 9);
  });

  it('unrealised: what is held at its value minus its cost at the purchase date’s rate; an asset without a value is listed apart', () => {
    // 4 bottles left: 2 000 GBP × 1.15 = 2 300 EUR of cost, valued at 2 500 EUR: +200.
    const u = unrealisedGain(lots.lots, (_p, id) => (id === 'wine' ? 2_500 : undefined), rate);
    expect(u.lines).toEqual([{ portfolio: 'P', assetId: 'wine', quantity: 4, cost: expect.closeTo(2_300, 9), value: 2_500, gain: expect.closeTo(200, 9) }]);
    expect(u.total).toBeCloseTo(200, 9);
    expect(unrealisedGain(lots.lots, () => undefined, rate)).toMatchObject({ lines: [], total: 0, unvalued: [{ portfolio: 'P', assetId: 'wine' }] });
  });

  it('a realisation whose rate is missing is a problem of the sale’s row, left out of the total', () => {
    const g = realisedGains(buildLots([entry(2, '2024-01-10', 'buy', 'w', 1, 100, 'USD'), entry(3, '2024-03-03', 'sell', 'w', 1, 150, 'USD')], '2024-12-31').realisations, rate);
    expect(g.problems.map((p) => [p.source.row, p.field])).toEqual([[3, 'currency']]);
    expect(g.total).toBe(0);
  });
});

describe('from a ledger to the periods and gains', () => {
  it('a buy, a partial sale and a fee through three months', () => {
    const ledger = [
      entry(2, '2026-01-01', 'buy', 'wine', 12, 1200),
      entry(3, '2026-02-14', 'sell', 'wine', 6, 700),
      entry(4, '2026-03-10', 'fee', 'wine', undefined, 31),
      entry(5, '2026-04-03', 'sell', 'wine', 6, 700), // after the as-of date
    ];
    const history = [
      { asOf: '2026-01-31', value: 1260 },
      { asOf: '2026-02-28', value: 650 },
      { asOf: '2026-03-31', value: 620 },
    ];
    const lots = buildLots(ledger, '2026-03-31');
    expect(lots.afterAsOf).toBe(1);
    const { flows } = ledgerFlows(lots.accepted, rate);
    const p = performanceOverPeriods(history, flows, '2026-03-31').periods.since_inception!;
    // January from the first flow: 1200 in on its first day (weight 1), 1260 at the end: +5 %.
    // February: the sale of 700 on the 14th is more than 10 % of the book value 1260, so it splits
    // the month: 1260 → 1260 (0 %) to the 14th, then 1260 − 700 = 560 → 650: +90 / 560.
    // March (31 days): the fee of 31 on day 10 does not split (weight 21/31): (620 − 650 − 31) / (650 + 21) = −61 / 671.
    expect(p.twr_percent).toBeCloseTo((1.05 * (1 + 90 / 560) * (1 - 61 / 671) - 1) * 100, 9);
    expect(p).toMatchObject({ from: '2026-01-01', start_value: 0, end_value: 620, net_flows: 531, annualised: false });
    // The IRR over 1200 in on 1 January, 700 out on 14 February, 31 in on 10 March and 620 held on 31 March.
    expect(p.mwr_percent).toBeCloseTo(
      moneyWeightedPeriodReturn([
        { date: '2026-01-01', amount: -1200 },
        { date: '2026-02-14', amount: 700 },
        { date: '2026-03-10', amount: -31 },
        { date: '2026-03-31', amount: 620 },
      ])!,
      9,
    );
    // Realised: 6 bottles that cost 600, sold for 700; unrealised: 6 that cost 600, worth 620.
    expect(realisedGains(lots.realisations, rate).total).toBeCloseTo(100, 9);
    expect(unrealisedGain(lots.lots, () => 620, rate).total).toBeCloseTo(20, 9);
  });
});
