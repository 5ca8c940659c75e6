import { describe, expect, it } from 'vitest';
import { insuranceReview, insuranceStatus, hasCover, type InsuranceOptions, type ReviewInput } from '../../src/insurance';
import { daysBetween } from '../../src/performance';

const OPTIONS: InsuranceOptions = { basis: 'high', tolerance: 0.1, overInsuredFactor: 1.25, renewalWindowDays: 60, asOf: '2026-09-30' };
const item = (asset_id: string, insured: number | null, mid: number, high: number, extra: Partial<ReviewInput> = {}): ReviewInput => ({
  asset_id,
  description: asset_id,
  mid,
  high,
  insured_value: insured,
  ...extra,
});

describe('insuranceStatus at and around each boundary', () => {
  const opts = { tolerance: 0.1, overInsuredFactor: 1.25 };
  it('under-insured strictly below replacement × (1 − tolerance): 9,000 of 10,000 is covered, a cent less is not', () => {
    expect(insuranceStatus(9000, 10_000, 10_000, opts)).toBe('covered');
    expect(insuranceStatus(8999.99, 10_000, 10_000, opts)).toBe('under-insured');
    expect(insuranceStatus(9000.01, 10_000, 10_000, opts)).toBe('covered');
  });
  it('over-insured strictly above 1.25 × high, whatever the replacement', () => {
    expect(insuranceStatus(12_500, 10_000, 10_000, opts)).toBe('covered');
    expect(insuranceStatus(12_500.01, 10_000, 10_000, opts)).toBe('over-insured');
    // Replacement = mid (8,000): the over-insured line is still 1.25 × high (12,500), not 1.25 × mid.
    expect(insuranceStatus(12_000, 8_000, 10_000, opts)).toBe('covered');
    expect(insuranceStatus(12_500.01, 8_000, 10_000, opts)).toBe('over-insured');
  });
  it('not insured without an insured value; an insured value of 0 is under-insured, not "not insured"', () => {
    expect(insuranceStatus(null, 10_000, 10_000, opts)).toBe('not-insured');
    expect(insuranceStatus(0, 10_000, 10_000, opts)).toBe('under-insured');
  });
  it('a threshold with binary-fraction noise is taken to the cent (0.3 × 3 tolerance)', () => {
    // 1,000 × (1 − 0.3) = 699.9999999999999 in floating point: 700 is exactly on the line, so covered.
    expect(insuranceStatus(700, 1000, 1000, { tolerance: 0.3, overInsuredFactor: 1.25 })).toBe('covered');
    expect(insuranceStatus(699.99, 1000, 1000, { tolerance: 0.3, overInsuredFactor: 1.25 })).toBe('under-insured');
  });
  it('tolerance 0: any shortfall is under-insured', () => {
    expect(insuranceStatus(9999.99, 10_000, 10_000, { tolerance: 0, overInsuredFactor: 1.25 })).toBe('under-insured');
    expect(insuranceStatus(10_000, 10_000, 10_000, { tolerance: 0, overInsuredFactor: 1.25 })).toBe('covered');
  });
});

