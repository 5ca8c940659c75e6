import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthReturn, performanceOverPeriods, valueHistory, type DatedFlow } from '../../src/performance';
import { moneyWeightedPeriodReturn } from '../../src/returns';

/**
 * Issue 34: a day whose purchases and transfers in, less sales and transfers out, exceed 10 % of
 * the book value just before it (the last month-end value plus the month's earlier purchases at
 * cost less sales at proceeds; any such day while it is nil) splits the month. One scenario a test,
 * each checked by hand in its comments.
 */

const buy = (date: string, amount: number): DatedFlow => ({ date, amount, kind: 'external' });
const sell = (date: string, amount: number): DatedFlow => ({ date, amount: -amount, kind: 'external' });
const fee = (date: string, amount: number): DatedFlow => ({ date, amount, kind: 'fee' });
const income = (date: string, amount: number): DatedFlow => ({ date, amount: -amount, kind: 'income' });

describe('a month split at its large external flows', () => {
  it('the newcomer: a small purchase early in January, a large one on the 25th', () => {
    // 10 000 bought on 6 January (the first flow: the inception month starts that day), 90 000 on
    // the 25th, worth 113 900 on 31 January (13.9 % above the 100 000 paid), 116 178 on 28 February.
    const flows = [buy('2026-01-06', 10_000), buy('2026-01-25', 90_000)];
    const history = [
      { asOf: '2026-01-31', value: 113_900 },
      { asOf: '2026-02-28', value: 116_178 },
    ];
    // Book value before the 25th: 10 000; 90 000 is more than 10 % of it, so January splits:
    //   6 → 25 January: 10 000 → 10 000 (the book value; nothing else is known): 0 %;
    //   25 → 31 January: 100 000 → 113 900: +13.9 %.
    // January +13.9 %, as the holdings stand against their cost. Plain Modified Dietz would divide
    // the gain 13 900 by 10 000 + 90 000 × 6/25 = 31 600: +44.0 %, the inflated figure of the issue.
    const january = monthReturn('2026-01-06', 0, '2026-01-31', 113_900, flows, true);
    expect(january.sub_periods.map((s) => [s.from, s.to, s.start_value, s.end_value])).toEqual([
      ['2026-01-06', '2026-01-25', 10_000, 10_000],
      ['2026-01-25', '2026-01-31', 100_000, 113_900],
    ]);
    expect(january.sub_periods.map((s) => s.return_percent)).toEqual([0, expect.closeTo(13.9, 10)]);
    expect(january.return_percent).toBeCloseTo(13.9, 10);
    expect(january.return_percent).not.toBeCloseTo((13_900 / 31_600) * 100, 1);

    // February, no flows: 116 178 / 113 900 − 1 = +2 %. Since inception: 1.139 × 1.02 − 1 = +16.178 %.
    const r = performanceOverPeriods(history, flows, '2026-02-28');
    expect(r.periods.since_inception!.twr_percent).toBeCloseTo((1.139 * 1.02 - 1) * 100, 9);
    expect(r.periods.mtd!.twr_percent).toBeCloseTo(2, 9);
    // The value history's monthly return is the same computation.
    expect(valueHistory(history, flows).map((p) => p.return_percent)).toEqual([expect.closeTo(13.9, 10), expect.closeTo(2, 10)]);
    // The money-weighted return is unchanged by the split: the IRR of the flows and the end value.
    expect(r.periods.since_inception!.mwr_percent).toBeCloseTo(
      moneyWeightedPeriodReturn([
        { date: '2026-01-06', amount: -10_000 },
        { date: '2026-01-25', amount: -90_000 },
        { date: '2026-02-28', amount: 116_178 },
      ])!,
      9,
    );
  });

  it('the inception month starts on the day of the first flow, its fees that day weighing whole', () => {
    // 5 000 bought on 20 March with a 50 fee that day, worth 5 200 on 31 March:
    // one sub-period from the 20th, 5 000 start, the fee weight 1: (5 200 − 5 000 − 50) / (5 000 + 50) = +2.9703 %.
    const flows = [fee('2026-03-20', 50), buy('2026-03-20', 5_000)];
    const r = performanceOverPeriods([{ asOf: '2026-03-31', value: 5_200 }], flows, '2026-03-31');
    expect(r.periods.since_inception).toMatchObject({ from: '2026-03-20', start_value: 0, net_flows: 5_050 });
    expect(r.periods.since_inception!.twr_percent).toBeCloseTo((150 / 5_050) * 100, 10);
    const march = monthReturn('2026-03-20', 0, '2026-03-31', 5_200, flows, true);
    expect(march.sub_periods.map((s) => [s.from, s.start_value, s.net_flows])).toEqual([['2026-03-20', 5_000, 50]]);
    // The first point of the value history is that inception month.
    expect(valueHistory([{ asOf: '2026-03-31', value: 5_200 }], flows)[0]!.return_percent).toBeCloseTo((150 / 5_050) * 100, 10);
  });

  it('a fee paid before anything is held counts with the first purchase, not as a −100 % sub-period', () => {
    // The 50 fee on 10 March opens the ledger (the period's start) with nothing held; the purchase on
    // the 20th starts the sub-period that holds something, and the fee is in it from its first day:
    // (5 200 − 5 000 − 50) / (5 000 + 50) = +2.9703 %; the empty 10 → 20 March is 0 %.
    const flows = [fee('2026-03-10', 50), buy('2026-03-20', 5_000)];
    const march = monthReturn('2026-03-10', 0, '2026-03-31', 5_200, flows, true);
    expect(march.sub_periods.map((s) => [s.from, s.to, s.return_percent])).toEqual([
      ['2026-03-10', '2026-03-20', 0],
      ['2026-03-20', '2026-03-31', expect.closeTo((150 / 5_050) * 100, 10)],
    ]);
    expect(march.net_flows).toBe(5_050);
  });

  it('a large sale: the sub-period after starts at the book value less the proceeds', () => {
    // Worth 100 000 on 31 March; 40 000 of it sold on 10 April (40 % of the book value); 63 000 on 30 April.
    //   31 March → 10 April: 100 000 → 100 000: 0 %;  10 → 30 April: 60 000 → 63 000: +5 %.
    // (Plain Modified Dietz: 3 000 / (100 000 − 40 000 × 20/30) = +4.09 %.)
    const april = monthReturn('2026-03-31', 100_000, '2026-04-30', 63_000, [sell('2026-04-10', 40_000)]);
    expect(april.sub_periods.map((s) => [s.from, s.to, s.start_value, s.end_value])).toEqual([
      ['2026-03-31', '2026-04-10', 100_000, 100_000],
      ['2026-04-10', '2026-04-30', 60_000, 63_000],
    ]);
    expect(april.return_percent).toBeCloseTo(5, 10);
    expect(april.net_flows).toBe(-40_000);
  });

  it('a sale of everything: the gain or loss is the sale’s, and the empty rest of the month is 0 %', () => {
    // Sold for 104 000 on 10 April, nothing held on 30 April: more than the book value 100 000 was
    // taken out, so the sub-period before ends at the proceeds: +4 %; 10 → 30 April holds nothing: 0 %.
    const gain = monthReturn('2026-03-31', 100_000, '2026-04-30', 0, [sell('2026-04-10', 104_000)]);
    expect(gain.sub_periods.map((s) => [s.start_value, s.end_value, s.return_percent])).toEqual([
      [100_000, 104_000, expect.closeTo(4, 10)],
      [0, 0, 0],
    ]);
    expect(gain.return_percent).toBeCloseTo(4, 10);
    // Sold for 96 000: the book value would leave 4 000 that the month-end (0) never saw; the sale
    // emptied the portfolio, so the sub-period before ends at 96 000: −4 %, not −100 %.
    const loss = monthReturn('2026-03-31', 100_000, '2026-04-30', 0, [sell('2026-04-10', 96_000)]);
    expect(loss.return_percent).toBeCloseTo(-4, 10);
    // A storage fee of 300 after the sale, while nothing is held, counts at the sale: (96 000 − 100 000 − 300) / 100 000.
    const withFee = monthReturn('2026-03-31', 100_000, '2026-04-30', 0, [sell('2026-04-10', 96_000), fee('2026-04-20', 300)]);
    expect(withFee.return_percent).toBeCloseTo(-4.3, 10);
    expect(withFee.net_flows).toBe(-95_700);
  });

  it('fees and income never split, however large', () => {
    // Worth 100 000 on 31 March, a 20 000 fee on 15 April (day 15 of 30: weight 0.5), 100 000 on 30 April:
    // one sub-period, −20 000 / (100 000 + 10 000) = −18.18 %.
    const feeMonth = monthReturn('2026-03-31', 100_000, '2026-04-30', 100_000, [fee('2026-04-15', 20_000)]);
    expect(feeMonth.sub_periods).toHaveLength(1);
    expect(feeMonth.return_percent).toBeCloseTo((-20_000 / 110_000) * 100, 10);
    // 20 000 of income: +20 000 / (100 000 − 10 000) = +22.2 %.
    const incomeMonth = monthReturn('2026-03-31', 100_000, '2026-04-30', 100_000, [income('2026-04-15', 20_000)]);
    expect(incomeMonth.sub_periods).toHaveLength(1);
    expect(incomeMonth.return_percent).toBeCloseTo((20_000 / 90_000) * 100, 10);
    // The same 20 000 as a purchase splits: 100 000 → 100 000, then 120 000 → 100 000.
    expect(monthReturn('2026-03-31', 100_000, '2026-04-30', 100_000, [buy('2026-04-15', 20_000)]).sub_periods).toHaveLength(2);
  });

  it('a fee on a split day weighs whole in the sub-period the day starts', () => {
    // 100 000 on 31 March; 50 000 bought on 15 April with a 500 fee; 151 000 on 30 April.
    //   to the 15th: 100 000 → 100 000: 0 %;  from the 15th: 150 000 → 151 000 with the fee weight 1:
    //   (151 000 − 150 000 − 500) / (150 000 + 500) = +0.3322 %.
    const april = monthReturn('2026-03-31', 100_000, '2026-04-30', 151_000, [buy('2026-04-15', 50_000), fee('2026-04-15', 500)]);
    expect(april.sub_periods.map((s) => [s.start_value, s.net_flows])).toEqual([
      [100_000, 0],
      [150_000, 500],
    ]);
    expect(april.return_percent).toBeCloseTo((500 / 150_500) * 100, 10);
  });

  it('a flow of exactly 10 % of the book value does not split; a cent more does', () => {
    // 100 000 on 31 March, 10 000 bought on 15 April, 111 000 on 30 April.
    // Not split: (111 000 − 100 000 − 10 000) / (100 000 + 10 000 × 15/30) = 1 000 / 105 000 = +0.952 %.
    const exactly = monthReturn('2026-03-31', 100_000, '2026-04-30', 111_000, [buy('2026-04-15', 10_000)]);
    expect(exactly.sub_periods).toHaveLength(1);
    expect(exactly.return_percent).toBeCloseTo((1_000 / 105_000) * 100, 10);
    // 10 000.01: split. 100 000 → 100 000, then 110 000.01 → 111 000: 999.99 / 110 000.01 = +0.9091 %.
    const over = monthReturn('2026-03-31', 100_000, '2026-04-30', 111_000, [buy('2026-04-15', 10_000.01)]);
    expect(over.sub_periods).toHaveLength(2);
    expect(over.return_percent).toBeCloseTo((999.99 / 110_000.01) * 100, 10);
    // A day's net counts: 15 000 bought and 6 000 sold on one day is 9 000, under 10 %: not split.
    expect(monthReturn('2026-03-31', 100_000, '2026-04-30', 111_000, [buy('2026-04-15', 15_000), sell('2026-04-15', 6_000)]).sub_periods).toHaveLength(1);
  });

  it('the book value counts the month’s earlier purchases and sales', () => {
    // 100 000 on 31 March; 9 000 bought on the 5th (under 10 %): book value 109 000. 10 850 on the
    // 20th is under 10 % of 109 000 (10 900), though over 10 % of the month-end value: not split.
    expect(monthReturn('2026-03-31', 100_000, '2026-04-30', 121_000, [buy('2026-04-05', 9_000), buy('2026-04-20', 10_850)]).sub_periods).toHaveLength(1);
    // After a sale of 20 000 on the 5th (split) the book value is 80 000: 8 500 on the 20th is over 8 000 and splits again.
    const m = monthReturn('2026-03-31', 100_000, '2026-04-30', 90_000, [sell('2026-04-05', 20_000), buy('2026-04-20', 8_500)]);
    expect(m.sub_periods.map((s) => [s.from, s.to, s.start_value, s.end_value])).toEqual([
      ['2026-03-31', '2026-04-05', 100_000, 100_000],
      ['2026-04-05', '2026-04-20', 80_000, 80_000],
      ['2026-04-20', '2026-04-30', 88_500, 90_000],
    ]);
  });

  it('sub-periods chain-link into the month and months into the period', () => {
    // March: 100 000 → 110 000, no flows (+10 %). April as in the large sale above (0 %, then +5 %).
    const history = [
      { asOf: '2026-02-28', value: 100_000 },
      { asOf: '2026-03-31', value: 110_000 },
      { asOf: '2026-04-30', value: 70_350 },
    ];
    // April: 110 000 → 110 000 to the 10th; 110 000 − 44 000 = 66 000 → 70 350: +6.5909 %.
    const flows = [buy('2026-02-28', 100_000), sell('2026-04-10', 44_000)];
    const r = performanceOverPeriods(history, flows, '2026-04-30');
    expect(r.periods.mtd!.twr_percent).toBeCloseTo((4_350 / 66_000) * 100, 10);
    expect(r.periods.since_inception!.twr_percent).toBeCloseTo((1.1 * (70_350 / 66_000) - 1) * 100, 10);
  });
});

