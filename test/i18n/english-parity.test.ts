/**
 * The English translator prints exactly what the report writers print today (text-format.ts), so
 * moving a writer onto it changes no English output. Property-based over the inputs writers meet.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import {
  formatAmountIn,
  formatCompactMoney,
  formatInteger,
  formatLongDate,
  formatMoney,
  formatPercent,
  formatReturn,
  formatShortDate,
  formatTimestamp,
} from '../../reports/writers/text-format';

const en = translator('en');
const amount = fc.oneof(
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 100),
  fc.constantFrom(0, -0, 0.005, -0.005, 1.005, 2.5, -2.5, 0.049, 999.95, 1000, -1000.4),
);
const maybe = fc.oneof(amount, fc.constant(null), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY));
const currency = fc.constantFrom('USD', 'EUR', 'GBP', 'CHF', 'HKD', 'JPY', 'AED', 'XAU', 'ZZZ');
const isoDate = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const runs = { numRuns: 400 };

describe('the en translator and the writers’ formatting today', () => {
  it('money, compact money and amounts', () => {
    fc.assert(
      fc.property(maybe, currency, fc.constantFrom(0, 2), (v, c, d) => {
        expect(en.money(v, c, d)).toBe(formatMoney(v, c, d));
        expect(en.compactMoney(v, c)).toBe(formatCompactMoney(v, c));
        expect(en.amountIn(v, c)).toBe(formatAmountIn(v, c));
      }),
      runs,
    );
  });

  it('percents, returns and whole numbers', () => {
    fc.assert(
      fc.property(maybe, fc.constantFrom(0, 1, 2), fc.boolean(), (v, d, signed) => {
        expect(en.percent(v, { digits: d, signed })).toBe(formatPercent(v, d, signed));
        expect(en.returnPercent(v)).toBe(formatReturn(v));
        expect(en.number(v, 0)).toBe(formatInteger(v));
      }),
      runs,
    );
    expect(en.percent(12.345)).toBe('12.3 %');
    expect(en.percent(-3.21, { signed: true })).toBe('−3.2 %');
    expect(en.percent(0.01)).toBe('<0.1 %');
  });

  it('dates and timestamps', () => {
    fc.assert(
      fc.property(isoDate, fc.constantFrom('T06:00:12Z', 'T23:59:59.999Z', ''), (d, time) => {
        expect(en.date(d + time)).toBe(formatLongDate(d + time));
        expect(en.shortDate(d)).toBe(formatShortDate(d));
        if (time) expect(en.timestamp(d + time)).toBe(formatTimestamp(d + time));
      }),
      runs,
    );
    expect(en.date('2026-10-31')).toBe('31 October 2026');
    expect(en.shortDate('2024-09-20')).toBe('20 Sep 2024');
    for (const text of ['', 'soon', '31/10/2026']) {
      expect(en.date(text)).toBe(formatLongDate(text));
      expect(en.shortDate(text)).toBe(formatShortDate(text));
    }
  });
});
