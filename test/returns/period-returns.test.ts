import { describe, expect, it } from 'vitest';
import { annualise, moneyWeightedPeriodReturn, moneyWeightedReturn } from '../../src/returns';

describe("a period's own money-weighted return (not annualised)", () => {
  it('a round trip sold at a gain and at a loss: ±10 % over 182 days, whatever that is a year', () => {
    // 1 January to 2 July 2025 is 182 days.
    const gain = [{ date: '2025-01-01', amount: -1000 }, { date: '2025-07-02', amount: 1100 }];
    const loss = [{ date: '2025-01-01', amount: -1000 }, { date: '2025-07-02', amount: 900 }];
    expect(moneyWeightedPeriodReturn(gain)).toBeCloseTo(10, 8);
    expect(moneyWeightedPeriodReturn(loss)).toBeCloseTo(-10, 8);
    // The same root a year: 1.1^(365/182) − 1 = 21.0634 %, 0.9^(365/182) − 1 = −19.0469 %.
    expect(moneyWeightedReturn(gain)).toBeCloseTo(21.06338215, 6);
    expect(moneyWeightedReturn(loss)).toBeCloseTo(-19.04687765, 6);
  });

  it('weights a flow by the share of the span it was invested: 1000 in, 1000 more half-way, 2100 out', () => {
    // 1000 x² + 1000 x = 2100 with x = √(1 + g): x = (−1000 + √(1000² + 4 × 1000 × 2100)) / 2000.
    const x = (-1000 + Math.sqrt(1000 ** 2 + 4 * 1000 * 2100)) / 2000;
    const r = moneyWeightedPeriodReturn([
      { date: '2026-01-01', amount: -1000 },
      { date: '2026-01-31', amount: -1000 },
      { date: '2026-03-02', amount: 2100 },
    ]);
    expect(r).toBeCloseTo((x * x - 1) * 100, 8);
  });

  it('a large move over a few days is still a number (the annual rate would not be)', () => {
    const flows = [{ date: '2026-01-01', amount: -1000 }, { date: '2026-01-02', amount: 1500 }];
    expect(moneyWeightedPeriodReturn(flows)).toBeCloseTo(50, 8);
    expect(moneyWeightedReturn(flows)).toBeNull(); // 1.5^365: beyond any meaningful rate
  });
});

describe('annualise', () => {
  it('turns a period return into a yearly rate, actual/365', () => {
    expect(annualise(21, 730)).toBeCloseTo(10, 10); // 1.21^(1/2) − 1
    expect(annualise(10, 365)).toBeCloseTo(10, 10);
    expect(annualise(-100, 800)).toBe(-100);
    expect(annualise(null, 800)).toBeNull();
    expect(annualise(5, 0)).toBeNull();
  });
});