describe('with no large external flow, the split computation is plain Modified Dietz', () => {
  const DAY = 86_400_000;
  const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
  const monthEnd = (i: number) => new Date(Date.UTC(2025, i + 1, 0)).toISOString().slice(0, 10); // i = 0: 2025-01-31
  /** One month by Modified Dietz written out again: flows after `from` up to `to`, weighted (D − d) / D. */
  const plainDietz = (from: string, start: number, to: string, end: number, flows: DatedFlow[]) => {
    const D = dayOf(to) - dayOf(from);
    const inside = flows.filter((f) => f.date > from && f.date <= to);
    const net = inside.reduce((s, f) => s + f.amount, 0);
    return (end - start - net) / (start + inside.reduce((s, f) => s + (f.amount * (dayOf(to) - dayOf(f.date))) / D, 0));
  };

  it('in every month and every period (property)', () => {
    const month = fc.record({
      // At most one purchase or sale a day, each within ±10 % of the book value just before it.
      external: fc.uniqueArray(fc.record({ day: fc.integer({ min: 1, max: 28 }), share: fc.double({ min: -0.1, max: 0.1, noNaN: true }) }), { maxLength: 3, selector: (e) => e.day }),
      // Fees and income of any day, up to 30 % of the book value: they never split.
      other: fc.array(fc.record({ day: fc.integer({ min: 1, max: 28 }), share: fc.double({ min: 0, max: 0.3, noNaN: true }), income: fc.boolean() }), { maxLength: 2 }),
      move: fc.double({ min: 0.5, max: 2, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.double({ min: 1_000, max: 1e7, noNaN: true }), fc.array(month, { minLength: 1, maxLength: 16 }), (first, months) => {
        // Bought for `first` on 31 December 2024; each month's flows, then its month-end value.
        const flows: DatedFlow[] = [buy('2024-12-31', first)];
        const history = [{ asOf: '2024-12-31', value: first }];
        months.forEach((m, i) => {
          const end = monthEnd(i);
          const day = (d: number) => `${end.slice(0, 8)}${String(d).padStart(2, '0')}`;
          let book = history.at(-1)!.value;
          for (const e of [...m.external].sort((a, b) => a.day - b.day)) {
            const amount = e.share * book;
            flows.push({ date: day(e.day), amount, kind: 'external' });
            book += amount;
          }
          for (const o of m.other) flows.push(o.income ? income(day(o.day), o.share * book) : fee(day(o.day), o.share * book));
          history.push({ asOf: end, value: book * m.move });
        });
        const plain = history.slice(1).map((p, i) => plainDietz(history[i]!.asOf, history[i]!.value, p.asOf, p.value, flows));
        const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

        const monthly = valueHistory(history, flows).slice(1).map((p) => p.return_percent!);
        monthly.forEach((r, i) => expect(close(r, plain[i]! * 100), `month ${i + 1}: ${r} vs ${plain[i]! * 100}`).toBe(true));

        const asOf = history.at(-1)!.asOf;
        const r = performanceOverPeriods(history, flows, asOf);
        for (const p of Object.values(r.periods)) {
          if (p === null) continue;
          const linked = plain.filter((_, i) => history[i + 1]!.asOf > p.from).reduce((g, x) => g * (1 + x), 1);
          const want = (p.annualised ? Math.pow(linked, 365 / p.days) - 1 : linked - 1) * 100;
          expect(close(p.twr_percent!, want), `${p.from}: ${p.twr_percent} vs ${want}`).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });
});
