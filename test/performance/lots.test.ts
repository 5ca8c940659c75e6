import { describe, expect, it } from 'vitest';
import { buildLots } from '../../src/ledger';
import { entry } from './ledger-fixtures';

describe('lots, first in, first out', () => {
  it('a partial sale reduces a lot, cost pro rata: 6 of 12 bottles, then 3 more', () => {
    const ledger = [
      entry(2, '2024-01-10', 'buy', 'wine', 12, 1200), // 100 a bottle
      entry(3, '2024-03-05', 'sell', 'wine', 6, 900), // 150 a bottle
      entry(4, '2024-06-01', 'sell', 'wine', 3, 360), // 120 a bottle
    ];
    const r = buildLots(ledger, '2024-12-31');
    expect(r.problems).toEqual([]);
    // Sale 1: 6 × 100 = 600 of cost against 900 of proceeds; sale 2: 3 × 100 = 300 against 360.
    expect(r.realisations.map((x) => [x.sold, x.opened, x.quantity, x.cost, x.proceeds])).toEqual([
      ['2024-03-05', '2024-01-10', 6, 600, 900],
      ['2024-06-01', '2024-01-10', 3, 300, 360],
    ]);
    // What is left: 12 − 6 − 3 = 3 bottles costing 1200 − 600 − 300 = 300.
    expect(r.lots.map((l) => [l.assetId, l.opened, l.quantity, l.cost])).toEqual([['wine', '2024-01-10', 3, 300]]);
    expect(r.accepted).toHaveLength(3);
  });

  it('a sale across two lots takes the older first, proceeds pro rata to the quantity', () => {
    const ledger = [
      entry(3, '2024-02-01', 'buy', 'watch', 2, 12000), // 6000 each
      entry(2, '2024-01-01', 'buy', 'watch', 2, 10000), // 5000 each: the older lot
      entry(4, '2024-05-01', 'sell', 'watch', 3, 21000), // 7000 each
    ];
    const r = buildLots(ledger, '2024-12-31');
    // Lot of 1 January: both (cost 10000, proceeds 2 × 7000); lot of 1 February: one of two (6000, 7000).
    expect(r.realisations.map((x) => [x.opened, x.quantity, x.cost, x.proceeds])).toEqual([
      ['2024-01-01', 2, 10000, 14000],
      ['2024-02-01', 1, 6000, 7000],
    ]);
    expect(r.lots.map((l) => [l.opened, l.quantity, l.cost])).toEqual([['2024-02-01', 1, 6000]]);
  });

  it('does not depend on the order of the rows (sorted by date, then row)', () => {
    const ledger = [
      entry(2, '2024-01-01', 'buy', 'watch', 2, 10000),
      entry(3, '2024-02-01', 'buy', 'watch', 2, 12000),
      entry(4, '2024-05-01', 'sell', 'watch', 3, 21000),
      entry(5, '2024-05-01', 'sell', 'watch', 1, 8000), // same day, later row: after row 4
    ];
    const a = buildLots(ledger, '2024-12-31');
    const b = buildLots([...ledger].reverse(), '2024-12-31');
    expect(b).toEqual(a);
    expect(a.problems).toEqual([]);
    expect(a.lots).toEqual([]);
    expect(a.realisations.map((x) => x.source.row)).toEqual([4, 4, 5]);
  });

  it('transfer_in opens a lot like a buy and transfer_out closes it like a sale, apart from sales', () => {
    const r = buildLots(
      [
        entry(2, '2024-01-01', 'transfer_in', 'art', 1, 50000), // the value transferred in
        entry(3, '2024-01-05', 'buy', 'art', 1, 40000),
        entry(4, '2024-03-01', 'transfer_out', 'art', 1, 55000),
      ],
      '2024-12-31',
    );
    expect(r.realisations).toEqual([]);
    expect(r.transfersOut.map((x) => [x.opened, x.cost, x.proceeds])).toEqual([['2024-01-01', 50000, 55000]]);
    expect(r.lots.map((l) => [l.opened, l.cost])).toEqual([['2024-01-05', 40000]]);
  });

  it('leaves out rows after the as-of date and counts them (a later sale does not reduce what is held)', () => {
    const r = buildLots(
      [
        entry(2, '2024-01-10', 'buy', 'wine', 12, 1200),
        entry(3, '2024-04-01', 'sell', 'wine', 6, 900),
        entry(4, '2024-04-02', 'fee', undefined, undefined, 50),
      ],
      '2024-03-31',
    );
    expect(r.afterAsOf).toBe(2);
    expect(r.realisations).toEqual([]);
    expect(r.lots.map((l) => l.quantity)).toEqual([12]);
    expect(r.accepted.map((e) => e.source.row)).toEqual([2]);
    // The as-of date itself is in.
    expect(buildLots([entry(3, '2024-04-01', 'sell', 'wine', 6, 900), entry(2, '2024-01-10', 'buy', 'wine', 12, 1200)], '2024-04-01').afterAsOf).toBe(0);
  });
});