describe('insuranceReview', () => {
  const inputs: ReviewInput[] = [
    item('A-covered', 10_000, 9_500, 10_500, { insurer: 'Hiscox', policy: 'P1', renewal_date: '2027-01-31', serial: 'S-A' }),
    item('B-under', 50_000, 70_000, 80_000, { insurer: 'Hiscox', renewal_date: '2026-10-30' }),
    item('C-flips', 9_200, 9_500, 10_500, { insurer: 'Chubb' }), // under with high (9,450 line), covered with mid (8,550)
    item('D-over', 20_000, 12_000, 15_000, { insurer: 'Chubb', renewal_date: '2026-11-29' }),
    item('E-none', null, 30_000, 40_000),
    item('F-under-small', 1_000, 2_000, 2_500, { renewal_date: '2026-09-29' }),
  ];

  it('statuses, gaps and the replacement value with the default basis (high)', () => {
    const r = insuranceReview(inputs, OPTIONS);
    const by = Object.fromEntries(r.items.map((i) => [i.asset_id, i]));
    expect(by['A-covered']).toMatchObject({ status: 'covered', replacement_value: 10_500, gap: 500, insurer: 'Hiscox', policy: 'P1', serial: 'S-A', renewal_date: '2027-01-31', renews_in_days: 123 });
    expect(by['B-under']).toMatchObject({ status: 'under-insured', replacement_value: 80_000, gap: 30_000 });
    expect(by['C-flips']).toMatchObject({ status: 'under-insured', gap: 1_300 });
    expect(by['D-over']).toMatchObject({ status: 'over-insured', gap: -5_000 });
    expect(by['E-none']).toMatchObject({ status: 'not-insured', gap: null, insured_value: null, insurer: null, policy: null, renewal_date: null, renews_in_days: null, serial: null });
    expect(by['F-under-small']).toMatchObject({ status: 'under-insured', gap: 1_500, renews_in_days: -1 });
    expect(r.basis).toBe('high');
    expect(r.tolerance).toBe(0.1);
  });

  it('--replacement mid changes exactly the items whose status depends on it, and every replacement value', () => {
    const high = insuranceReview(inputs, OPTIONS);
    const mid = insuranceReview(inputs, { ...OPTIONS, basis: 'mid' });
    const changed = mid.items.filter((m) => high.items.find((h) => h.asset_id === m.asset_id)!.status !== m.status).map((m) => m.asset_id);
    expect(changed).toEqual(['C-flips']);
    for (const m of mid.items) expect(m.replacement_value).toBe(m.mid);
    for (const h of high.items) expect(h.replacement_value).toBe(h.high);
    expect(mid.items.find((i) => i.asset_id === 'C-flips')).toMatchObject({ status: 'covered', gap: 300 });
    expect(mid.basis).toBe('mid');
  });

  it('the tolerance changes exactly the items between the two lines', () => {
    const strict = insuranceReview(inputs, { ...OPTIONS, tolerance: 0 });
    const loose = insuranceReview(inputs, { ...OPTIONS, tolerance: 0.2 });
    const status = (r: ReturnType<typeof insuranceReview>, id: string) => r.items.find((i) => i.asset_id === id)!.status;
    // tolerance 0: A (10,000 < 10,500) becomes under-insured; 0.2: C (9,200 ≥ 8,400) becomes covered.
    expect(status(strict, 'A-covered')).toBe('under-insured');
    expect(status(loose, 'C-flips')).toBe('covered');
    const base = insuranceReview(inputs, OPTIONS);
    const diff = (r: ReturnType<typeof insuranceReview>) => r.items.filter((i) => status(base, i.asset_id) !== i.status).map((i) => i.asset_id);
    expect(diff(strict)).toEqual(['A-covered']);
    expect(diff(loose)).toEqual(['C-flips']);
    expect(loose.tolerance).toBe(0.2);
  });

  it('totals per status, total shortfall (positive gaps of under-insured only), insured and replacement sums', () => {
    const r = insuranceReview(inputs, OPTIONS);
    expect(r.totals.by_status).toEqual({
      'under-insured': { count: 3, insured_value: 60_200, replacement_value: 93_000 },
      'over-insured': { count: 1, insured_value: 20_000, replacement_value: 15_000 },
      covered: { count: 1, insured_value: 10_000, replacement_value: 10_500 },
      'not-insured': { count: 1, insured_value: 0, replacement_value: 40_000 },
    });
    expect(r.totals.total_shortfall).toBe(30_000 + 1_300 + 1_500);
    expect(r.totals.insured_value).toBe(10_000 + 50_000 + 9_200 + 20_000 + 1_000);
    expect(r.totals.replacement_value).toBe(10_500 + 80_000 + 10_500 + 15_000 + 40_000 + 2_500);
  });

  it('every status is in the totals even when no item has it', () => {
    const r = insuranceReview([item('only', 100, 100, 100)], OPTIONS);
    expect(Object.keys(r.totals.by_status).sort()).toEqual(['covered', 'not-insured', 'over-insured', 'under-insured']);
    expect(r.totals.by_status['under-insured']).toEqual({ count: 0, insured_value: 0, replacement_value: 0 });
    expect(r.totals.total_shortfall).toBe(0);
  });

  it('items sorted by shortfall, largest first; then not insured, covered, over-insured; the input order does not matter', () => {
    const order = insuranceReview(inputs, OPTIONS).items.map((i) => i.asset_id);
    expect(order).toEqual(['B-under', 'F-under-small', 'C-flips', 'E-none', 'A-covered', 'D-over']);
    expect(insuranceReview([...inputs].reverse(), OPTIONS).items.map((i) => i.asset_id)).toEqual(order);
  });

  it('renewals within 60 days of the as-of date, inclusive, soonest first; past ones and later ones not named', () => {
    const r = insuranceReview(inputs, OPTIONS);
    expect(r.renewals.map((i) => [i.asset_id, i.renews_in_days])).toEqual([
      ['B-under', 30],
      ['D-over', 60],
    ]);
    const day61 = insuranceReview([item('late', 1, 1, 1, { renewal_date: '2026-11-30' }), item('today', 1, 1, 1, { renewal_date: '2026-09-30' })], OPTIONS);
    expect(day61.renewals.map((i) => [i.asset_id, i.renews_in_days])).toEqual([['today', 0]]);
  });

  it('keeps the original currency amount of a cover converted into the report currency', () => {
    const r = insuranceReview([item('eur', 1_150, 1_000, 1_200, { insured_value_original: { amount: 1_000, currency: 'EUR' } })], OPTIONS);
    expect(r.items[0]!.insured_value_original).toEqual({ amount: 1_000, currency: 'EUR' });
    expect(r.items[0]!.insured_value).toBe(1_150);
  });

  it('an empty portfolio has empty items, zero totals', () => {
    const r = insuranceReview([], OPTIONS);
    expect(r.items).toEqual([]);
    expect(r.totals.total_shortfall).toBe(0);
  });
});

describe('helpers', () => {
  it('daysBetween counts calendar days across month ends and leap days', () => {
    expect(daysBetween('2026-09-30', '2026-10-30')).toBe(30);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-10-01', '2026-09-30')).toBe(-1);
  });
  it('hasCover: any cover field given', () => {
    expect(hasCover(undefined)).toBe(false);
    expect(hasCover({})).toBe(false);
    expect(hasCover({ insurer: 'Hiscox' })).toBe(true);
    expect(hasCover({ insured_value: 0 })).toBe(true);
  });
});