describe('bad rows are refused by row and field, the rest still computed', () => {
  const ledger = [
    entry(2, '2024-01-10', 'buy', 'wine', 12, 1200),
    entry(3, '2024-02-01', 'sell', 'wine', 13, 1500), // more than held
    entry(4, '2024-02-15', 'sell', 'watch', 1, 9000), // before the watch's purchase (row 8)
    entry(5, '2024-02-20', 'sell', 'car', 1, 50000), // never bought
    entry(6, '2024-03-01', 'fee', 'watch', undefined, 100), // on an asset not held that day
    entry(7, '2024-03-02', 'income', 'art', undefined, 300), // never held
    entry(8, '2024-04-01', 'buy', 'watch', 1, 8000),
    entry(9, '2024-05-01', 'sell', 'wine', 4, 600),
    entry(10, '2024-05-02', 'fee', 'watch', undefined, 100), // held now: fine
    entry(11, '2024-05-03', 'fee', undefined, undefined, 25), // on the portfolio: fine
  ];
  const r = buildLots(ledger, '2024-12-31');

  it('names each bad row and field with what is allowed', () => {
    expect(r.problems.map((p) => [p.source.row, p.field])).toEqual([
      [3, 'quantity'],
      [4, 'date'],
      [5, 'asset_id'],
      [6, 'asset_id'],
      [7, 'asset_id'],
    ]);
    expect(r.problems[0]!.reason).toContain('at most 12');
    expect(r.problems[1]!.reason).toContain('2024-04-01');
    expect(r.problems[3]!.reason).toContain('not held on 2024-03-01');
    expect(r.problems.every((p) => p.portfolio === 'P' && p.source.file === 'ledger.csv')).toBe(true);
  });

  it('computes everything else', () => {
    expect(r.accepted.map((e) => e.source.row)).toEqual([2, 8, 9, 10, 11]);
    expect(r.realisations.map((x) => [x.assetId, x.quantity, x.cost, x.proceeds])).toEqual([['wine', 4, 400, 600]]);
    expect(r.lots.map((l) => [l.assetId, l.quantity, l.cost])).toEqual([
      ['wine', 8, 800],
      ['watch', 1, 8000],
    ]);
  });

  it('refuses a sale after everything was sold, and a row with no quantity or a negative amount', () => {
    const s = buildLots(
      [
        entry(2, '2024-01-10', 'buy', 'wine', 2, 200),
        entry(3, '2024-02-01', 'sell', 'wine', 2, 300),
        entry(4, '2024-03-01', 'sell', 'wine', 1, 150),
        entry(5, '2024-03-02', 'buy', 'watch', undefined, 150),
        entry(6, '2024-03-03', 'buy', 'watch', 1, -5),
      ],
      '2024-12-31',
    );
    expect(s.problems.map((p) => [p.source.row, p.field])).toEqual([
      [4, 'quantity'],
      [5, 'quantity'],
      [6, 'amount'],
    ]);
    expect(s.realisations).toHaveLength(1);
  });
});
